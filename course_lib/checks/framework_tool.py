"""Checks of exercise 06b: give one of the course registry's tools to the OpenAI Agents SDK.

The learner writes ``registry_tool(registry, name)``, returning an Agents SDK ``FunctionTool``
whose schema is the registry's (``effective_schema``: dynamic overrides included) and whose
calls go through ``registry.arun`` (validation, errors as tool results the model can read).
The check runs a real ``Runner.run`` against the offline mock, through a
:class:`~course_lib.agent_frameworks.Recorder`, and reads what the SDK sent: the tool's
definition in the first request, and the tool message it wrote back for a call the mock
makes with a misspelled argument.
"""
from __future__ import annotations

import asyncio
import json
from typing import Any, Callable

from ..agent_frameworks import MODEL, Recorder
from ..examples import search_wiki
from ..hints import Hints
from ..resilience import ToolTimeout, call_with_timeout
from ..tool_registry import ToolRegistry
from . import CheckReport, json_or_none
from ..i18n import N_, _

BOUND = 30.0  # seconds for one agent run
QUESTION = "Search the wiki for the VPN setup guide"

HINTS = Hints("06b_registry_in_a_framework", [
    N_("Lesson 06b §6: the Agents SDK builds a tool from a JSON Schema and a function with "
    "`FunctionTool(name=..., description=..., params_json_schema=..., on_invoke_tool=...)`. The schema comes "
    "from `registry.effective_schema(name)` (it has `description` and `parameters`)."),
    N_("`on_invoke_tool` is `async def invoke(ctx, arguments)`: `arguments` is the JSON *string* the model wrote. "
    "Hand it to the registry as a call: `result = await registry.arun({\"id\": ctx.tool_call_id, \"function\": "
    "{\"name\": name, \"arguments\": arguments}})` and return `result.content`."),
    N_("`FunctionTool` is strict by default (`strict_json_schema=True`), which would make every field required; the "
    "registry's tool is not strict, so pass `strict_json_schema=False`."),
], solution_section="Your code: registry_tool")


def _registry() -> ToolRegistry:
    registry = ToolRegistry("exercise-06b", env={})
    registry.register(handler=search_wiki, toolset="wiki")
    # A description computed at request time (lesson 03 §5): only effective_schema() has it.
    registry.dynamic_schema_overrides["search_wiki"] = lambda: {
        "description": "Search the company wiki (spaces: engineering, hr, product, finance); best match first."}
    return registry


def _explain(e: BaseException) -> str:
    if isinstance(e, NotImplementedError):
        return _("Write your code where the exercise says `# YOUR CODE HERE` (and remove the `raise`).")
    if isinstance(e, ToolTimeout):
        return _("The agent did not finish within {BOUND:g} s: does `on_invoke_tool` return "
                  "the tool's text?").format(BOUND=BOUND)
    if isinstance(e, TypeError) and "on_invoke_tool" in str(e):
        return _("`on_invoke_tool` must be `async def invoke(ctx, arguments)` returning a "
                  "string ({e}).").format(e=e)
    return f"{type(e).__name__}: {e}"


def _run_agent(tool: Any, recorder: Recorder) -> str:
    from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled

    set_tracing_disabled(True)
    agent = Agent(name="wiki", instructions="Use the tools.", tools=[tool],
                  model=OpenAIChatCompletionsModel(model=MODEL, openai_client=recorder.async_client()))

    def run() -> str:
        return str(asyncio.run(Runner.run(agent, QUESTION, max_turns=4)).final_output)
    return call_with_timeout(run, timeout=BOUND, name="Runner.run")


def check_registry_tool(registry_tool: Callable[[ToolRegistry, str], Any]) -> CheckReport:
    """Check exercise 06b; raises :class:`~course_lib.checks.CheckFailed` with hints."""
    from agents import FunctionTool

    report = CheckReport(_("Exercise 06b · a registry tool in the Agents SDK"), more_help=HINTS.pointer())
    registry = _registry()
    calls: list[str] = []
    registry.before_call(lambda inv: calls.append(inv.entry.name))
    tool = report.run(_("registry_tool returns"), lambda: registry_tool(registry, "search_wiki"), _explain)
    if tool is None:
        return report.finish()
    if not report.check(_("it is an Agents SDK FunctionTool"), isinstance(tool, FunctionTool),
                        _("Return `agents.FunctionTool(...)`, not {error_type}.").format(error_type=type(tool).__name__)):
        return report.finish()
    expected = registry.effective_schema("search_wiki")
    report.check(_("name and description are the registry's (dynamic description included)"),
                 tool.name == "search_wiki" and tool.description == expected["description"],
                 _("Take both from `registry.effective_schema(name)`: `entry.schema` misses "
                    "the description the registry computes at request time. Expected "
                    "{description!r}, got {description2!r}.").format(description=expected['description'], description2=tool.description))
    # strictness first: a strict FunctionTool rewrites the schema it is given, so the schema check would blame
    # a params_json_schema the learner passed right
    report.check(_("the tool is not strict, like the registry's"),
                 tool.strict_json_schema is False,
                 _("`FunctionTool` is strict by default, which makes every field required (the model must invent "
                 "`limit` and `space`): pass `strict_json_schema=False`."))
    report.check(_("the parameters are the registry's JSON Schema, unchanged"),
                 tool.params_json_schema == expected["parameters"],
                 _("The SDK rewrote your schema into strict form (every field required) because the tool is strict: "
                 "fix the check above and this one passes too.") if tool.strict_json_schema else
                 _("Pass `params_json_schema=registry.effective_schema(name)[\"parameters\"]` (do not rebuild it)."))

    recorder = Recorder("Agents SDK")
    recorder.mock.script({"tool_calls": [{"name": "search_wiki", "arguments": {"qurey": "vpn"}}]})
    answer = report.run(_("an Agents SDK run with your tool finishes"), lambda: _run_agent(tool, recorder), _explain)
    if answer is None:
        return report.finish()
    sent = recorder.tools_sent()
    report.check(_("the SDK sent the registry's schema, not strict"),
                 bool(sent) and sent[0]["parameters"] == expected["parameters"] and not sent[0]["strict"],
                 _("The first request carried {sent}.").format(sent=sent))
    tool_messages = [m for body in recorder.requests[1:] for m in body.get("messages", []) if m.get("role") == "tool"]
    first = json_or_none(tool_messages[0]["content"]) if tool_messages else None
    report.check(_("a misspelled argument comes back as the registry's validation error"),
                 isinstance(first, dict) and first.get("kind") == "invalid_arguments" and "qurey" in json.dumps(first),
                 _("Run every call through `await registry.arun(...)` and return "
                    "`result.content`: calling `search_wiki(**json.loads(arguments))` "
                    "yourself skips the registry's validation (the SDK then reports a Python "
                    "error instead). The tool message was {value}.").format(value=tool_messages[:1]))
    report.check(_("the corrected call ran through the registry and the answer names a page"),
                 calls.count("search_wiki") >= 1 and "VPN setup guide" in answer,
                 _("The registry saw {value} call(s); the answer was {answer!r}.").format(value=calls.count('search_wiki'), answer=answer))
    return report.finish()
