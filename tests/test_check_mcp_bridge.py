"""Exercise 10's check detects shortcuts around the MCP bridge and names each mistake."""
from __future__ import annotations

import pytest

from course_lib.agent import Agent
from course_lib.checks import CheckFailed
from course_lib.checks.mcp_bridge import check_mcp_bridge
from course_lib.examples import search_wiki
from course_lib.mcp_bridge import MCPToolset
from course_lib.mock_llm import MockLLM


def good_add(registry, target):
    wiki = MCPToolset(target, "wiki").start()
    wiki.register_into(registry)
    return wiki


def good_ask(registry, question):
    return Agent(MockLLM().client(), registry).run(question)


def local_copy(registry, target):  # registers the local function instead of the MCP tool
    registry.register("search_wiki", "mcp:wiki", None, search_wiki)
    return None


def wrong_toolset(registry, target):
    wiki = MCPToolset(target, "docs").start()
    wiki.register_into(registry)
    return wiki


def no_agent(registry, question):
    class Result:
        tool_calls = []
        answer = str(search_wiki(question))
    return Result()


@pytest.mark.parametrize("add, ask, failing, words", [
    (local_copy, good_ask, "its schema is the server's inputSchema, unchanged", "register_into"),
    (local_copy, good_ask, "the call reached the MCP server", "through the bridge"),
    (wrong_toolset, good_ask, "it is in the toolset mcp:wiki", "mcp:wiki"),
    (good_add, no_agent, "the agent called search_wiki", "Agent(get_client(), registry)"),
])
def test_typical_mistakes_get_their_own_hint(add, ask, failing, words):
    with pytest.raises(CheckFailed) as e:
        check_mcp_bridge(add, ask)
    failed = {r.name: r.hint for r in e.value.report.results if not r.passed}
    assert failing in failed and words in failed[failing], failed


def test_the_reference_solution_passes():
    assert check_mcp_bridge(good_add, good_ask).passed
