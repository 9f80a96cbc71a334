"""The fault-tolerance layers of lesson 04, each deterministic: fake clocks, seeded RNGs, no real sleeping."""
from __future__ import annotations

import asyncio
import doctest
import json
import random
import threading

import openai
import pytest

from course_lib import resilience as rz
from course_lib.examples import (BING_SEARCH_TOOL, WEB_SEARCH_TOOL, WEATHER_TOOL, OrderService, UnknownCity,
                                 bing_search, get_weather, web_search)
from course_lib.function_calling import tool_loop
from course_lib.mock_llm import MockLLM
from course_lib.resilience import (Backoff, CircuitBreaker, CircuitOpen, FakeClock, Fallback, FlakyTool,
                                   IdempotencyStore, RetriesExhausted, ToolTimeout, ServiceUnavailable,
                                   TransientToolError)
from course_lib.tracing import Trace


def test_doctests():
    assert doctest.testmod(rz).failed == 0


# ---------------------------------------------------------------- classification
@pytest.mark.parametrize("exc, transient", [
    (TransientToolError("blip"), True),
    (ConnectionError("reset"), True),
    (TimeoutError(), True),
    (ToolTimeout("t", 1), True),
    (ServiceUnavailable("down"), False),
    (CircuitOpen("open"), False),
    (ValueError("bad city"), False),
    (UnknownCity("Atlantis"), False),
    (PermissionError("no"), False),
])
def test_is_transient(exc, transient):
    assert rz.is_transient(exc) is transient


def _api_error(mock_fault: str, **params):
    mock = MockLLM().inject(mock_fault, **params)
    with pytest.raises(openai.APIStatusError) as e:
        mock.client(max_retries=0).chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
    return e.value


def test_openai_errors_from_the_mock_are_classified_with_their_retry_after():
    rate = _api_error("rate_limit", retry_after=2)
    assert isinstance(rate, openai.RateLimitError) and rz.is_transient(rate)
    assert rz.retry_after_seconds(rate) == 2.0
    server = _api_error("server_error")
    assert rz.is_transient(server) and rz.retry_after_seconds(server) is None
    bad = openai.BadRequestError("bad", response=_httpx_response(400), body=None)
    assert not rz.is_transient(bad)


def _httpx_response(status: int, headers: dict | None = None):
    import httpx2
    return httpx2.Response(status, headers=headers or {}, request=httpx2.Request("POST", "http://x/v1"))


def test_retry_after_ms_wins_over_seconds():
    e = openai.RateLimitError("slow down", response=_httpx_response(429, {"retry-after-ms": "250", "retry-after": "9"}),
                              body=None)
    assert rz.retry_after_seconds(e) == 0.25


# ---------------------------------------------------------------- backoff
def test_backoff_ceilings_double_and_cap():
    b = Backoff(base=0.5, factor=2, max_delay=4, max_attempts=7, jitter="none")
    assert b.schedule(random.Random(0)) == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]


@pytest.mark.parametrize("jitter, low", [("full", 0.0), ("equal", 0.5)])
def test_jittered_delays_stay_under_the_ceiling_and_differ(jitter, low):
    b = Backoff(base=1, max_delay=8, max_attempts=6, jitter=jitter)
    schedules = [b.schedule(random.Random(seed)) for seed in range(20)]
    for delays in schedules:
        for n, d in enumerate(delays, start=1):
            assert low * b.ceiling(n) <= d <= b.ceiling(n)
    assert len({tuple(s) for s in schedules}) == 20  # jitter: clients do not retry in lockstep


def test_same_seed_same_delays():
    b = Backoff(jitter="full")
    assert b.schedule(random.Random(3)) == b.schedule(random.Random(3))


def test_backoff_rejects_nonsense():
    with pytest.raises(ValueError, match="jitter"):
        Backoff(jitter="random")
    with pytest.raises(ValueError, match="at least 1"):
        Backoff(max_attempts=0)


