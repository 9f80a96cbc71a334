"""Fault injection and scripted answers for the mock LLM (the reliability lessons).

A :class:`FaultPlan` holds faults to apply to the next requests, in order. Kinds:

==================== ==========================================================
``rate_limit``       HTTP 429 with a ``Retry-After`` header (``retry_after`` s)
``server_error``     HTTP 500 (optionally with ``Retry-After``)
``latency``          the answer arrives ``seconds`` late
``malformed_arguments`` the first tool call's ``arguments`` is cut-off JSON
``hallucinated_tool`` the first tool call names a tool that was never offered
``missing_required`` the first tool call lacks one required argument
==================== ==========================================================

Over HTTP the same faults can be asked for per request with the header
``X-Mock-Fault: rate_limit; retry_after=2`` (so each client can choose its own).
``seconds`` and ``retry_after`` are checked: finite numbers from 0 to
:data:`MAX_FAULT_SECONDS` (a fault that holds a connection for hours is a hung server,
not a lesson); anything else is a 400 naming the parameter. Taught in lesson 04.
"""
from __future__ import annotations

import json
import math
from collections import deque
from dataclasses import dataclass
from typing import Any

from .errors import MockAPIError

FAULT_KINDS = ("rate_limit", "server_error", "latency", "malformed_arguments", "hallucinated_tool",
               "missing_required")
HTTP_FAULTS = ("rate_limit", "server_error")
MAX_FAULT_SECONDS = 60.0  # the longest injected latency or Retry-After


@dataclass
class Fault:
    """One kind of fault, applied to ``times`` consecutive requests (None = until cleared)."""

    kind: str
    times: int | None = 1
    retry_after: float | None = None
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {self.kind!r}; choose one of {', '.join(FAULT_KINDS)}")
        if self.times is not None and (isinstance(self.times, bool) or not isinstance(self.times, int)
                                       or self.times < 1):
            raise ValueError(f"times must be a positive integer or None (every request), got {self.times!r}")
        for name in ("seconds", "retry_after"):
            value = getattr(self, name)
            if value is None and name == "retry_after":
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                    or not 0 <= value <= MAX_FAULT_SECONDS:
                raise ValueError(f"{name} must be a number of seconds from 0 to {MAX_FAULT_SECONDS:g}, got {value!r}")

    def as_error(self) -> MockAPIError:
        """The HTTP error this fault produces (for ``rate_limit`` and ``server_error``)."""
        headers = {} if self.retry_after is None else {"retry-after": _fmt_seconds(self.retry_after)}
        if self.kind == "rate_limit":
            return MockAPIError("Rate limit reached for requests (injected by the course mock). "
                                "Please try again later.", status=429, code="rate_limit_exceeded", headers=headers)
        return MockAPIError("The server had an error while processing your request (injected by the course "
                            "mock).", status=500, headers=headers)


def _fmt_seconds(s: float) -> str:
    return str(int(s)) if float(s).is_integer() else str(s)


class FaultPlan:
    """The queue of faults a :class:`~course_lib.mock_llm.MockLLM` applies, oldest first."""

    def __init__(self) -> None:
        self._queue: deque[Fault] = deque()

    def add(self, kind: str, times: int | None = 1, *, retry_after: float | None = None,
            seconds: float = 0.0) -> "FaultPlan":
        """Apply fault ``kind`` to the next ``times`` requests (``None``: every request)."""
        self._queue.append(Fault(kind, times, retry_after, seconds))
        return self

    def clear(self) -> None:
        """Remove every pending fault."""
        self._queue.clear()

    def take(self) -> Fault | None:
        """The fault for the request being handled now, if any (consumes one use)."""
        if not self._queue:
            return None
        fault = self._queue[0]
        if fault.times is not None:
            fault.times -= 1
            if fault.times <= 0:
                self._queue.popleft()
        return fault

    def __len__(self) -> int:
        return len(self._queue)

    def __repr__(self) -> str:
        return f"FaultPlan({list(self._queue)})"


