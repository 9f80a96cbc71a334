"""A clause that speaks of an action without asking for it calls no tool that changes something
(course_lib/mock_llm/speech_acts.py, data/speech_acts.json): forbidding, advice and consequence questions, the
past, questions about a state, and a request withdrawn by what follows. Requests still call."""
from __future__ import annotations

import json

import pytest

from course_lib.mock_llm import MockLLM
from course_lib.mock_llm.speech_acts import changes_something, not_asked, withdraws


def tool(name: str, description: str, properties: dict) -> dict:
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": list(properties)}}}


TOOLS = [
    tool("remove_note", "Remove a note by its id.", {"note_id": {"type": "string"}}),
    tool("refund_payment", "Refund a payment.", {"payment_id": {"type": "string"}}),
    tool("set_fan", "Switch the fan on or off.", {"on": {"type": "boolean"}}),
    tool("get_forecast", "Weather forecast for a city.", {"city": {"type": "string"}}),
    tool("list_notes", "List the notes in a folder.", {"folder": {"type": "string"}}),
]


def calls(text: str) -> list[tuple[str, dict]]:
    message = MockLLM().client().chat.completions.create(
        model="mock", messages=[{"role": "user", "content": text}], tools=TOOLS).choices[0].message
    return [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]


@pytest.mark.parametrize("text", [
    "Never remove note N-7",
    "Should I remove note N-7?",
    "Is it a good idea to refund payment P-55?",
    "What would happen if I refund payment P-55?",
    "We refunded payment P-55 last week",
    "I have already removed note N-7",
    "Did I refund payment P-55?",
    "Is the fan on?",
    "Refund payment P-55. Actually no, don't.",
    "Remove note N-7... never mind",
    "我们上周已经退款了 P-55",
    "退款 P-55。算了",
])
def test_speaking_of_a_changing_action_does_not_do_it(text):
    assert calls(text) == []


@pytest.mark.parametrize("text, expected", [
    ("Remove note N-7", [("remove_note", {"note_id": "N-7"})]),
    ("Please refund payment P-55", [("refund_payment", {"payment_id": "P-55"})]),
    ("I need to remove note N-7", [("remove_note", {"note_id": "N-7"})]),
    ("Is it going to rain in Madrid?", [("get_forecast", {"city": "Madrid"})]),   # a reading tool: asked
    ("I removed a note yesterday, now list the notes in the work folder", [("list_notes", {"folder": "work"})]),
])
def test_requests_still_call(text, expected):
    assert calls(text) == expected


def test_the_kinds_and_the_changing_tools():
    assert [not_asked(c) for c in ("never send it", "how do I cancel my order?", "I sent it", "send it")] == [
        "forbidding", "advice", "past", None]
    assert withdraws("wait, no") and not withdraws("no, the blue one")
    assert changes_something("deleteFile") and changes_something("set_light")
    assert not changes_something("get_weather") and not changes_something("list_files")
