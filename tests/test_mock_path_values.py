"""A path argument takes a path, never words: a request with no path in it gets a question, not a sentence sent as
``repo_path`` (seen with the MCP reference git server's tools: "git rebase 和 git merge 有什么区别？" filled
``repo_path='有什么区别'``). Our own tool definitions."""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

STATUS = tool("git_status", "Shows the working tree status", {"repo_path": {"type": "string"}})
LOG = tool("git_log", "Shows the commit logs", {"repo_path": {"type": "string"}, "max_count": {"type": "integer"}},
           required=["repo_path"])
READ = tool("open_document", "Open a document from disk and return its text", {"file_path": {"type": "string"}})


@pytest.mark.parametrize("text", [
    "git rebase 和 git merge 有什么区别？",
    "git log 和 git status 有什么不同？",
])
def test_words_are_no_path(client, text):
    assert isinstance(calls(client, text, [STATUS, LOG]), str)  # it asks or declines: no call with words as the path


@pytest.mark.parametrize("text, path", [
    ("Show the git status of ~/code/app", "~/code/app"),
    ("查看 /Users/alice/code/app 仓库的状态", "/Users/alice/code/app"),
    ("Show the git status of C:\\work\\app", "C:\\work\\app"),
])
def test_paths_of_every_shape_still_fill_it(client, text, path):
    assert calls(client, text, [STATUS]) == [("git_status", {"repo_path": path})]


@pytest.mark.parametrize("text, path", [
    ("open the document notes.txt", "notes.txt"),
    ("打开文档 /tmp/report.txt", "/tmp/report.txt"),
])
def test_a_file_name_is_a_path(client, text, path):
    assert calls(client, text, [READ]) == [("open_document", {"file_path": path})]


@pytest.mark.parametrize("text", ["open my travel diary", "open the document 旅行日记"])
def test_a_document_named_in_words_is_asked_for(client, text):
    reply = calls(client, text, [READ])
    assert isinstance(reply, str) and "file_path" in reply.replace("file path", "file_path")
