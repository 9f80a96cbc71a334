"""A peer implementation talks to the kit's agent: the A2A JavaScript SDK's client (npm ``@a2a-js/sdk``,
run with Node.js) drives the Python ``a2a-sdk`` finance agent over JSON-RPC and HTTP+JSON.

The npm package is installed by ``.ci/run`` (``npm ci --prefix tests/interop``) into the git-ignored
``tests/interop/node_modules``; this test never downloads anything and skips, saying why, when Node.js or
the package is missing.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from course_lib import a2a_agents as ag
from course_lib.examples import create_finance_db
from course_lib.servers import stop_server

INTEROP = Path(__file__).with_name("interop")
SCRIPT = INTEROP / "a2a_js_client.mjs"
NODE = shutil.which("node")
PACKAGE = INTEROP / "node_modules" / "@a2a-js" / "sdk" / "package.json"

pytestmark = [
    pytest.mark.skipif(NODE is None, reason="Node.js is not installed: the JavaScript A2A client cannot run"),
    pytest.mark.skipif(not PACKAGE.exists(), reason="@a2a-js/sdk is not installed: run `npm ci --prefix tests/interop` "
                                                    "(.ci/run does it before `make test`)"),
]


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    db = create_finance_db(tmp_path_factory.mktemp("interop") / "finance.db")
    server = ag.start_agent("test-interop-agent", ag.finance_agent_card,
                            ag.FinanceAgentExecutor(db, step_delay=0, max_query_seconds=30))
    yield server
    stop_server("test-interop-agent")


def run_js_client(url: str, binding: str) -> dict:
    done = subprocess.run([NODE, str(SCRIPT), url, binding], cwd=INTEROP, capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.fixture(scope="module", params=["JSONRPC", "HTTP+JSON"])
def report(request, agent):
    return run_js_client(agent.url, request.param)


def test_the_js_client_speaks_a2a_1_0_over_the_binding_it_chose(report):
    assert report["protocolVersion"] == "1.0"
    expected = {"JSONRPC": "JsonRpcTransport", "HTTP+JSON": "RestTransport"}[report["binding"]]
    assert report["transport"].lstrip("_") == expected


def test_card_fetch(report):
    card = report["card"]
    assert card["name"] == "Finance DB agent" and card["streaming"] is True
    assert [s["id"] for s in card["skills"]] == ["finance_report", "sql_query"]
    assert "查公司2024年营收数据" in card["skills"][0]["examples"]
    assert {(i["binding"], i["version"]) for i in card["interfaces"]} == {("JSONRPC", "1.0"), ("HTTP+JSON", "1.0")}


def test_send(report):
    send = report["send"]
    assert (send["kind"], send["state"]) == ("task", "TASK_STATE_COMPLETED")
    [artifact] = send["artifacts"]
    assert artifact["name"] == "finance-result"
    assert artifact["text"] == "2024 revenue: 1279.9 million USD (Q1 301.2, Q2 315.7, Q3 322.4, Q4 340.6)."
    [data] = artifact["data"]
    assert data["totals"] == {"2024": {"revenue": 1279.9}}
    assert [r["quarter"] for r in data["rows"]] == [1, 2, 3, 4]


def test_stream_with_an_input_required_turn(report):
    events = report["stream"]["events"]
    assert [(e["kind"], e["state"]) for e in events] == [
        ("task", "TASK_STATE_SUBMITTED"),
        ("statusUpdate", "TASK_STATE_INPUT_REQUIRED"),
        ("statusUpdate", "TASK_STATE_WORKING"),
        ("artifactUpdate", None),
        ("statusUpdate", "TASK_STATE_COMPLETED"),
    ]
    assert events[1]["text"] == "Which year? The finance database has 2022–2024."
    assert events[3]["text"] == "2023 revenue: 1078.7 million USD (Q1 252.1, Q2 266.4, Q3 270.9, Q4 289.3)."


def test_get(report):
    assert report["get"] == {"state": "TASK_STATE_COMPLETED", "artifacts": 1, "history": 4}
    assert report["getUnknown"]["reason"] == "TASK_NOT_FOUND"


def test_cancel(report):
    assert report["cancel"] == {"before": "TASK_STATE_WORKING", "result": "TASK_STATE_CANCELED",
                                "get": "TASK_STATE_CANCELED", "again": "TASK_STATE_CANCELED", "sameSnapshot": True}
    assert report["cancelCompleted"]["reason"] == "TASK_NOT_CANCELABLE"
    assert report["cancelUnknown"]["reason"] == "TASK_NOT_FOUND"
    if report["binding"] == "JSONRPC":
        assert (report["cancelCompleted"]["code"], report["cancelUnknown"]["code"]) == (-32002, -32001)
    else:
        assert (report["cancelCompleted"]["status"], report["cancelUnknown"]["status"]) == (400, 404)
