"""Figures draw Chinese text with a CJK font, never as boxes (issue 20: "figures render CJK text ... no tofu").

matplotlib warns "Glyph N (...) missing from font(s) ..." for each character no font of the text's family list
has, and draws a box. ``course_lib.diagrams`` puts the installed CJK fonts after the course's font as per-glyph
fallbacks; the figure standard turns the warning into a ``glyph`` problem, so an nbval run fails a Chinese
lesson's cell whose figure would show boxes. Without a CJK font on this machine the tests that need one are
skipped and say how to get one (``make browser`` installs fonts-noto-cjk on Debian/Ubuntu).
"""
from __future__ import annotations

import io
import warnings

import matplotlib
import pytest

from course_lib import diagrams
from course_lib.diagrams import Arrow, figure, sequence_diagram
from course_lib.figure_standard import audit, missing_cjk_glyphs

diagrams.setup_matplotlib()
CJK = diagrams.installed_cjk_fonts()
needs_cjk_font = pytest.mark.skipif(not CJK, reason="no CJK font installed (fonts-noto-cjk: `make browser` as root on "
                                                    "Debian/Ubuntu, or any of course_lib.diagrams.CJK_FONTS)")


def _chinese_bar_chart():
    fig = figure(6, 2.4, text="关键词规则：3/8，function calling：8/8")
    ax = fig.add_subplot()
    ax.barh(["关键词规则", "function calling\n（离线 mock）"], [3, 8])
    ax.set_xlabel("分派给正确工具的请求数")
    ax.set_title("同样的 8 个请求：关键词规则 vs function calling", fontsize=10)
    fig.tight_layout()
    return fig


def _missing_glyphs(fig) -> list[str]:
    """The "Glyph ... missing" warnings drawing ``fig`` to a PNG raises (what a learner's screen would show)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig.savefig(io.BytesIO(), format="png")
    return [str(w.message) for w in caught if "missing from font" in str(w.message)]


@needs_cjk_font
def test_the_cjk_fonts_are_per_glyph_fallbacks_after_the_course_font():
    family = matplotlib.rcParams["font.family"]
    assert family[0] == "sans-serif" and family[1:] == CJK  # Latin keeps its font, Chinese falls back


@needs_cjk_font
def test_a_figure_with_chinese_labels_draws_every_character():
    assert _missing_glyphs(_chinese_bar_chart()) == []
    assert [p for p in audit(_chinese_bar_chart()) if p.rule == "glyph"] == []


@needs_cjk_font
def test_a_sequence_diagram_with_chinese_messages_draws_every_character():
    fig = sequence_diagram(["用户", "应用", "LLM"], [Arrow("用户", "应用", "上海天气怎么样？"),
                                                   Arrow("应用", "LLM", "POST /chat/completions"),
                                                   Arrow("LLM", "应用", "get_weather({\"city\": \"上海\"})", "response")],
                           title="一次工具调用")
    assert _missing_glyphs(fig) == []


@pytest.mark.filterwarnings("ignore:Glyph .* missing from font")
def test_without_the_fallback_the_same_figure_shows_boxes_and_the_standard_says_so():
    """The check can fail: with only the Latin font, matplotlib warns, and the figure standard reports it."""
    with matplotlib.rc_context({"font.family": ["DejaVu Sans"]}):
        fig = _chinese_bar_chart()
        warned = _missing_glyphs(fig)
        assert any("missing from font(s) DejaVu Sans" in w for w in warned)
        problems = missing_cjk_glyphs(warned, fonts_installed=True)
        audited = [p.rule for p in audit(fig)]
    assert problems and problems[0].rule == "glyph" and "'关' (U+5173) is drawn as a box" in problems[0].message
    assert len({p.message for p in problems}) == len(problems)  # each character once
    assert ("glyph" in audited) is bool(CJK)  # the standard reports it where a CJK font could have drawn it


def test_emoji_and_machines_without_a_cjk_font_are_not_glyph_problems():
    boxed = ["Glyph 9989 (\\N{WHITE HEAVY CHECK MARK}) missing from font(s) DejaVu Sans.",
             "Glyph 19978 (\\N{CJK UNIFIED IDEOGRAPH-4E0A}) missing from font(s) DejaVu Sans."]
    assert [p.message[:3] for p in missing_cjk_glyphs(boxed, fonts_installed=True)] == ["'上'"]
    assert missing_cjk_glyphs(boxed, fonts_installed=False) == []
