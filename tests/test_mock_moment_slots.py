"""A time or date slot takes only a time or date expression (issue 13): "Remind me to call mom at 6pm" gave
``when='call mom'``, 提醒我明天给妈妈打电话 put the whole task into ``remind_time``. A slot named for a moment (when,
time, due, remind_at, 时间...) holds the time and date said, or is asked for. Our own tools, through the openai SDK."""
from __future__ import annotations

import datetime as dt

import pytest

from course_lib.mock_llm.arguments import says_a_moment
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

REMINDER = tool("set_reminder", "Set a reminder.", {
    "text": {"type": "string", "description": "What to remind about"},
    "when": {"type": "string", "description": "When to remind"}})
ZH_REMINDER = tool("create_reminder", "创建提醒", {
    "content": {"type": "string", "description": "提醒内容"}, "remind_time": {"type": "string", "description": "提醒时间"}})
TASK = tool("add_task", "Add a task to the to-do list.", {
    "title": {"type": "string"}, "due": {"type": "string", "description": "When the task is due"}})

TOMORROW = (dt.date.today() + dt.timedelta(days=1)).isoformat()


@pytest.mark.parametrize("value", ["6pm", "tomorrow at 6pm", "every Monday", "2026-12-05", "明天早上8点",
                                   "next Friday morning", "in 10 minutes", "下周一", "now"])
def test_moments(value):
    assert says_a_moment(value)


@pytest.mark.parametrize("value", ["call mom", "明天给妈妈打电话", "water pot 3", "the report", "开会"])
def test_no_moments(value):
    assert not says_a_moment(value)


@pytest.mark.parametrize("text, tools, slot, want", [
    ("Remind me to call mom at 6pm", [REMINDER], "when", "6pm"),
    ("Remind me to call mom tomorrow", [REMINDER], "when", TOMORROW),
    ("提醒我明天早上8点给妈妈打电话", [ZH_REMINDER], "remind_time", TOMORROW + " 08:00"),
    ("提醒我明天给妈妈打电话", [ZH_REMINDER], "remind_time", TOMORROW),
    ("Add a task to renew the passport, due tomorrow", [TASK], "due", (TOMORROW, "tomorrow")),
])
def test_the_moment_said(client, text, tools, slot, want):
    (name, args), = calls(client, text, tools)
    assert args[slot] in (want if isinstance(want, tuple) else (want,))


@pytest.mark.parametrize("text, tools, slot", [
    ("Remind me to call mom", [REMINDER], "when"),
    ("提醒我给妈妈打电话", [ZH_REMINDER], "remind_time"),
    ("Add a task to renew the passport", [TASK], "due"),
])
def test_no_moment_said_is_asked_for(client, text, tools, slot):
    reply = calls(client, text, tools)
    assert isinstance(reply, str) and slot in reply
