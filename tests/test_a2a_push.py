"""Push notifications (A2A 1.0 §3.1.7-3.1.10): the four config methods, the agent calling a webhook with the token,
the webhook refusing forged calls, the URL policy and the bound on configs."""
from __future__ import annotations

import asyncio

import httpx
import pytest

from course_lib import a2a_agents as ag
from course_lib import a2a_push as push
from course_lib.a2a_wire import rpc, text_message
from course_lib.examples import create_finance_db
from course_lib.servers import stop_server


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    db = create_finance_db(tmp_path_factory.mktemp("push") / "finance.db")
    server = ag.start_agent("test-push-agent", ag.finance_agent_card, ag.FinanceAgentExecutor(db, step_delay=0.3))
    yield server
    stop_server("test-push-agent")


@pytest.fixture
def receiver():
    rec = push.start_receiver("test-push-webhook", agent="Finance DB agent")
    yield rec
    stop_server("test-push-webhook")


def test_the_card_declares_push_and_the_app_provides_it(agent):
    card = httpx.get(agent.url + "/.well-known/agent-card.json").json()
    assert card["capabilities"]["pushNotifications"] is True


def test_config_methods_and_the_agent_calling_back_with_the_token(agent, receiver):
    orch = ag.Orchestrator(trace=receiver.trace)
    url = agent.url + ag.JSONRPC_PATH

    async def go():
        await orch.discover(agent.url)
        async with httpx.AsyncClient() as http:
            started = await rpc(http, url, "SendMessage", {"message": text_message("revenue 2024"),
                                                           "configuration": {"returnImmediately": True}})
        task_id = started["result"]["task"]["id"]
        config = await orch.set_push(agent.url, task_id, receiver.url, receiver.token)
        listed = await orch.push_configs(agent.url, task_id)
        got = await orch.get_push(agent.url, task_id, config.id)
        done = await asyncio.to_thread(receiver.wait_for, "TASK_STATE_COMPLETED", 15)
        await orch.delete_push(agent.url, task_id, config.id)
        after = await orch.push_configs(agent.url, task_id)
        return task_id, config, listed, got, done, after
    task_id, config, listed, got, done, after = asyncio.run(go())
    assert config.url == receiver.url and config.task_id == task_id and config.id
    assert [c.id for c in listed] == [config.id] and got.url == receiver.url
    assert got.token == receiver.token  # the client reads back what it registered
    assert done and receiver.states()[-1] == "TASK_STATE_COMPLETED"
    kinds = [next(iter(n.body)) for n in receiver.accepted]
    assert "artifactUpdate" in kinds and kinds[-1] == "statusUpdate"
    assert all(n.body.get(next(iter(n.body)))["taskId"] == task_id for n in receiver.accepted)
    assert after == []
    lanes = {(e.src, e.dst) for e in receiver.trace.events}
    assert ("Finance DB agent", "Webhook") in lanes and ("Orchestrator", "Finance DB agent") in lanes
    # the agent calls the webhook (a request, POST) and the webhook answers it (204), once per notification
    pushed = [(e.src, e.dst, e.kind, e.label.split()[0]) for e in receiver.trace.events if "Webhook" in (e.src, e.dst)]
    assert pushed == [("Finance DB agent", "Webhook", "request", "POST"),
                      ("Webhook", "Finance DB agent", "response", "204")] * len(receiver.accepted)


def test_a_forged_callback_is_refused_and_recorded(receiver):
    body = {"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_FAILED"}}}
    assert asyncio.run(push.forge_notification(receiver.url, body, token="a-guess")) == 401
    assert asyncio.run(push.forge_notification(receiver.url, body)) == 401
    assert receiver.accepted == [] and [n.status for n in receiver.received] == [401, 401]
    assert [n.token_sent for n in receiver.received] == [True, False]
    # who calls whom: each forged POST goes to the webhook, and the webhook's 401 goes back to its sender
    assert [(e.src, e.dst, e.kind) for e in receiver.trace.events] == [
        (push.UNKNOWN_CALLER, "Webhook", "request"), ("Webhook", push.UNKNOWN_CALLER, "error")] * 2
    assert [e.label for e in receiver.trace.events] == [
        "POST statusUpdate TASK_STATE_FAILED, wrong token", "401 refused: wrong token",
        "POST statusUpdate TASK_STATE_FAILED, no token", "401 refused: no token"]
    assert receiver.states() == []  # a forged "failed" changes nothing the client believes


def test_the_receiver_decides_without_a_socket():
    rec = push.WebhookReceiver(token="s3cret")
    good = {push.TOKEN_HEADER.lower(): "s3cret"}
    assert rec.check(good, b'{"statusUpdate": {}}') == (204, {"statusUpdate": {}})
    assert rec.check({}, b"{}")[0] == 401
    assert rec.check({push.TOKEN_HEADER.lower(): "s3cre"}, b"{}")[0] == 401
    assert rec.check(good, b"[1]")[0] == 400 and rec.check(good, b"not json")[0] == 400
    assert rec.check(good, b" " * (push.MAX_NOTIFICATION_BYTES + 1))[0] == 413


@pytest.mark.parametrize("url,ok", [
    ("http://127.0.0.1:9000/hook", True), ("http://localhost/hook", True), ("http://[::1]:80/x", True),
    ("https://example.com/webhook", True), ("http://169.254.169.254/latest/meta-data/", False),
    ("http://10.0.0.5/internal", False), ("http://192.168.1.1/", False), ("http://224.0.0.1/", False),
    ("http://0.0.0.0/", False), ("file:///etc/passwd", False), ("gopher://example.com", False),
    ("http:///nohost", False), ("http://example.com:99999/", False),
])
def test_the_push_url_policy_refuses_ssrf_targets(url, ok):
    assert asyncio.run(push.kit_push_url_validator(url)) is ok


def test_a_config_to_a_metadata_address_is_invalid_params_and_configs_are_bounded(agent):
    url = agent.url + ag.JSONRPC_PATH

    async def go():
        async with httpx.AsyncClient() as http:
            task = (await rpc(http, url, "SendMessage", {"message": text_message("revenue 2022")}))["result"]["task"]
            bad = await rpc(http, url, "CreateTaskPushNotificationConfig",
                            {"taskId": task["id"], "url": "http://169.254.169.254/latest"})
            made = [await rpc(http, url, "CreateTaskPushNotificationConfig",
                              {"taskId": task["id"], "url": f"http://127.0.0.1:1/h{i}", "id": f"c{i}"})
                    for i in range(push.MAX_CONFIGS_PER_TASK + 1)]
            replaced = await rpc(http, url, "CreateTaskPushNotificationConfig",
                                 {"taskId": task["id"], "url": "http://127.0.0.1:1/again", "id": "c0"})
            unknown = await rpc(http, url, "CreateTaskPushNotificationConfig",
                                {"taskId": "no-such-task", "url": "http://127.0.0.1:1/h"})
            return bad, made, replaced, unknown
    bad, made, replaced, unknown = asyncio.run(go())
    assert bad["error"]["code"] == -32602
    assert all("result" in m for m in made[:-1]) and made[-1]["error"]["code"] == -32602
    assert "at most 10" in made[-1]["error"]["message"]
    assert replaced["result"]["url"] == "http://127.0.0.1:1/again"  # the same id replaces, within the bound
    assert unknown["error"]["code"] == -32001
