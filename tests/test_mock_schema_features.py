"""Mock LLM behaviours the schema lessons rely on (small engine changes made for lessons 02-03)."""
from __future__ import annotations

import pytest

from course_lib.mock_llm.arguments import accepts_null, deref, fill_arguments
from course_lib.mock_llm.language import find_numbers

WIKI = {"type": "object", "properties": {
    "query": {"type": "string", "description": "What to search for"},
    "space": {"type": "string", "enum": ["engineering", "product", "hr", "finance"]},
    "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5,
              "description": "Maximum number of pages to return"}},
    "required": ["query"]}


@pytest.mark.parametrize("text, arguments", [
    ("Search the engineering wiki for the deployment checklist", {"query": "the deployment checklist",
                                                                  "space": "engineering"}),
    ("Find the top 3 wiki pages about onboarding", {"query": "onboarding", "limit": 3}),
    ("look up 5 results on vector databases", {"query": "vector databases", "limit": 5}),
    ("在公司 Wiki 里搜索报销流程", {"query": "报销流程"}),
    ("在公司知识库里查一下报销流程", {"query": "报销流程"}),  # 一下 is not the number one
    ("帮我搜索一下关于年假的文档", {"query": "年假"}),
])
def test_search_queries_keep_the_topic_not_the_framing(text, arguments):
    assert fill_arguments(WIKI, text).arguments == arguments


def test_yi_in_words_is_not_a_number():
    assert find_numbers("查一下") == [] and find_numbers("一起去") == []
    assert [n for n, _, _ in find_numbers("给我一个结果, 三篇文章")] == [1, 3]


def test_local_refs_are_followed():
    schema = {"type": "object", "$defs": {"Space": {"type": "string", "enum": ["engineering", "hr"]}},
              "properties": {"query": {"type": "string"}, "space": {"$ref": "#/$defs/Space"}}, "required": ["query"]}
    assert deref(schema["properties"]["space"], schema) == {"type": "string", "enum": ["engineering", "hr"]}
    assert fill_arguments(schema, "search the HR wiki for holidays").arguments["space"] == "hr"
    assert deref({"$ref": "#/$defs/Missing"}, schema) == {"$ref": "#/$defs/Missing"}


def test_required_but_nullable_means_null_when_not_mentioned():
    strict = {"type": "object", "properties": {"name": {"type": "string"}, "is_admin": {"type": ["boolean", "null"]},
                                               "team": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
              "required": ["name", "is_admin", "team"], "additionalProperties": False}
    filled = fill_arguments(strict, 'Create a user named "ana"')
    assert filled.arguments == {"name": "ana", "is_admin": None, "team": None} and filled.missing == []
    assert accepts_null({"enum": ["a", None]}) and not accepts_null({"type": "string"})


def test_pydantic_optional_fields_are_filled_as_their_type():
    schema = {"type": "object", "$defs": {"Space": {"type": "string", "enum": ["engineering", "hr"]}},
              "properties": {"query": {"type": "string"},
                             "space": {"anyOf": [{"$ref": "#/$defs/Space"}, {"type": "null"}], "default": None},
                             "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None}},
              "required": ["query"]}
    assert fill_arguments(schema, "Find the top 3 pages about vpn in the engineering wiki").arguments == {
        "query": "vpn in the engineering wiki", "space": "engineering", "limit": 3}


def test_a_repaired_failure_needs_no_fallback_tool():
    from course_lib.examples import WEATHER_TOOL
    from course_lib.mock_llm import MockLLM

    other = {"type": "function", "function": {"name": "weather_backup", "description": "Weather for a city (backup).",
                                              "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                             "required": ["city"]}}}
    messages = [
        {"role": "user", "content": "What's the weather in Tokyo?"},
        {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                                              "function": {"name": "get_weather", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"error": "missing required argument \'city\'"}'},
        {"role": "assistant", "tool_calls": [{"id": "c2", "type": "function",
                                              "function": {"name": "get_weather", "arguments": '{"city": "Tokyo"}'}}]},
        {"role": "tool", "tool_call_id": "c2", "content": '{"temp": 24, "humidity": 70}'},
    ]
    decision = MockLLM().explain(messages, [WEATHER_TOOL, other])
    assert decision.tool_calls == [] and decision.content == "Tokyo: 24 °C, humidity 70 %."
