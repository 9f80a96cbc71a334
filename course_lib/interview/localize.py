"""The question bank and the interview UI in other languages: one gettext catalog per language.

The English bank (``course_lib/data/interview.json``) stays the source. ``translations/<lang>/interview.po``
(read and written with Babel, like the lesson catalogs of :mod:`course_lib.translation`) holds:

* one entry per learner-facing field of the bank, ``msgctxt`` = ``"<ref> <hash>"`` where ``ref`` names the
  field (``q:fc-five-steps:framework.0``, ``topic:mcp:title``, ``table:fc_vs_mcp:rows.0.1``) and ``hash`` is
  :func:`course_lib.translation.text_key` of the English text. A changed English field changes the hash, so
  its old translation no longer matches: it is reported *stale* (and :func:`extract` keeps it as ``fuzzy``
  with the previous English, ``#| msgid``), a field never translated is *missing*;
* one entry per UI string (``msgctxt "ui"``, ``msgid`` the English string as written in the code inside
  ``_t("...")``; placeholders are ``str.format`` names, kept in the translation).

:func:`localized` turns the English :class:`~course_lib.interview.bank.Bank` into the ``lang`` one: each
question whose fields all have a current translation is shown translated, any other stays English (never
half-translated). Keywords are not translated: the scorer reads the translated point texts themselves
(:mod:`course_lib.interview.scoring`, character bigrams), and the English keywords still score an answer
written in English. ``translations/<lang>/interview.txt`` lists the Q&A notebooks of the edition (each must
be fully translated; ``course interview build --lang zh`` writes them to ``notebooks/<lang>/interview/``).
See ``docs/translation.md``.
"""
from __future__ import annotations

import json
import string
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from ..translation import ROOT, read_catalog, text_key, write_catalog

UI = "ui"
SOURCE_FILES = ("bank.py", "build.py", "cards.py", "cheatsheet.py", "demos.py", "design.py", "scoring.py",
                "terminal.py", "timed.py", "../commands/cheatsheet.py")


def catalog_file(lang: str, root: Path = ROOT) -> Path:
    """``translations/<lang>/interview.po`` under ``root``."""
    return root / "translations" / lang / "interview.po"


def edition_file(lang: str, root: Path = ROOT) -> Path:
    """``translations/<lang>/interview.txt``: the Q&A notebooks of the ``lang`` edition, one name per line."""
    return root / "translations" / lang / "interview.txt"


def edition_notebooks(lang: str, root: Path = ROOT) -> list[str]:
    """Notebook names listed in :func:`edition_file` (``#`` starts a comment; empty list if no file)."""
    path = edition_file(lang, root)
    if not path.exists():
        return []
    lines = (ln.split("#", 1)[0].strip() for ln in path.read_text(encoding="utf-8").splitlines())
    return [ln for ln in lines if ln]


# --------------------------------------------------------------------------- the fields of the bank
def bank_fields(data: dict) -> Iterator[tuple[str, str]]:
    """``(ref, English text)`` of every learner-facing field of a bank file's JSON, in file order.

    Refs: ``topic:<id>:title``; ``table:<id>:title|columns.<i>|rows.<r>.<c>`` (non-empty cells);
    ``q:<id>:question|answer|framework.<i>|bonus.<i>|pitfalls.<i>|follow_up.question|follow_up.answer``.
    Identifiers, keywords, seeds, lessons and demo names are not translated.
    """
    for t in data["topics"]:
        yield f"topic:{t['id']}:title", t["title"]
    for t in data["tables"]:
        yield f"table:{t['id']}:title", t["title"]
        for i, c in enumerate(t["columns"]):
            if c.strip():
                yield f"table:{t['id']}:columns.{i}", c
        for r, row in enumerate(t["rows"]):
            for c, cell in enumerate(row):
                if cell.strip():
                    yield f"table:{t['id']}:rows.{r}.{c}", cell
    for q in data["questions"]:
        yield from question_fields(q)


