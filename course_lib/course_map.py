"""The course map: which lessons and exercises exist, how long each takes, and in what order.

Everything is derived from the notebooks on disk, never from a hard-coded list, so a lesson
appears on the map the moment its file lands:

* a lesson is ``notebooks/NN_name.ipynb``; its first (markdown) cell follows the convention
  of ``docs/architecture.md``: ``# Lesson NN · Title``, a **Goal** paragraph and a table with
  **Time** ("about 45 minutes") and **Place in the course**;
* an exercise is ``exercises/NN_name.ipynb`` (generated from ``solutions/NN_name.ipynb``);
  it belongs to the lesson with the same number; its first cell has ``# Exercise NN · Title``
  and ``**Time:** about 15 minutes``;
* interview notebooks are ``notebooks/interview/*.ipynb``.

Deliberate shortcut: the first cell is parsed with a few regular expressions, tolerant of
spacing; a lesson whose first cell breaks the convention still appears, with ``?`` for what
could not be read (``tests/test_course_map.py`` checks every shipped lesson follows it).

Shown by lesson 00 (the map) and by ``course progress``.
"""
from __future__ import annotations

import html
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from .i18n import _, language
from .notebooks import ROOT
from .text_table import Table, inline_markdown_html

LESSON_GLOB = "[0-9][0-9]_*.ipynb"
#: A lesson inserted between two others takes a letter: ``10a_mcp_authorization.ipynb`` comes after 10, before 11.
INSERTED_GLOB = "[0-9][0-9][a-z]_*.ipynb"
_TITLE = re.compile(r"^#\s+(?:Lesson|Exercise)\s+(\d+[a-z]?)\s*[·:\-–—]\s*(.+?)\s*$", re.M)
_ANY_H1 = re.compile(r"^#\s+(.+?)\s*$", re.M)
_TIME_LINE = re.compile(r"\*\*Time:?\*\*:?([^\n]*)")
_DURATION = re.compile(r"(\d+(?:\.\d+)?)(?:\s*[–-]\s*(\d+(?:\.\d+)?))?\s*(minutes?|mins?|hours?|h)\b", re.I)
_GOAL = re.compile(r"\*\*Goal\.?\*\*\.?\s*(.+?)(?:\n\s*\n|$)", re.S)
# The Chinese edition's first cells (generated from the English ones): "# 第 01 课 · 标题", "# 练习 01 · 标题", "**目标。**"
_TITLE_ZH = re.compile(r"^#\s+(?:第\s*\d+[a-z]?\s*课|练习\s*\d+[a-z]?)\s*[·:\-–—]\s*(.+?)\s*$", re.M)
_GOAL_ZH = re.compile(r"\*\*目标[。.]?\*\*[。.]?\s*(.+?)(?:\n\s*\n|$)", re.S)


# The place of a lesson in its **Place in the course** row, as each edition writes it: derived from the map
# (place_label), never typed. The older forms ("lesson 03 of 12", "lesson 10a (between 10 and 11)") are read so
# that set_places can replace them.
_PLACE_ROW = re.compile(r"^.*\*\*(?:Place in the course|在?课程中的位置)\*\*.*$", re.M)
_PLACE = {
    "en": re.compile(r"lesson (?P<number>\d\d[a-z]?)(?: of \d+| \(between \d+ and \d+\)| \(\d+ of \d+\))"),
    "zh": re.compile(r"第 (?P<number>\d\d[a-z]?) 课(?:，共 \d+ 课|（位于 \d+ 和 \d+ 之间）|（\d+ 课中的第 \d+ 课）)"),
}


def place_label(number: str, numbers: list[str], lang: str = "en") -> str:
    """Where lesson ``number`` stands among ``numbers`` (every lesson's number, in course order), as the
    **Place in the course** row says it.

    Example:
        >>> numbers = ["00", "01", "06", "06b", "07"]
        >>> place_label("06b", numbers), place_label("06b", numbers, "zh")
        ('lesson 06b (4 of 5)', '第 06b 课（5 课中的第 4 课）')

    Raises:
        ValueError: ``number`` is not among ``numbers``.
    """
    position, total = numbers.index(number) + 1, len(numbers)
    if lang == "zh":
        return f"第 {number} 课（{total} 课中的第 {position} 课）"
    return f"lesson {number} ({position} of {total})"


