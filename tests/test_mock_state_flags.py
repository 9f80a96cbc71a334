"""A flag named after a state ('on', 'enabled', 'locked', 'muted') is read from the words of that state or its
opposite, in English and Chinese (course_lib/data/boolean_states.json); a bare reply never fills an enum with a
value outside its options."""
from __future__ import annotations

import json

import pytest

from course_lib.mock_llm import MockLLM


def tool(name: str, properties: dict, required: list[str]) -> dict:
    return {"type": "function", "function": {"name": name, "description": f"{name.replace('_', ' ')}.",
                                             "parameters": {"type": "object", "properties": properties,
                                                            "required": required}}}


LIGHT = tool("set_light", {"room": {"type": "string", "enum": ["kitchen", "bedroom", "living room"]},
                           "on": {"type": "boolean"}}, ["room", "on"])
ALERTS = tool("set_notifications", {"channel": {"type": "string", "enum": ["email", "sms", "push"]},
                                    "enabled": {"type": "boolean"}}, ["channel", "enabled"])
DOOR = tool("set_door_lock", {"door": {"type": "string"}, "locked": {"type": "boolean"}}, ["door", "locked"])


def reply(messages, tools):
    if isinstance(messages, str):
        messages = [{"role": "user", "content": messages}]
    return MockLLM().client().chat.completions.create(model="mock", messages=messages, tools=tools).choices[0].message


def calls(messages, tools):
    return [(c.function.name, json.loads(c.function.arguments)) for c in reply(messages, tools).tool_calls or []]


@pytest.mark.parametrize("text, args", [
    ("Turn off the kitchen lights", {"room": "kitchen", "on": False}),
    ("Switch the bedroom light off", {"room": "bedroom", "on": False}),
    ("Turn on the kitchen lights", {"room": "kitchen", "on": True}),
    ("关掉厨房的灯", {"room": "kitchen", "on": False}),
    ("打开卧室的灯", {"room": "bedroom", "on": True}),
])
def test_a_light_named_on_is_switched_by_on_and_off_words(text, args):
    assert calls(text, [LIGHT]) == [("set_light", args)]


def test_the_opposite_of_a_flag_named_enabled_or_locked_makes_it_false():
    assert calls("Disable email notifications", [ALERTS]) == [
        ("set_notifications", {"channel": "email", "enabled": False})]
    assert calls("Enable push notifications", [ALERTS]) == [("set_notifications", {"channel": "push", "enabled": True})]
    assert calls("Unlock the front door", [DOOR])[0][1]["locked"] is False


def test_a_bare_reply_outside_an_enums_options_is_not_sent():
    first = reply("Turn off the light", [LIGHT])
    assert not first.tool_calls and "room" in first.content
    second = [{"role": "user", "content": "Turn off the light"}, {"role": "assistant", "content": first.content},
              {"role": "user", "content": "off"}]
    assert all(args.get("room") in ("kitchen", "bedroom", "living room") for _, args in calls(second, [LIGHT]))
