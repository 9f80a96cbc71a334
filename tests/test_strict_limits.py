"""Strict mode's limits beyond additionalProperties/required: size, portability, the request."""
from __future__ import annotations

from course_lib.strict_mode import (STRICT_LIMITS, is_strict, strict_request_problems, strict_violations,
                                    to_strict)

CLOSED = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": False}


def nested(levels: int) -> dict:
    schema: dict = {"type": "object", "properties": {"leaf": {"type": "string"}}, "required": ["leaf"],
                    "additionalProperties": False}
    for _ in range(levels - 1):
        schema = {"type": "object", "properties": {"child": schema}, "required": ["child"],
                  "additionalProperties": False}
    return schema


def test_nesting_depth_limit_is_enforced_at_the_documented_level():
    assert strict_violations(nested(STRICT_LIMITS["depth"])) == []
    assert strict_violations(nested(STRICT_LIMITS["depth"] + 1)) == [
        "The schema nests objects 11 levels deep; strict mode allows 10."]


def test_property_and_enum_counts_are_limited():
    many = {f"p{i}": {"type": "string"} for i in range(STRICT_LIMITS["properties"] + 1)}
    big = {"type": "object", "properties": many, "required": list(many), "additionalProperties": False}
    assert strict_violations(big) == ["The schema has 5001 object properties; strict mode allows 5000."]
    enum = {"type": "object", "properties": {"c": {"type": "string", "enum": [str(i) for i in range(1001)]}},
            "required": ["c"], "additionalProperties": False}
    assert strict_violations(enum) == ["The schema has 1001 enum values; strict mode allows 1000."]


def test_unsupported_keywords_are_refused_and_to_strict_removes_them_and_default():
    schema = {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"},
                                                        "uniqueItems": True, "default": []}},
              "required": ["tags"], "additionalProperties": False}
    assert strict_violations(schema) == ["In context=('properties', 'tags'), 'uniqueItems' is not permitted."]
    fixed = to_strict(schema)
    assert fixed["properties"]["tags"] == {"type": "array", "items": {"type": "string"}}
    assert strict_violations(fixed, portable=True) == []


def test_responses_makes_a_tool_strict_when_strict_is_omitted_chat_does_not():
    chat = {"type": "function", "function": {"name": "f", "parameters": CLOSED}}
    flat = {"type": "function", "name": "f", "parameters": CLOSED}
    assert not is_strict(chat, "chat") and is_strict(flat, "responses")
    assert not is_strict({**flat, "strict": False}, "responses")


def test_request_problems_name_the_implicit_strictness_and_parallel_calls():
    optional = {"type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}},
                "required": ["q"]}
    flat = {"type": "function", "name": "search", "parameters": optional}
    problems = strict_request_problems([flat], api="responses", parallel_tool_calls=False)
    assert problems == ["search: 'strict' is omitted, so the Responses API normalises the tool into strict mode: "
                        "optional fields ['limit'] become required and extra keys are refused "
                        "(additionalProperties: false); send \"strict\": false to keep it as written"]
    assert strict_request_problems([{**flat, "strict": False}], api="responses") == []
    strict_chat = {"type": "function", "function": {"name": "search", "strict": True, "parameters": CLOSED}}
    assert strict_request_problems([strict_chat]) == [
        "strict tools ['search'] with parallel tool calls on: a parallel call may not match the schemas; "
        "send parallel_tool_calls=False"]
    assert strict_request_problems([strict_chat], parallel_tool_calls=False) == []
    assert strict_request_problems([{"type": "function", "function": {"name": "x", "parameters": optional}}]) == []
