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
