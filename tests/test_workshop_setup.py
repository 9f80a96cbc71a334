"""Binder/JupyterHub (repo2docker) and devcontainer files parse and install the course as `make` does;
MCP HTTP servers work behind the hub's proxy with the documented transport security settings."""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys

import httpx
import pytest

from course_lib import hub
from course_lib.notebooks import ROOT

BINDER, DEVCONTAINER = ROOT / "binder", ROOT / ".devcontainer" / "devcontainer.json"


def _pip_args(command: str) -> list[str]:
    """The arguments after ``pip install``, without flags that change only output, caching or the target."""
    words = shlex.split(command)
    i = words.index("install")
    # --compile-bytecode: uv's way to write the .pyc files pip writes by default (not what is installed)
    args = [w for w in words[i + 1:] if w not in ("--quiet", "-q", "--no-cache-dir", "--compile-bytecode")]
    if "--python" in args:  # uv pip install --python PATH: which interpreter, not what is installed
        j = args.index("--python")
        del args[j:j + 2]
    return args


def _course_installs(shell_line: str) -> list[list[str]]:
    """Each ``pip install ... -e '.[...]'`` (pip's or uv's) in one shell line of ``make -n``."""
    found = re.findall(r"pip install [^;|&]*?-e '[^']*'", shell_line)
    return [_pip_args(f) for f in found]


