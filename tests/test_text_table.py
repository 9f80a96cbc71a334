"""Tables align by display width (CJK and emoji take two columns) and show markdown as formatting, never as marks."""
from __future__ import annotations

import doctest
import nbformat
import pytest

import course_lib.text_table as text_table
from course_lib.course_map import course_map
from course_lib.text_table import Table, display_width, inline_markdown_html, inline_markdown_text, pad


def test_docstring_examples():
    result = doctest.testmod(text_table)
    assert result.attempted >= 4 and result.failed == 0


@pytest.mark.parametrize("text, width", [
    ("Shanghai", 8), ("上海", 4), ("帮我查一下上海的天气", 20), ("✅", 2), ("💡 hint", 7), ("ｆｕｌｌ", 8),
    ("e\u0301", 1),          # e + combining acute accent
    ("a\u200db", 2),         # a zero-width joiner takes no column
])
def test_display_width(text, width):
    assert display_width(text) == width


def test_pad_keeps_columns_aligned_whatever_the_script():
    rows = ["What's the weather in Shanghai?", "帮我查一下上海的天气", "東京の天気は？"]
    ends = {display_width(pad(r, 40) + "|") for r in rows}
    assert ends == {41}
    assert pad("too long for it", 4) == "too long for it"
    assert pad("上海", 6, ">") == "  上海" and pad("ab", 5, "^") == " ab  "


def test_text_table_columns_line_up_in_display_columns():
    t = Table(["city", "weather"], [["上海", "**sunny**"], ["Shanghai", "`rain`"], ["東京", "*cloudy*"]])
    lines = t.text().splitlines()
    # the second column starts at the same display column on every line
    starts = {display_width(line[: line.index(word)]) for line, word in zip(lines, ["weather", "sunny", "rain", "cloudy"])}
    assert starts == {10}
    assert "**" not in t.text() and "`" not in t.text() and "*" not in t.text()
    assert not any(line.endswith(" ") for line in lines)


def test_table_html_is_a_real_table_with_markdown_rendered():
    t = Table(["lesson", "goal"], [["01", "see *why*, a **registry**, `json.loads` and [the docs](https://x.org/?a=1&b=2)"]])
    page = t._repr_html_()
    assert page.startswith("<table><thead><tr><th")
    assert "<i>why</i>" in page and "<b>registry</b>" in page and "<code>json.loads</code>" in page
    assert "<a href='https://x.org/?a=1&amp;b=2' target='_self'>the docs</a>" in page
    assert "*" not in page and "`" not in page


def test_markdown_never_becomes_raw_html():
    assert inline_markdown_html("<script>x</script> **b**") == "&lt;script&gt;x&lt;/script&gt; <b>b</b>"
    assert inline_markdown_text("`**kwargs` and `__init__`") == "**kwargs and __init__"
    assert inline_markdown_html("`**kwargs`") == "<code>**kwargs</code>"
    assert inline_markdown_text("2 * 3 * 4") == "2 * 3 * 4"


def test_a_row_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match="2 cells"):
        Table(["a", "b"], [["only one"]])


def _copy_course(tmp_path, titles: dict[str, str]):
    """A course copy whose lessons have the given titles (Chinese ones included)."""
    for sub in ("notebooks", "exercises"):
        (tmp_path / sub).mkdir()
    (tmp_path / "notebooks" / "interview").mkdir()
    for number, title in titles.items():
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_markdown_cell(f"# Lesson {number} · {title}\n\n**Goal.** Learn *why* a "
                                                  f"**registry** needs `json.loads`.\n\n| **Time** | about 30 minutes |")]
        nbformat.write(nb, str(tmp_path / "notebooks" / f"{number}_x.ipynb"))
    return tmp_path


def test_course_map_with_chinese_titles_is_aligned_and_free_of_markdown(tmp_path):
    root = _copy_course(tmp_path, {"00": "欢迎", "01": "函数调用 Function calling", "02": "Tool registry"})
    m = course_map(root, with_progress=False)
    lines = m.text().splitlines()
    time_ends = {display_width(line[: line.index("min") + 3]) for line in lines[1:4]}
    assert len(time_ends) == 1, m.text()
    page = m._repr_html_()
    assert "<i>why</i>" in page and "<b>registry</b>" in page and "<code>json.loads</code>" in page
    assert "**" not in page and "`" not in page


def test_the_real_course_map_html_shows_no_markdown_marks():
    page = course_map(with_progress=False)._repr_html_()
    assert page.count("<tr>") == len(course_map(with_progress=False).lessons) + 1
    body = page.replace("**kwargs", "")
    assert "**" not in body and "`" not in body and " *" not in body


@pytest.mark.parametrize("text, width, expected", [
    ("abcdef", 4, "abc…"), ("abcd", 4, "abcd"), ("上海天气", 5, "上海…"), ("上海天气", 6, "上海…"),
    ("上海天气", 8, "上海天气"), ("a上海", 3, "a…"), ("", 3, ""),
])
def test_cut_counts_display_columns(text, width, expected):
    assert text_table.cut(text, width) == expected
    assert display_width(text_table.cut(text, width)) <= width
    ascii_text = "x" * 30
    assert text_table.cut(ascii_text, 10) == ascii_text[:9] + "…"  # what the len() cut wrote
