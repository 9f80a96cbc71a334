"""The three frameworks run against the mock through a Recorder: every request, reply and tool run, in order."""
from __future__ import annotations

import asyncio
import json

import pytest

from course_lib.agent_frameworks import (Recorder, agents_sdk_tools, langchain_tools, pydantic_ai_tools,
                                         reply_summary, request_summary, run_agents_sdk, run_langgraph,
                                         run_pydantic_ai)
from course_lib.examples import get_weather, search_wiki
from course_lib.tool_registry import ToolRegistry

QUESTION = "What's the weather in Shanghai?"
RUNS = {"Agents SDK": run_agents_sdk, "pydantic-ai": run_pydantic_ai, "LangGraph": run_langgraph}


@pytest.mark.parametrize("name", RUNS)
def test_each_framework_runs_the_five_steps_and_the_trace_shows_them(name):
    rec = Recorder(name)
    answer = asyncio.run(RUNS[name](rec, QUESTION, [rec.tool(get_weather)], instructions="Use the tools."))
    assert "28" in answer and "65" in answer
    kinds = [(e.src, e.dst) for e in rec.trace.events]
    assert kinds == [(name, "LLM"), ("LLM", name), ("Tools", "Tools"), (name, "LLM"), ("LLM", name)]
    assert rec.trace.events[1].label.startswith("tool_calls: get_weather(")
    assert [m["role"] for m in rec.requests[1]["messages"]][-2:] == ["assistant", "tool"]
    assert json.loads(rec.requests[1]["messages"][-1]["content"].replace("'", '"')) == {"temp": 28, "humidity": 65}


def test_the_defaults_differ_as_the_lesson_says():
    seen = {}
    for name, run in RUNS.items():
        rec = Recorder(name)
        asyncio.run(run(rec, QUESTION, [rec.tool(get_weather)], instructions="Use the tools."))
        seen[name] = (rec.tools_sent()[0]["strict"], rec.requests[1]["messages"][-1]["content"])
    assert seen["Agents SDK"] == (True, "{'temp': 28, 'humidity': 65}")  # strict, and str() of the dict
    assert seen["pydantic-ai"] == (None, '{"temp":28,"humidity":65}')
    assert seen["LangGraph"] == (None, '{"temp": 28, "humidity": 65}')


def test_streaming_and_the_responses_api_of_the_agents_sdk():
    rec = Recorder("stream")
    asyncio.run(run_agents_sdk(rec, QUESTION, [get_weather], instructions="x", stream=True))
    assert all(body.get("stream") for body in rec.requests)
    rec = Recorder("responses")
    asyncio.run(run_agents_sdk(rec, QUESTION, [get_weather], instructions="Be brief.", api="responses"))
    assert [b["instructions"] for b in rec.requests] == ["Be brief.", "Be brief."]
    assert [i.get("type", "message") for i in rec.requests[1]["input"]][-2:] == ["function_call", "function_call_output"]


@pytest.mark.parametrize("make, run", [(agents_sdk_tools, run_agents_sdk), (pydantic_ai_tools, run_pydantic_ai),
                                       (langchain_tools, run_langgraph)])
def test_the_registry_drives_every_framework(make, run):
    registry = ToolRegistry("t", env={})
    registry.register(handler=get_weather, toolset="weather")
    registry.register(handler=search_wiki, toolset="wiki")
    ran = []
    registry.before_call(lambda inv: ran.append(inv.entry.name))
    rec = Recorder("x")
    answer = asyncio.run(run(rec, "Search the wiki for the vacation policy, and what's the weather in Paris?",
                             make(registry), instructions="Use the tools."))
    assert sorted(ran) == ["get_weather", "search_wiki"] and "Paris" in answer
    sent = {t["name"]: t for t in rec.tools_sent()}
    assert sent["search_wiki"]["parameters"] == registry.effective_schema("search_wiki")["parameters"]
    assert not sent["search_wiki"]["strict"]


def test_summaries_read_both_apis():
    assert request_summary("/v1/responses", {"input": "hi", "instructions": "x", "tools": [{"name": "f"}]}) == \
        "responses · instructions, input: text · tools: f"
    assert reply_summary("/v1/responses", {"output": [{"type": "function_call", "name": "f", "arguments": "{}"}]}) == \
        "function_call: f({})"
    assert reply_summary("/v1/chat/completions", {"choices": [{"message": {"content": "hello"}}]}) == "text: hello"
