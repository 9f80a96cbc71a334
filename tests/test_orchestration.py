"""Lesson 06: serial, parallel, conditional calls and the dependency graph.

Concurrency is proved with events (every call must have started before any may finish),
never with timings: speed-ups are measured in ``benchmarks/orchestration.py``.
"""
from __future__ import annotations

import asyncio
import doctest
import json

import pytest

from course_lib import orchestration as orch
from course_lib.examples import make_trip_tools
from course_lib.mock_llm import MockLLM
from course_lib.orchestration import TaskGraph, arun_tool_calls, run_parallel, run_serial
from course_lib.resilience import FakeClock
from course_lib.tool_registry import ToolRegistry
from course_lib.tracing import Trace

BOUND = 5.0  # seconds: generous upper bound of any wait in these tests


def test_doctests():
    assert doctest.testmod(orch).failed == 0


class Barrier:
    """``n`` calls must all be running before any returns (deadlocks, i.e. times out, if run serially)."""

    def __init__(self, n: int) -> None:
        self.n, self.started, self.all_in = n, [], asyncio.Event()

    async def tool(self, city: str) -> str:
        self.started.append(city)
        if len(self.started) == self.n:
            self.all_in.set()
        await asyncio.wait_for(self.all_in.wait(), BOUND)
        return f"weather of {city}"


def test_parallel_calls_really_overlap():
    async def main():
        barrier = Barrier(3)
        calls = [(c, barrier.tool, {"city": c}) for c in ("Beijing", "Shanghai", "Tokyo")]
        return await run_parallel(calls)
    assert asyncio.run(main()) == ["weather of Beijing", "weather of Shanghai", "weather of Tokyo"]


def test_serial_calls_cannot_overlap():
    async def main():
        barrier = Barrier(2)
        await run_serial([(c, barrier.tool, {"city": c}) for c in ("Beijing", "Shanghai")])
    with pytest.raises(asyncio.TimeoutError):
        asyncio.run(asyncio.wait_for(main(), 0.2))


def test_serial_output_feeds_the_next_call_and_spans_do_not_overlap():
    tools = make_trip_tools(scale=0)

    async def main():
        trace = Trace("serial")
        flights = await run_serial([("flights", tools["search_flights"], {"origin": "Shanghai",
                                                                           "destination": "Tokyo"})], trace=trace)
        cheapest = flights[0][0]["price_cny"]
        rate = (await run_serial([("rate", tools["get_exchange_rate"], {"base": "CNY", "quote": "JPY"})],
                                 trace=trace))[0]["rate"]
        budget = await run_serial([("budget", tools["estimate_budget"],
                                    {"flight_price_cny": cheapest, "nights": 3, "rate": rate})], trace=trace)
        return budget[0], trace
    budget, trace = asyncio.run(main())
    assert budget == {"total_cny": 3650, "total_local": 76650}
    spans = [e for e in trace.events if e.end is not None]
    assert all(a.end <= b.start for a, b in zip(spans, spans[1:]))


def _assistant_with_calls(*cities: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"call_{i}", "type": "function", "function": {"name": "get_weather",
                                                             "arguments": json.dumps({"city": c})}}
        for i, c in enumerate(cities)]}


def test_tool_messages_keep_call_order_even_when_calls_finish_in_reverse():
    reverse = ["Tokyo", "Shanghai", "Beijing"]
    release = {c: asyncio.Event() for c in reverse}
    finished = []

    async def get_weather(city: str) -> dict:
        await asyncio.wait_for(release[city].wait(), BOUND)
        finished.append(city)
        if city != reverse[-1]:  # each call lets the one before it (in call order) finish next
            release[reverse[reverse.index(city) + 1]].set()
        return {"city": city}

    async def main():
        release["Tokyo"].set()
        return await arun_tool_calls(_assistant_with_calls("Beijing", "Shanghai", "Tokyo"),
                                    {"get_weather": get_weather})
    messages = asyncio.run(main())
    assert finished == reverse
    assert [m["tool_call_id"] for m in messages] == ["call_0", "call_1", "call_2"]
    assert [json.loads(m["content"])["city"] for m in messages] == ["Beijing", "Shanghai", "Tokyo"]


