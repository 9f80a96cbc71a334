"""Anthropic and Gemini shapes, checked against each provider SDK's own types."""
from __future__ import annotations

import json

import pydantic
import pytest

from course_lib.examples import WEATHER_TOOL
from course_lib.provider_shapes import (GEMINI_SCHEMA_KEYWORDS, ToolCall, calls_from_anthropic, calls_from_gemini,
                                        check_with_sdk, to_anthropic_messages, to_anthropic_tool,
                                        to_gemini_contents, to_gemini_function_declaration, to_gemini_schema,
                                        to_gemini_tools, tool_choice_for)
from course_lib.tool_schemas import to_mcp_tool, to_responses_tool

WIKI = {"type": "function", "function": {
    "name": "search_wiki", "description": "Search the company wiki.",
    "parameters": {"type": "object", "$defs": {"space": {"type": "string", "enum": ["hr", "engineering"]}},
                   "properties": {"query": {"type": "string", "minLength": 1},
                                  "space": {"anyOf": [{"$ref": "#/$defs/space"}, {"type": "null"}]},
                                  "limit": {"type": ["integer", "null"], "exclusiveMinimum": 0, "maximum": 20}},
                   "required": ["query"], "additionalProperties": False}}}

CONVERSATION = [
    {"role": "system", "content": "You are a weather assistant."},
    {"role": "user", "content": "Weather in Paris and Tokyo?"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}},
        {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Tokyo"}'}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": json.dumps({"temp": 18, "humidity": 72})},
    {"role": "tool", "tool_call_id": "call_2", "content": "24 C, humid"},
    {"role": "assistant", "content": "Paris 18 °C, Tokyo 24 °C."},
]


@pytest.mark.parametrize("shape", [lambda t: t, to_responses_tool, to_mcp_tool])
def test_anthropic_tool_from_any_shape_is_a_valid_tool_param(shape):
    tool = to_anthropic_tool(shape(WEATHER_TOOL))
    assert tool == {"name": "get_weather", "description": WEATHER_TOOL["function"]["description"],
                    "input_schema": WEATHER_TOOL["function"]["parameters"]}
    assert check_with_sdk("anthropic", "tool", tool) == "anthropic.types.ToolParam"


@pytest.mark.parametrize("shape", [lambda t: t, to_responses_tool])
def test_a_strict_tool_stays_strict_for_anthropic(shape):
    strict = {"type": "function", "function": {**WIKI["function"], "strict": True}}
    tool = to_anthropic_tool(shape(strict))
    assert tool["strict"] is True and tool["input_schema"] == WIKI["function"]["parameters"]
    assert check_with_sdk("anthropic", "tool", tool) == "anthropic.types.ToolParam"
    assert "strict" not in to_anthropic_tool(shape(WIKI))  # not strict: Anthropic's default, no key


def test_the_openai_shape_is_not_an_anthropic_tool():
    with pytest.raises(pydantic.ValidationError, match="input_schema"):
        check_with_sdk("anthropic", "tool", {"name": "get_weather", "parameters": {"type": "object"}})


def test_anthropic_conversation_objects_results_together_and_system_on_top():
    system, messages = to_anthropic_messages(CONVERSATION)
    assert system == "You are a weather assistant."
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant"]
    uses = messages[1]["content"]
    assert uses == [{"type": "tool_use", "id": "call_1", "name": "get_weather", "input": {"city": "Paris"}},
                    {"type": "tool_use", "id": "call_2", "name": "get_weather", "input": {"city": "Tokyo"}}]
    assert [b["tool_use_id"] for b in messages[2]["content"]] == ["call_1", "call_2"]  # one user turn
    assert check_with_sdk("anthropic", "messages", messages) == "anthropic.types.MessageParam"


def test_a_tool_use_with_string_arguments_fails_the_anthropic_types():
    bad = [{"role": "assistant", "content": [{"type": "tool_use", "id": "c", "name": "f", "arguments": "{}"}]}]
    with pytest.raises(pydantic.ValidationError):
        check_with_sdk("anthropic", "messages", bad)


def test_calls_come_back_from_an_anthropic_reply_object():
    from anthropic.types import Message

    reply = Message.model_validate({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude", "stop_reason": "tool_use",
        "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 5},
        "content": [{"type": "text", "text": "Let me check."},
                    {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}]})
    assert calls_from_anthropic(reply.content) == [ToolCall("toolu_1", "get_weather", {"city": "Paris"})]


