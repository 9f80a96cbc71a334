"""Times of day are a value kind of their own (our own words): "14:30", "2pm", 下午三点 go to a start/end/time
argument, never into a length in minutes, and a person's name never goes into ``start``. A span's end is its
start plus a length said ("for 45 minutes"), or it is asked for: it is never a copy of the start.
"""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

DESK = tool("book_desk", "Book a meeting room.", {
    "room": {"type": "string", "description": "Name of the room"},
    "start": {"type": "string", "description": "Start time"},
    "length_minutes": {"type": "integer", "description": "How long, in minutes"}}, required=["room", "start"])
SPAN = tool("hold_room", "Hold a meeting room for a span of time.", {
    "room_id": {"type": "string"}, "start": {"type": "string", "format": "date-time"},
    "end": {"type": "string", "format": "date-time"}})
CLOCK = tool("set_reminder", "Set a reminder.", {
    "at": {"type": "string", "format": "time"}, "note": {"type": "string", "description": "What to remind"}},
    required=["at"])


@pytest.mark.parametrize("text, start", [
    ("Book the Atlas room at 16:45 for 30 minutes with Priya and Tom", "16:45"),
    ("Book room Atlas at 3pm for Priya", "3pm"),
    ("帮我订下午四点的 Atlas 会议室", "16:00"),
])
def test_time_of_day_goes_to_start_not_to_minutes_or_names(client, text, start):
    (name, args), = calls(client, text, [DESK])
    assert name == "book_desk" and args["room"] == "Atlas" and args["start"] == start
    assert args.get("length_minutes") in (None, 30)  # 16:45's "45" is no length


def _clock(value: str) -> str:
    """The clock time of an RFC 3339 date-time (``format: date-time`` values carry seconds and an offset)."""
    import datetime as dt

    moment = dt.datetime.fromisoformat(value)
    assert moment.tzinfo is not None, value
    return moment.strftime("%H:%M:%S")


def test_end_is_start_plus_the_length(client):
    (name, args), = calls(client, "Hold the Atlas room at 16:45 for 30 minutes", [SPAN])
    assert args["room_id"] == "Atlas"
    assert _clock(args["start"]) == "16:45:00" and _clock(args["end"]) == "17:15:00"
    assert args["start"][:10] == args["end"][:10]


def test_end_never_copies_the_start(client):
    reply = calls(client, "Hold the Atlas room at 16:45", [SPAN])
    assert isinstance(reply, str) and "end" in reply  # asked, not end == start


def test_both_ends_said(client):
    (name, args), = calls(client, "Hold room C3 from 09:15 to 10:00 today", [SPAN])
    assert args["room_id"] == "C3" and _clock(args["start"]) == "09:15:00" and _clock(args["end"]) == "10:00:00"


def test_time_format_argument(client):
    (name, args), = calls(client, "Remind me at 7:30 to water the plants", [CLOCK])
    assert name == "set_reminder" and args["at"] in ("7:30", "07:30")
