"""Chinese output has no ASCII space after full-width punctuation (``提示 1/3。这就是...``, not ``。 这``), and
the course map lines up its columns by display width (a Chinese character takes two terminal columns)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from course_lib import i18n
from course_lib.checks import CheckReport
from course_lib.i18n import FULLWIDTH_CLOSING, tidy_spacing
from course_lib.text_table import display_width

ROOT = Path(__file__).resolve().parent.parent
_CODE = re.compile(r"`[^`\n]*`")


def _zh_strings() -> list[tuple[str, str]]:
    found = []
    for path in sorted((ROOT / "translations" / "zh" / "strings").glob("*.po")):
        with open(path, "rb") as fh:
            for m in read_po(fh):
                text = m.string[0] if isinstance(m.string, tuple) else m.string
                if m.id and text:
                    found.append((m.id if isinstance(m.id, str) else m.id[0], text))
    return found


def test_no_chinese_string_puts_a_space_after_full_width_punctuation():
    """A translation ends a piece with 。 or ：, and code joins it to the next: the space after it must go, and
    emphasis must close before the punctuation (``**提示 1/3**。``), which CommonMark needs to end the bold."""
    bad = []
    for english, chinese in _zh_strings():
        prose = _CODE.sub("X", chinese)  # code spans keep their own spaces
        if re.search(rf"[{FULLWIDTH_CLOSING}](?:\*\*|\*|_)? ", prose) or re.search(rf"[{FULLWIDTH_CLOSING}] $", prose):
            bad.append((english[:60], chinese[:80]))
    assert bad == []


@pytest.mark.parametrize("text, tidy", [
    ("`read_file`（在 `make_read_file` 内部） 还没有写。 请写代码 （见上）。",
     "`read_file`（在 `make_read_file` 内部）还没有写。请写代码（见上）。"),
    ("工具注册表现在有： search_wiki, get_weather", "工具注册表现在有：search_wiki, get_weather"),
    ("提示：`a。 b` 保持原样。 然后", "提示：`a。 b` 保持原样。然后"),     # a code span is code
    ("<code>x。 y</code> 之后。 好", "<code>x。 y</code> 之后。好"),
    ("**提示 1/3**。这就是", "**提示 1/3**。这就是"),
    ("第一行。 \n第二行", "第一行。 \n第二行"),                        # the line break decides, not the space
])
def test_tidy_spacing_removes_the_joins_spaces_in_chinese_only(text, tidy):
    assert tidy_spacing(text) == tidy


def test_tidy_spacing_leaves_english_alone():
    english = "Hint 1 of 3. Click “Show hint 1 of 3” in the 💡 cell… then call (the tool) , then answer ."
    assert tidy_spacing(english) is english


def test_a_chinese_hint_and_check_report_have_no_space_after_full_width_punctuation(monkeypatch, tmp_path):
    from course_lib.hints import hints_for

    monkeypatch.setenv("COURSE_LANG", "zh")
    monkeypatch.setenv("COURSE_DATA_DIR", str(tmp_path))
    hints = hints_for(ROOT / "exercises" / "zh" / "01_tool_call_loop.ipynb")
    hints.reset()
    first = hints.next(terminal=True).text()
    assert first.startswith("提示 1/3。这就是第 01 课的五个步骤。"), first
    for _ in hints.steps:
        last = hints.next(terminal=True).text()
    assert "卡住了？完整的参考答案在 solutions/zh/01_tool_call_loop.ipynb" in last, last
    report = CheckReport("练习 05")
    report.check("读取 README.md", False, "它泄露了秘密。" + "它返回了文本而不是拒绝。")
    report.check("拒绝 ../secret", False, "`read_file`（在 `make_read_file` 内部） 还没有写。")
    assert "提示：它泄露了秘密。它返回了文本而不是拒绝。" in report.text()
    assert "`read_file`（在 `make_read_file` 内部）还没有写。" in report.text()
    assert "内部）还没有写" in report.html()


def test_the_course_map_lines_up_its_columns_by_display_width_in_both_languages(monkeypatch, capsys):
    """``course progress --map``: every row's exercise column starts at the same terminal column, counted as a
    terminal draws it (a Chinese character two columns, UAX #11), not as ``len`` counts. Measured on the real
    map: column 89 in both languages, also by the ``wcwidth`` package where it is installed."""
    from course_lib.cli import main as course

    for lang in ("en", "zh"):
        monkeypatch.setenv("COURSE_LANG", lang)
        course(["--lang", lang, "progress", "--map"])
        rows = [line for line in capsys.readouterr().out.splitlines() if re.match(r"(\d\d[ab]?|#)  ", line)]
        assert len(rows) == 16, rows                                   # the heading and 15 lessons
        starts = {display_width(r[:re.search(r"(分钟|分|min|h \d\d|time|时长)  ", r).end()]) for r in rows}
        assert len(starts) == 1, (lang, starts)
        if lang == "zh":
            assert len({len(r[:re.search(r"(分钟|分|时长)  ", r).end()]) for r in rows}) > 1  # len() would misalign
