"""The instructor guide covers every planned lesson and gives both agendas and the pre-flight checklist."""
from __future__ import annotations

import re

from course_lib.course_map import exercises, lessons
from course_lib.notebooks import ROOT

GUIDE = (ROOT / "docs" / "instructor.md").read_text(encoding="utf-8")


def test_objectives_cover_lessons_00_to_12():
    rows = re.findall(r"^\| (\d\d) \| ", GUIDE, re.M)
    assert [f"{n:02d}" for n in range(13)] == sorted(set(rows))


def test_every_lesson_on_disk_is_in_the_guide():
    for lesson in lessons():
        assert re.search(rf"^\| {lesson.number} \| ", GUIDE, re.M), lesson


def test_agendas_checklist_demos_and_mistakes():
    for heading in ("### One day", "### Two days", "## Before the day: pre-flight checklist", "## What to demo live",
                    "## The commonest mistakes, per exercise"):
        assert heading in GUIDE
    assert "course preflight" in GUIDE and "course slides" in GUIDE and "course reset" in GUIDE
    times = re.findall(r"^\| (\d\d):(\d\d) \|", GUIDE, re.M)
    assert len(times) >= 20, "agendas give clock times"


def test_exercise_01_mistakes_match_its_check_hints():
    """The guide's advice for exercise 01 is what the check says (one source of truth, two readers)."""
    from course_lib.checks import tool_call_loop

    assert exercises()[0].key == "01_tool_call_loop"
    for fragment in ("must be a response to a preceding message", "did not have response messages"):
        assert fragment in " ".join(GUIDE.split()) and fragment in " ".join(tool_call_loop._HINTS_400)
