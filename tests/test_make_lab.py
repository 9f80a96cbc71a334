"""`make lab` opens lesson 00: the URL JupyterLab prints (and opens) is .../lab/tree/notebooks/00_welcome.ipynb?token=...

The command is read from the Makefile with ``make -n`` and run as it is, plus ``--no-browser`` (through
``LAB_ARGS``) and a free loopback port; the test waits for the printed URL, fetches it, and stops the server.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from course_lib.notebooks import ROOT
from course_lib.servers import free_port

FIRST_LESSON = "notebooks/00_welcome.ipynb"


def _lab_command(port: int, *extra: str) -> str:
    # VENV: the environment running the tests (a fresh clone's .venv in CI, whatever it is called here)
    out = subprocess.run(["make", "-n", "lab", f"PORT={port}", "LAB_ARGS=--no-browser", f"VENV={sys.prefix}", *extra],
                         cwd=ROOT, capture_output=True, text=True, check=True,
                         env={k: v for k, v in os.environ.items() if k != "COURSE_LANG"}).stdout
    joined = out.replace("\\\n", " ")
    lines = [line for line in joined.splitlines() if "jupyter lab" in line]
    assert len(lines) == 1, out
    return lines[0]


def test_make_lab_asks_jupyterlab_for_lesson_00():
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    command = _lab_command(8888)
    assert "--LabApp.default_url=/lab/tree/notebooks/00_welcome.ipynb" in command
    assert (ROOT / FIRST_LESSON).exists()


def test_course_lang_zh_opens_the_chinese_lesson_00():
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    assert "--LabApp.default_url=/lab/tree/notebooks/zh/00_welcome.ipynb" in _lab_command(8888, "COURSE_LANG=zh")
    assert "--LabApp.default_url=/lab/tree/notebooks/00_welcome.ipynb" in _lab_command(8888, "COURSE_LANG=en")
    assert (ROOT / "notebooks" / "zh" / "00_welcome.ipynb").exists()


def test_the_printed_url_opens_lesson_00(tmp_path):
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    port = free_port()
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), COURSE_DATA_DIR=str(tmp_path / "state"))
    log = tmp_path / "lab.log"
    with log.open("w") as out:
        proc = subprocess.Popen(["bash", "-c", _lab_command(port)], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        pattern = re.compile(rf"http://127\.0\.0\.1:{port}/lab/tree/notebooks/00_welcome\.ipynb\?token=(\w+)")
        deadline, match = time.monotonic() + 120, None
        while match is None and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.3)
            match = pattern.search(log.read_text(errors="replace"))
        assert match, "JupyterLab did not print lesson 00's URL:\n" + log.read_text(errors="replace")[-3000:]
        assert not re.search(rf"http://127\.0\.0\.1:{port}/lab\?token=", log.read_text()), "a Launcher URL"
        with urllib.request.urlopen(match.group(0), timeout=30) as reply:
            assert reply.status == 200 and "JupyterLab" in reply.read().decode(errors="replace")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
