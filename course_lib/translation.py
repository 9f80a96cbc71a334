"""The course in other languages from one source: translation catalogs and the generated editions.

The English notebooks stay the source. Each translated notebook has one gettext catalog
(``translations/<lang>/<folder>/<stem>.po``, read and written with Babel, see ``docs/translation.md``)
holding one entry per markdown cell, and one per code cell a translator opted in (``extract --code``):

* ``msgctxt`` is :func:`text_key` of the English cell (a hash of its text), ``msgid`` the English text,
  ``msgstr`` the translation, an extracted comment ``cell <id>`` (markdown) or ``code cell <id>`` names the
  nbformat cell id;
* a code cell's ``msgstr`` is its whole source with comments and strings in the language (only those:
  :func:`code_skeleton` must not change); an empty one means "shared unchanged";
* when an English cell changes, its hash changes: the old translation no longer matches
  (:func:`status` reports it *stale*, naming the cell), and :func:`extract` carries it over as a
  ``fuzzy`` entry with the previous English text (``#| msgid``) for the translator to review.

``translations/<lang>/edition.txt`` lists the English notebooks the edition contains; each must have a
complete, current catalog, and its generated copy (``notebooks/<lang>/<same name>``, ``exercises/<lang>/...``)
must have exactly the cells :func:`build` writes (``tests/test_translation.py`` checks both). A generated lesson
is executed (:func:`execute_edition`: its own kernel, cwd its own folder, the mock LLM), so it stores its own
outputs, which nbval checks. Relative links written as in the English cell are rewritten to point from the
edition's folder, to the translated notebook when it exists.
"""
from __future__ import annotations

import ast
import copy
import hashlib
import io
import os
import re
import time
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import notebooks as nbt
from .course_map import lesson_numbers, with_place
from .exercises import committed_text, exercise_text, localise_stubs

ROOT = nbt.ROOT
TRANSLATIONS = ROOT / "translations"
LANGUAGES = ("zh",)
SOURCE_FOLDERS = ("notebooks", "exercises", "solutions")
_LINK = re.compile(r"(\]\()([^)\s]+)(\))")
# Comments that are instructions to a tool, not prose: a code translation keeps them as they are.
_DIRECTIVE = re.compile(r"NBVAL_[A-Z_]+|(BEGIN|END) (SOLUTION|HIDDEN TESTS)|YOUR CODE HERE|noqa|type:\s*ignore")


class TranslationError(Exception):
    """A notebook cannot be built in a language: its catalog is missing, incomplete or stale."""


def text_key(text: str) -> str:
    """The key of an English text: the first 16 hex digits of its SHA-256 (UTF-8).

    >>> text_key("Hello")
    '185f8db32271fe25'
    """
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _relative(path: Path, root: Path) -> Path:
    return Path(path).resolve().relative_to(root.resolve())


def read_english(english: Path, root: Path = ROOT) -> Any:
    """The English source notebook of an edition file.

    An exercise (``exercises/NN_x.ipynb``) is read as ``course exercises generate`` writes it from its
    solution (the one source), not from the file: ``exercises/`` is the learner's to edit, and their work
    must not make the Chinese edition look stale (nor ``make test`` fail in their checkout).
    """
    import nbformat

    rel = _relative(english, root)
    solution = root / "solutions" / rel.name
    if rel.parts[:1] == ("exercises",) and len(rel.parts) == 2 and solution.exists():
        return nbformat.reads(exercise_text(solution), as_version=4)
    return nbt.read(english)


def catalog_path(english: Path, lang: str, root: Path = ROOT) -> Path:
    """``notebooks/01_x.ipynb`` -> ``translations/<lang>/notebooks/01_x.po`` (under ``root``)."""
    return root / "translations" / lang / _relative(english, root).with_suffix(".po")


