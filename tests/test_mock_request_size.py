"""A long user message is accepted whole and read up to a documented limit (issue 14 item 1, engine side).

The time to decide is bounded by ``READ_LIMIT`` (benchmarks/request_size.py measures it from 1 KB to
1 MB); here the behaviour: what comes first is read, what lies past the limit is not, nothing fails.
"""
from __future__ import annotations

from course_lib.mock_llm import MockLLM
from course_lib.mock_llm.engine import READ_LIMIT, read_limited

WEATHER = {"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city",
                                            "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                           "required": ["city"]}}}
FILLER = "This paragraph talks about nothing in particular. " * 8000  # about 400 KB, within the context limit


def test_short_text_is_read_whole():
    assert read_limited("Weather in Oslo?") == "Weather in Oslo?"


def test_long_text_is_cut_at_a_sentence_end_within_the_limit():
    head = read_limited(FILLER)
    assert len(head) <= READ_LIMIT and head.endswith("particular.") and FILLER.startswith(head)


def test_a_long_message_still_gets_its_call_from_what_comes_first():
    reply = MockLLM().client(max_retries=0).chat.completions.create(
        model="mock-llm", tools=[WEATHER], messages=[{"role": "user", "content": "What's the weather in Oslo? " + FILLER}])
    call, = reply.choices[0].message.tool_calls
    assert (call.function.name, call.function.arguments) == ("get_weather", '{"city": "Oslo"}')


def test_what_lies_past_the_limit_is_not_read():
    decision = MockLLM().explain([{"role": "user", "content": "What's the weather? " + FILLER + " in Oslo"}], [WEATHER])
    assert decision.tool_calls == [] and "city" in decision.content
