"""Checks of exercise 01: complete the tool-call loop for a two-city question.

The learner writes ``answer_with_tools(client, question) -> (answer, messages)``. The
check runs it against a fresh mock LLM that records every request, then inspects the
conversation the function built. Each failure mode has its own hint.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable

import openai

from ..examples import get_weather
from ..function_calling import as_dict
from ..hints import Hints
from ..mock_llm import MockLLM
from . import CheckReport, calm_check, json_or_none
from ..i18n import N_, _

QUESTION = "What's the weather in Beijing and Shanghai?"

#: The hints of exercise 01, from a nudge to nearly the answer (``HINTS`` in the exercise, ``course hint 01``).
HINTS = Hints("01_tool_call_loop", [
    N_("This is lesson 01's five steps. The reply in `message` is step 2 (the model asked for tools); your "
    "function does steps 3 to 5: run every call, send every result back, then ask the model again."),
    N_("The model asked for **two** calls: `message.tool_calls` has one item per city. Before any tool result, "
    "append the assistant message itself (`messages.append(as_dict(message))`), then loop with "
    "`for call in message.tool_calls:`."),
    N_("In the loop: `args = json.loads(call.function.arguments)`, `result = get_weather(**args)`, then append "
    "`{\"role\": \"tool\", \"tool_call_id\": call.id, \"content\": json.dumps(result)}` (not `str(result)`: "
    "that is Python's repr, with single quotes and `None`, not JSON). After the loop, call "
    "`client.chat.completions.create(model=MODEL, messages=messages, tools=TOOLS)` again and return "
    "`final.choices[0].message.content, messages`."),
], solution_section="Your code: answer_with_tools")

_HINTS_400 = {
    "must be a response to a preceding message": (
        N_("A `tool` message must come right after the assistant message that holds `tool_calls`: "
        "append `message` (the assistant's reply) to `messages` before the tool results.")),
    "did not have response messages": (
        N_("Every tool call needs its own `tool` message: loop over *all* of `message.tool_calls` "
        "(the model asked for two cities, so two calls).")),
    "not found in 'tool_calls'": (
        N_("Each tool message's `tool_call_id` must be the `id` of one of the calls (`call.id`), "
        "not a name or a number you make up.")),
    "content': expected one of a string": (
        N_("A tool message's `content` must be a string: send `json.dumps(result)`, not the dict itself.")),
}


# What Python says when a JSON string is used as the dict it encodes (a forgotten `json.loads`).
_STRING_AS_DICT = re.compile(r"string indices must be|'str' object has no attribute|must be a mapping, not str|"
                             r"'str' object is not (callable|subscriptable)|argument after \*\* must be")

# JSON object text inside an error message: the arguments string reached a function as a value
# (``get_weather('{"city": "Beijing"}')`` → "no weather data for '{"city": "Beijing"}'").
_JSON_TEXT = re.compile(r"\{\s*\\?\"\w+\\?\"\s*:")


def _hint_for(error: Exception) -> str:
    if isinstance(error, NotImplementedError):
        return _("Write your code where the exercise says `# YOUR CODE HERE` (and remove the `raise`).")
    if isinstance(error, openai.BadRequestError):
        for fragment, hint in _HINTS_400.items():
            if fragment in error.message:
                return _(hint) + _(" (the model's 400 said: {message})").format(message=error.message)
        return _("The model rejected the conversation: {message}").format(message=error.message)
    if (isinstance(error, (TypeError, AttributeError)) and _STRING_AS_DICT.search(str(error))) \
            or _JSON_TEXT.search(str(error)):
        return (_("`call.function.arguments` is a JSON *string* such as `'{\"city\": \"Beijing\"}'`, not a dict: "
                "decode it first, `args = json.loads(call.function.arguments)`, then call `get_weather(**args)`."))
    return _("Your function must run to the end: fix the line named below.")


def _content_hint(tool_msgs: list[dict], expected: dict[str, Any]) -> str:
    """The hint for wrong tool contents; names ``str(result)`` when that is the mistake."""
    if any(m.get("content") == str(expected.get(m.get("tool_call_id"))) for m in tool_msgs):
        return (_("`str(result)` is Python's repr (`{'city': 'Beijing', ...}`: single quotes, `None`/`True`), not "
                "JSON, so the model (or any JSON parser) cannot read it: send `json.dumps(result)` as content "
                "(`{\"city\": \"Beijing\", ...}`)."))
    return _("Run `get_weather(**json.loads(call.function.arguments))` and send `json.dumps(result)` as content.")


@calm_check
def check_tool_call_loop(answer_with_tools: Callable[[Any, str], Any]) -> CheckReport:
    """Run the learner's loop on :data:`QUESTION` and check the conversation it builds.

    Raises:
        CheckFailed: when any sub-check fails (the report lists hints).
    """
    report = CheckReport(_("Exercise 01 · the tool-call loop"), more_help=HINTS.pointer())
    mock = MockLLM()
    client = mock.client(max_retries=0)
    try:
        result = answer_with_tools(client, QUESTION)
    except Exception as e:  # any failure of the learner's code becomes one kind hint
        report.check(_("your function runs to the end"), False, _hint_for(e),
                     error=None if isinstance(e, (NotImplementedError, openai.BadRequestError)) else e)
        return report.finish()
    report.check(_("your function runs to the end"), True, "")
    ok = report.check(_("it returns (answer, messages)"),
                      isinstance(result, tuple) and len(result) == 2 and isinstance(result[1], list),
                      _("Return a pair: `return final_answer_text, messages`."))
    if not ok:
        return report.finish()
    answer, messages = result
    messages = [as_dict(m) for m in messages]
    calls = [c for m in messages if m.get("role") == "assistant" for c in m.get("tool_calls") or []]
    tool_msgs = [m for m in messages if m.get("role") == "tool"]
    in_messages, per_call = _("the assistant's tool_calls message is in `messages`"), _("one tool message per tool_call_id")
    contents, asked = _("tool contents are the real get_weather results (JSON text)"), \
        _("the model was asked again with the results (2 requests)")
    report.check(in_messages, len(calls) == 2,
                 _("Append the assistant message (with both `tool_calls`) to `messages`: "
                 "`messages.append(message)` or its dict form."))
    report.check(per_call,
                 sorted(m.get("tool_call_id") for m in tool_msgs) == sorted(c["id"] for c in calls) and calls,
                 _("Add one `{\"role\": \"tool\", \"tool_call_id\": call.id, \"content\": ...}` per call."),
                 needs=(in_messages,))
    expected = {c["id"]: get_weather(**json.loads(c["function"]["arguments"])) for c in calls}
    report.check(contents,
                 tool_msgs and all(json_or_none(m.get("content")) == expected.get(m.get("tool_call_id")) for m in tool_msgs),
                 _content_hint(tool_msgs, expected), needs=(per_call,))
    chat_requests = [x for x in mock.log if x.path.endswith("/chat/completions") and x.status == 200]
    report.check(asked, len(chat_requests) >= 2,
                 _("After adding the tool messages, call `client.chat.completions.create(...)` again with the "
                 "whole `messages` list: the model writes the answer from the results."))
    report.check(_("the final answer states both cities' temperatures"),
                 isinstance(answer, str) and "Beijing: 22 °C" in answer and "Shanghai: 28 °C" in answer,
                 _("Return the text of the *second* response: `final.choices[0].message.content`."),
                 needs=(contents, asked))   # unread results or no second request: no answer to state them
    return report.finish()
