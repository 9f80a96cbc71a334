"""The Responses API (``POST /v1/responses``) on top of the same engine.

Differences from Chat Completions that lesson 01 shows side by side: function tools are
*flat* (``{"type": "function", "name", "parameters"}``, no nested ``function``); the
model's calls are ``function_call`` output items with a ``call_id``; results go back as
``{"type": "function_call_output", "call_id", "output"}`` input items; the server keeps
each response, so the next request may send only ``previous_response_id`` and what is new
(:mod:`.response_store`).

:func:`parse_responses_request` checks a request in the Responses API's own terms (items,
``call_id``, ``input[3]``: never Chat roles) and maps it onto a Chat Completions body for the
engine; :func:`response_object` and :func:`stream_events` map the decision back (the same
response id on ``response.created`` and ``response.completed``, which the SDK's helper checks).
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Iterator

from .completions import count_tokens, seeded_id
from .engine import Decision
from .errors import MockAPIError
from .options import RequestOptions, responses_options
from .response_store import ResponseStore
from .structured_output import OutputFormat, read_format

ITEM_TYPES = ("message", "function_call", "function_call_output", "reasoning", "item_reference")
MESSAGE_ROLES = ("user", "system", "developer", "assistant")
TEXT_PARTS = ("input_text", "output_text", "text")
OTHER_PARTS = ("input_image", "input_file", "input_audio", "refusal")


@dataclass
class ResponsesRequest:
    """A checked Responses request.

    Attributes:
        body: the request as sent.
        items: the whole conversation as input items: the stored chain's (when
            ``previous_response_id`` is given), then this request's.
        new_items: how many of ``items`` this request sent.
        chat_body: the equivalent Chat Completions body the engine reads.
        store: whether the response is kept for a later ``previous_response_id``.
        text_format: the checked ``text.format`` (None: plain text).
        text_format_sent: ``text.format`` as sent (``{"type": "text"}`` when not given), echoed in the response.
        options: ``max_output_tokens``, ``max_tool_calls``, ``truncation`` (:mod:`.options`).
    """

    body: dict
    items: list[dict]
    new_items: int
    chat_body: dict
    store: bool = True
    text_format: OutputFormat | None = None
    text_format_sent: dict = field(default_factory=lambda: {"type": "text"})
    options: RequestOptions = field(default_factory=RequestOptions)


def _bad(message: str, param: str | None = None, code: str | None = "invalid_value") -> MockAPIError:
    return MockAPIError(message, status=400, param=param, code=code)


def _type_name(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a decimal", str: "a string", list: "an array",
            dict: "an object", type(None): "null"}.get(type(value), "a value")


def _want(value: Any, kind: type, expected: str, where: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _bad(f"Invalid type for '{where}': expected {expected}, but got {_type_name(value)} instead.", where,
                   "invalid_type")
    return value


def _parts_text(content: list, where: str) -> str:
    texts = []
    for j, p in enumerate(content):
        _want(p, dict, "a content part (an object)", f"{where}[{j}]")
        kind = p.get("type")
        if kind in TEXT_PARTS:
            texts.append(_want(p.get("text"), str, "a string", f"{where}[{j}].text"))
        elif kind == "refusal":
            texts.append(_want(p.get("refusal"), str, "a string", f"{where}[{j}].refusal"))
        elif kind not in OTHER_PARTS:
            shown = ", ".join(f"'{t}'" for t in TEXT_PARTS + OTHER_PARTS)
            raise _bad(f"Invalid value: '{kind}'. Supported values are: {shown}.", f"{where}[{j}].type")
    return "".join(texts)


def _message_item(item: dict, where: str) -> dict:
    role = item.get("role")
    if role not in MESSAGE_ROLES:
        shown = ", ".join(f"'{r}'" for r in MESSAGE_ROLES)
        raise _bad(f"Invalid value: '{role}'. Supported values are: {shown}.", f"{where}.role")
    content = item.get("content")
    if isinstance(content, list):
        _parts_text(content, f"{where}.content")
    elif not isinstance(content, str):
        raise _bad(f"Invalid type for '{where}.content': expected one of a string or an array of content parts, but "
                   f"got {_type_name(content)} instead.", f"{where}.content", "invalid_type")
    return {**item, "type": "message"}


def _call_item(item: dict, where: str) -> dict:
    _want(item.get("call_id"), str, "a string", f"{where}.call_id")
    _want(item.get("name"), str, "a string", f"{where}.name")
    _want(item.get("arguments", ""), str, "a string (the arguments as JSON text)", f"{where}.arguments")
    return item


def _output_item(item: dict, where: str) -> dict:
    _want(item.get("call_id"), str, "a string", f"{where}.call_id")
    output = item.get("output")
    if isinstance(output, list):
        _parts_text(output, f"{where}.output")
    elif not isinstance(output, str):
        raise _bad(f"Invalid type for '{where}.output': expected one of a string or an array of content parts, but got "
                   f"{_type_name(output)} instead.", f"{where}.output", "invalid_type")
    return item


def _input_items(raw: Any, store: ResponseStore) -> list[dict]:
    if isinstance(raw, str):
        return [{"type": "message", "role": "user", "content": raw}]
    if not isinstance(raw, list):
        raise _bad(f"Invalid type for 'input': expected one of a string or an array of input items, but got "
                   f"{_type_name(raw)} instead.", "input", "invalid_type")
    items = []
    for i, item in enumerate(raw):
        where = f"input[{i}]"
        _want(item, dict, "an input item (an object)", where)
        kind = item.get("type", "message")
        if kind == "message":
            items.append(_message_item(item, where))
        elif kind == "function_call":
            items.append(_call_item(item, where))
        elif kind == "function_call_output":
            items.append(_output_item(item, where))
        elif kind == "reasoning":
            items.append(item)  # the mock does not reason: a reasoning item is accepted and carries nothing for it
        elif kind == "item_reference":
            ref = _want(item.get("id"), str, "a string", f"{where}.id")
            found = store.item(ref)
            if found is None:
                raise _bad(f"Item with id '{ref}' not found.", f"{where}.id")
            items.append(found)
        else:
            shown = ", ".join(f"'{t}'" for t in ITEM_TYPES)
            raise _bad(f"Invalid value: '{kind}'. Supported values are: {shown} (the course mock's input items).",
                       f"{where}.type")
    return items


def _check_pairs(items: list[dict]) -> None:
    """Every ``function_call_output`` answers an earlier ``function_call``; every call gets its output."""
    calls: dict[str, int] = {}
    answered: set[str] = set()
    for item in items:
        if item.get("type") == "function_call":
            calls[item["call_id"]] = 1
        elif item.get("type") == "function_call_output":
            if item["call_id"] not in calls:
                raise _bad(f"No tool call found for function call output with call_id {item['call_id']}.", "input",
                           None)
            answered.add(item["call_id"])
    for call_id in calls:
        if call_id not in answered:
            raise _bad(f"No tool output found for function call {call_id}.", "input", None)


def _tools(raw: Any) -> list[dict]:
    if raw is None:
        return []
    _want(raw, list, "an array", "tools")
    tools = []
    for i, t in enumerate(raw):
        _want(t, dict, "an object", f"tools[{i}]")
        if t.get("type") != "function":
            raise _bad(f"The course's mock LLM supports only function tools, not '{t.get('type')}' (built-in tools such "
                       "as web search need a real endpoint).", f"tools[{i}].type", "unsupported_value")
        if "function" in t or "name" not in t:
            raise _bad("Responses API function tools are flat: {\"type\": \"function\", \"name\": ..., "
                       "\"parameters\": ...} (no nested 'function' object, which is the Chat Completions shape).",
                       f"tools[{i}]")
        tools.append({"type": "function", "function": {k: t[k] for k in ("name", "description", "parameters", "strict")
                                                       if k in t and t[k] is not None}})
    return tools


def _tool_choice(choice: Any) -> Any:
    if choice is None or choice in ("auto", "none", "required"):
        return choice
    if isinstance(choice, dict) and choice.get("type") == "function":
        return {"type": "function", "function": {"name": choice.get("name")}}
    raise _bad("Invalid value for 'tool_choice': expected 'none', 'auto', 'required', or {\"type\": \"function\", "
               "\"name\": ...}.", "tool_choice")


def _text_format(text: Any) -> dict:
    if text is None:
        return {"type": "text"}
    _want(text, dict, "an object", "text")
    if text.get("verbosity") is not None and text["verbosity"] not in ("low", "medium", "high"):
        raise _bad(f"Invalid value: '{text['verbosity']}'. Supported values are: 'low', 'medium', 'high'.",
                   "text.verbosity")
    fmt = text.get("format")
    if fmt is None:
        return {"type": "text"}
    _want(fmt, dict, "an object", "text.format")
    return fmt


def chat_messages(items: list[dict], instructions: str | None) -> list[dict]:
    """The conversation of ``items`` as Chat Completions messages (what the engine reads).

    Each run of ``function_call`` items becomes one assistant message with ``tool_calls``,
    followed by the ``tool`` messages of their outputs (wherever those stood after the calls);
    reasoning items carry nothing the mock reads.
    """
    messages: list[dict] = [{"role": "system", "content": instructions}] if instructions else []
    outputs = {it["call_id"]: it for it in items if it.get("type") == "function_call_output"}
    pending: list[dict] = []

    def flush() -> None:
        if not pending:
            return
        messages.append({"role": "assistant", "content": None, "tool_calls": list(pending)})
        for call in pending:
            out = outputs[call["id"]]["output"]
            messages.append({"role": "tool", "tool_call_id": call["id"],
                             "content": out if isinstance(out, str) else _parts_text(out, "output")})
        pending.clear()

    for item in items:
        kind = item.get("type", "message")
        if kind == "function_call":
            pending.append({"id": item["call_id"], "type": "function",
                            "function": {"name": item["name"], "arguments": item.get("arguments", "")}})
            continue
        flush()
        if kind == "message":
            content = item["content"]
            messages.append({"role": item["role"],
                             "content": content if isinstance(content, str) else _parts_text(content, "content")})
    flush()
    return messages


def _truncated(items: list[dict], instructions: str | None, budget: int) -> list[dict]:
    """``truncation: "auto"``: drop the oldest items (a call with its output) until the prompt fits ``budget``.

    The shortest dropped prefix is found by bisection over where the kept items start (the
    prompt only shrinks as the start moves on), so a long conversation costs O(n log n)
    token counts, not one count per dropped item (a 1.2 MB input of 8,000 messages took
    212 s item by item). At least the last item is kept; the context check after it refuses
    a conversation whose last item alone is too long.
    """
    def fits(start: int) -> bool:
        return count_tokens(json.dumps(chat_messages(_kept_from(items, start), instructions),
                                       ensure_ascii=False)) <= budget

    if len(items) <= 1 or fits(0):
        return items
    lo, hi = 1, len(items) - 1  # the answer lies in [lo, hi]: hi is kept even when it does not fit
    while lo < hi:
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid + 1
    return _kept_from(items, lo)


def _kept_from(items: list[dict], start: int) -> list[dict]:
    """``items[start:]`` without the outputs of dropped calls, and not starting with an output."""
    dropped = {it.get("call_id") for it in items[:start] if it.get("type") == "function_call"}
    kept = [it for it in items[start:]
            if not (it.get("type") == "function_call_output" and it.get("call_id") in dropped)]
    first = next((i for i, it in enumerate(kept) if it.get("type") != "function_call_output"), len(kept))
    return kept[first:]


def _check_top_level(body: Any) -> None:
    """The request's own fields (``model``, ``input``, ``instructions``, the booleans), in the API's order."""
    if not isinstance(body, dict):
        raise _bad("We could not parse the JSON body of your request: expected a JSON object.", None, None)
    if not body.get("model"):
        raise _bad("Missing required parameter: 'model'.", "model", "missing_required_parameter")
    _want(body["model"], str, "a string", "model")
    if "input" not in body:
        raise _bad("Missing required parameter: 'input'.", "input", "missing_required_parameter")
    if body.get("instructions") is not None:
        _want(body["instructions"], str, "a string", "instructions")
    for name in ("store", "stream", "parallel_tool_calls"):
        if body.get(name) is not None:
            _want(body[name], bool, "a boolean", name)
    if body.get("stream_options") is not None and not body.get("stream"):
        raise _bad("The 'stream_options' parameter is only allowed when 'stream' is enabled.", "stream_options")


def _chat_body(body: dict[str, Any], items: list[dict], instructions: str | None) -> dict[str, Any]:
    """The Chat Completions body the engine answers: the items as messages, the tools flattened back."""
    tools = _tools(body.get("tools"))
    chat: dict[str, Any] = {"model": body["model"], "messages": chat_messages(items, instructions) or
                            [{"role": "user", "content": ""}], "stream": bool(body.get("stream"))}
    if tools:
        chat["tools"] = tools
        choice = _tool_choice(body.get("tool_choice"))
        if choice is not None:
            chat["tool_choice"] = choice
    elif body.get("tool_choice") not in (None, "auto", "none"):
        raise _bad("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
                   "tool_choice")
    if body.get("parallel_tool_calls") is not None:
        chat["parallel_tool_calls"] = body["parallel_tool_calls"]
    return chat


def parse_responses_request(body: Any, store: ResponseStore, max_context_tokens: int | None = None
                            ) -> ResponsesRequest:
    """Check a Responses request and resolve its conversation (``previous_response_id`` included).

    Args:
        body: the decoded JSON body of ``POST /v1/responses``.
        store: the server's stored responses.
        max_context_tokens: the context limit, for ``truncation: "auto"`` (None: no truncation).

    Returns:
        A :class:`ResponsesRequest`.

    Raises:
        MockAPIError: 400 in the Responses API's terms: a missing or mistyped ``model`` or
            ``input``; an unknown item type or role; ``No tool call found for function call
            output with call_id ...``; ``No tool output found for function call ...``; a
            nested (Chat-style) or built-in tool; an unknown ``previous_response_id``
            (``previous_response_not_found``); and every parameter
            :func:`~.options.responses_options` refuses.
    """
    _check_top_level(body)
    options = responses_options(body)
    instructions = body.get("instructions")
    earlier: list[dict] = []
    if body.get("previous_response_id") is not None:
        prev = _want(body["previous_response_id"], str, "a string", "previous_response_id")
        earlier = list(store.get(prev).history)
    new = _input_items(body["input"], store)
    items = earlier + new
    _check_pairs(items)
    if options.truncation == "auto" and max_context_tokens:
        items = _truncated(items, instructions, max_context_tokens)
    chat = _chat_body(body, items, instructions)
    sent = _text_format(body.get("text"))
    fmt = read_format(sent, where="text.format", flat=True)
    if fmt is not None and fmt.kind == "json_object" and not any(
            "json" in (m.get("content") or "").lower() for m in chat["messages"]):
        raise _bad("Response input messages must contain the word 'json' in some form to use 'text.format' of type "
                   "'json_object'.", "input")
    return ResponsesRequest(body, items, len(new), chat, store=body.get("store") is not False, text_format=fmt,
                            text_format_sent=sent, options=options)


def as_responses_error(error: MockAPIError) -> MockAPIError:
    """An error of the Chat checks, named in the Responses API's terms (``tools[0].parameters``, ``input``)."""
    param = error.param or ""
    if param.startswith("tools["):
        error.param = param.replace(".function.", ".", 1)
    elif param.startswith("messages"):
        error.param = "input"
        error.message = error.message.replace("messages", "input items")
    return error


