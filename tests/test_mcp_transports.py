"""MCP over stdio, streamable HTTP, legacy SSE and a custom TCP transport, in both protocol eras (lesson 09).

C-10 (stderr of a stdio server in a kernel), C-11 (a server that dies), C-13 (UTF-8 whatever
the locale), C-14 (1 MB messages), C-15 (version negotiation and the HTTP version header),
C-18 (batches refused with -32600), DNS-rebinding checks, idempotent start.
"""
from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap

import httpx
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.sse import sse_client
from mcp.shared.exceptions import MCPError

from course_lib.mcp_servers import demo_server, project_manager_server
from course_lib.mcp_transports import (MCPServerDied, StdioMCP, course_server_params, http_client, serve_tcp,
                                       start_http, start_sse, tcp_client)
from course_lib.servers import stop_server

pytestmark = pytest.mark.anyio
ERAS = ["legacy", "auto"]
TEXT = "Messgerät 🚀 中文"
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def http_demo():
    handle = start_http(demo_server(), "test-transports-http")
    yield handle.url + "/mcp"
    stop_server("test-transports-http")


# -- stdio ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ERAS)
async def test_stdio_utf8_whatever_the_locale_and_one_megabyte_both_ways(mode):
    params = course_server_params("demo", env={"PYTHONIOENCODING": "cp1252"})
    async with StdioMCP(params, mode=mode) as c:
        assert (await c.call_tool("echo", {"text": TEXT})).content[0].text == TEXT
        assert len((await c.call_tool("big_text", {"size": 1_000_000})).content[0].text) == 1_000_000
        assert (await c.call_tool("echo", {"text": "y" * 200_000})).content[0].text == "y" * 200_000


def test_stdio_server_framing_by_hand():
    """Invalid UTF-8 → -32700, a batch → -32600, unknown version → newest; the session stays usable."""
    proc = subprocess.Popen([sys.executable, "-m", "course_lib.mcp_servers", "demo"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        def send(line: bytes) -> dict:
            proc.stdin.write(line + b"\n")
            proc.stdin.flush()
            return json.loads(proc.stdout.readline())

        init = {**INIT, "params": {**INIT["params"], "protocolVersion": "2099-01-01"}}
        assert send(json.dumps(init).encode())["result"]["protocolVersion"] == "2025-11-25"
        proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        assert send(b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"\xff"}}}'
                    )["error"]["code"] == -32700
        assert send(b'[{"jsonrpc":"2.0","id":3,"method":"tools/list"}]')["error"]["code"] == -32600
        assert send(b"[]")["error"]["code"] == -32600
        reply = send(json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                                 "params": {"name": "echo", "arguments": {"text": TEXT}}}, ensure_ascii=False).encode())
        assert reply["result"]["content"][0]["text"] == TEXT
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)


async def test_c10_stderr_reaches_a_stream_without_fileno():
    noisy = StdioServerParameters(command=sys.executable, args=[
        "-c", "import sys; sys.stderr.write('boom\\n'); from course_lib.mcp_servers import main; main(['demo'])"])
    captured = io.StringIO()
    async with StdioMCP(noisy, errlog=captured) as c:
        assert [t.name for t in (await c.list_tools()).tools][:2] == ["echo", "add"]
    assert captured.getvalue().strip() == "boom"


async def test_c10_default_log_is_a_real_file():
    server = StdioMCP(StdioServerParameters(command=sys.executable, args=[
        "-c", "import sys; sys.stderr.write('boom\\n'); from course_lib.mcp_servers import main; main(['demo'])"]))
    async with server as c:
        await c.call_tool("add", {"a": 1, "b": 1})
    assert server.log_path.is_file() and server.log_text().strip() == "boom" and server.exit_code == 0


async def test_c11_server_that_exits_before_initialize():
    params = StdioServerParameters(command=sys.executable, args=[
        "-c", "import sys; sys.stderr.write('missing KEY'); sys.exit(1)"])
    with pytest.raises(MCPServerDied) as e:
        async with StdioMCP(params, call_timeout=10):
            pass
    assert e.value.exit_code == 1 and e.value.stderr == "missing KEY"
    assert "code 1" in str(e.value) and "missing KEY" in str(e.value)


@pytest.mark.parametrize("mode", ERAS)
async def test_c11_server_that_dies_during_a_call(mode):
    with pytest.raises(MCPServerDied) as e:
        async with StdioMCP(course_server_params("demo"), mode=mode, call_timeout=10) as c:
            await c.call_tool("crash", {"exit_code": 3})
    assert e.value.exit_code == 3 and "crashing on purpose" in e.value.stderr


async def test_c11_a_server_that_hangs_is_bounded():
    silent = StdioServerParameters(command=sys.executable, args=["-c", "import sys, time; sys.stdin.read()"])
    with pytest.raises(MCPError) as e:
        async with StdioMCP(silent, call_timeout=1):
            pass
    assert e.value.error.code == -32001 and "timed out" in e.value.error.message


@pytest.mark.parametrize("mode", ERAS)
async def test_c15_client_refuses_a_server_version_it_does_not_support(tmp_path, mode):
    fake = tmp_path / "old_server.py"
    fake.write_text(textwrap.dedent("""
        import json, sys
        for line in sys.stdin:
            msg = json.loads(line)
            if "id" in msg:
                result = {"protocolVersion": "1999-01-01", "capabilities": {}, "serverInfo": {"name": "old", "version": "0"}}
                print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
    """))
    with pytest.raises(Exception) as e:
        async with StdioMCP(StdioServerParameters(command=sys.executable, args=[str(fake)]), mode=mode,
                            call_timeout=10):
            pass
    assert "Unsupported protocol version" in str(e.value) and "1999-01-01" in str(e.value)