def edition_path(english: Path, lang: str, root: Path = ROOT) -> Path:
    """``notebooks/interview/x.ipynb`` -> ``notebooks/<lang>/interview/x.ipynb``: same name, one folder down."""
    folder, *rest = _relative(english, root).parts
    if folder not in SOURCE_FOLDERS:
        raise ValueError(f"{english} is not under {', '.join(SOURCE_FOLDERS)}")
    return root.joinpath(folder, lang, *rest)


def is_edition_file(path: Path, root: Path = ROOT) -> bool:
    """True for a generated notebook of some language edition (``notebooks/zh/...``)."""
    parts = _relative(path, root).parts
    return len(parts) > 1 and parts[0] in SOURCE_FOLDERS and parts[1] in LANGUAGES


def edition(lang: str, root: Path = ROOT) -> list[Path]:
    """The English notebooks in the ``lang`` edition, as listed in ``translations/<lang>/edition.txt``
    (one path per line, relative to the repository; ``#`` starts a comment)."""
    listing = root / "translations" / lang / "edition.txt"
    if not listing.exists():
        return []
    lines = (ln.split("#", 1)[0].strip() for ln in listing.read_text(encoding="utf-8").splitlines())
    return [root / ln for ln in lines if ln]


def with_catalogs(lang: str, root: Path = ROOT) -> list[Path]:
    """The English notebooks that have a ``lang`` catalog (translated or being translated), in order."""
    base = root / "translations" / lang
    found = sorted(base.rglob("*.po")) if base.exists() else []
    # translations/<lang>/strings/ holds course_lib's own strings (course_lib.i18n), not notebooks
    return [root / p.relative_to(base).with_suffix(".ipynb") for p in found
            if p.relative_to(base).parts[0] in SOURCE_FOLDERS]


def _tokens(source: str) -> list[tokenize.TokenInfo]:
    """Python tokens of a code cell; raises ``SyntaxError`` when it is not plain Python (a magic, a typo)."""
    try:
        return list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError) as err:
        raise SyntaxError(str(err)) from err


def has_text(source: str) -> bool:
    """True when a code cell has something for a translator: a comment (other than a tool directive
    such as ``# NBVAL_IGNORE_OUTPUT``) or a string literal. False for a cell that is not plain Python."""
    try:
        toks = _tokens(source)
    except SyntaxError:
        return False
    return any(t.type == tokenize.STRING or (t.type == tokenize.COMMENT and not _DIRECTIVE.search(t.string))
               for t in toks)


class _BlankStrings(ast.NodeTransformer):
    """Every string constant of an expression made empty: the words a translation may change."""

    def visit_Constant(self, node: ast.Constant) -> ast.Constant:
        return ast.Constant("") if isinstance(node.value, str) else node


def _fstring_fields(token: str) -> tuple:
    """The replacement fields of an f-string token, with the strings inside them blanked
    (``f"{x!r:<24} items"`` -> one ``(expression, conversion, format spec)`` item): a translation may
    reword the text around and the strings inside a field, not the field's code. Other strings have none."""
    prefix = re.match(r"[A-Za-z]*", token).group(0)
    if "f" not in prefix.lower():
        return ()
    try:
        node = ast.parse(token, mode="eval").body
    except SyntaxError:
        return (token,)  # not parseable on its own: it must stay exactly as it is
    return tuple((ast.dump(_BlankStrings().visit(v.value)), v.conversion,
                  ast.dump(v.format_spec) if v.format_spec is not None else None)
                 for v in getattr(node, "values", []) if isinstance(v, ast.FormattedValue))


