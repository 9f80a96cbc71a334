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
