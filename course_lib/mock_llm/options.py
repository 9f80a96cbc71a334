"""Every request parameter of Chat Completions and Responses: checked, then honoured or refused.

The OpenAI API refuses a parameter it does not know (``Unrecognized request argument
supplied``), a value of the wrong type (``temperature: "hot"``) and a value out of range
(``max_tokens: -1``) with HTTP 400. The mock does the same, and for each parameter it
knows, it does one of three things, never a silent fourth:

* **honours** it: ``max_tokens``/``max_completion_tokens``/``max_output_tokens`` (the
  answer is cut, ``finish_reason: "length"`` or ``status: "incomplete"``), ``stop``,
  ``max_tool_calls``, ``truncation``, ``response_format``/``text.format``, ``instructions``,
  ``previous_response_id``, ``store``, ``parallel_tool_calls``, ``tool_choice``...;
* **accepts with no effect**, because a deterministic mock has nothing for it to change
  (sampling: ``temperature``, ``top_p``, ``seed``, the penalties, ``logit_bias``; routing
  and bookkeeping: ``user``, ``metadata``, ``service_tier``, ``prompt_cache_key``,
  ``reasoning``, Chat's ``store`` (the mock keeps every exchange in ``MockLLM.log`` anyway), and
  ``include`` values for items it never produces): the value is still checked as the API checks it;
* **refuses** it with a clear 400 ``unsupported_parameter``/``unsupported_value``: what
  the mock cannot produce (``n > 1``, ``logprobs``, audio, predicted outputs, web search,
  background responses, stored prompts, conversations, the deprecated ``functions``).

Sans-IO: a dict in, a :class:`RequestOptions` out. Ranges are the API reference's
(platform.openai.com/docs/api-reference/chat/create and .../responses/create).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import MockAPIError

#: Parameters the wire module itself reads (messages, tools...), per endpoint.
CHAT_CORE = frozenset({"model", "messages", "tools", "tool_choice", "parallel_tool_calls", "stream", "stream_options",
                       "response_format"})
RESPONSES_CORE = frozenset({"model", "input", "instructions", "tools", "tool_choice", "parallel_tool_calls", "stream",
                            "stream_options", "previous_response_id", "store", "text"})


@dataclass(frozen=True)
class RequestOptions:
    """What the request's options change in the answer.

    Attributes:
        max_tokens: the answer's budget in tokens (None: no cap).
        stop: sequences that end the text answer where they first appear.
        max_tool_calls: the most function calls one response may make (Responses).
        truncation: ``"disabled"`` (too long a prompt is a 400) or ``"auto"`` (the oldest
            input items are dropped until it fits; Responses).
        no_effect: the parameters accepted that change nothing (shown by ``explain``/tests).
    """

    max_tokens: int | None = None
    stop: tuple[str, ...] = ()
    max_tool_calls: int | None = None
    truncation: str = "disabled"
    no_effect: tuple[str, ...] = field(default=())


def _bad(message: str, param: str | None, code: str | None = "invalid_value") -> MockAPIError:
    return MockAPIError(message, status=400, param=param, code=code)


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a decimal"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "null"


def _wrong_type(name: str, expected: str, value: Any) -> MockAPIError:
    return _bad(f"Invalid type for '{name}': expected {expected}, but got {_type_name(value)} instead.", name,
                "invalid_type")


def number(name: str, lo: float, hi: float) -> Callable[[Any], None]:
    """A checker for a decimal parameter in ``[lo, hi]``."""
    def check(v: Any) -> None:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise _wrong_type(name, "a decimal", v)
        if v < lo:
            raise _bad(f"Invalid '{name}': decimal below minimum value. Expected a value >= {lo:g}, but got {v} "
                       "instead.", name, "decimal_below_min_value")
        if v > hi:
            raise _bad(f"Invalid '{name}': decimal above maximum value. Expected a value <= {hi:g}, but got {v} "
                       "instead.", name, "decimal_above_max_value")
    return check


def integer(name: str, lo: int | None = None, hi: int | None = None) -> Callable[[Any], None]:
    """A checker for an integer parameter in ``[lo, hi]`` (either bound may be None)."""
    def check(v: Any) -> None:
        if isinstance(v, bool) or not isinstance(v, int):
            raise _wrong_type(name, "an integer", v)
        if lo is not None and v < lo:
            raise _bad(f"Invalid '{name}': integer below minimum value. Expected a value >= {lo}, but got {v} "
                       "instead.", name, "integer_below_min_value")
        if hi is not None and v > hi:
            raise _bad(f"Invalid '{name}': integer above maximum value. Expected a value <= {hi}, but got {v} "
                       "instead.", name, "integer_above_max_value")
    return check


def boolean(name: str) -> Callable[[Any], None]:
    """A checker for a boolean parameter."""
    def check(v: Any) -> None:
        if not isinstance(v, bool):
            raise _wrong_type(name, "a boolean", v)
    return check


def string(name: str, max_len: int = 512) -> Callable[[Any], None]:
    """A checker for a string parameter of at most ``max_len`` characters."""
    def check(v: Any) -> None:
        if not isinstance(v, str):
            raise _wrong_type(name, "a string", v)
        if len(v) > max_len:
            raise _bad(f"Invalid '{name}': string too long. Expected a string with maximum length {max_len}, but got "
                       f"a string with length {len(v)} instead.", name, "string_above_max_length")
    return check


def one_of(name: str, *values: str) -> Callable[[Any], None]:
    """A checker for a parameter that takes one of ``values``."""
    def check(v: Any) -> None:
        if v not in values:
            shown = ", ".join(f"'{x}'" for x in values)
            raise _bad(f"Invalid value: '{v}'. Supported values are: {shown}.", name)
    return check


def _metadata(v: Any) -> None:
    if not isinstance(v, dict):
        raise _wrong_type("metadata", "an object", v)
    if len(v) > 16:
        raise _bad(f"Invalid 'metadata': too many properties. Expected an object with at most 16 properties, but got "
                   f"an object with {len(v)} properties instead.", "metadata", "object_above_max_properties")
    for k, val in v.items():
        if len(k) > 64:
            raise _bad(f"Invalid 'metadata': key '{k[:20]}...' is longer than 64 characters.", "metadata")
        string(f"metadata.{k}", 512)(val)


def _logit_bias(v: Any) -> None:
    if not isinstance(v, dict):
        raise _wrong_type("logit_bias", "an object", v)
    for k, val in v.items():
        number(f"logit_bias.{k}", -100, 100)(val)


def _stop(v: Any) -> None:
    if isinstance(v, str):
        return
    if not isinstance(v, list) or not all(isinstance(s, str) for s in v):
        raise _wrong_type("stop", "a string or an array of strings", v)
    if len(v) > 4:
        raise _bad(f"Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array "
                   f"with length {len(v)} instead.", "stop", "array_above_max_length")


def _modalities(v: Any) -> None:
    if not isinstance(v, list) or not all(isinstance(m, str) for m in v):
        raise _wrong_type("modalities", "an array of strings", v)
    for m in v:
        one_of("modalities", "text", "audio")(m)


def _object(name: str) -> Callable[[Any], None]:
    def check(v: Any) -> None:
        if not isinstance(v, dict):
            raise _wrong_type(name, "an object", v)
    return check


def _unsupported(name: str, why: str) -> Callable[[Any], None]:
    def check(v: Any) -> None:
        raise _bad(f"The course's mock LLM does not support '{name}': {why}", name, "unsupported_parameter")
    return check


def _only(name: str, allowed: Callable[[Any], bool], why: str,
          base: Callable[[Any], None] | None = None) -> Callable[[Any], None]:
    """Check with ``base``, then refuse the values ``allowed`` says no to."""
    def check(v: Any) -> None:
        if base is not None:
            base(v)
        if not allowed(v):
            raise _bad(f"The course's mock LLM does not support this value of '{name}': {why}", name,
                       "unsupported_value")
    return check


_NO_SAMPLING = "a deterministic mock has no sampling to change."
_DETERMINISTIC = ("the mock is deterministic: it makes one answer, with no probabilities behind it. Use a real model "
                  "(OPENAI_BASE_URL, see lesson 00) to see them.")
_SHARED: dict[str, tuple[Callable[[Any], None], bool]] = {
    # name: (checker, has an effect)
    "temperature": (number("temperature", 0, 2), False),
    "top_p": (number("top_p", 0, 1), False),
    "user": (string("user", 512), False),
    "safety_identifier": (string("safety_identifier", 512), False),
    "prompt_cache_key": (string("prompt_cache_key", 1024), False),
    "prompt_cache_retention": (one_of("prompt_cache_retention", "in-memory", "in_memory", "24h"), False),
    "metadata": (_metadata, False),
    "service_tier": (one_of("service_tier", "auto", "default", "flex", "scale", "priority"), False),
    "top_logprobs": (_only("top_logprobs", lambda v: v == 0, _DETERMINISTIC, integer("top_logprobs", 0, 20)), False),
    "moderation": (_unsupported("moderation", "the mock has no moderation models."), False),
    "prompt_cache_options": (_object("prompt_cache_options"), False),
}
CHAT_OPTIONS: dict[str, tuple[Callable[[Any], None], bool]] = {
    **_SHARED,
    "frequency_penalty": (number("frequency_penalty", -2, 2), False),
    "presence_penalty": (number("presence_penalty", -2, 2), False),
    "seed": (integer("seed"), False),
    "logit_bias": (_logit_bias, False),
    "store": (boolean("store"), False),
    "reasoning_effort": (one_of("reasoning_effort", "none", "minimal", "low", "medium", "high", "xhigh"), False),
    "verbosity": (one_of("verbosity", "low", "medium", "high"), False),
    "max_tokens": (integer("max_tokens", 1), True),
    "max_completion_tokens": (integer("max_completion_tokens", 1), True),
    "stop": (_stop, True),
    "n": (_only("n", lambda v: v == 1, "it makes one choice per request (the same request always gets the same "
                "answer, so more choices would be copies). Use n=1.", integer("n", 1, 128)), True),
    "logprobs": (_only("logprobs", lambda v: v is False, _DETERMINISTIC, boolean("logprobs")), False),
    "modalities": (_only("modalities", lambda v: set(v) <= {"text"},
                         "it answers in text only: use [\"text\"] or leave it out.", _modalities), False),
    "audio": (_unsupported("audio", "it answers in text only."), False),
    "prediction": (_unsupported("prediction", "predicted outputs need a real model."), False),
    "web_search_options": (_unsupported("web_search_options", "it has no web search (it runs offline)."), False),
    "functions": (_unsupported("functions", "'functions' is deprecated; send 'tools' (lesson 01)."), False),
    "function_call": (_unsupported("function_call", "'function_call' is deprecated; send 'tool_choice'."), False),
}
_INCLUDABLE = frozenset({
    "file_search_call.results", "web_search_call.results", "web_search_call.action.sources",
    "message.input_image.image_url", "computer_call_output.output.image_url", "code_interpreter_call.outputs",
    "reasoning.encrypted_content",
})  # items the mock never produces, so there is nothing to include: accepted, no effect


def _include(v: Any) -> None:
    if not isinstance(v, list) or not all(isinstance(s, str) for s in v):
        raise _wrong_type("include", "an array of strings", v)
    for s in v:
        if s == "message.output_text.logprobs":
            raise _bad(f"The course's mock LLM does not support this value of 'include': {_DETERMINISTIC}", "include",
                       "unsupported_value")
        if s not in _INCLUDABLE:
            shown = ", ".join(f"'{x}'" for x in sorted(_INCLUDABLE | {"message.output_text.logprobs"}))
            raise _bad(f"Invalid value: '{s}'. Supported values are: {shown}.", "include")


def _reasoning(v: Any) -> None:
    if not isinstance(v, dict):
        raise _wrong_type("reasoning", "an object", v)
    if v.get("effort") is not None:
        one_of("reasoning.effort", "none", "minimal", "low", "medium", "high", "xhigh")(v["effort"])
    for key in ("summary", "generate_summary"):
        if v.get(key) is not None:
            one_of(f"reasoning.{key}", "auto", "concise", "detailed")(v[key])


RESPONSES_OPTIONS: dict[str, tuple[Callable[[Any], None], bool]] = {
    **_SHARED,
    "max_output_tokens": (integer("max_output_tokens", 16), True),
    "max_tool_calls": (integer("max_tool_calls", 1), True),
    "truncation": (one_of("truncation", "auto", "disabled"), True),
    "include": (_include, False),
    "reasoning": (_reasoning, False),
    "background": (_only("background", lambda v: v is False, "it answers at once; background responses need a "
                         "real endpoint.", boolean("background")), False),
    "background_options": (_object("background_options"), False),
    "conversation": (_unsupported("conversation", "it keeps state with previous_response_id only (conversations "
                                  "are not stored)."), False),
    "prompt": (_unsupported("prompt", "stored prompt templates live on a real account."), False),
    "context_management": (_unsupported("context_management", "it does not compact conversations."), False),
    "image": (_unsupported("image", "it answers in text only."), False),
    "access_programs": (_unsupported("access_programs", "it has no access programs."), False),
}


def _unknown(name: str, endpoint: str) -> MockAPIError:
    if endpoint == "responses":
        return _bad(f"Unknown parameter: '{name}'.", name, "unknown_parameter")
    return _bad(f"Unrecognized request argument supplied: {name}", None, None)


def _read(body: dict, table: dict, core: frozenset[str], endpoint: str) -> tuple[dict[str, Any], tuple[str, ...]]:
    given: dict[str, Any] = {}
    no_effect = []
    for name, value in body.items():
        if name in core:
            continue
        if name not in table:
            raise _unknown(name, endpoint)
        if value is None:  # an explicit null means "the default", as in the API
            continue
        check, effective = table[name]
        check(value)
        given[name] = value
        if not effective:
            no_effect.append(name)
    return given, tuple(no_effect)


def chat_options(body: dict) -> RequestOptions:
    """Check every Chat Completions parameter but the conversation's own; return what changes the answer.

    Raises:
        MockAPIError: 400 for an unknown parameter, a wrong type, a value out of range, or a
            parameter the mock refuses (see the module docstring).
    """
    given, no_effect = _read(body, CHAT_OPTIONS, CHAT_CORE, "chat")
    stop = given.get("stop", ())
    return RequestOptions(max_tokens=given.get("max_completion_tokens", given.get("max_tokens")),
                          stop=(stop,) if isinstance(stop, str) else tuple(s for s in stop if s),
                          no_effect=no_effect)


def responses_options(body: dict) -> RequestOptions:
    """The same for a Responses request (``max_output_tokens``, ``max_tool_calls``, ``truncation``...).

    Raises:
        MockAPIError: as :func:`chat_options`, worded as the Responses API words it.
    """
    given, no_effect = _read(body, RESPONSES_OPTIONS, RESPONSES_CORE, "responses")
    return RequestOptions(max_tokens=given.get("max_output_tokens"), max_tool_calls=given.get("max_tool_calls"),
                          truncation=given.get("truncation", "disabled"), no_effect=no_effect)
