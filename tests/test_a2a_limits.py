"""The finance agent on the wire survives hostile and oversized input (issue 14's A2A items).

Each kind: a notification gets no answer, a client's ROLE_AGENT message a clean -32602, an oversized body
413, a deep body -32600, an unknown ListTasks status -32602, a streaming error an event stream, the task
store and the logs bounded, heavy SQL unable to starve report requests, TaskFold refusing another task.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time

import httpx
import pytest
from a2a.helpers import new_task_from_user_message
from a2a.server.context import ServerCallContext
from a2a.types import StreamResponse, TaskState, TaskStatusUpdateEvent

from course_lib import a2a_agents as ag
from course_lib import a2a_limits as lim
from course_lib.a2a_wire import A2A_HEADERS, rpc, sse_data, text_message
from course_lib.examples import create_finance_db

BASE = "http://finance.local"
RPC = BASE + ag.JSONRPC_PATH
REST = BASE + ag.REST_PATH


@pytest.fixture
def db(tmp_path):
    return create_finance_db(tmp_path / "finance.db")


@pytest.fixture
def app(db):
    return ag.build_agent_app(ag.finance_agent_card(BASE), ag.FinanceAgentExecutor(db, step_delay=0))


def call(app, fn):
    async def go():
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), timeout=30) as http:
            try:
                return await fn(http)
            finally:
                await app.state.a2a_handler.aclose()
    return asyncio.run(go())


def post(http, body: bytes | str, url=RPC, headers=None):
    return http.post(url, content=body, headers=headers or A2A_HEADERS)


def test_a_notification_gets_no_answer_and_runs_nothing(app):
    async def go(http):
        note = {"jsonrpc": "2.0", "method": "SendMessage", "params": {"message": text_message("revenue 2024")}}
        reply = await post(http, json.dumps(note))
        listed = await rpc(http, RPC, "ListTasks", {})
        return reply, listed
    reply, listed = call(app, go)
    assert reply.status_code == 204 and reply.content == b""
    assert listed["result"]["tasks"] == []


@pytest.mark.parametrize("request_id", [None, 1.5, True, {"a": 1}])
def test_a_request_with_a_bad_id_is_not_mistaken_for_a_notification(app, request_id):
    async def go(http):
        body = {"jsonrpc": "2.0", "id": request_id, "method": "GetTask", "params": {"id": "x"}}
        return (await post(http, json.dumps(body))).json()
    reply = call(app, go)
    assert "error" in reply and reply["id"] is None


def test_a_clients_message_with_role_agent_is_invalid_params_not_internal(app):
    async def go(http):
        message = {**text_message("revenue 2024"), "role": "ROLE_AGENT"}
        sent = await rpc(http, RPC, "SendMessage", {"message": message})
        streamed = await http.post(RPC, json={"jsonrpc": "2.0", "id": 2, "method": "SendStreamingMessage",
                                              "params": {"message": message}},
                                   headers={**A2A_HEADERS, "Accept": "text/event-stream"})
        rest = await http.post(REST + "/message:send", json={"message": message}, headers=A2A_HEADERS)
        return sent, streamed, rest
    sent, streamed, rest = call(app, go)
    assert sent["error"]["code"] == -32602 and "ROLE_USER" in sent["error"]["message"]
    event = sse_data(streamed.text.strip())
    assert streamed.headers["content-type"].startswith("text/event-stream") and event["error"]["code"] == -32602
    assert rest.status_code == 400 and "ROLE_USER" in rest.json()["error"]["message"]


def test_a_50_mb_message_is_refused_with_413_before_it_is_read(app):
    big = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "SendMessage",
                      "params": {"message": text_message("x" * (50 * 1024 * 1024))}})

    async def go(http):
        over_rpc = await post(http, big)
        over_rest = await http.post(REST + "/message:send", content=big, headers=A2A_HEADERS)
        still = await rpc(http, RPC, "SendMessage", {"message": text_message("revenue 2024")})
        return over_rpc, over_rest, still
    over_rpc, over_rest, still = call(app, go)
    assert over_rpc.status_code == 413
    assert over_rpc.json()["error"]["code"] == -32600 and "Payload too large" in over_rpc.json()["error"]["message"]
    assert over_rest.status_code == 413 and over_rest.json()["error"]["code"] == 413
    assert still["result"]["task"]["status"]["state"] == "TASK_STATE_COMPLETED"


@pytest.mark.parametrize("depth", [40, 3000, 200_000])
def test_deep_json_is_invalid_request_not_a_crash(app, depth):
    deep = '{"jsonrpc": "2.0", "id": 9, "method": "SendMessage", "params": {"metadata": ' + "[" * depth \
        + "]" * depth + "}}"

    async def go(http):
        return await post(http, deep), await post(http, deep, url=REST + "/message:send")
    over_rpc, over_rest = call(app, go)
    assert over_rpc.status_code == 200 and over_rpc.json()["error"]["code"] == -32600
    assert "nested deeper than 32" in over_rpc.json()["error"]["message"]
    assert over_rest.status_code == 400


def test_json_depth_is_iterative_and_stops_at_the_limit():
    assert lim.json_depth(1) == 0 and lim.json_depth([]) == 1 and lim.json_depth({"a": [{"b": 1}]}) == 3
    nested: list = []
    for _ in range(100_000):
        nested = [nested]
    assert lim.json_depth(nested, limit=32) == 33


@pytest.mark.parametrize("status", ["INVALID_STATUS", "working", 99, True])
def test_an_unknown_list_tasks_status_is_invalid_params(app, status):
    async def go(http):
        rpc_reply = await rpc(http, RPC, "ListTasks", {"status": status})
        rest_reply = await http.get(REST + "/tasks", params={"status": str(status)}, headers=A2A_HEADERS)
        good = await rpc(http, RPC, "ListTasks", {"status": "TASK_STATE_COMPLETED"})
        return rpc_reply, rest_reply, good
    rpc_reply, rest_reply, good = call(app, go)
    assert rpc_reply["error"]["code"] == -32602 and "Invalid status filter" in rpc_reply["error"]["message"]
    assert rest_reply.status_code == 400
    assert good["result"]["tasks"] == []


def test_list_tasks_filters_pages_and_reports_the_page_it_returns(app):
    async def go(http):
        for text in ("revenue 2024", "profit 2023", "revenue 2022", "weather in Paris"):
            await rpc(http, RPC, "SendMessage", {"message": text_message(text)})
        everything = await rpc(http, RPC, "ListTasks", {})
        done = await rpc(http, RPC, "ListTasks", {"status": "TASK_STATE_COMPLETED", "pageSize": 2})
        rest = await rpc(http, RPC, "ListTasks", {"status": "TASK_STATE_COMPLETED", "pageSize": 2,
                                                   "pageToken": done["result"]["nextPageToken"]})
        empty = await rpc(http, RPC, "ListTasks", {"contextId": "no-such-context"})
        return everything["result"], done["result"], rest["result"], empty["result"]
    everything, done, rest, empty = call(app, go)
    assert everything["totalSize"] == 4 and everything["pageSize"] == 4
    assert done["totalSize"] == 3 and done["pageSize"] == 2 and done["nextPageToken"]
    assert rest["pageSize"] == 1 and rest["nextPageToken"] == ""
    assert {t["id"] for t in done["tasks"]}.isdisjoint({t["id"] for t in rest["tasks"]})
    assert empty == {"tasks": [], "nextPageToken": "", "pageSize": 0, "totalSize": 0}


def test_subscribe_to_an_unknown_task_is_an_error_event_in_an_event_stream(app):
    async def go(http):
        return await http.post(RPC, json={"jsonrpc": "2.0", "id": 5, "method": "SubscribeToTask",
                                          "params": {"id": "no-such-task"}},
                               headers={**A2A_HEADERS, "Accept": "text/event-stream"})
    reply = call(app, go)
    assert reply.headers["content-type"].startswith("text/event-stream")
    assert "event: error" in reply.text
    event = sse_data(reply.text.strip())
    assert event == {"jsonrpc": "2.0", "id": 5, "error": event["error"]} and event["error"]["code"] == -32001


def test_the_task_store_forgets_finished_tasks_first(db):
    store = lim.BoundedTaskStore(lim.Limits(max_tasks=3, max_history=2))
    context = ServerCallContext()

    async def go():
        tasks = []
        for i, state in enumerate([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_INPUT_REQUIRED,
                                   TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_FAILED,
                                   TaskState.TASK_STATE_WORKING]):
            task = new_task_from_user_message(ag.user_message(f"message {i}"))
            task.status.state = state
            for j in range(4):
                task.history.append(ag.user_message(f"extra {j}"))
            await store.save(task, context)
            tasks.append(task.id)
        kept = [await store.get(t, context) for t in tasks]
        return tasks, kept
    tasks, kept = asyncio.run(go())
    assert len(store) == 3
    # over the bound, a finished task goes (the completed one, later the failed one); unfinished ones stay
    assert [k is not None for k in kept] == [False, True, True, False, True]
    assert all(len(k.history) == 2 for k in kept if k is not None)


def test_with_no_finished_task_the_store_forgets_the_oldest_waiting_for_input_and_never_a_working_one():
    store = lim.BoundedTaskStore(lim.Limits(max_tasks=2))
    context = ServerCallContext()
    states = [TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED,
              TaskState.TASK_STATE_WORKING]

    async def go():
        tasks = []
        for i, state in enumerate(states):
            task = new_task_from_user_message(ag.user_message(f"message {i}"))
            task.status.state = state
            await store.save(task, context)
            tasks.append(task.id)
        await store.save(await store.get(tasks[0], context), context)  # a save within the bound forgets nothing
        return [await store.get(t, context) is not None for t in tasks]
    assert asyncio.run(go()) == [True, False, False, True]
    assert len(store) == 2


def test_a_huge_log_line_is_cut(caplog):
    lim.truncate_logs()
    logger = logging.getLogger("a2a.server.routes.jsonrpc_dispatcher")
    with caplog.at_level(logging.ERROR, logger="a2a.server.routes.jsonrpc_dispatcher"):
        logger.error("Request body: %s", "y" * 1_000_000)
    [record] = [r for r in caplog.records if r.name == logger.name]
    assert len(record.getMessage()) < lim.DEFAULT_LIMITS.max_log_chars + 100
    assert "characters cut" in record.getMessage()


def test_task_fold_refuses_a_snapshot_of_another_task():
    fold = ag.TaskFold()
    first = new_task_from_user_message(ag.user_message("one"))
    other = new_task_from_user_message(ag.user_message("two"))
    fold.apply(StreamResponse(task=first))
    with pytest.raises(ag.TaskMismatch, match=other.id):
        fold.apply(StreamResponse(task=other))
    with pytest.raises(ag.TaskMismatch):
        fold.apply(StreamResponse(status_update=TaskStatusUpdateEvent(task_id=other.id, context_id=other.context_id)))
    assert fold.task.id == first.id and len(fold.events) == 1


def test_heavy_sql_cannot_starve_report_requests(db):
    """Eight statements that never end fill the SQL pool; a report request still answers at once."""
    executor = ag.FinanceAgentExecutor(db, step_delay=0, max_query_seconds=2, workers=2, max_waiting=2)
    server = ag.start_agent("test-limits-agent", ag.finance_agent_card, executor)
    never = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c"
    url = server.url + ag.JSONRPC_PATH

    async def go():
        async with httpx.AsyncClient(timeout=30) as http:
            heavy = [await rpc(http, url, "SendMessage", {"message": text_message(never, message_id=f"h{i}"),
                                                           "configuration": {"returnImmediately": True}})
                     for i in range(8)]
            start = time.monotonic()
            normal = await rpc(http, url, "SendMessage", {"message": text_message("revenue 2024")})
            elapsed = time.monotonic() - start
            for _ in range(200):  # the heavy ones end at their timeout: 2 s, then the 2 that waited, 2 s more
                states = [(await rpc(http, url, "GetTask", {"id": h["result"]["task"]["id"]}))["result"]["status"]
                          for h in heavy]
                if all(s["state"] == "TASK_STATE_FAILED" for s in states):
                    break
                await asyncio.sleep(0.1)
            return normal, elapsed, states
    try:
        normal, elapsed, states = asyncio.run(go())
    finally:
        server.stop()
    assert normal["result"]["task"]["status"]["state"] == "TASK_STATE_COMPLETED"
    assert elapsed < 1.5  # not behind the heavy ones (they run 2 s each)
    texts = [s["message"]["parts"][0]["text"] for s in states]
    assert {s["state"] for s in states} == {"TASK_STATE_FAILED"}
    assert sum("busy" in t for t in texts) == 4  # 2 running + 2 waiting accepted, the other 4 refused at once
    assert all("busy" in t or "stopped after 2 s" in t for t in texts)
