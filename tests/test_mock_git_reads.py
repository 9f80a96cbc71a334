"""A request the mock did not understand is asked about, never copied into a write (issue 13, kind 'a read
becomes a write'): 'Revert the last commit' called git_commit(message='Revert the last commit'), 'Switch to the
main branch' git_checkout(branch='Switch'), and 'a branch called feature/login' gave branch='feature'. Our own
tools, through the openai SDK."""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

GIT = [tool("git_commit", "Commit staged changes.", {"message": {"type": "string"}, "amend": {"type": "boolean"}},
            ["message"]),
       tool("git_checkout", "Check out a branch.", {"branch": {"type": "string"}, "create": {"type": "boolean"}},
            ["branch"]),
       tool("git_log", "Show the commit history.", {"limit": {"type": "integer"}, "author": {"type": "string"}}, [])]
NOTE = [tool("save_note", "Save a note.", {"text": {"type": "string"}})]
TAG = [tool("add_label", "Add a label to an issue.", {"issue_id": {"type": "string"}, "label": {"type": "string"}})]


@pytest.mark.parametrize("text, tools", [
    ("Revert the last commit", GIT), ("See commits by Bob", GIT), ("Undo my last change", GIT),
    ("Switch to the main branch", GIT), ("Rebase onto develop", GIT),
])
def test_no_write_of_the_request_itself(client, text, tools):
    reply = calls(client, text, tools)
    assert isinstance(reply, str) or all(text not in str(a.values()) and "Switch" not in a.values()
                                         for _, a in reply), reply


@pytest.mark.parametrize("text, tools, slot, want", [
    ("Create a new branch called feature/login and switch to it", GIT, "branch", "feature/login"),
    ("Check out a branch called bugfix/crash-42", GIT, "branch", "bugfix/crash-42"),
    ("Add the label ui/dark-mode to issue ISS-7", TAG, "label", "ui/dark-mode"),
])
def test_a_slashed_name_is_one_value(client, text, tools, slot, want):
    reply = calls(client, text, tools)
    assert not isinstance(reply, str), reply
    assert reply[0][1][slot] == want


def test_read_requests_still_read(client):
    assert calls(client, "Show me the last 5 commits by Dana", GIT) == [("git_log", {"limit": 5, "author": "Dana"})]