def code_skeleton(source: str) -> list[tuple]:
    """A code cell's tokens with the translatable parts blanked: comments (except tool directives such as
    ``# NBVAL_IGNORE_OUTPUT`` and ``### BEGIN SOLUTION``) dropped, every run of string literals one
    ``("STRING", fields)`` item (an f-string keeps its replacement fields), line breaks inside brackets
    dropped. A code translation is valid when its skeleton equals the English one.

    Raises:
        SyntaxError: the source is not plain Python (tokenize fails).
    """
    out: list[tuple] = []
    for tok in _tokens(source):
        if tok.type in (tokenize.NL, tokenize.ENDMARKER) or (tok.type == tokenize.COMMENT
                                                             and not _DIRECTIVE.search(tok.string)):
            continue
        if tok.type == tokenize.STRING:
            fields = _fstring_fields(tok.string)
            if out and out[-1][0] == "STRING":  # "a" "b": a translation may join or split adjacent literals
                out[-1] = ("STRING", out[-1][1] + fields)
            else:
                out.append(("STRING", fields))
            continue
        value = _DIRECTIVE.search(tok.string).group(0) if tok.type == tokenize.COMMENT else tok.string
        out.append((tokenize.tok_name[tok.type], value))
    return out


def _cell_comment(cell: Any, index: int) -> str:
    prefix = "code cell" if cell.cell_type == "code" else "cell"
    return f"{prefix} {cell.get('id') or index}"


def _is_code(msg: Any) -> bool:
    return any(c.startswith("code cell ") for c in msg.auto_comments)


def _opted_in(cat: Any) -> set[str]:
    """The ``code cell <id>`` comments of a catalog's active entries: the code cells a translator opted in."""
    return {c for msg in cat for c in msg.auto_comments if c.startswith("code cell ")} if cat is not None else set()


def template(english: Path, root: Path = ROOT, code: set[str] | bool = False):
    """A catalog (``babel.messages.catalog.Catalog``) with one untranslated entry per markdown cell.

    ``code``: which code cells get an entry too: ``True`` every code cell with a comment or a string
    (:func:`has_text`), or a set of ``"code cell <id>"`` comments (the cells already opted in).
    """
    from babel.messages.catalog import Catalog

    nb = read_english(english, root)
    rel = _relative(english, root).as_posix()
    cat = Catalog(project="agent-tool-systems", fuzzy=False)
    for index, cell in enumerate(nb.cells):
        comment = _cell_comment(cell, index)
        if cell.cell_type == "markdown" and cell.source.strip():
            pass
        elif not (cell.cell_type == "code" and (comment in code if isinstance(code, set)
                                                  else code and has_text(cell.source))):
            continue
        cat.add(cell.source, "", locations=[(rel, index)], auto_comments=[comment], context=text_key(cell.source))
    return cat


def read_catalog(path: Path, lang: str):
    """Read a ``.po`` file with Babel; raises ``FileNotFoundError`` when it does not exist.

    Babel's ``read_po`` does not parse the previous English (``#| msgid "..."``) that ``write_po`` writes: it keeps
    those lines as translator comments starting with ``|``, and the next write turns them into ``# | msgid``
    comments that stay forever. They are turned back into the message's ``previous_id`` while it is fuzzy (the
    translator still needs the old English) and dropped once the translation is done.
    """
    from babel.messages.pofile import read_po

    with open(path, "rb") as fh:
        cat = read_po(fh, locale=lang, abort_invalid=True)
    for msg in cat:
        _restore_previous_id(msg)
    return cat


def _restore_previous_id(msg: Any) -> None:
    """Move ``| msgid "..."`` comments of ``msg`` (see :func:`read_catalog`) into ``msg.previous_id`` if fuzzy."""
    from babel.messages.pofile import unescape

    previous = [c[1:].strip() for c in msg.user_comments if c.startswith("|")]
    if not previous:
        return
    msg.user_comments = [c for c in msg.user_comments if not c.startswith("|")]
    if msg.fuzzy and not msg.previous_id:
        text = " ".join(previous)
        if text.startswith("msgid "):
            text = text[len("msgid "):]
        quoted = re.findall(r'"(?:[^"\\]|\\.)*"', text)
        msg.previous_id = ["".join(unescape(q) for q in quoted) if quoted else text.strip('"')]  # Babel: a list of ids


