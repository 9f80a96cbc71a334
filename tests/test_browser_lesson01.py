"""Lesson 01 in a real browser: JupyterLab + headless Chromium, every cell run, widgets and plots seen.

nbval proves the code runs; only a browser proves the learner *sees* it: the widget front end
loads (not "Error displaying widget", C-32), images render. The test starts JupyterLab on a free
loopback port in a temporary folder (a copy of the lesson, a temporary settings and state folder),
drives the machine's Chromium with Playwright (never a browser Playwright downloads), runs all
cells from the Run menu, checks the page and the saved notebook, writes a screenshot to
``_build/browser/01_function_calling.png`` (or ``$COURSE_SCREENSHOT_DIR``), then stops
Chromium, the kernel and JupyterLab.

Skipped, with the reason, when Chromium or Playwright is missing: ``make browser`` installs both.
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

import nbformat
import pytest

from course_lib.notebooks import ROOT
from course_lib.servers import free_port

LESSON = ROOT / "notebooks" / "01_function_calling.ipynb"
EXERCISE = ROOT / "exercises" / "01_tool_call_loop.ipynb"
CHROMIUM = os.environ.get("COURSE_CHROMIUM", "/usr/bin/chromium")
SCREENSHOT_DIR = Path(os.environ.get("COURSE_SCREENSHOT_DIR", ROOT / "_build" / "browser"))
# As root on a closed network: no sandbox, no GPU, no background calls home (machines/python.md).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
TIMEOUT = 180  # seconds for the whole lesson to run in the browser (it takes ~15 s)

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed: run `make browser` (it also installs Chromium)")
if not Path(CHROMIUM).exists():
    pytest.skip(f"Chromium not found at {CHROMIUM}: run `make browser` (Debian: apt-get install chromium), "
                "or set COURSE_CHROMIUM to its path", allow_module_level=True)


def _get(url: str, timeout: float = 2.0) -> int:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status
    except Exception:
        return 0


@pytest.fixture
def jupyterlab(tmp_path):
    """JupyterLab on 127.0.0.1:<free port>, serving a temporary folder with a copy of lesson 01."""
    import psutil

    root, settings = tmp_path / "course", tmp_path / "settings"
    (root / "notebooks").mkdir(parents=True)
    shutil.copy(LESSON, root / "notebooks" / LESSON.name)
    (root / "exercises").mkdir()
    shutil.copy(EXERCISE, root / "exercises" / EXERCISE.name)
    # Every cell stays in the page (no virtual scrolling), so the test sees all outputs.
    tracker = settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
    tracker.parent.mkdir(parents=True)
    tracker.write_text(json.dumps({"windowingMode": "none"}), encoding="utf-8")
    news = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    news.parent.mkdir(parents=True)
    news.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}), encoding="utf-8")
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ, COURSE_LLM="mock", COURSE_DATA_DIR=str(tmp_path / "state"),  # hints start at 0
               JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"))
    log = (tmp_path / "jupyterlab.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
         "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
         f"--LabApp.user_settings_dir={settings}", f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}",
         "--ServerApp.allow_root=True",  # CI runs as root
         # offline: no news feed, no update check
         "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while _get(f"{base}/api/status?token={token}") != 200:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail("JupyterLab did not start:\n" + (tmp_path / "jupyterlab.log").read_text()[-3000:])
        time.sleep(0.2)
    server = psutil.Process(proc.pid)
    yield {"base": base, "token": token, "root": root}
    kernels = server.children(recursive=True)
    req = urllib.request.Request(f"{base}/api/shutdown?token={token}", method="POST")
    try:
        urllib.request.urlopen(req, timeout=10).close()  # stops the kernels too
    except Exception:
        pass
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
    log.close()
    gone, alive = psutil.wait_procs(kernels, timeout=10)
    for p in alive:
        p.kill()
    assert not alive, f"processes left running after JupyterLab stopped: {alive}"


def test_lesson_01_runs_in_jupyterlab_in_chromium(jupyterlab):
    base, token, root = jupyterlab["base"], jupyterlab["token"], jupyterlab["root"]
    code_cells = sum(c.cell_type == "code" for c in nbformat.read(str(LESSON), as_version=4).cells)
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOT_DIR / "01_function_calling.png"
    shot.unlink(missing_ok=True)

    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(60_000)
            page.goto(f"{base}/lab/tree/notebooks/{LESSON.name}?token={token}")
            page.wait_for_selector(".jp-Notebook .jp-Cell", state="attached")
            # The kernel is connected once the toolbar names it and reports it idle.
            page.wait_for_function("""() => {
                const name = document.querySelector('.jp-NotebookPanel-toolbar .jp-KernelName');
                const state = document.querySelector('.jp-Notebook-ExecutionIndicator');
                return name && /Python/.test(name.textContent) && state && state.dataset.status === 'idle';
            }""")

            page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
            page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
            page.wait_for_function(
                """(n) => {
                    const p = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
                        .map(e => e.textContent.trim());
                    return p.length === n && p.every(t => /^\\[\\d+\\]:$/.test(t));
                }""", arg=code_cells, timeout=TIMEOUT * 1000)
            page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", state="attached")

            body = page.locator(".jp-Notebook").inner_text()
            assert "Error displaying widget" not in body
            assert "Traceback" not in body

            # The message-flow stepper (step_through) is a live widget: its ▶ button moves a step.
            widget = page.locator(".jp-OutputArea-output .widget-vbox").filter(has=page.locator(".widget-slider")).first
            widget.wait_for(state="visible")
            widget.scroll_into_view_if_needed()
            counter = re.compile(r"(\d+) / (\d+)")
            before = counter.search(widget.inner_text())
            assert before and before.group(1) == "1", widget.inner_text()
            widget.locator("button", has_text="▶").click()
            page.wait_for_function(
                "(el) => /\\b2 \\/ \\d+/.test(el.innerText)", arg=widget.element_handle(), timeout=10_000)

            # Plots: draw_message_flow's PNGs are in the page and decoded.
            images = page.locator(".jp-OutputArea-output img[src^='data:image/png']")
            assert images.count() >= 2
            assert all(images.nth(i).evaluate("img => img.naturalWidth > 100") for i in range(images.count()))

            page.screenshot(path=str(shot))

            # Save, then read the executed notebook back: no error output in any cell.
            page.locator(".jp-Notebook").click()
            page.keyboard.press("Control+s")
            saved = root / "notebooks" / LESSON.name
            page.wait_for_function("() => !document.querySelector('.jp-mod-dirty')", timeout=30_000)

            # The exercise's 💡 cell: one click, one hint (a learner's first contact with hints).
            page.goto(f"{base}/lab/tree/exercises/{EXERCISE.name}?token={token}")
            hint_cell = page.locator(".jp-Notebook .jp-CodeCell").filter(has_text="import HINTS")
            hint_cell.wait_for(state="attached")
            page.wait_for_function("""() => {
                const s = document.querySelector('.jp-Notebook-ExecutionIndicator');
                return s && s.dataset.status === 'idle';
            }""")
            hint_cell.locator(".jp-InputArea-editor").click()
            page.keyboard.press("Shift+Enter")
            button = hint_cell.locator("button", has_text="Show hint 1 of 3")
            button.click()
            hint_cell.locator("text=Hint 1 of 3.").wait_for()
            assert hint_cell.locator("button", has_text="Show hint 2 of 3").count() == 1
            hint_cell.scroll_into_view_if_needed()
            page.screenshot(path=str(SCREENSHOT_DIR / "01_tool_call_loop_hint.png"))
        except Exception:
            page.screenshot(path=str(SCREENSHOT_DIR / "01_function_calling.failure.png"))
            raise
        finally:
            browser.close()

    nb = nbformat.read(str(saved), as_version=4)
    errors = [(i, o.get("ename"), o.get("evalue")) for i, c in enumerate(nb.cells) if c.cell_type == "code"
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert errors == []
    assert sum(bool(c.get("outputs")) for c in nb.cells if c.cell_type == "code") >= code_cells - 3
    assert shot.exists() and shot.stat().st_size > 20_000, f"no screenshot at {shot}"
