"""The catalogs of ``course_lib``'s own strings (what :func:`course_lib.i18n._` translates): extract, update, check.

Maintainers' side of :mod:`course_lib.i18n` (the learner's side stays small). The strings are found by an AST
walk of ``course_lib/**/*.py``: every call ``_("literal")`` or ``N_("literal")`` in a module that imports ``_``
or ``N_`` from ``course_lib.i18n``. A call whose argument is not a string literal is reported (it could never
be translated: ``_(f"... {x}")`` must be written ``_("... {x}").format(x=x)``).

Each string goes to the catalog of its module's domain (:func:`course_lib.i18n.domain_of`):
``translations/<lang>/strings/<domain>.po``, written with Babel like the notebook catalogs (``docs/translation.md``).
"""
from __future__ import annotations

import ast
import string
from dataclasses import dataclass, field
from pathlib import Path

from . import i18n

ROOT = i18n.STRINGS.parent
PACKAGE = ROOT / "course_lib"
_MARKERS = ("_", "N_")


@dataclass
class Found:
    """The translatable strings of the package: ``messages`` maps each msgid to its ``(path, line)`` uses
    (paths relative to the repository, POSIX); ``problems`` lists calls that cannot be extracted."""
    messages: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def _imports_markers(tree: ast.Module) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("i18n"):
            names |= {a.asname or a.name for a in node.names if a.name in _MARKERS}
    return names


def extract(package: Path = PACKAGE, root: Path = ROOT) -> Found:
    """Walk ``package``'s modules and collect every ``_()``/``N_()`` string (see the module docstring)."""
    found = Found()
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        markers = _imports_markers(tree)
        if not markers:
            continue
        found.problems += _shadowed(tree, markers, rel)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in markers):
                continue
            arg = node.args[0] if len(node.args) == 1 and not node.keywords else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.messages.setdefault(arg.value, []).append((rel, node.lineno))
            elif arg is None or isinstance(arg, (ast.JoinedStr, ast.BinOp, ast.Constant)) or (
                    isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "format"):
                # a name (a constant marked N_ elsewhere) is fine; text built here can never be in a catalog
                found.problems.append(f"{rel}:{node.lineno}: {node.func.id}() needs one string literal "
                                      "(format after translating: _(\"... {x}\").format(x=x))")
    return found


def _bound_names(fn: ast.AST) -> set[str]:
    """The names a function binds itself (arguments, assignments, loop targets), not those of nested functions."""
    names = {a.arg for a in ast.walk(fn.args) if isinstance(a, ast.arg)} if hasattr(fn, "args") and isinstance(fn.args, ast.arguments) else set()
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        stack.extend(ast.iter_child_nodes(node))
    return names


def _shadowed(tree: ast.Module, markers: set[str], rel: str) -> list[str]:
    """A function that binds ``_`` itself (``for _, x in ...``, ``def f(_)``) while it calls ``_()``: the call
    would hit the local value (an UnboundLocalError or a wrong call), so it is reported."""
    out = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        clash = _bound_names(fn) & markers
        if not clash:
            continue
        calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id in clash]
        if calls:
            out.append(f"{rel}:{fn.lineno}: {getattr(fn, 'name', 'lambda')} binds {sorted(clash)[0]} and calls "
                       f"{sorted(clash)[0]}(): rename its variable")
    return out


def fields(text: str) -> set[str]:
    """The ``str.format`` field names of ``text`` (``"{n} of {total:>3}"`` -> ``{"n", "total"}``);
    ``ValueError`` when the text is not a valid format string."""
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


def _safe_fields(text: str) -> set[str] | None:
    try:
        return fields(text)
    except ValueError:  # literal braces in a string that is never formatted
        return None


def _catalog_path(lang: str, domain: str) -> Path:
    return i18n.STRINGS / lang / "strings" / f"{domain}.po"


def update(lang: str, found: Found | None = None) -> list[Path]:
    """Create or update every ``lang`` string catalog from the package's current strings; return the files.

    New strings get empty entries; a changed English string keeps its old translation as ``fuzzy`` (with the
    previous English, ``#| msgid``) when Babel finds it close enough; strings no module uses any more stay as
    obsolete ``#~`` entries. Running it twice changes nothing.
    """
    from babel.messages.catalog import Catalog

    from .translation import read_catalog, write_catalog

    found = found or extract()
    by_domain: dict[str, Catalog] = {}
    for msgid, uses in sorted(found.messages.items(), key=lambda kv: kv[1][0]):
        domain = i18n.domain_of(uses[0][0])
        cat = by_domain.setdefault(domain, Catalog(project="agent-tool-systems", fuzzy=False))
        flags = ["python-brace-format"] if _safe_fields(msgid) else []
        # Files without line numbers: an edit that only shifts lines must not make every catalog out of date.
        files = list(dict.fromkeys(rel for rel, _line in uses))
        cat.add(msgid, "", locations=[(rel, None) for rel in files], flags=flags)
    written = []
    for domain in sorted(set(by_domain) | {p.stem for p in i18n.catalog_paths(lang)}):
        fresh = by_domain.get(domain, Catalog(project="agent-tool-systems", fuzzy=False))
        path = _catalog_path(lang, domain)
        if path.exists():
            cat = read_catalog(path, lang)
            cat.update(fresh, update_creation_date=False)
        else:
            cat = fresh
        write_catalog(cat, path)
        written.append(path)
    return written


def problems(lang: str, found: Found | None = None) -> list[str]:
    """Why ``lang``'s string catalogs are not current, one line each (empty: every string translated).

    Reported: a call that cannot be extracted, a string with no translation or only a fuzzy one, a
    translation whose ``{fields}`` differ from the English (``.format`` would raise or drop a value).
    """
    from .translation import read_catalog

    found = found or extract()
    out = list(found.problems)
    entries = {}
    for path in i18n.catalog_paths(lang):
        for msg in read_catalog(path, lang):
            if msg.id:
                entries[msg.id] = msg
    for msgid, uses in found.messages.items():
        where = f"{uses[0][0]}:{uses[0][1]}"
        msg = entries.get(msgid)
        first = msgid.strip().splitlines()[0][:70] if msgid.strip() else repr(msgid)
        if msg is None or not msg.string:
            out.append(f"missing {where}: {first}")
        elif msg.fuzzy:
            out.append(f"stale   {where}: {first}")
        else:
            if _safe_fields(msg.string) != _safe_fields(msgid):
                out.append(f"fields  {where}: {first} (the translation must use the same {{fields}}: "
                           f"{sorted(_safe_fields(msgid) or ())})")
    return out
