"""Turning a :class:`~.engine.Decision` into Chat Completions JSON and SSE chunks.

Wire facts the SDK relies on (read in ``openai``'s stream helpers): ``arguments`` is a JSON
*string*; every streamed tool-call delta carries its ``index``; the first delta of a
call has its ``id`` and function ``name``, later ones only argument fragments; the last
chunk has ``finish_reason`` and the stream ends with ``data: [DONE]``.

Ids are derived from the request (a hash), so the same request gets the same ids, which
keeps lesson outputs reproducible. Taught in lesson 01.
"""
from __future__ import annotations

import hashlib
import json
import time
from typing import Any, Iterator

from .engine import Decision
from .options import RequestOptions

_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
ARGUMENT_FRAGMENT = 12  # characters of ``arguments`` per streamed delta
TEXT_FRAGMENT = 3  # words of ``content`` per streamed delta


def seeded_id(prefix: str, seed: str, n: int = 24) -> str:
    """A deterministic id such as ``call_`` + 24 base62 characters derived from ``seed``."""
    digest = int.from_bytes(hashlib.sha256(seed.encode()).digest(), "big")
    chars = []
    for _ in range(n):
        digest, r = divmod(digest, 62)
        chars.append(_ALPHABET[r])
    return prefix + "".join(chars)


def count_tokens(text: str) -> int:
    """A rough token count (4 characters per token), for the ``usage`` block."""
    return max(1, len(text) // 4)


def tool_calls_json(decision: Decision, seed: str) -> list[dict]:
    """The ``tool_calls`` array of an assistant message, with seeded ids."""
    return [
        {
            "id": seeded_id("call_", f"{seed}/{i}"),
            "type": "function",
            "function": {"name": c.name, "arguments": json.dumps(c.arguments, ensure_ascii=False)},
        }
        for i, c in enumerate(decision.tool_calls)
    ]


def cut_text(text: str, options: RequestOptions) -> tuple[str, str | None]:
    """``text`` as ``stop`` and the token budget leave it, and why it ends early.

    Returns:
        ``(text, None)`` when nothing cut it, ``(shorter, "stop")`` when a stop sequence
        did (the sequence itself is not included, as in the API), ``(shorter, "length")``
        when the budget of ``max_tokens`` (4 characters a token) ran out first.
    """
    cuts = [text.find(s) for s in options.stop if s in text]
    if cuts:
        return text[: min(cuts)], "stop"
    if options.max_tokens is not None and count_tokens(text) > options.max_tokens:
        return text[: options.max_tokens * 4], "length"
    return text, None


def cut_calls(calls: list[dict], options: RequestOptions) -> tuple[list[dict], bool]:
    """The tool calls that fit the token budget; the last one may stop mid-``arguments``, as a real model's does.

    Returns:
        ``(calls, cut)``: ``cut`` is True when the budget ran out (``finish_reason: "length"``).
    """
    if options.max_tokens is None:
        return calls, False
    budget, kept = options.max_tokens * 4, []
    for call in calls:
        args = call["function"]["arguments"]
        if len(args) > budget:
            kept.append({**call, "function": {**call["function"], "arguments": args[:budget]}})
            return kept, True
        budget -= len(args)
        kept.append(call)
    return kept, False


def chat_completion(decision: Decision, *, model: str, seed: str, prompt_text: str,
                    tool_calls: list[dict] | None = None, options: RequestOptions | None = None,
                    structured: Any = None) -> dict:
    """A complete ``chat.completion`` object for ``decision``.

    Args:
        decision: what the engine decided.
        model: echoed in the response's ``model`` field.
        seed: a string derived from the request; ids are hashed from it.
        prompt_text: the request's text, for the token counts in ``usage``.
        tool_calls: pre-built ``tool_calls`` (fault injection passes altered ones).
        options: the request's ``max_tokens``/``stop`` (:mod:`.options`); they cut the answer
            and set ``finish_reason`` to ``"length"`` or ``"stop"``.
        structured: a :class:`~.structured_output.StructuredAnswer` for a ``response_format``
            request answered in text: its JSON becomes the ``content``, or its ``refusal``
            the message's ``refusal`` (``content`` null).

    Returns:
        The JSON object the API returns for a non-streaming request.
    """
    options = options or RequestOptions()
    calls = tool_calls if tool_calls is not None else tool_calls_json(decision, seed)
    calls, cut = cut_calls(calls, options)
    text = decision.content
    refusal = None
    if structured is not None and not calls:
        text, refusal = structured.content, structured.refusal
    content, ended = (None, None) if calls or text is None else cut_text(text, options)
    finish = "length" if cut or ended == "length" else ("tool_calls" if calls else "stop")
    message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": refusal, "annotations": []}
    if calls:
        message["tool_calls"] = calls
    completion_text = content or refusal or json.dumps(calls)
    prompt_tokens, completion_tokens = count_tokens(prompt_text), count_tokens(completion_text)
    return {
        "id": seeded_id("chatcmpl-", seed, 29),
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
        "system_fingerprint": "fp_course_mock",
    }


def stream_chunks(completion: dict, *, include_usage: bool = False) -> Iterator[dict]:
    """The ``chat.completion.chunk`` objects that stream ``completion``.

    Each tool call starts with a delta carrying ``index``, ``id``, ``type`` and the
    function ``name`` (empty ``arguments``), followed by deltas of
    :data:`ARGUMENT_FRAGMENT` characters of ``arguments``, each with the same ``index``.
    """
    base = {k: completion[k] for k in ("id", "created", "model", "system_fingerprint")}
    base["object"] = "chat.completion.chunk"
    choice = completion["choices"][0]
    msg = choice["message"]

    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {**base, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}

    yield chunk({"role": "assistant", "content": "" if not msg.get("tool_calls") else None, "refusal": None})
    if msg.get("refusal"):
        words = msg["refusal"].split(" ")
        for j in range(0, len(words), TEXT_FRAGMENT):
            piece = " ".join(words[j : j + TEXT_FRAGMENT])
            yield chunk({"refusal": piece if j == 0 else " " + piece})
    for i, call in enumerate(msg.get("tool_calls") or []):
        yield chunk({"tool_calls": [{"index": i, "id": call["id"], "type": "function",
                                     "function": {"name": call["function"]["name"], "arguments": ""}}]})
        args = call["function"]["arguments"]
        for j in range(0, len(args), ARGUMENT_FRAGMENT):
            yield chunk({"tool_calls": [{"index": i, "function": {"arguments": args[j : j + ARGUMENT_FRAGMENT]}}]})
    if msg.get("content"):
        words = msg["content"].split(" ")
        for j in range(0, len(words), TEXT_FRAGMENT):
            piece = " ".join(words[j : j + TEXT_FRAGMENT])
            yield chunk({"content": piece if j == 0 else " " + piece})
    yield chunk({}, choice["finish_reason"])
    if include_usage:
        yield {**base, "choices": [], "usage": completion["usage"]}


def sse_lines(chunks: Iterator[dict]) -> Iterator[bytes]:
    """Server-sent events framing: ``data: {json}\\n\\n`` per chunk, then ``data: [DONE]``."""
    for c in chunks:
        yield b"data: " + json.dumps(c, ensure_ascii=False).encode() + b"\n\n"
    yield b"data: [DONE]\n\n"
