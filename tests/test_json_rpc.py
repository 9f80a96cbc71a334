"""JSON-RPC 2.0: the hand-built dispatcher against the spec's examples, C-18, ids, and both transports."""
from __future__ import annotations

import json

import pytest

from course_lib.json_rpc import (INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR,
                                 SPEC_EXAMPLES, Dispatcher, JsonRpcError, StdioClient, asgi_app, http_call,
                                 run_spec_examples, spec_dispatcher, stdio_server_command, traced_exchange)
from course_lib.servers import start_server, stop_server
from course_lib.tracing import Trace


@pytest.mark.parametrize("title, sent, expected", SPEC_EXAMPLES, ids=[t for t, _, _ in SPEC_EXAMPLES])
def test_every_spec_example(title, sent, expected):
    raw = spec_dispatcher().handle(sent)
    got = None if raw is None else json.loads(raw)
    if isinstance(got, dict) and "error" in got:
        got["error"].pop("data", None)
    if isinstance(got, list):
        for r in got:
            if "error" in r:
                r["error"].pop("data", None)
    assert got == expected


def test_run_spec_examples_reports_a_broken_handler():
    results = run_spec_examples(lambda text: "[]")
    assert not any(passed for _, passed, _ in results)


class TestC18BatchesAndNotifications:
    """An empty array, [1], a batch of notifications, a lone notification."""

    def test_empty_array_is_one_invalid_request_error(self):
        assert json.loads(spec_dispatcher().handle("[]")) == {
            "jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": None}

    def test_one_invalid_entry_gives_an_array_of_one_error(self):
        assert json.loads(spec_dispatcher().handle("[1]")) == [
            {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": None}]

    def test_batch_of_only_notifications_gets_nothing(self):
        assert spec_dispatcher().handle('[{"jsonrpc":"2.0","method":"notify_progress","params":{}}]') is None

    def test_lone_notification_to_an_unknown_method_gets_nothing(self):
        assert spec_dispatcher().handle('{"jsonrpc":"2.0","method":"log","params":{"x":1}}') is None

    def test_over_http_nothing_means_204_and_no_body(self):
        server = start_server("test-json-rpc-c18", asgi_app(spec_dispatcher()))
        try:
            assert http_call(server.url + "/", '[{"jsonrpc":"2.0","method":"notify_progress","params":{}}]') == \
                (204, None)
            assert http_call(server.url + "/", "[]") == \
                (200, {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": None})
        finally:
            stop_server("test-json-rpc-c18")


class TestIds:
    @pytest.mark.parametrize("id_value", ["1", 1, 0, -7, 2.5, "", None])
    def test_id_is_echoed_with_its_json_type(self, id_value):
        msg = json.dumps({"jsonrpc": "2.0", "method": "get_data", "id": id_value})
        reply = json.loads(spec_dispatcher().handle(msg))
        assert reply["result"] == ["hello", 5]
        assert reply["id"] == id_value and type(reply["id"]) is type(id_value)

    @pytest.mark.parametrize("bad_id", [True, {"n": 1}, [1]])
    def test_non_scalar_id_is_invalid_and_answered_with_null(self, bad_id):
        reply = json.loads(spec_dispatcher().handle(json.dumps({"jsonrpc": "2.0", "method": "get_data",
                                                                 "id": bad_id})))
        assert reply == {"jsonrpc": "2.0", "error": {"code": INVALID_REQUEST, "message": "Invalid Request"},
                         "id": None}

    def test_invalid_request_with_a_valid_id_echoes_it(self):
        reply = json.loads(spec_dispatcher().handle('{"jsonrpc": "1.0", "method": "get_data", "id": "x"}'))
        assert reply["error"]["code"] == INVALID_REQUEST and reply["id"] == "x"


class TestErrors:
    def make(self):
        rpc = Dispatcher()

        @rpc.method()
        def boom() -> None:
            raise RuntimeError("secret internals")

        @rpc.method()
        def app_error() -> None:
            raise JsonRpcError(-32001, "Unknown city", {"city": "X"})

        return rpc

    def test_handler_bug_is_internal_error_without_details(self):
        reply = json.loads(self.make().handle('{"jsonrpc":"2.0","method":"boom","id":1}'))
        assert reply["error"] == {"code": INTERNAL_ERROR, "message": "Internal error", "data": "RuntimeError"}
        assert "secret" not in json.dumps(reply)

    def test_application_error_keeps_code_message_and_data(self):
        reply = json.loads(self.make().handle('{"jsonrpc":"2.0","method":"app_error","id":1}'))
        assert reply["error"] == {"code": -32001, "message": "Unknown city", "data": {"city": "X"}}

    def test_notification_that_fails_still_gets_nothing(self):
        assert self.make().handle('{"jsonrpc":"2.0","method":"boom"}') is None

    def test_wrong_params_are_invalid_params(self):
        rpc = spec_dispatcher()
        for params in ([1], [1, 2, 3], {"minuend": 1}, {"minuend": 1, "subtrahend": 2, "x": 3}):
            reply = json.loads(rpc.handle(json.dumps({"jsonrpc": "2.0", "method": "subtract", "params": params,
                                                      "id": 1})))
            assert reply["error"]["code"] == INVALID_PARAMS, params

    def test_params_must_be_structured(self):
        reply = json.loads(spec_dispatcher().handle('{"jsonrpc":"2.0","method":"get_data","params":5,"id":1}'))
        assert reply["error"]["code"] == INVALID_REQUEST

    def test_unknown_method_names_it(self):
        reply = json.loads(spec_dispatcher().handle('{"jsonrpc":"2.0","method":"nope","id":1}'))
        assert reply["error"]["code"] == METHOD_NOT_FOUND and reply["error"]["data"] == {"method": "nope"}

    def test_invalid_utf8_bytes_are_a_parse_error(self):
        reply = json.loads(spec_dispatcher().handle(b'{"jsonrpc":"2.0","method":"get_data","id":1,"x":"\xff"}'))
        assert reply["error"]["code"] == PARSE_ERROR

    def test_reserved_and_duplicate_names_are_refused(self):
        rpc = Dispatcher()
        with pytest.raises(ValueError, match="reserved"):
            rpc.add(print, "rpc.discover")
        rpc.add(print, "p")
        with pytest.raises(ValueError, match="already"):
            rpc.add(print, "p")


def test_stdio_transport_is_utf8_whatever_the_locale():
    with StdioClient(stdio_server_command(), timeout=10) as server:  # the child runs with cp1252 as its locale
        assert server.call("echo", {"text": "Messgerät 🚀 中文"})["result"] == "Messgerät 🚀 中文"
        server.notify("update", [1])
        server.send_line(b'{"jsonrpc": "2.0", "method": "echo", "params": ["\xff"], "id": 5}')
        assert server.read_reply()["error"]["code"] == PARSE_ERROR
        assert server.call("subtract", [3, 1]) == {"jsonrpc": "2.0", "result": 2, "id": 2}


def test_stdio_transport_carries_one_megabyte_both_ways():
    big = "x" * 1_000_000
    with StdioClient(stdio_server_command(), timeout=20) as server:
        assert server.call("echo", [big])["result"] == big


def test_trace_records_the_real_messages():
    trace = Trace("t")
    traced_exchange(trace, spec_dispatcher(), '{"jsonrpc":"2.0","method":"subtract","params":[5,3],"id":"a"}')
    traced_exchange(trace, spec_dispatcher(), '{"jsonrpc":"2.0","method":"update"}')
    assert [(e.src, e.dst, e.kind) for e in trace.events] == [
        ("Client", "Server", "request"), ("Server", "Client", "response"),
        ("Client", "Server", "notification"), ("Server", "Server", "local")]
    assert trace.events[1].payload == {"jsonrpc": "2.0", "result": 2, "id": "a"}


class TestHostileInput:
    """Deep nesting, non-JSON constants, lone surrogates, oversized and half-sent messages (issue 14)."""

    def echo(self) -> Dispatcher:
        rpc = spec_dispatcher()
        rpc.add(lambda x: x, "echo")
        return rpc

    @pytest.mark.parametrize("depth", [150, 1_000, 100_000])
    def test_deep_nesting_is_a_parse_error_not_a_crash(self, depth):
        for text in ["[" * depth + "]" * depth,
                     '{"jsonrpc":"2.0","id":1,"method":"echo","params":[' + "[" * depth + "]" * depth + "]}"]:
            reply = json.loads(self.echo().handle(text))
            assert reply["error"]["code"] == PARSE_ERROR and "MAX_DEPTH" in reply["error"]["data"]

    def test_nesting_within_the_limit_is_answered(self):
        from course_lib.json_rpc import MAX_DEPTH

        inner = "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2)  # params and the object itself are two levels
        reply = json.loads(self.echo().handle('{"jsonrpc":"2.0","id":1,"method":"echo","params":[' + inner + "]}"))
        assert "result" in reply

    @pytest.mark.parametrize("text", ['{"jsonrpc":"2.0","id":NaN,"method":"echo","params":[1]}',
                                      '{"jsonrpc":"2.0","id":1,"method":"echo","params":[Infinity]}',
                                      '{"jsonrpc":"2.0","id":"\\ud800","method":"echo","params":[1]}',
                                      '{"jsonrpc":"2.0","id":1,"method":"echo","params":{"x":"a\\udfffb"}}'])
    def test_what_cannot_be_written_back_as_json_is_a_parse_error(self, text):
        reply = self.echo().handle(text)
        assert json.loads(reply)["error"]["code"] == PARSE_ERROR
        reply.encode("utf-8")  # the reply itself is valid UTF-8

    def test_a_surrogate_pair_is_text(self):
        reply = json.loads(self.echo().handle('{"jsonrpc":"2.0","id":1,"method":"echo","params":["\\ud83d\\ude80"]}'))
        assert reply["result"] == "🚀"

    def test_oversized_message_is_refused(self, monkeypatch):
        import course_lib.json_rpc as json_rpc

        monkeypatch.setattr(json_rpc, "MAX_MESSAGE_BYTES", 1000)
        big = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "echo", "params": ["x" * 2000]})
        reply = json.loads(self.echo().handle(big))
        assert reply["error"]["code"] == INVALID_REQUEST and "MAX_MESSAGE_BYTES" in reply["error"]["message"]

    def test_stdio_over_long_line_is_refused_and_the_next_one_answered(self):
        import io

        import course_lib.json_rpc as json_rpc

        out = io.BytesIO()
        lines = (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "echo", "params": ["x" * 50_000]}) + "\n"
                 + '{"jsonrpc":"2.0","id":2,"method":"subtract","params":[5,3]}\n').encode()
        old = json_rpc.MAX_MESSAGE_BYTES
        json_rpc.MAX_MESSAGE_BYTES = 10_000
        try:
            json_rpc.serve_stdio(self.echo(), io.BytesIO(lines), out)
        finally:
            json_rpc.MAX_MESSAGE_BYTES = old
        replies = [json.loads(line) for line in out.getvalue().splitlines()]
        assert replies[0]["error"]["code"] == INVALID_REQUEST
        assert replies[1] == {"jsonrpc": "2.0", "result": 2, "id": 2}

    def test_stdio_server_survives_a_1000_level_line(self):
        with StdioClient(stdio_server_command(), timeout=10) as server:
            server.send_line("[" * 1000 + "]" * 1000)
            assert server.read_reply()["error"]["code"] == PARSE_ERROR
            assert server.call("subtract", [3, 1])["result"] == 2

    def test_http_half_sent_body_logs_one_line(self, caplog):
        import logging
        import socket
        import time

        caplog.set_level(logging.INFO)
        server = start_server("test-json-rpc-half", asgi_app(self.echo()))
        try:
            with socket.create_connection(("127.0.0.1", server.port)) as conn:
                conn.sendall(f"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 500\r\n\r\n".encode() + b'{"json')
                time.sleep(0.3)
            deadline = time.monotonic() + 5
            while "disconnected" not in caplog.text and time.monotonic() < deadline:
                time.sleep(0.05)
            assert [r.getMessage() for r in caplog.records if "disconnected" in r.getMessage()] == [
                "JSON-RPC over HTTP: the client disconnected after 6 bytes of its request"]
            assert not any(r.exc_info for r in caplog.records)
            assert http_call(server.url + "/", {"jsonrpc": "2.0", "method": "subtract", "params": [2, 1], "id": 3}) \
                == (200, {"jsonrpc": "2.0", "result": 1, "id": 3})
        finally:
            stop_server("test-json-rpc-half")