# ---------------------------------------------------------------- hand-built retry loop
def test_retry_call_retries_transient_errors_then_succeeds():
    clock = FakeClock()
    tool = FlakyTool(get_weather).inject("error", times=3)
    attempts: list = []
    result = rz.retry_call(tool, "Shanghai", backoff=Backoff(base=1, max_attempts=5, jitter="none"), clock=clock,
                           attempts=attempts)
    assert result == {"temp": 28, "humidity": 65}
    assert tool.calls == 4
    assert clock.sleeps == [1.0, 2.0, 4.0]
    assert [a.start for a in attempts] == [0.0, 1.0, 3.0, 7.0]
    assert [a.error is None for a in attempts] == [False, False, False, True]


def test_retry_call_gives_up_after_max_attempts_with_the_cause():
    clock = FakeClock()
    tool = FlakyTool(get_weather).inject("error", times=None)
    with pytest.raises(RetriesExhausted) as e:
        rz.retry_call(tool, "Shanghai", backoff=Backoff(max_attempts=4), clock=clock, rng=random.Random(1))
    assert tool.calls == 4 and len(clock.sleeps) == 3
    assert len(e.value.attempts) == 4
    assert isinstance(e.value.__cause__, TransientToolError)


def test_retry_call_does_not_retry_permanent_errors():
    clock = FakeClock()
    calls = []

    def lookup(city):
        calls.append(city)
        return get_weather(city)

    with pytest.raises(UnknownCity):
        rz.retry_call(lookup, "Atlantis", clock=clock)
    assert calls == ["Atlantis"] and clock.sleeps == []


def test_retry_after_is_a_floor_and_too_long_means_give_up():
    clock = FakeClock()
    tool = FlakyTool(get_weather).inject("error", retry_after=5)
    rz.retry_call(tool, "Paris", backoff=Backoff(base=0.1, jitter="none"), clock=clock)
    assert clock.sleeps == [5.0]
    tool = FlakyTool(get_weather).inject("error", retry_after=600)
    with pytest.raises(RetriesExhausted):
        rz.retry_call(tool, "Paris", backoff=Backoff(max_retry_after=60), clock=FakeClock())
    assert tool.calls == 1


def test_retry_call_records_spans_and_waits_in_a_trace():
    clock = FakeClock()
    trace = Trace("retry", clock=clock.now)
    rz.retry_call(FlakyTool(get_weather, name="get_weather").inject("error"), "Tokyo",
                  backoff=Backoff(base=2, jitter="none"), clock=clock, trace=trace)
    assert [(e.src, e.label) for e in trace.events] == [("get_weather try 1", "attempt 1 ✗ TransientToolError"),
                                                        ("get_weather try 1", "wait 2.00 s"),
                                                        ("get_weather try 2", "attempt 2")]
    assert trace.events[2].start == 2.0


