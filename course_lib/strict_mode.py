"""Strict mode for function tools: what it demands of a schema, and a converter.

With ``"strict": true`` on a tool, OpenAI constrains decoding so the arguments always
match the schema (OpenAI docs, Function calling guide, "Strict mode"; Structured Outputs
guide, "Supported schemas"). That only works for a subset of JSON Schema, so the API
rejects a strict tool unless:

* the root is ``{"type": "object"}`` (not ``anyOf``);
* every object sets ``"additionalProperties": false``;
* every object lists **all** of its properties in ``required`` (an optional field is
  written as a required field that may be ``null``);
* no unsupported keyword appears (``allOf``, ``not``, ``patternProperties``...), and the
  schema stays within the documented size limits (:data:`STRICT_LIMITS`).

Two more rules are about the *request*, not the schema (:func:`strict_request_problems`):
strict tools and parallel tool calls do not mix (the Structured Outputs guide: a parallel
call "may not match supplied schemas"; send ``parallel_tool_calls: false``), and the
Responses API makes a tool strict when ``strict`` is *omitted* (it "normalizes your schema
into strict mode", so optional fields become required), while Chat Completions stays
non-strict unless you ask.

:func:`strict_violations` lists what breaks those rules (the mock LLM uses it to reject
strict tools with HTTP 400, like the real API), and :func:`to_strict` rewrites a schema
so that it passes on every deployment, remembering the defaults it had to drop;
:func:`restore_defaults` maps the ``null`` a strict model sends for an omitted optional
field back to its default. Taught in lesson 02.
"""
from __future__ import annotations

import copy
from typing import Any, Iterable, Iterator

#: Keywords strict mode refuses (Structured Outputs guide, "Supported schemas": not supported).
STRICT_UNSUPPORTED_KEYWORDS: frozenset[str] = frozenset(
    {
        "allOf",
        "not",
        "if",
        "then",
        "else",
        "dependentRequired",
        "dependentSchemas",
        "patternProperties",
        "unevaluatedProperties",
        "unevaluatedItems",
        "propertyNames",
        "minProperties",
        "maxProperties",
        "contains",
        "minContains",
        "maxContains",
        "uniqueItems",
    }
)

#: Keywords some deployments refuse in a strict schema although api.openai.com now accepts them.
#: ``default`` was refused with "'default' is not permitted" (livekit/agents#1987, 2025); by
#: August 2026 api.openai.com accepted it while Azure OpenAI still refused it
#: (openai/openai-agents-python#4390). A portable strict schema leaves them out.
NOT_PORTABLE_KEYWORDS: frozenset[str] = frozenset({"default"})

#: Size limits of a strict schema (Structured Outputs guide, "Objects have limitations on
#: nesting depth and size"): object properties in total, nesting levels, enum values in total.
STRICT_LIMITS: dict[str, int] = {"properties": 5000, "depth": 10, "enum_values": 1000}

_SUBSCHEMA_MAPS = ("properties", "$defs", "definitions")
_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "prefixItems")


def _walk(schema: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], dict]]:
    """Yield ``(path, subschema)`` for every schema object inside ``schema``."""
    if not isinstance(schema, dict):
        return
    yield path, schema
    for key in _SUBSCHEMA_MAPS:
        for name, sub in (schema.get(key) or {}).items():
            yield from _walk(sub, path + (key, name))
    for key in _SUBSCHEMA_LISTS:
        for i, sub in enumerate(schema.get(key) or []):
            yield from _walk(sub, path + (key, str(i)))
    if isinstance(schema.get("items"), dict):
        yield from _walk(schema["items"], path + ("items",))


def _is_object(schema: dict) -> bool:
    t = schema.get("type")
    return t == "object" or (isinstance(t, list) and "object" in t) or "properties" in schema


def _depth(schema: Any, level: int = 1) -> int:
    """Nesting levels of objects in ``schema`` (the root object is level 1)."""
    deepest = level
    for path, sub in _walk(schema):
        if path and _is_object(sub):
            deepest = max(deepest, level + sum(1 for p in path if p == "properties" or p == "items"))
    return deepest


