"""Exercise 04's checks name each typical mistake, and pass the worked solution."""
from __future__ import annotations

import random
import time

import pytest

from course_lib.agent import Agent
from course_lib.checks import CheckFailed
from course_lib.checks import flaky_tool as checks
from course_lib.examples import WEATHER_TOOL
from course_lib.resilience import call_with_timeout, is_transient
from course_lib.tool_registry import ToolRegistry


def solution(fn, *args, attempts=4, base=0.2, cap=2.0, timeout=1.0, sleep=time.sleep, rng=random, **kwargs):
    for attempt in range(1, attempts + 1):
        try:
            return call_with_timeout(fn, *args, timeout=timeout, **kwargs)
        except Exception as e:
            if not is_transient(e) or attempt == attempts:
                raise
            sleep(rng.uniform(0, min(cap, base * 2 ** (attempt - 1))))


def agent_with(call_with_retries, max_retries=3):
    def build(mock, tool):
        registry = ToolRegistry("test", env={})

        def get_weather(city: str, unit: str = "celsius") -> dict:
            return call_with_retries(tool, city, unit, timeout=0.5)

        registry.register(name="get_weather", handler=get_weather, schema=WEATHER_TOOL)
        return Agent(mock.client(max_retries=max_retries), registry)
    return build


def variant(*, jitter=True, doubling=True, retry_all=False, timeout=True, sleep_after_last=False, rng_source=None):
    """The solution with one typical mistake switched on."""
    def call_with_retries(fn, *args, attempts=4, base=0.2, cap=2.0, timeout=1.0, sleep=time.sleep, rng=random,
                          **kwargs):
        source = rng_source or rng
        for attempt in range(1, attempts + 1):
            try:
                if timeout_on:
                    return call_with_timeout(fn, *args, timeout=timeout, **kwargs)
                return fn(*args, **kwargs)
            except Exception as e:
                if (not retry_all and not is_transient(e)) or (attempt == attempts and not sleep_after_last):
                    raise
                ceiling = min(cap, base * (2 ** (attempt - 1) if doubling else attempt))
                sleep(source.uniform(0, ceiling) if jitter else ceiling)
                if attempt == attempts:
                    raise
    timeout_on = timeout
    return call_with_retries


def failing_hints(call_with_retries, build_agent=None) -> str:
    with pytest.raises(CheckFailed) as e:
        checks.check_flaky_tool(call_with_retries, build_agent or agent_with(call_with_retries))
    return " ".join(r.hint for r in e.value.report.results if not r.passed)


def test_the_solution_passes():
    report = checks.check_flaky_tool(solution, agent_with(solution))
    assert report.passed and len(report.results) >= 12


@pytest.mark.parametrize("mistake, words", [
    (dict(jitter=False), "Draw each wait with the `rng` argument"),
    (dict(doubling=False), "min(cap, base * 2 ** (attempt - 1))"),
    (dict(retry_all=True), "UnknownCity will fail the same way every time"),
    (dict(sleep_after_last=True), "none after the last"),
    (dict(rng_source=random.Random(5)), "not the global `random` module"),
])
def test_typical_mistakes_get_their_own_hint(mistake, words):
    assert words in failing_hints(variant(**mistake))


def test_a_missing_timeout_is_named_without_hanging_the_check(monkeypatch):
    monkeypatch.setattr(checks, "BOUND", 0.5)
    assert "Run every attempt through `call_with_timeout" in failing_hints(variant(timeout=False))


def test_a_client_without_retries_is_named():
    assert "mock.client(max_retries=3)" in failing_hints(solution, agent_with(solution, max_retries=0))


def test_an_agent_without_the_retry_layer_is_named():
    def naked(fn, *args, timeout=1.0, **kwargs):
        return call_with_timeout(fn, *args, timeout=timeout, **{k: v for k, v in kwargs.items()
                                                                 if k not in ("sleep", "rng", "attempts", "base", "cap")})
    hints = failing_hints(solution, agent_with(naked))
    assert "failed two times and hung once" in hints


def test_the_stub_fails_with_the_your_code_here_hint():
    def stub(*args, **kwargs):
        raise NotImplementedError("Your turn")
    hints = failing_hints(stub, stub)
    assert "YOUR CODE HERE" in hints
