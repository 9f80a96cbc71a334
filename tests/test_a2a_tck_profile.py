"""`course a2a serve --profile tck`: the echo agent's lifecycle, its card, the command line, and reading TCK reports
(fast: no TCK run; tests/test_a2a_tck.py runs the real one)."""
from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time

import httpx
import pytest

from course_lib import a2a_tck as tck
from course_lib.a2a_wire import rpc, text_message
from course_lib.commands.a2a import build
from course_lib.servers import free_port, start_server, stop_server


@pytest.fixture(scope="module")
def echo():
    port = free_port()
    app = tck.build_tck_app(f"http://localhost:{port}", work_seconds=0.6)
    start_server("test-echo-agent", app, port=port)
    yield f"http://127.0.0.1:{port}"
    stop_server("test-echo-agent")


def test_any_text_goes_submitted_working_completed(echo):
    async def go():
        async with httpx.AsyncClient() as http:
            sent = await rpc(http, echo + "/", "SendMessage", {"message": text_message("Hello from TCK!")})
            first = sent["result"]["task"]["status"]["state"]
            await asyncio.sleep(1.2)
            later = await rpc(http, echo + "/", "GetTask", {"id": sent["result"]["task"]["id"]})
            return first, later["result"]
    first, later = asyncio.run(go())
    assert first == "TASK_STATE_WORKING"  # a blocking SendMessage returns once the task is acknowledged
    assert later["status"]["state"] == "TASK_STATE_COMPLETED"
    assert later["artifacts"][0]["parts"][0]["text"] == "Hello from TCK!"


def test_cancel_while_working_and_the_background_job_stops(echo):
    async def go():
        async with httpx.AsyncClient() as http:
            sent = await rpc(http, echo + "/", "SendMessage", {"message": text_message("Task for cancel test")})
            task_id = sent["result"]["task"]["id"]
            canceled = await rpc(http, echo + "/", "CancelTask", {"id": task_id})
            await asyncio.sleep(1.0)  # past work_seconds: the job must not complete a canceled task
            return canceled["result"], (await rpc(http, echo + "/", "GetTask", {"id": task_id}))["result"]
    canceled, later = asyncio.run(go())
    assert canceled["status"]["state"] == later["status"]["state"] == "TASK_STATE_CANCELED"
    assert "artifacts" not in later


def test_the_rest_binding_is_at_the_root(echo):
    reply = httpx.post(echo + "/message:send", json={"message": text_message("rest hello")},
                       headers={"A2A-Version": "1.0"})
    assert reply.status_code == 200 and reply.json()["task"]["status"]["state"] == "TASK_STATE_WORKING"


def test_the_card_avoids_what_the_tck_flags():
    card = _card_json("tck")
    for pattern in (r"127\.0\.0\.1", r"(?i)(api[_-]?key|secret|token|password|credential)",
                    r"(?i)(internal|private|admin|debug|test).*(?:url|endpoint|host)"):
        assert not re.search(pattern, card.lower()), pattern


def _card_json(profile: str) -> str:
    from starlette.testclient import TestClient

    app, _ = build(profile, "http://localhost:9999")

    with TestClient(app) as client:
        return client.get("/.well-known/agent-card.json").text


def test_both_profiles_serve_the_root_layout():
    for profile in ("tck", "finance"):
        card = json.loads(_card_json(profile))
        urls = {i["protocolBinding"]: i["url"] for i in card["supportedInterfaces"]}
        assert urls == {"JSONRPC": "http://localhost:9999/", "HTTP+JSON": "http://localhost:9999"}, profile
        assert card["capabilities"]["pushNotifications"] is True


def test_course_a2a_serve_prints_where_and_how_to_run_the_tck():
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "course_lib.cli", "a2a", "serve", "--profile", "tck",
                                "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                card = httpx.get(f"http://127.0.0.1:{port}/.well-known/agent-card.json", timeout=1).json()
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        assert card["name"] == "Echo agent"
    finally:
        process.terminate()
        out, _ = process.communicate(timeout=20)
    assert f"http://127.0.0.1:{port}/.well-known/agent-card.json" in out
    assert "A2A_AUTH_HEADER=A2A-Version" in out and "--transports jsonrpc,rest" in out


def test_reading_reports_and_what_is_unexplained(tmp_path):
    def report(name, tests):
        (tmp_path / f"{name}_results.json").write_text(json.dumps({"tests": [
            {"nodeid": node, "outcome": outcome} for node, outcome in tests.items()]}))
    report("mandatory_jsonrpc", {"tests/a.py::test_ok": "passed", "tests/a.py::T::test_list_all_tasks[x]": "failed"})
    report("mandatory_rest", {"tests/a.py::test_ok": "passed", "tests/a.py::test_new_bug": "failed"})
    report("transport-equivalence", {"tests/b.py::test_consistent_behavior_tasks_cancel": "failed"})
    run = tck.TckRun(1, tck.read_results(tmp_path))
    assert set(run.results) == {"mandatory_jsonrpc", "mandatory_rest", "transport-equivalence"}
    assert run.outcomes("mandatory") == {"passed": 2, "failed": 2}
    assert run.outcomes("mandatory_rest") == {"passed": 1, "failed": 1}
    assert tck.tck_test_name("tests/a.py::T::test_list_all_tasks[x]") == "test_list_all_tasks"
    assert set(tck.unexplained(run, expected=tck.NEEDS_ANY_TEXT)) == {"mandatory_rest tests/a.py::test_new_bug"}
    assert len(tck.unexplained(run)) == 2  # without the finance agent's excuse, the list test counts too
    assert "| tck | mandatory_rest | 1 | 1 | 0 | 0 |" in tck.pass_table({"tck": run})
