"""Exercise 06b's checks: a registry tool in the Agents SDK, and a hint per typical mistake."""
from __future__ import annotations

import json

import pytest
from agents import FunctionTool

from course_lib.checks import CheckFailed
from course_lib.checks.framework_tool import check_registry_tool
from course_lib.examples import search_wiki


def solution(registry, name):
    schema = registry.effective_schema(name)

    async def invoke(ctx, arguments):
        result = await registry.arun({"id": ctx.tool_call_id, "function": {"name": name, "arguments": arguments}})
        return result.content
    return FunctionTool(name=name, description=schema["description"], params_json_schema=schema["parameters"],
                        on_invoke_tool=invoke, strict_json_schema=False)


def entry_schema(registry, name):  # the registry's stored schema: misses the description computed at request time
    schema = registry.get(name).schema
    tool = solution(registry, name)
    return FunctionTool(name=name, description=schema["description"], params_json_schema=schema["parameters"],
                        on_invoke_tool=tool.on_invoke_tool, strict_json_schema=False)


def strict_by_default(registry, name):
    tool = solution(registry, name)
    return FunctionTool(name=name, description=tool.description, params_json_schema=tool.params_json_schema,
                        on_invoke_tool=tool.on_invoke_tool)


def calls_the_function(registry, name):
    schema = registry.effective_schema(name)

    async def invoke(ctx, arguments):
        try:
            return json.dumps(search_wiki(**json.loads(arguments)))
        except TypeError as e:
            return f"error: {e}"
    return FunctionTool(name=name, description=schema["description"], params_json_schema=schema["parameters"],
                        on_invoke_tool=invoke, strict_json_schema=False)


def test_the_solution_passes():
    report = check_registry_tool(solution)
    assert report.passed and len(report.results) == 9


def _failed(fn):
    with pytest.raises(CheckFailed) as e:
        check_registry_tool(fn)
    return {r.name: r.hint for r in e.value.report.results if not r.passed}


def test_the_stored_schema_misses_the_dynamic_description():
    failed = _failed(entry_schema)
    assert list(failed) == ["name and description are the registry's (dynamic description included)"]
    assert "`entry.schema` misses the description" in failed[next(iter(failed))]


def test_a_strict_function_tool_is_named():
    failed = _failed(strict_by_default)
    assert "the tool is not strict, like the registry's" in failed
    assert "strict_json_schema=False" in failed["the tool is not strict, like the registry's"]
    # the first failure a learner reads is the strictness one, and the schema's own hint says why it follows
    assert list(failed)[0] == "the tool is not strict, like the registry's"
    schema_hint = failed.get("the parameters are the registry's JSON Schema, unchanged", "")
    assert "do not rebuild it" not in schema_hint and "fix the check above" in schema_hint


def test_calling_the_function_directly_skips_the_registry():
    failed = _failed(calls_the_function)
    key = "a misspelled argument comes back as the registry's validation error"
    assert key in failed and "skips the registry's validation" in failed[key]


def test_not_a_function_tool_and_the_stub():
    assert list(_failed(lambda r, n: {"name": n})) == ["it is an Agents SDK FunctionTool"]

    def stub(registry, name):
        raise NotImplementedError("Your turn")
    assert "# YOUR CODE HERE" in _failed(stub)["registry_tool returns"]
