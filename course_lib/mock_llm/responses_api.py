"""The Responses API (``POST /v1/responses``) on top of the same engine.

Differences from Chat Completions that lesson 01 shows side by side: function tools are
*flat* (``{"type": "function", "name", "parameters"}``, no nested ``function``); the
model's calls are ``function_call`` output items with a ``call_id``; results go back as
``{"type": "function_call_output", "call_id", "output"}`` input items. This module maps
a Responses request onto a Chat Completions one, lets the engine decide, and maps the
decision back (streaming events included: the same response id on ``response.created``
and ``response.completed``, which the SDK's helper checks).
"""
from __future__ import annotations

import json
import time
from typing import Any, Iterator

from .completions import count_tokens, seeded_id
from .engine import Decision
from .errors import MockAPIError


def _bad(message: str, param: str | None = None) -> MockAPIError:
    return MockAPIError(message, status=400, param=param, code="invalid_value")


def _content_text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


def to_chat_body(body: Any) -> dict:
    """Map a Responses request body onto an equivalent Chat Completions body.

    Raises:
        MockAPIError: 400 for a missing ``input``, nested (Chat-style) tools, or unknown
            input items.
    """
    if not isinstance(body, dict):
        raise _bad("We could not parse the JSON body of your request: expected a JSON object.")
    if "input" not in body:
        raise MockAPIError("Missing required parameter: 'input'.", param="input", code="missing_required_parameter")
    messages: list[dict] = []
    if body.get("instructions"):
        messages.append({"role": "system", "content": body["instructions"]})
    items = body["input"]
    if isinstance(items, str):
        items = [{"role": "user", "content": items}]
    pending: list[dict] = []
    for i, item in enumerate(items):
        kind = item.get("type", "message")
        if kind == "function_call":
            pending.append({"id": item["call_id"], "type": "function",
                            "function": {"name": item["name"], "arguments": item.get("arguments", "")}})
            continue
        if pending:
            messages.append({"role": "assistant", "content": None, "tool_calls": pending})
            pending = []
        if kind == "function_call_output":
            output = item.get("output")
            messages.append({"role": "tool", "tool_call_id": item["call_id"],
                             "content": output if isinstance(output, str) else json.dumps(output)})
        elif kind == "message":
            messages.append({"role": item.get("role", "user"), "content": _content_text(item.get("content"))})
        else:
            raise _bad(f"Invalid input item type '{kind}' (the course mock supports messages, function_call and "
                       "function_call_output).", f"input[{i}]")
    if pending:
        messages.append({"role": "assistant", "content": None, "tool_calls": pending})
    tools = []
    for i, t in enumerate(body.get("tools") or []):
        if t.get("type") != "function" or "function" in t or "name" not in t:
            raise _bad("Responses API function tools are flat: {\"type\": \"function\", \"name\": ..., "
                       "\"parameters\": ...} (no nested 'function' object).", f"tools[{i}]")
        tools.append({"type": "function", "function": {k: t[k] for k in ("name", "description", "parameters", "strict")
                                                       if k in t}})
    choice = body.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") == "function":
        choice = {"type": "function", "function": {"name": choice.get("name")}}
    chat = {"model": body.get("model"), "messages": messages, "stream": bool(body.get("stream"))}
    if tools:
        chat["tools"] = tools
    if choice is not None and tools:
        chat["tool_choice"] = choice
    if "parallel_tool_calls" in body:
        chat["parallel_tool_calls"] = body["parallel_tool_calls"]
    return chat


def response_object(decision: Decision, *, body: dict, seed: str, prompt_text: str,
                    status: str = "completed", output: list | None = None) -> dict:
    """The ``response`` object for ``decision`` (non-streaming shape)."""
    if output is None:
        output = output_items(decision, seed)
    out_tokens = count_tokens(json.dumps(output))
    in_tokens = count_tokens(prompt_text)
    return {
        "id": seeded_id("resp_", seed, 32), "object": "response", "created_at": int(time.time()),
        "status": status, "model": body.get("model"), "output": output,
        "parallel_tool_calls": body.get("parallel_tool_calls", True), "tool_choice": body.get("tool_choice", "auto"),
        "tools": body.get("tools", []), "error": None, "incomplete_details": None,
        "instructions": body.get("instructions"), "metadata": {}, "temperature": 1.0, "top_p": 1.0,
        "usage": {"input_tokens": in_tokens, "output_tokens": out_tokens, "total_tokens": in_tokens + out_tokens,
                  "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}},
    }


def output_items(decision: Decision, seed: str) -> list[dict]:
    """``function_call`` items for tool calls, or one ``message`` item for text."""
    if decision.tool_calls:
        return [{"type": "function_call", "id": seeded_id("fc_", f"{seed}/{i}"),
                 "call_id": seeded_id("call_", f"{seed}/{i}"), "name": c.name,
                 "arguments": json.dumps(c.arguments, ensure_ascii=False), "status": "completed"}
                for i, c in enumerate(decision.tool_calls)]
    return [{"type": "message", "id": seeded_id("msg_", seed), "role": "assistant", "status": "completed",
             "content": [{"type": "output_text", "text": decision.content or "", "annotations": []}]}]


def stream_events(response: dict) -> Iterator[bytes]:
    """The SSE events of a streamed response, ending with ``response.completed``."""
    seq = 0

    def ev(obj: dict) -> bytes:
        nonlocal seq
        obj["sequence_number"] = seq
        seq += 1
        return f"event: {obj['type']}\ndata: {json.dumps(obj, ensure_ascii=False)}\n\n".encode()

    shell = dict(response, status="in_progress", output=[])
    yield ev({"type": "response.created", "response": shell})
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
            text = item["content"][0]["text"]
            yield ev({"type": "response.output_item.added", "output_index": idx,
                      "item": {**item, "content": [], "status": "in_progress"}})
            yield ev({"type": "response.content_part.added", "item_id": item["id"], "output_index": idx,
                      "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": []}})
            yield ev({"type": "response.output_text.delta", "item_id": item["id"], "output_index": idx,
                      "content_index": 0, "delta": text, "logprobs": []})
            yield ev({"type": "response.output_text.done", "item_id": item["id"], "output_index": idx,
                      "content_index": 0, "text": text, "logprobs": []})
            yield ev({"type": "response.content_part.done", "item_id": item["id"], "output_index": idx,
                      "content_index": 0, "part": item["content"][0]})
        yield ev({"type": "response.output_item.done", "output_index": idx, "item": item})
    yield ev({"type": "response.completed", "response": response})
