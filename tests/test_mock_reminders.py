"""What a reminder reminds of is its content, not an action to do now (issue 13): "Remind me to water pot 3 at 7pm"
sets a reminder and never waters, "Remind me to send the report" sends nothing, 提醒我明天给妈妈打电话 calls nobody;
with no reminder tool, nothing is called. A clause that asks for the action itself still calls it. Our own tools,
through the openai SDK."""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

REMINDER = tool("set_reminder", "Set a reminder for the user at a given time.", {
    "message": {"type": "string"}, "time": {"type": "string", "description": "When, e.g. 7pm"}})
ZH_REMINDER = tool("create_reminder", "创建提醒", {
    "content": {"type": "string", "description": "提醒内容"}, "remind_time": {"type": "string", "description": "提醒时间"}},
    required=["content"])
WATER = tool("water_plant", "Water one of the plants.", {"pot": {"type": "integer", "description": "Pot number"}})
REPORT = tool("send_report", "Send the weekly report by email.", {"recipient": {"type": "string"}}, required=[])
PHONE = tool("call_contact", "Phone a contact. 给联系人打电话", {"name": {"type": "string"}})
COUNTDOWN = tool("set_countdown", "Start a countdown timer with an optional reminder purpose.", {
    "duration": {"type": "string", "description": "Duration like '5m'"}, "purpose": {"type": "string"}},
    required=["duration"])
TEXT = tool("send_text", "Send a text message to a contact.", {"to": {"type": "string"}, "body": {"type": "string"}})


@pytest.mark.parametrize("text, tools, reminder", [
    ("Remind me to water pot 3 at 7pm", [REMINDER, WATER], "set_reminder"),
    ("Remind me to send the report tomorrow at 9am", [REPORT, REMINDER], "set_reminder"),
    ("提醒我明天给妈妈打电话", [PHONE, ZH_REMINDER], "create_reminder"),
    ("提醒我晚上7点给3号花盆浇水", [WATER, ZH_REMINDER], "create_reminder"),
    ("Set a countdown for 5 minutes reminding me to text Raj", [TEXT, COUNTDOWN], "set_countdown"),
])
def test_the_reminder_tool_not_the_task(client, text, tools, reminder):
    got = calls(client, text, tools)
    assert isinstance(got, list) and [name for name, _ in got] == [reminder], got


@pytest.mark.parametrize("text, tools", [
    ("Remind me to send the report", [REPORT]),
    ("Remind me to water pot 3 at 7pm", [WATER]),
    ("提醒我给妈妈打电话", [PHONE]),
])
def test_no_reminder_tool_no_action(client, text, tools):
    assert isinstance(calls(client, text, tools), str)


@pytest.mark.parametrize("text, names", [
    ("Water pot 3 and remind me to feed the cat at 6pm", ["water_plant", "set_reminder"]),
    ("Send the report to Ana", ["send_report"]),
])
def test_an_action_asked_for_itself_is_still_called(client, text, names):
    got = calls(client, text, [WATER, REPORT, REMINDER])
    assert [name for name, _ in got] == names


WHEN = tool("set_reminder", "Set a reminder.", {
    "text": {"type": "string", "description": "What to remind about"},
    "when": {"type": "string", "description": "When to remind"}})


@pytest.mark.parametrize("text, tools, slot, task", [
    ("Remind me to water pot 3 at 7pm", [REMINDER], "message", "water pot 3"),
    ("Remind me to call mom tomorrow", [WHEN], "text", "call mom"),
    ("Remind me to send the report tomorrow at 9am", [REMINDER], "message", "send the report tomorrow"),
    ("提醒我明天早上8点给妈妈打电话", [ZH_REMINDER], "content", "给妈妈打电话"),
    ("提醒我周五早上8点开会", [ZH_REMINDER], "content", "开会"),
])
def test_the_task_leaves_the_time_to_the_time_argument(client, text, tools, slot, task):
    """The time a time argument takes is not repeated in the task; a date no argument takes stays in it."""
    (name, args), = calls(client, text, tools)
    assert args[slot] == task
