"""An action verb used as a noun (issue 13): "show the last 5 commits" is about the commits made, a listing
(git_log), not about committing (git_commit); "commit my changes" is the action. The same for orders, searches
and pushes, with our own tool definitions (near-twins as a newcomer writes them), through the openai SDK."""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

REPO = {"repo_path": {"type": "string", "description": "Path to the Git repository"}}
GIT = [
    tool("git_commit", "Records changes to the repository", {**REPO, "message": {"type": "string"}}),
    tool("git_log", "Shows the commit logs", {**REPO, "max_count": {"type": "integer", "default": 10}},
         required=["repo_path"]),
    tool("git_show", "Shows the contents of a commit", {**REPO, "revision": {"type": "string"}}),
    tool("git_push", "Pushes the current branch to a remote", {**REPO, "remote": {"type": "string"}},
         required=["repo_path"]),
    tool("git_push_history", "Lists the pushes made from the repository", REPO),
]
SHOP = [
    tool("order_food", "Order food from a restaurant", {"dish": {"type": "string"}, "restaurant": {"type": "string"}}),
    tool("list_orders", "List the user's food orders", {"status": {"type": "string", "enum": ["open", "delivered"]}},
         required=[]),
]
SEARCH = [
    tool("search_web", "Search the web", {"query": {"type": "string"}}),
    tool("search_history", "The user's past web searches, newest first", {"limit": {"type": "integer"}}, required=[]),
]


@pytest.mark.parametrize("text, want", [
    ("Show the last 5 commits in /repo", [("git_log", {"repo_path": "/repo", "max_count": 5})]),
    ("What are the latest commits in /srv/app?", [("git_log", {"repo_path": "/srv/app"})]),
    ("Commit my changes in /repo with message 'fix typo'",                  # the verb: the action
     [("git_commit", {"repo_path": "/repo", "message": "fix typo"})]),
    ("Show the recent pushes of /repo", [("git_push_history", {"repo_path": "/repo"})]),
])
def test_the_noun_of_a_git_action_lists_what_was_done(client, text, want):
    assert calls(client, text, GIT) == want


@pytest.mark.parametrize("text, want", [
    ("Show my orders", [("list_orders", {})]),
    ("What are my recent orders?", [("list_orders", {})]),
    ("Order a pizza from Nopa", [("order_food", {"dish": "pizza", "restaurant": "Nopa"})]),
])
def test_my_orders_are_the_orders_made(client, text, want):
    assert calls(client, text, SHOP) == want


@pytest.mark.parametrize("text, want", [
    ("Show my recent searches", [("search_history", {})]),
    ("Search the web for the Rust borrow checker", [("search_web", {"query": "the Rust borrow checker"})]),
])
def test_recent_searches_are_the_searches_made(client, text, want):
    assert calls(client, text, SEARCH) == want


def test_a_noun_use_with_no_listing_twin_keeps_the_action_tool(client):
    """No tool lists commits: git_commit stays the one tool about commits (a model would say it cannot list)."""
    got = calls(client, "Show the last 5 commits in /repo", [GIT[0], GIT[3]])
    assert got == [("git_commit", {"repo_path": "/repo", "message": "Show the last 5 commits in /repo"})] or \
        isinstance(got, str)
