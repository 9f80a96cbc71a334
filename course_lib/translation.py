"""The course in other languages from one source: translation catalogs and the generated editions.

The English notebooks stay the source. Each translated notebook has one gettext catalog
(``translations/<lang>/<folder>/<stem>.po``, read and written with Babel, see ``docs/translation.md``)
holding one entry per markdown cell:

* ``msgctxt`` is :func:`text_key` of the English cell (a hash of its text), ``msgid`` the English text,
  ``msgstr`` the translation, an extracted comment ``cell <id>`` names the nbformat cell id;
* when an English cell changes, its hash changes: the old translation no longer matches
  (:func:`status` reports it *stale*, naming the cell), and :func:`extract` carries it over as a
  ``fuzzy`` entry with the previous English text (``#| msgid``) for the translator to review.

``translations/<lang>/edition.txt`` lists the English notebooks the edition contains; each must have a
complete, current catalog, and its generated copy (``notebooks/<lang>/<same name>``, ``exercises/<lang>/...``)
must be exactly what :func:`build` writes (``tests/test_translation.py`` checks both). Code cells are shared
with the English notebook, outputs included (they are the same program); relative links written as in the
English cell are rewritten to point from the edition's folder, to the translated notebook when it exists.
"""
from __future__ import annotations

import copy
import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import notebooks as nbt
from .exercises import committed_text

ROOT = nbt.ROOT
TRANSLATIONS = ROOT / "translations"
LANGUAGES = ("zh",)
SOURCE_FOLDERS = ("notebooks", "exercises", "solutions")
_LINK = re.compile(r"(\]\()([^)\s]+)(\))")


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


def translatable_cells(nb: Any) -> list[tuple[int, Any]]:
    """``(index, cell)`` of every cell whose text is translated: the non-empty markdown cells."""
    return [(i, c) for i, c in enumerate(nb.cells) if c.cell_type == "markdown" and c.source.strip()]


def _cell_comment(cell: Any, index: int) -> str:
    return f"cell {cell.get('id') or index}"


def template(english: Path, root: Path = ROOT):
    """A catalog (``babel.messages.catalog.Catalog``) with one untranslated entry per markdown cell."""
    from babel.messages.catalog import Catalog

    nb = nbt.read(english)
    rel = _relative(english, root).as_posix()
    cat = Catalog(project="agent-tool-systems", fuzzy=False)
    for index, cell in translatable_cells(nb):
        cat.add(cell.source, "", locations=[(rel, index)], auto_comments=[_cell_comment(cell, index)],
                context=text_key(cell.source))
    return cat


def read_catalog(path: Path, lang: str):
    """Read a ``.po`` file with Babel; raises ``FileNotFoundError`` when it does not exist."""
    from babel.messages.pofile import read_po

    with open(path, "rb") as fh:
        return read_po(fh, locale=lang, abort_invalid=True)


def write_catalog(cat: Any, path: Path) -> None:
    """Write a catalog deterministically (no header dates: a rerun with nothing new changes nothing)."""
    from babel.messages.pofile import write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        write_po(fh, cat, width=0, omit_header=True, include_previous=True)


@dataclass
class Status:
    """How far a notebook's catalog covers its English cells.

    ``missing``: cells with no translation; ``stale``: cells whose translation was made for another
    English text (the cell changed since); each item is ``"cell <id>: <first line of the English>"``.
    """
    english: Path
    missing: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.missing and not self.stale

    def problems(self) -> list[str]:
        return [f"stale   {s}" for s in self.stale] + [f"missing {m}" for m in self.missing]


def _by_cell(cat: Any) -> dict[str, Any]:
    found = {}
    for msg in list(cat) + list(cat.obsolete.values()):
        for comment in msg.auto_comments:
            if comment.startswith("cell "):
                found.setdefault(comment, msg)
    return found


def status(english: Path, lang: str, root: Path = ROOT) -> Status:
    """Compare ``english``'s markdown cells with its ``lang`` catalog (see :class:`Status`)."""
    result = Status(Path(english))
    path = catalog_path(english, lang, root)
    cat = read_catalog(path, lang) if path.exists() else None
    by_cell = _by_cell(cat) if cat is not None else {}
    for index, cell in translatable_cells(nbt.read(english)):
        label = f"{_cell_comment(cell, index)}: {cell.source.strip().splitlines()[0][:70]}"
        msg = cat.get(cell.source, context=text_key(cell.source)) if cat is not None else None
        if msg is not None and msg.string and not msg.fuzzy:
            continue
        old = by_cell.get(_cell_comment(cell, index))
        if (msg is not None and msg.fuzzy and msg.string) or (old is not None and old.string):
            result.stale.append(label)
        else:
            result.missing.append(label)
    return result


