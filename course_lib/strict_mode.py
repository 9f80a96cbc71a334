"""Strict mode for function tools: what it demands of a schema, and a converter.

With ``"strict": true`` on a tool, OpenAI constrains decoding so the arguments always
match the schema. That only works for a subset of JSON Schema, so the API rejects a
strict tool unless (as documented for Structured Outputs):

* the root is ``{"type": "object"}`` (not ``anyOf``);
* every object sets ``"additionalProperties": false``;
* every object lists **all** of its properties in ``required`` (an optional field is
  written as a required field that may be ``null``);
* no unsupported keyword appears (``default``, ``patternProperties``, ``allOf``...).

:func:`strict_violations` lists what breaks those rules (the mock LLM uses it to reject
strict tools with HTTP 400, like the real API), and :func:`to_strict` rewrites a schema
so that it passes, remembering the defaults it had to drop; :func:`restore_defaults`
maps the ``null`` a strict model sends for an omitted optional field back to its
default. Taught in lesson 02.
"""
from __future__ import annotations

import copy
from typing import Any, Iterator

#: Keywords strict mode refuses (Structured Outputs "supported schemas", 2025-2026).
STRICT_UNSUPPORTED_KEYWORDS: frozenset[str] = frozenset(
    {
        "default",
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


def strict_violations(schema: Any) -> list[str]:
    """List every reason strict mode would refuse ``schema`` (empty list = acceptable).

    Messages follow the API's phrasing, ``In context=(path...), ...``, so a learner can
    find the offending place.

    Args:
        schema: the ``parameters`` JSON Schema of one function tool.

    Returns:
        A list of human-readable violations, in document order.

    Example:
        >>> strict_violations({"type": "object", "properties": {"a": {"type": "string"}}})[0]
        "In context=(), 'additionalProperties' is required to be supplied and to be false."
    """
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return ["schema must be a JSON Schema of 'type: \"object\"' at the root in strict mode."]
    problems: list[str] = []
    for path, sub in _walk(schema):
        where = f"In context=({', '.join(repr(p) for p in path)})"
        for kw in sorted(STRICT_UNSUPPORTED_KEYWORDS & sub.keys()):
            problems.append(f"{where}, '{kw}' is not permitted.")
        if not _is_object(sub):
            continue
        if sub.get("additionalProperties") is not False:
            problems.append(f"{where}, 'additionalProperties' is required to be supplied and to be false.")
        props = list((sub.get("properties") or {}).keys())
        missing = [p for p in props if p not in (sub.get("required") or [])]
        if missing:
            problems.append(
                f"{where}, 'required' is required to be supplied and to be an array including "
                f"every key in properties. Missing '{missing[0]}'."
            )
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
    those that were optional become nullable; ``default`` and other unsupported keywords
    are dropped (use :func:`restore_defaults` to get the defaults back at call time).

    Args:
        schema: a tool's ``parameters`` schema (root ``type: object``).

    Returns:
        A new schema for which :func:`strict_violations` returns ``[]``.

    Example:
        >>> to_strict({"type": "object", "properties": {"n": {"type": "integer", "default": 5}}})
        {'type': 'object', 'properties': {'n': {'type': ['integer', 'null']}}, 'additionalProperties': False, 'required': ['n']}
    """
    out = copy.deepcopy(schema)
    for _, sub in _walk(out):
        for kw in STRICT_UNSUPPORTED_KEYWORDS & sub.keys():
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