def test_the_retry_and_fallback_labels_speak_chinese_in_the_chinese_edition(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    clock = FakeClock()
    trace = Trace("retry", clock=clock.now)
    rz.retry_call(FlakyTool(get_weather, name="get_weather").inject("error"), "Tokyo",
                  backoff=Backoff(base=2, jitter="none"), clock=clock, trace=trace)
    primary = FlakyTool(web_search, name="web_search").inject("down", times=None)
    Fallback(("web_search", primary), ("bing_search", bing_search), trace=trace)(query="jitter backoff")
    assert [(e.src, e.label) for e in trace.events] == [
        ("get_weather try 1", "第 1 次尝试 ✗ TransientToolError"), ("get_weather try 1", "等待 2.00 秒"),
        ("get_weather try 2", "第 2 次尝试"), ("web_search", "web_search(...) ✗ ConnectionError"),
        ("web_search", "降级回退到 bing_search"), ("bing_search", "bing_search(...)")]
    assert trace.timeline_text().splitlines()[4].endswith("于 2000.0 ms")  # a message: its moment


def test_with_retry_keeps_the_signature_and_logs_each_call():
    import inspect

    wrapped = rz.with_retry(FlakyTool(get_weather).inject("error"), clock=FakeClock(), rng=random.Random(0))
    assert wrapped("Beijing") == {"temp": 22, "humidity": 40}
    assert wrapped.__name__ == "get_weather"
    assert list(inspect.signature(wrapped).parameters) == ["city", "unit"]
    assert [len(a) for a in wrapped.attempts] == [2]


def test_async_retry_uses_the_async_clock():
    clock = FakeClock()
    state = {"n": 0}

    async def fetch(city):
        state["n"] += 1
        if state["n"] < 3:
            raise ConnectionError("reset")
        return get_weather(city)

    wrapped = rz.with_retry(fetch, backoff=Backoff(base=0.5, jitter="none"), clock=clock)
    assert asyncio.run(wrapped("Berlin")) == {"temp": 16, "humidity": 60}
    assert clock.sleeps == [0.5, 1.0]


# ---------------------------------------------------------------- tenacity
def test_tenacity_makes_the_same_delays_as_the_hand_built_loop_for_the_same_seed():
    backoff = Backoff(base=0.5, max_delay=8, max_attempts=6)
    hand, lib = FakeClock(), FakeClock()
    rz.retry_call(FlakyTool(get_weather).inject("error", times=5), "Paris", backoff=backoff, clock=hand,
                  rng=random.Random(42))
    random.seed(42)
    retrying = rz.tenacity_retrying(backoff, clock=lib)
    assert retrying(FlakyTool(get_weather).inject("error", times=5), "Paris") == {"temp": 18, "humidity": 72}
    assert lib.sleeps == pytest.approx(hand.sleeps) and len(lib.sleeps) == 5


def test_tenacity_honours_retry_after_and_reraises_the_last_error():
    clock = FakeClock()
    retrying = rz.tenacity_retrying(Backoff(base=0.1, max_attempts=3, jitter="none"), clock=clock)
    tool = FlakyTool(get_weather).inject("error", times=None, retry_after=3)
    with pytest.raises(TransientToolError):
        retrying(tool, "Paris")
    assert clock.sleeps == [3.0, 3.0] and tool.calls == 3


def test_tenacity_does_not_retry_permanent_errors():
    clock = FakeClock()
    with pytest.raises(UnknownCity):
        rz.tenacity_retrying(clock=clock)(get_weather, "Atlantis")
    assert clock.sleeps == []


# ---------------------------------------------------------------- thundering herd
def test_jitter_beats_the_thundering_herd():
    none = rz.simulate_herd(100, Backoff(base=0.5, max_delay=8, max_attempts=12, jitter="none"), seed=1)
    full = rz.simulate_herd(100, Backoff(base=0.5, max_delay=8, max_attempts=12, jitter="full"), seed=1)
    # Without jitter each round of retries arrives in one bucket: 90, 80, ... at once.
    assert none.retry_peak() == 90
    assert full.retry_peak() < 40
    assert full.done < none.done / 5
    assert full.rejected < none.rejected
    assert none.gave_up == full.gave_up == 0
    assert sum(ok for *_, ok in none.attempts) == sum(ok for *_, ok in full.attempts) == 100


def test_simulation_is_reproducible_and_reports_giving_up():
    a = rz.simulate_herd(50, Backoff(max_attempts=2, jitter="none"), capacity=5)
    b = rz.simulate_herd(50, Backoff(max_attempts=2, jitter="none"), capacity=5)
    assert a.attempts == b.attempts
    assert a.gave_up == 40 and a.done == float("inf") and "gave up" in a.summary()


def test_draw_herd_shows_every_run_whole_in_seconds():
    # Lesson 04's figure: the run without jitter ends at 47.5 s, so its axis must reach it (it stopped at 12 s).
    herd = [rz.simulate_herd(100, Backoff(base=0.5, max_delay=8, max_attempts=12, jitter=j)) for j in ("none", "full")]
    fig = rz.draw_herd(herd)
    axes = [ax for ax in fig.axes if ax.get_ylabel()]
    assert [round(h.done, 1) for h in herd] == [47.5, 2.3]
    assert [ax.get_xlim()[1] for ax in axes] == [50.0, 50.0]            # same scale, the slower run whole
    assert [ax.get_ylabel() for ax in axes] == ["requests per 0.1 s"] * 2  # a count per bucket, not a rate
    assert axes[-1].get_xlabel() == "time after the outage ends (s)"
    assert all(ax.xaxis.get_tick_params()["labelbottom"] is not False for ax in axes)
    served = [[t.get_text() for t in ax.texts] for ax in axes]
    assert served == [["all served at 47.5 s"], ["all served at 2.3 s"]]
    assert [ax.lines[-1].get_xdata()[0] for ax in axes] == [herd[0].done, herd[1].done]
    from course_lib.figure_standard import audit
    assert audit(fig) == []
    assert rz.draw_herd(herd, until=12).axes[0].get_xlim()[1] == 12   # an explicit end is kept


def test_draw_herd_has_a_text_fallback():
    fig = rz.draw_herd([rz.simulate_herd(20, Backoff(jitter=j)) for j in ("none", "full")])
    assert "jitter=none" in fig.fallback_text and "jitter=full" in fig.fallback_text
    assert fig._repr_png_().startswith(b"\x89PNG")


# ---------------------------------------------------------------- fallback and degradation
def test_fallback_switches_to_the_backup_and_shows_it_in_the_trace():
    trace = Trace("fallback", clock=FakeClock().now)
    primary = FlakyTool(web_search, name="web_search").inject("down", times=None)
    search = Fallback(("web_search", primary), ("bing_search", bing_search), trace=trace)
    results = search(query="jitter backoff")
    assert results[0]["engine"] == "bing_search" and search.last_used == "bing_search"
    assert search.log[0][0] == "web_search" and "ConnectionError" in search.log[0][1]
    assert [e.label for e in trace.events] == ["web_search(...) ✗ ConnectionError", "fall back to bing_search",
                                               "bing_search(...)"]


def test_fallback_uses_the_primary_when_it_works_and_reports_when_all_fail():
    search = Fallback(web_search, bing_search)
    assert search(query="Agent2Agent")[0]["engine"] == "web_search"
    broken = Fallback(FlakyTool(web_search).inject("down", None), FlakyTool(bing_search).inject("down", None))
    with pytest.raises(ServiceUnavailable, match="web_search.*bing_search"):
        broken(query="x")


def test_degrade_turns_failures_into_a_report_the_model_reads():
    tool = rz.degrade(FlakyTool(web_search).inject("down"), name="web_search", alternatives=["bing_search"])
    report = tool(query="MCP")
    assert report["status"] == "unavailable" and report["tool"] == "web_search"
    assert report["alternatives"] == ["bing_search"] and report["retryable"] is False
    assert report["error"].startswith("the tool web_search is unavailable now (ConnectionError")
    assert tool(query="MCP")[0]["engine"] == "web_search"  # healthy again: a normal result


def test_mock_model_picks_the_backup_after_an_unavailable_report():
    mock = MockLLM()
    tools = {"web_search": rz.degrade(FlakyTool(web_search).inject("down", None), name="web_search"),
             "bing_search": bing_search}
    messages = [{"role": "user", "content": "Search the web for exponential backoff and jitter"}]
    answer = tool_loop(mock.client(max_retries=0), messages, [WEB_SEARCH_TOOL, BING_SEARCH_TOOL], tools)
    called = [c["function"]["name"] for m in messages if m["role"] == "assistant" for c in m.get("tool_calls") or []]
    assert called == ["web_search", "bing_search"]
    assert "Exponential backoff and jitter" in answer


def test_mock_model_explains_when_no_alternative_exists():
    mock = MockLLM()
    tools = {"web_search": rz.degrade(FlakyTool(web_search).inject("down", None), name="web_search")}
    messages = [{"role": "user", "content": "Search the web for exponential backoff and jitter"}]
    answer = tool_loop(mock.client(max_retries=0), messages, [WEB_SEARCH_TOOL], tools)
    assert "unavailable" in answer and "web_search" in answer


# ---------------------------------------------------------------- idempotency
def _order_with_retries(shop: OrderService, key: str | None):
    return rz.retry_call(shop.create_order, "mug", 2, idempotency_key=key, clock=FakeClock(),
                         backoff=Backoff(jitter="none"))


def test_a_lost_response_plus_a_blind_retry_charges_twice():
    shop = OrderService().lose_responses(1)
    order = _order_with_retries(shop, key=None)
    assert [c["amount"] for c in shop.charges] == [70.0, 70.0]
    assert order["order_id"] == "ord-0002"


def test_an_idempotency_key_makes_the_retry_safe():
    shop = OrderService().lose_responses(1)
    key = rz.idempotency_key("conversation-1", "call_abc")
    order = _order_with_retries(shop, key=key)
    assert [c["amount"] for c in shop.charges] == [70.0]
    assert order["order_id"] == "ord-0001" and shop.keys.replays == 1
    # a different call (a second real order) gets a different key and is charged
    shop.create_order("mug", 2, idempotency_key=rz.idempotency_key("conversation-1", "call_xyz"))
    assert len(shop.charges) == 2


def test_idempotency_keys_are_stable_and_distinct():
    assert rz.idempotency_key("c", "call_1") == rz.idempotency_key("c", "call_1")
    assert rz.idempotency_key("c", "call_1") != rz.idempotency_key("c", "call_2")


def test_idempotency_store_runs_concurrent_duplicates_once():
    store = IdempotencyStore()
    started, release = threading.Event(), threading.Event()
    runs = []

    def slow_charge():
        runs.append(1)
        started.set()
        assert release.wait(5)
        return {"order_id": "ord-1"}

    results = []
    first = threading.Thread(target=lambda: results.append(store.run("k", slow_charge)))
    first.start()
    assert started.wait(5)
    second = threading.Thread(target=lambda: results.append(store.run("k", slow_charge)))
    second.start()
    release.set()
    first.join(5)
    second.join(5)
    assert runs == [1] and results == [{"order_id": "ord-1"}] * 2 and store.replays == 1


def test_failed_actions_are_not_remembered():
    store = IdempotencyStore()
    with pytest.raises(RuntimeError):
        store.run("k", lambda: (_ for _ in ()).throw(RuntimeError("card declined")))
    assert "k" not in store
    assert store.run("k", lambda: 42) == 42


# ---------------------------------------------------------------- timeouts
def test_a_hanging_sync_handler_times_out_without_hanging_the_caller():
    tool = FlakyTool(get_weather, name="get_weather").inject("hang")
    try:
        with pytest.raises(ToolTimeout, match="get_weather did not answer within 0.05 s"):
            rz.call_with_timeout(tool, "Paris", timeout=0.05)
        assert any(t.name == "tool:get_weather" for t in rz.abandoned_threads())
    finally:
        tool.release()
    assert rz.call_with_timeout(tool, "Paris", timeout=5) == {"temp": 18, "humidity": 72}


def test_timeout_passes_results_and_errors_through():
    assert rz.call_with_timeout(get_weather, "Tokyo", timeout=5) == {"temp": 24, "humidity": 70}
    with pytest.raises(UnknownCity):
        rz.call_with_timeout(get_weather, "Atlantis", timeout=5)


def test_with_timeout_on_an_async_handler_cancels_it():
    cancelled = []

    async def slow_report(topic):
        try:
            await asyncio.Event().wait()  # never set: hangs until cancelled
        except asyncio.CancelledError:
            cancelled.append(topic)
            raise

    wrapped = rz.with_timeout(slow_report, 0.05)
    with pytest.raises(ToolTimeout):
        asyncio.run(wrapped("sales"))
    assert cancelled == ["sales"] and wrapped.timeout == 0.05


def test_a_hanging_sync_handler_does_not_block_the_event_loop():
    tool = FlakyTool(get_weather, name="get_weather").inject("hang")
    ticks = []

    async def main():
        async def ticker():
            for i in range(3):
                ticks.append(i)
                await asyncio.sleep(0)
        results = await asyncio.gather(rz.acall_with_timeout(tool, "Paris", timeout=0.05), ticker(),
                                       return_exceptions=True)
        return results

    try:
        timed_out, _ = asyncio.run(main())
    finally:
        tool.release()
    assert isinstance(timed_out, ToolTimeout) and ticks == [0, 1, 2]


# ---------------------------------------------------------------- circuit breaker
def test_circuit_breaker_opens_fails_fast_then_recovers():
    clock = FakeClock()
    breaker = CircuitBreaker("web_search", failure_threshold=3, reset_timeout=30, clock=clock)
    tool = FlakyTool(web_search).inject("down", times=4)
    guarded = breaker.wrap(tool)
    for _ in range(3):
        with pytest.raises(ConnectionError):
            guarded(query="MCP")
    assert breaker.state == "open"
    with pytest.raises(CircuitOpen, match="next trial in 30.0 s"):
        guarded(query="MCP")
    assert tool.calls == 3  # the open circuit protected the tool
    clock.advance(30)
    assert breaker.state == "half_open"
    with pytest.raises(ConnectionError):  # the trial fails: open again
        guarded(query="MCP")
    assert breaker.state == "open"
    clock.advance(30)
    assert guarded(query="MCP")[0]["engine"] == "web_search"
    assert breaker.state == "closed"
    assert [(f, t) for _, f, t, _ in breaker.history] == [
        ("closed", "open"), ("open", "half_open"), ("half_open", "open"), ("open", "half_open"),
        ("half_open", "closed")]


def test_circuit_breaker_ignores_the_callers_own_mistakes():
    breaker = CircuitBreaker(failure_threshold=1, clock=FakeClock())
    with pytest.raises(UnknownCity):
        breaker.call(get_weather, "Atlantis")
    assert breaker.state == "closed"


def test_every_transition_is_in_the_table():
    states = set(CircuitBreaker.TRANSITIONS)
    assert states == {"closed", "open", "half_open"}
    assert all(t in states for moves in CircuitBreaker.TRANSITIONS.values() for t in moves.values())


# ---------------------------------------------------------------- composition
def test_harden_retries_idempotent_tools_and_degrades_the_rest():
    clock = FakeClock()
    tool = FlakyTool(get_weather, name="get_weather").inject("error", times=2)
    safe = rz.harden(tool, timeout=5, backoff=Backoff(jitter="none"), clock=clock)
    assert safe("Shanghai") == {"temp": 28, "humidity": 65} and clock.sleeps == [0.5, 1.0]
    down = rz.harden(FlakyTool(get_weather).inject("down", None), backoff=Backoff(max_attempts=2), clock=clock,
                     degrade_to_report=True, alternatives=["get_forecast"])
    report = down("Shanghai")
    assert report["status"] == "unavailable" and report["alternatives"] == ["get_forecast"]


def test_harden_does_not_retry_a_non_idempotent_tool():
    shop = OrderService().lose_responses(1)
    order = rz.harden(shop.create_order, name="create_order", backoff=Backoff(), idempotent=False,
                      clock=FakeClock(), degrade_to_report=True)
    report = order("kettle")
    assert len(shop.charges) == 1 and report["status"] == "unavailable"


def test_harden_falls_back_after_the_breaker_opens():
    clock = FakeClock()
    breaker = CircuitBreaker("web_search", failure_threshold=1, clock=clock)
    search = rz.harden(FlakyTool(web_search).inject("down", None), name="web_search", breaker=breaker,
                       fallbacks=[("bing_search", bing_search)], clock=clock)
    assert search(query="jitter")[0]["engine"] == "bing_search"
    assert breaker.state == "open"
    assert search(query="jitter")[0]["engine"] == "bing_search"


# ---------------------------------------------------------------- the LLM call's own retries
def test_the_sdk_retries_429_and_500_by_itself_and_the_trace_shows_it():
    mock = MockLLM().inject("rate_limit", retry_after=0.001).inject("server_error", retry_after=0.001)
    trace = Trace("sdk retries")
    client = rz.traced_client(mock, trace, max_retries=2)
    r = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Weather in Paris?"}],
                                       tools=[WEATHER_TOOL])
    assert r.choices[0].message.tool_calls[0].function.name == "get_weather"
    assert [e.label for e in trace.events] == [
        "POST /v1/chat/completions (retry 0)", "HTTP 429 Retry-After: 0.001",
        "POST /v1/chat/completions (retry 1)", "HTTP 500 Retry-After: 0.001",
        "POST /v1/chat/completions (retry 2)", "HTTP 200"]
    assert [x.status for x in mock.log] == [429, 500, 200]


