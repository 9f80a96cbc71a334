"""Text tables that can hold Chinese pad by display width (course_lib.text_table.pad), issue 20.

For each table: its English output is the one the len()-padded code wrote (literal values, taken from main
before the change), and a row with Chinese text keeps the next column in the same display column.
"""
from __future__ import annotations

from course_lib.text_table import display_width


def _column(lines: list[str], marker: str) -> set[int]:
    """The display column where ``marker`` starts in each line."""
    return {display_width(line.split(marker)[0]) for line in lines}


def _trace():
    from course_lib.tracing import Trace

    t = Trace("demo", clock=iter([0.0, 0.1, 0.1, 0.3]).__next__)
    with t.span("Tools", "get_weather"):
        pass
    with t.span("工具", "查天气"):
        pass
    return t


def test_trace_text_and_timeline():
    t = _trace()
    lines = t.text().splitlines()
    assert lines[0] == " 1.    Tools :: Tools    get_weather"
    assert _column(lines, "::") == {13}
    timeline = t.timeline_text().splitlines()
    assert timeline[0] == " 1. Tools  get_weather  0.0 ms – 100.0 ms"
    assert timeline[1] == " 2. 工具   查天气       100.0 ms – 300.0 ms"  # times start at column 24 in both


def test_sequence_diagram_text():
    from course_lib.diagrams import Arrow, arrows_text

    lines = arrows_text([Arrow("User", "Agent", "hi", "request"), Arrow("用户", "Agent", "你好", "request")]).splitlines()
    assert lines[0] == " 1.     User -> Agent    hi"
    assert lines[1] == " 2.     用户 -> Agent    你好"


def test_permission_table():
    from course_lib.security import Permissions, ToolPermission

    table = Permissions({"read_file": ToolPermission(read=("docs",)), "读文件": ToolPermission(read=("文档",))})
    lines = table.text().splitlines()
    assert lines[1] == "read_file        docs                         -                            -          no"
    assert _column(lines[1:], " -  ") == {45}


def test_attack_outcome_rows():
    from course_lib.attack_lab import AttackOutcome

    rows = [repr(AttackOutcome("path-traversal", "files", True, True, "PathPolicy", detail="refused")),
            repr(AttackOutcome("路径穿越", "files", True, True, "路径策略", detail="refused"))]
    assert rows[0] == "✅ path-traversal       PathPolicy                 refused"
    assert _column(rows, "refused") == {51}  # ✅ takes two columns


def test_schema_side_by_side():
    from course_lib.tool_schemas import side_by_side

    text = side_by_side({"city": "Shanghai"}, {"city": "上海"}, titles=("by hand", "pydantic"), width=20)
    lines = text.splitlines()
    assert lines[0] == "by hand                pydantic"
    assert lines[3] == ' "city": "Shanghai"  |  "city": "上海"'
    wide = side_by_side({"城市": "上海" * 20}, {}, width=20).splitlines()
    assert all(display_width(line.split(" | ")[0]) <= 20 for line in wide if " | " in line)


def test_environment_and_preflight_lines():
    from course_lib.environment import Item
    from course_lib.preflight import Result

    assert Item("Python", "3.11.7", True).line() == "✅ Python                 3.11.7"
    assert display_width(Item("中文字体", "Noto", True).line().split("Noto")[0]) == 26
    assert Result("mock LLM", "pass", "ok", 0.25).line() == "✅ mock LLM    ok  (0.2 s)"
    assert display_width(Result("模拟模型", "pass", "ok", 0.25).line().split("ok")[0]) == 15


def test_protocol_layers_text():
    from course_lib.a2a_agents import protocol_layers

    text = protocol_layers().fallback_text.splitlines()
    assert text[0] == ("Function calling  LLM ↔ framework  like an instruction set: the CPU tells the board what to do "
                       "(lessons 01–06)")


def test_interview_overview_lines_up_with_chinese_topic_titles():
    from course_lib.interview.bank import load_bank

    english = load_bank(lang="en").overview().splitlines()
    assert english[0] == "topic                questions  easy  medium  hard  asked often"
    chinese = load_bank(lang="zh").overview().splitlines()
    assert any(any("\u4e00" <= ch <= "\u9fff" for ch in line) for line in chinese[1:-1])
    assert {display_width(line) for line in chinese} == {display_width(english[0])} == {63}


def test_column_headings_are_english_as_before_and_chinese_in_the_edition(monkeypatch):
    """The headings go through _() (the bank's: its language): English byte for byte as the literal f-strings
    wrote them on main before, Chinese under COURSE_LANG=zh, padded by display width like the cells."""
    from types import SimpleNamespace

    from course_lib.attack_lab import outcomes_table
    from course_lib.capstone import Capstone
    from course_lib.interview.bank import load_bank
    from course_lib.security import Permissions

    def headings() -> list[str]:
        return [Capstone.describe(SimpleNamespace(tools={})), outcomes_table([]).splitlines()[0],
                Permissions({}).text()]

    monkeypatch.setenv("COURSE_LANG", "en")
    assert headings() == [
        "tool                                   layer    from               permission retried  approval  output",
        "   attack               stopped by                 detail",
        "tool             read                         write                        programs   approval"]
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert headings() == [
        "工具                                   层       来源               权限       重试     审批      输出",
        "   攻击                 拦截层                     详情",
        "工具             可读                         可写                         程序       审批"]
    overview = load_bank(lang="zh").overview().splitlines()
    assert overview[0] == "主题                      题数  简单    中等  困难         高频"
    assert overview[-1] == "合计                        51     6      28    17           17"
