"""A date-time slot described as UTC or with a format gets the moment said in that zone and format (issue 13):
"Start time (UTC), YYYY-MM-DDTHH:MM:SSZ" with "tomorrow at 3pm Beijing time" is 07:00Z, "9am PST" 17:00Z, a time
said without a zone is the user's local time (the machine's, as the mock's "now"), "ISO 8601 in UTC" is a date-time
slot at all ('Publish time, ISO 8601 in UTC' left 'tomorrow' unread). Our own tools, through the openai SDK."""
from __future__ import annotations

import datetime as dt

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

MEETING = tool("schedule_meeting", "Schedule a meeting.", {
    "topic": {"type": "string"}, "start_time": {"type": "string", "description": "Start time (UTC), YYYY-MM-DDTHH:MM:SSZ"}})
EVENT = tool("create_event", "Create a calendar event.", {
    "title": {"type": "string"}, "start": {"type": "string", "description": "Start time in UTC, format YYYY-MM-DD HH:MM"}})
POST = tool("schedule_post", "Schedule a social media post.", {
    "text": {"type": "string"}, "publish_at": {"type": "string", "description": "Publish time, ISO 8601 in UTC"}})

TOMORROW = dt.date.today() + dt.timedelta(days=1)


def _local_as_utc(hour: int, fmt: str = "%Y-%m-%dT%H:%M:%SZ") -> str:
    """Tomorrow at ``hour`` in the machine's local zone, as UTC (what a time said without a zone is)."""
    local = dt.datetime(TOMORROW.year, TOMORROW.month, TOMORROW.day, hour).astimezone()
    return local.astimezone(dt.timezone.utc).strftime(fmt)


@pytest.mark.parametrize("text, want", [
    ("Schedule a meeting about budget tomorrow at 3pm Beijing time", f"{TOMORROW}T07:00:00Z"),
    ("Schedule a meeting about budget tomorrow at 9am PST", f"{TOMORROW}T17:00:00Z"),
    ("明天北京时间下午3点安排一个关于预算的会议", f"{TOMORROW}T07:00:00Z"),
    ("Schedule a meeting about budget tomorrow at 3pm", _local_as_utc(15)),
])
def test_the_moment_in_utc(client, text, want):
    (name, args), = calls(client, text, [MEETING])
    assert args["start_time"] == want


def test_a_spaced_utc_format(client):
    (name, args), = calls(client, "Create an event called Standup tomorrow at 9am EST", [EVENT])
    assert args["start"] == f"{TOMORROW} 14:00"


def test_iso_8601_in_utc_is_a_date_time_slot(client):
    (name, args), = calls(client, 'Schedule a post saying "hello" for tomorrow at 9am', [POST])
    assert args == {"text": "hello", "publish_at": _local_as_utc(9)}
