"""The A2A 1.0 wire by hand: raw JSON-RPC over HTTP (PascalCase methods, the A2A-Version header, ProtoJSON
enums), SSE streaming, the REST binding, and the tracing transport (loopback and in-process)."""
from __future__ import annotations

import asyncio

import httpx
import pytest

from course_lib import a2a_agents as ag
from course_lib.a2a_wire import (A2A_HEADERS, TracingTransport, describe_request, describe_result, rpc,
                                 rpc_stream, sse_data, text_message)
from course_lib.examples import create_finance_db
from course_lib.servers import stop_server
from course_lib.tracing import Trace


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    db = create_finance_db(tmp_path_factory.mktemp("wire") / "finance.db")
    server = ag.start_agent("test-wire-agent", ag.finance_agent_card, ag.FinanceAgentExecutor(db, step_delay=0))
    yield server
    stop_server("test-wire-agent")


def call(agent, method, params=None, **kw):
    async def go():
        async with httpx.AsyncClient() as http:
            return await rpc(http, agent.url + "/a2a/jsonrpc", method, params, **kw)
    return asyncio.run(go())


def send(agent, text, **ids):
    return call(agent, "SendMessage", {"message": text_message(text, **ids)})


def test_send_message_returns_a_protojson_task(agent):
    reply = send(agent, "Get the company's 2024 revenue", message_id="m-42")
    assert reply["jsonrpc"] == "2.0" and isinstance(reply["id"], int) and "error" not in reply
    task = reply["result"]["task"]
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    assert task["history"][0] == {"messageId": "m-42", "contextId": task["contextId"], "taskId": task["id"],
                                  "role": "ROLE_USER", "parts": [{"text": "Get the company's 2024 revenue"}]}
    assert {m["role"] for m in task["history"]} == {"ROLE_USER", "ROLE_AGENT"}
    [artifact] = task["artifacts"]
    assert artifact["name"] == "finance-result"
    assert artifact["parts"][0]["data"]["totals"] == {"2024": {"revenue": 1279.9}}
    assert artifact["parts"][1]["text"].startswith("2024 revenue: 1279.9 million USD")


