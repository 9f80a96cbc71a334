"""One tool call, every provider's wire shape: OpenAI Chat/Responses, Anthropic, Gemini, MCP.

Every provider sends the model the same three things (name, description, a schema of the
arguments) and gets back the same three things (a call id, a name, the arguments), but each
spells them its own way. This module converts the course's canonical form (the Chat
Completions shapes of lesson 01) into the two other big families:

* **Anthropic Messages API** (docs: *Tool use*, "Implement tool use"; SDK types
  ``anthropic.types.ToolParam``, ``ToolUseBlock``, ``ToolResultBlockParam``): a tool is
  ``{"name", "description", "input_schema"}``; the model's call is a ``tool_use`` content
  block whose ``input`` is a JSON **object** (not a string); your result is a
  ``tool_result`` block, with ``tool_use_id``, inside the next **user** message; the
  system prompt is a top-level ``system`` parameter, not a message; ``tool_choice`` is
  ``{"type": "auto" | "any" | "tool" | "none"}`` and ``disable_parallel_tool_use`` turns
  off parallel calls.
* **Gemini API** (docs: *Function calling*; API reference ``FunctionDeclaration``,
  ``FunctionCall``, ``FunctionResponse``, ``Schema``; SDK types ``google.genai.types.*``):
  tools are ``{"functionDeclarations": [{"name", "description", "parameters"}]}`` where
  ``parameters`` is Gemini's ``Schema``, a subset of OpenAPI 3.0 (no ``$ref``, no
  ``additionalProperties``; ``nullable: true`` instead of a ``"null"`` type); the model's
  call is a ``functionCall`` part (``name``, ``args`` as an object, and an ``id`` on newer
  models) in a ``model`` turn; your result is a ``functionResponse`` part whose
  ``response`` must be an object (the docs: use the ``output`` key for the output,
  ``error`` for an error) in a ``user`` turn; the system prompt is ``systemInstruction``;
  ``toolConfig.functionCallingConfig.mode`` is ``AUTO`` / ``ANY`` / ``NONE``.

The converters are pure functions from dict to dict (sans-IO): no SDK or network is needed
to use them. :func:`check_with_sdk` validates a converted value against the provider SDK's
own types when that SDK is installed (both are in the course's environment). Taught in
lesson 02 §9.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Literal

from .tool_schemas import inline_refs, to_chat_tool

Provider = Literal["anthropic", "gemini"]

#: The keywords Gemini's ``Schema`` object documents (API reference, ``Schema``), in JSON spelling.
GEMINI_SCHEMA_KEYWORDS: frozenset[str] = frozenset({
    "type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems", "properties",
    "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example", "anyOf",
    "propertyOrdering", "default", "items", "minimum", "maximum",
})

#: The ``format`` values Gemini's ``Schema`` documents, per type (API reference, ``Schema.format``).
GEMINI_FORMATS: dict[str, tuple[str, ...]] = {"string": ("enum", "date-time"), "number": ("float", "double"),
                                              "integer": ("int32", "int64")}

#: Where each claim of this module comes from (shown in lesson 02's table).
SOURCES: dict[str, str] = {
    "openai-chat": "OpenAI API reference, Chat Completions: tools, tool_calls, role 'tool'",
    "openai-responses": "OpenAI API reference, Responses: function tools, function_call / function_call_output items",
    "anthropic": "Anthropic docs, Tool use (Implement tool use); SDK anthropic.types.ToolParam, ToolUseBlock, "
                 "ToolResultBlockParam",
    "gemini": "Gemini API docs, Function calling; API reference FunctionDeclaration, FunctionCall, "
              "FunctionResponse, Schema; SDK google.genai.types",
    "mcp": "MCP specification, Server features: Tools (tools/list, tools/call)",
}


@dataclass(frozen=True)
class ToolCall:
    """A call in the provider-neutral form: ``arguments`` is already a dict."""

    id: str | None
    name: str
    arguments: dict


@dataclass
class GeminiSchema:
    """A JSON Schema rewritten into Gemini's OpenAPI-subset ``Schema``, with what did not survive.

    Attributes:
        schema: the rewritten schema (only :data:`GEMINI_SCHEMA_KEYWORDS`).
        dropped: JSON-pointer-like paths of the keywords removed (``"/additionalProperties"``,
            ``"/properties/limit/exclusiveMinimum"``): constraints the model no longer sees and
            your own validation must still enforce.
    """

    schema: dict
    dropped: list[str] = field(default_factory=list)


# ============================================================================ tools
def to_anthropic_tool(tool: Any) -> dict:
    """The tool as an Anthropic ``tools`` entry: ``{"name", "description", "input_schema"}``.

    The JSON Schema travels unchanged (``$defs``/``$ref`` included). A strict tool stays strict:
    ``"strict": true`` is copied (Anthropic docs, "Structured outputs": strict tool use;
    ``anthropic.types.ToolParam.strict``); a tool that is not strict gets no key (Anthropic's default).

    Args:
        tool: a tool in any shape :func:`course_lib.tool_schemas.to_chat_tool` reads.

    Example:
        >>> to_anthropic_tool({"type": "function", "function": {"name": "ping", "parameters": {"type": "object"}}})
        {'name': 'ping', 'input_schema': {'type': 'object'}}
    """
    fn = to_chat_tool(tool)["function"]
    out: dict[str, Any] = {"name": fn["name"]}
    if fn.get("description") is not None:
        out["description"] = fn["description"]
    out["input_schema"] = copy.deepcopy(fn["parameters"])
    if fn.get("strict") is True:
        out["strict"] = True
    return out


def to_gemini_schema(schema: dict) -> GeminiSchema:
    """Rewrite a JSON Schema into Gemini's ``Schema`` (a subset of OpenAPI 3.0).

    Local ``$ref`` are inlined; ``"type": [T, "null"]`` and ``anyOf: [X, {"type": "null"}]``
    become ``T``/``X`` with ``nullable: true``; ``const`` becomes a one-value ``enum``;
    every other keyword outside :data:`GEMINI_SCHEMA_KEYWORDS`, a non-string ``enum`` and a
    ``format`` outside :data:`GEMINI_FORMATS` are dropped and reported.

    Raises:
        ValueError: a recursive ``$ref`` (it cannot be inlined).

    Example:
        >>> r = to_gemini_schema({"type": "object", "properties": {"n": {"type": ["integer", "null"]}},
        ...                       "additionalProperties": False})
        >>> r.schema, r.dropped
        ({'type': 'object', 'properties': {'n': {'type': 'integer', 'nullable': True}}}, ['/additionalProperties'])
    """
    dropped: list[str] = []

    def walk(node: Any, path: str) -> Any:
        if not isinstance(node, dict):
            return node
        node = dict(node)
        if "const" in node:
            node.setdefault("enum", [node.pop("const")])
        t = node.get("type")
        if isinstance(t, list):
            rest = [x for x in t if x != "null"]
            if "null" in t:
                node["nullable"] = True
            if len(rest) == 1:
                node["type"] = rest[0]
            else:
                del node["type"]
                node["anyOf"] = [{"type": x} for x in rest] + node.get("anyOf", [])
        branches = node.get("anyOf")
        if isinstance(branches, list):
            real = [b for b in branches if b != {"type": "null"}]
            if len(real) < len(branches):
                node["nullable"] = True
            if len(real) == 1 and isinstance(real[0], dict):
                del node["anyOf"]
                node = {**real[0], **node}
            else:
                node["anyOf"] = real
        out: dict[str, Any] = {}
        for key, value in node.items():
            here = f"{path}/{key}"
            if key not in GEMINI_SCHEMA_KEYWORDS:
                dropped.append(here)
            elif key == "properties":
                out[key] = {name: walk(sub, f"{here}/{name}") for name, sub in value.items()}
            elif key == "items":
                out[key] = walk(value, here)
            elif key == "anyOf":
                out[key] = [walk(sub, f"{here}/{i}") for i, sub in enumerate(value)]
            elif key == "enum" and node.get("type", "string") != "string":
                dropped.append(here)  # Gemini's enum is for strings only (Schema: "enum ... of Type.STRING")
            elif key == "format" and value not in GEMINI_FORMATS.get(node.get("type"), ()):
                dropped.append(here)  # e.g. "email", "uri", "date": not formats Gemini's Schema knows
            else:
                out[key] = copy.deepcopy(value)
        return out

    inlined = inline_refs(schema) if ("$defs" in schema or "definitions" in schema) else schema
    result = walk(inlined, "")
    return GeminiSchema(result, dropped)


def to_gemini_function_declaration(tool: Any) -> GeminiSchema:
    """The tool as one Gemini ``functionDeclarations`` entry, with the schema keywords dropped.

    Returns:
        :class:`GeminiSchema` whose ``schema`` is ``{"name", "description", "parameters"}``.

    Example:
        >>> d = to_gemini_function_declaration({"name": "ping", "description": "Ping.", "inputSchema":
        ...     {"type": "object", "properties": {}}})
        >>> d.schema
        {'name': 'ping', 'description': 'Ping.', 'parameters': {'type': 'object', 'properties': {}}}
    """
    fn = to_chat_tool(tool)["function"]
    converted = to_gemini_schema(fn["parameters"])
    out: dict[str, Any] = {"name": fn["name"]}
    if fn.get("description") is not None:
        out["description"] = fn["description"]
    out["parameters"] = converted.schema
    return GeminiSchema(out, [f"/parameters{p}" for p in converted.dropped])


def to_gemini_tools(tools: Iterable[Any]) -> list[dict]:
    """The ``tools`` field of a Gemini request: ``[{"functionDeclarations": [...]}]``."""
    return [{"functionDeclarations": [to_gemini_function_declaration(t).schema for t in tools]}]


def tool_choice_for(provider: Provider, tool_choice: Any = "auto", *, parallel_tool_calls: bool | None = None) -> dict:
    """Translate an OpenAI ``tool_choice`` (+ ``parallel_tool_calls``) into the provider's field.

    ``"auto"`` / ``"none"`` / ``"required"`` / ``{"type": "function", "function": {"name": N}}``
    become Anthropic ``{"type": "auto" | "none" | "any" | "tool", "name"?}`` (with
    ``disable_parallel_tool_use`` when parallel calls are off) or Gemini
    ``{"functionCallingConfig": {"mode": "AUTO" | "NONE" | "ANY", "allowedFunctionNames"?}}``
    (Gemini's request has no switch for parallel calls: ``parallel_tool_calls`` is ignored).

    Raises:
        ValueError: an unknown ``tool_choice`` or provider.

    Example:
        >>> tool_choice_for("anthropic", {"type": "function", "function": {"name": "get_weather"}})
        {'type': 'tool', 'name': 'get_weather'}
        >>> tool_choice_for("gemini", "required")
        {'functionCallingConfig': {'mode': 'ANY'}}
    """
    if isinstance(tool_choice, dict):
        name = (tool_choice.get("function") or {}).get("name") or tool_choice.get("name")
        if not name:
            raise ValueError(f"a named tool_choice needs a function name: {tool_choice!r}")
        kind = "named"
    elif tool_choice in ("auto", "none", "required"):
        name, kind = None, tool_choice
    else:
        raise ValueError(f"unknown tool_choice {tool_choice!r}: use 'auto', 'none', 'required' or a named function")
    if provider == "anthropic":
        out: dict[str, Any] = {"type": {"auto": "auto", "none": "none", "required": "any", "named": "tool"}[kind]}
        if name:
            out["name"] = name
        if parallel_tool_calls is False and kind != "none":
            out["disable_parallel_tool_use"] = True
        return out
    if provider == "gemini":
        config: dict[str, Any] = {"mode": {"auto": "AUTO", "none": "NONE", "required": "ANY", "named": "ANY"}[kind]}
        if name:
            config["allowedFunctionNames"] = [name]
        return {"functionCallingConfig": config}
    raise ValueError(f"unknown provider {provider!r}: 'anthropic' or 'gemini'")


# ============================================================================ conversations
def _text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


def _arguments(raw: Any) -> dict:
    if isinstance(raw, dict):
        return raw
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}
    value = json.loads(raw)
    if not isinstance(value, dict):
        raise ValueError(f"tool-call arguments must be a JSON object, got {type(value).__name__}")
    return value


def _calls(message: dict) -> list[ToolCall]:
    return [ToolCall(c.get("id"), c["function"]["name"], _arguments(c["function"].get("arguments")))
            for c in message.get("tool_calls") or []]


def to_anthropic_messages(messages: list[dict]) -> tuple[str | None, list[dict]]:
    """A Chat Completions conversation as Anthropic's ``(system, messages)``.

    * ``system`` messages are joined into the top-level ``system`` string;
    * an assistant message with ``tool_calls`` becomes ``text`` + ``tool_use`` blocks
      (``input`` decoded from the ``arguments`` JSON string);
    * consecutive ``role: "tool"`` messages become **one** user message of ``tool_result``
      blocks (Anthropic wants all results of one assistant turn together, results first).

    Raises:
        ValueError: arguments that are not a JSON object, or an unknown role.

    Example:
        >>> system, msgs = to_anthropic_messages([{"role": "system", "content": "Be brief."},
        ...     {"role": "user", "content": "Weather in Paris?"},
        ...     {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
        ...      "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]},
        ...     {"role": "tool", "tool_call_id": "c1", "content": "18 C"}])
        >>> system, msgs[1]["content"][0]["input"], msgs[2]["content"][0]["type"]
        ('Be brief.', {'city': 'Paris'}, 'tool_result')
    """
    system: list[str] = []
    out: list[dict] = []
    for m in messages:
        role = m.get("role")
        if role in ("system", "developer"):
            system.append(_text(m.get("content")))
        elif role == "user":
            out.append({"role": "user", "content": _text(m.get("content"))})
        elif role == "assistant":
            blocks: list[dict] = []
            if _text(m.get("content")):
                blocks.append({"type": "text", "text": _text(m.get("content"))})
            blocks += [{"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments} for c in _calls(m)]
            out.append({"role": "assistant", "content": blocks})
        elif role == "tool":
            block = {"type": "tool_result", "tool_use_id": m["tool_call_id"], "content": _text(m.get("content"))}
            last = out[-1] if out else None
            if last and last["role"] == "user" and isinstance(last["content"], list) and \
                    all(b.get("type") == "tool_result" for b in last["content"]):
                last["content"].append(block)
            else:
                out.append({"role": "user", "content": [block]})
        else:
            raise ValueError(f"unknown role {role!r}")
    return ("\n\n".join(system) or None), out


def _gemini_response(content: str) -> dict:
    """A tool result as Gemini's ``response`` object: a JSON object as is, anything else as ``output``."""
    try:
        value = json.loads(content)
    except (TypeError, ValueError):
        return {"output": content}
    return value if isinstance(value, dict) else {"output": value}


def to_gemini_contents(messages: list[dict]) -> tuple[dict | None, list[dict]]:
    """A Chat Completions conversation as Gemini's ``(systemInstruction, contents)``.

    Roles become ``user`` / ``model``; a call becomes a ``functionCall`` part (``args`` an
    object, the call ``id`` kept); consecutive ``tool`` messages become one ``user`` turn of
    ``functionResponse`` parts, each named after the call it answers (Gemini matches by
    ``name``, and by ``id`` when the model sent one).

    Raises:
        ValueError: a tool result whose ``tool_call_id`` no earlier call has, or an unknown role.
    """
    system: list[str] = []
    out: list[dict] = []
    names: dict[str, str] = {}
    for m in messages:
        role = m.get("role")
        if role in ("system", "developer"):
            system.append(_text(m.get("content")))
        elif role == "user":
            out.append({"role": "user", "parts": [{"text": _text(m.get("content"))}]})
        elif role == "assistant":
            parts: list[dict] = [{"text": _text(m.get("content"))}] if _text(m.get("content")) else []
            for c in _calls(m):
                names[c.id or c.name] = c.name
                call = {"name": c.name, "args": c.arguments}
                parts.append({"functionCall": {"id": c.id, **call} if c.id else call})
            out.append({"role": "model", "parts": parts})
        elif role == "tool":
            call_id = m.get("tool_call_id")
            if call_id not in names:
                raise ValueError(f"tool result for unknown call {call_id!r}")
            part = {"functionResponse": {"id": call_id, "name": names[call_id],
                                         "response": _gemini_response(_text(m.get("content")))}}
            last = out[-1] if out else None
            if last and last["role"] == "user" and all("functionResponse" in p for p in last["parts"]):
                last["parts"].append(part)
            else:
                out.append({"role": "user", "parts": [part]})
        else:
            raise ValueError(f"unknown role {role!r}")
    instruction = {"parts": [{"text": "\n\n".join(system)}]} if system else None
    return instruction, out


def calls_from_anthropic(content: Iterable[Any]) -> list[ToolCall]:
    """The ``tool_use`` blocks of an Anthropic reply's ``content`` (dicts or SDK objects)."""
    out = []
    for block in content:
        b = block.model_dump() if hasattr(block, "model_dump") else block
        if b.get("type") == "tool_use":
            out.append(ToolCall(b["id"], b["name"], dict(b.get("input") or {})))
    return out


def calls_from_gemini(parts: Iterable[Any]) -> list[ToolCall]:
    """The ``functionCall`` parts of a Gemini reply (dicts in JSON spelling or SDK objects)."""
    out = []
    for part in parts:
        p = part.model_dump(by_alias=True, exclude_none=True) if hasattr(part, "model_dump") else part
        call = p.get("functionCall") or p.get("function_call")
        if call:
            out.append(ToolCall(call.get("id"), call["name"], dict(call.get("args") or {})))
    return out


# ============================================================================ SDK checks
def check_with_sdk(provider: Provider, kind: Literal["tool", "messages", "contents"], value: Any) -> str:
    """Validate a converted value against the provider SDK's own types; return the type's name.

    * Anthropic (``anthropic``): ``"tool"`` against ``anthropic.types.ToolParam``,
      ``"messages"`` against ``MessageParam`` with every content block checked against
      ``ContentBlockParam`` (the SDK's request types are ``TypedDict``s: pydantic validates them).
    * Gemini (``google-genai``): ``"tool"`` against ``google.genai.types.FunctionDeclaration``,
      ``"contents"`` against ``google.genai.types.Content``.

    Raises:
        pydantic.ValidationError: the value does not fit the SDK type (the message says where).
        ImportError: the SDK is not installed (``pip install anthropic google-genai``).
        ValueError: an unknown provider/kind pair.
    """
    import pydantic

    if provider == "anthropic":
        from anthropic import types as at

        if kind == "tool":
            pydantic.TypeAdapter(at.ToolParam).validate_python(value)
            return "anthropic.types.ToolParam"
        if kind == "messages":
            block = pydantic.TypeAdapter(at.ContentBlockParam)
            for message in value:
                pydantic.TypeAdapter(at.MessageParam).validate_python(message)
                for b in message["content"] if isinstance(message["content"], list) else []:
                    block.validate_python(b)
            return "anthropic.types.MessageParam"
    if provider == "gemini":
        from google.genai import types as gt

        if kind == "tool":
            gt.FunctionDeclaration.model_validate(value)
            return "google.genai.types.FunctionDeclaration"
        if kind == "contents":
            for content in value:
                gt.Content.model_validate(content)
            return "google.genai.types.Content"
    raise ValueError(f"no SDK check for provider={provider!r}, kind={kind!r}")
