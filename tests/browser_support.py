"""What the real-browser tests share: Chromium and Playwright discovery, a throw-away JupyterLab, waits.

``jupyterlab(tmp_path, files, env)`` starts JupyterLab on 127.0.0.1:<free port> in a temporary
folder holding copies of ``files``, with its own settings (every cell stays in the page, no
news or update checks: the network is closed) and state folders, and stops it, its kernels
included, afterwards. Waits are on page state, bounded by generous timeouts, because CI
machines are slow and shared.
"""
from __future__ import annotations

import contextlib
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
from typing import Any, Iterator

import pytest

from course_lib.notebooks import ROOT
from course_lib.servers import free_port

CHROMIUM = os.environ.get("COURSE_CHROMIUM", "/usr/bin/chromium")
SCREENSHOT_DIR = Path(os.environ.get("COURSE_SCREENSHOT_DIR", ROOT / "_build" / "browser"))
# As root on a closed network: no sandbox, no GPU, no background calls home (machines/python.md).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
RUN_TIMEOUT = 300  # seconds for all cells of a notebook to run in the browser on a loaded machine
STEP_TIMEOUT = 120  # seconds for one interaction (a kernel start, a cell, a click's effect)


def require_browser() -> Any:
    """Playwright's sync API, or skip the calling test module with the reason and the fix."""
    api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed: run `make browser` (it also installs Chromium)")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium not found at {CHROMIUM}: run `make browser` (Debian: apt-get install chromium), "
                    "or set COURSE_CHROMIUM to its path", allow_module_level=True)
    return api


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=2.0) as r:
            return r.status
    except Exception:
        return 0


def _write_settings(settings: Path) -> None:
    for plugin, values in {
        ("notebook-extension", "tracker"): {"windowingMode": "none"},  # every cell stays in the page
        ("apputils-extension", "notification"): {"fetchNews": "false", "checkForUpdates": False},
    }.items():
        path = settings / "@jupyterlab" / plugin[0] / f"{plugin[1]}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), encoding="utf-8")


@contextlib.contextmanager
def jupyterlab(tmp_path: Path, files: list[Path], env: dict[str, str] | None = None) -> Iterator[dict]:
    """Run JupyterLab over copies of ``files`` (kept at their paths relative to the repository).

    Yields ``{"base", "token", "root", "state", "log"}``; on exit, shuts JupyterLab down and asserts
    that no kernel or other child process is left.
    """
    import psutil

    root, settings, state = tmp_path / "course", tmp_path / "settings", tmp_path / "state"
    for f in files:
        dest = root / f.relative_to(ROOT)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(f, dest)
    _write_settings(settings)
    port, token = free_port(), secrets.token_hex(16)
    full_env = dict(os.environ, COURSE_LLM="mock", COURSE_DATA_DIR=str(state),
                    JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), **(env or {}))
    log_path = tmp_path / "jupyterlab.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
             f"--ServerApp.port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
             f"--ServerApp.root_dir={root}", f"--LabApp.user_settings_dir={settings}",
             f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}", "--ServerApp.allow_root=True",  # CI runs as root
             "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
            env=full_env, stdout=log, stderr=subprocess.STDOUT, cwd=root)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + STEP_TIMEOUT
        while _status(f"{base}/api/status?token={token}") != 200:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail("JupyterLab did not start:\n" + log_path.read_text()[-3000:])
            time.sleep(0.2)
        server = psutil.Process(proc.pid)
        try:
            yield {"base": base, "token": token, "root": root, "state": state, "log": log_path}
        finally:
            kernels = server.children(recursive=True)
            with contextlib.suppress(Exception):  # shutting down stops the kernels too
                urllib.request.urlopen(urllib.request.Request(f"{base}/api/shutdown?token={token}", method="POST"),
                                       timeout=10).close()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
            _, alive = psutil.wait_procs(kernels, timeout=10)
            for p in alive:
                p.kill()
    assert not alive, f"processes left running after JupyterLab stopped: {alive}"


# The panel on show: after a reload JupyterLab restores earlier tabs, hidden but still in the page.
CURRENT_PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"


def open_notebook(page: Any, url: str) -> None:
    """Open ``url`` and wait until the kernel of the notebook on show is connected (named) and idle."""
    page.goto(url)
    page.wait_for_selector(f"{CURRENT_PANEL} .jp-Notebook .jp-Cell", state="attached", timeout=STEP_TIMEOUT * 1000)
    page.wait_for_function("""(panel) => {
        const p = document.querySelector(panel);
        const name = p && p.querySelector('.jp-KernelName');
        const state = p && p.querySelector('.jp-Notebook-ExecutionIndicator');
        return name && /Python/.test(name.textContent) && state && state.dataset.status === 'idle';
    }""", arg=CURRENT_PANEL, timeout=STEP_TIMEOUT * 1000)


def run_cell(page: Any, cell: Any, attempts: int = 3) -> None:
    """Run one code cell with Shift+Enter and wait until its prompt shows it ran (``[n]:``).

    A key press that lands while the kernel is still being attached is dropped by JupyterLab
    (the prompt stays ``[ ]:``), so the press is repeated, at most ``attempts`` times.
    """
    prompt = cell.locator(".jp-InputPrompt")
    for attempt in range(attempts):
        cell.locator(".jp-InputArea-editor").click()
        page.keyboard.press("Shift+Enter")
        try:
            page.wait_for_function("(el) => /^\\[(\\d+|\\*)\\]:$/.test(el.textContent.trim())",
                                   arg=prompt.element_handle(), timeout=20_000)
            break
        except Exception:
            if attempt == attempts - 1:
                raise
    page.wait_for_function("(el) => /^\\[\\d+\\]:$/.test(el.textContent.trim())",
                           arg=prompt.element_handle(), timeout=STEP_TIMEOUT * 1000)


