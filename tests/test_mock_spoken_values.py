"""Values as people say them (issue 13): amounts of time in words ("an hour and a half", 一个半月), an ID read whole
or not at all, a path slot that takes no count, a duration in the clock format a slot describes, what a reminder is
for. Our own tools, through the openai SDK."""
from __future__ import annotations

import pytest

from course_lib.mock_llm import language as lang
from course_lib.mock_llm.reading import read
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

WORKOUT = tool("log_workout", "Log an exercise session", {
    "activity": {"type": "string", "description": "The exercise, e.g. running, cycling"},
    "duration_minutes": {"type": "integer", "description": "How long, in minutes"}})
TIMER = tool("set_timer", "Start a countdown timer", {"seconds": {"type": "integer", "description": "Length in seconds"}})
TRIP = tool("plan_trip", "Plan a trip of a given length in days", {
    "destination": {"type": "string"}, "days": {"type": "integer", "description": "Length of the trip in days"}})
TICKET = tool("get_ticket", "Look up a support ticket by its ID", {"ticket_id": {"type": "string"}})
LOG = tool("git_log", "Shows the commit logs", {
    "repo_path": {"type": "string"}, "max_count": {"type": "integer", "description": "Maximum number of commits"}},
    required=["repo_path"])
COUNTDOWN = tool("start_countdown", "Start a countdown timer, with what it reminds of", {
    "duration": {"type": "string", "description": "How long, as 'MM:SS'"},
    "purpose": {"type": "string", "description": "What the countdown is for"}}, required=["duration"])


@pytest.mark.parametrize("text, value, unit", [
    ("for an hour and a half", 1.5, "h"), ("half an hour", 0.5, "h"), ("two and a half days", 2.5, "day"),
    ("3 hours and a half", 3.5, "h"), ("for a month", 1, "month"), ("一个半月", 1.5, "month"), ("两个月", 2, "month"),
])
def test_amounts_of_time_said_in_words(text, value, unit):
    [m] = read(text).of_kind("number")
    assert (m.value, m.unit, m.dim) == (value, unit, "time")


def test_a_rate_is_no_amount_of_its_own():
    """'500 lbs of trash in a year' is per year: no 1-year number beside the 500 lbs; 'twice a day' neither."""
    assert [m.value for m in read("I produce 500 lbs of trash in a year").of_kind("number")] == [500]
    assert [m.value for m in read("take it twice a day").of_kind("number")] == [2]


@pytest.mark.parametrize("text, tools, want", [
    ("Set a timer for half an hour", [TIMER], [("set_timer", {"seconds": 1800})]),
    ("Set a timer for an hour", [TIMER], [("set_timer", {"seconds": 3600})]),
    ("Log my workout: cycling for an hour and a half", [WORKOUT],
     [("log_workout", {"activity": "cycling", "duration_minutes": 90})]),
    ("Plan a trip to Japan for a month and a half", [TRIP], [("plan_trip", {"destination": "Japan", "days": 45})]),
    ("帮我规划一个去日本的一个半月的旅行", [TRIP], [("plan_trip", {"destination": "日本", "days": 45})]),
    ("帮我规划一个去日本的两个月的旅行", [TRIP], [("plan_trip", {"destination": "日本", "days": 60})]),
])
def test_spoken_durations_fill_the_slot_in_its_unit(client, text, tools, want):
    assert calls(client, text, tools) == want


@pytest.mark.parametrize("ticket", ["3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f", "123e4567-e89b-12d3-a456-426614174000"])
def test_an_id_is_read_whole(client, ticket):
    """A UUID was read as the numbers in it (ticket_id='4', '9e7' as 90000000)."""
    assert calls(client, f"Show me ticket {ticket}", [TICKET]) == [("get_ticket", {"ticket_id": ticket})]
    assert [m.kind for m in read(f"ticket {ticket} please").mentions] == ["code"]


def test_a_path_slot_takes_no_count(client):
    """'显示 /repo 最近5次提交': the path is /repo, 5 is how many commits (repo_path was '5')."""
    assert calls(client, "显示 /repo 最近5次提交", [LOG]) == [("git_log", {"repo_path": "/repo", "max_count": 5})]


@pytest.mark.parametrize("text, want", [
    ("Start a countdown for the dentist in 5 minutes", {"duration": "05:00", "purpose": "dentist"}),
    ("Start a timer for standup in a minute", {"duration": "01:00", "purpose": "standup"}),
    ("Start a countdown of an hour and a half", {"duration": "90:00"}),
])
def test_a_duration_in_the_described_clock_format(client, text, want):
    assert calls(client, text, [COUNTDOWN]) == [("start_countdown", want)]


def test_running_in_chinese():
    """跑 alone is running (我今天跑了5公里), 跑车 a car."""
    assert "run" in lang.chinese_concepts("我今天跑了5公里")
    assert "run" not in lang.chinese_concepts("我想买一辆跑车")


SEARCH = tool("search_files", "Recursively search for files matching a glob pattern", {
    "path": {"type": "string"}, "pattern": {"type": "string", "description": "A glob-style pattern, like '*.ext'"}})


@pytest.mark.parametrize("text, want", [
    ("search /srv for Markdown files", {"path": "/srv", "pattern": "*.md"}),
    ("Search ~/code for Python source files", {"path": "~/code", "pattern": "*.py"}),
])
def test_a_kind_of_file_is_a_glob_of_its_extension(client, text, want):
    """'Python files' for a glob pattern is '*.py' (course_lib/data/file_kinds.json), not the words."""
    assert calls(client, text, [SEARCH]) == [("search_files", want)]
