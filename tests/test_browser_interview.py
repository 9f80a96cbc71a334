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
import re
import time
from pathlib import Path

import pytest

from browser_support import (CHROMIUM, CHROMIUM_ARGS, SCREENSHOT_DIR, STEP_TIMEOUT, count_code_cells, jupyterlab,
                             open_notebook, require_browser, run_all_cells)
from course_lib.notebooks import ROOT

PRACTICE = ROOT / "notebooks" / "interview" / "00_practice.ipynb"
# The model answer's first heading; matched as a heading because answers and feedback quote the same words.
ANSWER_HEADING = re.compile(r"^In one sentence\.?$")
LEARNER = "browser-candidate"
playwright_api = require_browser()


@pytest.fixture
def lab(tmp_path):
    with jupyterlab(tmp_path, [PRACTICE], {"COURSE_LEARNER": LEARNER}) as server:
        server["url"] = f"{server['base']}/lab/tree/notebooks/interview/{PRACTICE.name}?token={server['token']}"
        yield server


def _card_status(progress: Path, card: str, timeout: float = 30.0) -> str | None:
    """The card's saved status once the kernel has written it ("known"), or the last seen at ``timeout``."""
    deadline, status = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        if progress.exists():
            status = json.loads(progress.read_text(encoding="utf-8"))["cards"].get(card, {}).get("status")
            if status == "known":
                break
        time.sleep(0.1)
    return status


def test_flashcards_and_mock_interview_are_usable_in_jupyterlab(lab):
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(60_000)
        try:
            open_notebook(page, lab["url"])
            run_all_cells(page, count_code_cells(PRACTICE))
            body = page.locator(".jp-Notebook").inner_text()
            assert "Error displaying widget" not in body and "Traceback" not in body

            # Flashcards: answer, reveal, mark "I knew it"; the mark reaches the learner's file.
            card = page.locator(".widget-vbox").filter(has=page.locator("button", has_text="Show answer")).first
            card.scroll_into_view_if_needed()
            assert "card 1 / 10" in card.inner_text()
            card.locator("textarea").fill("The model returns tool_calls; the app runs the tool and replies "
                                          "with a role tool message carrying the tool_call_id.")
            card.locator("button", has_text="Show answer").click()
            card.locator("strong", has_text=ANSWER_HEADING).first.wait_for()
            card.screenshot(path=str(SCREENSHOT_DIR / "interview_flashcard.png"))
            card.locator("text=/made \\d of 5 framework points/").wait_for()  # a second widget update
            card.locator("button", has_text="I knew it").click()
            card.locator("text=card 2 / 10").wait_for()
            progress = lab["state"] / "interview" / f"{LEARNER}.json"
            assert _card_status(progress, "fc-five-steps") == "known"

            # Mock interview: Start, the countdown ticks by itself, answer five questions, see the score.
            mock = page.locator(".widget-vbox").filter(has=page.locator("button", has_text="Start")).first
            mock.scroll_into_view_if_needed()
            mock.locator("button", has_text="Start").click()
            mock.locator("text=question 1 / 5").wait_for()
            # The HTML widget replaces its content on every update: watch its (stable) container.
            clock = mock.locator(".widget-html", has=page.locator("b", has_text=re.compile(r"^\d+ s$")))
            first = clock.inner_text()
            page.wait_for_function("([el, t]) => el.innerText !== t", arg=[clock.element_handle(), first],
                                   timeout=STEP_TIMEOUT * 1000)  # no click needed: the countdown thread updates the widget
            for i in range(5):
                mock.locator("textarea").fill("retry with backoff and jitter, a fallback, a timeout, tool_call_id")
                mock.locator("button", has_text="Submit").click()
                mock.locator("strong", has_text=ANSWER_HEADING).first.wait_for()
                mock.locator("button", has_text="See the score" if i == 4 else "Next question").click()
            mock.locator("text=Mock interview: 5 questions, score").wait_for()
            mock.scroll_into_view_if_needed()
            page.screenshot(path=str(SCREENSHOT_DIR / "interview_practice.png"))
        except Exception:
            page.screenshot(path=str(SCREENSHOT_DIR / "interview_practice.failure.png"))
            raise
        finally:
            browser.close()