def response_object(decision: Decision, *, body: dict, seed: str, prompt_text: str,
                    status: str = "completed", output: list | None = None, text_format: dict | None = None,
                    incomplete: str | None = None) -> dict:
    """The ``response`` object for ``decision`` (non-streaming shape).

    ``incomplete`` is the reason the answer was cut (``"max_output_tokens"``): the status is
    then ``"incomplete"`` with ``incomplete_details``, as in the API.
    """
    if output is None:
        output = output_items(decision, seed)
    out_tokens = count_tokens(json.dumps(output))
    in_tokens = count_tokens(prompt_text)
    return {
        "id": seeded_id("resp_", seed, 32), "object": "response", "created_at": int(time.time()),
        "status": "incomplete" if incomplete else status, "model": body.get("model"), "output": output,
        "parallel_tool_calls": body.get("parallel_tool_calls", True), "tool_choice": body.get("tool_choice", "auto"),
        "tools": body.get("tools") or [], "error": None,
        "incomplete_details": {"reason": incomplete} if incomplete else None,
        "instructions": body.get("instructions"), "metadata": body.get("metadata") or {},
        "temperature": body.get("temperature", 1.0), "top_p": body.get("top_p", 1.0),
        "previous_response_id": body.get("previous_response_id"), "store": body.get("store") is not False,
        "max_output_tokens": body.get("max_output_tokens"), "max_tool_calls": body.get("max_tool_calls"),
        "truncation": body.get("truncation") or "disabled", "user": body.get("user"),
        "text": {"format": text_format or {"type": "text"}},
        "usage": {"input_tokens": in_tokens, "output_tokens": out_tokens, "total_tokens": in_tokens + out_tokens,
                  "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}},
    }


def output_items(decision: Decision, seed: str, text: str | None = None, refusal: str | None = None) -> list[dict]:
    """``function_call`` items for tool calls, or one ``message`` item (text, or a refusal part)."""
    if decision.tool_calls:
        return [{"type": "function_call", "id": seeded_id("fc_", f"{seed}/{i}"),
                 "call_id": seeded_id("call_", f"{seed}/{i}"), "name": c.name,
                 "arguments": json.dumps(c.arguments, ensure_ascii=False), "status": "completed"}
                for i, c in enumerate(decision.tool_calls)]
    part = ({"type": "refusal", "refusal": refusal} if refusal is not None else
            {"type": "output_text", "text": (decision.content or "") if text is None else text, "annotations": []})
    return [{"type": "message", "id": seeded_id("msg_", seed), "role": "assistant", "status": "completed",
             "content": [part]}]


def stream_events(response: dict) -> Iterator[bytes]:
    """The SSE events of a streamed response, ending with ``response.completed`` (or ``.incomplete``)."""
    seq = 0

    def ev(obj: dict) -> bytes:
        nonlocal seq
        obj["sequence_number"] = seq
        seq += 1
        return f"event: {obj['type']}\ndata: {json.dumps(obj, ensure_ascii=False)}\n\n".encode()

    shell = dict(response, status="in_progress", output=[], incomplete_details=None)
    yield ev({"type": "response.created", "response": shell})
    yield ev({"type": "response.in_progress", "response": shell})
    for idx, item in enumerate(response["output"]):
        if item["type"] == "function_call":
            yield ev({"type": "response.output_item.added", "output_index": idx,
                      "item": {**item, "arguments": "", "status": "in_progress"}})
            args = item["arguments"]
            for j in range(0, len(args), 12):
                yield ev({"type": "response.function_call_arguments.delta", "item_id": item["id"],
                          "output_index": idx, "delta": args[j : j + 12]})
            yield ev({"type": "response.function_call_arguments.done", "item_id": item["id"], "output_index": idx,
                      "arguments": args, "name": item["name"]})
        else:
            yield from (ev(e) for e in _message_events(item, idx))
        yield ev({"type": "response.output_item.done", "output_index": idx, "item": item})
    final = "response.incomplete" if response["status"] == "incomplete" else "response.completed"
    yield ev({"type": final, "response": response})


def _message_events(item: dict, idx: int) -> Iterator[dict]:
    part = item["content"][0]
    where = {"item_id": item["id"], "output_index": idx, "content_index": 0}
    yield {"type": "response.output_item.added", "output_index": idx,
           "item": {**item, "content": [], "status": "in_progress"}}
    if part["type"] == "refusal":
        yield {"type": "response.content_part.added", **where, "part": {"type": "refusal", "refusal": ""}}
        yield {"type": "response.refusal.delta", **where, "delta": part["refusal"]}
        yield {"type": "response.refusal.done", **where, "refusal": part["refusal"]}
    else:
        text = part["text"]
        yield {"type": "response.content_part.added", **where,
               "part": {"type": "output_text", "text": "", "annotations": []}}
        for j in range(0, max(len(text), 1), 48):
            yield {"type": "response.output_text.delta", **where, "delta": text[j : j + 48], "logprobs": []}
        yield {"type": "response.output_text.done", **where, "text": text, "logprobs": []}
    yield {"type": "response.content_part.done", **where, "part": part}
