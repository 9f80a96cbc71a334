"""Checks of exercise 06: run a message's independent tool calls concurrently, and measure it.

The learner writes ``async run_concurrently(message, functions)`` (one ``tool`` message per call,
in call order, errors as messages) and ``async measure(message, functions) -> (serial_s, parallel_s)``.

Concurrency is checked without a clock: the check's tools count *waves*. A call that starts
while no other call is in flight opens a new wave; each call then yields to the event loop a few
times before answering, so calls started together (``asyncio.gather``) share one wave while calls
awaited one after another make one wave each. Waves × latency is the wall time, so
``calls / waves`` is the speed-up, exactly and on any machine (real timings are what
``measure`` prints, and what ``benchmarks/orchestration.py`` records).
"""
from __future__ import annotations

import asyncio
import inspect
import json
from typing import Any, Callable

from openai.types.chat import ChatCompletionMessage

from ..examples import get_weather
from ..hints import Hints
from ..mock_llm import MockLLM
from ..resilience import ToolTimeout, call_with_timeout
from . import CheckReport, calm_check, json_or_none
from ..i18n import N_, _

QUESTION = "What's the weather in Beijing, Shanghai, Tokyo and Paris?"
BOUND = 10.0  # seconds

HINTS = Hints("06_parallel_calls", [
    N_("Lesson 06 §3-4: start *all* the calls, then wait for all of them. `asyncio.gather(*coroutines)` does "
    "both, and returns the results in the order you passed the coroutines."),
    N_("Write a small `async def one(call)` that decodes `json.loads(call.function.arguments)`, awaits "
    "`functions[call.function.name](**args)` and returns the tool message; then "
    "`return list(await asyncio.gather(*(one(c) for c in message.tool_calls)))`."),
    N_("Put a `try/except Exception as e` inside `one`, so a failing tool gives "
    "`{\"role\": \"tool\", \"tool_call_id\": call.id, \"content\": json.dumps({\"error\": str(e)})}` instead of "
    "an exception. For `measure`: `time.perf_counter()` before and after `await arun_tool_calls(message, "
    "functions, parallel=False)`, and again around `await run_concurrently(message, functions)`."),
], solution_section="Your code: run_concurrently and measure")


class WaveTools:
    """Async weather tools that count how many calls were in flight together (see the module doc)."""

    def __init__(self, fail: set[str] = frozenset()) -> None:
        self.fail = set(fail)
        self.in_flight = self.waves = self.calls = self.max_in_flight = 0

    async def get_weather(self, city: str) -> dict:
        if self.in_flight == 0:
            self.waves += 1
        self.in_flight += 1
        self.calls += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            for _ in range(5):  # give the other started calls their turn, as a network wait would
                await asyncio.sleep(0)
            if city in self.fail:
                raise ConnectionError(f"the weather service for {city} is down")
            return get_weather(city)
        finally:
            self.in_flight -= 1

    def functions(self) -> dict[str, Callable[..., Any]]:
        return {"get_weather": self.get_weather}


def sample_message(cities: list[str] | None = None) -> ChatCompletionMessage:
    """The assistant message with one ``get_weather`` call per city (from the mock, or built for ``cities``)."""
    if cities is None:
        from ..examples import WEATHER_TOOL

        client = MockLLM().client(max_retries=0)
        return client.chat.completions.create(model="mock-llm", messages=[{"role": "user", "content": QUESTION}],
                                              tools=[WEATHER_TOOL]).choices[0].message
    return ChatCompletionMessage.model_validate({"role": "assistant", "content": None, "tool_calls": [
        {"id": f"call_{i}{c[:3].lower()}", "type": "function",
         "function": {"name": "get_weather", "arguments": json.dumps({"city": c})}} for i, c in enumerate(cities)]})


def _run(coroutine_function: Callable[..., Any], *args: Any) -> Any:
    """Run the learner's coroutine function to the end in a fresh loop, in a thread, with a bound."""
    if not inspect.iscoroutinefunction(coroutine_function):
        raise TypeError(_("{name} must be defined with `async def`").format(name=coroutine_function.__name__))
    return call_with_timeout(lambda: asyncio.run(coroutine_function(*args)), timeout=BOUND,
                             name=coroutine_function.__name__)


def _explain(e: BaseException) -> str:
    if isinstance(e, NotImplementedError):
        return _("Write your code where the exercise says `# YOUR CODE HERE` (and remove the `raise`).")
    if isinstance(e, ToolTimeout):
        return _("Your function did not finish within {BOUND:g} s: does every call get "
                  "awaited exactly once?").format(BOUND=BOUND)
    if isinstance(e, TypeError) and "async def" in str(e):
        return _("{error}: the check awaits it.").format(error=e)
    if isinstance(e, AttributeError) and "get" in str(e):
        return (_("`message` is the SDK's message object: use `message.tool_calls`, "
                   "`call.id`, `call.function.name` and `call.function.arguments` ({e}).").format(e=e))
    return _("Your function raised {error_type}: {e}").format(error_type=type(e).__name__, e=e)