def test_gemini_schema_rewrites_nullable_inlines_refs_and_reports_what_it_dropped():
    converted = to_gemini_function_declaration(WIKI)
    params = converted.schema["parameters"]
    assert params["properties"]["space"] == {"type": "string", "enum": ["hr", "engineering"], "nullable": True}
    assert params["properties"]["limit"] == {"type": "integer", "nullable": True, "maximum": 20}
    assert sorted(converted.dropped) == ["/parameters/additionalProperties",
                                         "/parameters/properties/limit/exclusiveMinimum"]

    def keys(node):
        if isinstance(node, dict):
            for k, v in node.items():
                yield k
                yield from (keys(v) if k != "properties" else (x for s in v.values() for x in keys(s)))
        elif isinstance(node, list):
            for x in node:
                yield from keys(x)
    assert set(keys(params)) <= GEMINI_SCHEMA_KEYWORDS
    assert check_with_sdk("gemini", "tool", converted.schema) == "google.genai.types.FunctionDeclaration"


def test_gemini_enum_is_for_strings_const_becomes_enum_and_unknown_formats_go():
    r = to_gemini_schema({"type": "object", "properties": {"n": {"type": "integer", "enum": [1, 2]},
                                                           "k": {"const": "x"},
                                                           "when": {"type": "string", "format": "date-time"},
                                                           "mail": {"type": "string", "format": "email"}}})
    assert r.schema["properties"] == {"n": {"type": "integer"}, "k": {"enum": ["x"]},
                                      "when": {"type": "string", "format": "date-time"}, "mail": {"type": "string"}}
    assert r.dropped == ["/properties/n/enum", "/properties/mail/format"]


def test_gemini_tools_wrap_declarations_and_validate_as_an_sdk_tool():
    from google.genai import types

    tools = to_gemini_tools([WEATHER_TOOL, WIKI])
    parsed = types.Tool.model_validate(tools[0])
    assert [d.name for d in parsed.function_declarations] == ["get_weather", "search_wiki"]


def test_gemini_contents_roles_call_ids_and_object_responses():
    instruction, contents = to_gemini_contents(CONVERSATION)
    assert instruction == {"parts": [{"text": "You are a weather assistant."}]}
    assert [c["role"] for c in contents] == ["user", "model", "user", "model"]
    assert contents[1]["parts"][0] == {"functionCall": {"id": "call_1", "name": "get_weather", "args": {"city": "Paris"}}}
    responses = [p["functionResponse"] for p in contents[2]["parts"]]
    assert responses == [{"id": "call_1", "name": "get_weather", "response": {"temp": 18, "humidity": 72}},
                         {"id": "call_2", "name": "get_weather", "response": {"output": "24 C, humid"}}]
    assert check_with_sdk("gemini", "contents", contents) == "google.genai.types.Content"
    assert calls_from_gemini(contents[1]["parts"]) == [ToolCall("call_1", "get_weather", {"city": "Paris"}),
                                                      ToolCall("call_2", "get_weather", {"city": "Tokyo"})]


def test_a_result_for_an_unknown_call_is_refused():
    with pytest.raises(ValueError, match="unknown call 'nope'"):
        to_gemini_contents([{"role": "tool", "tool_call_id": "nope", "content": "x"}])


def test_arguments_that_are_not_an_object_are_refused():
    bad = [{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": '["x"]'}}]}]
    with pytest.raises(ValueError, match="JSON object"):
        to_anthropic_messages(bad)


@pytest.mark.parametrize("choice, parallel, anthropic, gemini", [
    ("auto", None, {"type": "auto"}, {"mode": "AUTO"}),
    ("none", None, {"type": "none"}, {"mode": "NONE"}),
    ("required", False, {"type": "any", "disable_parallel_tool_use": True}, {"mode": "ANY"}),
    ({"type": "function", "function": {"name": "get_weather"}}, None, {"type": "tool", "name": "get_weather"},
     {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}),
])
def test_tool_choice_translates(choice, parallel, anthropic, gemini):
    assert tool_choice_for("anthropic", choice, parallel_tool_calls=parallel) == anthropic
    assert tool_choice_for("gemini", choice, parallel_tool_calls=parallel) == {"functionCallingConfig": gemini}
    from google.genai import types
    types.ToolConfig.model_validate({"functionCallingConfig": gemini})
    pydantic.TypeAdapter(__import__("anthropic").types.ToolChoiceParam).validate_python(anthropic)


def test_unknown_tool_choice_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown tool_choice"):
        tool_choice_for("gemini", "sometimes")
