"""Exercise checks that explain themselves.

A check cell in an exercise calls a function of this package. It runs every sub-check and
shows one report: the summary once, one line per sub-check (✅ passed / ❌ failed + a kind,
specific hint), and, when something failed, one "need a nudge?" line. An exception raised inside
the learner's code is one line naming their function, line and cell, with the full traceback
collapsed under it (:mod:`course_lib.checks.calm`); the SDKs' own log records are kept out.
If any sub-check failed, the check raises :class:`CheckFailed`, which IPython shows as a single
"Not yet" line (``_render_traceback_``), no traceback; under nbval the cell counts as failed,
which is how ``course check NN`` and the test suite see it. A passing check shows its report
and nothing else (no ``CheckReport(...)`` repr under it).

Each report is displayed as HTML (JupyterLab), plain text (terminals, nbval) and
``application/vnd.course.check+json``, so tools can read the results without parsing text.
"""
from __future__ import annotations

import functools
import html
import inspect
import json
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

from ..i18n import N_, _, tidy_spacing
from .calm import LearnerError, learner_error, quiet_sdk_logs, try_it

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
        # IPython shows this line instead of a traceback: the report above already said everything once.
        return ["\x1b[1;31m" + _("Not yet:") + "\x1b[0m " + _("fix the first ❌ above, then run your cell and this one again.")]


@dataclass
class CheckResult:
    """One sub-check: its name, whether it passed, and the hint shown when it did not."""

    name: str
    passed: bool
    hint: str = ""
    #: when the learner's code raised: what and where in one line, and the full traceback
    error: LearnerError | None = None
    #: the name of the earlier failed sub-check this failure follows from (its hint then says so)
    follows: str = ""

    def line(self) -> str:
        if self.passed:
            return f"✅ {self.name}"
        raised = "\n     " + _("your code raised {line}").format(line=self.error.line) if self.error else ""
        return f"❌ {self.name}\n     {hint_line(self.hint)}{raised}"


def hint_line(hint: str) -> str:
    """``hint: <hint>`` in the learner's language: one sentence with a ``{hint}`` field, so each language puts its
    own spacing around it (Chinese none after its full-width colon: ``提示：...``, not ``提示： ...``).

    Example:
        >>> hint_line("call the tool")
        'hint: call the tool'
    """
    return _("hint: {hint}").format(hint=hint)


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
    said: set[str] = set()  # hints already shown: a sub-check failing again for the same reason says "as above"
    i = 0
    while i < len(results):
        r = results[i]
        if r["passed"]:
            out.append(f"{indent}✅ {r['name']}")
            i += 1
            continue
        j = i
        while (j + 1 < len(results) and not results[j + 1]["passed"] and results[j + 1]["hint"] == r["hint"]
               and results[j + 1].get("error") == r.get("error")):
            j += 1
        names = [x["name"] for x in results[i:j + 1]]
        if len(names) == 1:
            out.append(f"{indent}❌ {names[0]}")
        else:
            comma = _(", ")
            shown = (_("{some} and {last}").format(some=comma.join(names[:-1]), last=names[-1]) if len(names) <= 3
                     else _("{some} and {n} more").format(some=comma.join(names[:3]), n=len(names) - 3))
            out.append(indent + "❌ " + _("{n} checks fail for one reason: {shown}").format(n=len(names), shown=shown))
        hint = _("as above.") if r["hint"] in said and len(r["hint"]) > 40 else r["hint"]
        out.append(f"{indent}     {hint_line(hint)}")
        said.add(r["hint"])
        if r.get("error"):
            out.append(f"{indent}     " + _("your code raised {line}").format(line=r["error"]))
        i = j + 1
    return out