def test_get_task_and_cancel_by_raw_json_rpc(agent):
    task = send(agent, "revenue please")["result"]["task"]
    assert task["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
    assert task["status"]["message"]["parts"] == [{"text": "Which year? The finance database has 2022–2024."}]
    got = call(agent, "GetTask", {"id": task["id"]})["result"]
    assert got["id"] == task["id"] and got["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
    canceled = call(agent, "CancelTask", {"id": task["id"]})["result"]
    assert canceled["status"]["state"] == "TASK_STATE_CANCELED"
    again = call(agent, "CancelTask", {"id": task["id"]})
    assert again["result"] == canceled  # idempotent (C-20)


def test_resume_by_raw_json_rpc_with_task_and_context_ids(agent):
    task = send(agent, "profit")["result"]["task"]
    done = send(agent, "2022", message_id="m-2", task_id=task["id"], context_id=task["contextId"])["result"]["task"]
    assert done["id"] == task["id"] and done["status"]["state"] == "TASK_STATE_COMPLETED"
    # keys inside a data part are the agent's own (a Struct): not camelCased like the protocol's fields
    assert done["artifacts"][0]["parts"][0]["data"]["totals"] == {"2022": {"net_profit": 83.7}}


@pytest.mark.parametrize("method,params,code", [
    ("GetTask", {"id": "no-such-task"}, -32001),          # TaskNotFoundError
    ("CancelTask", {"id": "no-such-task"}, -32001),
    ("message/send", {"message": {}}, -32601),            # the 0.3 name is not a 1.0 method
    ("tasks/get", {"id": "x"}, -32601),
    ("NoSuchMethod", {}, -32601),
])
def test_error_codes(agent, method, params, code):
    reply = call(agent, method, params)
    assert reply["error"]["code"] == code and "result" not in reply


def test_cancel_completed_task_is_not_cancelable(agent):
    task = send(agent, "revenue 2023")["result"]["task"]
    reply = call(agent, "CancelTask", {"id": task["id"]})
    assert reply["error"]["code"] == -32002
    assert reply["error"]["data"][0]["reason"] == "TASK_NOT_CANCELABLE"


def test_without_the_version_header_the_server_assumes_0_3(agent):
    reply = call(agent, "SendMessage", {"message": text_message("revenue 2024")},
                 headers={"Content-Type": "application/json"})
    assert reply["error"]["code"] == -32009
    assert "'0.3' is not supported" in reply["error"]["message"]
    assert A2A_HEADERS["A2A-Version"] == "1.0"


def test_invalid_params_and_parse_error(agent):
    bad_role = call(agent, "SendMessage", {"message": {"messageId": "m", "role": "user", "parts": [{"text": "x"}]}})
    assert bad_role["error"]["code"] in (-32602, -32600)  # 0.3's "user" is not a 1.0 enum name

    async def go():
        async with httpx.AsyncClient() as http:
            r = await http.post(agent.url + "/a2a/jsonrpc", content=b"{not json", headers=A2A_HEADERS)
            return r.json()
    assert asyncio.run(go())["error"]["code"] == -32700


def test_streaming_by_raw_sse(agent):
    async def go():
        async with httpx.AsyncClient() as http:
            return await rpc_stream(http, agent.url + "/a2a/jsonrpc", "SendStreamingMessage",
                                    {"message": text_message("查公司2024年营收数据")}, id=7)
    events = asyncio.run(go())
    assert {e["id"] for e in events} == {7}
    kinds = [next(iter(e["result"])) for e in events]
    assert kinds == ["task", "statusUpdate", "artifactUpdate", "statusUpdate"]
    assert [e["result"].get("statusUpdate", {}).get("status", {}).get("state") for e in events[1:]] == [
        "TASK_STATE_WORKING", None, "TASK_STATE_COMPLETED"]


def test_rest_binding(agent):
    async def go():
        async with httpx.AsyncClient() as http:
            sent = (await http.post(agent.url + "/a2a/rest/message:send", headers=A2A_HEADERS,
                                    json={"message": text_message("revenue 2022")})).json()
            got = await http.get(agent.url + f"/a2a/rest/tasks/{sent['task']['id']}", headers=A2A_HEADERS)
            missing = await http.get(agent.url + "/a2a/rest/tasks/no-such-task", headers=A2A_HEADERS)
            return sent, got.json(), missing.status_code
    sent, got, missing = asyncio.run(go())
    assert sent["task"]["status"]["state"] == got["status"]["state"] == "TASK_STATE_COMPLETED"
    assert missing == 404


# --------------------------------------------------------------------------- labels and the tracer

def test_labels():
    assert describe_request("POST", "/a2a/jsonrpc", {"method": "SendMessage", "params": {
        "message": text_message("Get the company's 2024 revenue")}}) == 'SendMessage "Get the company\'s 2024 revenue"'
    assert describe_result({"result": {"task": {"status": {"state": "TASK_STATE_COMPLETED"},
                                                "artifacts": [{}, {}]}}}) == "Task TASK_STATE_COMPLETED, 2 artifacts"
    assert describe_result({"result": {"id": "t", "status": {"state": "TASK_STATE_CANCELED"}}}) == \
        "Task TASK_STATE_CANCELED"
    assert describe_result({"name": "X", "skills": [{}], "supportedInterfaces": []}) == 'Agent Card "X" (1 skills)'
    assert describe_result({"result": {"artifactUpdate": {"artifact": {"name": "a"}}}}) == 'artifactUpdate "a"'
    assert sse_data(": keep-alive") is None
    assert sse_data('data: {"a": 1}') == {"a": 1}


def _traced_stream(transport_for, base):
    trace = Trace("t")
    wire = TracingTransport(trace, transport_for, client="Me", names={base.split("//")[1]: "Agent"})

    async def go():
        async with httpx.AsyncClient(transport=wire) as http:
            events = await rpc_stream(http, base + "/a2a/jsonrpc", "SendStreamingMessage",
                                      {"message": text_message("revenue 2024")})
            reply = await rpc(http, base + "/a2a/jsonrpc", "GetTask", {"id": "nope"})
            return events, reply
    events, reply = asyncio.run(go())
    return trace, events, reply


def test_tracer_records_every_message_without_changing_them(agent):
    trace, events, reply = _traced_stream(httpx.AsyncHTTPTransport(), agent.url)
    assert len(events) == 4 and reply["error"]["code"] == -32001
    assert [(e.src, e.dst, e.kind) for e in trace.events] == (
        [("Me", "Agent", "request")] + [("Agent", "Me", "notification")] * 4
        + [("Me", "Agent", "request"), ("Agent", "Me", "error")])
    assert [e.payload for e in trace.events[1:5]] == events  # what the tracer saw is what the client got
    assert trace.events[-1].label == "error -32001 Task not found"


def test_tracer_in_process_asgi(tmp_path):
    db = create_finance_db(tmp_path / "f.db")
    base = "http://agent.local"
    app = ag.build_agent_app(ag.finance_agent_card(base), ag.FinanceAgentExecutor(db, step_delay=0))
    trace, events, reply = _traced_stream(httpx.ASGITransport(app=app), base)
    assert [e.label.split(" ")[0] for e in trace.events] == (
        ["SendStreamingMessage", "Task", "statusUpdate", "artifactUpdate", "statusUpdate",
         "GetTask", "error"])


def test_tracer_renames_a_lane_everywhere():
    trace = Trace("t")
    wire = TracingTransport(trace, client="Me")
    trace.add("Me", "127.0.0.1:9", "GET /x")
    wire.name("http://127.0.0.1:9", "Finance DB agent")
    assert (trace.events[0].dst, wire.lane("http://127.0.0.1:9/a2a")) == ("Finance DB agent", "Finance DB agent")
    assert "Me" in repr(wire)