def test_run_tool_calls_through_a_registry_reports_errors_as_messages():
    registry = ToolRegistry("trip", env={})
    for fn in make_trip_tools(scale=0).values():
        registry.register(handler=fn, toolset="trip")
    message = _assistant_with_calls("Tokyo", "Atlantis")
    trace = Trace("registry")
    replies = asyncio.run(arun_tool_calls(message, registry, trace=trace))
    assert json.loads(replies[0]["content"]) == {"temp": 24, "humidity": 70}
    assert json.loads(replies[1]["content"])["kind"] == "handler_error"
    assert [e.src for e in trace.events] == ["call 1", "call 2"]
    assert [e.label for e in trace.events] == ["get_weather(Tokyo)", "get_weather(Atlantis)"]


def test_the_mock_asks_for_parallel_calls_and_the_async_agent_runs_them_together():
    from course_lib.agent import Agent

    registry = ToolRegistry("trip", env={})
    barrier = Barrier(3)

    async def get_weather(city: str) -> dict:
        """Get the current weather (temperature, humidity) for a city."""
        await barrier.tool(city)
        return {"temp": 20, "humidity": 50}

    registry.register(handler=get_weather, toolset="trip")
    result = asyncio.run(Agent(MockLLM().client(), registry).arun("What's the weather in Beijing, Shanghai and Tokyo?"))
    assert result.stop_reason == "answer"
    assert sorted(barrier.started) == ["Beijing", "Shanghai", "Tokyo"]


# ---------------------------------------------------------------- the dependency graph
def _trip_graph(tools) -> TaskGraph:
    g = TaskGraph("trip")
    g.add("weather", tools["get_weather"], {"city": "Tokyo"})
    g.add("rate", tools["get_exchange_rate"], {"base": "CNY", "quote": "JPY"})
    g.add("flights", tools["search_flights"], {"origin": "Shanghai", "destination": "Tokyo"})
    g.add("indoor", tools["find_activities"], {"city": "Tokyo", "kind": "indoor"}, after=["weather"],
          when=lambda r: r["weather"]["humidity"] >= 70)
    g.add("outdoor", tools["find_activities"], {"city": "Tokyo", "kind": "outdoor"}, after=["weather"],
          when=lambda r: r["weather"]["humidity"] < 70)
    g.add("budget", tools["estimate_budget"],
          lambda r: {"flight_price_cny": r["flights"][0]["price_cny"], "nights": 4, "rate": r["rate"]["rate"]},
          after=["flights", "rate"])
    return g


def test_graph_levels_conditions_and_results():
    g = _trip_graph(make_trip_tools(scale=0))
    assert g.levels() == [["weather", "rate", "flights"], ["indoor", "outdoor", "budget"]]
    run = asyncio.run(g.run())
    assert run.skipped == {"outdoor": "condition false"}
    assert run.results["indoor"] == ["teamLab Planets", "Tokyo National Museum"]
    assert run.results["budget"] == {"total_cny": 4250, "total_local": 89250}
    assert set(run.order) == {"weather", "rate", "flights", "indoor", "budget"}
    spans = {e.src: e for e in run.trace.events if e.end is not None}
    for node in g.nodes.values():
        for dep in node.after:
            if node.name in spans:
                assert spans[dep].end <= spans[node.name].start


def test_independent_nodes_of_a_level_run_together():
    barrier = Barrier(3)
    g = TaskGraph("barrier")
    for city in ("Beijing", "Shanghai", "Tokyo"):
        g.add(city, barrier.tool, {"city": city})
    run = asyncio.run(g.run())
    assert run.results == {c: f"weather of {c}" for c in ("Beijing", "Shanghai", "Tokyo")}


