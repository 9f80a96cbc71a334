"""A time of day said in words is a clock time (issue 13): "half past seven" is 07:30 (never an hour or a
brightness of 7), "a quarter to nine" 08:45, "ten past six in the evening" 18:10, "seven o'clock" 07:00, "at seven
thirty pm" 19:30, as 七点半 and 八点一刻 already were. A clock face has twelve hours: with no part of the day the
hour is as said. "ten to five people" stays two numbers. Our own tools, through the openai SDK."""
from __future__ import annotations

import pytest

from course_lib.mock_llm.reading import read
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

ALARM = tool("set_alarm", "Set an alarm clock.", {
    "hour": {"type": "integer", "minimum": 0, "maximum": 23}, "minute": {"type": "integer", "minimum": 0, "maximum": 59}})
ALARM_AT = tool("set_alarm", "Set an alarm.", {"time": {"type": "string", "description": "Alarm time, HH:MM"}})
LIGHTS = tool("set_brightness", "Set the brightness of the lights.", {
    "level": {"type": "integer", "minimum": 0, "maximum": 100, "description": "Brightness in percent"}})
SLOT = tool("book_slot", "Book an appointment slot.", {
    "when": {"type": "string", "description": "Date and time as 'YYYY-MM-DD HH:MM'"}})


@pytest.mark.parametrize("text, clock", [
    ("half past seven", (7, 30)), ("a quarter to nine", (8, 45)), ("quarter past six", (6, 15)),
    ("ten past six in the evening", (18, 10)), ("twenty minutes to five", (4, 40)), ("at 7 o'clock", (7, 0)),
    ("at seven thirty pm", (19, 30)), ("half past 12", (12, 30)), ("a quarter to one", (12, 45)),
    ("七点半", (7, 30)), ("八点一刻", (8, 15)), ("noon", (12, 0)), ("midnight", (0, 0)),
])
def test_times_of_day_in_words(text, clock):
    [t] = read(text).of_kind("time")
    assert t.value == clock and not read(text).of_kind("number")


@pytest.mark.parametrize("text", ["ten to five people came", "I have half past problems", "seven thirty-somethings"])
def test_no_clock_time_where_none_is_said(text):
    assert read(text).of_kind("time") == []


@pytest.mark.parametrize("text, hour, minute", [
    ("Set an alarm for half past seven", 7, 30), ("Wake me at a quarter to nine", 8, 45),
    ("Set an alarm at seven thirty", 7, 30), ("把闹钟定在八点一刻", 8, 15),
])
def test_hour_and_minute_slots(client, text, hour, minute):
    assert calls(client, text, [ALARM]) == [("set_alarm", {"hour": hour, "minute": minute})]


@pytest.mark.parametrize("text, clock", [
    ("Set an alarm for half past seven", "07:30"), ("Set an alarm for quarter past six", "06:15"),
    ("Set an alarm for noon", "12:00"), ("设一个七点半的闹钟", "07:30"),
])
def test_a_clock_string_slot(client, text, clock):
    assert calls(client, text, [ALARM_AT]) == [("set_alarm", {"time": clock})]


def test_the_hour_is_no_brightness(client):
    """With a lamp beside the alarm, 'seven' is the alarm's hour, not a level of 7."""
    assert calls(client, "Set an alarm for half past seven", [LIGHTS, ALARM]) == [
        ("set_alarm", {"hour": 7, "minute": 30})]


def test_a_day_and_a_time_in_words(client):
    (name, args), = calls(client, "Book a slot for tomorrow at half past two in the afternoon", [SLOT])
    assert name == "book_slot" and args["when"].endswith(" 14:30")
