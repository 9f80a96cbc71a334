"""A real third-party MCP client against `course mcp serve`: the MCP Inspector's command line.

The Inspector (npm ``@modelcontextprotocol/inspector``, its ``--cli`` mode) is pinned in
``tests/interop/package.json`` and installed by ``.ci/run`` (``npm ci --prefix tests/interop``,
git-ignored); it is never downloaded at test time. Without Node.js or without that install,
the tests skip and say what to do.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from course_lib.mcp_bridge import SEARCH_WIKI_SCHEMA, RegistryMCPServer, course_registry
from course_lib.mcp_transports import start_http
from course_lib.servers import stop_server

ROOT = Path(__file__).resolve().parent.parent
INSPECTOR = ROOT / "tests" / "interop" / "node_modules" / ".bin" / "mcp-inspector"
INSTALL = "npm ci --prefix tests/interop  (what .ci/run does)"
COURSE = [sys.executable, "-m", "course_lib.cli"]

pytestmark = [
    pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed: the MCP Inspector needs it"),
    pytest.mark.skipif(not INSPECTOR.exists(), reason=f"the MCP Inspector is not installed; run: {INSTALL}"),
]


def inspector(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(INSPECTOR), "--cli", *args], capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_inspector_lists_the_registry_tools_over_stdio_losslessly():
    r = inspector(*COURSE, "mcp", "serve", "--method", "tools/list")
    assert r.returncode == 0, r.stderr
    tools = {t["name"]: t for t in json.loads(r.stdout)["tools"]}
    assert sorted(tools) == ["get_weather", "search_wiki"]
    assert tools["search_wiki"]["inputSchema"] == SEARCH_WIKI_SCHEMA["parameters"]
    assert tools["get_weather"]["inputSchema"]["properties"]["unit"]["enum"] == ["celsius", "fahrenheit"]


def test_inspector_calls_a_tool_over_stdio():
    r = inspector(*COURSE, "mcp", "serve", "--method", "tools/call", "--tool-name", "get_weather",
                  "--tool-arg", "city=Tokyo")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    assert result["isError"] is False and result["structuredContent"] == {"temp": 24, "humidity": 70}


def test_inspector_sees_protocol_and_tool_errors():
    unknown = inspector(*COURSE, "mcp", "serve", "--method", "tools/call", "--tool-name", "no_such_tool")
    assert unknown.returncode != 0 and "-32602" in unknown.stdout + unknown.stderr
    failing = inspector(*COURSE, "mcp", "serve", "--method", "tools/call", "--tool-name", "get_weather",
                        "--tool-arg", "city=Atlantis")
    assert failing.returncode == 0 and json.loads(failing.stdout)["isError"] is True


def test_inspector_over_streamable_http():
    handle = start_http(RegistryMCPServer(course_registry()), "test-inspector-http")
    try:
        r = inspector(handle.url + "/mcp", "--transport", "http", "--method", "tools/call",
                      "--tool-name", "search_wiki", "--tool-arg", "query=vacation")
    finally:
        stop_server("test-inspector-http")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)  # a list result travels as JSON text (structuredContent must be an object)
    assert result["isError"] is False and json.loads(result["content"][0]["text"])[0]["id"] == "hr-2"