def test_max_retries_zero_surfaces_the_rate_limit():
    mock = MockLLM().inject("rate_limit", retry_after=0.001)
    trace = Trace()
    with pytest.raises(openai.RateLimitError):
        rz.traced_client(mock, trace, max_retries=0).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}])
    assert len(trace) == 2


def test_the_agent_finishes_despite_model_and_tool_faults():
    mock = MockLLM().inject("rate_limit", times=2, retry_after=0.001)
    clock = FakeClock()
    weather = rz.harden(FlakyTool(get_weather, name="get_weather").inject("error", times=2), timeout=5,
                        backoff=Backoff(jitter="full"), clock=clock, rng=random.Random(0))
    messages = [{"role": "user", "content": "What's the weather in Shanghai?"}]
    answer = tool_loop(mock.client(max_retries=3), messages, [WEATHER_TOOL], {"get_weather": weather})
    assert answer == "Shanghai: 28 °C, humidity 65 %."
    assert len(clock.sleeps) == 2
    assert json.loads(messages[2]["content"]) == {"temp": 28, "humidity": 65}


# ---------------------------------------------------------------- inside the registry and the agent loop
def _weather_registry(handler, **options):
    from course_lib.tool_registry import ToolRegistry

    registry = ToolRegistry("lesson 04", env={})
    registry.register(handler=handler, schema=WEATHER_TOOL, **options)
    return registry


