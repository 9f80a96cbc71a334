"""Seed 000 §5's scale guide as rules: each rule, its boundary, and the reasons it gives."""
from __future__ import annotations

import pytest

from course_lib.scale_guide import (EXAMPLE_SCENARIOS, NAME_WIDTH, RULES, STAGES, Scenario, advice_table, recommend,
                                    scale_guide_figure, scale_guide_widget)


@pytest.mark.parametrize("scenario, stage", [
    (Scenario("few own tools", tools=9), "function_calling"),
    (Scenario("ten tools", tools=10), "mcp"),  # seed Q2: "< 10 internal tools -> function calling"
    (Scenario("two hosts", tools=3, hosts=2), "mcp"),
    (Scenario("vendor tools", tools=3, third_party_tools=True), "mcp"),
    (Scenario("two agents, one team", tools=3, agents=2), "function_calling"),
    (Scenario("two agents, one team, shared tools", tools=3, hosts=2, agents=2), "mcp"),
    (Scenario("two agents, two teams", tools=3, agents=2, other_owners=True), "a2a_mcp"),
    (Scenario("three agents", tools=3, agents=3), "a2a_mcp"),
    (Scenario("one agent of another team is still one agent", tools=3, other_owners=True), "function_calling"),
])
def test_each_rule_and_its_boundary(scenario, stage):
    assert recommend(scenario).stage.key == stage


def test_reasons_name_the_facts_that_decided():
    advice = recommend(Scenario("mixed", tools=12, hosts=2, third_party_tools=True))
    assert advice.level == 1
    assert advice.reasons == [
        "2 hosts use the same tools: one MCP server instead of 2 integrations",
        "third-party tools: their owners run an MCP server, you connect to it",
        f"12 tools (>= {RULES['many_tools']}): group them into servers and discover them with tools/list"]
    small = recommend(Scenario("small", tools=1))
    assert small.reasons == ["1 tool (< 10), one host, all your own: send their JSON Schemas with each request; "
                             "nothing else to run"]
    assert "2 agents of one team" in recommend(Scenario("pair", agents=2)).text()


def test_examples_cover_the_three_stages_in_order():
    levels = [recommend(s).level for s in EXAMPLE_SCENARIOS]
    assert levels == sorted(levels) and set(levels) == {0, 1, 2}
    assert [s.key for s in STAGES] == ["function_calling", "mcp", "a2a_mcp"]


def test_pictures_and_widget_have_the_table_as_text():
    table = advice_table()
    assert len(table.splitlines()) == len(EXAMPLE_SCENARIOS)
    assert scale_guide_figure().fallback_text == table
    widget = scale_guide_widget(Scenario("my team's assistant", tools=6, hosts=2)).text
    assert table not in widget, "the example table is the figure's; lesson 12 shows it once"
    assert widget.endswith(recommend(Scenario("my team's assistant", tools=6, hosts=2)).text())


def test_advice_table_never_cuts_a_name_mid_word():
    table = advice_table()
    assert "a coding agent, an IDE and a desktop assistant sharing tools " in table   # 60 characters fit whole
    long = Scenario("a very long scenario name about an assistant with tools shared by many hosts", tools=3, hosts=3)
    line = advice_table([long, EXAMPLE_SCENARIOS[0]]).splitlines()[0]
    name = line.split(" -> ")[0].rstrip()
    assert name.endswith("…") and len(name) <= NAME_WIDTH and long.name.startswith(name[:-1])
    assert long.name[len(name) - 1] == " ", "shortened at a word boundary"


def test_a_scenario_must_make_sense():
    with pytest.raises(ValueError):
        Scenario("nobody", agents=0)


def test_the_advice_table_is_unchanged_in_english_and_lines_up_in_chinese(monkeypatch):
    """Widths are display columns (text_table): ASCII rows are what the len()-padded table wrote; a Chinese
    name (two columns a character) keeps every `->` in one column, and the reasons and names are Chinese."""
    from course_lib.text_table import display_width

    monkeypatch.setenv("COURSE_LANG", "en")
    english = advice_table().splitlines()
    assert english[0] == ("a weather chatbot                                            -> function_calling 2 tools "
                          "(< 10), one host, all your own: send their JSON Schemas with each request; nothing else to run")
    monkeypatch.setenv("COURSE_LANG", "zh")
    chinese = advice_table().splitlines()
    assert chinese[0].startswith("一个天气聊天机器人")
    assert "3 个宿主使用同一批工具：一个 MCP 服务器，而不是 3 套集成" in chinese[2]
    assert {display_width(ln.split(" -> ")[0]) for ln in chinese} == {41}
    mine = advice_table([Scenario("我们团队的助手", tools=6, hosts=2), Scenario("天气" * 40)]).splitlines()
    assert [display_width(ln.split(" -> ")[0]) for ln in mine] == [NAME_WIDTH] * 2
    assert mine[1].startswith("天气" * 14 + "天…  -> ")  # 59 columns, padded to 60


def test_the_staircase_and_the_widget_speak_chinese_in_chinese(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert scale_guide_figure().title == "Seed 000 §5：什么规模用哪一层"
    assert recommend(Scenario("我们团队的助手", tools=6, hosts=2)).text() == (
        "我们团队的助手 -> MCP：标准的工具接口\n  - 2 个宿主使用同一批工具：一个 MCP 服务器，而不是 2 套集成")
    assert recommend(Scenario("x", tools=1)).reasons[0].startswith("1 个工具（< 10），一个宿主")
    assert scale_guide_widget().text.startswith("在 JupyterLab 里试试这个规模指南")
    assert [s.key for s in STAGES] == ["function_calling", "mcp", "a2a_mcp"]  # keys are code, never translated