def strict_violations(schema: Any, *, portable: bool = False) -> list[str]:
    """List every reason strict mode would refuse ``schema`` (empty list = acceptable).

    Messages follow the API's phrasing, ``In context=(path...), ...``, so a learner can
    find the offending place.

    Args:
        schema: the ``parameters`` JSON Schema of one function tool.
        portable: also refuse :data:`NOT_PORTABLE_KEYWORDS` (``default``), which
            api.openai.com accepts but other deployments refuse.

    Returns:
        A list of human-readable violations, in document order.

    Example:
        >>> strict_violations({"type": "object", "properties": {"a": {"type": "string"}}})[0]
        "In context=(), 'additionalProperties' is required to be supplied and to be false."
        >>> strict_violations({"type": "object", "properties": {"n": {"type": "integer", "default": 1}},
        ...                    "required": ["n"], "additionalProperties": False}, portable=True)
        ["In context=('properties', 'n'), 'default' is not permitted."]
    """
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return ["schema must be a JSON Schema of 'type: \"object\"' at the root in strict mode."]
    refused = STRICT_UNSUPPORTED_KEYWORDS | (NOT_PORTABLE_KEYWORDS if portable else frozenset())
    problems: list[str] = []
    n_properties = n_enum = 0
    for path, sub in _walk(schema):
        where = f"In context=({', '.join(repr(p) for p in path)})"
        for kw in sorted(refused & sub.keys()):
            problems.append(f"{where}, '{kw}' is not permitted.")
        n_enum += len(sub.get("enum") or [])
        if not _is_object(sub):
            continue
        n_properties += len(sub.get("properties") or {})
        if sub.get("additionalProperties") is not False:
            problems.append(f"{where}, 'additionalProperties' is required to be supplied and to be false.")
        props = list((sub.get("properties") or {}).keys())
        missing = [p for p in props if p not in (sub.get("required") or [])]
        if missing:
            problems.append(
                f"{where}, 'required' is required to be supplied and to be an array including "
                f"every key in properties. Missing '{missing[0]}'."
            )
    limits = STRICT_LIMITS
    if n_properties > limits["properties"]:
        problems.append(f"The schema has {n_properties} object properties; strict mode allows {limits['properties']}.")
    if _depth(schema) > limits["depth"]:
        problems.append(f"The schema nests objects {_depth(schema)} levels deep; strict mode allows {limits['depth']}.")
    if n_enum > limits["enum_values"]:
        problems.append(f"The schema has {n_enum} enum values; strict mode allows {limits['enum_values']}.")
    return problems


def is_strict(tool: dict, api: str = "chat") -> bool:
    """Whether the API treats ``tool`` as strict.

    Chat Completions: only with ``"strict": true``. Responses: unless ``"strict": false``
    (the function-calling guide: an omitted ``strict`` is normalised into strict mode).

    Example:
        >>> is_strict({"type": "function", "name": "f", "parameters": {}}, api="responses")
        True
        >>> is_strict({"type": "function", "function": {"name": "f"}}, api="chat")
        False
    """
    flag = (tool.get("function") or tool).get("strict")
    if api == "responses":
        return flag is not False
    return flag is True


def _normalisation(schema: dict) -> str:
    """What strict normalisation changes in ``schema``, in words ("" if nothing)."""
    optional, open_objects = [], 0
    for path, sub in _walk(schema):
        if not _is_object(sub):
            continue
        prefix = ".".join(p for p in path if p not in ("properties",)) + ("." if path else "")
        optional += [prefix + k for k in (sub.get("properties") or {}) if k not in (sub.get("required") or [])]
        open_objects += sub.get("additionalProperties") is not False
    parts = []
    if optional:
        parts.append(f"optional fields {optional} become required")
    if open_objects:
        parts.append("extra keys are refused (additionalProperties: false)")
    return " and ".join(parts)