def question_fields(q: dict) -> Iterator[tuple[str, str]]:
    """``(ref, English text)`` of one question's fields (see :func:`bank_fields`)."""
    base = f"q:{q['id']}:"
    yield base + "question", q["question"]
    yield base + "answer", q["answer"]
    for kind in ("framework", "bonus"):
        for i, p in enumerate(q[kind]):
            yield f"{base}{kind}.{i}", p["point"]
    for i, p in enumerate(q["pitfalls"]):
        yield f"{base}pitfalls.{i}", p
    yield base + "follow_up.question", q["follow_up"]["question"]
    yield base + "follow_up.answer", q["follow_up"]["answer"]


def _bank_json(path: Path | None = None) -> dict:
    from .bank import BANK_PATH

    return json.loads((path or BANK_PATH).read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- UI strings
def ui_strings(folder: Path | None = None) -> list[str]:
    """Every ``_t("...")`` and ``N_("...")`` string of the interview modules, in source order.

    An AST walk, not Babel's Python extractor: Babel does not look inside f-strings, so a
    ``f"# {_t('Cheat sheet')}"`` would be shown untranslated without any test noticing. A call whose
    argument is not a literal (``_t(TITLE)``) is skipped here: its text is marked ``N_`` where it is defined.
    """
    import ast

    folder = folder or Path(__file__).resolve().parent
    found: list[str] = []
    for name in SOURCE_FILES:
        tree = ast.parse((folder / name).read_text(encoding="utf-8"))
        calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                 and node.func.id in ("_t", "N_") and node.args and isinstance(node.args[0], ast.Constant)
                 and isinstance(node.args[0].value, str)]
        for node in sorted(calls, key=lambda n: (n.lineno, n.col_offset)):
            if node.args[0].value not in found:
                found.append(node.args[0].value)
    return found


def N_(msg: str) -> str:
    """Mark an English UI string kept in a table for extraction; translate it later with ``_t(msg, lang)``."""
    return msg


def _placeholders(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}


def _t(msg: str, lang: str | None = None) -> str:
    """``msg`` (an English UI string, written literally so Babel extracts it) in ``lang``.

    ``lang`` None: the learner's language (:func:`current_language`). English, or a string the catalog
    does not translate yet, comes back as it is.
    """
    lang = lang or current_language()
    if lang == "en":
        return msg
    return _ui_table(lang, _mtime(catalog_file(lang))).get(msg, msg)


def current_language() -> str:
    """The learner's language: :func:`course_lib.i18n.language` (``COURSE_LANG``, else a folder named ``zh``)."""
    from ..i18n import language

    return language()


def _mtime(path: Path) -> int:
    return path.stat().st_mtime_ns if path.exists() else 0


@lru_cache(maxsize=8)
def _ui_table(lang: str, _mtime_ns: int) -> dict[str, str]:
    cat = _catalog(lang)
    if cat is None:
        return {}
    return {m.id: m.string for m in cat if m.context == UI and m.string and not m.fuzzy}


def _catalog(lang: str, root: Path = ROOT) -> Any:
    path = catalog_file(lang, root)
    return read_catalog(path, lang) if path.exists() else None


# --------------------------------------------------------------------------- status and extract
@dataclass
class BankStatus:
    """How far the ``lang`` catalog covers the bank and the UI.

    ``missing`` / ``stale``: ``"<ref>: <first 60 characters of the English>"``; ``complete_questions``: ids of
    the questions whose every field is current; ``ui_missing``: UI strings without a translation;
    ``ui_bad``: UI translations whose ``{placeholders}`` differ from the English.
    """

    missing: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    complete_questions: list[str] = field(default_factory=list)
    ui_missing: list[str] = field(default_factory=list)
    ui_bad: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        return ([f"stale   {s}" for s in self.stale] + [f"missing {m}" for m in self.missing]
                + [f"missing ui: {u!r}" for u in self.ui_missing] + [f"placeholders differ: {u!r}" for u in self.ui_bad])


def _by_ref(cat: Any) -> dict[str, Any]:
    """``{ref: message}`` of the field entries (obsolete ones too: translation memory)."""
    found: dict[str, Any] = {}
    for msg in list(cat) + list(cat.obsolete.values()):
        if msg.id and msg.context and msg.context != UI:
            found.setdefault(msg.context.rsplit(" ", 1)[0], msg)
    return found


