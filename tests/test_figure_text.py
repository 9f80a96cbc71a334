"""Figures read right as text (nbval, a terminal, a forge): a title, and timelines with each bar's start–end."""
from __future__ import annotations

from course_lib.diagrams import figure
from course_lib.resilience import FakeClock
from course_lib.tracing import Trace


def _three_calls(name: str, *, parallel: bool) -> Trace:
    clock = FakeClock()
    trace = Trace(name, clock=clock.now)
    if parallel:   # all three start together and end 0.1 s later
        spans = [trace.span(city, f"get_weather({city})") for city in ("Beijing", "Shanghai", "Tokyo")]
        for s in spans:
            s.__enter__()
        clock.advance(0.1)
        for s in spans:
            s.__exit__(None, None, None)
    else:
        for city in ("Beijing", "Shanghai", "Tokyo"):
            with trace.span(city, f"get_weather({city})"):
                clock.advance(0.1)
    return trace


def test_timeline_text_shows_one_by_one_and_all_at_once_differently():
    one_by_one = repr(_three_calls("one by one", parallel=False).timeline())
    together = repr(_three_calls("all at once", parallel=True).timeline())
    assert one_by_one.splitlines() == [
        "[figure: one by one]",
        " 1. Beijing   get_weather(Beijing)   0.0 ms – 100.0 ms",
        " 2. Shanghai  get_weather(Shanghai)  100.0 ms – 200.0 ms",
        " 3. Tokyo     get_weather(Tokyo)     200.0 ms – 300.0 ms"]
    assert together.splitlines()[0] == "[figure: all at once]"
    assert all(line.endswith("  0.0 ms – 100.0 ms") for line in together.splitlines()[1:])


def test_semaphore_waves_are_visible_in_text():
    clock = FakeClock()
    trace = Trace("six cities, at most two at a time", clock=clock.now)
    for wave in range(3):
        spans = [trace.span(f"c{wave}{i}", "call") for i in range(2)]
        for s in spans:
            s.__enter__()
        clock.advance(0.1)
        for s in spans:
            s.__exit__(None, None, None)
    starts = [line.rsplit("  ", 1)[1].split(" ms")[0] for line in trace.timeline_text().splitlines()]
    assert starts == ["0.0", "0.0", "100.0", "100.0", "200.0", "200.0"]


def test_a_message_shows_when_it_was_sent_and_its_route():
    clock = FakeClock()
    trace = Trace("t", clock=clock.now)
    trace.add("App", "LLM", "POST /chat/completions")
    assert trace.timeline_text() == " 1. App -> LLM  POST /chat/completions  at 0.0 ms"


def test_a_figure_titled_on_its_axes_says_its_title_in_text():
    fig = figure(text="body")
    fig.add_subplot().set_title("keyword rules vs function calling")
    assert repr(fig) == "[figure: keyword rules vs function calling]\nbody"
    untitled = figure(text="body")
    untitled.add_subplot()
    assert repr(untitled) == "[figure]\nbody"
    fig.suptitle("the suptitle wins")
    assert repr(fig).startswith("[figure: the suptitle wins]")


def test_timeline_text_reads_the_same_after_sanitising_whatever_the_times():
    """nbval replaces every duration by DURATION: a time that gains a digit (99.9 → 100.0 ms) must not
    shift anything else on the line (no padding that depends on the numbers)."""
    import re

    def text(seconds: float) -> str:
        clock = FakeClock()
        trace = Trace("t", clock=clock.now)
        with trace.span("a", "call"):
            clock.advance(seconds)
        return re.sub(r"\d+(\.\d+)?\s?(ms|µs|s)\b", "DURATION", trace.timeline_text())

    assert text(0.0999) == text(0.1001) == " 1. a  call  DURATION – DURATION"
