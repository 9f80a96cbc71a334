"""Finding files by kind (issue 13, kinds 'tool choice by meaning' and 'values'): a relative folder ('src/', 'docs/api/')
is a path, a kind of file or a pattern said ('Python files', 'Python 文件', 'every .py file', '*.log') fills a glob
slot, and a question about one file's size or age asks a file-info tool. On main 'Find all Python files under src/'
asked for the path, '找出 src/ 下所有的 Python 文件' gave pattern 'Python', 'every .py file' gave 'py', 'files named
*.log' asked for the pattern and 'How big is src/main.py?' called nothing. Our own tools, through the openai SDK."""
from __future__ import annotations

import pytest

from course_lib.mock_llm.reading import read
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)


def _s(desc: str = "") -> dict:
    return {"type": "string", "description": desc} if desc else {"type": "string"}


FILES = [tool("search_files", "Search for files matching a pattern", {"pattern": _s("Glob pattern"),
                                                                       "path": _s("Directory to search in")}),
         tool("get_file_info", "Get information about a file", {"path": _s("Path of the file")})]
MCP_FILES = [tool("search_files", "Recursively search for files and directories matching a pattern.",
                  {"path": _s("Starting directory"), "pattern": _s("Glob pattern to match")}),
             tool("get_file_info", "Retrieve detailed metadata about a file or directory.", {"path": _s()}),
             tool("read_file", "Read the complete contents of a file.", {"path": _s()})]


@pytest.mark.parametrize("text, path", [("under src/", "src/"), ("list docs/api/ please", "docs/api/"),
                                        ("files in tests/.", "tests/"), ("找出 src/ 下的文件", "src/")])
def test_a_relative_folder_is_a_path(text, path):
    assert [m.text for m in read(text).of_kind("code")] == [path]


@pytest.mark.parametrize("text", ["and/or", "60 km/h", "a burger w/ cheese", "open 24/7"])
def test_slashed_words_are_no_folder(text):
    assert not read(text).of_kind("code")


@pytest.mark.parametrize("text, tools, want", [
    ("Find all Python files under src/", FILES, {"pattern": "*.py", "path": "src/"}),
    ("Find all Markdown files in docs/", FILES, {"pattern": "*.md", "path": "docs/"}),
    ("Which files in tests/ are YAML files?", FILES, {"pattern": "*.yaml", "path": "tests/"}),
    ("找出 src/ 下所有的 Python 文件", FILES, {"pattern": "*.py", "path": "src/"}),
    ("Find every .py file in the project folder ~/code", FILES, {"pattern": "*.py", "path": "~/code"}),
    ("Find files named *.log under /var/log", FILES, {"pattern": "*.log", "path": "/var/log"}),
    ("Find all Python files under src/", MCP_FILES, {"path": "src/", "pattern": "*.py"}),
    ("Find files named *.log under /var/log", MCP_FILES, {"path": "/var/log", "pattern": "*.log"}),
])
def test_a_kind_of_file_is_searched_with_its_pattern(client, text, tools, want):
    assert calls(client, text, tools) == [("search_files", want)]


@pytest.mark.parametrize("text, path", [("How big is src/main.py?", "src/main.py"),
                                        ("What is the size of report.pdf?", "report.pdf"),
                                        ("When was notes/todo.md modified?", "notes/todo.md")])
def test_a_question_about_one_file_asks_its_info(client, text, path):
    assert calls(client, text, MCP_FILES) == [("get_file_info", {"path": path})]


def test_a_size_question_of_no_file_calls_no_file_tool(client):
    assert isinstance(calls(client, "How big is the Pacific Ocean?", MCP_FILES), str)
