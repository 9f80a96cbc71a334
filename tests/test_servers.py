"""Every server the kit starts listens with TCP_NODELAY (issue 15), checked on live connections.

Without TCP_NODELAY a reply written in two pieces waits for Nagle's algorithm and the client's
delayed ACK (about 40 ms a request on loopback). The check here is not a timing: it reads the
option on the server's side of an open connection, for each way the kit serves HTTP.
"""
from __future__ import annotations

import argparse
import json
import socket
import threading
import time

import pytest

from course_lib import servers
from course_lib.servers import ServerStartError, has_nodelay, running_servers, start_server, stop_server, tcp_listener


def _one_request(port: int, path: str = "/", body: bytes = b"", method: str = "GET",
                 headers: dict[str, str] | None = None) -> socket.socket:
    """Send one HTTP/1.1 request on a raw socket, read the reply's head, keep the connection open."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=10)
    head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", f"Content-Length: {len(body)}"]
    head += [f"{k}: {v}" for k, v in (headers or {}).items()]
    conn.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + body)
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = conn.recv(65536)
        assert chunk, "the server closed the connection without replying"
        received += chunk
    assert received.startswith(b"HTTP/1.1 "), received[:80]
    return conn


def _assert_connections_nodelay(handle: servers.LocalServer, conn: socket.socket) -> None:
    deadline = time.monotonic() + 5
    while not handle.connection_sockets() and time.monotonic() < deadline:
        time.sleep(0.01)
    sockets = handle.connection_sockets()
    assert sockets, "no open connection seen on the server"
    assert all(has_nodelay(s) for s in sockets), "a server-side connection has Nagle's algorithm on"
    conn.close()


async def _hello(scope, receive, send):
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


def test_tcp_listener_is_tcp_with_nodelay_on_loopback():
    sock = tcp_listener()
    try:
        assert sock.proto == socket.IPPROTO_TCP  # asyncio sets TCP_NODELAY only on IPPROTO_TCP sockets
        assert has_nodelay(sock)
        assert sock.getsockname()[0] == "127.0.0.1" and sock.getsockname()[1] > 0
    finally:
        sock.close()


def test_a_plain_socket_has_no_nodelay_so_the_check_can_fail():
    with socket.socket() as plain:
        plain.bind(("127.0.0.1", 0))
        assert not has_nodelay(plain)


def test_start_server_connections_have_nodelay():
    handle = start_server("test-nodelay-plain", _hello)
    try:
        _assert_connections_nodelay(handle, _one_request(handle.port))
    finally:
        stop_server("test-nodelay-plain")


def test_start_server_on_a_busy_port_is_a_clear_error():
    with tcp_listener() as taken:
        with pytest.raises(ServerStartError, match="already in use"):
            start_server("test-busy", _hello, port=taken.getsockname()[1])
    assert "test-busy" not in [s.name for s in running_servers()]


def test_mcp_streamable_http_connections_have_nodelay():
    from course_lib.mcp_servers import demo_server
    from course_lib.mcp_transports import start_http

    handle = start_http(demo_server(), "test-nodelay-mcp")
    try:
        init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}).encode()
        conn = _one_request(handle.port, "/mcp", init, "POST", {
            "Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
        _assert_connections_nodelay(handle, conn)
    finally:
        stop_server("test-nodelay-mcp")


def test_a2a_agent_connections_have_nodelay(tmp_path):
    from course_lib import a2a_agents
    from course_lib.examples import create_finance_db

    executor = a2a_agents.FinanceAgentExecutor(create_finance_db(tmp_path / "finance.db"))
    handle = a2a_agents.start_agent("test-nodelay-a2a", a2a_agents.finance_agent_card, executor)
    try:
        _assert_connections_nodelay(handle, _one_request(handle.port, "/.well-known/agent-card.json"))
    finally:
        stop_server("test-nodelay-a2a")


def _foreground(name: str, target, *args) -> servers.LocalServer:
    """Run a blocking ``serve`` command in a thread; return its handle once it listens."""
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        found = [s for s in running_servers() if s.name == name and s.server.started]
        if found:
            return found[0]
        assert thread.is_alive(), f"{name} ended before it served"
        time.sleep(0.02)
    raise AssertionError(f"{name} did not start")


def test_course_mcp_serve_http_connections_have_nodelay(capsys):
    from course_lib import mcp_bridge

    handle = _foreground("course-mcp-serve", lambda: mcp_bridge.serve(transport="http"))
    try:
        assert f"http://127.0.0.1:{handle.port}/mcp" in capsys.readouterr().err
        conn = _one_request(handle.port, "/mcp", b"{}", "POST", {"Content-Type": "application/json"})
        _assert_connections_nodelay(handle, conn)
    finally:
        stop_server("course-mcp-serve")
        handle.thread.join(10)
    assert not handle.thread.is_alive()


def test_course_llm_serve_connections_have_nodelay(capsys):
    from course_lib.commands import llm

    args = argparse.Namespace(host="127.0.0.1", port=0, model="mock-llm")
    handle = _foreground("course-llm-serve", llm._serve, args)
    try:
        assert f"http://127.0.0.1:{handle.port}/v1" in capsys.readouterr().out
        _assert_connections_nodelay(handle, _one_request(handle.port, "/v1/models"))
    finally:
        stop_server("course-llm-serve")
        handle.thread.join(10)
    assert not handle.thread.is_alive()
