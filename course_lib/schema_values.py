"""Values reach a tool's handler as its JSON Schema says: an ``integer`` given as ``60.0`` arrives as ``60``.

JSON has one number type. JSON Schema (2020-12, Validation §6.1.1) calls ``60.0`` an integer,
since "a number with a zero fractional part" is one, so validation lets it through; a Python
handler then receives the float ``60.0`` and ``range(limit)`` or ``items[:limit]`` fails with
"slice indices must be integers". Models do send ``60.0`` (and some JSON encoders write every
number with a decimal point). So every path into a handler (the tool registry, the MCP bridge,
the course's MCP servers) converts integral floats to ``int`` wherever the schema says
``integer``, after validation, and refuses nothing more than validation does. ``True`` is never
an integer: validation already refuses it (a boolean is not a number in JSON Schema), and this
module never turns one into ``1``.

Standard library only: stdio MCP servers import it at start-up.
"""
from __future__ import annotations

from typing import Any

_MAX_REF_HOPS = 32  # a $ref chain longer than this is left alone (cycles cannot loop forever)


def wants_integer(schema: Any) -> bool:
    """True when ``schema`` accepts integers but not other numbers (``type`` integer, or a list with it)."""
    if not isinstance(schema, dict):
        return False
    t = schema.get("type")
    if t == "integer":
        return True
    return isinstance(t, list) and "integer" in t and "number" not in t


def mentions_integer(schema: Any) -> bool:
    """True when ``"integer"`` appears as a type anywhere in ``schema`` (cheap test: skip the walk if not)."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            t = node.get("type")
            if t == "integer" or (isinstance(t, list) and "integer" in t):
                return True
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (dict, list)))
    return False


def _resolve(schema: dict, root: dict) -> dict:
    hops = 0
    while isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#") and hops < _MAX_REF_HOPS:
        target: Any = root
        for part in schema["$ref"][1:].split("/")[1:]:
            part = part.replace("~1", "/").replace("~0", "~")
            target = target.get(part) if isinstance(target, dict) else None
        if not isinstance(target, dict):
            return schema
        schema, hops = target, hops + 1
    return schema


def integral_to_int(value: Any, schema: Any, root: Any = None) -> Any:
    """``value`` with every integral float that ``schema`` types as ``integer`` made an ``int``.

    Follows ``properties``, ``additionalProperties``, ``items``, ``prefixItems``, local ``$ref``
    (``#/$defs/...``), ``allOf``, and ``anyOf``/``oneOf`` when every branch that accepts numbers
    wants an integer (``patternProperties``, rare in tool schemas, is not followed). A new container
    is built only where something changed; the input is never modified.

    Args:
        value: validated arguments (a dict for a tool call, or any JSON value).
        schema: the JSON Schema ``value`` was validated against.
        root: the document local ``$ref`` points into (default: ``schema``).

    Returns:
        The converted value (the same object when nothing needed converting).

    Example:
        >>> integral_to_int({"limit": 60.0, "ratio": 0.5}, {"type": "object", "properties": {
        ...     "limit": {"type": "integer"}, "ratio": {"type": "number"}}})
        {'limit': 60, 'ratio': 0.5}
    """
    if not isinstance(schema, dict):
        return value
    root = schema if root is None else root
    schema = _resolve(schema, root)
    if isinstance(value, float):
        if value.is_integer() and (wants_integer(schema) or _branches_want_integer(schema, root)):
            return int(value)
        return value
    for sub in schema.get("allOf") or ():
        value = integral_to_int(value, sub, root)
    if isinstance(value, dict):
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        extra = schema.get("additionalProperties")
        out = None
        for k, v in value.items():
            sub = props.get(k, extra if isinstance(extra, dict) else None)
            if sub is None or not isinstance(v, (float, dict, list)):
                continue
            new = integral_to_int(v, sub, root)
            if new is not v:
                out = dict(value) if out is None else out
                out[k] = new
        return value if out is None else out
    if isinstance(value, list):
        prefix = schema.get("prefixItems") if isinstance(schema.get("prefixItems"), list) else []
        items = schema.get("items")
        out_list = None
        for i, v in enumerate(value):
            sub = prefix[i] if i < len(prefix) else items
            if not isinstance(sub, dict) or not isinstance(v, (float, dict, list)):
                continue
            new = integral_to_int(v, sub, root)
            if new is not v:
                out_list = list(value) if out_list is None else out_list
                out_list[i] = new
        return value if out_list is None else out_list
    return value


def _branches_want_integer(schema: dict, root: dict) -> bool:
    branches = [_resolve(b, root) for key in ("anyOf", "oneOf") for b in schema.get(key) or () if isinstance(b, dict)]
    numeric = [b for b in branches if wants_integer(b) or b.get("type") == "number"
               or (isinstance(b.get("type"), list) and "number" in b["type"])]
    return bool(numeric) and all(wants_integer(b) for b in numeric)