def failure_report(page: Any, cell: Any | None, lab_log: Path) -> str:
    """What a failed browser step leaves to read: the cell's text and the end of JupyterLab's log."""
    text = ""
    with contextlib.suppress(Exception):
        text = cell.inner_text(timeout=5_000) if cell is not None else ""
    log = lab_log.read_text(errors="replace")[-3000:] if lab_log.exists() else ""
    return f"--- cell ---\n{text}\n--- jupyterlab.log (end) ---\n{log}"


def run_all_cells(page: Any, code_cells: int) -> None:
    """Run All Cells from the Run menu and wait until every code cell shows an execution count."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.wait_for_function(
        """(n) => {
            const p = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
                .map(e => e.textContent.trim());
            return p.length === n && p.every(t => /^\\[\\d+\\]:$/.test(t));
        }""", arg=code_cells, timeout=RUN_TIMEOUT * 1000)
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", state="attached",
                           timeout=STEP_TIMEOUT * 1000)


def count_code_cells(path: Path) -> int:
    return sum(c["cell_type"] == "code" for c in json.loads(path.read_text(encoding="utf-8"))["cells"])


def run_all_in_panel(page: Any, code_cells: int, timeout: float = RUN_TIMEOUT) -> None:
    """Run All Cells of the notebook on show and wait until each of its code cells has an execution count.

    Scoped to the current panel (:data:`CURRENT_PANEL`): other notebooks open in hidden tabs do not count.
    """
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.wait_for_function(
        """([panel, n]) => {
            const p = document.querySelector(panel);
            if (!p) return false;
            const prompts = [...p.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
                .map(e => e.textContent.trim());
            return prompts.length === n && prompts.every(t => /^\\[\\d+\\]:$/.test(t));
        }""", arg=[CURRENT_PANEL, code_cells], timeout=timeout * 1000)
    page.wait_for_selector(f"{CURRENT_PANEL} .jp-Notebook-ExecutionIndicator[data-status='idle']", state="attached",
                           timeout=STEP_TIMEOUT * 1000)


def widget_problems(page: Any) -> list[str]:
    """Widget outputs of the notebook on show that did not render: an error text, or still "Loading widget"."""
    return page.evaluate("""(panel) => {
        const p = document.querySelector(panel);
        const problems = [];
        for (const out of p.querySelectorAll('.jp-OutputArea-output')) {
            const text = out.innerText || '';
            if (/Error displaying widget|Error rendering output|model not found/.test(text))
                problems.push(text.slice(0, 200));
            if (out.dataset.mimeType === 'application/vnd.jupyter.widget-view+json'
                    && !out.querySelector('.jupyter-widgets, .widget-box, .lm-Widget.jupyter-widget'))
                problems.push('widget not rendered: ' + text.slice(0, 120));
        }
        return problems;
    }""", CURRENT_PANEL)


def full_length_screenshots(page: Any, folder: Path, stem: str) -> list[Path]:
    """Screenshots of the whole notebook on show, one per screenful: JupyterLab scrolls inside its panel.

    The notebook's scroller is moved one viewport at a time (a little overlap, so no line is lost between
    two images) and each view is saved as ``folder/<stem>-NN.png``. Returns the files, in order.
    """
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob(f"{stem}-*.png"):
        old.unlink()
    scroller = f"{CURRENT_PANEL} .jp-WindowedPanel-outer"
    page.wait_for_selector(scroller, state="attached", timeout=STEP_TIMEOUT * 1000)
    total, view = page.evaluate("(s) => { const e = document.querySelector(s); return [e.scrollHeight, e.clientHeight]; }",
                                scroller)
    shots, top, n = [], 0, 1
    while True:
        page.evaluate("([s, y]) => { document.querySelector(s).scrollTop = y; }", [scroller, top])
        page.wait_for_timeout(150)  # images and widgets re-layout after a scroll
        path = folder / f"{stem}-{n:02d}.png"
        page.locator(f"{CURRENT_PANEL} .jp-WindowedPanel-outer").screenshot(path=str(path))
        shots.append(path)
        if top + view >= total or n >= 200:
            break
        top += max(view - 60, 100)
        n += 1
    return shots


def stop_kernels(base: str, token: str) -> None:
    """Shut every kernel of this JupyterLab down (one notebook's kernel must not slow the next one's)."""
    req = urllib.request.Request(f"{base}/api/kernels?token={token}")
    with urllib.request.urlopen(req, timeout=10) as r:
        kernels = json.loads(r.read())
    for k in kernels:
        with contextlib.suppress(Exception):
            urllib.request.urlopen(urllib.request.Request(f"{base}/api/kernels/{k['id']}?token={token}",
                                                          method="DELETE"), timeout=30).close()


def saved_errors(path: Path, timeout: float = 30.0) -> list[tuple[int, str, str]]:
    """``(cell index, ename, evalue)`` of every error output in the notebook file at ``path``.

    Jupyter Server writes a notebook in place (``atomic_writing`` keeps a copy, then rewrites the file), so a
    read while a save is still being written sees an empty or cut file: read again until it parses, up to
    ``timeout`` seconds (then the JSON error is raised).
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            nb = json.loads(path.read_text(encoding="utf-8"))
            break
        except json.JSONDecodeError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
    return [(i, o.get("ename", ""), o.get("evalue", "")) for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"
            for o in c.get("outputs", []) if o.get("output_type") == "error"]
