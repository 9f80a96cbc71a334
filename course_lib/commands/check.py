"""``course check NN``: run your exercise notebook under nbval and show which checks pass.

The notebook runs top to bottom in a fresh kernel (``pytest --nbval-lax``). Every check
cell reports its sub-checks (``application/vnd.course.check+json``); cells of yours that
raise are reported too (e.g. the ``NotImplementedError`` stub still in place). The result
is saved for ``course progress``.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..i18n import _, tidy_spacing
from . import add_lang_option, edition_of


@dataclass
class CellOutcome:
    """One code cell's result under nbval.

    Attributes:
        index: the cell's position among the notebook's code cells (0-based, nbval's ``cell_num``).
        passed: the cell ran without an error.
        check: the check report it displayed (``application/vnd.course.check+json``), if any.
        error: ``"Ename: message"`` of the exception it raised, if any.
        traceback: the IPython traceback of that exception, colour codes removed (one string).
        raised: the exception stopped the cell (an error output); False when a "Try it" cell caught it
            (:func:`course_lib.checks.try_it`), so that *Run All* went on.
    """

    index: int
    passed: bool
    check: dict | None
    error: str | None
    traceback: str = ""
    raised: bool = False


@dataclass
class CheckRun:
    """What one ``course check`` run found.

    ``sources`` holds the source of every code cell (``cells[i].index`` indexes it), so a report can
    name a cell by its first line, the way a learner finds it in JupyterLab.
    """

    notebook: Path
    cells: list[CellOutcome] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)

    @property
    def checks(self) -> list[dict]:
        return [r for c in self.cells if c.check for r in c.check["results"]]

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(r["passed"] for r in self.checks) and all(c.passed for c in self.cells)


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
#: A frame of code typed in a notebook cell, as IPython prints it: ``Cell In[1], line 7, in answer_with_tools(...)``.
_CELL_FRAME = re.compile(r"^\s*Cell In\[\d*\], line (\d+)(?:, in ([\w.<>]+))?", re.M)
#: A context line of such a frame: ``----> 7     raise ...`` or ``      6     message = ...``.
_CONTEXT = re.compile(r"^(?:-*>)?\s*(\d+) (.*)$")


def cell_label(source: str) -> str:
    """How a learner finds a cell in JupyterLab (which numbers no cells): by its first line of code.

    Example:
        >>> cell_label("# a comment\\n\\ndef search_wiki_tool() -> dict:\\n    pass")
        'the cell that starts with `def search_wiki_tool() -> dict:`'
    """
    lines = [l.strip() for l in source.splitlines() if l.strip()]
    code = [l for l in lines if not l.startswith("#")] or lines or [_("(an empty cell)")]
    first = code[0] if len(code[0]) <= 90 else code[0][:87] + "..."
    return _("the cell that starts with `{first}`").format(first=first)


@dataclass(frozen=True)
class ErrorOrigin:
    """Where an exception really came from: the innermost frame of code written in a notebook cell.

    Attributes:
        cell: index of that code cell (into ``CheckRun.sources``).
        line: the line number inside that cell (1-based), or None if unknown.
        function: the function that raised (``answer_with_tools``), or None at a cell's top level.
    """

    cell: int
    line: int | None
    function: str | None


def error_origin(traceback: str, sources: list[str], raising: int) -> ErrorOrigin:
    """The cell whose code raised, from an IPython traceback (the last ``Cell In[...]`` frame).

    nbval runs cells without history, so every frame says ``Cell In[1]``: the cell is found by
    matching the frame's numbered context lines against each cell's source. A stub called from the
    "Try it" cell is thus attributed to the stub's cell, not to the cell that called it.

    Args:
        traceback: the traceback text (colour codes removed).
        sources: every code cell's source, in order.
        raising: the index of the cell whose execution failed (the fallback).
    """
    frames = list(_CELL_FRAME.finditer(traceback))
    if not frames:
        return ErrorOrigin(raising, None, None)
    last = frames[-1]
    line = int(last.group(1))
    function = last.group(2) if last.group(2) and last.group(2) != "<module>" else None
    context = []
    for text in traceback[last.end():].splitlines()[1:]:
        m = _CONTEXT.match(text)
        if not m:
            break
        context.append((int(m.group(1)), m.group(2).rstrip()))

    def matches(source: str) -> bool:
        lines = source.splitlines()
        return all(0 < n <= len(lines) and lines[n - 1].rstrip() == text for n, text in context)

    candidates = [i for i, src in enumerate(sources) if matches(src)] if context else []
    if function and len(candidates) > 1:  # the same lines in two cells: prefer the one defining the function
        name = function.split(".")[-1]
        candidates = [i for i in candidates if re.search(rf"\bdef {re.escape(name)}\b", sources[i])] or candidates
    if raising in candidates or not candidates:
        return ErrorOrigin(raising, line, function)
    return ErrorOrigin(candidates[0], line, function)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help=_("run the checks of an exercise, e.g. `course check 01`"))
    p.add_argument("exercise", help=_("exercise number (01) or path to a notebook"))
    p.add_argument("--solutions", action="store_true", help=_("check the solution notebook instead (maintainers)"))
    add_lang_option(p)
    p.set_defaults(func=_run)


def run_check(path: Path) -> CheckRun:
    """Execute ``path`` under nbval and collect every cell's outcome and check report."""
    import pytest

    from ..checks import CHECK_MIME
    from ..checks.calm import TRY_IT_MIME

    import nbformat

    run = CheckRun(path)
    with contextlib.suppress(Exception):  # an unreadable notebook: nbval says why below
        run.sources = [c.source for c in nbformat.read(str(path), as_version=4).cells if c.cell_type == "code"]

    class Collector:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_makereport(self, item, call):
            outcome = yield
            rep = outcome.get_result()
            if rep.when != "call" or not hasattr(item, "cell_num"):
                return
            outs = getattr(item, "test_outputs", None) or []
            check = next((o["data"][CHECK_MIME] for o in outs if CHECK_MIME in o.get("data", {})), None)
            failure = next((o for o in outs if o.get("output_type") == "error"), None)
            raised = failure is not None
            # a "Try it" cell catches the learner's error (so Run All goes on) and hands it over here
            failure = failure or next((o["data"][TRY_IT_MIME] for o in outs if TRY_IT_MIME in o.get("data", {})), None)
            error = f"{failure.get('ename')}: {failure.get('evalue')}" if failure else None
            traceback = _ANSI.sub("", "\n".join(failure.get("traceback") or [])) if failure else ""
            if error is None and rep.failed:
                error = _("the cell failed (see the notebook)")
            run.cells.append(CellOutcome(item.cell_num, rep.passed and failure is None, check, error, traceback,
                                         raised))

    args = [str(path), "--nbval-lax", "--nbval-current-env", "-p", "no:cacheprovider", "-q", "--tb=no",
            "-o", "addopts=", "-p", "no:xdist", "--nbval-cell-timeout=300",
            # the repository's conftest.py is the test suite's: it would send the learner's progress and hints
            # to a throw-away folder
            "--noconftest"]
    chatter = io.StringIO()  # pytest's own progress lines: shown only if nothing could run
    with pytest.MonkeyPatch.context() as env, contextlib.redirect_stdout(chatter):
        env.setenv("COURSE_LLM", "mock")  # checks compare with the offline mock's answers, whatever the shell says
        pytest.main(args, plugins=[Collector()])
    if not run.cells:
        print(chatter.getvalue())
    return run


def _function(qualname: str) -> str:
    """``make_read_file.<locals>.read_file`` → ```read_file` (inside `make_read_file`)``."""
    parts = qualname.split(".<locals>.")
    return (_("`{name}` (inside `{outer}`)").format(name=parts[-1], outer=parts[-2]) if len(parts) > 1
            else f"`{qualname}`")


def _source(run: CheckRun, index: int) -> str:
    return run.sources[index] if 0 <= index < len(run.sources) else ""


def _syntax_error_lines(run: CheckRun, cell: CellOutcome, number: str) -> list[str]:
    """A SyntaxError: Python could not read the cell, so nothing after it could run."""
    from ..checks import hint_line

    origin = error_origin(cell.traceback, run.sources, cell.index)
    ename, _sep, message = cell.error.partition(": ")
    message = re.sub(r"\s*\([^()]*, line \d+\)$", "", message)  # "(1234.py, line 7)": a temp file's name
    lines = _source(run, origin.cell).splitlines()
    cell = cell_label(_source(run, origin.cell))
    where = (_("line {line} of {cell}").format(line=origin.line, cell=cell) if origin.line else cell)
    out = ["  ❗ " + _("The notebook could not run: Python could not read {where}.").format(where=where)]
    if origin.line and 0 < origin.line <= len(lines):
        out.append("       " + _("line {line}: {text}").format(line=origin.line, text=lines[origin.line - 1].strip()))
    out.append(f"       {ename}: {message}")
    out.append("       " + hint_line(_(
        "Python reads a whole cell before running any of it, so nothing in that cell ran (and the "
        "cells after it could not use its names). Look at that line and the one before it: a missing `:`, "
        "`)`, `]` or quote, or an indentation that does not line up, is the usual cause. Fix it, run the "
        "cell in JupyterLab to see it work, then `course check {number}` again.").format(number=number)))
    return out


def _error_lines(run: CheckRun, cell: CellOutcome, after_syntax_error: bool) -> list[str]:
    """A cell that raised: name the cell the learner must edit (where the exception came from)."""
    origin = error_origin(cell.traceback, run.sources, cell.index)
    here = cell_label(_source(run, cell.index))
    if cell.error.startswith("NotImplementedError"):
        what = _function(origin.function) if origin.function else _("your code")
        return ["  ⚠️  " + _("{what} is not written yet: it still raises NotImplementedError (the exercise's stub)."
                             ).format(what=what),
                "       " + _("Write your code in {cell}, where it says `# YOUR CODE HERE` (and remove the `raise`)."
                              ).format(cell=cell_label(_source(run, origin.cell)))]
    if after_syntax_error and cell.error.startswith("NameError"):
        return ["  ⚠️  " + _("{cell} raised {error} (because of the SyntaxError above: fix that first)."
                             ).format(cell=here, error=cell.error)]
    out = ["  ⚠️  " + _("{cell} raised {error}").format(cell=here, error=cell.error)]
    if origin.cell != cell.index or origin.function:
        where = cell_label(_source(run, origin.cell))
        if origin.line:
            where = _("line {line} of {cell}").format(line=origin.line, cell=where)
        if origin.function:
            where = _("in {function}, {where}").format(function=_function(origin.function), where=where)
        out.append("       " + _("(it came from your code: {where})").format(where=where))
    return out


def _stub_again() -> str:
    from ..checks import hint_line

    return "       " + hint_line(_("the exercise's stub is still in place (⚠️ above)."))


def report_lines(run: CheckRun, number: str, more_help: str | None = None) -> list[str]:
    """The text ``course check`` prints for ``run``: each cell's problems and checks, then the verdict.

    Sub-checks failing for one reason are said once (:func:`course_lib.checks.grouped_lines`).

    Args:
        run: what :func:`run_check` found.
        number: the exercise number, for the "run ``course check NN`` again" advice.
        more_help: replaces the "need a nudge?" line of failed check cells (the hints pointer computed
            from the learner's own state, :meth:`course_lib.hints.Hints.pointer`); None keeps the cell's.
    """
    from ..checks import grouped_lines, hint_line

    out: list[str] = []
    first_problem = None  # the symbol of the first problem listed: the verdict points at it
    syntax_error = False
    stub_said = False  # a ⚠️ already told the learner to replace the stub: a check's hint saying it again is noise
    for cell in run.cells:
        if cell.check:
            out.append(f"[{cell.check['exercise']}]")
            lines = grouped_lines(cell.check["results"], indent="  ")
            if stub_said:
                said_hint = hint_line("").rstrip()  # "hint:", "提示："
                lines = [_stub_again() if l.lstrip().startswith(said_hint) and "# YOUR CODE HERE" in l else l
                         for l in lines]
            out += lines
            if not all(r["passed"] for r in cell.check["results"]):
                first_problem = first_problem or "❌"
            if not cell.check["passed"] and cell.check.get("more_help"):
                # the caller's pointer, read from the learner's state in this process, when it gives one
                out.append(f"  {more_help or cell.check['more_help']}")
        elif cell.error:
            if cell.error.split(":")[0] in ("SyntaxError", "IndentationError", "TabError"):
                out += _syntax_error_lines(run, cell, number)
                syntax_error = True
                first_problem = first_problem or "❗"
            else:
                out += _error_lines(run, cell, syntax_error)
                stub_said = stub_said or cell.error.startswith("NotImplementedError")
                first_problem = first_problem or "⚠️"
    total, ok = len(run.checks), sum(r["passed"] for r in run.checks)
    again = _("run `course check {number}` again").format(number=number)
    if run.passed:
        verdict = _("all checks pass. Well done!")
    elif total == 0 and syntax_error:
        verdict = _("the notebook could not run to its checks: fix the SyntaxError (❗ above), then {again}."
                    ).format(again=again)
    elif total == 0:
        verdict = _("no check ran: the notebook stopped before its check cells. Fix the first ⚠️ above, then {again}."
                    ).format(again=again)
    else:
        verdict = _("not yet: fix the first {problem} above and {again}.").format(problem=first_problem or "❌",
                                                                                   again=again)
    out.append("\n" + _("{ok}/{total} checks pass: {verdict}").format(ok=ok, total=total, verdict=verdict))
    return out


def _shown(path: Path) -> str:
    """``path`` relative to the working directory when it is inside it, else as it is."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def rerun_arguments(path: Path, folder: Path) -> str:
    """What follows ``course check`` to check ``path`` again, as short as the English ``01``.

    Args:
        path: the notebook just checked.
        folder: the exercises' (or solutions') folder of the course, ``exercises/``.

    Returns:
        ``"01"`` for ``exercises/01_x.ipynb``; ``"01 --lang zh"`` for the edition's ``exercises/zh/01_x.ipynb``
        (``--lang`` finds that file from any working directory, see :func:`~course_lib.commands.edition_of`,
        and a path from elsewhere would print long and absolute); any other notebook by its path, relative to
        the working directory when inside it.

    Example:
        >>> rerun_arguments(Path("exercises/zh/01_tool_call_loop.ipynb"), Path("exercises"))
        '01 --lang zh'
    """
    from ..i18n import LANGUAGES

    number, parent = path.name.split("_", 1)[0], path.resolve().parent
    if parent.name == Path(folder).name:
        return number
    if parent.name in LANGUAGES and parent.parent.name == Path(folder).name:
        return f"{number} --lang {parent.name}"
    return _shown(path)


def _run(args: argparse.Namespace) -> int:
    from .. import exercises, progress

    folder = exercises.SOLUTIONS if args.solutions else exercises.EXERCISES
    path = exercises.find(args.exercise, edition_of(folder, args.exercise))
    print("\n" + _("Checking {path} ...").format(path=path) + "\n")
    run = run_check(path)
    from ..hints import hints_for

    hints = None if args.solutions else hints_for(path)
    print(tidy_spacing("\n".join(report_lines(run, rerun_arguments(path, folder),
                                               hints.pointer(terminal=True) if hints else None))))
    if not args.solutions:
        progress.record(path.stem, run.passed, run.checks, progress.edition_of(path))
    return 0 if run.passed else 1
