"""Fuzz the course's MCP servers over streamable HTTP: a few hundred generated bad messages each (issue 14).

Every POST gets either ``202`` with no body (a notification) or exactly one well-formed JSON-RPC
response (in a JSON body or one SSE event), with the request's id when it was valid; no 500, no
traceback, and the session still works at the end. Same seeded generator as the stdio fuzz.
"""
from __future__ import annotations

import json

import httpx
import pytest

from course_lib.mcp_bridge import RegistryMCPServer, course_registry
from course_lib.mcp_servers import project_manager_server
from course_lib.mcp_transports import start_http
from course_lib.servers import stop_server
from fuzz_messages import MessageFuzzer, check_reply

MESSAGES = 250
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INIT = {"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}}}
SERVERS = {
    "project-manager": (project_manager_server, {"create_task": {"title": "fuzz"}, "list_tasks": {},
                                                 "update_task_status": {"task_id": 1, "status": "done"}},
                        {"code_review": {"code": "x = 1"}}),
    "course mcp serve": (lambda: RegistryMCPServer(course_registry()),
                         {"get_weather": {"city": "Shanghai"}, "search_wiki": {"query": "vacation"}}, {}),
}


def replies_in(response: httpx.Response) -> list:
    """The JSON-RPC messages in an HTTP reply: a JSON body, or the data of each SSE event."""
    if not response.content:
        return []
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        return [json.loads(line[5:]) for line in response.text.splitlines() if line.startswith("data:")
                and line[5:].strip()]
    return [json.loads(response.content)]


@pytest.mark.parametrize("name", list(SERVERS))
def test_http_server_answers_every_bad_message_and_survives(name):
    factory, tools, prompts = SERVERS[name]
    handle = start_http(factory(), f"test-fuzz-{name.replace(' ', '-')}")
    url = handle.url + "/mcp"
    try:
        with httpx.Client(timeout=30) as http:
            first = http.post(url, json=INIT, headers=HEADERS)
            session = {**HEADERS, "mcp-session-id": first.headers["mcp-session-id"],
                       "mcp-protocol-version": "2025-11-25"}
            assert http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                             headers=session).status_code == 202
            fuzzer = MessageFuzzer(seed=len(name) * 7919, tools=tools, prompts=prompts,
                                   methods=["resources/list", "prompts/list"])
            for i, fuzzed in enumerate(fuzzer.generate(MESSAGES)):
                r = http.post(url, content=fuzzed.raw, headers=session)
                where = f"message {i} ({fuzzed.label}) {fuzzed.raw[:200]!r} -> {r.status_code} {r.text[:200]!r}"
                assert r.status_code < 500, where
                got = replies_in(r)
                assert len(got) in fuzzed.replies, where
                if not got:
                    assert r.status_code == 202, where
                for reply in got:
                    check_reply(reply, fuzzed)
            last = http.post(url, json={"jsonrpc": "2.0", "id": "last", "method": "tools/list"}, headers=session)
            names = {t["name"] for t in replies_in(last)[0]["result"]["tools"]}
            assert names >= set(tools)
    finally:
        stop_server(f"test-fuzz-{name.replace(' ', '-')}")
