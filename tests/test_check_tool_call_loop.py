"""Exercise 01's checks name each typical mistake (not just "wrong")."""
from __future__ import annotations

import json

import pytest

from course_lib.checks import CheckFailed
from course_lib.checks.tool_call_loop import QUESTION, check_tool_call_loop
from course_lib.examples import WEATHER_TOOL, get_weather
from course_lib.function_calling import as_dict


def _first(client, question):
    messages = [{"role": "user", "content": question}]
    msg = client.chat.completions.create(model="m", messages=messages, tools=[WEATHER_TOOL]).choices[0].message
    return messages, msg


def forgot_assistant(client, question):
    messages, msg = _first(client, question)
    for c in msg.tool_calls:
        messages.append({"role": "tool", "tool_call_id": c.id, "content": json.dumps(get_weather(**json.loads(c.function.arguments)))})
    final = client.chat.completions.create(model="m", messages=messages, tools=[WEATHER_TOOL])
    return final.choices[0].message.content, messages


def only_first_call(client, question):
    messages, msg = _first(client, question)
    messages.append(as_dict(msg))
    c = msg.tool_calls[0]
    messages.append({"role": "tool", "tool_call_id": c.id, "content": json.dumps(get_weather(**json.loads(c.function.arguments)))})
    final = client.chat.completions.create(model="m", messages=messages, tools=[WEATHER_TOOL])
    return final.choices[0].message.content, messages


def dict_content(client, question):
    messages, msg = _first(client, question)
    messages.append(as_dict(msg))
    for c in msg.tool_calls:
        messages.append({"role": "tool", "tool_call_id": c.id, "content": get_weather(**json.loads(c.function.arguments))})
    final = client.chat.completions.create(model="m", messages=messages, tools=[WEATHER_TOOL])
    return final.choices[0].message.content, messages


def string_arguments(client, question):
    messages, msg = _first(client, question)
    messages.append(as_dict(msg))
    for c in msg.tool_calls:
        messages.append({"role": "tool", "tool_call_id": c.id, "content": json.dumps(get_weather(c.function.arguments))})
    return "", messages


def no_second_request(client, question):
    messages, msg = _first(client, question)
    messages.append(as_dict(msg))
    for c in msg.tool_calls:
        messages.append({"role": "tool", "tool_call_id": c.id, "content": json.dumps(get_weather(**json.loads(c.function.arguments)))})
    return messages[-1]["content"], messages


@pytest.mark.parametrize("attempt, words", [
    (forgot_assistant, "append `message`"),
    (only_first_call, "loop over *all*"),
    (dict_content, "json.dumps(result)"),
    (no_second_request, "call `client.chat.completions.create(...)` again"),
])
def test_typical_mistakes_get_their_own_hint(attempt, words):
    with pytest.raises(CheckFailed) as e:
        check_tool_call_loop(attempt)
    hints = " ".join(r.hint for r in e.value.report.results if not r.passed)
    assert words in hints


def test_unknown_city_from_string_arguments_is_reported():
    with pytest.raises(CheckFailed) as e:
        check_tool_call_loop(string_arguments)
    assert "UnknownCity" in e.value.report.results[0].hint


def test_question_is_the_two_city_one():
    assert "Beijing" in QUESTION and "Shanghai" in QUESTION


def str_content(client, question):   # str(result): Python's repr, not JSON
    messages, msg = _first(client, question)
    messages.append(as_dict(msg))
    for c in msg.tool_calls:
        messages.append({"role": "tool", "tool_call_id": c.id, "content": str(get_weather(**json.loads(c.function.arguments)))})
    final = client.chat.completions.create(model="m", messages=messages, tools=[WEATHER_TOOL])
    return final.choices[0].message.content, messages


def test_str_result_content_is_named_as_python_repr_not_json():
    with pytest.raises(CheckFailed) as e:
        check_tool_call_loop(str_content)
    hint = next(r.hint for r in e.value.report.results if r.name.startswith("tool contents"))
    assert "`str(result)` is Python's repr" in hint and "single quotes" in hint and "json.dumps(result)" in hint