def write_catalog(cat: Any, path: Path) -> None:
    """Write a catalog deterministically (no header dates: a rerun with nothing new changes nothing)."""
    from babel.messages.pofile import write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        write_po(fh, cat, width=0, omit_header=True, include_previous=True)


@dataclass
class Status:
    """How far a notebook's catalog covers its English cells.

    ``missing``: markdown cells with no translation; ``stale``: cells (markdown, or code with a
    translation) whose translation was made for another English text (the cell changed since);
    ``invalid``: code translations that change more than comments and strings (:func:`code_skeleton`)
    or are not Python; ``code``: how many code cells are translated. Each item is
    ``"cell <id>: <first line of the English>"`` (``"code cell <id>: ..."`` for code).
    """
    english: Path
    missing: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)
    code: int = 0

    @property
    def complete(self) -> bool:
        return not self.missing and not self.stale and not self.invalid

    def problems(self) -> list[str]:
        return ([f"stale   {s}" for s in self.stale] + [f"missing {m}" for m in self.missing]
                + [f"invalid {i}" for i in self.invalid])


def _by_cell(cat: Any) -> dict[str, Any]:
    found = {}
    for msg in list(cat) + list(cat.obsolete.values()):
        for comment in msg.auto_comments:
            if comment.startswith(("cell ", "code cell ")):
                found.setdefault(comment, msg)
    return found


def code_problem(english_source: str, translation: str) -> str | None:
    """Why a code cell's (or an interview demo's) translation cannot be used (None: it only rewords comments and strings)."""
    try:
        same = code_skeleton(translation) == code_skeleton(english_source)
    except SyntaxError as err:
        return f"not Python ({err})"
    return None if same else "changes the code, not only its comments and strings"


def status(english: Path, lang: str, root: Path = ROOT) -> Status:
    """Compare ``english``'s markdown and code cells with its ``lang`` catalog (see :class:`Status`).

    A code cell without an entry, or with an empty current one, is shared unchanged (not missing).
    """
    result = Status(Path(english))
    path = catalog_path(english, lang, root)
    cat = read_catalog(path, lang) if path.exists() else None
    by_cell = _by_cell(cat) if cat is not None else {}
    for index, cell in enumerate(read_english(english, root).cells):
        is_code = cell.cell_type == "code"
        if not cell.source.strip() or cell.cell_type not in ("code", "markdown"):
            continue
        comment = _cell_comment(cell, index)
        label = f"{comment}: {cell.source.strip().splitlines()[0][:70]}"
        msg = cat.get(cell.source, context=text_key(cell.source)) if cat is not None else None
        if msg is not None and msg.string and not msg.fuzzy:
            problem = code_problem(cell.source, msg.string) if is_code else None
            result.invalid += [f"{label} ({problem})"] if problem else []
            result.code += is_code
            continue
        if is_code and msg is not None and not msg.fuzzy:
            continue  # an empty code entry: shared unchanged
        old = by_cell.get(comment)
        if (msg is not None and msg.fuzzy and msg.string) or (old is not None and old.string):
            result.stale.append(label)
        elif not is_code:
            result.missing.append(label)
    return result