# -- streamable HTTP -------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ERAS)
async def test_http_both_eras_and_one_megabyte_both_ways(http_demo, mode):
    async with http_client(http_demo, mode=mode) as c:
        assert c.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
        assert (await c.call_tool("echo", {"text": TEXT})).content[0].text == TEXT
        assert len((await c.call_tool("big_text", {"size": 1_000_000})).content[0].text) == 1_000_000
        assert len((await c.call_tool("echo", {"text": "y" * 200_000})).content[0].text) == 200_000


async def test_c14_over_the_named_cap_fails_one_call_and_the_session_stays_usable(http_demo):
    async with http_client(http_demo, mode="legacy", max_event_bytes=100_000) as c:
        with pytest.raises(MCPError, match="exceeded"):
            await c.call_tool("big_text", {"size": 200_000})
        assert (await c.call_tool("add", {"a": 2, "b": 3})).structured_content == {"result": 5}


def test_http_sessions_versions_and_dns_rebinding(http_demo):
    r = httpx.post(http_demo, json=INIT, headers=HEADERS)
    sid = r.headers["mcp-session-id"]
    session = {**HEADERS, "Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
    assert httpx.post(http_demo, json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                      headers=session).status_code == 202
    assert httpx.post(http_demo, json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                      headers=session).status_code == 200
    # C-15: a later request with an unsupported version header gets HTTP 400.
    assert httpx.post(http_demo, json={"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
                      headers={**session, "MCP-Protocol-Version": "1999-01-01"}).status_code == 400
    assert httpx.post(http_demo, json={"jsonrpc": "2.0", "id": 4, "method": "tools/list"},
                      headers=HEADERS).status_code == 400  # no session id
    assert httpx.post(http_demo, json=INIT, headers={**HEADERS, "Host": "evil.example"}).status_code == 421
    assert httpx.post(http_demo, json=INIT, headers={**HEADERS, "Origin": "http://evil.example"}).status_code == 403
    batch = httpx.post(http_demo, json=[INIT], headers=HEADERS)
    assert batch.status_code == 400 and batch.json()["error"]["code"] == -32600
    offered = {**INIT, "params": {**INIT["params"], "protocolVersion": "2099-01-01"}}
    assert '"protocolVersion":"2025-11-25"' in httpx.post(http_demo, json=offered, headers=HEADERS).text


def test_http_2026_is_stateless(http_demo):
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
    r = httpx.post(http_demo, json={"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}},
                   headers={**HEADERS, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"})
    assert r.status_code == 200 and "mcp-session-id" not in r.headers
    assert r.json()["result"]["supportedVersions"] == ["2026-07-28"]


def test_stateless_handshake_server_has_no_session():
    handle = start_http(project_manager_server(), "test-transports-stateless", stateless=True)
    try:
        r = httpx.post(handle.url + "/mcp", json=INIT, headers=HEADERS)
        assert r.status_code == 200 and "mcp-session-id" not in r.headers
    finally:
        stop_server("test-transports-stateless")


def test_start_http_is_idempotent():
    first = start_http(demo_server(), "test-transports-idem")
    second = start_http(demo_server(), "test-transports-idem")
    try:
        assert not first.running and second.running
    finally:
        stop_server("test-transports-idem")
    assert not second.running


# -- legacy SSE and a custom transport ---------------------------------------------------------------

async def test_legacy_sse_transport():
    handle = start_sse(demo_server(), "test-transports-sse")
    try:
        async with Client(sse_client(handle.url + "/sse"), mode="legacy") as c:
            assert c.protocol_version == "2025-11-25"
            assert (await c.call_tool("add", {"a": 40, "b": 2})).structured_content == {"result": 42}
    finally:
        stop_server("test-transports-sse")


@pytest.mark.parametrize("mode", ERAS)
async def test_custom_tcp_transport(mode):
    async with serve_tcp(project_manager_server()) as port:
        async with Client(tcp_client(port), mode=mode) as c:
            r = await c.call_tool("create_task", {"title": TEXT})
            assert r.structured_content["title"] == TEXT
            with pytest.raises(MCPError) as e:
                await c.call_tool("no_such_tool", {})
            assert e.value.error.code == -32602


def test_the_latency_chart_text_is_unchanged_in_english_and_speaks_chinese_in_chinese(monkeypatch):
    from course_lib.mcp_transports import latency_chart
    from course_lib.text_table import display_width

    runs = {"in-memory": [0.5, 0.7, 0.6], "streamable HTTP": [3.1, 2.9, 4.0]}
    monkeypatch.setenv("COURSE_LANG", "en")
    fig = latency_chart(runs)
    assert fig.fallback_text.splitlines()[0] == "in-memory          median    0.60 ms  (min 0.50, max 0.70, n=3)"
    assert fig.title == "tools/call round trip"
    monkeypatch.setenv("COURSE_LANG", "zh")
    fig = latency_chart({"内存": [0.5, 0.7, 0.6], **runs})
    lines = fig.fallback_text.splitlines()
    assert lines[0] == "内存               中位数    0.60 ms  （最小 0.50，最大 0.70，n=3）"
    assert {display_width(line.split("中位数")[0]) for line in lines} == {19}  # one display column
    assert fig.title == "tools/call 往返时间"
