"""`course preflight` passes on a good machine and names the broken piece when one is simulated."""
from __future__ import annotations

import json
import socket
import sys

import pytest

from course_lib import cli, environment, preflight


@pytest.fixture(autouse=True)
def state(tmp_path, monkeypatch):
    monkeypatch.setenv("COURSE_DATA_DIR", str(tmp_path))


def test_every_check_passes_on_this_machine(capsys, monkeypatch):
    # The default `make lab` port may be busy on a shared machine: that is a warning, not a failure.
    assert cli.main(["preflight"]) == 0
    out = capsys.readouterr().out
    lines = [l for l in out.splitlines() if l[:1] in ("✅", "❌", "⚠")]
    assert [l.split()[1] for l in lines] == [name for name, _ in preflight.CHECKS]
    assert not any(l.startswith("❌") for l in lines), out
    assert "this machine is ready for the course" in out
    assert "add(2, 3) = 5 over stdio" in out and "'echo: ping'" in out and "Shanghai: 28 °C" in out


def test_a_broken_stdio_server_is_reported_with_its_stderr(monkeypatch, capsys):
    monkeypatch.setattr(preflight, "STDIO_SERVER", [
        "-c", "import sys; sys.stderr.write('ImportError: cannot import name MCPServer\\n'); sys.exit(1)"])
    assert cli.main(["preflight", "--only", "mock-llm,mcp-stdio,mcp-memory"]) == 1
    out = capsys.readouterr().out
    stdio = next(l for l in out.splitlines() if " mcp-stdio " in l)
    assert stdio.startswith("❌") and "cannot import name MCPServer" in stdio
    assert next(l for l in out.splitlines() if " mcp-memory " in l).startswith("✅"), "other checks still run"
    assert "FAILED: mcp-stdio" in out


def test_mismatched_widget_front_end_is_reported(monkeypatch):
    real = environment.version
    monkeypatch.setattr(environment, "version", lambda d: "1.1.0" if d == "jupyterlab_widgets" else real(d))
    [result] = preflight.run_checks(only=["widgets"])
    assert result.status == "fail" and "needs jupyterlab_widgets 3.x" in result.detail


def test_busy_default_lab_port_is_a_warning(monkeypatch):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        monkeypatch.setattr(preflight, "LAB_PORT", s.getsockname()[1])
        [result] = preflight.run_checks(only=["ports"])
    assert result.status == "warn" and "make lab PORT=" in result.detail


def test_a_missing_requirement_is_reported(monkeypatch):
    from importlib import metadata

    real = metadata.version

    def fake(name):
        if name == "mcp":
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(metadata, "version", fake)
    [result] = preflight.run_checks(only=["install"])
    assert result.status == "fail" and "mcp missing" in result.detail and "make setup" in result.detail


def test_json_output_and_unknown_names(capsys):
    assert cli.main(["preflight", "--only", "python,state", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["name"], r["status"]) for r in rows] == [("python", "pass"), ("state", "pass")]
    assert cli.main(["preflight", "--only", "nope"]) == 2
    assert "no check named 'nope'" in capsys.readouterr().err


def test_async_checks_also_run_inside_a_running_event_loop():
    """In a Jupyter kernel a loop is already running: the checks must still work there."""
    import asyncio

    async def inside():
        return preflight.run_checks(only=["mcp-memory"])

    [result] = asyncio.run(inside())
    assert result.status == "pass", result.detail


def test_the_stdio_server_module_refuses_other_arguments():
    import subprocess

    r = subprocess.run([sys.executable, "-m", "course_lib.preflight"], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "usage" in r.stderr