def with_place(text: str, numbers: list[str], lang: str = "en") -> str:
    """``text`` (a lesson's first cell) with the lesson's place on its **Place in the course** row derived from
    ``numbers`` (:func:`place_label`); text without such a row, or a number not among ``numbers``, is returned as is.

    Example:
        >>> with_place("| **Place in the course** | lesson 01 of 12 · next: ... |", ["00", "01", "02"])
        '| **Place in the course** | lesson 01 (2 of 3) · next: ... |'
    """
    pattern = _PLACE.get(lang)

    def row(line: re.Match) -> str:
        def label(m: re.Match) -> str:
            return place_label(m["number"], numbers, lang) if m["number"] in numbers else m.group(0)
        return pattern.sub(label, line.group(0), count=1)

    return _PLACE_ROW.sub(row, text) if pattern else text


def lesson_numbers(root: Path = ROOT) -> list[str]:
    """Every lesson's number in course order (``["00", "01", ..., "06b", ..., "10a", "11", "12"]``), from the files."""
    return [number_of(p) for p in numbered(root / "notebooks")]


def set_places(root: Path = ROOT, *, check: bool = False) -> list[Path]:
    """Write each English lesson's place (:func:`with_place`) into its first markdown cell; return the lessons
    whose place was (or, with ``check``, would be) changed. Run by ``course notebooks clean`` (``check``: by
    ``course notebooks check``), so a lesson added to ``notebooks/`` renumbers every row. The Chinese edition
    follows at ``course notebooks extract --lang zh`` and ``build`` (:mod:`course_lib.translation`)."""
    numbers, changed = lesson_numbers(root), []
    for path in numbered(root / "notebooks"):
        text = path.read_text(encoding="utf-8")
        nb = nbformat.reads(text, as_version=4)
        cell = next((c for c in nb.cells if c.cell_type == "markdown"), None)
        if cell is None or with_place(cell.source, numbers) == cell.source:
            continue
        changed.append(path)
        if not check:
            cell.source = with_place(cell.source, numbers)
            path.write_text(nbformat.writes(nb) + "\n", encoding="utf-8")
    return changed


def numbered(folder: Path) -> list[Path]:
    """The ``NN_name.ipynb`` and ``NNx_name.ipynb`` notebooks of ``folder``, in course order.

    Example: ``10_mcp_advanced`` < ``10a_mcp_authorization`` < ``11_a2a`` (``_`` sorts before letters).
    """
    return sorted([*folder.glob(LESSON_GLOB), *folder.glob(INSERTED_GLOB)], key=lambda p: p.name)


def number_of(path: Path) -> str:
    """A lesson's or exercise's number from its file name: ``"01"``, ``"10a"``.

    Example:
        >>> number_of(Path("notebooks/10a_mcp_authorization.ipynb"))
        '10a'
    """
    return path.name.split("_", 1)[0]


def minutes_in(text: str) -> int | None:
    """The duration on the first ``**Time**`` line of ``text``, in minutes (upper bound of a range).

    Example:
        >>> minutes_in("| **Time** | about 45 minutes |")
        45
        >>> minutes_in("**Time:** 1.5 hours")
        90
        >>> minutes_in("no time here") is None
        True
    """
    line = _TIME_LINE.search(text)
    if not line:
        return None
    m = _DURATION.search(line.group(1))
    if not m:
        return None
    value = float(m.group(2) or m.group(1))
    return round(value * 60) if m.group(3).lower().startswith("h") else round(value)


def _first_markdown(path: Path) -> str:
    nb = nbformat.read(str(path), as_version=4)
    return next((c.source for c in nb.cells if c.cell_type == "markdown"), "")


@dataclass(frozen=True)
class Exercise:
    """One exercise notebook: ``number`` ("01"), ``title``, ``path``, ``minutes`` (or None)."""

    number: str
    title: str
    path: Path
    minutes: int | None
    #: the notebook the map links to: ``path``, or its copy in the learner's language edition
    shown: Path | None = None

    @property
    def key(self) -> str:
        """The name progress and hints are stored under: the file stem, e.g. ``01_tool_call_loop``."""
        return self.path.stem

    @property
    def solution(self) -> Path:
        return self.path.parent.parent / "solutions" / self.path.name

    def __repr__(self) -> str:
        return f"Exercise({self.number!r}, {self.title!r})"


