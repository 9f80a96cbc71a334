"""MCP servers of the kit under hostile and clumsy input (issue 14): JSON-RPC by the spec on every transport.

Kinds covered, each on stdio (a real child process), in memory (the same line framing) and over
streamable HTTP where the kind exists there: deep nesting, ids that are not a string or an
integer, batches and non-objects, notifications, half-sent bodies, abandoned sessions, unknown
prompts and bad prompt arguments in both protocol eras.
"""
from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import time

import httpx
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from course_lib.mcp_servers import demo_server, project_manager_server, prompt_argument_problems
from course_lib.mcp_trace import raw_session
from course_lib.mcp_transports import MAX_JSON_DEPTH, check_message, decode_json, start_http
from course_lib.servers import stop_server

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
BAD_IDS = [None, 1.5, 1.0, True, False, {}, [], {"a": 1}]
ERAS = ["legacy", "auto"]


@pytest.fixture
def anyio_backend():
    return "asyncio"


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# -- the sans-IO checks --------------------------------------------------------------------

@pytest.mark.parametrize("bad_id", BAD_IDS)
def test_an_id_that_is_not_a_string_or_integer_is_invalid_request_with_id_null(bad_id):
    reply = check_message({"jsonrpc": "2.0", "id": bad_id, "method": "tools/list"})
    assert reply["error"]["code"] == -32600 and reply["id"] is None
    assert '"id" must be a string or an integer' in reply["error"]["message"]


@pytest.mark.parametrize("good_id", [0, -7, 10**30, "", "abc"])
def test_string_and_integer_ids_pass(good_id):
    assert check_message({"jsonrpc": "2.0", "id": good_id, "method": "tools/list"}) is None