def current_translations(lang: str, root: Path = ROOT) -> dict[str, str]:
    """``{ref: translation}`` of the field entries that are current (same English hash, not fuzzy)."""
    cat = _catalog(lang, root)
    if cat is None:
        return {}
    return {m.context.rsplit(" ", 1)[0]: m.string for m in cat
            if m.id and m.context and m.context != UI and m.string and not m.fuzzy
            and m.context.rsplit(" ", 1)[1] == text_key(m.id)}


def status(lang: str, root: Path = ROOT, bank_path: Path | None = None) -> BankStatus:
    """Compare the bank and the UI strings with the ``lang`` catalog (see :class:`BankStatus`)."""
    data = _bank_json(bank_path)
    cat = _catalog(lang, root)
    by_ref = _by_ref(cat) if cat is not None else {}
    current = current_translations(lang, root)
    result = BankStatus()
    for ref, english in bank_fields(data):
        if current.get(ref) and by_ref[ref].context == f"{ref} {text_key(english)}" and by_ref[ref].id == english:
            continue
        label = f"{ref}: {english[:60]}"
        (result.stale if ref in by_ref and by_ref[ref].string else result.missing).append(label)
    bad = {r.split(":")[1] for r in result.missing + result.stale if r.startswith("q:")}
    result.complete_questions = [q["id"] for q in data["questions"] if q["id"] not in bad]
    table = _ui_table(lang, _mtime(catalog_file(lang, root))) if root == ROOT else (
        {m.id: m.string for m in cat if m.context == UI and m.string and not m.fuzzy} if cat else {})
    for msg in ui_strings():
        if msg not in table:
            result.ui_missing.append(msg)
        elif _placeholders(table[msg]) != _placeholders(msg):
            result.ui_bad.append(msg)
    return result


def extract(lang: str, root: Path = ROOT, bank_path: Path | None = None) -> BankStatus:
    """Create or update the ``lang`` catalog from the bank and the UI strings; return its status.

    Current translations are kept; a field whose English changed keeps its old translation as ``fuzzy``
    with the previous English (``#| msgid``) for review; entries nothing uses any more are dropped to the
    obsolete section (``#~``). Running it twice changes nothing.
    """
    from babel.messages.catalog import Catalog

    old = _catalog(lang, root)
    old_by_ref = _by_ref(old) if old is not None else {}
    old_ui = {m.id: m for m in old if m.context == UI} if old is not None else {}
    cat = Catalog(project="agent-tool-systems", fuzzy=False, locale=lang)
    used: set[tuple[str, str]] = set()
    for ref, english in bank_fields(_bank_json(bank_path)):
        context, prev = f"{ref} {text_key(english)}", old_by_ref.get(ref)
        msg = cat.add(english, "", context=context)
        if prev is not None and prev.string:
            msg.string = prev.string
            if prev.id != english or prev.context != context or prev.fuzzy:
                msg.flags.add("fuzzy")
                msg.previous_id = list(prev.previous_id) if prev.fuzzy and prev.previous_id else [prev.id]
        used.add((english, context))
    for text in ui_strings():
        msg = cat.add(text, old_ui[text].string if text in old_ui else "", context=UI)
        if text in old_ui and old_ui[text].fuzzy:
            msg.flags.add("fuzzy")
        used.add((text, UI))
    if old is not None:
        for m in list(old) + list(old.obsolete.values()):
            if m.id and (m.id, m.context) not in used and m.string:
                cat.obsolete[(m.id, m.context)] = m
    write_catalog(cat, catalog_file(lang, root))
    return status(lang, root, bank_path)


def translate_entries(lang: str, texts: dict[str, str], root: Path = ROOT) -> int:
    """Set the translation of the entries named by ``ref`` (or, for UI strings, by their English); clear fuzzy.

    A maintainer's helper for filling a catalog from a script; returns how many entries were set.
    Raises ``KeyError`` for a ref or UI string the catalog does not have (run :func:`extract` first).
    """
    cat = _catalog(lang, root)
    if cat is None:
        raise FileNotFoundError(f"{catalog_file(lang, root)}: run `course interview extract --lang {lang}` first")
    index = {(m.context.rsplit(" ", 1)[0] if m.context != UI else m.id): m for m in cat if m.id}
    for key, text in texts.items():
        if key not in index:
            raise KeyError(f"the {lang} interview catalog has no entry {key!r}")
        index[key].string = text
        index[key].flags.discard("fuzzy")
        index[key].previous_id = []
    write_catalog(cat, catalog_file(lang, root))
    return len(texts)