@dataclass(frozen=True)
class Lesson:
    """One lesson notebook, described by its first cell.

    Attributes:
        number: two digits, from the file name (``"01"``).
        title: from ``# Lesson NN · Title`` (the file name when the heading is missing).
        path: the notebook.
        minutes: the estimated time, or None when the first cell gives none.
        goal: the first sentence of the **Goal** paragraph ("" when missing).
        exercises: the exercises with the same number.
    """

    number: str
    title: str
    path: Path
    minutes: int | None
    goal: str = ""
    exercises: tuple[Exercise, ...] = field(default_factory=tuple)
    #: the notebook the map links to: ``path``, or its copy in the learner's language edition
    shown: Path | None = None

    def __repr__(self) -> str:
        return f"Lesson({self.number!r}, {self.title!r}, minutes={self.minutes})"


def _title(text: str, path: Path) -> str:
    m = _TITLE.search(text) or _TITLE_ZH.search(text)
    if m:
        return m.group(m.lastindex)
    h1 = _ANY_H1.search(text)
    return h1.group(1) if h1 else path.stem[3:].replace("_", " ")


def _goal(text: str) -> str:
    m = _GOAL.search(text) or _GOAL_ZH.search(text)
    if not m:
        return ""
    para = " ".join(m.group(1).split())
    # a Chinese stop ends the sentence unless a closing quote or emphasis follows it (*"上海天气怎么样？"* is quoted)
    sentence = re.split(r"(?<=[.!?])\s|(?<=[。！？])(?![\"'”’」』）)*])", para, maxsplit=1)[0]
    return sentence


def _edition_copy(path: Path, lang: str) -> Path | None:
    """``notebooks/01_x.ipynb`` -> ``notebooks/<lang>/01_x.ipynb`` when that translation exists (else None)."""
    copy = path.parent / lang / path.name
    return copy if lang != "en" and copy.exists() else None


def read_exercise(path: Path, lang: str = "en") -> Exercise:
    """Describe one exercise notebook from its first markdown cell (its ``lang`` copy's title when it has one)."""
    text = _first_markdown(path)
    shown = _edition_copy(path, lang)
    title = _title(_first_markdown(shown), shown) if shown else _title(text, path)
    return Exercise(number_of(path), title, path, minutes_in(text), shown or path)


def exercises(root: Path = ROOT, lang: str = "en") -> list[Exercise]:
    """Every exercise in ``exercises/``, in order (titles and links of the ``lang`` edition where it has them)."""
    return [read_exercise(p, lang) for p in numbered(root / "exercises")]


def lessons(root: Path = ROOT, lang: str = "en") -> list[Lesson]:
    """Every lesson in ``notebooks/``, in order, with its exercises.

    ``lang``: titles, goals and links come from that language's edition (``notebooks/zh/``) for the lessons it
    has; numbers and times always come from the English lesson (the source).
    """
    by_number: dict[str, list[Exercise]] = {}
    for ex in exercises(root, lang):
        by_number.setdefault(ex.number, []).append(ex)
    found = []
    for path in numbered(root / "notebooks"):
        text = _first_markdown(path)
        shown = _edition_copy(path, lang)
        told = _first_markdown(shown) if shown else text
        number = number_of(path)
        found.append(Lesson(number, _title(told, shown or path), path, minutes_in(text), _goal(told),
                            tuple(by_number.get(number, ())), shown or path))
    return found


