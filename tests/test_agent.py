"""The agent loop on the registry: stop conditions, the state machine, and the trace of every step."""
from __future__ import annotations

import asyncio
import json

import pytest

from course_lib.agent import STOP_REASONS, TERMINAL, TRANSITIONS, Agent, state_diagram
from course_lib.examples import get_weather
from course_lib.mock_llm import MockLLM
from course_lib.tool_registry import ToolRegistry


@pytest.fixture
def reg():
    r = ToolRegistry("agent-test", env={})
    r.register(handler=get_weather, toolset="weather")

    @r.tool(toolset="clock")
    def get_time(city: str) -> dict:
        """Get the current local time in a city."""
        return {"city": city, "time": "12:00"}

    return r


def test_answer_after_parallel_tool_calls(mock, reg):
    result = Agent(mock.client(max_retries=0), reg).run("What's the weather in Beijing and Shanghai?")
    assert result.stop_reason == "answer"
    assert result.answer == "Beijing: 22 °C, humidity 40 %. Shanghai: 28 °C, humidity 65 %."
    assert [(c["name"], json.loads(c["arguments"])) for c in result.tool_calls] == [
        ("get_weather", {"city": "Beijing"}), ("get_weather", {"city": "Shanghai"})]
    assert result.states == ["start", "thinking", "acting", "thinking", "done"]
    assert [m["role"] for m in result.messages] == ["user", "assistant", "tool", "tool", "assistant"]


def test_the_trace_records_every_step(mock, reg):
    result = Agent(mock.client(max_retries=0), reg).run("What's the weather in Paris?")
    assert [(e.src, e.dst, e.layer) for e in result.trace.events] == [
        ("User", "Agent", "app"), ("Agent", "LLM", "llm"), ("LLM", "LLM", "llm"), ("LLM", "Agent", "llm"),
        ("Tools", "Tools", "tool"), ("Tools", "Agent", "tool"),
        ("Agent", "LLM", "llm"), ("LLM", "LLM", "llm"), ("LLM", "Agent", "llm"), ("Agent", "User", "app")]
    labels = [e.label for e in result.trace.events]
    assert labels[1] == "POST /chat/completions (1 message, 2 tools)"
    assert labels[3] == 'tool_calls: get_weather({"city": "Paris"})'
    assert labels[5] == 'get_weather -> {"temp": 18, "humidity": 72}'
    assert result.trace.events[5].payload["role"] == "tool"
    assert result.trace.events[4].end is not None  # tool runs are spans (timeline)
    assert "Paris: 18 °C" in result.trace.text()