def parse_fault_header(value: str) -> Fault:
    """``"rate_limit; retry_after=2"`` -> ``Fault("rate_limit", retry_after=2.0)``.

    Raises:
        MockAPIError: 400 (code ``invalid_fault``) for an empty header, an unknown kind or
            parameter, a parameter given twice, or a value that is not a number of seconds
            from 0 to :data:`MAX_FAULT_SECONDS`.
    """
    parts = [p.strip() for p in value.split(";") if p.strip()]
    if not parts:
        raise _bad_header(f"X-Mock-Fault is empty: name a fault kind ({', '.join(FAULT_KINDS)}), e.g. "
                          "'X-Mock-Fault: rate_limit; retry_after=2'.")
    kind, *params = parts
    kwargs: dict[str, Any] = {}
    for p in params:
        key, eq, raw = (x.strip() for x in p.partition("="))
        if key not in ("retry_after", "seconds") or not eq:
            raise _bad_header(f"Unknown X-Mock-Fault parameter {p!r}: use retry_after=SECONDS or seconds=SECONDS.")
        if key in kwargs:
            raise _bad_header(f"X-Mock-Fault parameter {key!r} is given twice.")
        try:
            kwargs[key] = float(raw)
        except ValueError:
            raise _bad_header(f"X-Mock-Fault parameter {key}={raw!r} is not a number of seconds.") from None
    try:
        return Fault(kind, 1, **kwargs)
    except ValueError as e:
        raise _bad_header(f"X-Mock-Fault: {e}.") from None


def _bad_header(message: str) -> MockAPIError:
    return MockAPIError(message, status=400, param="X-Mock-Fault", code="invalid_fault")


def corrupt_tool_calls(kind: str, calls: list[dict], tools: list[Any]) -> list[dict]:
    """Apply an argument-level fault to the first tool call (a copy is returned)."""
    if not calls:
        return calls
    calls = json.loads(json.dumps(calls))
    first = calls[0]["function"]
    if kind == "malformed_arguments":
        first["arguments"] = first["arguments"][: max(1, len(first["arguments"]) // 2)]
    elif kind == "hallucinated_tool":
        first["name"] = first["name"] + "_v2"
    elif kind == "missing_required":
        args = json.loads(first["arguments"])
        tool = next((t for t in tools if t.name == first["name"]), None)
        required = list((tool.parameters.get("required") if tool else None) or args)
        if required:
            args.pop(required[0], None)
        first["arguments"] = json.dumps(args, ensure_ascii=False)
    return calls


def scripted_decision_parts(item: Any) -> tuple[str | None, list[dict] | None, MockAPIError | None]:
    """Read one scripted response: text, tool calls, or an error.

    Accepted shapes: ``"text"``; ``{"content": "text"}``;
    ``{"tool_calls": [{"name": ..., "arguments": {...} or "raw string"}]}``;
    ``{"error": {"status": 429, "message": ..., "retry_after": 1}}``.
    """
    if isinstance(item, str):
        return item, None, None
    if isinstance(item, dict) and "error" in item:
        e = item["error"]
        headers = {"retry-after": _fmt_seconds(e["retry_after"])} if e.get("retry_after") is not None else {}
        return None, None, MockAPIError(e.get("message", "Scripted error."), status=int(e.get("status", 500)),
                                        code=e.get("code"), headers=headers)
    if isinstance(item, dict) and "tool_calls" in item:
        calls = []
        for c in item["tool_calls"]:
            args = c.get("arguments", {})
            calls.append({"name": c["name"],
                          "arguments": args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)})
        return item.get("content"), calls, None
    if isinstance(item, dict) and "content" in item:
        return item["content"], None, None
    raise ValueError(f"cannot read scripted response {item!r}: use a string, {{'content': ...}}, "
                     "{'tool_calls': [...]} or {'error': {...}}")