@pytest.mark.parametrize("message, code, echoed", [
    ([], -32600, None), ([{"jsonrpc": "2.0", "id": 1, "method": "ping"}], -32600, None),
    (None, -32600, None), (5, -32600, None), ("text", -32600, None),
    ({"id": 3, "method": "ping"}, -32600, 3), ({"jsonrpc": "1.0", "id": 3, "method": "ping"}, -32600, 3),
    ({"jsonrpc": "2.0", "id": 3, "method": 7}, -32600, 3),
    ({"jsonrpc": "2.0", "id": 3, "method": "ping", "params": "bar"}, -32600, 3),
    ({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": ["x"]}, -32602, 3),
    ({"jsonrpc": "2.0", "id": 3}, -32600, 3),
    ({"jsonrpc": "2.0", "id": 3, "result": {}, "error": {"code": 1, "message": "x"}}, -32600, 3),
])
def test_malformed_messages_get_the_spec_code(message, code, echoed):
    reply = check_message(message)
    assert reply["error"]["code"] == code and reply["id"] == echoed
    assert "validation error" not in reply["error"]["message"].lower()  # a plain sentence, no pydantic internals


def test_notifications_and_responses_pass_the_check():
    assert check_message({"jsonrpc": "2.0", "method": "notifications/initialized"}) is None
    assert check_message({"jsonrpc": "2.0", "id": 4, "result": {}}) is None
    assert check_message({"jsonrpc": "2.0", "id": None, "error": {"code": -1, "message": "x"}}) is None


def test_json_depth_limit_is_a_parse_error():
    holding = lambda depth: "[" * depth + "1" + "]" * depth  # noqa: E731  (arrays around a value)
    assert decode_json(holding(MAX_JSON_DEPTH).encode()) == (json.loads(holding(MAX_JSON_DEPTH)), None)
    value, error = decode_json(holding(MAX_JSON_DEPTH + 1).encode())
    assert value is None and error["error"]["code"] == -32700 and str(MAX_JSON_DEPTH) in error["error"]["message"]
    assert decode_json(nested(100_000).encode())[1]["error"]["code"] == -32700
    assert decode_json(b'"\\ud800"')[1]["error"]["code"] == -32700  # a lone surrogate is no text
    assert decode_json(b"\xff")[1]["error"]["message"].endswith("not valid UTF-8")


def test_prompt_argument_problems():
    declared = [("code", True), ("language", False)]
    assert prompt_argument_problems(declared, {"code": "x"}) == []
    assert prompt_argument_problems(declared, None) == ["missing required argument 'code'"]
    assert prompt_argument_problems(declared, {"code": "x", "zzz": "1"}) == [
        "unexpected argument 'zzz' (allowed: code, language)"]
    assert prompt_argument_problems(declared, {"code": 5}) == ["prompt arguments are strings: 'code' is not"]
    assert prompt_argument_problems(declared, ["x"]) == ["arguments must be an object of strings"]


# -- stdio: a real child process ----------------------------------------------------------------

class StdioPeer:
    """A course server over stdio, driven line by line."""

    def __init__(self, name: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "course_lib.mcp_servers", name], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def send(self, message: object) -> None:
        line = message if isinstance(message, bytes) else (
            message if isinstance(message, str) else json.dumps(message)).encode()
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def ask(self, message: object) -> dict:
        self.send(message)
        line = self.proc.stdout.readline()
        assert line, f"the server exited (code {self.proc.poll()})"
        return json.loads(line)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


@pytest.fixture
def stdio_demo():
    peer = StdioPeer("demo")
    assert peer.ask(INIT)["id"] == 1
    peer.send(INITIALIZED)
    yield peer
    peer.close()


def test_stdio_a_1000_level_line_does_not_kill_the_server(stdio_demo):
    deep = '{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"x":' + nested(1000) + "}}"
    assert stdio_demo.ask(deep)["error"]["code"] == -32700
    assert stdio_demo.ask(nested(100_000))["error"]["code"] == -32700
    assert "tools" in stdio_demo.ask({"jsonrpc": "2.0", "id": 8, "method": "tools/list"})["result"]
    assert stdio_demo.proc.poll() is None


@pytest.mark.parametrize("bad_id", [None, 1.5, True, {}])
def test_stdio_bad_ids_get_invalid_request_with_id_null(stdio_demo, bad_id):
    reply = stdio_demo.ask({"jsonrpc": "2.0", "id": bad_id, "method": "tools/list"})
    assert reply["error"]["code"] == -32600 and reply["id"] is None


def test_stdio_notifications_get_no_reply(stdio_demo):
    for notification in [{"jsonrpc": "2.0", "method": "no/such/notification"},
                         {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["x"]},
                         {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"bad": True}}]:
        stdio_demo.send(notification)
    # The next line read answers the next request: nothing came back for the notifications.
    assert stdio_demo.ask({"jsonrpc": "2.0", "id": 9, "method": "ping"}) == {"jsonrpc": "2.0", "id": 9, "result": {}}


def test_stdio_null_and_batches_are_invalid_requests(stdio_demo):
    for message in ["null", "[]", '[{"jsonrpc":"2.0","id":3,"method":"tools/list"}]', "5", '"x"']:
        reply = stdio_demo.ask(message)
        assert reply["error"]["code"] == -32600 and reply["id"] is None, message


# -- streamable HTTP -----------------------------------------------------------------------------

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture
def http_pm():
    handle = start_http(project_manager_server(), "test-hostile-http")
    url = handle.url + "/mcp"
    r = httpx.post(url, json=INIT, headers=HEADERS)
    session = {**HEADERS, "mcp-session-id": r.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
    assert httpx.post(url, json=INITIALIZED, headers=session).status_code == 202
    yield handle, url, session
    stop_server("test-hostile-http")


def _post(url: str, body: object, headers: dict) -> httpx.Response:
    content = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return httpx.post(url, content=content, headers=headers)


@pytest.mark.parametrize("bad_id", [None, 1.5, True, {}])
def test_http_bad_ids_get_invalid_request_not_202(http_pm, bad_id):
    _, url, session = http_pm
    r = _post(url, {"jsonrpc": "2.0", "id": bad_id, "method": "tools/list"}, session)
    assert r.status_code == 400 and r.json()["error"]["code"] == -32600 and r.json()["id"] is None


@pytest.mark.parametrize("body", ["null", "[]", '[{"jsonrpc":"2.0","id":5,"method":"tools/list"}]'])
def test_http_batch_and_null_get_a_plain_invalid_request(http_pm, body):
    _, url, session = http_pm
    r = _post(url, body, session)
    error = r.json()["error"]
    assert r.status_code == 400 and error["code"] == -32600
    assert "validation error" not in error["message"].lower() and "union[" not in error["message"]


def test_http_deep_json_is_a_parse_error_and_the_session_goes_on(http_pm):
    _, url, session = http_pm
    r = _post(url, '{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"x":' + nested(3000) + "}}", session)
    assert r.status_code == 400 and r.json()["error"]["code"] == -32700
    assert _post(url, {"jsonrpc": "2.0", "id": 8, "method": "ping"}, session).status_code == 200


def test_http_notifications_get_202_and_no_body(http_pm):
    _, url, session = http_pm
    r = _post(url, {"jsonrpc": "2.0", "method": "no/such/notification"}, session)
    assert r.status_code == 202 and r.content == b""


def test_http_dns_rebinding_is_still_refused_first(http_pm):
    _, url, session = http_pm
    r = _post(url, "[]", {**session, "Host": "evil.example:80"})
    assert r.status_code == 421  # the SDK's Host check comes before the JSON-RPC checks


def test_http_half_sent_body_logs_one_line(http_pm, caplog):
    handle, _, _ = http_pm
    caplog.set_level(logging.INFO)
    with socket.create_connection(("127.0.0.1", handle.port)) as conn:
        conn.sendall((f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{handle.port}\r\nContent-Type: application/json\r\n"
                      "Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n").encode()
                     + b'{"jsonrpc":')
        time.sleep(0.3)
    deadline = time.monotonic() + 5
    while "disconnected" not in caplog.text and time.monotonic() < deadline:
        time.sleep(0.05)
    lines = [r for r in caplog.records if "disconnect" in r.getMessage().lower()]
    assert len(lines) == 1 and "11 bytes" in lines[0].getMessage()
    assert not any(r.exc_info for r in caplog.records), "a traceback was logged"
    assert "ClientDisconnect" not in caplog.text


def _serve_app(name: str, server, **options):
    from course_lib.servers import start_server

    return start_server(name, server.streamable_http_app(**options))


def test_http_abandoned_sessions_expire():
    server = project_manager_server()
    handle = _serve_app("test-expiring-sessions", server, session_idle_timeout=0.5)
    try:
        url = handle.url + "/mcp"
        sessions = [httpx.post(url, json=INIT, headers=HEADERS).headers["mcp-session-id"] for _ in range(3)]
        assert len(set(sessions)) == 3
        deadline = time.monotonic() + 15
        while server.session_manager._server_instances and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not server.session_manager._server_instances  # every abandoned session expired: memory comes back
        r = httpx.post(url, json={"jsonrpc": "2.0", "id": 2, "method": "ping"},
                       headers={**HEADERS, "mcp-session-id": sessions[0], "mcp-protocol-version": "2025-11-25"})
        assert r.status_code == 404  # the client must start a new session (MCP transports, session management)
        assert httpx.post(url, json=INIT, headers=HEADERS).status_code == 200
    finally:
        stop_server("test-expiring-sessions")


def test_http_open_sessions_are_capped():
    server = project_manager_server()
    handle = _serve_app("test-capped-sessions", server, max_sessions=3)
    try:
        url = handle.url + "/mcp"
        assert [httpx.post(url, json=INIT, headers=HEADERS).status_code for _ in range(3)] == [200, 200, 200]
        over = httpx.post(url, json=INIT, headers=HEADERS)
        assert over.status_code == 503 and over.json()["error"]["message"] == "Too many open sessions"
    finally:
        stop_server("test-capped-sessions")


def test_course_servers_default_to_a_finite_idle_timeout_and_session_cap():
    from course_lib.mcp_transports import MAX_SESSIONS, SESSION_IDLE_TIMEOUT

    server = demo_server()
    server.streamable_http_app()
    assert server.session_manager.session_idle_timeout == SESSION_IDLE_TIMEOUT <= 30 * 60
    assert server.session_manager.max_sessions == MAX_SESSIONS


# -- prompts: -32602 in both eras --------------------------------------------------------------

@pytest.mark.anyio
@pytest.mark.parametrize("mode", ERAS)
async def test_unknown_prompt_and_bad_prompt_arguments_are_invalid_params(mode):
    async with Client(project_manager_server(), mode=mode) as client:
        for name, arguments, words in [("nope", None, "Unknown prompt: nope"),
                                       ("code_review", {}, "missing required argument 'code'"),
                                       ("code_review", {"code": "x", "zzz": "1"}, "unexpected argument 'zzz'")]:
            with pytest.raises(MCPError) as e:
                await client.get_prompt(name, arguments)
            assert e.value.error.code == -32602 and words in e.value.error.message
        ok = await client.get_prompt("code_review", {"code": "x = 1"})
        assert "x = 1" in ok.messages[0].content.text


@pytest.mark.anyio
async def test_prompt_argument_that_is_not_a_string_on_the_wire():
    log = await raw_session(project_manager_server(), [INIT, INITIALIZED, {
        "jsonrpc": "2.0", "id": 5, "method": "prompts/get", "params": {"name": "code_review", "arguments": {"code": 5}}}])
    reply = next(m for d, m in log if d == "<--" and isinstance(m, dict) and m.get("id") == 5)
    assert reply["error"]["code"] == -32602 and "'code' is not" in reply["error"]["message"]


def test_prompt_errors_over_http_in_both_eras():
    import anyio

    from course_lib.mcp_transports import http_client

    handle = start_http(project_manager_server(), "test-prompt-http")

    async def check(mode: str) -> None:
        async with http_client(handle.url + "/mcp", mode=mode) as client:
            with pytest.raises(MCPError) as e:
                await client.get_prompt("nope")
            assert e.value.error.code == -32602

    try:
        for mode in ERAS:
            anyio.run(check, mode)
    finally:
        stop_server("test-prompt-http")