def _call(name: str, arguments: dict, call_id: str = "call_1") -> dict:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def test_registry_reports_exhausted_retries_and_open_circuits_as_unavailable():
    clock = FakeClock()
    breaker = CircuitBreaker("get_weather", failure_threshold=1, clock=clock)
    tool = FlakyTool(get_weather, name="get_weather").inject("down", None)
    registry = _weather_registry(rz.harden(tool, backoff=Backoff(max_attempts=3), breaker=breaker, clock=clock),
                                 idempotent=True)
    first = registry.run(_call("get_weather", {"city": "Paris"}))
    assert first.error == "unavailable" and json.loads(first.content)["attempts"] == 3
    second = registry.run(_call("get_weather", {"city": "Paris"}))
    assert second.error == "unavailable" and "circuit open" in json.loads(second.content)["error"]
    assert tool.calls == 3  # the open circuit kept the fourth call away from the tool


def test_registry_timeout_of_a_hanging_sync_handler_reaches_the_model():
    tool = FlakyTool(get_weather, name="get_weather").inject("hang")
    registry = _weather_registry(tool, timeout=0.05)
    try:
        result = registry.run(_call("get_weather", {"city": "Paris"}))
    finally:
        tool.release()
    assert result.error == "timeout"
    mock = MockLLM()
    messages = [{"role": "user", "content": "What's the weather in Paris?"},
                {"role": "assistant", "content": None, "tool_calls": [_call("get_weather", {"city": "Paris"})]},
                result.message()]
    decision = mock.explain(messages, [WEATHER_TOOL])
    assert not decision.tool_calls and "did not finish within 0.05 s" in decision.content