#: what every sub-check says when the learner's function is still the exercise's ``raise NotImplementedError``
STUB_HINT = N_("Write your code where the exercise says `# YOUR CODE HERE` (and remove the `raise`).")


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

    def check(self, name: str, passed: Any, hint: str, *, error: BaseException | None = None,
              needs: tuple[str, ...] = ()) -> bool:
        """Record a sub-check; ``hint`` says what to change when ``passed`` is false.

        Args:
            error: the exception the learner's code raised, if that is why it failed: shown as one
                line naming their function, line and cell, with the traceback one click away
                (so ``hint`` should say what to change, not repeat the exception).
            needs: names of earlier sub-checks this one can only pass after. When one of them failed and this
                one fails too, its own hint would send the learner after a consequence: the line says instead
                that it follows from that ❌ and to fix that one first (``follows`` in the JSON).

        Example:
            >>> r = CheckReport("demo")
            >>> r.check("a tool message per call", False, "append one per call")
            False
            >>> r.check("the answer names both cities", False, "return the second reply", needs=("a tool message per call",))
            False
            >>> print(r.text())
            demo: 0/2 checks pass
            ❌ a tool message per call
                 hint: append one per call
            ❌ the answer names both cities
                 hint: this follows from “a tool message per call” above: fix that one first.
        """
        info = learner_error(error) if error is not None and not passed else None
        if info is not None and info.stub:
            # the untouched stub is no error of the learner's: a calm hint (the check's own when it speaks of the
            # stub), and no "your code raised NotImplementedError" line
            hint, info = (hint if "YOUR CODE HERE" in hint else _(STUB_HINT)), None
        follows = "" if passed else next((r.name for r in self.results if r.name in needs and not r.passed), "")
        if follows:
            hint = _("this follows from “{name}” above: fix that one first.").format(name=follows)
        self.results.append(CheckResult(name, bool(passed), hint, info, follows))
        return bool(passed)

    def run(self, name: str, fn: Callable[[], Any], hint: str | Callable[[Exception], str]) -> Any:
        """Record a sub-check that passes when ``fn()`` returns without raising.

        Returns ``fn()``'s value, or None when it raised (the exception is shown under the hint).
        """
        try:
            value = fn()
        except Exception as e:  # the learner's code failed: report it kindly
            self.check(name, False, hint(e) if callable(hint) else hint, error=e)
            return None
        self.results.append(CheckResult(name, True))
        return value

    @property
    def passed(self) -> bool:
        return bool(self.results) and all(r.passed for r in self.results)

    def summary(self) -> str:
        ok = sum(r.passed for r in self.results)
        return _("{exercise}: {ok}/{total} checks pass").format(exercise=self.exercise, ok=ok, total=len(self.results))

    def text(self) -> str:
        extra = [self.more_help] if self.more_help and not self.passed else []
        return tidy_spacing("\n".join([self.summary(), *grouped_lines(self.as_json()["results"]), *extra]))

    def as_json(self) -> dict:
        results = []
        for r in self.results:
            item = {"name": r.name, "passed": r.passed, "hint": r.hint}
            if r.error:
                item["error"] = r.error.line
            if r.follows:
                item["follows"] = r.follows
            results.append(item)
        data = {"exercise": self.exercise, "passed": self.passed, "results": results}
        if self.more_help:
            data["more_help"] = self.more_help
        return data

    def html(self) -> str:
        """The report for JupyterLab: the summary, one line per sub-check, tracebacks collapsed."""
        from ..text_table import inline_markdown_html as md

        colour = "#1b7a3a" if self.passed else "#b3261e"
        rows = [f"<div style='font-weight:bold;color:{colour}'>{html.escape(self.summary())}</div>"]
        for r in self.results:
            if r.passed:
                rows.append(f"<div>✅ {md(r.name)}</div>")
                continue
            rows.append(f"<div>❌ {md(r.name)}<div style='margin-left:1.6em'>{hint_line(md(r.hint))}</div>")
            if r.error:
                rows.append(f"<div style='margin-left:1.6em'>{_('your code raised')} "
                            f"{r.error.html(summary=_('show the full traceback'))}</div>")
            rows.append("</div>")
        if self.more_help and not self.passed:
            rows.append(f"<div style='margin-top:4px'>💡 {md(self.more_help)}</div>")
        return tidy_spacing("<div class='course-check' style='line-height:1.45'>" + "".join(rows) + "</div>")

    def finish(self) -> "CheckReport":
        """Show the report; raise :class:`CheckFailed` if any sub-check failed."""
        _show(self)
        self._shown = True
        if not self.passed:
            raise CheckFailed(self)
        return self

    def _ipython_display_(self) -> None:
        # A check cell ends with the check's call: its report is on show already, so nothing more
        # (not a `CheckReport('...')` line under it). A report displayed for the first time shows itself.
        if not getattr(self, "_shown", False):
            _show(self)
            self._shown = True

    def __repr__(self) -> str:
        return self.text()


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
    display({"text/plain": report.text(), "text/html": report.html(), CHECK_MIME: report.as_json()}, raw=True)


F = TypeVar("F", bound=Callable[..., Any])


def calm_check(fn: F) -> F:
    """Decorate a check function (sync or async): the SDKs' log records stay out of its cell.

    A check drives the learner's MCP server, A2A agent or HTTP client; when their code raises inside
    the SDK, the SDK logs it (the MCP server prints two chained tracebacks). The check says the same
    thing kindly, so those records are collected (:func:`~course_lib.checks.calm.quiet_sdk_logs`)
    instead of printed.
    """
    if inspect.iscoroutinefunction(fn):
        @functools.wraps(fn)
        async def run_async(*args: Any, **kwargs: Any) -> Any:
            with quiet_sdk_logs():
                return await fn(*args, **kwargs)
        return run_async  # type: ignore[return-value]

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        with quiet_sdk_logs():
            return fn(*args, **kwargs)
    return run  # type: ignore[return-value]


__all__ = ["CHECK_MIME", "STUB_HINT", "CheckFailed", "CheckReport", "CheckResult", "calm_check", "grouped_lines", "learner_error",
           "quiet_sdk_logs", "try_it"]
