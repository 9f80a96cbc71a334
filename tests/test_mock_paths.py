"""A file or folder named inside a directory becomes the one path a filesystem tool takes (EN, ZH)."""
from __future__ import annotations

import pytest

from course_lib.mock_llm import paths
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

MKDIR = tool("create_directory", "Create a new directory.", {"path": {"type": "string"}})
READ = tool("read_file", "Read a file.", {"path": {"type": "string"}})


@pytest.mark.parametrize("text, joined", [
    ("Create a folder called reports in /Users/alice/projects", "/Users/alice/projects/reports"),
    ("在 /Users/alice/projects 下新建一个叫 reports 的文件夹", "/Users/alice/projects/reports"),
    ("In ~/notes, create a file named todo.md", "~/notes/todo.md"),
    ("make a directory named build under C:\\work\\app", "C:\\work\\app\\build"),
    ("Read the file notes.txt in /tmp", "/tmp/notes.txt"),
    ("Create a folder called reports", None),              # no directory: nothing to join
    ("List /Users/alice/projects", None),
])
def test_named_inside(text, joined):
    assert paths.named_inside(text) == joined


@pytest.mark.parametrize("text, tool, path", [
    ("Create a folder called reports in /Users/alice/projects", MKDIR, "/Users/alice/projects/reports"),
    ("在 /Users/alice/projects 下新建一个叫 reports 的文件夹", MKDIR, "/Users/alice/projects/reports"),
    ("Read the file notes.txt in /tmp", READ, "/tmp/notes.txt"),
])
def test_the_tool_gets_the_joined_path(client, text, tool, path):
    assert calls(client, text, [MKDIR, READ]) == [(tool["function"]["name"], {"path": path})]