def test_the_trace_labels_speak_chinese_in_the_chinese_edition(mock, reg, monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    result = Agent(mock.client(max_retries=0), reg).run("巴黎天气怎么样？")
    labels = [e.label for e in result.trace.events]
    assert labels[1:3] == ["POST /chat/completions（1 条消息，2 个工具）", "第 1 次模型调用"]
    assert labels[6] == "POST /chat/completions（3 条消息，2 个工具）"
    assert labels[8].startswith("回答：巴黎")
    mock.script({"tool_calls": [{"name": "get_time", "arguments": {"city": "Paris"}}]})
    stopped = Agent(mock.client(max_retries=0), reg, max_steps=1).run("现在几点？")
    assert stopped.trace.events[-1].label == "已停止：max_steps"  # the stop reason is a code: kept


def test_max_steps_stops_a_model_that_keeps_calling_tools(mock, reg):
    mock.script(*[{"tool_calls": [{"name": "get_time", "arguments": {"city": "Paris"}}]}] * 3)
    result = Agent(mock.client(max_retries=0), reg, max_steps=2).run("What time is it in Paris?")
    assert result.stop_reason == "max_steps" and result.answer == ""
    assert len(result.steps) == 2 and result.states[-1] == "stopped"
    assert result.trace.events[-1].label == "stopped: max_steps"


def test_stop_tool_result_is_the_answer(mock, reg):
    @reg.tool(toolset="control")
    def final_answer(text: str) -> str:
        """Give the final answer to the user and stop."""
        return text

    mock.script({"tool_calls": [{"name": "final_answer", "arguments": {"text": "done!"}}]})
    result = Agent(mock.client(max_retries=0), reg, stop_tools=["final_answer"]).run("finish")
    assert (result.stop_reason, result.answer, result.states[-1]) == ("stop_tool", "done!", "done")


def test_stop_when_predicate(mock, reg):
    result = Agent(mock.client(max_retries=0), reg,
                   stop_when=lambda step: any(r.ok for r in step.results)).run("What's the weather in Paris?")
    assert result.stop_reason == "stop_when" and len(result.steps) == 1


def test_an_api_error_stops_the_run_with_a_reason(mock, reg):
    mock.inject("server_error")
    result = Agent(mock.client(max_retries=0), reg).run("What's the weather in Paris?")
    assert result.stop_reason == "llm_error" and result.states[-1] == "failed"
    assert "500" in str(result.error)


def test_tool_errors_go_back_to_the_model_and_it_recovers(mock, reg):
    mock.inject("malformed_arguments")
    result = Agent(mock.client(max_retries=0), reg).run("What's the weather in Paris?")
    assert result.stop_reason == "answer" and "18 °C" in result.answer
    first = result.steps[0].results[0]
    assert first.error == "invalid_json"
    assert [e.kind for e in result.trace.events if e.layer == "tool" and e.src != e.dst] == ["error", "response"]


def test_definitions_are_recomputed_every_step(mock, reg):
    @reg.tool(toolset="admin")
    def lock_clock() -> str:
        """Lock the clock toolset."""
        reg.disable("clock")
        return "locked"

    mock.script({"tool_calls": [{"name": "lock_clock", "arguments": {}}]})
    result = Agent(mock.client(max_retries=0), reg).run("lock it")
    requests = [x.request for x in mock.log]
    assert [len(r["tools"]) for r in requests] == [3, 2]
    assert result.stop_reason == "answer"


def test_agent_toolsets_restrict_what_the_model_sees(mock, reg):
    Agent(mock.client(max_retries=0), reg, toolsets=["clock"]).run("What time is it in Tokyo?")
    assert [t["function"]["name"] for t in mock.log[0].request["tools"]] == ["get_time"]


def test_system_prompt_and_continuing_a_conversation(mock, reg):
    agent = Agent(mock.client(max_retries=0), reg, system="You are terse.")
    first = agent.run("What's the weather in Paris?")
    assert first.messages[0] == {"role": "system", "content": "You are terse."}
    second = agent.run(first.messages + [{"role": "user", "content": "And in Tokyo?"}])
    assert second.tool_calls and json.loads(second.tool_calls[0]["arguments"]) == {"city": "Tokyo"}
    assert [m["role"] for m in second.messages].count("system") == 1


def test_arun_with_an_async_client_runs_calls_concurrently(mock):
    both = asyncio.Barrier(2)
    r = ToolRegistry("async", env={})

    @r.tool
    async def get_weather(city: str) -> dict:
        """Get the current weather for a city."""
        await asyncio.wait_for(both.wait(), 5)  # only returns if the two calls run at the same time
        return {"temp": 20}

    result = asyncio.run(Agent(mock.async_client(max_retries=0), r).arun("Weather in Paris and in Tokyo?"))
    assert result.stop_reason == "answer" and len(result.tool_calls) == 2
    assert result.answer == "Paris: 20 °C. Tokyo: 20 °C."


def test_the_state_machine_is_data():
    assert set(TERMINAL) == {"done", "stopped", "failed"}
    events = {e for edges in TRANSITIONS.values() for e in edges}
    assert set(STOP_REASONS) <= events
    fig = state_diagram()
    assert "thinking --tool_calls--> acting" in fig.fallback_text


def test_agent_repr(mock, reg):
    assert repr(Agent(mock.client(), reg, max_steps=3, toolsets=["weather"])) == (
        "Agent('Agent', registry='agent-test', max_steps=3, toolsets=['weather'])")
    with pytest.raises(ValueError):
        Agent(mock.client(), reg, max_steps=0)
