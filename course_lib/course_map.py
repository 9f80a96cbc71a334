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
import re
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

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

    def __repr__(self) -> str:
        return f"Lesson({self.number!r}, {self.title!r}, minutes={self.minutes})"


def _title(text: str, path: Path) -> str:
    m = _TITLE.search(text)
    if m:
        return m.group(2)
    h1 = _ANY_H1.search(text)
    return h1.group(1) if h1 else path.stem[3:].replace("_", " ")


def _goal(text: str) -> str:
    m = _GOAL.search(text)
    if not m:
        return ""
    para = " ".join(m.group(1).split())
    sentence = re.split(r"(?<=[.!?])\s", para, maxsplit=1)[0]
    return sentence


def read_exercise(path: Path) -> Exercise:
    """Describe one exercise notebook from its first markdown cell."""
    text = _first_markdown(path)
    return Exercise(number_of(path), _title(text, path), path, minutes_in(text))


def exercises(root: Path = ROOT) -> list[Exercise]:
    """Every exercise in ``exercises/``, in order."""
    return [read_exercise(p) for p in numbered(root / "exercises")]


def lessons(root: Path = ROOT) -> list[Lesson]:
    """Every lesson in ``notebooks/``, in order, with its exercises."""
    by_number: dict[str, list[Exercise]] = {}
    for ex in exercises(root):
        by_number.setdefault(ex.number, []).append(ex)
    found = []
    for path in numbered(root / "notebooks"):
        text = _first_markdown(path)
        number = number_of(path)
        found.append(Lesson(number, _title(text, path), path, minutes_in(text), _goal(text),
                            tuple(by_number.get(number, ()))))
    return found


def interview_notebooks(root: Path = ROOT) -> list[Path]:
    """The Q&A notebooks for interview preparation (``notebooks/interview/*.ipynb``)."""
    return sorted(p for p in (root / "notebooks" / "interview").glob("*.ipynb")
                  if ".ipynb_checkpoints" not in p.parts)


def _fmt_minutes(m: int | None) -> str:
    if m is None:
        return "?"
    return f"{m} min" if m < 60 else f"{m // 60} h {m % 60:02d}"


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
        foot = f"{len(self.lessons)} lessons, about {_fmt_minutes(self.total_minutes)} with exercises"
        if self.interviews:
            foot += "; interview practice: " + ", ".join(f"[{p.stem.replace('_', ' ')}]({self._rel(p)})"
                                                        for p in self.interviews)
        return foot

    def table(self) -> Table:
        """The map as a :class:`~course_lib.text_table.Table`: HTML with links and goals, or aligned text."""
        html_cells = []
        for l in self.lessons:
            ex = "<br>".join(f"{self._link(e.path, e.title)} ({_fmt_minutes(e.minutes)}){self._mark(e)}"
                             for e in l.exercises) or "–"
            html_cells.append([l.number, f"{self._link(l.path, l.title)}<br><small>{inline_markdown_html(l.goal)}</small>",
                               _fmt_minutes(l.minutes), ex])
        rows = [[r["#"], r["lesson"], r["time"], r["exercise"]] for r in self.rows()]
        return Table(["#", "lesson", "time", "exercise"], rows, align=["<", "<", ">", "<"], footer=self._footer(),
                     html_cells=html_cells)

    def text(self) -> str:
        """The map as plain text, columns aligned by display width (a Chinese title takes two columns a character)."""
        return self.table().text()

    def _rel(self, path: Path) -> str:
        try:
            return path.relative_to(self.base).as_posix()
        except ValueError:
            return "../" + path.relative_to(self.base.parent).as_posix()

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
    return CourseMap(lessons(root), interview_notebooks(root), status, root / "notebooks")