def strict_request_problems(tools: Iterable[dict], *, api: str = "chat",
                            parallel_tool_calls: bool | None = None) -> list[str]:
    """What a request with these tools gets wrong about strict mode (empty list = fine).

    * a strict tool whose schema breaks the rules (:func:`strict_violations`);
    * a Responses tool that *omitted* ``strict``: the API does not refuse it, it rewrites it
      into strict mode (optional fields become required, extra keys refused), which is
      rarely what its author meant;
    * strict tools with parallel tool calls left on (``parallel_tool_calls`` omitted or
      ``true``): the Structured Outputs guide says a parallel call "may not match supplied
      schemas" and asks for ``parallel_tool_calls: false``.

    Args:
        tools: the request's ``tools`` (Chat nested or Responses flat shape).
        api: ``"chat"`` or ``"responses"``.
        parallel_tool_calls: the request's value (``None`` = omitted, which means on).
    """
    problems: list[str] = []
    strict_names = []
    for tool in tools:
        fn = tool.get("function") or tool
        if not is_strict(tool, api):
            continue
        strict_names.append(fn.get("name"))
        schema = fn.get("parameters") or {"type": "object", "properties": {}}
        if api == "responses" and "strict" not in fn:
            changes = _normalisation(schema)
            if changes:
                problems.append(f"{fn.get('name')}: 'strict' is omitted, so the Responses API normalises the tool into "
                                f"strict mode: {changes}; send \"strict\": false to keep it as written")
            continue
        problems += [f"{fn.get('name')}: {v}" for v in strict_violations(schema)]
    if strict_names and parallel_tool_calls is not False:
        problems.append(f"strict tools {strict_names} with parallel tool calls on: a parallel call may not match "
                        "the schemas; send parallel_tool_calls=False")
    return problems


def _nullable(prop: dict) -> dict:
    """Return ``prop`` widened to also accept ``null``."""
    t = prop.get("type")
    if isinstance(t, str):
        out = dict(prop, type=[t, "null"])
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return out
    if isinstance(t, list):
        return prop if "null" in t else dict(prop, type=[*t, "null"])
    return {"anyOf": [prop, {"type": "null"}]}  # $ref or untyped: wrap


def to_strict(schema: dict) -> dict:
    """Rewrite ``schema`` so strict mode accepts it (the input is not modified).

    Every object gets ``additionalProperties: false``; every property becomes required;
    those that were optional become nullable; unsupported keywords and ``default`` (not
    portable: :data:`NOT_PORTABLE_KEYWORDS`) are dropped (use :func:`restore_defaults` to get the defaults back at call time).

    Args:
        schema: a tool's ``parameters`` schema (root ``type: object``).

    Returns:
        A new schema for which ``strict_violations(schema, portable=True)`` returns ``[]``.

    Example:
        >>> to_strict({"type": "object", "properties": {"n": {"type": "integer", "default": 5}}})
        {'type': 'object', 'properties': {'n': {'type': ['integer', 'null']}}, 'additionalProperties': False, 'required': ['n']}
    """
    out = copy.deepcopy(schema)
    for _, sub in _walk(out):
        for kw in (STRICT_UNSUPPORTED_KEYWORDS | NOT_PORTABLE_KEYWORDS) & sub.keys():
            del sub[kw]
    # Second pass: widening a property replaces its dict, so walk a materialised list.
    for _, sub in list(_walk(out)):
        if not _is_object(sub):
            continue
        props = sub.setdefault("properties", {})
        required = list(sub.get("required") or [])
        for name in props:
            if name not in required:
                props[name] = _nullable(props[name])
                required.append(name)
        sub["additionalProperties"] = False
        sub["required"] = required
    return out


def restore_defaults(arguments: dict, original_schema: dict) -> dict:
    """Replace the ``null`` of an omitted optional field by the original schema's default.

    A strict model must send every field, so it sends ``null`` for the ones the user did
    not mention. The tool expects its Python default instead.

    Args:
        arguments: the decoded arguments the model sent.
        original_schema: the schema *before* :func:`to_strict` (it still has ``default``).

    Returns:
        A new dict; fields that were ``null`` and optional get their default, or are
        removed when the original schema had no default.

    Example:
        >>> restore_defaults({"q": "x", "limit": None},
        ...     {"type": "object", "properties": {"q": {"type": "string"},
        ...      "limit": {"type": "integer", "default": 5}}, "required": ["q"]})
        {'q': 'x', 'limit': 5}
    """
    props = original_schema.get("properties") or {}
    required = set(original_schema.get("required") or [])
    out: dict = {}
    for key, value in arguments.items():
        spec = props.get(key) or {}
        if value is None and key not in required:
            if "default" in spec:
                out[key] = spec["default"]
            continue
        if isinstance(value, dict) and _is_object(spec):
            value = restore_defaults(value, spec)
        out[key] = value
    return out