def test_a_failure_skips_what_depends_on_it_but_not_the_rest():
    tools = make_trip_tools(scale=0)
    g = TaskGraph("failing")
    g.add("rate", tools["get_exchange_rate"], {"base": "CNY", "quote": "XXX"})
    g.add("flights", tools["search_flights"], {"origin": "Shanghai", "destination": "Paris"})
    g.add("budget", tools["estimate_budget"], lambda r: {"flight_price_cny": 1, "nights": 1, "rate": 1},
          after=["flights", "rate"])
    run = asyncio.run(g.run())
    assert isinstance(run.failed["rate"], LookupError)
    assert run.skipped == {"budget": "needs rate"}
    assert run.results["flights"][0]["flight"] == "AF117"
    assert "failed:  rate (LookupError" in run.text()


def test_graph_refuses_duplicates_and_unknown_dependencies():
    g = TaskGraph()
    g.add("a", print)
    with pytest.raises(ValueError, match="already has"):
        g.add("a", print)
    with pytest.raises(ValueError, match="not in the graph yet"):
        g.add("b", print, after=["c"])


def test_graph_diagram_has_a_text_fallback():
    fig = _trip_graph(make_trip_tools(scale=0)).diagram()
    assert fig.fallback_text.splitlines() == [
        "level 1: weather, rate, flights",
        "level 2: indoor (after weather) [if ...], outdoor (after weather) [if ...], budget (after flights, rate)"]



def test_graph_texts_speak_chinese_in_the_chinese_edition(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    run = asyncio.run(_trip_graph(make_trip_tools(scale=0)).run())
    assert run.skipped == {"outdoor": "条件不成立"}
    assert run.text().splitlines() == ["已运行：weather, rate, flights, indoor, budget", "已跳过：outdoor（条件不成立）"]
    assert [e.label for e in run.trace.events if e.src == "outdoor"] == ["outdoor：已跳过（条件不成立）"]
    tools = make_trip_tools(scale=0)
    g = TaskGraph("failing")
    g.add("rate", tools["get_exchange_rate"], {"base": "CNY", "quote": "XXX"})
    g.add("budget", tools["estimate_budget"], lambda r: {"flight_price_cny": 1, "nights": 1, "rate": 1},
          after=["rate"])
    failed = asyncio.run(g.run())
    assert failed.text().splitlines()[1:] == ["已跳过：budget（缺少 rate 的结果）",
                                              "已失败：rate（LookupError: no rate for CNY->XXX; known: CNY->JPY, "
                                              "CNY->EUR, CNY->USD, CNY->GBP, EUR->CNY, USD->CNY）"]
    assert _trip_graph(tools).diagram().fallback_text.splitlines() == [
        "第 1 层：weather, rate, flights",
        "第 2 层：indoor（在 weather 之后） [仅当 ...], outdoor（在 weather 之后） [仅当 ...], "
        "budget（在 flights, rate 之后）"]


# ---------------------------------------------------------------- measuring
def test_speedup_and_wall_time_from_traces():
    clock = FakeClock()
    serial, parallel = Trace("s", clock=clock.now), Trace("p", clock=clock.now)
    for lane in ("a", "b", "c"):
        with serial.span(lane, lane):
            clock.advance(0.3)
    clock.t = 0.0
    spans = [parallel.span(lane, lane) for lane in ("a", "b", "c")]
    for s in spans:
        s.__enter__()
    clock.advance(0.3)
    for s in spans:
        s.__exit__(None, None, None)
    assert orch.wall_time(serial) == pytest.approx(0.9)
    assert orch.wall_time(parallel) == pytest.approx(0.3)
    assert orch.busy_time(parallel) == pytest.approx(0.9)
    assert orch.speedup(serial, parallel) == pytest.approx(3.0)
