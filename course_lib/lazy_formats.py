"""Importing ``jsonschema`` without paying for a grammar nobody uses at start-up.

``jsonschema``'s ``[format-nongpl]`` extra brings ``rfc3987_syntax``, which builds a lark
grammar for the ``iri`` and ``iri-reference`` formats *when it is imported*: about 0.85 s
on a 2-core laptop, in every kernel and every stdio server the course starts (the kit's
issue 15). The course's schemas never use those two formats, so the grammar is deferred:

* :func:`install` (called by ``course_lib/__init__.py``, so before any course module imports
  ``jsonschema``) puts a one-shot import hook on ``sys.meta_path``. It imports nothing itself.
* When something first imports ``jsonschema``, the hook runs ``jsonschema._format`` with
  ``rfc3987_syntax`` hidden (jsonschema then skips its ``iri`` checkers, as it does when the
  package is absent) and registers ``iri`` and ``iri-reference`` checkers of its own that
  import ``rfc3987_syntax`` on their first call and answer exactly as jsonschema's would.

Two ways were measured, as CPU time of a fresh interpreter running
``from course_lib.llm_client import get_client`` (median of 7, 2-core machine under load): with
the grammar 2.55 s; hiding the package alone (``iri`` formats then go unchecked) 1.14 s; hiding
it with the lazy checkers 1.17 s, the same within noise (``import openai`` alone: 0.77 s;
``import jsonschema``: 1.52 s with the grammar, 0.18 s without). The lazy one is kept, being the
only correct one; the first ``iri`` check then pays the grammar once. Every other format
(``uri``, ``email``, ``date-time``...) is checked as before, by jsonschema's own checkers.
"""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from typing import Any, Callable

GRAMMAR_MODULE = "rfc3987_syntax"
TARGET_MODULE = "jsonschema._format"
#: The formats whose checkers need the grammar, and the grammar's rule for each (jsonschema 4.24+).
LAZY_FORMATS = {"iri": "iri", "iri-reference": "iri_reference"}


def _lazy_checker(rule: str) -> Callable[[object], bool]:
    def check(instance: object) -> bool:
        if not isinstance(instance, str):
            return True
        from rfc3987_syntax import is_valid_syntax  # the grammar is built here, on the first iri check only

        return is_valid_syntax(rule, instance)

    check.__name__ = f"is_{rule}"
    check.__doc__ = f"True when ``instance`` is an RFC 3987 {rule.replace('_', '-')} (imports the grammar on first use)."
    return check


def register_lazy_checkers(formats: Any) -> list[str]:
    """Register the lazy ``iri`` checkers in ``jsonschema._format`` (module ``formats``).

    Returns:
        The format names registered (none when jsonschema already has checkers for them,
        e.g. from the GPL ``rfc3987`` package, or when the grammar package is not installed).
    """
    from importlib.util import find_spec

    register = getattr(formats, "_checks_drafts", None)
    checkers = getattr(formats, "_draft_checkers", {})
    if register is None or find_spec(GRAMMAR_MODULE) is None:
        return []
    done = []
    for name, rule in LAZY_FORMATS.items():
        if any(name in c.checkers for c in checkers.values()):
            continue
        register(draft7=name, draft201909=name, draft202012=name, raises=ValueError)(_lazy_checker(rule))
        done.append(name)
    return done


class _GrammarHiddenLoader(importlib.abc.Loader):
    """Runs ``jsonschema._format`` with ``rfc3987_syntax`` hidden, then adds the lazy checkers."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        hidden = GRAMMAR_MODULE not in sys.modules
        if hidden:
            sys.modules[GRAMMAR_MODULE] = None  # type: ignore[assignment]  # "import rfc3987_syntax" -> ImportError
        try:
            self._loader.exec_module(module)
        finally:
            if hidden and sys.modules.get(GRAMMAR_MODULE, False) is None:
                del sys.modules[GRAMMAR_MODULE]
        if hidden:
            register_lazy_checkers(module)


class _DeferGrammar(importlib.abc.MetaPathFinder):
    """A one-shot finder: it wraps the loader of ``jsonschema._format`` and removes itself."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name != TARGET_MODULE:
            return None
        uninstall()
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return None
        spec.loader = _GrammarHiddenLoader(spec.loader)
        return spec


_FINDER = _DeferGrammar()


def install() -> bool:
    """Defer the ``iri`` grammar of the next ``import jsonschema`` (imports nothing now).

    Safe to call many times. When ``jsonschema`` is already imported (a learner imported it
    before the course), nothing changes.

    Returns:
        True when the hook is (now) waiting for ``jsonschema``, False when it is too late.
    """
    if TARGET_MODULE in sys.modules:
        return False
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    return True


def uninstall() -> None:
    """Remove the hook (it also removes itself when ``jsonschema`` is imported)."""
    while _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
