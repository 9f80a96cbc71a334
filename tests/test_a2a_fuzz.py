"""Fuzz: a few hundred generated bad messages to the finance agent, each answered by a well-formed error.

A seeded generator (no extra dependency; the same messages every run) mutates valid A2A 1.0 requests
kind by kind: broken JSON, wrong JSON-RPC envelopes, ids of every type, unknown methods, params of the
wrong shape, messages with wrong roles, parts and ids, bad paging and history values, deep nesting, huge
strings, invalid UTF-8. Each reply must be a JSON-RPC error object with a spec code (never an internal
error or a traceback), or no body for a notification; REST replies must be 4xx with an ``error`` body.
Afterwards the agent still answers a normal request.
"""
from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest

from course_lib import a2a_agents as ag
from course_lib.a2a_wire import A2A_HEADERS, rpc, text_message
from course_lib.examples import create_finance_db

BASE = "http://finance.local"
RPC = BASE + ag.JSONRPC_PATH
REST = BASE + ag.REST_PATH
METHODS = ["SendMessage", "SendStreamingMessage", "GetTask", "ListTasks", "CancelTask", "SubscribeToTask",
           "CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig",
           "ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig", "GetExtendedAgentCard"]
#: JSON-RPC 2.0's codes and A2A 1.0's (§5.4): what a bad request may get, never -32603 Internal error.
ALLOWED_CODES = {-32700, -32600, -32601, -32602, -32001, -32002, -32003, -32004, -32005, -32006, -32007,
                 -32008, -32009}
WEIRD = [None, True, 0, -1, 1.5, 2 ** 63, "", "x" * 10_000, "\u0000", "🙂", [], {}, [1, [2]], {"a": {"b": None}}]


def _valid_message(rng: random.Random) -> dict:
    return text_message(rng.choice(["revenue 2024", "SELECT 1", "hello", "查公司2024年营收数据"]),
                        message_id=f"m-{rng.randrange(10 ** 6)}")


def _bad_message(rng: random.Random) -> dict:
    message = _valid_message(rng)
    field, value = rng.choice([
        ("role", rng.choice(["ROLE_AGENT", "agent", "user", "ROLE_NOPE", 7, None, True])),
        ("parts", rng.choice([None, "text", 5, [], [{}], [{"text": 5}], [{"kind": "text", "text": "x"}],
                              [{"file": {"uri": 5}}], [{"data": "not a struct"}], [{"raw": "%%%"}]])),
        ("messageId", rng.choice(WEIRD)),
        ("taskId", rng.choice(["no-such-task", 5, [], "x" * 5000])),
        ("contextId", rng.choice([5, {}, "\ud800"])),
        ("metadata", rng.choice(["str", 5, [1], {"k": [[[[[]]]]]}])),
        ("extensions", rng.choice(["x", [5], [None]])),
        ("referenceTaskIds", rng.choice(["x", [5], [{}]])),
    ])
    if value is None and rng.random() < 0.5:
        message.pop(field, None)
    else:
        message[field] = value
    return message


def _bad_params(rng: random.Random, method: str) -> object:
    kind = rng.randrange(8)
    if kind == 0:
        return rng.choice(WEIRD)
    if method.startswith("Send"):
        if kind < 5:
            return {"message": _bad_message(rng)}
        return {"message": _valid_message(rng),
                "configuration": rng.choice([{"historyLength": -5}, {"historyLength": "x"},
                                             {"acceptedOutputModes": "text"}, {"returnImmediately": "yes"},
                                             {"taskPushNotificationConfig": {"url": 5}}, "conf"])}
    if method == "ListTasks":
        return rng.choice([{"pageSize": -1}, {"pageSize": 10 ** 9}, {"pageSize": "ten"},
                           {"pageToken": "garbage!!"}, {"status": "NOPE"}, {"historyLength": -3},
                           {"statusTimestampAfter": "yesterday"}, {"contextId": 5}])
    if "PushNotification" in method:
        return rng.choice([{"taskId": "nope"}, {"taskId": 5}, {"taskId": "nope", "id": []},
                           {"taskId": "nope", "url": "not a url", "token": 5},
                           {"taskId": "nope", "url": "http://127.0.0.1:1/hook"}])
    return rng.choice([{"id": rng.choice(WEIRD)}, {"id": "no-such-task", "historyLength": -1}, {"name": "x"}])


