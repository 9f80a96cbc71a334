"""What the JupyterHub workshop test needs: a hub on loopback ports, learners who log in, kernels driven over the hub.

``workshop_hub(tmp_path, learners)`` writes the instructor guide's hub configuration (``HUB_CONFIG``, with the
test's ports and folders filled in), starts ``jupyterhub`` with ``configurable-http-proxy`` from
``tests/interop/node_modules``, and stops it (single-user servers and proxy included) afterwards.
``Learner`` logs in through the hub's login form, gets an API token, starts its server and runs code in a
kernel of its own server through the hub's proxy, over the kernel's websocket, the way JupyterLab does.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import httpx
import pytest

from course_lib.notebooks import ROOT
from course_lib.servers import free_port

CHP = ROOT / "tests" / "interop" / "node_modules" / ".bin" / "configurable-http-proxy"
PASSWORD = "workshop"  # the DummyAuthenticator's shared password (a workshop on a closed network only)
STEP_TIMEOUT = 180.0  # seconds: a server start or a cell on a loaded 2-core machine

#: The configuration the instructor guide gives (docs/instructor.md, "A workshop on JupyterHub"): the test
#: fills in the {placeholders} with loopback ports and temporary folders and runs it; the guide shows it
#: filled in with :data:`ROOM` (``tests/test_hub_workshop.py`` checks that it does).
HUB_CONFIG = '''\
c = get_config()  # noqa: F821 (JupyterHub's config loader defines it)
# The address learners reach (the test: loopback), the hub's internal API and the proxy's API.
c.JupyterHub.ip = "{ip}"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.JupyterHub.public_url = "{public_url}"  # single-user servers get it as JUPYTERHUB_PUBLIC_URL
c.ConfigurableHTTPProxy.command = ["{chp}"]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api_port}"
c.JupyterHub.db_url = "sqlite:///{state}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{state}/jupyterhub_cookie_secret"
c.JupyterHub.pid_file = "{state}/jupyterhub.pid"
c.ConfigurableHTTPProxy.pid_file = "{state}/proxy.pid"
# Learners log in with their name and the workshop password; each gets a home folder of their own.
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = "{password}"
c.Authenticator.allowed_users = set({learners!r})
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = "{homes}/{{username}}"
c.Spawner.cmd = ["{singleuser}"]
c.Spawner.default_url = "/lab/tree/notebooks/00_welcome.ipynb"
c.Spawner.environment = {{"COURSE_LLM": "mock"}}  # offline, whatever keys the machine has
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 180
import os  # noqa: E402
if os.getuid() == 0:  # a hub in a container runs as root: the single-user servers must be told it is fine
    c.Spawner.args = ["--allow-root"]
'''

#: The values the instructor guide shows: a machine in the room, the course installed in /opt/agent-tool-systems.
ROOM = {"ip": "0.0.0.0", "port": 8000, "hub_port": 8081, "proxy_api_port": 8001,
        "public_url": "https://hub.example.org/",
        "chp": "/opt/agent-tool-systems/tests/interop/node_modules/.bin/configurable-http-proxy",
        "state": "/srv/jupyterhub", "password": "change-me", "learners": ["ada", "alan", "grace"],
        "homes": "/srv/workshop/homes", "singleuser": "/opt/agent-tool-systems/.venv/bin/jupyterhub-singleuser"}


def require_hub() -> None:
    """Skip the calling module, with the reason and the fix, when Node.js or the proxy or JupyterHub is missing."""
    pytest.importorskip("jupyterhub", reason="JupyterHub is not installed: `make setup` installs it (the test extra)")
    pytest.importorskip("jupyter_server_proxy", reason="jupyter-server-proxy is not installed: `make setup`")
    if shutil.which("node") is None:
        pytest.skip("Node.js is not installed: the hub's proxy (configurable-http-proxy) runs on it",
                    allow_module_level=True)
    if not CHP.exists():
        pytest.skip("configurable-http-proxy is not installed: run `npm ci --prefix tests/interop` (.ci/run does)",
                    allow_module_level=True)


@dataclass
class Hub:
    """A running hub: its public URL (what learners open), their homes, its log."""

    url: str
    homes: Path
    log: Path
    config: Path
    public_host: str


@contextlib.contextmanager
def workshop_hub(tmp_path: Path, learners: list[str]) -> Iterator[Hub]:
    """Start JupyterHub with :data:`HUB_CONFIG` on free loopback ports; stop everything it started on exit."""
    import psutil

    state, homes = tmp_path / "hub", tmp_path / "homes"
    state.mkdir()
    homes.mkdir()
    port, hub_port, api_port = free_port(), free_port(), free_port()
    # A public name that is not loopback, as on a real hub: the MCP server must accept it (course_lib.hub).
    public_host = f"hub.workshop.test:{port}"
    config = state / "jupyterhub_config.py"
    config.write_text(HUB_CONFIG.format(
        ip="127.0.0.1", port=port, hub_port=hub_port, proxy_api_port=api_port, public_url=f"http://{public_host}/", chp=CHP,
        state=state, password=PASSWORD, learners=sorted(learners), homes=homes,
        singleuser=Path(sys.executable).parent / "jupyterhub-singleuser"), encoding="utf-8")
    for name in learners:  # the course, as an instructor copies it into each account
        for sub in ("notebooks", "exercises"):
            (homes / name / sub).mkdir(parents=True)
        for lesson in ("00_welcome", "01_function_calling", "09_mcp_transports"):
            shutil.copy(ROOT / "notebooks" / f"{lesson}.ipynb", homes / name / "notebooks")
    log = state / "jupyterhub.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "COURSE_"))}
    with log.open("w") as out:
        proc = subprocess.Popen([Path(sys.executable).parent / "jupyterhub", "-f", str(config)], cwd=state, env=env,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    hub = Hub(url, homes, log, config, public_host)
    try:
        deadline = time.monotonic() + STEP_TIMEOUT
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/hub/api/", timeout=2).status_code == 200:
                    break
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("JupyterHub did not start:\n" + log.read_text(errors="replace")[-4000:])
            time.sleep(0.5)
        yield hub
    finally:
        children = psutil.Process(proc.pid).children(recursive=True) if proc.poll() is None else []
        proc.send_signal(signal.SIGTERM)  # the hub stops the single-user servers and the proxy it started
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
        _, alive = psutil.wait_procs(children, timeout=30)
        for p in alive:
            p.kill()
    assert not alive, f"left running after the hub stopped: {alive}"


@dataclass
class Learner:
    """One workshop account: logs in through the form, then works through the hub with an API token."""

    hub: Hub
    name: str
    token: str = ""
    client: httpx.Client = field(init=False)

    def __post_init__(self) -> None:
        self.client = httpx.Client(base_url=self.hub.url, timeout=60, follow_redirects=False)

    def log_in(self) -> None:
        """The login form, as a browser sends it (its _xsrf cookie and field), then a token for the API."""
        self.client.get("/hub/login")
        xsrf = self.client.cookies.get("_xsrf", "")
        r = self.client.post("/hub/login", data={"username": self.name, "password": PASSWORD, "_xsrf": xsrf})
        assert r.status_code == 302, f"login of {self.name} refused: {r.status_code} {r.text[:300]}"
        self.client.get("/hub/home")  # logged in, the hub sets the _xsrf its API checks from now on
        xsrf = [c.value for c in self.client.cookies.jar if c.name == "_xsrf"][-1]
        r = self.client.post(f"/hub/api/users/{self.name}/tokens", json={"note": "workshop test", "expires_in": 3600},
                             headers={"X-XSRFToken": xsrf})
        assert r.status_code in (200, 201), r.text[:300]
        self.token = r.json()["token"]

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"token {self.token}"}

    def start_server(self) -> None:
        """Ask the hub for this learner's server and wait until it is ready."""
        r = self.client.post(f"/hub/api/users/{self.name}/server", headers=self.auth)
        assert r.status_code in (201, 202, 400), r.text[:300]  # 400: already running
        deadline = time.monotonic() + STEP_TIMEOUT
        while time.monotonic() < deadline:
            server = self.client.get(f"/hub/api/users/{self.name}", headers=self.auth).json()["servers"].get("", {})
            if server.get("ready"):
                return
            time.sleep(1)
        pytest.fail(f"{self.name}'s server did not start:\n" + self.hub.log.read_text(errors="replace")[-4000:])

    def open_notebook(self, path: str) -> str:
        """A session (kernel) for ``path`` in this learner's server, as JupyterLab opens one; returns the kernel id."""
        r = self.client.post(f"/user/{self.name}/api/sessions", headers=self.auth,
                             json={"path": path, "type": "notebook", "name": Path(path).name,
                                   "kernel": {"name": "python3"}})
        assert r.status_code == 201, r.text[:300]
        return r.json()["kernel"]["id"]

    def run(self, kernel: str, sources: list[str]) -> list[dict]:
        """Execute ``sources`` one after another in ``kernel`` over its websocket, through the hub's proxy.

        Returns one ``{"source", "status", "stdout", "error"}`` per cell (``error``: ``"Ename: value"`` or None).
        """
        ws = (self.hub.url.replace("http://", "ws://") + f"/user/{self.name}/api/kernels/{kernel}/channels")
        return asyncio.run(_run_cells(ws, self.token, sources))

    def close(self) -> None:
        self.client.close()


