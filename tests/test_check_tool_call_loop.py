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


def splat_string(client, question):     # get_weather(**arguments): the JSON text is not a mapping
    messages, msg = _first(client, question)
    messages.append(as_dict(msg))
    for c in msg.tool_calls:
        messages.append({"role": "tool", "tool_call_id": c.id, "content": json.dumps(get_weather(**c.function.arguments))})
    return "", messages


def index_string(client, question):     # arguments["city"]: indexing a string
    messages, msg = _first(client, question)
    for c in msg.tool_calls:
        get_weather(c.function.arguments["city"])
    return "", messages


def get_on_string(client, question):    # arguments.get("city"): a str has no .get
    messages, msg = _first(client, question)
    for c in msg.tool_calls:
        get_weather(c.function.arguments.get("city"))
    return "", messages


@pytest.mark.parametrize("attempt, kind", [(string_arguments, "UnknownCity"), (splat_string, "TypeError"),
                                           (index_string, "TypeError"), (get_on_string, "AttributeError")])
def test_a_forgotten_json_loads_gets_the_fix_named(attempt, kind):
    """Whatever the arguments string was used as (a city, a mapping, a dict), the hint says `json.loads`."""
    with pytest.raises(CheckFailed) as e:
        check_tool_call_loop(attempt)
    first = e.value.report.results[0]
    assert "args = json.loads(call.function.arguments)" in first.hint and "get_weather(**args)" in first.hint
    assert first.error.line.startswith(kind)   # the exception, in one line under the hint
    assert kind not in first.hint              # the hint names the fix; it does not echo the exception


def test_another_exception_is_one_line_with_the_traceback_kept():
    def crashes(client, question):
        return {}["answer"]
    with pytest.raises(CheckFailed) as e:
        check_tool_call_loop(crashes)
    first = e.value.report.results[0]
    assert first.hint == "Your function must run to the end: fix the line named below."
    assert first.error.line.startswith("KeyError: 'answer'") and "\n" not in first.error.line
    assert "Traceback (most recent call last)" in first.error.traceback and "crashes" in first.error.traceback


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
