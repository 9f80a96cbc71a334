"""The interview demos' code in another language: Chinese requests and labels in the Chinese Q&A notebooks.

A demo (:mod:`course_lib.interview.demos`) shows its code and then runs it. ``translations/<lang>/interview_demos.po``
holds one entry per demo: ``msgctxt`` the demo's name, ``msgid`` its English code as
:func:`~course_lib.interview.demos.demo_source` shows it, ``msgstr`` the same code with its comments and strings
translated (what the user asks, what the demo prints). Names, calls and data stay: a translation is used only
when its :func:`course_lib.translation.code_skeleton` equals the English one, as for a lesson's code cells.
An empty ``msgstr`` shares the English code. :func:`~course_lib.interview.demos.run_demo` shows the translated
code in the learner's language and runs *that* code, so the output is what the learner just read; an English
run never reads the catalog.

When a demo's English code changes, its translation no longer matches: it is *stale* (:func:`extract` keeps it
as ``fuzzy`` with the previous English) and the demo shows and runs its English code until it is updated.
See ``docs/translation.md``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..translation import ROOT, code_problem, read_catalog, write_catalog


def catalog_file(lang: str, root: Path = ROOT) -> Path:
    """``translations/<lang>/interview_demos.po`` under ``root``."""
    return root / "translations" / lang / "interview_demos.po"


@dataclass
class DemoStatus:
    """How far the ``lang`` catalog covers the demos' code.

    ``translated``: demos with a current, valid translation; ``shared``: demos shown in English (an empty entry,
    or none); ``stale``: demos whose translation was made for other English code; ``invalid``: ``"<demo> (<why>)"``
    for a translation that changes more than comments and strings, or is not Python.
    """

    translated: list[str] = field(default_factory=list)
    shared: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        return [f"stale   demo {s}" for s in self.stale] + [f"invalid demo {i}" for i in self.invalid]


def _demo_sources() -> dict[str, str]:
    """``{demo name: English code as shown}`` of every demo that can run today (pending ones have none)."""
    from .demos import DEMOS, PENDING, demo_source

    return {name: demo_source(name) for name in DEMOS if name not in PENDING}


def _catalog(lang: str, root: Path) -> Any:
    path = catalog_file(lang, root)
    return read_catalog(path, lang) if path.exists() else None


def _by_name(cat: Any) -> dict[str, Any]:
    """``{demo name: entry}``, active entries first, then obsolete ones (translation memory)."""
    found: dict[str, Any] = {}
    for msg in list(cat) + list(cat.obsolete.values()):
        if msg.id and msg.context:
            found.setdefault(msg.context, msg)
    return found


def status(lang: str, root: Path = ROOT) -> DemoStatus:
    """Compare every demo's English code with its ``lang`` entry (see :class:`DemoStatus`)."""
    result = DemoStatus()
    cat = _catalog(lang, root)
    by_name = _by_name(cat) if cat is not None else {}
    for name, english in _demo_sources().items():
        msg = cat.get(english, context=name) if cat is not None else None
        if msg is not None and msg.string and not msg.fuzzy:
            problem = code_problem(english, msg.string)
            (result.invalid.append(f"{name} ({problem})") if problem else result.translated.append(name))
        elif (msg is not None and msg.fuzzy and msg.string) or (
                msg is None and name in by_name and by_name[name].string):
            result.stale.append(name)
        else:
            result.shared.append(name)
    return result


def extract(lang: str, root: Path = ROOT) -> DemoStatus:
    """Write the ``lang`` demo catalog from the demos' current code; return its status.

    Every demo gets an entry (new ones empty: shared English); a demo whose code changed keeps its old
    translation as ``fuzzy`` with the previous English; entries of demos that no longer exist are dropped.
    """
    from babel.messages.catalog import Catalog

    old = _catalog(lang, root)
    by_name = _by_name(old) if old is not None else {}
    cat = Catalog(project="agent-tool-systems", fuzzy=False)
    for name, english in _demo_sources().items():
        prev = by_name.get(name)
        comment = [f"demo {name} (course_lib/interview/demos.py)"]
        if prev is not None and prev.id == english:
            cat.add(english, prev.string, context=name, flags=prev.flags, auto_comments=comment)
        elif prev is not None and prev.string:
            cat.add(english, prev.string, context=name, flags={"fuzzy"}, auto_comments=comment,
                    previous_id=prev.previous_id if prev.fuzzy and prev.previous_id else prev.id)
        else:
            cat.add(english, "", context=name, auto_comments=comment)
    write_catalog(cat, catalog_file(lang, root))
    return status(lang, root)


def _mtime(path: Path) -> int:
    return path.stat().st_mtime_ns if path.exists() else 0


@lru_cache(maxsize=8)
def _translations(lang: str, root: Path, _mtime_ns: int) -> dict[str, tuple[str, str]]:
    """``{demo name: (English code, translated code)}`` of the non-empty, non-fuzzy entries."""
    cat = _catalog(lang, root)
    if cat is None:
        return {}
    return {m.context: (m.id, m.string) for m in cat if m.context and m.string and not m.fuzzy}


def translated_source(name: str, lang: str, root: Path = ROOT) -> str | None:
    """Demo ``name``'s code in ``lang``, or None: English, no translation, stale (the English code changed
    since) or invalid (the translation changes more than comments and strings)."""
    from .demos import demo_source

    if lang == "en":
        return None
    entry = _translations(lang, root, _mtime(catalog_file(lang, root))).get(name)
    if entry is None:
        return None
    english, translation = entry
    if english != demo_source(name) or code_problem(english, translation) is not None:
        return None
    return translation
