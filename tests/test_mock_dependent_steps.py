"""The mock model waits for results a later step needs, respects refusals, and reads marked data.

Three behaviours the capstone (lesson 12) relies on, each a whole kind of request:

* "get X, then save *a summary*": the step that refers back to earlier results waits for
  them, and its text argument is written from them (as a model writes a summary of what a
  tool returned), instead of being copied from the request's words;
* a call refused by a policy (``"kind": "denied"``) is final: no other tool is tried;
* tool output marked as untrusted data (lesson 05) is read inside its wrapper.
"""
from __future__ import annotations

import json

import pytest

from course_lib.agent import Agent
from course_lib.mock_llm import MockLLM
from course_lib.security import as_untrusted
from course_lib.tool_registry import ToolError, ToolRegistry


def _registry(saved: list[dict], *, weather_fails: bool = False) -> ToolRegistry:
    reg = ToolRegistry("deps", env={})

    @reg.tool
    def get_weather(city: str) -> dict:
        """Get the current weather (temperature, humidity) for a city."""
        if weather_fails:
            raise ToolError("the weather service is down")
        return {"Paris": {"temp": 18, "humidity": 72}, "Tokyo": {"temp": 24, "humidity": 70}}[city]

    @reg.tool
    def save_note(path: str, content: str) -> dict:
        """Save a Markdown note in the notes folder.

        Args:
            path: where, e.g. notes/paris.md
            content: the note's text
        """
        saved.append({"path": path, "content": content})
        return {"saved": path}

    return reg


def test_a_step_that_refers_back_waits_for_the_results_and_is_written_from_them():
    saved: list[dict] = []
    reg = _registry(saved)
    mock = MockLLM()
    request = "Get the weather in Paris, then save a summary as a note in notes/paris.md"
    plan = mock.explain([{"role": "user", "content": request}], reg.definitions())
    assert [c.name for c in plan.tool_calls] == ["get_weather"]
    assert "save_note waits for these results" in plan.reason
    result = Agent(mock.client(), reg).run(request)
    assert [[c["name"] for c in s.tool_calls] for s in result.steps] == [["get_weather"], ["save_note"], []]
    assert saved == [{"path": "notes/paris.md", "content": "Paris: 18 °C, humidity 72 %."}]
    assert result.stop_reason == "answer" and "notes/paris.md" in result.answer


def test_independent_steps_run_together_and_only_earlier_results_feed_the_summary():
    saved: list[dict] = []
    reg = _registry(saved)
    request = ("Get the weather in Paris, then save a summary as a note in notes/trip.md, "
               "and what is the weather in Tokyo?")
    result = Agent(MockLLM().client(), reg).run(request)
    first = [(c["name"], json.loads(c["arguments"])) for c in result.steps[0].tool_calls]
    assert first == [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"})]
    assert [c["name"] for c in result.steps[1].tool_calls] == ["save_note"]
    assert saved[0]["content"] == "Paris: 18 °C, humidity 72 %."  # Tokyo's clause comes after the note


def test_one_call_per_step_keeps_the_order_and_the_dependency():
    saved: list[dict] = []
    reg = _registry(saved)
    request = "Get the weather in Paris, then save a summary as a note in notes/paris.md"
    result = Agent(MockLLM().client(), reg, parallel_tool_calls=False).run(request)
    assert [c["name"] for c in result.tool_calls] == ["get_weather", "save_note"]
    assert saved[0]["content"].startswith("Paris: 18 °C")


def test_a_failed_earlier_step_is_reported_not_saved():
    saved: list[dict] = []
    reg = _registry(saved, weather_fails=True)
    result = Agent(MockLLM().client(), reg).run("Get the weather in Paris, then save a summary in notes/paris.md")
    assert saved == []
    assert "the weather service is down" in result.answer


@pytest.mark.parametrize("request_text", [
    "Save a note 'Buy milk' in notes/todo.md",  # one clause: nothing to wait for
    "Get the weather in Paris, then save a note 'Pack an umbrella' in notes/todo.md",  # no reference back
])
def test_without_a_reference_back_nothing_waits(request_text):
    saved: list[dict] = []
    result = Agent(MockLLM().client(), _registry(saved)).run(request_text)
    assert result.steps[0].tool_calls[-1]["name"] == "save_note"  # in the first step, not deferred
    assert len(saved) == 1 and "°C" not in json.dumps(saved[0], ensure_ascii=False)


def test_a_refused_call_is_final_no_other_tool_is_tried():
    reg = ToolRegistry("refusal", env={})

    @reg.tool(permission="write")
    def delete_file(path: str) -> dict:
        """Delete a file or folder of the wiki."""
        raise AssertionError("the policy must stop this call before the handler")

    @reg.tool
    def list_files(folder: str = ".") -> list:
        """List the files of a wiki folder."""
        return ["wiki/a.md"]

    @reg.before_call
    def no_deletes(inv):
        if inv.entry.name == "delete_file":
            raise ToolError("delete_file was not run: nobody approved it", kind="denied")

    result = Agent(MockLLM().client(), reg).run("Delete the folder 'wiki'")
    assert [c["name"] for c in result.tool_calls] == ["delete_file"]
    assert "nobody approved it" in result.answer


def test_marked_tool_output_is_read_inside_its_wrapper():
    reg = ToolRegistry("untrusted", env={})

    @reg.tool
    def get_weather(city: str) -> dict:
        """Get the current weather (temperature, humidity) for a city."""
        return {"temp": 28, "humidity": 65}

    @reg.after_call
    def mark(inv, result):
        import dataclasses
        return dataclasses.replace(result, content=as_untrusted(result.content, source=inv.entry.name))

    result = Agent(MockLLM().client(), reg).run("What's the weather in Shanghai?")
    assert result.answer == "Shanghai: 28 °C, humidity 65 %."