async def _run_cells(url: str, token: str, sources: list[str]) -> list[dict]:
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    conn = await websocket_connect(HTTPRequest(url, headers={"Authorization": f"token {token}"},
                                               request_timeout=STEP_TIMEOUT, connect_timeout=STEP_TIMEOUT))
    session = uuid.uuid4().hex
    results = []
    try:
        for source in sources:
            msg_id = uuid.uuid4().hex
            conn.write_message(json.dumps({
                "header": {"msg_id": msg_id, "msg_type": "execute_request", "session": session, "username": "",
                           "version": "5.3", "date": ""},
                "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                "content": {"code": source, "silent": False, "store_history": True, "user_expressions": {},
                            "allow_stdin": False, "stop_on_error": True}}))
            result = {"source": source, "status": None, "stdout": "", "error": None}
            idle = False
            while result["status"] is None or not idle:
                raw = await asyncio.wait_for(conn.read_message(), timeout=STEP_TIMEOUT * 2)
                if raw is None:
                    raise ConnectionError("the kernel's websocket closed")
                msg = json.loads(raw)
                if msg.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                kind, content = msg["header"]["msg_type"], msg["content"]
                if kind == "stream" and content.get("name") == "stdout":
                    result["stdout"] += content["text"]
                elif kind == "error":
                    result["error"] = f"{content['ename']}: {content['evalue']}"
                elif kind == "execute_reply":
                    result["status"] = content["status"]
                elif kind == "status" and content.get("execution_state") == "idle":
                    idle = True
            results.append(result)
            if result["status"] != "ok":
                break
    finally:
        conn.close()
    return results


def code_cells(path: Path) -> list[str]:
    """The code cells of a notebook, in order."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in nb["cells"] if c["cell_type"] == "code"]
