"""The interview practice notebook in a real browser: the flashcards and the mock interview are used by clicking.

nbval proves the cells run; only a browser proves a candidate can *use* the widgets: a card is
answered, revealed and marked (and the mark lands in the learner's progress file), and a timed
mock interview runs from Start to its score, with the countdown ticking on its own. JupyterLab
runs on a free loopback port in a temporary folder, Chromium is driven by Playwright, and both
are stopped at the end. A screenshot goes to ``_build/browser/interview_practice.png`` (or
``$COURSE_SCREENSHOT_DIR``).

Skipped, with the reason, when Chromium or Playwright is missing (``make browser`` installs both).
"""
from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from course_lib.notebooks import ROOT
from course_lib.servers import free_port

PRACTICE = ROOT / "notebooks" / "interview" / "00_practice.ipynb"
CHROMIUM = os.environ.get("COURSE_CHROMIUM", "/usr/bin/chromium")
SCREENSHOT_DIR = Path(os.environ.get("COURSE_SCREENSHOT_DIR", ROOT / "_build" / "browser"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
LEARNER = "browser-candidate"
CODE_CELLS = sum(c["cell_type"] == "code" for c in json.loads(PRACTICE.read_text(encoding="utf-8"))["cells"])

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed: run `make browser` (it also installs Chromium)")
if not Path(CHROMIUM).exists():
    pytest.skip(f"Chromium not found at {CHROMIUM}: run `make browser`, or set COURSE_CHROMIUM to its path",
                allow_module_level=True)


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=2.0) as r:
            return r.status
    except Exception:
        return 0


@pytest.fixture
def lab(tmp_path):
    """JupyterLab on 127.0.0.1:<free port> serving a copy of the practice notebook; stopped afterwards."""
    import psutil

    root, settings, state = tmp_path / "course", tmp_path / "settings", tmp_path / "state"
    (root / "notebooks" / "interview").mkdir(parents=True)
    shutil.copy(PRACTICE, root / "notebooks" / "interview" / PRACTICE.name)
    tracker = settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
    tracker.parent.mkdir(parents=True)
    tracker.write_text(json.dumps({"windowingMode": "none"}), encoding="utf-8")  # every cell stays in the page
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ, COURSE_LLM="mock", COURSE_DATA_DIR=str(state), COURSE_LEARNER=LEARNER,
               JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"))
    log = (tmp_path / "jupyterlab.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
         "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
         f"--LabApp.user_settings_dir={settings}", f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}",
         "--ServerApp.allow_root=True", "--LabApp.news_url=None",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while _status(f"{base}/api/status?token={token}") != 200:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail("JupyterLab did not start:\n" + (tmp_path / "jupyterlab.log").read_text()[-3000:])
        time.sleep(0.2)
    server = psutil.Process(proc.pid)
    yield {"url": f"{base}/lab/tree/notebooks/interview/{PRACTICE.name}?token={token}", "state": state}
    kernels = server.children(recursive=True)
    try:
        urllib.request.urlopen(urllib.request.Request(f"{base}/api/shutdown?token={token}", method="POST"),
                               timeout=10).close()
    except Exception:
        pass
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
    log.close()
    _, alive = psutil.wait_procs(kernels, timeout=10)
    for p in alive:
        p.kill()
    assert not alive, f"processes left running after JupyterLab stopped: {alive}"


def test_flashcards_and_mock_interview_are_usable_in_jupyterlab(lab):
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(60_000)
        try:
            page.goto(lab["url"])
            page.wait_for_selector(".jp-Notebook .jp-Cell", state="attached")
            page.wait_for_function("""() => {  // the kernel is connected: named in the toolbar, idle
                const name = document.querySelector('.jp-NotebookPanel-toolbar .jp-KernelName');
                const state = document.querySelector('.jp-Notebook-ExecutionIndicator');
                return name && /Python/.test(name.textContent) && state && state.dataset.status === 'idle';
            }""")
            page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
            page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
            page.wait_for_function(  # every code cell has run: each prompt shows an execution count
                """(n) => {
                    const p = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
                        .map(e => e.textContent.trim());
                    return p.length === n && p.every(t => /^\\[\\d+\\]:$/.test(t));
                }""", arg=CODE_CELLS, timeout=180_000)
            page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", state="attached")
            body = page.locator(".jp-Notebook").inner_text()
            assert "Error displaying widget" not in body and "Traceback" not in body

            # Flashcards: answer, reveal, mark "I knew it"; the mark reaches the learner's file.
            card = page.locator(".widget-vbox").filter(has=page.locator("button", has_text="Show answer")).first
            card.scroll_into_view_if_needed()
            assert "card 1 / 10" in card.inner_text()
            card.locator("textarea").fill("The model returns tool_calls; the app runs the tool and replies "
                                          "with a role tool message carrying the tool_call_id.")
            card.locator("button", has_text="Show answer").click()
            card.locator("text=In one sentence").wait_for()
            card.screenshot(path=str(SCREENSHOT_DIR / "interview_flashcard.png"))
            assert re.search(r"made \d of 5 framework points", card.inner_text())
            card.locator("button", has_text="I knew it").click()
            card.locator("text=card 2 / 10").wait_for()
            progress = lab["state"] / "interview" / f"{LEARNER}.json"
            deadline = time.monotonic() + 10
            while not progress.exists() and time.monotonic() < deadline:
                time.sleep(0.1)
            cards = json.loads(progress.read_text(encoding="utf-8"))["cards"]
            assert cards["fc-five-steps"]["status"] == "known"

            # Mock interview: Start, the countdown ticks by itself, answer five questions, see the score.
            mock = page.locator(".widget-vbox").filter(has=page.locator("button", has_text="Start")).first
            mock.scroll_into_view_if_needed()
            mock.locator("button", has_text="Start").click()
            mock.locator("text=question 1 / 5").wait_for()
            # The HTML widget replaces its content on every update: watch its (stable) container.
            clock = mock.locator(".widget-html", has=page.locator("b", has_text=re.compile(r"^\d+ s$")))
            first = clock.inner_text()
            page.wait_for_function("([el, t]) => el.innerText !== t", arg=[clock.element_handle(), first],
                                   timeout=10_000)  # no click needed: the countdown thread updates the widget
            for i in range(5):
                mock.locator("textarea").fill("retry with backoff and jitter, a fallback, a timeout, tool_call_id")
                mock.locator("button", has_text="Submit").click()
                mock.locator("text=In one sentence").wait_for()
                mock.locator("button", has_text="See the score" if i == 4 else "Next question").click()
            mock.locator("text=Mock interview: 5 questions, score").wait_for()
            mock.scroll_into_view_if_needed()
            page.screenshot(path=str(SCREENSHOT_DIR / "interview_practice.png"))
        except Exception:
            page.screenshot(path=str(SCREENSHOT_DIR / "interview_practice.failure.png"))
            raise
        finally:
            browser.close()
