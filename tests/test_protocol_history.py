"""Lesson 00's timeline says what course_lib.protocol_history holds (one set of dates)."""
from __future__ import annotations

import nbformat

from course_lib.notebooks import ROOT
from course_lib.protocol_history import TIMELINE


def test_lesson_00_shows_every_milestone_with_its_source():
    nb = nbformat.read(ROOT / "notebooks" / "00_welcome.ipynb", as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    for m in TIMELINE:
        assert f"({m.when})" in text, m
        assert m.source.split(",")[0] in text, m


def test_the_timeline_is_in_order_and_sourced():
    assert [m.when for m in TIMELINE] == sorted(m.when for m in TIMELINE)
    assert all(m.source and m.who for m in TIMELINE)


def test_the_timeline_text_speaks_the_learners_language(monkeypatch):
    """The interview demo protocol_origins printed the milestones in English in the Chinese edition (issue 20);
    dates, names and backticked identifiers stay."""
    from course_lib.protocol_history import timeline_text

    monkeypatch.setenv("COURSE_LANG", "en")
    assert timeline_text().splitlines()[2] == "2024-11-25  Anthropic                 the Model Context Protocol (MCP)"
    monkeypatch.setenv("COURSE_LANG", "zh")
    lines = timeline_text().splitlines()
    assert lines[1] == "2023-11-06  OpenAI                    `tools` / `tool_calls` 取代 `functions`，支持并行调用"
    assert lines[4] == "2025-06-23  Google, Linux Foundation  A2A 成为 Linux 基金会的项目"