def generate(count: int = 300, seed: int = 14) -> list[bytes]:
    """``count`` bad JSON-RPC bodies (bytes), the same every run for a given ``seed``."""
    rng = random.Random(seed)
    bodies: list[bytes] = []
    while len(bodies) < count:
        kind = rng.randrange(10)
        method = rng.choice(METHODS)
        request = {"jsonrpc": "2.0", "id": rng.randrange(1000), "method": method,
                   "params": _bad_params(rng, method)}
        if kind == 0:  # not JSON, or not UTF-8
            bodies.append(rng.choice([b"", b"{", b"{\"jsonrpc\": ", b"\xff\xfe\x00", b"nul", b"[1,",
                                      json.dumps(request).encode()[: rng.randrange(1, 40)]]))
            continue
        if kind == 1:  # JSON, but not a request object
            bodies.append(json.dumps(rng.choice([None, 1, "SendMessage", [], [request], [request, request],
                                                 [1, 2]])).encode())
            continue
        if kind == 2:  # a broken envelope
            field = rng.choice(["jsonrpc", "method", "id"])
            request[field] = rng.choice(WEIRD + ["1.0", "2", "message/send", "tasks/get", "sendMessage"])
        if kind == 3:
            request.pop(rng.choice(["jsonrpc", "method", "params"]))
        if kind == 4:  # deep nesting inside params
            depth = rng.choice([40, 500, 5000])
            text = json.dumps(request).replace('"params": ', '"params": ' + '{"a": ' * depth, 1)
            bodies.append((text[:-1] + "}" * depth + "}").encode())
            continue
        if kind == 5:  # a lone surrogate escape, valid JSON text but not valid Unicode
            bodies.append(json.dumps(request).replace('"2.0"', '"2.0", "x": "\\ud800"', 1).encode())
            continue
        bodies.append(json.dumps(request).encode())
    return bodies


@pytest.fixture
def app(tmp_path):
    db = create_finance_db(tmp_path / "finance.db")
    return ag.build_agent_app(ag.finance_agent_card(BASE), ag.FinanceAgentExecutor(db, step_delay=0))


def _well_formed(response: httpx.Response) -> str | None:
    """None when ``response`` is a well-formed JSON-RPC answer to a bad request, else what is wrong."""
    if response.status_code == 204:
        return None if not response.content else "a 204 with a body"
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        events = [json.loads(line[5:]) for line in response.text.splitlines() if line.startswith("data:")]
        bodies = events
    else:
        try:
            bodies = [response.json()]
        except ValueError:
            return f"not JSON: {response.text[:120]!r}"
    for body in bodies:
        if not isinstance(body, dict) or body.get("jsonrpc") != "2.0" or "id" not in body:
            return f"not a JSON-RPC response: {str(body)[:160]}"
        if "error" in body:
            error = body["error"]
            if not isinstance(error.get("code"), int) or not isinstance(error.get("message"), str):
                return f"a malformed error object: {error}"
            if error["code"] not in ALLOWED_CODES:
                return f"error code {error['code']}: {error['message'][:160]}"
            if "Traceback" in json.dumps(error):
                return "a traceback in the error"
        elif "result" not in body:
            return f"neither result nor error: {str(body)[:160]}"
    return None


def test_generator_is_seeded_and_varied():
    bodies = generate()
    assert bodies == generate() and len(bodies) == 300
    assert len(set(bodies)) > 250


def test_every_bad_message_gets_a_well_formed_error_and_the_agent_still_answers(app):
    bodies = generate()

    async def go():
        problems = []
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), timeout=30) as http:
            for body in bodies:
                response = await http.post(RPC, content=body, headers={**A2A_HEADERS,
                                                                        "Accept": "application/json, text/event-stream"})
                problem = _well_formed(response)
                if problem:
                    problems.append((body[:160], problem))
            after = await rpc(http, RPC, "SendMessage", {"message": text_message("revenue 2024")})
        await app.state.a2a_handler.aclose()
        return problems, after
    problems, after = asyncio.run(go())
    assert problems == []
    assert after["result"]["task"]["status"]["state"] == "TASK_STATE_COMPLETED"


def test_bad_rest_bodies_get_4xx_error_bodies(app):
    bodies = generate(120, seed=15)

    async def go():
        problems = []
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), timeout=30) as http:
            for body in bodies:
                for path in ("/message:send", "/tasks/no-such-task:cancel"):
                    response = await http.post(REST + path, content=body, headers=A2A_HEADERS)
                    try:
                        ok = 400 <= response.status_code < 500 and "error" in response.json()
                    except ValueError:
                        ok = False
                    if not ok and response.status_code != 200:
                        problems.append((path, body[:120], response.status_code, response.text[:160]))
            after = await http.post(REST + "/message:send", json={"message": text_message("revenue 2024")},
                                    headers=A2A_HEADERS)
        await app.state.a2a_handler.aclose()
        return problems, after
    problems, after = asyncio.run(go())
    assert problems == []
    assert after.json()["task"]["status"]["state"] == "TASK_STATE_COMPLETED"