def test_idempotency_keys_come_from_the_tool_call_id_through_a_registry_hook():
    from course_lib.examples import CREATE_ORDER_TOOL
    from course_lib.tool_registry import ToolRegistry

    shop = OrderService().lose_responses(1)
    registry = ToolRegistry("shop", env={})
    registry.register(handler=rz.with_retry(shop.create_order, backoff=Backoff(jitter="none"), clock=FakeClock()),
                      schema=CREATE_ORDER_TOOL, permission="write", idempotent=True)
    registry.before_call(rz.add_idempotency_keys("conversation-7", ["create_order"]))
    result = registry.run(_call("create_order", {"item": "kettle"}, "call_A"))
    assert result.ok and json.loads(result.content)["order_id"] == "ord-0001"
    assert len(shop.charges) == 1 and shop.keys.replays == 1
    assert result.arguments["idempotency_key"] == rz.idempotency_key("conversation-7", "call_A")
    registry.run(_call("create_order", {"item": "kettle"}, "call_B"))  # a new call: a new order
    assert len(shop.charges) == 2


def test_the_herd_summary_speaks_the_learners_language(monkeypatch):
    """The thundering-herd line (lesson 04's figure, the backoff_jitter interview demo) was English in the Chinese
    edition (issue 20); the numbers and the column widths are the same in both languages."""
    herd = rz.simulate_herd(100, Backoff(base=0.5, max_delay=8, max_attempts=12, jitter="none"))
    monkeypatch.setenv("COURSE_LANG", "en")
    assert herd.summary() == ("jitter=none  requests= 550  rejected= 450  retry peak= 90 per 0.1 s  "
                              "all served after 47.5 s")
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert herd.summary() == "jitter=none  请求= 550  被拒= 450  重试峰值= 90 次/0.1 秒  全部完成用时 47.5 秒"
