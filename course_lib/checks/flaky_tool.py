"""Checks of exercise 04: make a flaky, sometimes hanging tool reliable, and the agent finish anyway.

The learner writes ``call_with_retries(fn, *args, attempts, base, cap, timeout, sleep, rng, **kwargs)``
(retry with exponential backoff, jitter and a per-attempt timeout) and ``build_agent(mock, tool)``
(an :class:`~course_lib.agent.Agent` whose ``get_weather`` goes through it, with a client that
survives the model's rate limits). The checks drive them with fault-injecting tools, a recording
``sleep`` (nothing really waits) and random sources whose draws are known, so every requirement is
tested exactly: the delays must *be* the backoff formula, not merely look random.
"""
from __future__ import annotations

import random
from typing import Any, Callable

from ..examples import UnknownCity, get_weather
from ..hints import Hints
from ..mock_llm import MockLLM
from ..resilience import FlakyTool, ToolTimeout, TransientToolError, call_with_timeout
from . import CheckReport, calm_check
from ..i18n import N_, _

QUESTION = "What's the weather in Shanghai?"
ANSWER = "Shanghai: 28 °C, humidity 65 %."
BOUND = 5.0  # seconds any learner call may take before the check calls it hung

HINTS = Hints("04_flaky_tool", [
    N_("This is lesson 04's retry loop (section 2) plus its timeout (section 8). Loop over the attempts; run "
    "each one through `call_with_timeout`; decide with `is_transient(e)` whether the error is worth another try."),
    N_("Inside `for attempt in range(1, attempts + 1):` put a `try: return call_with_timeout(fn, *args, "
    "timeout=timeout, **kwargs)`. In `except Exception as e:` re-raise when `not is_transient(e)` or when it "
    "was the last attempt; otherwise `sleep(...)` and loop."),
    N_("The wait before retry number `attempt` is `rng.uniform(0, min(cap, base * 2 ** (attempt - 1)))`. In "
    "`build_agent`, register a function `get_weather(city, unit='celsius')` that returns "
    "`call_with_retries(tool, city, unit, timeout=0.5)` with `schema=WEATHER_TOOL`, and give the agent "
    "`mock.client(max_retries=3)`."),
], solution_section="Your code: call_with_retries and build_agent")


class _Recorder:
    """A ``sleep`` that records and returns at once."""

    def __init__(self) -> None:
        self.sleeps: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.sleeps.append(seconds)


class _Edge(random.Random):
    """A random source whose ``uniform(a, b)`` always returns ``a`` (low) or ``b`` (high)."""

    def __init__(self, high: bool) -> None:
        super().__init__(0)
        self.high = high

    def uniform(self, a: float, b: float) -> float:
        return b if self.high else a

    def random(self) -> float:  # for ``rng.random() * ceiling``
        return 1.0 - 1e-12 if self.high else 0.0


def _bounded(fn: Callable[[], Any]) -> Any:
    """Run the learner's code with a bound, so a missing timeout fails the check instead of hanging it."""
    return call_with_timeout(fn, timeout=BOUND, name="your call_with_retries")


def _explain(e: BaseException) -> str:
    if isinstance(e, NotImplementedError):
        return _("Write your code where the exercise says `# YOUR CODE HERE` (and remove the `raise`).")
    if isinstance(e, ToolTimeout):
        return (_("Your function was still running after {BOUND:g} s: an attempt hung. Run "
                   "every attempt through `call_with_timeout(fn, *args, timeout=timeout, "
                   "**kwargs)`.").format(BOUND=BOUND))
    if isinstance(e, TypeError) and "argument" in str(e):
        return (_("Keep the signature `call_with_retries(fn, *args, attempts=4, base=0.2, "
                   "cap=2.0, timeout=1.0, sleep=time.sleep, rng=random, **kwargs)` and pass "
                   "`*args, **kwargs` on to `fn` ({e}).").format(e=e))
    return _("Your function raised {error_type}: {e}").format(error_type=type(e).__name__, e=e)


