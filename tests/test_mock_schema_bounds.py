"""Values fit the schema's own constraints: a number inside ``minimum``/``maximum`` (and the exclusive bounds),
a ``format: date-time`` value as RFC 3339 writes one (seconds and a UTC offset).

Found by a newcomer run: "Set the volume to 150" sent ``level=150`` to a tool whose schema says ``maximum: 100``,
and a meeting's ``start`` (``format: date-time``) was "2026-12-04T15:00", which the format rejects. A model says
the value is out of range and asks; the mock now does the same (our own tools below).
"""
from __future__ import annotations

import datetime as dt

import pytest
from jsonschema import Draft202012Validator, FormatChecker

from course_lib.mock_llm.bounds import OutOfRange, out_of_range
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

VOLUME = tool("set_volume", "Set the speaker volume.", {
    "level": {"type": "integer", "minimum": 0, "maximum": 100, "description": "Volume level"}})
DIMMER = tool("dim_lamp", "Dim the desk lamp.", {"percent": {"type": "number", "exclusiveMinimum": 0, "maximum": 100}})
OLD_STYLE = tool("set_fan", "Set the fan speed.", {
    "speed": {"type": "integer", "minimum": 1, "maximum": 5, "exclusiveMaximum": True}})
OPTIONAL = tool("rate_film", "Rate a film.", {"title": {"type": "string"},
                                              "stars": {"type": "integer", "minimum": 1, "maximum": 5}},
                required=["title"])
MEETING = tool("schedule_call", "Schedule a video call.", {
    "topic": {"type": "string"}, "starts_at": {"type": "string", "format": "date-time"}})


@pytest.mark.parametrize("text, value", [("Set the volume to 150", "150"), ("Set the volume to -5", "-5")])
def test_a_number_above_or_below_the_bounds_is_not_sent(client, text, value):
    reply = calls(client, text, [VOLUME])
    assert isinstance(reply, str), reply
    assert "between 0 and 100" in reply and value in reply and reply.endswith("?")


def test_a_number_inside_the_bounds_is_sent(client):
    assert calls(client, "Set the volume to 100", [VOLUME]) == [("set_volume", {"level": 100})]


def test_an_exclusive_bound_excludes_the_bound_itself(client):
    reply = calls(client, "Dim the desk lamp to 0 percent", [DIMMER])
    assert isinstance(reply, str) and "greater than 0" in reply
    assert calls(client, "Dim the desk lamp to 30 percent", [DIMMER]) == [("dim_lamp", {"percent": 30})]


def test_an_optional_argument_out_of_range_is_not_sent_either(client):
    reply = calls(client, "Rate the film 'Heat' 7 stars", [OPTIONAL])
    assert isinstance(reply, str) and "stars" in reply and "7" in reply


def test_a_chinese_request_gets_the_range_in_chinese(client):
    zh_volume = tool("set_volume", "设置音箱的音量", {"level": {"type": "integer", "minimum": 0, "maximum": 100,
                                                           "description": "音量"}})
    reply = calls(client, "把音量调到150", [zh_volume])
    assert isinstance(reply, str) and "0 到 100 之间" in reply and "150" in reply


@pytest.mark.parametrize("spec, value, allowed", [
    ({"type": "integer", "minimum": 1, "maximum": 5, "exclusiveMaximum": True}, 5, "at least 1 and less than 5"),
    ({"type": "number", "exclusiveMinimum": 0}, 0, "greater than 0"),
    ({"type": "number", "maximum": 1.5}, 2, "at most 1.5"),
])
def test_both_drafts_spellings_of_the_bounds(spec, value, allowed):
    schema = {"type": "object", "properties": {"x": spec}}
    (bad,) = out_of_range({"x": value}, schema)
    assert isinstance(bad, OutOfRange) and bad.allowed() == allowed
    assert out_of_range({"x": True}, schema) == []  # a boolean is no number here


def _rfc3339(value: str) -> dt.datetime:
    errors = list(Draft202012Validator({"type": "string", "format": "date-time"}, format_checker=FormatChecker())
                  .iter_errors(value))
    moment = dt.datetime.fromisoformat(value)
    assert not errors and moment.tzinfo is not None and value.count(":") >= 3, value
    return moment


@pytest.mark.parametrize("text, clock", [
    ("Schedule a video call 'Sprint review' tomorrow at 3pm", "15:00:00"),
    ("Schedule a video call 'Sprint review' on 2026-12-20 at 09:30", "09:30:00"),
    ("明天下午3点安排一个视频通话“周会”", "15:00:00"),
])
def test_a_date_time_value_has_seconds_and_an_offset(client, text, clock):
    (name, args), = calls(client, text, [MEETING])
    assert name == "schedule_call" and _rfc3339(args["starts_at"]).strftime("%H:%M:%S") == clock


def test_a_day_without_its_clock_time_is_asked_for(client):
    reply = calls(client, "Schedule a video call 'Sprint review' tomorrow", [MEETING])
    assert isinstance(reply, str) and "starts_at" in reply.replace(" ", "_")


SPAN = tool("hold_room", "Hold a meeting room.", {
    "room": {"type": "string"}, "start": {"type": "string", "format": "date-time"},
    "end": {"type": "string", "format": "date-time"}})


@pytest.mark.parametrize("text, start, end", [
    ("Hold room C3 from 2026-12-10T09:00+08:00 to 2026-12-10T10:30+08:00",
     "2026-12-10T09:00:00+08:00", "2026-12-10T10:30:00+08:00"),
    ("Hold room C3 from 2026-12-10T09:00Z to 2026-12-10T10:30Z", "2026-12-10T09:00:00Z", "2026-12-10T10:30:00Z"),
])
def test_an_offset_the_user_wrote_is_kept_and_is_no_clock_time(client, text, start, end):
    """"+08:00" is the zone of 09:00, not a time of 08:00, and the value keeps it (not the machine's zone)."""
    assert calls(client, text, [SPAN]) == [("hold_room", {"room": "C3", "start": start, "end": end})]


def test_an_array_member_outside_the_items_bounds_is_not_sent(client):
    scores = tool("record_scores", "Record the judges' scores.", {
        "scores": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 10}}})
    reply = calls(client, "Record the scores 7, 9 and 12", [scores])
    assert isinstance(reply, str) and "between 1 and 10" in reply and "12" in reply
    assert calls(client, "Record the scores 7, 9 and 10", [scores]) == [("record_scores", {"scores": [7, 9, 10]})]


@pytest.mark.parametrize("answer, expected", [("80", [("set_volume", {"level": 80})]), ("150", None)])
def test_the_answer_to_the_range_question(client, answer, expected):
    """After "level must be between 0 and 100": a value inside is sent, the same value again gets the range again."""
    first = [{"role": "user", "content": "Set the volume to 150"}]
    asked = client.chat.completions.create(model="mock", messages=first, tools=[VOLUME]).choices[0].message.content
    messages = first + [{"role": "assistant", "content": asked}, {"role": "user", "content": answer}]
    msg = client.chat.completions.create(model="mock", messages=messages, tools=[VOLUME]).choices[0].message
    if expected is None:
        assert not msg.tool_calls and "between 0 and 100" in msg.content
    else:
        import json

        assert [(c.function.name, json.loads(c.function.arguments)) for c in msg.tool_calls] == expected
