"""A workshop on a real JupyterHub: three learners log in, run lessons 01 and 09, reach an MCP server through the hub.

The hub runs the configuration of the instructor guide (``tests/hub_support.HUB_CONFIG``, quoted in
docs/instructor.md) on loopback ports: JupyterHub from PyPI, configurable-http-proxy from npm
(``tests/interop``), the DummyAuthenticator with a shared workshop password, and SimpleLocalProcessSpawner
with one home folder per learner. Each learner logs in through the login form, starts their server,
and runs every code cell of lessons 01 and 09 in a kernel of their own server, over the kernel's websocket
through the hub's proxy, as JupyterLab does. Then, in each learner's kernel, an MCP server over
streamable HTTP is built with ``course_lib.hub.mcp_transport_security()``; the test (standing in for a
client in the learner's browser) calls ``tools/list`` with the official MCP client through
``course_lib.hub.proxy_url(port)``, with the hub's public Host and Origin, and sees a server built without
those settings refuse it (421). Finally each learner's hints and progress are shown to live in their own
folder, unseen by the others.

Skipped, with the reason, where Node.js or configurable-http-proxy is missing (``.ci/run`` runs ``npm ci``).
"""
from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from hub_support import Learner, code_cells, require_hub, workshop_hub
from course_lib.notebooks import ROOT

LEARNERS = ["ada", "grace", "alan"]

MCP_CELL = """\
import json, os
from course_lib.hub import mcp_transport_security, on_hub, proxy_url
from course_lib.mcp_servers import project_manager_server
from course_lib.mcp_transports import start_http

hubbed = start_http(project_manager_server(), "pm-through-the-hub", transport_security=mcp_transport_security())
plain = start_http(project_manager_server(), "pm-loopback-only")
print(json.dumps({"on_hub": on_hub(), "hubbed": proxy_url(hubbed.port), "plain": proxy_url(plain.port),
                  "public_url": os.environ.get("JUPYTERHUB_PUBLIC_URL")}))
"""

PROGRESS_CELL = """\
import json
from course_lib import progress, storage
from course_lib.checks.tool_call_loop import HINTS

for _ in range({hints}):
    HINTS.next()
progress.record("01_tool_call_loop", {passed}, [])
print(json.dumps({{"data_dir": str(storage.data_dir()), "hints": HINTS.seen,
                  "status": progress.load()["01_tool_call_loop"]["status"]}}))
"""

STOP_CELL = "from course_lib.servers import stop_all\nstop_all()"


def _last_json(results: list[dict]) -> dict:
    return json.loads(results[-1]["stdout"].strip().splitlines()[-1])


async def _tools_through_proxy(url: str, token: str, host: str) -> list[str]:
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"token {token}", "Host": host, "Origin": f"http://{host}"}
    async with httpx.AsyncClient(headers=headers, timeout=60) as http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            return [t.name for t in (await client.list_tools()).tools]


def _status_through_proxy(url: str, token: str, host: str) -> int:
    """The status a plain JSON-RPC initialize gets through the proxy (a loopback-only server: 421)."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    r = httpx.post(url, json=body, timeout=60, headers={"Authorization": f"token {token}", "Host": host,
                                                         "Origin": f"http://{host}",
                                                         "Accept": "application/json, text/event-stream"})
    return r.status_code


def test_three_learners_work_through_lessons_01_and_09_on_a_real_hub(tmp_path):
    require_hub()
    with workshop_hub(tmp_path, LEARNERS) as hub:
        learners = [Learner(hub, name) for name in LEARNERS]
        try:
            for learner in learners:
                learner.log_in()
            for learner in learners:
                learner.start_server()
            for i, learner in enumerate(learners):
                for lesson in ("01_function_calling", "09_mcp_transports"):
                    cells = code_cells(ROOT / "notebooks" / f"{lesson}.ipynb")
                    kernel = learner.open_notebook(f"notebooks/{lesson}.ipynb")
                    results = learner.run(kernel, cells + [STOP_CELL])
                    failed = [(r["source"][:80], r["error"]) for r in results if r["status"] != "ok"]
                    assert failed == [] and len(results) == len(cells) + 1, (learner.name, lesson, failed)

                # MCP over HTTP, as a client in the learner's browser reaches it: through proxy_url(port)
                kernel = learner.open_notebook("notebooks/09_mcp_transports.ipynb")
                where = _last_json(learner.run(kernel, [MCP_CELL]))
                assert where["on_hub"] and where["hubbed"].startswith(f"/user/{learner.name}/proxy/")
                assert where["public_url"] == f"http://{hub.public_host}/user/{learner.name}/"
                tools = asyncio.run(_tools_through_proxy(hub.url + where["hubbed"], learner.token, hub.public_host))
                assert {"create_task", "list_tasks"} <= set(tools), tools
                assert _status_through_proxy(hub.url + where["plain"], learner.token, hub.public_host) == 421
                learner.run(kernel, [STOP_CELL])

                # progress and hints: learner i reveals i + 1 hints; only ada passes exercise 01
                cell = PROGRESS_CELL.format(hints=i + 1, passed=learner.name == "ada")
                state = _last_json(learner.run(learner.open_notebook("notebooks/00_welcome.ipynb"), [cell]))
                assert state["data_dir"].startswith(str(hub.homes / learner.name)), state
                assert state["hints"] == i + 1
                assert state["status"] == ("passed" if learner.name == "ada" else "attempted")

            # each learner sees their own progress only, read again after everyone has worked
            for i, learner in enumerate(learners):
                again = _last_json(learner.run(learner.open_notebook("notebooks/00_welcome.ipynb"),
                                               [PROGRESS_CELL.format(hints=0, passed=learner.name == "ada")]))
                assert again["hints"] == i + 1, (learner.name, again)

            # one learner's token opens nothing of another's server
            ada, grace = learners[0], learners[1]
            r = ada.client.get(f"/user/{grace.name}/api/status", headers=ada.auth)
            assert r.status_code in (403, 404) or r.is_redirect, r.status_code
        finally:
            for learner in learners:
                learner.close()


def test_the_instructor_guide_gives_the_configuration_this_test_runs():
    """docs/instructor.md gives HUB_CONFIG filled in for a room: the same settings CI ran, other values."""
    from hub_support import HUB_CONFIG, ROOM

    guide = (ROOT / "docs" / "instructor.md").read_text(encoding="utf-8")
    assert "```python\n" + HUB_CONFIG.format(**ROOM) + "```" in guide