@pytest.fixture(scope="module")
def make_install(tmp_path_factory):
    """The command `make setup` runs to install the course (read with `make -n`, nothing is run)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    venv = tmp_path_factory.mktemp("venv")
    out = subprocess.run(["make", "-n", "-B", "setup", f"VENV={venv}", "UV="], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    lines = [l for l in out.splitlines() if "pip install" in l and " -e " in l]
    assert len(lines) == 1, out
    installs = _course_installs(lines[0])
    # uv (on PATH, or bootstrapped with pip) and the pip fallback must install exactly the same thing.
    assert len(installs) == 3 and all(i == installs[0] for i in installs), installs
    return installs[0]


def test_make_bootstraps_uv_with_pip_and_keeps_pip_as_the_fallback(tmp_path):
    out = subprocess.run(["make", "-n", "-B", "setup", f"VENV={tmp_path}", "UV="], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    line = next(l for l in out.splitlines() if " -e " in l)
    assert re.search(rf"{re.escape(str(tmp_path))}/bin/python -m pip install --quiet \"uv==[0-9.]+\"", line)
    assert line.index("uv==") < line.index(f"{tmp_path}/bin/uv pip install") < line.index("-m pip install --quiet -c")


def test_make_has_uv_write_bytecode_as_pip_does(tmp_path):
    """uv writes no .pyc unless asked; with PYTHONDONTWRITEBYTECODE set, every start would compile the SDKs."""
    out = subprocess.run(["make", "-n", "-B", "setup", f"VENV={tmp_path}", "UV="], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    line = next(l for l in out.splitlines() if " -e " in l)
    uv_installs = re.findall(r"uv pip install [^;|&]*?-e '[^']*'", line)
    assert len(uv_installs) == 2 and all("--compile-bytecode" in c for c in uv_installs), uv_installs
    assert "--no-compile" not in line  # pip's fallback keeps its default: it compiles


def test_make_installs_the_course_from_the_lock(make_install):
    assert make_install == ["-c", "constraints.txt", "-e", ".[test]"]


def test_binder_runtime_is_a_supported_python():
    text = (BINDER / "runtime.txt").read_text().strip()
    m = re.fullmatch(r"python-3\.(\d+)", text)
    assert m and int(m.group(1)) >= 10, f"repo2docker expects python-3.X (>= 3.10), got {text!r}"


def test_binder_postbuild_runs_the_same_install_as_make(make_install):
    path = BINDER / "postBuild"
    assert path.stat().st_mode & stat.S_IXUSR, "repo2docker runs postBuild only when it is executable"
    text = path.read_text()
    assert text.startswith("#!/bin/bash")
    subprocess.run(["bash", "-n", str(path)], check=True)  # it parses
    installs = [l for l in text.splitlines() if "pip install" in l and not l.lstrip().startswith("#")]
    assert len(installs) == 1 and _pip_args(installs[0]) == make_install


def test_binder_postbuild_really_installs_the_course_that_way(tmp_path):
    """Run postBuild with `python` standing in for pip: it asks for exactly the course, from the lock."""
    fake = tmp_path / "bin"
    fake.mkdir()
    record = tmp_path / "args.json"
    (fake / "python").write_text(f"#!{sys.executable}\nimport json, sys\njson.dump(sys.argv[1:], open({str(record)!r}, 'w'))\n")
    (fake / "python").chmod(0o755)
    env = dict(os.environ, PATH=f"{fake}{os.pathsep}{os.environ['PATH']}")
    subprocess.run(["bash", str(BINDER / "postBuild")], cwd=ROOT, env=env, check=True, timeout=60)
    assert json.loads(record.read_text())[:3] == ["-m", "pip", "install"]


def test_devcontainer_parses_and_runs_make_setup():
    config = json.loads(DEVCONTAINER.read_text())
    assert config["postCreateCommand"] == "make setup"
    m = re.search(r"python:(\d+)\.(\d+)", config["image"])
    assert m and (int(m.group(1)), int(m.group(2))) >= (3, 10)
    port = int(re.search(r"^PORT\s*\?=\s*(\d+)", (ROOT / "Makefile").read_text(), re.M).group(1))
    assert port in config["forwardPorts"], "forward the port `make lab` uses"
    assert config["customizations"]["vscode"]["settings"]["python.defaultInterpreterPath"].endswith(".venv/bin/python")


# --- MCP over streamable HTTP behind the JupyterHub proxy ---------------------------------------

def _mcp_app(**kw):
    from mcp.server import MCPServer

    server = MCPServer("hub-demo", log_level="WARNING")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    return server.streamable_http_app(**kw)


INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _post(server, host: str, origin: str | None = None) -> int:
    headers = dict(HEADERS, Host=host, **({"Origin": origin} if origin else {}))
    return httpx.post(f"{server.url}/mcp", json=INIT, headers=headers, timeout=10).status_code


def test_proxied_requests_are_refused_by_default_and_accepted_with_hub_settings(monkeypatch):
    from course_lib.servers import start_server, stop_server

    monkeypatch.setenv("JUPYTERHUB_SERVICE_PREFIX", "/user/ada/")
    monkeypatch.setenv("JUPYTERHUB_PUBLIC_URL", "https://hub.example.org/")
    try:
        plain = start_server("test-hub-plain", _mcp_app())
        # What the proxy forwards: the browser's Host and Origin (the hub's public name).
        assert _post(plain, "hub.example.org") == 421
        assert _post(plain, f"127.0.0.1:{plain.port}", origin="https://hub.example.org") == 403
        hubbed = start_server("test-hub-settings", _mcp_app(transport_security=hub.mcp_transport_security()))
        assert _post(hubbed, "hub.example.org", origin="https://hub.example.org") == 200
        assert _post(hubbed, f"127.0.0.1:{hubbed.port}") == 200, "loopback clients (the kernel) still work"
        assert _post(hubbed, "evil.example", origin="https://evil.example") == 421, "protection stays on"
        assert _post(hubbed, "hub.example.org", origin="https://evil.example") == 403
    finally:
        stop_server("test-hub-plain")
        stop_server("test-hub-settings")


def test_proxy_url_and_hosts(monkeypatch):
    monkeypatch.delenv("JUPYTERHUB_SERVICE_PREFIX", raising=False)
    monkeypatch.delenv("JUPYTERHUB_PUBLIC_URL", raising=False)
    monkeypatch.delenv("COURSE_PUBLIC_HOSTS", raising=False)
    assert not hub.on_hub() and hub.proxy_url(8123) == "http://127.0.0.1:8123/mcp"
    assert hub.public_hosts() == []
    monkeypatch.setenv("JUPYTERHUB_SERVICE_PREFIX", "/user/ada")
    monkeypatch.setenv("COURSE_PUBLIC_HOSTS", "hub.example.org, lab.example.org:8443")
    assert hub.proxy_url(8123) == "/user/ada/proxy/8123/mcp"
    assert hub.public_hosts() == ["hub.example.org", "lab.example.org:8443"]
    settings = hub.mcp_transport_security(("extra.example",))
    assert settings.enable_dns_rebinding_protection
    assert "lab.example.org:8443" in settings.allowed_hosts and "https://extra.example" in settings.allowed_origins
