"""Exercise 06's checks: concurrency counted in waves (no stopwatch), and a hint per typical mistake."""
from __future__ import annotations

import asyncio
import json
import time

import pytest

from course_lib.checks import CheckFailed
from course_lib.checks.parallel_calls import WaveTools, check_parallel_calls, sample_message
from course_lib.orchestration import arun_tool_calls


async def solution(message, functions):
    async def one(call):
        try:
            content = json.dumps(await functions[call.function.name](**json.loads(call.function.arguments)))
        except Exception as e:
            content = json.dumps({"error": str(e)})
        return {"role": "tool", "tool_call_id": call.id, "content": content}
    return list(await asyncio.gather(*(one(c) for c in message.tool_calls)))


async def measure(message, functions):
    started = time.perf_counter()
    await arun_tool_calls(message, functions, parallel=False)
    serial = time.perf_counter() - started
    started = time.perf_counter()
    await solution(message, functions)
    return serial, time.perf_counter() - started


async def one_by_one(message, functions):
    out = []
    for call in message.tool_calls:
        result = await functions[call.function.name](**json.loads(call.function.arguments))
        out.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)})
    return out


async def no_error_handling(message, functions):
    async def one(call):
        result = await functions[call.function.name](**json.loads(call.function.arguments))
        return {"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)}
    return list(await asyncio.gather(*(one(c) for c in message.tool_calls)))


async def reversed_order(message, functions):
    return list(reversed(await solution(message, functions)))  # e.g. collected with as_completed, then reversed


def sync_version(message, functions):
    return []


async def measure_parallel_twice(message, functions):
    started = time.perf_counter()
    await solution(message, functions)
    first = time.perf_counter() - started
    await solution(message, functions)
    return first, time.perf_counter() - started - first


def hints_of(run, meas=measure) -> str:
    with pytest.raises(CheckFailed) as e:
        check_parallel_calls(run, meas)
    return " ".join(r.hint for r in e.value.report.results if not r.passed)


def test_waves_count_concurrency_exactly():
    async def main():
        serial, together = WaveTools(), WaveTools()
        message = sample_message(["Beijing", "Tokyo", "Paris"])
        await arun_tool_calls(message, serial.functions(), parallel=False)
        await arun_tool_calls(message, together.functions(), parallel=True)
        return serial, together
    serial, together = asyncio.run(main())
    assert (serial.waves, serial.max_in_flight) == (3, 1)
    assert (together.waves, together.max_in_flight) == (1, 3)


def test_the_mock_asks_for_four_calls():
    assert len(sample_message().tool_calls) == 4


def test_the_solution_passes():
    assert check_parallel_calls(solution, measure).passed


@pytest.mark.parametrize("attempt, words", [
    (one_by_one, "you awaited them one after another"),
    (no_error_handling, "catch each call's exception"),
    (reversed_order, "in the order of `message.tool_calls`"),
    (sync_version, "must be defined with `async def`"),
])
def test_typical_mistakes_get_their_own_hint(attempt, words):
    assert words in hints_of(attempt)


def test_a_measure_that_never_runs_serially_is_named():
    assert "once one by one" in hints_of(solution, measure_parallel_twice)


def test_contents_out_of_order_follow_from_the_order_failure():
    """Reversed messages fail the order check, and so the contents compared call by call (twice): those ❌ say so."""
    with pytest.raises(CheckFailed) as e:
        check_parallel_calls(reversed_order, measure)
    failed = [r for r in e.value.report.results if not r.passed]
    assert [r.name for r in failed] == ["one tool message per call, in call order",
                                        "each content is the tool's result as JSON text",
                                        "the failing call becomes an error message, the others their results"]
    assert failed[1].follows == failed[2].follows == failed[0].name
    assert failed[2].hint == "this follows from “one tool message per call, in call order” above: fix that one first."
