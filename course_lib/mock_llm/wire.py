"""Validation of Chat Completions requests, sans-IO: a dict in, a :class:`ChatRequest` out.

The real API refuses malformed conversations with HTTP 400 and a precise message. The
mock does the same, so learners meet the real rules early: a ``tool`` message must
answer a ``tool_call_id`` of the assistant message right before it, every tool call
must be answered before the conversation goes on, tool schemas must be valid JSON
Schema, and strict tools must follow strict mode (:mod:`course_lib.strict_mode`).

Every function here is pure: no sockets, no clocks. Taught in lesson 01.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from ..strict_mode import strict_violations
from .docstrings import with_parameter_docs
from .errors import MockAPIError
from .limits import BoundedCache, Limits, check_schema_size, check_tool_count, nests_deeper
from .options import RequestOptions, chat_options
from .structured_output import OutputFormat, read_format, require_json_word

ROLES = ("system", "developer", "user", "assistant", "tool", "function")
NAME_PATTERN = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


@dataclass(frozen=True)
class ToolSpec:
    """One function tool as the model sees it (Chat Completions ``tools[i].function``)."""

    name: str
    description: str
    parameters: dict
    strict: bool = False


@dataclass
class ChatRequest:
    """A validated Chat Completions request.

    ``tool_choice`` is normalised to ``"auto"``, ``"none"``, ``"required"`` or the name
    of the forced function.
    """

    model: str
    messages: list[dict]
    tools: list[ToolSpec] = field(default_factory=list)
    tool_choice: str = "auto"
    forced_tool: str | None = None
    parallel_tool_calls: bool = True
    stream: bool = False
    include_usage: bool = False
    options: RequestOptions = field(default_factory=RequestOptions)
    response_format: OutputFormat | None = None

    def tool(self, name: str) -> ToolSpec | None:
        """The tool called ``name``, or None."""
        return next((t for t in self.tools if t.name == name), None)


def _bad(message: str, param: str | None = None, code: str | None = None) -> MockAPIError:
    return MockAPIError(message, status=400, param=param, code=code)


def _check_messages(messages: Any) -> list[dict]:
    if messages is None:
        raise _bad("Missing required parameter: 'messages'.", "messages", "missing_required_parameter")
    if not isinstance(messages, list):
        raise _bad(f"Invalid type for 'messages': expected an array, but got {type(messages).__name__} instead.",
                   "messages", "invalid_type")
    if not messages:
        raise _bad("Invalid 'messages': empty array. Expected an array with minimum length 1, "
                   "but got an empty array instead.", "messages", "empty_array")
    for i, m in enumerate(messages):
        if not isinstance(m, dict):
            raise _bad(f"Invalid type for 'messages[{i}]': expected an object, but got "
                       f"{type(m).__name__} instead.", f"messages[{i}]", "invalid_type")
        role = m.get("role")
        if role not in ROLES:
            shown = ", ".join(f"'{r}'" for r in ROLES)
            raise _bad(f"Invalid value: '{role}'. Supported values are: {shown}.",
                       f"messages[{i}].role", "invalid_value")
        content = m.get("content")
        if content is not None and not isinstance(content, (str, list)):
            raise _bad(f"Invalid type for 'messages[{i}].content': expected one of a string or array of objects, "
                       f"but got {_json_type(content)} instead.", f"messages[{i}].content", "invalid_type")
        if content is None and role in ("user", "system", "developer", "tool"):
            raise _bad(f"Invalid value for 'messages[{i}].content': expected a string, got null.",
                       f"messages[{i}].content", "invalid_type")
        if role == "tool" and "tool_call_id" not in m:
            raise _bad(f"Missing required parameter: 'messages[{i}].tool_call_id'.",
                       f"messages[{i}].tool_call_id", "missing_required_parameter")
        if isinstance(content, list):
            _check_parts(i, content)
        if role == "tool":
            _check_json_text(_content_text(content), f"messages[{i}].content")
        for key in ("name", "tool_call_id"):
            if m.get(key) is not None and not isinstance(m[key], str):
                raise _bad(f"Invalid type for 'messages[{i}].{key}': expected a string, but got "
                           f"{_json_type(m[key])} instead.", f"messages[{i}].{key}", "invalid_type")
    _check_tool_turns(messages)
    return messages


def _json_type(value: Any) -> str:
    return {dict: "an object", bool: "a boolean", int: "a number", float: "a number", list: "an array",
            str: "a string", type(None): "null"}.get(type(value), "a value")


PART_TYPES = ("text", "image_url", "input_audio", "file", "refusal")


def _check_parts(i: int, parts: list) -> None:
    """Content parts: objects with a known ``type``; a text part carries its ``text`` as a string."""
    for j, p in enumerate(parts):
        where = f"messages[{i}].content[{j}]"
        if not isinstance(p, dict):
            raise _bad(f"Invalid type for '{where}': expected an object, but got {_json_type(p)} instead.", where,
                       "invalid_type")
        if p.get("type") not in PART_TYPES:
            shown = ", ".join(f"'{t}'" for t in PART_TYPES)
            raise _bad(f"Invalid value: '{p.get('type')}'. Supported values are: {shown}.", f"{where}.type",
                       "invalid_value")
        if p["type"] == "text" and not isinstance(p.get("text"), str):
            raise _bad(f"Invalid type for '{where}.text': expected a string, but got {_json_type(p.get('text'))} "
                       "instead.", f"{where}.text", "invalid_type")


def _check_tool_turns(messages: list[dict]) -> None:
    """Every assistant ``tool_calls`` is answered, contiguously, by ``tool`` messages."""
    pending: dict[str, int] = {}  # tool_call_id -> index of the assistant message
    open_at: int | None = None
    for i, m in enumerate(messages):
        role = m["role"]
        if role == "tool":
            if open_at is None:
                raise _bad("Invalid parameter: messages with role 'tool' must be a response to a "
                           "preceding message with 'tool_calls'.", f"messages.[{i}].role")
            call_id = m["tool_call_id"]
            if call_id not in pending:
                raise _bad(f"Invalid parameter: 'tool_call_id' of '{call_id}' not found in "
                           f"'tool_calls' of previous message.", f"messages.[{i}].tool_call_id")
            del pending[call_id]
            continue
        if pending:
            ids = ", ".join(pending)
            raise _bad("An assistant message with 'tool_calls' must be followed by tool messages "
                       "responding to each 'tool_call_id'. The following tool_call_ids did not have "
                       f"response messages: {ids}", f"messages.[{open_at}].role")
        open_at = None
        if role == "assistant" and m.get("tool_calls"):
            calls = m["tool_calls"]
            if not isinstance(calls, list):
                raise _bad("Invalid type for 'tool_calls': expected an array.", f"messages[{i}].tool_calls",
                           "invalid_type")
            for j, c in enumerate(calls):
                if not isinstance(c, dict) or "id" not in c or not isinstance(c.get("function"), dict):
                    raise _bad(f"Invalid 'messages[{i}].tool_calls[{j}]': each tool call needs an 'id' "
                               "and a 'function' with 'name' and 'arguments'.",
                               f"messages[{i}].tool_calls[{j}]", "invalid_value")
                _check_call(i, j, c, pending)
                pending[c["id"]] = i
            open_at = i
    if pending:
        ids = ", ".join(pending)
        raise _bad("An assistant message with 'tool_calls' must be followed by tool messages responding "
                   f"to each 'tool_call_id'. The following tool_call_ids did not have response messages: "
                   f"{ids}", f"messages.[{open_at}].role")


def _check_call(i: int, j: int, call: dict, pending: dict[str, int]) -> None:
    """One assistant tool call: a string id used once, a string name, ``arguments`` a JSON *string*."""
    where = f"messages[{i}].tool_calls[{j}]"
    call_id, fn = call["id"], call["function"]
    if not isinstance(call_id, str):
        raise _bad(f"Invalid type for '{where}.id': expected a string, but got {_json_type(call_id)} instead.",
                   f"{where}.id", "invalid_type")
    if call_id in pending:
        raise _bad(f"Invalid 'messages[{i}].tool_calls': duplicate tool call id '{call_id}'. Each tool call needs "
                   "its own id, which its tool message answers.", f"{where}.id", "invalid_value")
    if not isinstance(fn.get("name"), str):
        raise _bad(f"Invalid type for '{where}.function.name': expected a string, but got "
                   f"{_json_type(fn.get('name'))} instead.", f"{where}.function.name", "invalid_type")
    if not isinstance(fn.get("arguments", ""), str):
        raise _bad(f"Invalid type for '{where}.function.arguments': expected a string, but got "
                   f"{_json_type(fn['arguments'])} instead (arguments travel as JSON text: json.dumps them).",
                   f"{where}.function.arguments", "invalid_type")
    _check_json_text(fn.get("arguments") or "", f"{where}.function.arguments")


#: How deep JSON *text inside a message* may nest (a tool result, a call's ``arguments``): the engine
#: and the structured-output readers parse it, and Python's parser overflows its stack far deeper.
MAX_TEXT_JSON_DEPTH = Limits().max_json_depth


def _check_json_text(text: str, where: str) -> None:
    """A 400 for JSON text (it starts with ``[`` or ``{``) that nests deeper than :data:`MAX_TEXT_JSON_DEPTH`."""
    if text.lstrip()[:1] in ("[", "{") and nests_deeper(text.encode("utf-8", "surrogatepass"), MAX_TEXT_JSON_DEPTH):
        raise _bad(f"Invalid '{where}': its JSON text nests arrays and objects more than {MAX_TEXT_JSON_DEPTH} levels "
                   "deep; the course mock reads JSON in messages only up to that depth.", where, "invalid_value")


def unresolved_ref(schema: Any) -> str | None:
    """The first ``$ref`` in ``schema`` that does not point inside it (``#/$defs/...``), or None.

    The API resolves only local references (JSON Pointers from the schema's root, RFC 6901);
    a remote one (``https://...``, ``other.json#...``) or a pointer to nothing is refused.
    The walk is iterative, so a deep schema cannot overflow the stack.
    """
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not _resolves(schema, ref):
                return ref
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return None


def _resolves(root: Any, ref: str) -> bool:
    from urllib.parse import unquote

    if ref == "#":
        return True
    if not ref.startswith("#/"):
        return False
    node = root
    for token in ref[2:].split("/"):
        token = unquote(token).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False
    return True


#: Tools already validated, by their canonical JSON: agents send the same tools on every
#: request, and checking a JSON Schema costs milliseconds (far more than the decision).
_VALID_TOOLS = BoundedCache(4096)


def _check_tool(i: int, tool: Any) -> ToolSpec:
    try:
        key = json.dumps(tool, sort_keys=True)
    except (TypeError, ValueError):
        key = None
    spec = _VALID_TOOLS.get(key) if key is not None else None
    if spec is not None:
        return spec
    spec = _check_tool_uncached(i, tool)
    if key is not None:
        _VALID_TOOLS.put(key, spec, 2 * len(key))  # the key and the parsed schema the spec holds
    return spec


def _check_tool_uncached(i: int, tool: Any) -> ToolSpec:
    where = f"tools[{i}]"
    if not isinstance(tool, dict) or tool.get("type") != "function" or not isinstance(tool.get("function"), dict):
        raise _bad(f"Invalid '{where}': expected an object with \"type\": \"function\" and a 'function' "
                   "object (Chat Completions shape; the Responses API uses a flat shape).", where, "invalid_value")
    fn = tool["function"]
    name = fn.get("name")
    if not isinstance(name, str) or not NAME_PATTERN.match(name):
        raise _bad(f"Invalid '{where}.function.name': string does not match pattern. Expected a string "
                   "that matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.", f"{where}.function.name", "invalid_value")
    params = fn.get("parameters", {"type": "object", "properties": {}})
    if not isinstance(params, dict):
        raise _bad(f"Invalid schema for function '{name}': parameters must be a JSON Schema object.",
                   f"{where}.function.parameters", "invalid_function_parameters")
    if params.get("type", "object") != "object":
        raise _bad(f"Invalid schema for function '{name}': schema must be a JSON Schema of 'type: \"object\"', "
                   f"got 'type: \"{params.get('type')}\"'.", f"{where}.function.parameters",
                   "invalid_function_parameters")
    try:
        Draft202012Validator.check_schema(params)
    except SchemaError as e:
        path = "/".join(str(p) for p in e.path) or "(root)"
        raise _bad(f"Invalid schema for function '{name}': {e.message} (at {path}).",
                   f"{where}.function.parameters", "invalid_function_parameters") from None
    ref = unresolved_ref(params)
    if ref is not None:
        raise _bad(f"Invalid schema for function '{name}': reference '{ref}' can't be resolved. Only references "
                   "inside the schema itself ('#/$defs/Name') are allowed.", f"{where}.function.parameters",
                   "invalid_function_parameters")
    strict = bool(fn.get("strict"))
    if strict:
        problems = strict_violations(params)
        if problems:
            raise _bad(f"Invalid schema for function '{name}': {problems[0]}",
                       f"{where}.function.parameters", "invalid_function_parameters")
    description = str(fn.get("description") or "")
    # the arguments' meaning may be in the docstring the framework copied into the description
    return ToolSpec(name, description, with_parameter_docs(params, description), strict)


_VALID_LISTS = BoundedCache(512)


def tools_key(tools: Any) -> str | None:
    """The compact JSON of a request's ``tools`` (key order kept: it is the parameters' order), or None.

    One key for the whole list: an agent sends the same tools with every request, so the
    validated :class:`ToolSpec` objects (and the engine's caches keyed on them) are reused.
    """
    try:
        return json.dumps(tools, separators=(",", ":"))
    except (TypeError, ValueError):
        return None


def _check_tools(tools: Any, key: str | None = None) -> list[ToolSpec]:
    """The validated tools, from a cache keyed on :func:`tools_key` (``key``, when the caller made it)."""
    if tools is None:
        return []
    if key is None:
        key = tools_key(tools)
    hit = _VALID_LISTS.get(key) if key is not None else None
    if hit is not None:
        return list(hit)
    specs = _check_tools_uncached(tools)
    if key is not None:
        _VALID_LISTS.put(key, specs)  # the specs themselves are shared with _VALID_TOOLS
    return list(specs)


def _check_tools_uncached(tools: Any) -> list[ToolSpec]:
    if not isinstance(tools, list):
        raise _bad("Invalid type for 'tools': expected an array.", "tools", "invalid_type")
    check_tool_count(tools)
    functions = [t.get("function") for t in tools if isinstance(t, dict) and isinstance(t.get("function"), dict)]
    check_schema_size([fn.get("parameters") for fn in functions], "tools")
    specs = [_check_tool(i, t) for i, t in enumerate(tools)]
    seen: set[str] = set()
    for i, s in enumerate(specs):
        if s.name in seen:
            raise _bad(f"Invalid 'tools': duplicate function name '{s.name}'. Tool names must be unique.",
                       f"tools[{i}].function.name", "invalid_value")
        seen.add(s.name)
    return specs


def _check_tool_choice(choice: Any, tools: list[ToolSpec]) -> tuple[str, str | None]:
    if choice is None:
        return ("auto" if tools else "none"), None
    if not tools:
        raise _bad("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
                   "tool_choice")
    if choice in ("auto", "none", "required"):
        return choice, None
    if isinstance(choice, dict) and choice.get("type") == "function" and isinstance(choice.get("function"), dict):
        name = choice["function"].get("name")
        if not any(t.name == name for t in tools):
            raise _bad(f"Invalid value for 'tool_choice': tool_choice '{name}' not found in 'tools' parameter.",
                       "tool_choice")
        return "function", name
    raise _bad("Invalid value for 'tool_choice': expected 'none', 'auto', 'required', or "
               "{\"type\": \"function\", \"function\": {\"name\": ...}}.", "tool_choice", "invalid_value")


def _check_model(body: Any) -> None:
    if not isinstance(body, dict):
        raise _bad("We could not parse the JSON body of your request: expected a JSON object.")
    if not body.get("model"):
        raise _bad("you must provide a model parameter", "model", "missing_required_parameter")
    if not isinstance(body["model"], str):
        raise _bad(f"Invalid type for 'model': expected a string, but got {_json_type(body['model'])} instead.",
                   "model", "invalid_type")


def _check_stream(body: dict[str, Any]) -> tuple[bool, bool]:
    """``(stream, include_usage)`` of a Chat request; ``stream_options`` only goes with ``stream``."""
    stream = body.get("stream", False)
    if stream is None:
        stream = False
    if not isinstance(stream, bool):
        raise _bad("Invalid type for 'stream': expected a boolean.", "stream", "invalid_type")
    opts = body.get("stream_options")
    if opts is not None and not stream:
        raise _bad("The 'stream_options' parameter is only allowed when 'stream' is enabled.", "stream_options",
                   "invalid_value")
    if opts is not None and not isinstance(opts, dict):
        raise _bad("Invalid type for 'stream_options': expected an object.", "stream_options", "invalid_type")
    return stream, bool((opts or {}).get("include_usage"))


def parse_chat_request(body: Any, *, tools_key: str | None = None) -> ChatRequest:
    """Validate a Chat Completions request body and normalise it.

    Args:
        body: the decoded JSON body of ``POST /v1/chat/completions``.
        tools_key: :func:`tools_key` of ``body["tools"]``, if the caller made it already (the
            server does, for the request's seed); it keys the cache of validated tools.

    Returns:
        A :class:`ChatRequest`.

    Raises:
        MockAPIError: HTTP 400 with the message, ``param`` and ``code`` the real API
            uses, for: a body that is not an object, a missing ``model`` or ``messages``,
            an unknown role, a ``tool`` message that answers nothing, unanswered or
            non-contiguous tool calls, an unknown or duplicate ``tool_call_id``, ``arguments``
            that are not a string, an invalid tool name or schema (an unresolvable ``$ref``
            included), a strict tool that breaks strict mode, a bad ``tool_choice``, and any
            other parameter :func:`~.options.chat_options` refuses (unknown, wrong type, out of
            range, unsupported).

    Example:
        >>> parse_chat_request({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).tool_choice
        'none'
    """
    _check_model(body)
    messages = _check_messages(body.get("messages"))
    tools = _check_tools(body.get("tools"), tools_key)
    choice, forced = _check_tool_choice(body.get("tool_choice"), tools)
    parallel = body.get("parallel_tool_calls", True)
    if not isinstance(parallel, bool):
        raise _bad("Invalid type for 'parallel_tool_calls': expected a boolean.", "parallel_tool_calls", "invalid_type")
    stream, include_usage = _check_stream(body)
    options = chat_options(body)
    fmt = read_format(body.get("response_format"))
    require_json_word(fmt, [_content_text(m.get("content")) for m in messages])
    return ChatRequest(
        model=str(body["model"]),
        messages=messages,
        tools=tools,
        tool_choice=choice,
        forced_tool=forced,
        parallel_tool_calls=parallel,
        stream=stream,
        include_usage=include_usage,
        options=options,
        response_format=fmt,
    )


def _content_text(content: Any) -> str:
    if isinstance(content, list):
        return " ".join(p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return content if isinstance(content, str) else ""
