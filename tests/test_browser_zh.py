"""The Chinese lesson 00 in a real browser (issue 20: "the browser test screenshots one Chinese lesson").

JupyterLab serves a copy of ``notebooks/zh/00_welcome.ipynb`` (its kernel starts in ``notebooks/zh``, so the
course speaks Chinese, as under nbval); headless Chromium runs all its cells from the Run menu and the test checks
what a learner reads: the rendered Chinese headings, the mock's Chinese reply to the Chinese request, no widget
error, the figure loaded, and that the page's font really draws Chinese (a canvas drawing of 上海 in the heading's
font differs from the drawing of two characters no font has, i.e. the boxes). Full-length screenshots go to
``_build/browser/zh/00_welcome-KK.png`` (or ``$COURSE_SCREENSHOT_DIR/zh``).

Skipped, with the reason, when Chromium or Playwright is missing, or no CJK font is installed (``make browser``
installs Chromium and fonts-noto-cjk).
"""
from __future__ import annotations

import shutil
import subprocess

import pytest

from browser_support import (CHROMIUM, CHROMIUM_ARGS, CURRENT_PANEL, SCREENSHOT_DIR, STEP_TIMEOUT, count_code_cells,
                             failure_report, full_length_screenshots, jupyterlab, open_notebook, require_browser,
                             run_all_in_panel, saved_errors, widget_problems)
from course_lib.notebooks import ROOT

LESSON = ROOT / "notebooks" / "zh" / "00_welcome.ipynb"
# Rendered markdown (the catalog's headings) and a kernel output of this run (the mock's reply to "你好")
EXPECTED_TEXT = ("第 00 课 · 欢迎来到 Agent Tool Systems", "1. 这门课怎么学", "4. 硬编码阶段：关键词规则挑选工具",
                 "你好！有什么可以帮你？", "上海天气怎么样？")
playwright_api = require_browser()


def _has_cjk_font() -> bool:
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return False
    out = subprocess.run([fc_list, ":lang=zh", "family"], capture_output=True, text=True, timeout=30).stdout
    return bool(out.strip())


# Chromium draws 上海 with a font that has it, else as boxes; two private-use characters are boxes in any font.
DRAWS_CHINESE = """(el) => {
    const family = getComputedStyle(el).fontFamily;
    const canvas = document.createElement('canvas');
    canvas.width = 160; canvas.height = 60;
    const ctx = canvas.getContext('2d');
    const draw = (text) => {
        ctx.clearRect(0, 0, canvas.width, canvas.height);
        ctx.font = '32px ' + family;
        ctx.fillText(text, 4, 44);
        return Array.from(ctx.getImageData(0, 0, canvas.width, canvas.height).data).join(',');
    };
    const boxes = draw('\\uE000\\uE001');
    // control: two other characters no font has draw the same boxes, so 上海 drawn as boxes would be caught
    return {family, chinese: draw('上海') !== boxes, ink: draw('上海') !== draw(''),
            boxesAlike: draw('\uE002\uE003') === boxes};
}"""


@pytest.mark.skipif(not _has_cjk_font(), reason="no CJK font installed (fonts-noto-cjk: `make browser` as root on "
                                                "Debian/Ubuntu): the screenshot would show boxes")
def test_chinese_lesson_00_renders_chinese_in_jupyterlab(tmp_path):
    with jupyterlab(tmp_path, [LESSON]) as lab, playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(60_000)
        try:
            open_notebook(page, f"{lab['base']}/lab/tree/notebooks/zh/{LESSON.name}?reset&token={lab['token']}")
            run_all_in_panel(page, count_code_cells(LESSON))
            assert widget_problems(page) == []
            page.wait_for_function("""(panel) => [...document.querySelectorAll(panel + " .jp-OutputArea-output img")]
                .every(img => img.complete && img.naturalWidth > 0)""", arg=CURRENT_PANEL,
                                   timeout=STEP_TIMEOUT * 1000)
            text = page.locator(f"{CURRENT_PANEL} .jp-Notebook").inner_text()
            missing = [t for t in EXPECTED_TEXT if t not in text]
            assert missing == [], f"not on the page: {missing}"
            heading = page.locator(f"{CURRENT_PANEL} .jp-RenderedMarkdown h2", has_text="这门课怎么学").first
            drawn = heading.evaluate(DRAWS_CHINESE)
            assert drawn["boxesAlike"], "the canvas check cannot tell boxes from text on this browser"
            assert drawn["ink"] and drawn["chinese"], f"the heading's font ({drawn['family']}) draws 上海 as boxes"
            shots = full_length_screenshots(page, SCREENSHOT_DIR / "zh", LESSON.stem)
            page.locator(f"{CURRENT_PANEL} .jp-Notebook").click()
            page.keyboard.press("Control+s")  # saved with this run's outputs: an error output shows in the file
            page.wait_for_function("(panel) => !document.querySelector(panel + ' .jp-mod-dirty')", arg=CURRENT_PANEL,
                                   timeout=30_000)
        except Exception as exc:
            SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOT_DIR / "zh_00_welcome.failure.png"))
            raise AssertionError(failure_report(page, None, lab["log"])) from exc
        finally:
            browser.close()
        assert saved_errors(lab["root"] / "notebooks" / "zh" / LESSON.name) == []
    assert len(shots) >= 2 and shots[0].stat().st_size > 20_000  # the title and prose, then the rest