@calm_check
def check_flaky_tool(call_with_retries: Callable[..., Any], build_agent: Callable[[Any, Any], Any]) -> CheckReport:
    """Check exercise 04's two functions; raises :class:`~course_lib.checks.CheckFailed` with hints."""
    report = CheckReport(_("Exercise 04 · a flaky tool, made reliable"), more_help=HINTS.pointer())
    _check_retries(report, call_with_retries)
    _check_agent(report, build_agent)
    return report.finish()


def _check_retries(report: CheckReport, call_with_retries: Callable[..., Any]) -> None:
    def run(tool: Any, *args: Any, rng: random.Random | None = None, **options: Any) -> tuple[Any, _Recorder]:
        sleep = _Recorder()
        value = _bounded(lambda: call_with_retries(tool, *args, sleep=sleep, rng=rng or random.Random(0),
                                                   **options))
        return value, sleep

    # 1. a healthy tool: one call, no waiting
    tool = FlakyTool(get_weather)
    ok = report.run(_("it runs with a healthy tool"), lambda: run(tool, "Paris"), _explain)
    if ok is None:
        return
    value, sleep = ok
    report.check(_("a working tool answers at once (right value, no waiting)"),
                 value == {"temp": 18, "humidity": 72} and tool.calls == 1 and not sleep.sleeps,
                 _("With a healthy tool return its result on the first try without sleeping "
                    "(got {value!r}, {calls} call(s), sleeps {sleeps}).").format(value=value, calls=tool.calls, sleeps=sleep.sleeps))

    # 2. transient errors are retried
    tool = FlakyTool(get_weather).inject("error", times=2)
    got = report.run(_("it runs with a tool that fails twice"), lambda: run(tool, "Shanghai", base=0.2, cap=2.0),
                     _explain)
    if got is not None:
        value, sleep = got
        report.check(_("transient errors are retried until the tool answers"),
                     value == {"temp": 28, "humidity": 65} and tool.calls == 3 and len(sleep.sleeps) == 2,
                     _("The tool failed twice with TransientToolError, then worked: expected "
                        "3 calls and 2 sleeps, got {calls} calls and sleeps {sleeps}. Catch "
                        "the error, `sleep(...)`, try again.").format(calls=tool.calls, sleeps=sleep.sleeps))

    # 3. the delays are exponential backoff with jitter, drawn from `rng`
    ceilings = [0.2, 0.4, 0.8, 1.6, 2.0]
    high, low = _Recorder(), _Recorder()

    def five_failures(sleep: _Recorder, edge: _Edge) -> Any:
        return _bounded(lambda: call_with_retries(FlakyTool(get_weather).inject("error", times=5), "Tokyo",
                                                  attempts=6, base=0.2, cap=2.0, sleep=sleep, rng=edge))

    if report.run(_("it runs with a tool that fails five times"), lambda: [five_failures(high, _Edge(True)),
                                                                     five_failures(low, _Edge(False))],
                  _explain) is None:
        return
    rounded = [round(s, 6) for s in high.sleeps]
    report.check(_("each wait's ceiling doubles from `base` up to `cap`"), rounded == ceilings,
                 _("With base=0.2 and cap=2.0 the ceilings are {ceilings}; when "
                    "`rng.uniform(a, b)` returns `b` your waits were {rounded}. Use `min(cap, "
                    "base * 2 ** (attempt - 1))` for retry number `attempt`.").format(ceilings=ceilings, rounded=rounded))
    report.check(_("the wait is drawn at random below the ceiling (jitter, from `rng`)"),
                 len(low.sleeps) == len(high.sleeps) and low.sleeps != high.sleeps
                 and all(0 <= a < b for a, b in zip(low.sleeps, high.sleeps)),
                 _("Draw each wait with the `rng` argument (`rng.uniform(0, ceiling)`), not a fixed value and not the "
                 "global `random` module: without jitter every client retries at the same instant (lesson 04 §3)."))

    # 4. giving up
    tool = FlakyTool(get_weather).inject("error", times=None)
    sleep = _Recorder()
    try:
        _bounded(lambda: call_with_retries(tool, "Paris", attempts=3, sleep=sleep, rng=random.Random(0)))
        raised: BaseException | None = None
    except BaseException as e:  # noqa: BLE001 - the learner's error is the subject here
        raised = e
    report.check(_("after `attempts` failures the last error is raised"),
                 isinstance(raised, TransientToolError) and tool.calls == 3 and len(sleep.sleeps) == 2,
                 _("A tool that always fails must be called exactly `attempts` (3) times, "
                    "with a sleep between tries but none after the last, and then its error "
                    "re-raised (got {calls} calls, {n_sleeps} sleeps, {value}).").format(calls=tool.calls, n_sleeps=len(sleep.sleeps), value='no error' if raised is None else type(raised).__name__))

    # 5. permanent errors are not retried
    tool = FlakyTool(get_weather)
    sleep = _Recorder()
    try:
        _bounded(lambda: call_with_retries(tool, "Atlantis", sleep=sleep, rng=random.Random(0)))
        raised = None
    except BaseException as e:  # noqa: BLE001
        raised = e
    report.check(_("a permanent error (unknown city) is raised at once, not retried"),
                 isinstance(raised, UnknownCity) and tool.calls == 1 and not sleep.sleeps,
                 _("UnknownCity will fail the same way every time: re-raise it when `not "
                    "is_transient(e)` (got {calls} calls, sleeps {sleeps}).").format(calls=tool.calls, sleeps=sleep.sleeps))

    # 6. a hanging attempt is cut by the timeout
    tool = FlakyTool(get_weather).inject("hang")
    try:
        got = report.run(_("it runs with a tool that hangs once"), lambda: run(tool, "Beijing", timeout=0.2), _explain)
    finally:
        tool.release()
    if got is not None:
        report.check(_("a hanging attempt is cut by the timeout and retried"),
                     got[0] == {"temp": 22, "humidity": 40} and tool.calls == 2,
                     _("The first attempt hangs: stop waiting after `timeout` seconds "
                        "(`call_with_timeout`), then try again (got {value!r} after {calls} "
                        "calls).").format(value=got[0], calls=tool.calls))