def extract(english: Path, lang: str, root: Path = ROOT, code: bool = False) -> Status:
    """Create or update ``english``'s ``lang`` catalog from its current cells; return its status.

    Every markdown cell gets an entry; a code cell gets one when it already has one (by cell id) or,
    with ``code=True``, when it has a comment or a string (:func:`has_text`): the translator opts
    code cells in, and may delete the entries of those that should stay shared. New entries are empty;
    a changed cell's old translation is kept as a ``fuzzy`` entry with the previous English
    (``#| msgid``) when Babel finds it close enough or the cell id matches, else it stays in the file as
    an obsolete ``#~`` entry. Translations of unchanged cells are kept as they are.
    """
    path = catalog_path(english, lang, root)
    cat = read_catalog(path, lang) if path.exists() else None
    fresh = template(english, root, code=True if code else _opted_in(cat))
    numbers = lesson_numbers(root) if _relative(english, root).parts[:1] == ("notebooks",) else []
    if cat is not None:
        old_by_cell, old_is_code = _by_cell(cat), {m.id: _is_code(m) for m in cat if m.id}
        cat.update(fresh, update_creation_date=False)
        for msg in cat:
            previous = msg.previous_id[0] if msg.previous_id else None
            # Babel matches texts of any kind: prose is never the start of a code translation, nor code of prose
            if msg.fuzzy and (not msg.string or old_is_code.get(previous, _is_code(msg)) != _is_code(msg)):
                msg.string, msg.previous_id = "", []
                msg.flags.discard("fuzzy")
            # Babel's fuzzy matching compares texts; a cell rewritten from scratch still has its old
            # translation by cell id, which is the better starting point for the translator.
            if msg.id and not msg.string:
                old = next((old_by_cell[c] for c in msg.auto_comments if c in old_by_cell), None)
                if old is not None and old.string and old.id != msg.id:
                    msg.string, msg.previous_id = old.string, [old.id]
                    msg.flags.add("fuzzy")
            _accept_place_only(msg, numbers, lang)
        # Entries no cell uses any more stay in the file as obsolete (#~): translation memory. An empty one
        # (a code cell that was shared unchanged) remembers nothing.
        for key in [k for k, m in cat.obsolete.items() if not m.string]:
            del cat.obsolete[key]
    else:
        cat = fresh
    write_catalog(cat, path)
    return status(english, lang, root)


def _accept_place_only(msg: Any, numbers: list[str], lang: str) -> None:
    """A fuzzy entry whose English changed only in the lesson's place (``lesson 03 of 12`` -> ``lesson 03 (4 of
    15)``, :func:`course_lib.course_map.with_place`) is current: its translation gets the derived place in
    ``lang`` and loses the fuzzy flag, so a lesson added to the course asks no translator for anything."""
    previous = msg.previous_id[0] if msg.fuzzy and msg.previous_id else None
    if previous and numbers and msg.string and previous != msg.id and with_place(previous, numbers) == msg.id:
        msg.string, msg.previous_id = with_place(msg.string, numbers, lang), []
        msg.flags.discard("fuzzy")


def _translate_links(text: str, english: Path, lang: str, root: Path, translated: set[Path]) -> str:
    """Relative links of an English cell, re-pointed from the edition's folder."""
    src_dir, out_dir = Path(english).resolve().parent, edition_path(english, lang, root).parent

    def fix(m: re.Match) -> str:
        target = m.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:|^#|^/", target, re.I):
            return m.group(0)
        path, _, anchor = target.partition("#")
        resolved = (src_dir / path).resolve()
        if resolved in translated:
            resolved = edition_path(resolved, lang, root)
        new = Path(os.path.relpath(resolved, out_dir)).as_posix()
        return m.group(1) + new + (f"#{anchor}" if anchor else "") + m.group(3)

    return _LINK.sub(fix, text)


