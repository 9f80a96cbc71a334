"""The course map is derived from the lessons' first cells, and every lesson follows that convention."""
from __future__ import annotations

import re

import nbformat
import pytest

from course_lib.course_map import course_map, exercises, lessons, minutes_in
from course_lib.notebooks import ROOT

LESSONS = lessons()


def test_lessons_are_discovered_in_order():
    numbers = [l.number for l in LESSONS]
    assert numbers[:2] == ["00", "01"] and numbers == sorted(numbers)
    on_disk = sorted([*(ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"), *(ROOT / "notebooks").glob("[0-9][0-9][a-z]_*.ipynb")])
    assert [p.name for p in on_disk] == [l.path.name for l in LESSONS]
    # an inserted lesson keeps its place: 10 < 10a < 11
    if any(l.number == "10a" for l in LESSONS):
        assert numbers.index("10a") == numbers.index("10") + 1 == numbers.index("11") - 1


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda l: l.path.stem)
def test_first_cell_gives_title_time_and_place(lesson):
    text = next(c.source for c in nbformat.read(str(lesson.path), as_version=4).cells if c.cell_type == "markdown")
    assert re.search(rf"^# Lesson {lesson.number} · \S", text, re.M), "first line: `# Lesson NN · Title`"
    assert lesson.minutes and 5 <= lesson.minutes <= 180, "a **Time** row such as `about 45 minutes`"
    assert "**Place in the course**" in text, "a **Place in the course** row (previous / next lesson)"
    assert lesson.goal, "a **Goal.** paragraph"


@pytest.mark.parametrize("exercise", exercises(), ids=lambda e: e.key)
def test_exercises_give_title_and_time(exercise):
    assert exercise.title and not exercise.title.endswith(".ipynb")
    assert exercise.minutes, "the exercise's first cell gives `**Time:** about N minutes`"
    assert exercise.solution.exists()


def test_lesson_01_facts():
    l01 = next(l for l in LESSONS if l.number == "01")
    assert (l01.title, l01.minutes) == ("Function calling", 45)
    assert [e.key for e in l01.exercises] == ["01_tool_call_loop"]
    assert l01.goal.startswith("Run the five steps of a tool call by hand")


def test_map_text_and_html(monkeypatch, tmp_path):
    monkeypatch.setenv("COURSE_DATA_DIR", str(tmp_path))
    from course_lib import progress

    progress.record("01_tool_call_loop", True, [])
    m = course_map()
    assert re.search(r"^01 +Function calling", m.text(), re.M) and "✅" in m.text()  # the column fits "10a"
    assert re.search(r"^10a +Securing remote MCP", m.text(), re.M)
    html = m._repr_html_()
    assert "href='01_function_calling.ipynb'" in html and "href='../exercises/01_tool_call_loop.ipynb'" in html
    assert m.total_minutes >= sum(l.minutes for l in LESSONS)


@pytest.mark.parametrize("text, minutes", [
    ("| **Time** | about 20 minutes |", 20), ("**Time:** about 15 minutes", 15), ("| **Time** | 30–40 min |", 40),
    ("| **Time** | 1 hour |", 60), ("| **Time** | 1.5 h |", 90), ("| **Time** | soon |", None), ("", None),
])
def test_minutes_in(text, minutes):
    assert minutes_in(text) == minutes


def test_a_goal_sentence_runs_past_a_quoted_question():
    """zh lesson 01's goal quotes *"上海天气怎么样？"*: the map cut it there (`在课程的贯穿示例 *"上海天气怎么样？`)."""
    from course_lib.course_map import _goal

    assert _goal('**目标。** 在示例 *"上海天气怎么样？"* 上走完五个步骤。然后是别的。') == '在示例 *"上海天气怎么样？"* 上走完五个步骤。'
    assert _goal("**目标。** 第一句。第二句。") == "第一句。"
    assert _goal('**Goal.** Walk through *"What is the weather?"* by hand. Then more.') == \
        'Walk through *"What is the weather?"* by hand.'
