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


def _failed(attempt):
    with pytest.raises(CheckFailed) as e:
        check_tool_call_loop(attempt)
    return [r for r in e.value.report.results if not r.passed]


@pytest.mark.parametrize("attempt, cause", [
    (str_content, "tool contents are the real get_weather results (JSON text)"),
    (no_second_request, "the model was asked again with the results (2 requests)"),
])
def test_a_failure_that_follows_from_an_earlier_one_says_so(attempt, cause):
    """The answer cannot state the temperatures when the results were unreadable or never sent: its ❌ names the
    first failure instead of sending the learner after the second response."""
    first, then = _failed(attempt)
    assert first.name == cause and not first.follows and "follows" not in first.hint
    assert then.name == "the final answer states both cities' temperatures" and then.follows == cause
    assert then.hint == f"this follows from “{cause}” above: fix that one first."
    assert "final.choices[0].message.content" not in then.hint


def test_a_failure_of_its_own_keeps_its_hint():
    def first_reply_returned(client, question):   # a second request, but the first reply's text returned
        messages, msg = _first(client, question)
        messages.append(as_dict(msg))
        for c in msg.tool_calls:
            messages.append({"role": "tool", "tool_call_id": c.id,
                             "content": json.dumps(get_weather(**json.loads(c.function.arguments)))})
        client.chat.completions.create(model="m", messages=messages, tools=[WEATHER_TOOL])
        return msg.content, messages
    [only] = _failed(first_reply_returned)
    assert only.follows == "" and only.hint == "Return the text of the *second* response: `final.choices[0].message.content`."


def test_the_follow_line_speaks_chinese(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    with pytest.raises(CheckFailed) as e:
        check_tool_call_loop(no_second_request)
    text = e.value.report.text()
    assert "❌ 最终回答给出了两个城市的气温\n     提示：这一项没通过，是因为上面的“带着结果再次询问了模型（2 个请求）”没通过：先修好那一项。" in text
    assert e.value.report.as_json()["results"][-1]["follows"] == "带着结果再次询问了模型（2 个请求）"
