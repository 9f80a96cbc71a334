"""Exercise checks that explain themselves.

A check cell in an exercise calls a function of this package. It runs every sub-check,
prints one line per sub-check (✅ passed / ❌ failed + a kind, specific hint), and, if any
failed, raises :class:`CheckFailed`. In Jupyter the exception shows only the summary
(no traceback wall, thanks to ``_render_traceback_``); under nbval the cell counts as
failed, which is how ``course check NN`` and the test suite see it.

Each report is also displayed as ``application/vnd.course.check+json`` so tools can read
the results without parsing text.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

CHECK_MIME = "application/vnd.course.check+json"


def json_or_none(text: Any) -> Any:
    """``json.loads(text)``, or None when a learner's tool message content is not JSON text (or not text)."""
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return None


class CheckFailed(AssertionError):
    """Raised by a check cell when at least one sub-check failed; its message is the report."""

    def __init__(self, report: "CheckReport") -> None:
        super().__init__(report.summary())
        self.report = report

    def _render_traceback_(self) -> list[str]:
        # IPython shows these lines instead of a traceback: the learner sees hints, not internals.
        lines = [f"\x1b[1;31mNot yet:\x1b[0m {self.report.summary()}",
                 "Fix the first ❌ above, then re-run your cell and this one."]
        return lines + ([self.report.more_help] if self.report.more_help else [])


@dataclass
class CheckResult:
    """One sub-check: its name, whether it passed, and the hint shown when it did not."""

    name: str
    passed: bool
    hint: str = ""

    def line(self) -> str:
        return f"✅ {self.name}" if self.passed else f"❌ {self.name}\n     hint: {self.hint}"


def grouped_lines(results: list[dict], indent: str = "") -> list[str]:
    """One line per sub-check, except that failures sharing one hint are said once.

    When consecutive sub-checks fail for the same reason (typically the exercise's stub, which makes
    every one of them fail with "write your code where it says ``# YOUR CODE HERE``"), they become a
    single ❌ line naming them (the first three, then "and N more") with the hint once: a check never
    shows a wall (lesson 00's promise).

    Args:
        results: ``[{"name", "passed", "hint"}, ...]`` (the ``results`` of :meth:`CheckReport.as_json`).
        indent: put before every line (``course check`` indents by two spaces).

    Returns:
        The lines, without trailing newlines.

    Example:
        >>> rs = [{"name": n, "passed": False, "hint": "write it"} for n in "abcde"]
        >>> grouped_lines(rs)
        ['❌ 5 checks fail for one reason: a, b, c and 2 more', '     hint: write it']
    """
    out: list[str] = []
    i = 0
    while i < len(results):
        r = results[i]
        if r["passed"]:
            out.append(f"{indent}✅ {r['name']}")
            i += 1
            continue
        j = i
        while j + 1 < len(results) and not results[j + 1]["passed"] and results[j + 1]["hint"] == r["hint"]:
            j += 1
        names = [x["name"] for x in results[i:j + 1]]
        if len(names) == 1:
            out.append(f"{indent}❌ {names[0]}")
        else:
            shown = (f"{', '.join(names[:-1])} and {names[-1]}" if len(names) <= 3
                     else f"{', '.join(names[:3])} and {len(names) - 3} more")
            out.append(f"{indent}❌ {len(names)} checks fail for one reason: {shown}")
        out.append(f"{indent}     hint: {r['hint']}")
        i = j + 1
    return out


@dataclass
class CheckReport:
    """The results of one check cell.

    Example:
        >>> r = CheckReport("demo")
        >>> r.check("two is even", 2 % 2 == 0, "use %")
        True
        >>> r.summary()
        'demo: 1/1 checks pass'
    """

    exercise: str
    results: list[CheckResult] = field(default_factory=list)
    #: shown under a failed report, e.g. how to get the next hint (:mod:`course_lib.hints`)
    more_help: str = ""

    def check(self, name: str, passed: Any, hint: str) -> bool:
        """Record a sub-check; ``hint`` says what to change when ``passed`` is false."""
        self.results.append(CheckResult(name, bool(passed), hint))
        return bool(passed)

    def run(self, name: str, fn: Callable[[], Any], hint: str | Callable[[Exception], str]) -> Any:
        """Record a sub-check that passes when ``fn()`` returns without raising.

        Returns ``fn()``'s value, or None when it raised (the exception text joins the hint).
        """
        try:
            value = fn()
        except Exception as e:  # the learner's code failed: report it kindly
            text = hint(e) if callable(hint) else f"{hint} (your code raised {type(e).__name__}: {e})"
            self.results.append(CheckResult(name, False, text))
            return None
        self.results.append(CheckResult(name, True))
        return value

    @property
    def passed(self) -> bool:
        return bool(self.results) and all(r.passed for r in self.results)

    def summary(self) -> str:
        ok = sum(r.passed for r in self.results)
        return f"{self.exercise}: {ok}/{len(self.results)} checks pass"

    def text(self) -> str:
        extra = [self.more_help] if self.more_help and not self.passed else []
        return "\n".join([self.summary(), *grouped_lines(self.as_json()["results"]), *extra])

    def as_json(self) -> dict:
        data = {"exercise": self.exercise, "passed": self.passed,
                "results": [{"name": r.name, "passed": r.passed, "hint": r.hint} for r in self.results]}
        if self.more_help:
            data["more_help"] = self.more_help
        return data

    def finish(self) -> "CheckReport":
        """Show the report; raise :class:`CheckFailed` if any sub-check failed."""
        _show(self)
        if not self.passed:
            raise CheckFailed(self)
        return self

    def __repr__(self) -> str:
        return f"CheckReport({self.summary()!r})"


def _show(report: CheckReport) -> None:
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # plain Python: print
        print(report.text())
        return
    if get_ipython() is None:
        print(report.text())
        return
    display({"text/plain": report.text(), CHECK_MIME: report.as_json()}, raw=True)


__all__ = ["CHECK_MIME", "CheckFailed", "CheckReport", "CheckResult", "grouped_lines"]