@calm_check
def check_parallel_calls(run_concurrently: Callable[..., Any], measure: Callable[..., Any]) -> CheckReport:
    """Check exercise 06; raises :class:`~course_lib.checks.CheckFailed` with hints."""
    report = CheckReport(_("Exercise 06 · parallel tool calls"), more_help=HINTS.pointer())
    message = sample_message()
    calls = message.tool_calls or []
    tools = WaveTools()
    replies = report.run(_("run_concurrently runs"), lambda: _run(run_concurrently, message, tools.functions()),
                         _explain)
    if replies is None:
        return report.finish()
    replies = [dict(r) if isinstance(r, dict) else r for r in (replies or [])]
    ids = [r.get("tool_call_id") if isinstance(r, dict) else None for r in replies]
    in_order = _("one tool message per call, in call order")
    report.check(in_order, ids == [c.id for c in calls],
                 _("Return a list with one `{{\"role\": \"tool\", \"tool_call_id\": call.id, "
                    "...}}` per call, in the order of `message.tool_calls` (`asyncio.gather` "
                    "keeps that order). Expected ids {value}, got {ids}.").format(value=[c.id for c in calls], ids=ids))
    expected = [get_weather(**json.loads(c.function.arguments)) for c in calls]
    contents = [json_or_none(r.get("content")) if isinstance(r, dict) else None for r in replies]
    report.check(_("each content is the tool's result as JSON text"),
                 contents == expected and all(isinstance(r, dict) and r.get("role") == "tool" for r in replies),
                 _("Each message is `{\"role\": \"tool\", \"tool_call_id\": ..., \"content\": json.dumps(result)}`, "
                 "with `result = await functions[call.function.name](**json.loads(call.function.arguments))`."),
                 needs=(in_order,))   # contents are compared call by call: a missing or misordered message fails both
    waves = tools.waves
    report.check(_("the {n_calls} calls run concurrently (one wave: {n_calls}x faster than one by one)").format(n_calls=len(calls)),
                 tools.calls == len(calls) and waves == 1,
                 _("Your calls ran in {waves} waves (at most {max_in_flight} at a time): you "
                    "awaited them one after another. Create all the coroutines first, then "
                    "`await asyncio.gather(*coroutines)`.").format(waves=waves, max_in_flight=tools.max_in_flight))

    failing = WaveTools(fail={"Tokyo"})
    bad = sample_message(["Beijing", "Tokyo", "Paris"])
    got = report.run(_("a failing call does not stop the others"),
                     lambda: _run(run_concurrently, bad, failing.functions()),
                     lambda e: _("One tool raised ConnectionError and your function raised "
                                  "too: catch each call's exception and turn it into an error "
                                  "message (`json.dumps({{\"error\": str(e)}})`), so the other "
                                  "results still arrive ({e}).").format(e=e))
    if got is not None:
        contents = [json_or_none(r.get("content")) if isinstance(r, dict) else None for r in got]
        report.check(_("the failing call becomes an error message, the others their results"),
                     len(contents) == 3 and isinstance(contents[1], dict) and "error" in contents[1]
                     and contents[0] == get_weather("Beijing") and contents[2] == get_weather("Paris"),
                     _("For the call that raised, send `{{\"error\": \"...\"}}` as its content; "
                        "the two other calls must carry their results (got {contents}).").format(contents=contents),
                     needs=(in_order,))

    timing = WaveTools()
    measured = report.run(_("measure runs"), lambda: _run(measure, message, timing.functions()), _explain)
    if measured is not None:
        ok_shape = (isinstance(measured, tuple) and len(measured) == 2
                    and all(isinstance(x, (int, float)) and x >= 0 for x in measured))
        report.check(_("measure returns (serial seconds, parallel seconds)"), ok_shape,
                     _("Return a pair of numbers: `return serial_seconds, parallel_seconds` "
                        "(got {measured!r}).").format(measured=measured))
        report.check(_("measure times one serial run and one concurrent run"),
                     timing.calls == 2 * len(calls) and timing.waves == len(calls) + 1,
                     _("Run the calls twice: once one by one (`arun_tool_calls(message, "
                        "functions, parallel=False)`, {n_calls} waves) and once with your "
                        "`run_concurrently` (1 wave); your measure made {calls} calls in "
                        "{waves} waves.").format(n_calls=len(calls), calls=timing.calls, waves=timing.waves))
    return report.finish()
