"""A tool that hands the request on to another agent takes the request itself as its task (issue 13, kind 'the
whole request'): the capstone's A2A skill tools (``ask_<agent>_<skill>(message)``) and hand-off tools, whose
descriptions say the text goes to an agent or an assistant. A write tool of our own still asks ('Revert the last
commit' is no commit message), and a finance request is not sent to a travel agent: 'agent' alone chooses no tool.
Through the openai SDK."""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

RESEARCH = [tool("delegate_to_researcher", "Hand the task over to the research assistant, who answers in prose.",
                 {"task": {"type": "string", "description": "What the assistant should do"}}, ["task"]),
            tool("get_time", "The current time in a time zone.", {"timezone": {"type": "string"}}, ["timezone"])]
TRAVEL = [tool("ask_travel_agent_bookings", "Ask the Travel agent (an A2A agent) to do this: Bookings. "
               "Books trains and hotels.",
               {"message": {"type": "string", "description": "The task for the agent, in plain words"}},
               ["message"])]
GIT = [tool("git_commit", "Commit staged changes.", {"message": {"type": "string"}}, ["message"])]


@pytest.mark.parametrize("text, tools, slot", [
    ("Book a train from Berlin to Munich for Friday morning", TRAVEL, "message"),
    ("Which trains to Munich can the travel agent book for Friday?", TRAVEL, "message"),
])
def test_the_request_is_the_agents_task(client, text, tools, slot):
    reply = calls(client, text, tools)
    assert not isinstance(reply, str), reply
    assert [(name, args[slot]) for name, args in reply] == [(tools[0]["function"]["name"], text.rstrip("?"))]


def test_an_argument_for_the_assistant_takes_the_request_not_one_name(client):
    reply = calls(client, "Ask the research assistant to find three recent papers on RAG", RESEARCH)
    assert not isinstance(reply, str), reply
    assert [name for name, _ in reply] == ["delegate_to_researcher"]
    assert reply[0][1]["task"].endswith("find three recent papers on RAG")  # not 'RAG', the one capitalised name


def test_another_agent_named_is_no_match(client):
    reply = calls(client, "Get the company's 2024 revenue from the finance agent", TRAVEL)
    assert isinstance(reply, str), reply  # 'agent' alone is shared by every hand-off tool


def test_a_write_tool_of_our_own_still_asks(client):
    reply = calls(client, "Revert the last commit", GIT)
    assert isinstance(reply, str) or all("Revert the last commit" not in a.values() for _, a in reply), reply