# --------------------------------------------------------------------------- the translated bank
def localized(bank: Any, lang: str, root: Path = ROOT) -> Any:
    """The ``lang`` version of ``bank`` (a :class:`~course_lib.interview.bank.Bank` with ``lang`` set).

    Each question with a current translation of every field (made for its English as it is now) is translated;
    the others stay English. Topic titles and table cells are translated one by one where current.
    Keywords are kept.
    """
    from .bank import Bank, Point, Question, Table

    current = _current_by_context(lang, root)

    def get(ref: str, english: str) -> str:
        # a translation counts only for the English it was made for (its hash is in msgctxt)
        return current.get(f"{ref} {text_key(english)}", english)

    def fields(q: Question) -> dict[str, str]:
        found = {ref: current.get(f"{ref} {text_key(text)}") for ref, text in _question_texts(q)}
        return {ref: text for ref, text in found.items() if text}

    topics = tuple(replace(t, title=get(f"topic:{t.id}:title", t.title)) for t in bank.topics)
    tables = {tid: Table(tid, get(f"table:{tid}:title", t.title), t.source,
                         tuple(get(f"table:{tid}:columns.{i}", c) if c.strip() else c for i, c in enumerate(t.columns)),
                         tuple(tuple(get(f"table:{tid}:rows.{r}.{c}", cell) if cell.strip() else cell
                                     for c, cell in enumerate(row)) for r, row in enumerate(t.rows)))
              for tid, t in bank.tables.items()}
    questions = []
    for q in bank.questions:
        base = f"q:{q.id}:"
        tr = fields(q)
        if len(tr) < len(_question_texts(q)):   # some field has no current translation: the question stays English
            questions.append(q)
            continue
        questions.append(replace(
            q, question=tr[base + "question"], answer=tr[base + "answer"],
            framework=tuple(Point(tr[f"{base}framework.{i}"], p.keywords) for i, p in enumerate(q.framework)),
            bonus=tuple(Point(tr[f"{base}bonus.{i}"], p.keywords) for i, p in enumerate(q.bonus)),
            pitfalls=tuple(tr[f"{base}pitfalls.{i}"] for i in range(len(q.pitfalls))),
            follow_up=(tr[base + "follow_up.question"], tr[base + "follow_up.answer"]),
            english=q))
    return Bank(topics, tables, tuple(questions), lang=lang)


def _question_texts(q: Any) -> list[tuple[str, str]]:
    """``(ref, English text)`` of a :class:`~course_lib.interview.bank.Question` (the refs of :func:`question_fields`)."""
    base = f"q:{q.id}:"
    out = [(base + "question", q.question), (base + "answer", q.answer)]
    out += [(f"{base}framework.{i}", p.point) for i, p in enumerate(q.framework)]
    out += [(f"{base}bonus.{i}", p.point) for i, p in enumerate(q.bonus)]
    out += [(f"{base}pitfalls.{i}", p) for i, p in enumerate(q.pitfalls)]
    return out + [(base + "follow_up.question", q.follow_up[0]), (base + "follow_up.answer", q.follow_up[1])]


def _current_by_context(lang: str, root: Path = ROOT) -> dict[str, str]:
    """``{msgctxt: translation}`` of the catalog's current field entries (not fuzzy, hash of their own msgid)."""
    cat = _catalog(lang, root)
    if cat is None:
        return {}
    return {m.context: m.string for m in cat if m.id and m.context and m.context != UI and m.string
            and not m.fuzzy and m.context.rsplit(" ", 1)[1] == text_key(m.id)}


def is_translated(q: Any) -> bool:
    """Whether a question of a localized bank is shown translated (it keeps its English as ``q.english``)."""
    return getattr(q, "english", None) is not None
