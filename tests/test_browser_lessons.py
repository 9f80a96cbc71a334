"""Every lesson, and every exercise's 💡 hint button, in a real browser: JupyterLab + headless Chromium.

nbval proves the code runs; only a browser shows what a learner sees. One JupyterLab (a temporary copy of
the lessons and exercises, its own settings and state folders) serves every notebook; for each lesson the
test runs all cells from the Run menu, then checks that no output is an error (in the saved notebook) and
that every widget rendered (no "Error displaying widget", none stuck loading) and every ◀ / ▶ stepper moves
when its ▶ is clicked, and saves full-length screenshots, one per screenful of JupyterLab's scrolling panel,
to ``_build/browser/lessons/NN_name-KK.png`` (or ``$COURSE_SCREENSHOT_DIR``). For each exercise it runs the
hints cell, clicks the button, and checks that the first hint shows and the button moves on to the next one
("click the button again").

Skipped, with the reason, when Chromium or Playwright is missing: ``make browser`` installs both, and the
CJK and emoji fonts the screenshots need.
"""
from __future__ import annotations

import re

import nbformat
import pytest

from browser_support import (CHROMIUM, CHROMIUM_ARGS, CURRENT_PANEL, SCREENSHOT_DIR, STEP_TIMEOUT, count_code_cells,
                             failure_report, full_length_screenshots, jupyterlab, open_notebook, require_browser,
                             run_all_in_panel, run_cell, saved_errors, stop_kernels, widget_problems)
from course_lib.course_map import numbered
from course_lib.notebooks import ROOT

LESSONS = numbered(ROOT / "notebooks")  # NN_ and inserted NNa_ lessons (course_lib.course_map)
EXERCISES = numbered(ROOT / "exercises")
# A lesson's code that builds a stepper: message_flow.step_through(...) or a Trace's .stepper()
STEPPER_CALL = re.compile(r"step_through\(|\.stepper\(\)")
LESSON_TIMEOUT = 900  # seconds for Run All of the longest lesson on a loaded 2-core machine
playwright_api = require_browser()


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    with jupyterlab(tmp_path_factory.mktemp("lab"), LESSONS + EXERCISES) as server:
        yield server


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser, lab):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        yield page
    finally:
        context.close()
        stop_kernels(lab["base"], lab["token"])


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_lesson_runs_in_jupyterlab_with_no_error_and_every_widget_shown(lesson, lab, page):
    base, token, root = lab["base"], lab["token"], lab["root"]
    folder = SCREENSHOT_DIR / "lessons"
    try:
        # ?reset: a fresh workspace, so the notebooks of earlier tests do not reopen in hidden tabs
        open_notebook(page, f"{base}/lab/tree/notebooks/{lesson.name}?reset&token={token}")
        run_all_in_panel(page, count_code_cells(lesson), timeout=LESSON_TIMEOUT)
        assert widget_problems(page) == []
        moved, stuck = click_every_stepper(page)
        assert stuck == []
        if builds_a_stepper(lesson):  # then it must be found in the page, or the check above proved nothing
            assert moved >= 1, "the lesson builds a ◀ / ▶ stepper but none was found in the page"
        page.wait_for_function("""(panel) => [...document.querySelectorAll(panel + " .jp-OutputArea-output img")]
            .every(img => img.complete && img.naturalWidth > 0)""", arg=CURRENT_PANEL, timeout=STEP_TIMEOUT * 1000)
        shots = full_length_screenshots(page, folder, lesson.stem)
        page.locator(f"{CURRENT_PANEL} .jp-Notebook").click()
        page.keyboard.press("Control+s")
        page.wait_for_function("(panel) => !document.querySelector(panel + ' .jp-mod-dirty')", arg=CURRENT_PANEL,
                               timeout=30_000)
    except Exception as exc:
        page.screenshot(path=str(SCREENSHOT_DIR / f"{lesson.stem}.failure.png"))
        raise AssertionError(failure_report(page, None, lab["log"])) from exc
    assert saved_errors(root / "notebooks" / lesson.name) == []
    assert shots and shots[0].stat().st_size > 20_000  # the first screenful: the lesson's title and prose


def builds_a_stepper(notebook) -> bool:
    """Whether a code cell of ``notebook`` calls step_through(...) or a Trace's .stepper()."""
    cells = nbformat.read(str(notebook), as_version=4).cells
    return any(c.cell_type == "code" and STEPPER_CALL.search(c.source) for c in cells)


def click_every_stepper(page) -> tuple[int, list[str]]:
    """Click ▶ on every ◀ / ▶ stepper of the notebook on show (course_lib.widgets.stepper: message flows,
    traces); each must move from "1 / N" to "2 / N" in the kernel and back to the page. Returns how many
    moved, and the ones that did not, by their counter's text."""
    rows = (page.locator(f"{CURRENT_PANEL} .widget-hbox").filter(has=page.locator(".widget-slider"))
            .filter(has=page.locator("button", has_text="▶")))
    moved, stuck = 0, []
    for k in range(rows.count()):
        box = rows.nth(k).locator("xpath=..")  # the stepper's VBox: the buttons' row, then the counter and view
        counter = re.search(r"(\d+) / (\d+)", box.inner_text())
        if not counter or counter.group(2) == "1":
            continue
        rows.nth(k).scroll_into_view_if_needed()
        rows.nth(k).locator("button", has_text="▶").click()
        try:
            page.wait_for_function("(el) => /\\b2 \\/ \\d+/.test(el.innerText)", arg=box.element_handle(),
                                   timeout=STEP_TIMEOUT * 1000)
            moved += 1
        except Exception:
            stuck.append(counter.group(0) + " did not move on ▶: " + box.inner_text()[:120])
    return moved, stuck


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda p: p.stem)
def test_the_hint_button_shows_one_hint_per_click(exercise, lab, page):
    base, token = lab["base"], lab["token"]
    cell = None
    try:
        open_notebook(page, f"{base}/lab/tree/exercises/{exercise.name}?reset&token={token}")
        cell = page.locator(f"{CURRENT_PANEL} .jp-CodeCell").filter(has_text="import HINTS")
        cell.wait_for(state="attached")
        run_cell(page, cell)
        button = cell.locator("button", has_text=re.compile(r"Show hint 1 of \d"))
        button.wait_for(state="visible", timeout=STEP_TIMEOUT * 1000)
        total = int(re.search(r"of (\d+)", button.inner_text()).group(1))
        button.click()
        cell.locator(f"text=Hint 1 of {total}.").wait_for(timeout=STEP_TIMEOUT * 1000)
        after = f"Show hint 2 of {total}" if total > 1 else "Stuck? Show where the solution is"
        cell.locator("button", has_text=after).wait_for(state="visible", timeout=STEP_TIMEOUT * 1000)
        if total > 1:
            cell.locator(f"text={total - 1} more: click the button again.").wait_for(timeout=STEP_TIMEOUT * 1000)
        assert "HINTS.next()" not in cell.locator(".jp-OutputArea").inner_text()
        cell.scroll_into_view_if_needed()
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        cell.screenshot(path=str(SCREENSHOT_DIR / f"{exercise.stem}_hint.png"))
    except Exception as exc:
        page.screenshot(path=str(SCREENSHOT_DIR / f"{exercise.stem}_hint.failure.png"))
        raise AssertionError(failure_report(page, cell, lab["log"])) from exc
