"""The interview question bank: loading, validating and rendering ``course_lib/data/interview.json``.

The bank is data, so one file feeds every way a candidate meets a question: the Q&A
notebooks (``course interview build``), the flashcards, the mock interview and the
cheat sheet. Each question is structured the way interviewers expect an answer
(seed 000 §6): a one-sentence answer, a numbered framework, the bonus points ("加分点")
that set a strong answer apart, pitfalls, a follow-up question with its answer, and the
name of the runnable demonstration behind it (:mod:`course_lib.interview.demos`).

Framework and bonus points carry ``keywords`` (English, some Chinese): the mock
interview's scorer looks for them in a typed answer. That is a rough proxy for what an
interviewer listens for, not a grader of prose; the model answer is always shown.

Deliberate shortcut: the file is validated with a JSON Schema plus cross-reference
checks when loaded (ids unique, topics and tables exist), and cached per path and
modification time. Taught in the interview notebooks (``notebooks/interview/``).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterator

import jsonschema

from ..i18n import _
from ..text_table import pad

BANK_PATH = Path(__file__).resolve().parent.parent / "data" / "interview.json"
DIFFICULTIES = ("easy", "medium", "hard")
FREQUENCIES = ("high", "medium", "low")
FREQUENCY_LABELS = {"high": "asked often", "medium": "asked sometimes", "low": "asked rarely"}
DIFFICULTY_STARS = {"easy": "★☆☆", "medium": "★★☆", "hard": "★★★"}

_POINT = {"type": "object", "required": ["point", "keywords"], "additionalProperties": False,
          "properties": {"point": {"type": "string", "minLength": 5},
                         "keywords": {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}}}}
_ID = {"type": "string", "pattern": "^[a-z0-9][a-z0-9_-]*$"}

#: The JSON Schema every bank file must satisfy (checked by :func:`load_bank`).
BANK_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["version", "topics", "tables", "questions"],
    "properties": {
        "version": {"const": 1},
        "about": {"type": "string"},
        "topics": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["id", "title", "notebook", "lesson"], "additionalProperties": False,
            "properties": {"id": _ID, "title": {"type": "string"}, "lesson": {"type": "string"},
                           "notebook": {"type": "string", "pattern": r"^\d\d_[a-z0-9_]+\.ipynb$"}}}},
        "tables": {"type": "array", "items": {
            "type": "object", "required": ["id", "title", "source", "columns", "rows"], "additionalProperties": False,
            "properties": {"id": _ID, "title": {"type": "string"}, "source": {"type": "string"},
                           "columns": {"type": "array", "minItems": 2, "items": {"type": "string"}},
                           "rows": {"type": "array", "minItems": 1,
                                    "items": {"type": "array", "items": {"type": "string"}}}}}},
        "questions": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["id", "topic", "difficulty", "frequency", "question", "answer", "framework", "bonus",
                         "pitfalls", "follow_up", "demo", "seed", "lesson"],
            "additionalProperties": False,
            "properties": {
                "id": _ID, "topic": _ID,
                "difficulty": {"enum": list(DIFFICULTIES)}, "frequency": {"enum": list(FREQUENCIES)},
                "question": {"type": "string", "minLength": 10}, "answer": {"type": "string", "minLength": 20},
                "framework": {"type": "array", "minItems": 3, "items": _POINT},
                "bonus": {"type": "array", "minItems": 1, "items": _POINT},
                "pitfalls": {"type": "array", "minItems": 1, "items": {"type": "string"}},
                "pitfall_claims": {"type": "array", "items": {
                    "type": "object", "required": ["pitfall", "patterns"], "additionalProperties": False,
                    "properties": {"pitfall": {"type": "integer", "minimum": 0},
                                   "point": {"type": "integer", "minimum": 0},
                                   "patterns": {"type": "array", "minItems": 1,
                                                "items": {"type": "string", "minLength": 1}}}}},
                "follow_up": {"type": "object", "required": ["question", "answer"], "additionalProperties": False,
                              "properties": {"question": {"type": "string"}, "answer": {"type": "string"}}},
                "demo": _ID, "diagram": _ID, "seed": {"type": "string"}, "lesson": {"type": "string"},
                "seed_question": {"enum": ["Q1", "Q2", "Q3"]},
                "tables": {"type": "array", "items": _ID}}}},
    },
}


class BankError(ValueError):
    """The question bank file is invalid (the message names the place)."""


@dataclass(frozen=True)
class Point:
    """One numbered framework point or bonus point, and the words that show it was made."""

    point: str
    keywords: tuple[str, ...]

    def __repr__(self) -> str:
        return f"Point({self.point[:50]!r})"


@dataclass(frozen=True)
class PitfallClaim:
    """How an answer *states* one of a question's pitfalls as true, so scoring can count it against the answer.

    Attributes:
        pitfall: index (0-based) into :attr:`Question.pitfalls`.
        point: index of the framework point the claim contradicts (that point is then not made), or None.
        patterns: regular expressions searched in the normalised answer (lower case, ``_``/``-``/``/`` as
            spaces; see :func:`course_lib.interview.scoring.normalise`), e.g. ``"model (itself )?calls"``.
    """

    pitfall: int
    point: int | None
    patterns: tuple[str, ...]

    def __repr__(self) -> str:
        return f"PitfallClaim(pitfall={self.pitfall}, point={self.point}, {len(self.patterns)} patterns)"


@dataclass(frozen=True)
class Table:
    """A comparison table from the seeds (FC vs MCP, REST vs gRPC vs JSON-RPC...)."""

    id: str
    title: str
    source: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def markdown(self) -> str:
        """The table as GitHub-flavoured Markdown (title line, header, rows)."""
        def cell(text: str) -> str:
            return text.replace("|", "\\|")
        lines = [f"**{self.title}** ({self.source})", "",
                 "| " + " | ".join(cell(c) or " " for c in self.columns) + " |",
                 "|" + "---|" * len(self.columns)]
        lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in self.rows]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Table({self.id!r}, {len(self.rows)} rows)"


@dataclass(frozen=True)
class Topic:
    """A topic of the bank and the Q&A notebook that holds its questions."""

    id: str
    title: str
    notebook: str
    lesson: str


@dataclass(frozen=True)
class Question:
    """One interview question with its structured model answer.

    Attributes:
        id: stable identifier (progress is stored under it), e.g. ``"q3-fault-tolerance"``.
        topic: a :class:`Topic` id.
        difficulty: ``easy``, ``medium`` or ``hard``; frequency: ``high``, ``medium``, ``low``.
        question, answer: the question and the one-sentence answer.
        framework, bonus: numbered points and the bonus points (:class:`Point`).
        pitfalls: what weak answers get wrong.
        follow_up: ``(question, answer)``.
        demo: the name of its runnable demonstration.
        diagram: the name of its system-design diagram, if any.
        tables: ids of comparison tables shown with the answer.
        seed, lesson: where the idea comes from and the lesson that teaches it.
        seed_question: ``"Q1"``..``"Q3"`` for the three questions of seed 000 §6.
        pitfall_claims: how an answer states a pitfall as true (:class:`PitfallClaim`; scoring).
    """

    id: str
    topic: str
    difficulty: str
    frequency: str
    question: str
    answer: str
    framework: tuple[Point, ...]
    bonus: tuple[Point, ...]
    pitfalls: tuple[str, ...]
    follow_up: tuple[str, str]
    demo: str
    seed: str
    lesson: str
    diagram: str | None = None
    tables: tuple[str, ...] = ()
    seed_question: str | None = None
    pitfall_claims: tuple[PitfallClaim, ...] = ()
    #: in a translated bank, the English question this one translates (None: this is the English one)
    english: "Question | None" = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        return f"Question({self.id!r}, {self.topic}, {self.difficulty}, {self.frequency})"


@dataclass(frozen=True)
class Bank:
    """All topics, tables and questions, in file order (questions grouped by topic)."""

    topics: tuple[Topic, ...]
    tables: dict[str, Table]
    questions: tuple[Question, ...]
    _by_id: dict[str, Question] = field(default_factory=dict, repr=False, compare=False)
    #: the language its text and labels are in (``"en"``, or ``"zh"`` from ``load_bank(lang="zh")``)
    lang: str = "en"

    def __post_init__(self) -> None:
        self._by_id.update({q.id: q for q in self.questions})

    def __len__(self) -> int:
        return len(self.questions)

    def __iter__(self) -> Iterator[Question]:
        return iter(self.questions)

    def __getitem__(self, question_id: str) -> Question:
        try:
            return self._by_id[question_id]
        except KeyError:
            raise KeyError(_("no question {id!r}; ids look like {example!r} (`course interview list` shows them)")
                           .format(id=question_id, example=self.questions[0].id)) from None

    def topic(self, topic_id: str) -> Topic:
        """The :class:`Topic` with this id (``KeyError`` if unknown)."""
        for t in self.topics:
            if t.id == topic_id:
                return t
        raise KeyError(_("no topic {topic!r}; topics: {topics}").format(
            topic=topic_id, topics=", ".join(t.id for t in self.topics)))

    def select(self, *, topics: str | list[str] | None = None, difficulty: str | list[str] | None = None,
               ids: list[str] | None = None) -> list[Question]:
        """Questions matching every given filter, in bank order.

        Args:
            topics: one topic id or a list (``None`` = all).
            difficulty: ``easy``/``medium``/``hard`` or a list of them (``None`` = all).
            ids: explicit question ids (``None`` = all).

        Raises:
            KeyError: an unknown topic id or question id.
        """
        topic_set = _as_set(topics)
        for t in topic_set or ():
            self.topic(t)
        for i in ids or ():
            self[i]
        diff_set = _as_set(difficulty)
        return [q for q in self.questions
                if (topic_set is None or q.topic in topic_set) and (diff_set is None or q.difficulty in diff_set)
                and (ids is None or q.id in ids)]

    def overview(self) -> str:
        """A text table: questions per topic, by difficulty, and how many are asked often."""
        from .localize import _t

        # headings in the bank's language (as its topic titles), padded by display width like the cells;
        # one _t() per heading, outside the f-string (Babel's extractor does not look inside one)
        heads = [_t("topic", self.lang), _t("questions", self.lang), _t("easy", self.lang), _t("medium", self.lang),
                 _t("hard", self.lang), _t("asked often", self.lang)]
        widths, aligns = (20, 9, 5, 7, 5, 12), "<>>>>>"
        lines = [" ".join(pad(h, w, a) for h, w, a in zip(heads, widths, aligns))]
        for t in self.topics:
            qs = self.select(topics=t.id)
            counts = [sum(q.difficulty == d for q in qs) for d in DIFFICULTIES]
            often = sum(q.frequency == "high" for q in qs)
            lines.append(f"{pad(t.title, 20)} {len(qs):>9} {counts[0]:>5} {counts[1]:>7} {counts[2]:>5} {often:>12}")
        total = [sum(q.difficulty == d for q in self.questions) for d in DIFFICULTIES]
        every = _t("all", self.lang)
        lines.append(f"{pad(every, 20)} {len(self.questions):>9} {total[0]:>5} {total[1]:>7} {total[2]:>5} "
                     f"{sum(q.frequency == 'high' for q in self.questions):>12}")
        return "\n".join(lines)

    def show(self, question_id: str) -> "MarkdownText":
        """One question with its model answer, rendered in Jupyter (Markdown) or as text."""
        return MarkdownText(render_markdown(self[question_id], self))

    def show_tables(self) -> "MarkdownText":
        """Every comparison table, rendered in Jupyter (Markdown) or as text."""
        return MarkdownText("\n\n".join(t.markdown() for t in self.tables.values()))

    def __repr__(self) -> str:
        return f"Bank({len(self.questions)} questions, {len(self.topics)} topics, {len(self.tables)} tables)"


class MarkdownText:
    """Markdown that Jupyter renders, and plain text everywhere else (nbval, terminals, forges).

    Args:
        markdown: what Jupyter renders.
        text: the plain-text version (default: the Markdown itself, which reads well as text).
    """

    def __init__(self, markdown: str, text: str | None = None) -> None:
        self.markdown = markdown
        self.text = markdown if text is None else text

    def _repr_markdown_(self) -> str:
        return self.markdown

    def __repr__(self) -> str:
        return self.text


def _as_set(value: str | list[str] | None) -> set[str] | None:
    if value is None:
        return None
    return {value} if isinstance(value, str) else set(value)


def load_bank(path: Path | str | None = None, *, lang: str | None = None) -> Bank:
    """Load and validate the question bank (cached until the file changes).

    Args:
        path: a bank JSON file (default: the course's ``course_lib/data/interview.json``).
        lang: ``"en"`` or ``"zh"``: the questions translated in ``translations/zh/interview.po``
            (:func:`course_lib.interview.localize.localized`; a question without a complete, current
            translation stays English). Default: the learner's language (:func:`course_lib.i18n.language`),
            so the practice notebook's ``load_bank()``, the flashcards and the mock interview ask in Chinese
            in ``notebooks/zh/interview/``, as their labels already do.

    Returns:
        The :class:`Bank`.

    Raises:
        BankError: the file breaks :data:`BANK_SCHEMA` or a cross-reference (duplicate id,
            unknown topic or table); the message names the question.
        FileNotFoundError: no such file.
    """
    p = Path(path) if path is not None else BANK_PATH
    bank = _load_cached(str(p.resolve()), p.stat().st_mtime_ns)
    if lang is None:
        from .localize import current_language

        lang = current_language()
    if lang == "en":
        return bank
    from .localize import catalog_file, localized

    po = catalog_file(lang)
    key = (id(bank), lang, po.stat().st_mtime_ns if po.exists() else 0)
    if key not in _LOCALIZED:   # the English bank is cached, so its id is stable until the file changes
        _LOCALIZED.clear()
        _LOCALIZED[key] = localized(bank, lang)
    return _LOCALIZED[key]


_LOCALIZED: dict[tuple[int, str, int], Bank] = {}


@lru_cache(maxsize=8)
def _load_cached(path: str, _mtime: int) -> Bank:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except ValueError as e:
        raise BankError(f"{path} is not valid JSON: {e}") from None
    errors = sorted(jsonschema.Draft202012Validator(BANK_SCHEMA).iter_errors(data), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.path)
        raise BankError(f"{path}: at {where or 'the top level'}: {e.message}")
    return _build(data)


def _claims(qid: str, raw: dict) -> tuple[PitfallClaim, ...]:
    """A question's ``pitfall_claims``, checked: indexes in range, patterns that compile."""
    out = []
    for c in raw.get("pitfall_claims", []):
        if c["pitfall"] >= len(raw["pitfalls"]):
            raise BankError(f"question {qid!r}: pitfall_claims names pitfall {c['pitfall']}, which does not exist")
        if c.get("point") is not None and c["point"] >= len(raw["framework"]):
            raise BankError(f"question {qid!r}: pitfall_claims names framework point {c['point']}, which does not exist")
        for pattern in c["patterns"]:
            try:
                re.compile(pattern)
            except re.error as e:
                raise BankError(f"question {qid!r}: pitfall_claims pattern {pattern!r} is not a regex ({e})") from e
        out.append(PitfallClaim(c["pitfall"], c.get("point"), tuple(c["patterns"])))
    return tuple(out)


def _build(data: dict) -> Bank:
    topics = tuple(Topic(**t) for t in data["topics"])
    topic_ids = [t.id for t in topics]
    tables = {t["id"]: Table(t["id"], t["title"], t["source"], tuple(t["columns"]), tuple(map(tuple, t["rows"])))
              for t in data["tables"]}
    questions, seen = [], set()
    for raw in data["questions"]:
        qid = raw["id"]
        if qid in seen:
            raise BankError(f"duplicate question id {qid!r}")
        seen.add(qid)
        if raw["topic"] not in topic_ids:
            raise BankError(f"question {qid!r}: unknown topic {raw['topic']!r}")
        for t in raw.get("tables", []):
            if t not in tables:
                raise BankError(f"question {qid!r}: unknown table {t!r}")
        questions.append(Question(
            id=qid, topic=raw["topic"], difficulty=raw["difficulty"], frequency=raw["frequency"],
            question=raw["question"], answer=raw["answer"],
            framework=tuple(Point(p["point"], tuple(p["keywords"])) for p in raw["framework"]),
            bonus=tuple(Point(p["point"], tuple(p["keywords"])) for p in raw["bonus"]),
            pitfalls=tuple(raw["pitfalls"]), follow_up=(raw["follow_up"]["question"], raw["follow_up"]["answer"]),
            demo=raw["demo"], seed=raw["seed"], lesson=raw["lesson"], diagram=raw.get("diagram"),
            tables=tuple(raw.get("tables", [])), seed_question=raw.get("seed_question"),
            pitfall_claims=_claims(qid, raw)))
    for t in tables.values():
        bad = [i for i, row in enumerate(t.rows) if len(row) != len(t.columns)]
        if bad:
            raise BankError(f"table {t.id!r}: row {bad[0]} has {len(t.rows[bad[0]])} cells, expected {len(t.columns)}")
    # Questions are shown grouped by topic, in topic order: keep the file in that order too.
    order = [topic_ids.index(q.topic) for q in questions]
    if order != sorted(order):
        first = next(q for q, a, b in zip(questions[1:], order, order[1:]) if b < a)
        raise BankError(f"question {first.id!r} is out of topic order; group questions by topic as in 'topics'")
    return Bank(topics, tables, tuple(questions))


# --------------------------------------------------------------------------- rendering
def frequency_label(frequency: str, lang: str | None = None) -> str:
    """``"asked often"`` / ``"asked sometimes"`` / ``"asked rarely"`` in ``lang`` (default: the learner's)."""
    from .localize import _t

    return {"high": _t("asked often", lang), "medium": _t("asked sometimes", lang),
            "low": _t("asked rarely", lang)}[frequency]


def difficulty_label(difficulty: str, lang: str | None = None) -> str:
    """``"easy"`` / ``"medium"`` / ``"hard"`` in ``lang`` (default: the learner's)."""
    from .localize import _t

    return {"easy": _t("easy", lang), "medium": _t("medium", lang), "hard": _t("hard", lang)}[difficulty]


def badges(q: Question, bank: Bank | None = None) -> str:
    """One line: topic · difficulty stars · how often it is asked · seed · lesson (in the bank's language)."""
    from .localize import _t

    lang = bank.lang if bank else "en"
    topic = (bank.topic(q.topic).title if bank else q.topic)
    parts = [f"`{topic}`", f"{DIFFICULTY_STARS[q.difficulty]} {difficulty_label(q.difficulty, lang)}",
             frequency_label(q.frequency, lang)]
    # The seed's own three questions are the ones to learn first: make them stand out.
    parts += [f"**{q.seed}**" if q.seed_question else q.seed, _t("lesson {lesson}", lang).format(lesson=q.lesson)]
    return " · ".join(parts)


def render_markdown(q: Question, bank: Bank | None = None, *, number: int | None = None, level: int = 2,
                    demo_note: str | None = None, heading: bool = True) -> str:
    """The question and its model answer as Markdown (used by notebooks and the cheat sheet).

    Args:
        q: the question.
        bank: the bank (for topic titles, tables and the language of the labels; default: the course bank).
        number: shown before the question in the heading (``## 7. How do…``).
        level: heading level of the question (2 → ``##``).
        demo_note: a line about the demonstration (e.g. where to run it), appended last.
        heading: include the question as a heading (a widget that already shows it passes False).

    Returns:
        Markdown text without a trailing newline.
    """
    from .localize import _t

    bank = bank or load_bank()
    lang = bank.lang
    head = "#" * level + " " + (f"{number}. " if number is not None else "") + q.question
    out = ([head, ""] if heading else []) + [badges(q, bank), "",
                                             _t("**In one sentence.** {answer}", lang).format(answer=q.answer), "",
                                             _t("**Framework**", lang), ""]
    out += [f"{i}. {p.point}" for i, p in enumerate(q.framework, 1)]
    out += ["", _t("**Bonus points** (what sets a strong answer apart)", lang), ""]
    out += [f"- {p.point}" for p in q.bonus]
    out += ["", _t("**Pitfalls**", lang), ""]
    out += [f"- {p}" for p in q.pitfalls]
    out += ["", _t("**Follow-up:** *{question}*", lang).format(question=q.follow_up[0]), "", f"> {q.follow_up[1]}"]
    for tid in q.tables:
        out += ["", bank.tables[tid].markdown()]
    if demo_note:
        out += ["", demo_note]
    return "\n".join(out)


def markdown_html(text: str) -> str:
    """Markdown (with GitHub tables) → HTML, for widgets and the printable cheat sheet."""
    return _markdown()(text)


@lru_cache(maxsize=1)
def _markdown():
    import mistune

    return mistune.create_markdown(plugins=["table", "strikethrough"])


def _topic_label(topic_id: str, lang: str) -> str:
    """A question's topic on a terminal card: its id in English (what ``--topic`` takes), its title in
    another language (``Function calling`` -> ``function-calling`` is no word to a Chinese reader)."""
    if lang == "en":
        return topic_id
    try:
        return load_bank(lang=lang).topic(topic_id).title
    except KeyError:  # a question of another bank file
        return topic_id


def render_text(q: Question, *, answer: bool = True, question: bool = True, lang: str | None = None) -> str:
    """The question and/or its model answer as plain text for terminals.

    Args:
        answer: include the model answer.
        question: include the question and its topic line (a terminal that just asked it passes False).
        lang: the language of the labels (default: the learner's, ``course_lib.i18n.language()``).
    """
    from .localize import _t, current_language

    lang = lang or current_language()
    lines = ([q.question, f"[{_topic_label(q.topic, lang)} · {difficulty_label(q.difficulty, lang)} · "
                          f"{frequency_label(q.frequency, lang)}]", ""] if question else [])
    if not answer:
        return "\n".join(lines).rstrip()
    lines += [_t("In one sentence: {answer}", lang).format(answer=q.answer), "", _t("Framework:", lang)]
    lines += [f"  {i}. {p.point}" for i, p in enumerate(q.framework, 1)]
    lines += [_t("Bonus points:", lang)] + [f"  + {p.point}" for p in q.bonus]
    lines += [_t("Pitfalls:", lang)] + [f"  - {p}" for p in q.pitfalls]
    lines += [_t("Follow-up: {question}", lang).format(question=q.follow_up[0]), f"  → {q.follow_up[1]}"]
    return "\n".join(lines)