def extract(english: Path, lang: str, root: Path = ROOT) -> Status:
    """Create or update ``english``'s ``lang`` catalog from its current markdown cells; return its status.

    New cells get empty entries; a changed cell's old translation is kept as a ``fuzzy`` entry with the
    previous English (``#| msgid``) when Babel finds it close enough, else it stays in the file as an
    obsolete ``#~`` entry. Translations of unchanged cells are kept as they are.
    """
    path = catalog_path(english, lang, root)
    fresh = template(english, root)
    if path.exists():
        cat = read_catalog(path, lang)
        old_by_cell = _by_cell(cat)
        cat.update(fresh, update_creation_date=False)
        # Babel's fuzzy matching compares texts; a cell rewritten from scratch still has its old
        # translation by cell id, which is the better starting point for the translator.
        for msg in cat:
            if msg.id and not msg.string:
                old = next((old_by_cell[c] for c in msg.auto_comments if c in old_by_cell), None)
                if old is not None and old.string and old.id != msg.id:
                    msg.string, msg.previous_id = old.string, [old.id]
                    msg.flags.add("fuzzy")
        # Entries no cell uses any more stay in the file as obsolete (#~): translation memory.
    else:
        cat = fresh
    write_catalog(cat, path)
    return status(english, lang, root)


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
    """The ``lang`` edition of ``english`` (an nbformat notebook, cleaned as shipped notebooks are).

    Raises:
        TranslationError: the catalog is missing, or a markdown cell has no current translation
            (every problem is listed).
    """
    state = status(english, lang, root)
    if not state.complete:
        raise TranslationError(f"{_relative(english, root)} has no complete {lang} catalog "
                               f"({catalog_path(english, lang, root).relative_to(root)}):\n  "
                               + "\n  ".join(state.problems())
                               + f"\nRun `course notebooks extract --lang {lang} {_relative(english, root)}`, "
                                 "translate the empty and fuzzy entries, and build again.")
    cat = read_catalog(catalog_path(english, lang, root), lang)
    translated = {p.resolve() for p in edition(lang, root)}
    nb = copy.deepcopy(nbt.read(english))
    for _, cell in translatable_cells(nb):
        text = cat.get(cell.source, context=text_key(cell.source)).string
        cell.source = _translate_links(text, english, lang, root, translated)
    out = edition_path(english, lang, root)
    return nbt.clean(nb, keep_outputs=nbt.keeps_outputs(out))


def rendered(nb: Any) -> str:
    """The exact text a notebook is saved as (what ``build`` writes and the sync test compares)."""
    import nbformat

    nbformat.validate(nb)
    return nbformat.writes(nb) + "\n"


def build_edition(lang: str, paths: list[Path] | None = None, root: Path = ROOT) -> list[Path]:
    """Write the ``lang`` edition of ``paths`` (default: every notebook in ``edition.txt``); return what was written.

    Raises:
        TranslationError: a notebook's catalog is incomplete (nothing of that notebook is written).
    """
    written = []
    for english in paths or edition(lang, root):
        text = rendered(build(english, lang, root))
        out = edition_path(english, lang, root)
        out.parent.mkdir(parents=True, exist_ok=True)
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            out.write_text(text, encoding="utf-8")
        written.append(out)
    return written


def sync_problems(lang: str, root: Path = ROOT) -> list[str]:
    """Everything that keeps the ``lang`` edition from being current, one sentence each (empty: all good).

    Checked: each listed notebook exists, its catalog is complete and current, its generated copy equals
    what :func:`build` writes; no generated notebook exists that the edition does not list.
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
        elif saved != text:
            problems.append(f"{out.relative_to(root)} differs from what `course notebooks build --lang {lang}` "
                            f"generates from {rel} and its catalog: run it (never edit the generated file)")
    for folder in SOURCE_FOLDERS:
        for stray in sorted((root / folder / lang).rglob("*.ipynb")):
            if ".ipynb_checkpoints" not in stray.parts and stray.resolve() not in expected:
                problems.append(f"{stray.relative_to(root)} is not in translations/{lang}/edition.txt")
    return problems
