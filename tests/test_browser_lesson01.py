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

import re

import nbformat
import pytest

from browser_support import (CURRENT_PANEL, SCREENSHOT_DIR, CHROMIUM, CHROMIUM_ARGS, STEP_TIMEOUT, count_code_cells,
                             failure_report, jupyterlab, open_notebook, require_browser, run_all_cells, run_cell)
from course_lib.notebooks import ROOT

LESSON = ROOT / "notebooks" / "01_function_calling.ipynb"
EXERCISE = ROOT / "exercises" / "01_tool_call_loop.ipynb"
playwright_api = require_browser()


@pytest.fixture
def lab(tmp_path):
    with jupyterlab(tmp_path, [LESSON, EXERCISE]) as server:  # a fresh state folder: hints start at 0
        yield server


def test_lesson_01_runs_in_jupyterlab_in_chromium(lab):
    base, token, root = lab["base"], lab["token"], lab["root"]
    code_cells = count_code_cells(LESSON)
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOT_DIR / "01_function_calling.png"
    shot.unlink(missing_ok=True)

    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(60_000)
            hint_cell = None
            open_notebook(page, f"{base}/lab/tree/notebooks/{LESSON.name}?token={token}")
            run_all_cells(page, code_cells)

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
                "(el) => /\\b2 \\/ \\d+/.test(el.innerText)", arg=widget.element_handle(), timeout=STEP_TIMEOUT * 1000)

            # Plots: draw_message_flow's PNGs are in the page and decoded (decoding may lag on a busy machine).
            page.wait_for_function("""() => {
                const imgs = [...document.querySelectorAll(".jp-OutputArea-output img[src^='data:image/png']")];
                return imgs.length >= 2 && imgs.every(img => img.complete && img.naturalWidth > 100);
            }""", timeout=STEP_TIMEOUT * 1000)

            page.screenshot(path=str(shot))

            # Save, then read the executed notebook back: no error output in any cell.
            page.locator(".jp-Notebook").click()
            page.keyboard.press("Control+s")
            saved = root / "notebooks" / LESSON.name
            page.wait_for_function("() => !document.querySelector('.jp-mod-dirty')", timeout=30_000)

            # The exercise's 💡 cell: one click, one hint (a learner's first contact with hints).
            open_notebook(page, f"{base}/lab/tree/exercises/{EXERCISE.name}?token={token}")
            hint_cell = page.locator(f"{CURRENT_PANEL} .jp-CodeCell").filter(has_text="import HINTS")
            hint_cell.wait_for(state="attached")
            run_cell(page, hint_cell)
            # The first run of the cell imports the course library in a fresh kernel: slow on a busy machine.
            button = hint_cell.locator("button", has_text="Show hint 1 of 3")
            button.wait_for(state="visible", timeout=STEP_TIMEOUT * 1000)
            button.click()
            hint_cell.locator("text=Hint 1 of 3.").wait_for(timeout=STEP_TIMEOUT * 1000)
            # The hint text and the button's new label are two widget updates: wait for the second too.
            hint_cell.locator("button", has_text="Show hint 2 of 3").wait_for(state="visible",
                                                                          timeout=STEP_TIMEOUT * 1000)
            assert hint_cell.locator("button", has_text=re.compile(r"Show hint \d of 3")).count() == 1
            hint_cell.scroll_into_view_if_needed()
            page.screenshot(path=str(SCREENSHOT_DIR / "01_tool_call_loop_hint.png"))
        except Exception as exc:
            page.screenshot(path=str(SCREENSHOT_DIR / "01_function_calling.failure.png"))
            raise AssertionError(failure_report(page, hint_cell, lab["log"])) from exc
        finally:
            browser.close()

    nb = nbformat.read(str(saved), as_version=4)
    errors = [(i, o.get("ename"), o.get("evalue")) for i, c in enumerate(nb.cells) if c.cell_type == "code"
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert errors == []
    assert sum(bool(c.get("outputs")) for c in nb.cells if c.cell_type == "code") >= code_cells - 3
    assert shot.exists() and shot.stat().st_size > 20_000, f"no screenshot at {shot}"
