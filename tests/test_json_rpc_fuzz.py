"""Fuzz lesson 07's hand-built JSON-RPC 2.0 server: sans-IO, over stdio and over HTTP (issue 14).

Plain JSON-RPC rules here (not MCP's): batches are answered with an array (or nothing when all
are notifications), ``null`` and fractional ids are allowed (spec §4: "SHOULD NOT"), and JSON
nested deeper than ``MAX_DEPTH`` is a parse error. Every message gets a well-formed reply or, for a
notification, none at all, and the server keeps answering.
"""
from __future__ import annotations

import json

import pytest

from course_lib.json_rpc import MAX_DEPTH, StdioClient, asgi_app, http_call, spec_dispatcher, stdio_server_command
from course_lib.servers import start_server, stop_server
from fuzz_messages import Fuzzed, MessageFuzzer, check_reply

METHODS = ["subtract", "sum", "get_data", "update", "notify_hello", "echo"]


def dispatcher():
    rpc = spec_dispatcher()
    rpc.add(lambda text: text, "echo")
    return rpc


def check(fuzzed: Fuzzed, reply_text: str | None) -> None:
    got = [] if reply_text is None else [json.loads(reply_text)]
    assert len(got) in fuzzed.replies, f"{fuzzed.label}: {fuzzed.raw[:200]!r} -> {reply_text!r:.200}"
    for reply in got:
        if isinstance(reply, list):  # a batch: one response per request in it, never an empty array
            assert reply, "an empty array must never be sent (spec §6)"
            for item in reply:
                check_reply(item, Fuzzed(fuzzed.raw, frozenset({1}), None, fuzzed.label))
        else:
            check_reply(reply, fuzzed)


def messages(seed: int, n: int) -> list[Fuzzed]:
    return MessageFuzzer(seed, methods=METHODS, mcp=False, max_depth=MAX_DEPTH).generate(n)


def test_dispatcher_answers_every_bad_message():
    rpc = dispatcher()
    for fuzzed in messages(7, 1000):
        check(fuzzed, rpc.handle(fuzzed.raw))
    assert json.loads(rpc.handle('{"jsonrpc":"2.0","method":"subtract","params":[5,3],"id":1}'))["result"] == 2


def test_stdio_server_answers_every_bad_message_and_survives():
    with StdioClient(stdio_server_command(), timeout=15) as server:
        for i, fuzzed in enumerate(messages(11, 300)):
            server.send_line(fuzzed.raw)
            server.send_line(json.dumps({"jsonrpc": "2.0", "method": "get_data", "id": f"sentinel-{i}"}))
            replies = []
            while True:
                reply = server.read_reply()
                if isinstance(reply, dict) and reply.get("id") == f"sentinel-{i}":
                    break
                replies.append(reply)
            assert len(replies) in fuzzed.replies, f"{fuzzed.label}: {fuzzed.raw[:200]!r} -> {replies!r:.200}"
            for reply in replies:
                check(fuzzed, json.dumps(reply))
        assert server.call("subtract", [3, 1])["result"] == 2


@pytest.mark.parametrize("seed", [13])
def test_http_server_answers_every_bad_message_and_survives(seed):
    server = start_server("test-json-rpc-fuzz", asgi_app(dispatcher()))
    try:
        for fuzzed in messages(seed, 200):
            status, reply = http_call(server.url + "/", fuzzed.raw)
            assert status in (200, 204), f"{fuzzed.label}: HTTP {status}"
            check(fuzzed, None if reply is None else json.dumps(reply))
            assert (status == 204) == (reply is None)
        assert http_call(server.url + "/", {"jsonrpc": "2.0", "method": "subtract", "params": [2, 1], "id": 3}) == \
            (200, {"jsonrpc": "2.0", "result": 1, "id": 3})
    finally:
        stop_server("test-json-rpc-fuzz")
