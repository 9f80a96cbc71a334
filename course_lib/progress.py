"""The learner's exercise progress, from the results of ``course check``.

Each ``course check NN`` run records, per exercise, the status (``attempted`` or
``passed``), the time, and each check's outcome in ``progress.json`` in the learner's
state folder (:func:`course_lib.storage.data_dir`). ``course progress`` reads it.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .i18n import N_, _
from .storage import data_dir, read_json, write_json

NOT_STARTED, ATTEMPTED, PASSED = "not started", "attempted", "passed"
#: how each status reads (the stored value stays English: progress.json is read by tools and instructors)
STATUS_NAMES = {NOT_STARTED: N_("not started"), ATTEMPTED: N_("attempted"), PASSED: N_("passed")}


def progress_file() -> Path:
    return data_dir() / "progress.json"


def load() -> dict[str, Any]:
    """All recorded results: ``{exercise name: {"status", "checked_at", "checks": [...]}}``."""
    return read_json(progress_file(), {})


def record(exercise: str, passed: bool, checks: list[dict]) -> dict[str, Any]:
    """Store the outcome of one ``course check`` run and return the entry."""
    data = load()
    entry = {"status": PASSED if passed else ATTEMPTED, "checked_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
             "checks": checks}
    data[exercise] = entry
    write_json(progress_file(), data)
    return entry


def status(exercise: str) -> str:
    """``not started``, ``attempted`` or ``passed``."""
    return load().get(exercise, {}).get("status", NOT_STARTED)


# --- the learner's view: a table of every exercise (``course progress``, lesson 00) -------------


@dataclass(frozen=True)
class ExerciseProgress:
    """One row of ``course progress``.

    Attributes:
        key: the exercise's file stem (``01_tool_call_loop``), the key of ``progress.json``.
        number, title: from the exercise notebook's first cell.
        status: ``not started``, ``attempted`` or ``passed`` (the last ``course check`` run).
        passed_checks, total_checks: sub-checks of that run (0, 0 when never checked).
        checked_at: local time of that run ("" when never checked).
        hints_seen: how many hints were revealed (:mod:`course_lib.hints`).
        notebook: the notebook to open, relative to the course root: ``exercises/01_x.ipynb``, or its copy in
            the learner's language edition (``exercises/zh/01_x.ipynb``), whose title ``title`` then is.
    """

    key: str
    number: str
    title: str
    status: str
    passed_checks: int = 0
    total_checks: int = 0
    checked_at: str = ""
    hints_seen: int = 0
    notebook: str = ""

    @property
    def symbol(self) -> str:
        return {PASSED: "✅", ATTEMPTED: "⏳"}.get(self.status, "⬜")

    def __repr__(self) -> str:
        return f"ExerciseProgress({self.key!r}, {self.status!r})"


def exercise_progress(root: Path | None = None) -> list[ExerciseProgress]:
    """Every exercise on disk with its status, in course order (exercises never checked included); titles and
    notebooks of the learner's language edition where it has the exercise (progress is kept per exercise, in
    either language)."""
    import os

    from . import hints
    from .course_map import ROOT, exercises
    from .i18n import language

    data, seen, root = load(), hints.seen_counts(), root or ROOT
    rows = []
    for ex in exercises(root, language()):
        entry = data.get(ex.key, {})
        checks = entry.get("checks", [])
        rows.append(ExerciseProgress(ex.key, ex.number, ex.title, entry.get("status", NOT_STARTED),
                                     sum(bool(c.get("passed")) for c in checks), len(checks),
                                     entry.get("checked_at", ""), seen.get(ex.key, 0),
                                     Path(os.path.relpath(ex.shown or ex.path, root)).as_posix()))
    return rows


def progress_text(rows: list[ExerciseProgress]) -> str:
    """The table ``course progress`` prints (plain text, aligned), then :func:`progress_summary`."""
    if not rows:
        return _("No exercises found (exercises/NN_name.ipynb).")
    from .text_table import display_width, pad  # display columns: Chinese titles take two per character

    w = max(display_width(f"{r.number} · {r.title}") for r in rows)
    lines = [f"   {pad(_('exercise'), w)}  {pad(_('status'), 11)}  {pad(_('checks'), 6, '>')}  "
             f"{pad(_('hints'), 5, '>')}  {_('last checked')}"]
    for r in rows:
        checks = f"{r.passed_checks}/{r.total_checks}" if r.total_checks else "–"
        lines.append(f"{r.symbol} {pad(r.number + ' · ' + r.title, w)}  {pad(_(STATUS_NAMES.get(r.status, r.status)), 11)}  "
                     f"{checks:>6}  {pad(str(r.hints_seen or '–'), 5, '>')}  {r.checked_at.replace('T', ' ') or '–'}")
    return "\n".join(lines) + "\n\n" + progress_summary(rows)


def progress_summary(rows: list[ExerciseProgress]) -> str:
    """How many exercises passed and which one is next (its notebook in the learner's edition, and the
    ``course check`` that finds that notebook from any folder: ``01 --lang zh`` for ``exercises/zh/``).

    Example:
        >>> print(progress_summary([ExerciseProgress("01_x", "01", "X", NOT_STARTED, notebook="exercises/01_x.ipynb")]))
        0 of 1 exercises passed.
        Next: exercises/01_x.ipynb, then `course check 01` to record it.
    """
    done = sum(r.status == PASSED for r in rows)
    lines = [_("{done} of {total} exercises passed.").format(done=done, total=len(rows))]
    nxt = next((r for r in rows if r.status != PASSED), None)
    if nxt:
        notebook = nxt.notebook or f"exercises/{nxt.key}.ipynb"
        folder = Path(notebook).parent
        number = nxt.number + (f" --lang {folder.name}" if folder.name != "exercises" else "")
        lines.append(_("Next: {notebook}, then `course check {number}` to record it.").format(
            notebook=notebook, number=number))
    return "\n".join(lines)


def _link(row: ExerciseProgress) -> str:
    """The row's notebook relative to the lesson that shows the table (lesson 00: ``notebooks/``, or
    ``notebooks/zh/`` for the edition's exercise)."""
    notebook = row.notebook or f"exercises/{row.key}.ipynb"
    return ("../../" if notebook.count("/") > 1 else "../") + notebook