def interview_notebooks(root: Path = ROOT, lang: str = "en") -> list[Path]:
    """The Q&A notebooks for interview preparation (``notebooks/interview/*.ipynb``; their ``lang`` copies
    ``notebooks/<lang>/interview/`` where those exist)."""
    found = sorted(p for p in (root / "notebooks" / "interview").glob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    return [_edition_copy_interview(p, root, lang) or p for p in found]


def interview_title(path: Path) -> str:
    """How the map names a Q&A notebook: its number and what its heading says after the ``·``
    (``# Interview Q&A · Function calling`` -> ``01 Function calling``; ``# 面试问答 · 系统设计`` -> ``06 系统设计``);
    the file name's words when it has no heading."""
    h1 = _ANY_H1.search(_first_markdown(path))
    words = h1.group(1).split(" · ", 1)[-1] if h1 else path.stem[3:].replace("_", " ")
    return f"{number_of(path)} {words}"


def _edition_copy_interview(path: Path, root: Path, lang: str) -> Path | None:
    copy = root / "notebooks" / lang / "interview" / path.name
    return copy if lang != "en" and copy.exists() else None


def _fmt_minutes(m: int | None) -> str:
    if m is None:
        return "?"
    return (_("{m} min").format(m=m) if m < 60
            else _("{h} h {mm}").format(h=m // 60, mm=f"{m % 60:02d}"))


@dataclass
class CourseMap:
    """The lessons in order with their times and exercises (and, optionally, your progress).

    Displayed as an HTML table in Jupyter (links open the lessons) and as text elsewhere.
    Build it with :func:`course_map`.
    """

    lessons: list[Lesson]
    interviews: list[Path]
    status: dict[str, str] = field(default_factory=dict)  # exercise key -> progress status
    base: Path = ROOT / "notebooks"  # links are relative to this folder

    @property
    def total_minutes(self) -> int:
        """Lessons plus exercises, counting unknown times as 0."""
        return sum((l.minutes or 0) + sum(e.minutes or 0 for e in l.exercises) for l in self.lessons)

    def rows(self) -> list[dict[str, str]]:
        out = []
        for l in self.lessons:
            ex = "; ".join(f"{e.title} ({_fmt_minutes(e.minutes)}){self._mark(e)}" for e in l.exercises) or "–"
            out.append({"#": l.number, "lesson": l.title, "time": _fmt_minutes(l.minutes), "exercise": ex})
        return out

    def _mark(self, e: Exercise) -> str:
        s = self.status.get(e.key)
        return {"passed": " ✅", "attempted": " ⏳"}.get(s or "", "")

    def _footer(self) -> str:
        foot = _("{n} lessons, about {time} with exercises").format(n=len(self.lessons),
                                                                  time=_fmt_minutes(self.total_minutes))
        if self.interviews:
            foot += _("; interview practice: ") + " · ".join(f"[{interview_title(p)}]({self._rel(p)})"
                                                           for p in self.interviews)
        return foot

    def table(self) -> Table:
        """The map as a :class:`~course_lib.text_table.Table`: HTML with links and goals, or aligned text."""
        html_cells = []
        for l in self.lessons:
            ex = "<br>".join(f"{self._link(e.shown or e.path, e.title)} ({_fmt_minutes(e.minutes)}){self._mark(e)}"
                             for e in l.exercises) or "–"
            html_cells.append([l.number, f"{self._link(l.shown or l.path, l.title)}<br><small>{inline_markdown_html(l.goal)}</small>",
                               _fmt_minutes(l.minutes), ex])
        rows = [[r["#"], r["lesson"], r["time"], r["exercise"]] for r in self.rows()]
        return Table(["#", _("lesson"), _("time"), _("exercise")], rows, align=["<", "<", ">", "<"], footer=self._footer(),
                     html_cells=html_cells)

    def text(self) -> str:
        """The map as plain text, columns aligned by display width (a Chinese title takes two columns a character)."""
        return self.table().text()

    def _rel(self, path: Path) -> str:
        return Path(os.path.relpath(path, self.base)).as_posix()

    def _link(self, path: Path, label: str) -> str:
        return f"<a href='{html.escape(self._rel(path))}'>{inline_markdown_html(label)}</a>"

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()

    def __repr__(self) -> str:
        return self.text()


def course_map(root: Path = ROOT, *, with_progress: bool = True) -> CourseMap:
    """The map of the course as it is on disk now (lessons, times, exercises, your progress).

    Args:
        root: the repository root (tests pass a temporary copy).
        with_progress: mark exercises passed ✅ / attempted ⏳ from ``course check`` results.

    Seed idea: the learner's path through the course; shown in lesson 00.
    """
    status: dict[str, str] = {}
    if with_progress:
        from . import progress

        status = {k: v.get("status", "") for k, v in progress.load().items()}
    lang = language()
    # links are relative to the folder of the lesson that shows the map (lesson 00, or its copy in notebooks/zh/)
    base = root / "notebooks" / lang if lang != "en" and (root / "notebooks" / lang).is_dir() else root / "notebooks"
    return CourseMap(lessons(root, lang), interview_notebooks(root, lang), status, base)
