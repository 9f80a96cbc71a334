"""The learner's exercise progress, from the results of ``course check``.

Each ``course check NN`` run records, per exercise, the status (``attempted`` or
``passed``), the time, and each check's outcome in ``progress.json`` in the learner's
state folder (:func:`course_lib.storage.data_dir`). ``course progress`` reads it.

One exercise, two editions (``exercises/01_x.ipynb`` and its Chinese copy ``exercises/zh/01_x.ipynb``): the
progress follows the learner, on purpose. A learner who switches language has done the exercise, so
``course progress`` in either language shows it passed (as :mod:`course_lib.hints` keeps one count of hints).
What it must not do is let one edition's run overwrite the other's: opening the untouched Chinese copy of an
exercise solved in English and checking it would turn ✅ into ⏳. So each edition keeps its own last result,
under ``"editions"``, and the entry's own ``status``/``checked_at``/``checks`` (what every reader uses) are the
summary: the latest *passed* run of any edition, else the latest run::

    {"03_tool_registry": {"status": "passed", "checked_at": "...", "checks": [...], "lang": "en",
                          "editions": {"en": {"status": "passed", ...}, "zh": {"status": "attempted", ...}}}}

An entry written before editions were kept (no ``"editions"``) counts as one edition of unknown language
(``""``), so nothing recorded earlier is lost.
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


_RUN_FIELDS = ("status", "checked_at", "checks")


def editions(entry: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The last run of each edition an entry of ``progress.json`` holds: ``{lang: {"status", "checked_at",
    "checks"}}`` (``""`` for an entry written before editions were kept; ``{}`` for none).

    Example:
        >>> editions({"status": "passed", "checked_at": "t", "checks": []})
        {'': {'status': 'passed', 'checked_at': 't', 'checks': []}}
    """
    if "editions" in entry:
        return dict(entry["editions"])
    run = {k: entry[k] for k in _RUN_FIELDS if k in entry}
    return {"": run} if run else {}


def summary(runs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The entry of an exercise from its editions' last runs (see the module docstring): the latest passed run
    of any edition, else the latest run; its fields plus ``lang`` (the edition it came from) and ``editions``.

    Example:
        >>> s = summary({"en": {"status": "passed", "checked_at": "2026-12-01T10:00:00", "checks": []},
        ...              "zh": {"status": "attempted", "checked_at": "2026-12-02T10:00:00", "checks": []}})
        >>> s["status"], s["lang"]
        ('passed', 'en')
    """
    passed = {lang: run for lang, run in runs.items() if run.get("status") == PASSED}
    pool = passed or runs
    lang = max(pool, key=lambda k: pool[k].get("checked_at", ""))
    return {**{k: pool[lang][k] for k in _RUN_FIELDS if k in pool[lang]}, "lang": lang, "editions": runs}


def record(exercise: str, passed: bool, checks: list[dict], lang: str = "en") -> dict[str, Any]:
    """Store the outcome of one ``course check`` run of ``lang``'s edition of ``exercise`` and return the entry.

    Args:
        exercise: the exercise's key, its file stem (``03_tool_registry``), the same in every edition.
        passed: every check passed.
        checks: the checks' results (``{"name", "passed", "hint", ...}``).
        lang: the edition checked: ``"en"`` for ``exercises/``, ``"zh"`` for ``exercises/zh/``
            (:func:`edition_of`).

    Returns:
        The exercise's new entry (:func:`summary`): the other editions' runs are kept as they were.
    """
    data = load()
    runs = editions(data.get(exercise, {}))
    runs[lang] = {"status": PASSED if passed else ATTEMPTED, "checked_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
                  "checks": checks}
    data[exercise] = entry = summary(runs)
    write_json(progress_file(), data)
    return entry


def edition_of(notebook: Path) -> str:
    """The language of the edition a notebook belongs to: ``"zh"`` for ``exercises/zh/01_x.ipynb``, ``"en"``
    for ``exercises/01_x.ipynb`` (or any other folder).

    Example:
        >>> edition_of(Path("exercises/zh/01_tool_call_loop.ipynb")), edition_of(Path("exercises/01_x.ipynb"))
        ('zh', 'en')
    """
    from .i18n import LANGUAGES, SOURCE_LANGUAGE

    folder = Path(notebook).parent.name
    return folder if folder in LANGUAGES else SOURCE_LANGUAGE


def status(exercise: str) -> str:
    """``not started``, ``attempted`` or ``passed`` (the summary over the editions, see the module docstring)."""
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
    notebooks of the learner's language edition where it has the exercise. The status follows the learner across
    editions: an exercise passed in English shows passed in the Chinese table too (module docstring)."""
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