def _progress_html(rows: list[ExerciseProgress]) -> str:
    import html

    body = "".join(
        f"<tr><td>{r.symbol}</td><td><a href='{html.escape(_link(r))}'>{r.number} · "
        f"{html.escape(r.title)}</a></td><td>{_(STATUS_NAMES.get(r.status, r.status))}</td>"
        f"<td>{f'{r.passed_checks}/{r.total_checks}' if r.total_checks else '–'}</td>"
        f"<td>{r.hints_seen or '–'}</td><td>{html.escape(r.checked_at.replace('T', ' ')) or '–'}</td></tr>"
        for r in rows)
    done = sum(r.status == PASSED for r in rows)
    head = "".join(f"<th>{_(h)}</th>" for h in ("exercise", "status", "checks", "hints", "last checked"))
    said = _("{done} of {total} exercises passed. Record a result with `course check NN`.").format(
        done=done, total=len(rows))
    return (f"<table><thead><tr><th></th>{head}</tr></thead><tbody>{body}</tbody></table>"
            f"<p>{html.escape(said).replace('`course check NN`', '<code>course check NN</code>')}</p>")


def progress_view(root: Path | None = None):
    """Your progress as a widget (a table with a ↻ button that re-reads it), with a text fallback.

    Returns:
        A :class:`course_lib.widgets.WithFallback` (display it as a cell's last expression).

    Shown in lesson 00; the same table as ``course progress``.
    """
    from .widgets import WithFallback, widgets_available

    rows = exercise_progress(root)
    if not widgets_available():
        return WithFallback(None, progress_text(rows))
    import ipywidgets as w

    table = w.HTML(_progress_html(rows))
    button = w.Button(description=_("↻ refresh"), tooltip=_("re-read the results of `course check`"),
                      layout=w.Layout(width="110px"))
    button.on_click(lambda _button: setattr(table, "value", _progress_html(exercise_progress(root))))
    return WithFallback(w.VBox([table, button]), progress_text(rows))