def build(english: Path, lang: str, root: Path = ROOT) -> Any:
    """The cells of the ``lang`` edition of ``english``: an nbformat notebook, cleaned as shipped notebooks
    are, with no outputs (a lesson gets its own from :func:`execute_edition`).

    Markdown cells are translated (links re-pointed), code cells with a translation use it, the others
    are the English code; in every code cell an exercise stub's ``raise NotImplementedError("Your turn: ...")``
    raises the edition's own message (:func:`course_lib.exercises.localise_stubs`).

    Raises:
        TranslationError: the catalog is missing, or a markdown cell has no current translation, or a code
            translation is stale or changes the code (every problem is listed).
    """
    state = status(english, lang, root)
    if not state.complete:
        raise TranslationError(f"{_relative(english, root)} has no complete {lang} catalog "
                               f"({catalog_path(english, lang, root).relative_to(root)}):\n  "
                               + "\n  ".join(state.problems())
                               + f"\nRun `course notebooks extract {_relative(english, root)} --lang {lang}`, "
                                 "translate the empty and fuzzy entries (a code translation rewords only "
                                 "comments and strings), and build again.")
    cat = read_catalog(catalog_path(english, lang, root), lang)
    # links go to the edition's notebooks: its lessons and the Q&A notebooks generated from the question bank
    translated = {p.resolve() for p in edition(lang, root)} | {
        (root / "notebooks" / "interview" / name).resolve() for name in _interview_edition(lang, root)}
    nb = copy.deepcopy(read_english(english, root))
    # a lesson's place in the course is the map's, not the catalog's (course_map.with_place)
    numbers = lesson_numbers(root) if _relative(english, root).parts[:1] == ("notebooks",) else []
    for cell in nb.cells:
        if cell.cell_type not in ("markdown", "code") or not cell.source.strip():
            continue
        msg = cat.get(cell.source, context=text_key(cell.source))
        if cell.cell_type == "markdown":
            cell.source = with_place(_translate_links(msg.string, english, lang, root, translated), numbers, lang)
        elif msg is not None and msg.string:
            cell.source = msg.string
        if cell.cell_type == "code":  # an exercise's stub raises in the edition's language, opted in or not
            cell.source = localise_stubs(cell.source, lang)
    return nbt.clean(nb, keep_outputs=False)


def execute_edition(nb: Any, out: Path, lang: str, timeout: int = nbt.DEFAULT_TIMEOUT) -> Any:
    """Run a generated notebook as nbval will: a fresh ``python3`` kernel whose cwd is ``out``'s folder,
    the mock LLM (``COURSE_LLM=mock``) and ``COURSE_LANG=lang``; return it cleaned, with its own outputs.

    Args:
        nb: the notebook :func:`build` returned (not modified).
        out: where it will be saved (``notebooks/zh/...``): its folder is the kernel's cwd.
        timeout: seconds per cell.

    Raises:
        TranslationError: a cell raised (the cells and errors are listed; nothing is written).
    """
    from nbclient import NotebookClient

    nb = copy.deepcopy(nb)
    env = dict(os.environ, COURSE_LLM="mock", COURSE_LANG=lang)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(Path(out).parent)}})
    client.execute(env=env)
    errors = nbt.errors_in(nb)
    if errors:
        raise TranslationError(f"{out.name} failed when executed:\n  "
                               + "\n  ".join(f"cell {i}: {name}: {value}" for i, name, value in errors))
    return nbt.clean(nb, keep_outputs=True)


def rendered(nb: Any) -> str:
    """The exact text a notebook is saved as (what ``build`` writes and the sync test compares)."""
    import nbformat

    nbformat.validate(nb)
    return nbformat.writes(nb) + "\n"


def build_edition(lang: str, paths: list[Path] | None = None, root: Path = ROOT,
                  timeout: int = nbt.DEFAULT_TIMEOUT) -> list[tuple[Path, float]]:
    """Write the ``lang`` edition of ``paths`` (default: every notebook in ``edition.txt``).

    A lesson (``notebooks/...``) is executed (:func:`execute_edition`) and saved with its own outputs;
    exercises and solutions are saved without outputs, as the English ones are. A file is rewritten
    only when its text changes, and not when its outputs differ only where nbval looks away
    (:func:`course_lib.notebooks.same_for_nbval`: tool-call ids, ports, durations): a rebuild of an
    unchanged lesson leaves no diff.

    Returns:
        ``(written path, seconds it took)`` for each notebook, in order.

    Raises:
        TranslationError: a notebook's catalog is incomplete or the notebook fails when executed
            (nothing of that notebook is written; the ones before it are).
    """
    written = []
    for english in paths or edition(lang, root):
        start = time.perf_counter()
        out = edition_path(english, lang, root)
        nb = build(english, lang, root)
        out.parent.mkdir(parents=True, exist_ok=True)  # the kernel starts in it
        if nbt.keeps_outputs(out):
            nb = execute_edition(nb, out, lang, timeout)
        text = rendered(nb)
        saved = out.read_text(encoding="utf-8") if out.exists() else None
        if saved is None or (saved != text and not nbt.same_for_nbval(saved, text)):
            out.write_text(text, encoding="utf-8")
        written.append((out, time.perf_counter() - start))
    return written


