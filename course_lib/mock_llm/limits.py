"""The mock LLM's limits on what it reads and keeps, answered as the OpenAI API answers.

A server a learner can crash with one request teaches the wrong lesson (lessons 04 and 05
are about exactly that). So, before the engine sees a request:

=============================== ======================== ==========================================
limit                           default                  answer when passed
=============================== ======================== ==========================================
``max_request_bytes``           4 MiB (4,194,304 B)      413, ``request_too_large``
``max_json_depth``              64 nested arrays/objects 400, ``invalid_json``
``max_context_tokens``          128,000 (gpt-4o-mini's)  400, ``context_length_exceeded``
lone surrogates in strings      refused                  400, ``invalid_value`` (not valid Unicode)
``MAX_TOOLS``                   128 (the API's limit)    400, ``array_above_max_length``
``MAX_SCHEMA_OBJECTS``          5,000 JSON objects       400, ``schema_too_large``
=============================== ======================== ==========================================

(the last two are module constants, not :class:`Limits` fields; the schema count is over all of
a request's tool ``parameters`` and its ``response_format`` / ``text.format`` schema together).
JSON *text* inside a message (a tool result, a call's ``arguments``) nests at most as deep as the
default ``max_json_depth`` too: 400 ``invalid_value`` naming the field (``wire.MAX_TEXT_JSON_DEPTH``).

and, for what the mock keeps between requests:

=============================== ======================== ==========================================
``log_limit`` / ``log_bytes``   500 exchanges / 32 MiB   the oldest exchanges are dropped
``store_limit`` / ``store_bytes`` 1,000 responses / 64 MiB the oldest stored responses are dropped
=============================== ======================== ==========================================

Set the :class:`Limits` with ``MockLLM(limits=Limits(max_request_bytes=...))`` or ``course llm serve
--max-request-bytes N --max-context-tokens N``. Tokens are counted as the mock counts them
everywhere (4 characters a token, :func:`~.completions.count_tokens`).

Every check here is linear in the size of the body and never recurses, so a body nested
3,000 levels deep is refused instead of raising ``RecursionError``. The schema cap exists
because checking a schema against the JSON Schema 2020-12 meta-schema (``jsonschema``) costs
about 1.7 ms per property on a 2-core laptop: 5,000 objects (OpenAI's own published limit for
strict schemas is 5,000 object properties) is a few seconds at worst, once per tool list.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .errors import MockAPIError

MiB = 1024 * 1024
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Limits:
    """What one :class:`~.server.MockLLM` accepts and keeps (bytes, counts and tokens)."""

    max_request_bytes: int = 4 * MiB
    max_json_depth: int = 64
    max_context_tokens: int = 128_000
    log_limit: int = 500
    log_bytes: int = 32 * MiB
    store_limit: int = 1000
    store_bytes: int = 64 * MiB

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"Limits.{name} must be a positive integer, got {value!r}")


def too_large(size: int, limits: Limits) -> MockAPIError:
    """The 413 for a body of ``size`` bytes."""
    return MockAPIError(f"Request too large: the body is {size:,} bytes and the course mock accepts at most "
                        f"{limits.max_request_bytes:,} (MockLLM(limits=Limits(max_request_bytes=...)) or "
                        "course llm serve --max-request-bytes N).", status=413, code="request_too_large")


def decode_body(body: bytes, limits: Limits) -> Any:
    """The JSON value of a request body, checked against ``limits``.

    Args:
        body: the raw body (UTF-8 JSON; empty means ``null``).
        limits: the server's :class:`Limits`.

    Returns:
        The decoded value (any JSON value: the endpoint checks its shape).

    Raises:
        MockAPIError: 413 for a body over ``max_request_bytes``; 400 for a body that is not
            UTF-8 JSON, nests deeper than ``max_json_depth``, or holds a lone surrogate
            (``"\\ud800"``), with ``param`` naming where.
    """
    if len(body) > limits.max_request_bytes:
        raise too_large(len(body), limits)
    try:
        value = json.loads(body.decode("utf-8") or "null")
    except RecursionError:
        raise _too_deep(limits) from None
    except (UnicodeDecodeError, ValueError) as e:
        raise MockAPIError(f"We could not parse the JSON body of your request ({e}). The body must be "
                           "UTF-8 JSON.", code="invalid_json") from None
    if _SURROGATE_ESCAPE.search(body) is not None or nests_deeper(body, limits.max_json_depth, valid_json=True):
        check_tree(value, limits.max_json_depth)  # the walk that names where
    return value


#: A lone surrogate can only come from a ``\uD800``-``\uDFFF`` escape: UTF-8 cannot encode one.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89abcdefABCDEF]")
#: A JSON string token, written as an unrolled loop (runs of plain bytes between escapes): the same
#: matches as ``"(?:[^"\\]|\\.)*"`` at a fifth of the cost (one alternation per byte is what made a
#: 20-tool request's depth check 0.3 ms).
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_NOT_BRACKETS_OR_QUOTES = bytes(b for b in range(256) if b not in b'[]{}"')
_ONE_BRACKET_KIND = bytes.maketrans(b"{}", b"[]")


def _brackets_outside_strings(body: bytes, valid_json: bool) -> bytes:
    """The brackets of ``body`` outside its JSON string tokens, in order (what
    ``_JSON_STRING.sub(b"", body)`` leaves of ``[]{}``), by splitting at quotes.

    Without a backslash every ``"`` delimits a string, so once all but brackets and quotes are
    dropped the pieces between quotes alternate outside, inside (an odd last quote opens nothing:
    the rest stays). In valid JSON an escape is a backslash and one byte, so dropping the escaped
    backslashes, then the escaped quotes, leaves only delimiters. Other text with a backslash goes
    through the regex. On a 20-tool body this costs a tenth of the regex.
    """
    if b"\\" in body:
        if not valid_json:
            return _JSON_STRING.sub(b"", body).translate(None, _NOT_BRACKETS)
        body = body.replace(b"\\\\", b"").replace(b'\\"', b"")
    pieces = body.translate(None, _NOT_BRACKETS_OR_QUOTES).split(b'"')
    outside = pieces[::2]
    if len(pieces) % 2 == 0:  # an odd number of quotes: the last one opens no string
        outside.append(pieces[-1])
    return b"".join(outside)


def _balanced_deeper(brackets: bytes, max_depth: int) -> bool:
    """Whether the balanced, well-nested ``brackets`` nest more than ``max_depth`` deep.

    Every ``[]`` left after the kinds are made one is an innermost pair, so one ``replace`` takes a
    level off every nest: what is left after ``max_depth`` of them was deeper (no loop per bracket).
    """
    nest = brackets.translate(_ONE_BRACKET_KIND)
    for _ in range(max_depth):
        if not nest:
            return False
        nest = nest.replace(b"[]", b"")
    return bool(nest)


def nests_deeper(body: bytes, max_depth: int, valid_json: bool = False) -> bool:
    """Whether the JSON text ``body`` nests arrays and objects more than ``max_depth`` deep.

    Fewer opening brackets than the limit cannot nest deeper (the usual request: answered by
    two ``bytes.count``); otherwise the brackets outside strings are counted. ``valid_json``: the
    caller parsed ``body`` already, so its brackets are balanced and its escapes well formed (faster
    exact ways, :func:`_brackets_outside_strings` and :func:`_balanced_deeper`).
    """
    if body.count(b"{") + body.count(b"[") <= max_depth:
        return False
    brackets = _brackets_outside_strings(body, valid_json)
    if valid_json:
        return _balanced_deeper(brackets, max_depth)
    depth = 0
    for c in brackets:
        depth += 1 if c in (91, 123) else -1  # "[" and "{"
        if depth > max_depth:
            return True
    return False


def _too_deep(limits: Limits, where: str | None = None) -> MockAPIError:
    return MockAPIError(f"Invalid JSON body: arrays and objects nest more than {limits.max_json_depth} levels deep"
                        f"{f' (at {where})' if where else ''}; the course mock refuses deeper bodies "
                        "(MockLLM(limits=Limits(max_json_depth=...))).", param=where, code="invalid_json")


def check_tree(value: Any, max_depth: int) -> None:
    """Walk a decoded JSON value once (no recursion): depth at most ``max_depth``, no lone surrogates.

    Raises:
        MockAPIError: 400 naming the path of the first offending node.
    """
    stack: list[tuple[Any, int, tuple]] = [(value, 0, ())]
    while stack:
        node, depth, path = stack.pop()
        if isinstance(node, str):
            if _SURROGATE.search(node):
                _lone_surrogate(path)
            continue
        if not isinstance(node, (dict, list)):
            continue
        if depth >= max_depth:
            raise _too_deep(Limits(max_json_depth=max_depth), json_path(path))
        if isinstance(node, dict):
            for k, v in node.items():
                if _SURROGATE.search(k):
                    _lone_surrogate(path + (k,))
                stack.append((v, depth + 1, path + (k,)))
        else:
            stack.extend((v, depth + 1, path + (i,)) for i, v in enumerate(node))


def _lone_surrogate(path: tuple) -> None:
    where = json_path(path) or "the body"
    raise MockAPIError(f"Invalid value for '{where}': the string holds a lone UTF-16 surrogate (such as \\ud800), "
                       "which is not valid Unicode text. Send UTF-8 text, and escape only complete surrogate pairs.",
                       param=json_path(path) or None, code="invalid_value")


def json_path(path: tuple) -> str:
    """``("messages", 0, "content")`` -> ``"messages[0].content"`` (the API's way of naming a field)."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


#: The most tools one request may offer (the OpenAI API's limit, on both APIs).
MAX_TOOLS = 128
#: The most JSON objects (subschemas, ``properties`` maps...) the schemas of one request may hold
#: together: its tools' ``parameters`` and its ``response_format`` / ``text.format`` schema.
MAX_SCHEMA_OBJECTS = 5000


def check_tool_count(tools: list) -> None:
    """Refuse more than :data:`MAX_TOOLS` tools with the API's 400 (``array_above_max_length``)."""
    if len(tools) > MAX_TOOLS:
        raise MockAPIError(f"Invalid 'tools': array too long. Expected an array with maximum length {MAX_TOOLS}, but "
                           f"got an array with length {len(tools)} instead.", param="tools",
                           code="array_above_max_length")


def check_schema_size(schemas: list, where: str, limit: int = MAX_SCHEMA_OBJECTS) -> None:
    """Refuse schemas holding more than ``limit`` JSON objects together, before any costly check.

    The walk is iterative and stops as soon as the count passes ``limit``: O(limit) at most.

    Raises:
        MockAPIError: 400 ``schema_too_large`` with ``param`` ``where``.
    """
    count, stack = 0, list(schemas)
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            count += 1
            if count > limit:
                raise MockAPIError(f"Invalid '{where}': the schemas of this request hold more than {limit:,} JSON "
                                   f"objects (subschemas and properties maps). The course mock checks at most "
                                   f"{limit:,} per request (OpenAI allows up to 5,000 object properties in a strict "
                                   "schema): split the tools, or offer fewer at a time.", param=where,
                                   code="schema_too_large")
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def check_context(tokens: int, limits: Limits, what: str = "messages") -> None:
    """Refuse a prompt of ``tokens`` over ``max_context_tokens`` with the API's 400.

    Raises:
        MockAPIError: 400 ``context_length_exceeded``, worded as the OpenAI API words it.
    """
    if tokens > limits.max_context_tokens:
        raise MockAPIError(f"This model's maximum context length is {limits.max_context_tokens} tokens. However, your "
                           f"{what} resulted in {tokens} tokens. Please reduce the length of the {what}.",
                           param=what, code="context_length_exceeded")


class BoundedCache:
    """A least-recently-used cache bounded in entries *and* bytes, safe to share between threads.

    The wire keeps validated tools and their canonical JSON keyed by the tools' JSON text, so an
    agent that sends the same tools with every request pays for checking them once. Keyed by text,
    a cache bounded only in entries could hold hundreds of megabytes of someone's huge tool lists;
    this one drops its oldest entries past ``max_bytes`` (each counted as ``size`` given to
    :meth:`put`, the length of its key by default) and never keeps one entry over a quarter of it.

    Args:
        max_items: the most entries kept.
        max_bytes: the most bytes kept.
    """

    def __init__(self, max_items: int, max_bytes: int = 16 * MiB) -> None:
        from collections import OrderedDict
        import threading

        self.max_items, self.max_bytes, self.bytes = max_items, max_bytes, 0
        self._data: "OrderedDict[str, tuple[Any, int]]" = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        """The value cached under ``key`` (now the most recent), or None."""
        with self._lock:
            hit = self._data.get(key)
            if hit is None:
                return None
            self._data.move_to_end(key)
            return hit[0]

    def put(self, key: str, value: Any, size: int | None = None) -> None:
        """Cache ``value`` under ``key``; entries over a quarter of ``max_bytes`` are not kept."""
        size = len(key) if size is None else size
        if size > self.max_bytes // 4:
            return
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._data[key] = (value, size)
            self.bytes += size
            while self._data and (len(self._data) > self.max_items or self.bytes > self.max_bytes):
                _, (_, dropped) = self._data.popitem(last=False)
                self.bytes -= dropped

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            self._data.clear()
            self.bytes = 0
