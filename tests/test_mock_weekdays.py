"""A weekday said in Chinese is a date (issue 13): 周五, 星期三, 礼拜天 are the coming such day, 下周一 next
week's Monday, 这个星期六 this week's Saturday, counted from the mock's "now" (the machine's date, like "Friday" in
English); 一周五天 and 上周五 are no date to act on. Our own tools, through the openai SDK."""
from __future__ import annotations

import datetime as dt

import pytest

from course_lib.mock_llm.reading import read
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

EVENT = tool("create_event", "Create a calendar event.", {
    "title": {"type": "string"}, "date": {"type": "string", "description": "Date, YYYY-MM-DD"},
    "time": {"type": "string", "description": "Time, HH:MM"}})
DEADLINE = tool("set_deadline", "Set the due date of a task.", {
    "task": {"type": "string", "description": "任务名称"}, "due": {"type": "string", "format": "date"}})


def _coming(weekday: int, today: dt.date | None = None) -> str:
    """The coming ``weekday`` (0 Monday) after today, a week on when today is that day (as the mock counts)."""
    today = today or dt.date.today()
    return (today + dt.timedelta(days=(weekday - today.weekday()) % 7 or 7)).isoformat()


def _next_week(weekday: int) -> str:
    today = dt.date.today()
    return (today + dt.timedelta(days=7 - today.weekday() + weekday)).isoformat()


@pytest.mark.parametrize("text, want, clock", [
    ("周五早上8点开会，标题是例会", lambda: _coming(4), "08:00"),
    ("星期三下午三点创建活动，标题是复盘", lambda: _coming(2), "15:00"),
    ("礼拜天上午十点开会，标题是家庭会议", lambda: _coming(6), "10:00"),
    ("下周一上午9点开会，标题是周会", lambda: _next_week(0), "09:00"),
    ("Create an event called Sync on Friday at 10am", lambda: _coming(4), "10:00"),
])
def test_a_weekday_is_the_coming_such_day(client, text, want, clock):
    (name, args), = calls(client, text, [EVENT])
    assert name == "create_event" and args["date"] == want() and args["time"] == clock


def test_this_weeks_day_is_in_this_week_or_the_coming_one():
    today = dt.date.today()
    [d] = read("这个星期六晚上7点聚餐").of_kind("date")
    day = dt.date(*d.value)
    assert day.weekday() == 5 and 0 <= (day - today).days < 7


@pytest.mark.parametrize("text", ["我一周五天都跑步", "上周五我去了北京", "两周三次"])
def test_counts_of_weeks_and_last_week_are_no_date(text):
    assert read(text).of_kind("date") == []


def test_a_chinese_weekday_in_a_date_slot(client):
    (name, args), = calls(client, "把“写报告”的截止日期设为下周三", [DEADLINE])
    assert name == "set_deadline" and args["due"] == _next_week(2)