def _check_agent(report: CheckReport, build_agent: Callable[[Any, Any], Any]) -> None:
    mock = MockLLM().inject("rate_limit", times=3, retry_after=0.01)
    tool = FlakyTool(get_weather).inject("error", times=2).inject("hang", times=1)
    try:
        agent = report.run(_("build_agent returns an agent"), lambda: build_agent(mock, tool), _explain)
        if agent is not None and not hasattr(agent, "run"):
            report.check(_("build_agent returns an Agent"), False,
                         _("Return `Agent(client, registry)` (lesson 03), not {error_type}.").format(error_type=type(agent).__name__))
            return
        if agent is None:
            return
        result = report.run(_("the agent runs to the end"), lambda: call_with_timeout(agent.run, QUESTION, timeout=30),
                            _explain)
    finally:
        tool.release()
    if result is None:
        return
    if result.stop_reason == "llm_error":
        report.check(_("the agent survives the model's rate limits"), False,
                     _("The model answered 429 three times in a row and the run stopped "
                        "({error}). The openai SDK retries by itself: build the client with "
                        "`mock.client(max_retries=3)` (lesson 04 §10).").format(error=result.error))
        return
    report.check(_("the agent survives the model's rate limits"), True, "")
    tool_errors = [r.content for s in result.steps for r in s.results if not r.ok]
    report.check(_("the tool calls succeed despite two errors and a hang"), not tool_errors and tool.calls >= 4,
                 _("The weather tool failed two times and hung once before it answered: "
                    "register a `get_weather` that calls `call_with_retries(tool, city, unit, "
                    "timeout=0.5)`, with `schema=WEATHER_TOOL` (the model saw: {value}).").format(value=tool_errors[:1] or _('no tool call at all')))
    report.check(_("the agent's answer is right"), result.answer == ANSWER,
                 _("Expected the answer {ANSWER!r}, got {answer!r}.").format(ANSWER=ANSWER, answer=result.answer))