def _cells_only(text: str) -> str:
    """A saved notebook's text without its outputs: what the sync check compares with :func:`build`."""
    import nbformat

    return rendered(nbt.clean(nbformat.reads(text, as_version=4), keep_outputs=False))


def _has_outputs(text: str) -> bool:
    import nbformat

    return any(c.get("outputs") for c in nbformat.reads(text, as_version=4).cells)


def sync_problems(lang: str, root: Path = ROOT) -> list[str]:
    """Everything that keeps the ``lang`` edition from being current, one sentence each (empty: all good).

    Checked: each listed notebook exists, its catalog is complete and current, its generated copy has the
    cells (kinds, ids, sources, metadata) :func:`build` writes, a generated lesson whose English original
    has outputs has outputs of its own (it was executed; nbval checks what they say); no generated
    notebook exists that the edition does not list.
    """
    problems, expected = [], set()
    for english in edition(lang, root):
        rel = english.relative_to(root) if english.is_absolute() else english
        if not english.exists():
            problems.append(f"{rel} is listed in translations/{lang}/edition.txt but does not exist")
            continue
        out = edition_path(english, lang, root)
        expected.add(out.resolve())
        try:
            text = rendered(build(english, lang, root))
        except TranslationError as err:
            problems.append(str(err))
            continue
        # exercises/ is the learner's to edit: compare its committed version, as tests/test_exercises.py does
        saved = (committed_text(out) if "exercises" in out.relative_to(root).parts[:1]
                 else out.read_text(encoding="utf-8") if out.exists() else None)
        if saved is None:
            problems.append(f"{out.relative_to(root)} is missing: run `course notebooks build --lang {lang}`")
        elif _cells_only(saved) != text:
            problems.append(f"{out.relative_to(root)} differs from what `course notebooks build --lang {lang}` "
                            f"generates from {rel} and its catalog: run it (never edit the generated file)")
        elif nbt.keeps_outputs(out) and _has_outputs(english.read_text(encoding="utf-8")) and not _has_outputs(saved):
            problems.append(f"{out.relative_to(root)} has no outputs: run `course notebooks build --lang {lang}` "
                            "(it executes the lesson and stores what it prints)")
    # the Q&A notebooks of notebooks/<lang>/interview/ are generated from the question bank, not from a
    # notebook catalog: course_lib.interview.build checks them (translations/<lang>/interview.txt)
    expected |= {(root / "notebooks" / lang / "interview" / name).resolve() for name in _interview_edition(lang, root)}
    for folder in SOURCE_FOLDERS:
        for stray in sorted((root / folder / lang).rglob("*.ipynb")):
            # backups/: the versions `course reset` saved of a learner's exercise (course_lib.reset)
            if not {".ipynb_checkpoints", "backups"} & set(stray.parts) and stray.resolve() not in expected:
                problems.append(f"{stray.relative_to(root)} is not in translations/{lang}/edition.txt")
    if root == ROOT:  # the Q&A notebooks link to the lessons: a lesson joining the edition re-points their links
        from .interview.build import translated_sync_problems

        problems += translated_sync_problems(lang)
    return problems


def _interview_edition(lang: str, root: Path) -> list[str]:
    from .interview.localize import edition_notebooks

    return edition_notebooks(lang, root)
