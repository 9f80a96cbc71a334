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
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class CellOutcome:
    index: int
    passed: bool
    check: dict | None
    error: str | None


@dataclass
class CheckRun:
    """What one ``course check`` run found."""

    notebook: Path
    cells: list[CellOutcome] = field(default_factory=list)

    @property
    def checks(self) -> list[dict]:
        return [r for c in self.cells if c.check for r in c.check["results"]]

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(r["passed"] for r in self.checks) and all(c.passed for c in self.cells)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="run the checks of an exercise, e.g. `course check 01`")
    p.add_argument("exercise", help="exercise number (01) or path to a notebook")
    p.add_argument("--solutions", action="store_true", help="check the solution notebook instead (maintainers)")
    p.set_defaults(func=_run)


def run_check(path: Path) -> CheckRun:
    """Execute ``path`` under nbval and collect every cell's outcome and check report."""
    import pytest

    from ..checks import CHECK_MIME

    run = CheckRun(path)

    class Collector:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_makereport(self, item, call):
            outcome = yield
            rep = outcome.get_result()
            if rep.when != "call" or not hasattr(item, "cell_num"):
                return
            outs = getattr(item, "test_outputs", None) or []
            check = next((o["data"][CHECK_MIME] for o in outs if CHECK_MIME in o.get("data", {})), None)
            error = next((f"{o.get('ename')}: {o.get('evalue')}" for o in outs if o.get("output_type") == "error"),
                         None)
            if error is None and rep.failed:
                error = "the cell failed (see the notebook)"
            run.cells.append(CellOutcome(item.cell_num, rep.passed, check, error))

    args = [str(path), "--nbval-lax", "--nbval-current-env", "-p", "no:cacheprovider", "-q", "--tb=no",
            "-o", "addopts=", "-p", "no:xdist", "--nbval-cell-timeout=300"]
    chatter = io.StringIO()  # pytest's own progress lines: shown only if nothing could run
    with contextlib.redirect_stdout(chatter):
        pytest.main(args, plugins=[Collector()])
    if not run.cells:
        print(chatter.getvalue())
    return run


def _run(args: argparse.Namespace) -> int:
    from .. import exercises, progress

    folder = exercises.SOLUTIONS if args.solutions else exercises.EXERCISES
    path = exercises.find(args.exercise, folder)
    print(f"\nChecking {path} ...\n")
    run = run_check(path)
    for cell in run.cells:
        if cell.check:
            print(f"[{cell.check['exercise']}]")
            for r in cell.check["results"]:
                print(f"  {'✅' if r['passed'] else '❌'} {r['name']}")
                if not r["passed"]:
                    print(f"       hint: {r['hint']}")
            if not cell.check["passed"] and cell.check.get("more_help"):
                print(f"  {cell.check['more_help']}")
        elif cell.error:
            note = " (the exercise stub is still there: write your code in that cell)" \
                if cell.error.startswith("NotImplementedError") else ""
            print(f"  ⚠️  code cell {cell.index + 1} raised {cell.error}{note}")
    total, ok = len(run.checks), sum(r["passed"] for r in run.checks)
    if total == 0:
        print("  no check ran: the notebook stopped before its check cells (see the errors above).")
    verdict = "all checks pass. Well done!" if run.passed else "not yet: fix the first ❌ and run `course check` again."
    print(f"\n{ok}/{total} checks pass: {verdict}")
    if not args.solutions:
        progress.record(path.stem, run.passed, run.checks)
    return 0 if run.passed else 1
