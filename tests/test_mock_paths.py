"""A file or folder named inside a directory becomes the one path a filesystem tool takes (EN, ZH)."""
from __future__ import annotations

import json

import pytest

from course_lib.mock_llm import MockLLM
from course_lib.mock_llm import paths

MKDIR = {"type": "function", "function": {"name": "create_directory", "description": "Create a new directory.",
                                          "parameters": {"type": "object", "properties": {"path": {"type": "string"}},
                                                         "required": ["path"]}}}
READ = {"type": "function", "function": {"name": "read_file", "description": "Read a file.",
                                         "parameters": {"type": "object", "properties": {"path": {"type": "string"}},
                                                        "required": ["path"]}}}


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


@pytest.fixture(scope="module")
def client():
    return MockLLM().client()


@pytest.mark.parametrize("text, tool, path", [
    ("Create a folder called reports in /Users/alice/projects", MKDIR, "/Users/alice/projects/reports"),
    ("在 /Users/alice/projects 下新建一个叫 reports 的文件夹", MKDIR, "/Users/alice/projects/reports"),
    ("Read the file notes.txt in /tmp", READ, "/tmp/notes.txt"),
])
def test_the_tool_gets_the_joined_path(client, text, tool, path):
    msg = client.chat.completions.create(model="mock", messages=[{"role": "user", "content": text}],
                                         tools=[MKDIR, READ]).choices[0].message
    assert [(c.function.name, json.loads(c.function.arguments)) for c in msg.tool_calls] == [
        (tool["function"]["name"], {"path": path})]
