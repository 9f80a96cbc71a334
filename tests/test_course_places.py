"""Each lesson's **Place in the course** says where it stands among all the lessons, derived from the course map
(issue 20 item 3: every lesson of both editions said "of 12" when there were 15).

``course_map.set_places`` writes it into the English lessons (``course notebooks clean``; ``check`` fails on a
stale one); ``course notebooks extract --lang zh`` carries a change that touches only the place into the catalog
without a translator, and ``build`` writes the Chinese place from the map.
"""
from __future__ import annotations

import shutil

import nbformat
import pytest

from course_lib import course_map as cm
from course_lib import translation as tr
from course_lib.notebooks import ROOT

NUMBERS = cm.lesson_numbers()


def _first_cell(path) -> str:
    return next(c.source for c in nbformat.read(str(path), as_version=4).cells if c.cell_type == "markdown")


def test_the_count_is_the_number_of_lessons_on_disk():
    assert len(NUMBERS) == len(list((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb"))) == 15
    assert cm.place_label("00", NUMBERS) == "lesson 00 (1 of 15)"
    assert cm.place_label("06b", NUMBERS) == "lesson 06b (8 of 15)"
    assert cm.place_label("10a", NUMBERS) == "lesson 10a (13 of 15)"
    assert cm.place_label("12", NUMBERS) == "lesson 12 (15 of 15)"
    assert cm.place_label("10a", NUMBERS, "zh") == "第 10a 课（15 课中的第 13 课）"
    with pytest.raises(ValueError):
        cm.place_label("13", NUMBERS)


@pytest.mark.parametrize("number", NUMBERS)
def test_every_lesson_of_both_editions_says_its_derived_place(number):
    english = next(p for p in cm.numbered(ROOT / "notebooks") if cm.number_of(p) == number)
    text = _first_cell(english)
    assert f"| **Place in the course** | {cm.place_label(number, NUMBERS)} · " in text
    assert " of 12 " not in text and "between 10 and 11" not in text
    chinese = _first_cell(ROOT / "notebooks" / "zh" / english.name)
    assert f"| **在课程中的位置** | {cm.place_label(number, NUMBERS, 'zh')} · " in chinese
    assert "共 12 课" not in chinese and "位于 10 和 11 之间" not in chinese
    assert cm.set_places(check=True) == []


def test_with_place_reads_the_old_forms_and_touches_nothing_else():
    row = "| **Place in the course** | lesson 03 of 12 · previous: [02 · lesson 02 of 12](02.ipynb) |"
    assert cm.with_place(row, ["00", "01", "02", "03"]) == (
        "| **Place in the course** | lesson 03 (4 of 4) · previous: [02 · lesson 02 of 12](02.ipynb) |")
    assert cm.with_place("lesson 03 of 12, said in prose", ["03"]) == "lesson 03 of 12, said in prose"
    zh = "| **在课程中的位置** | 第 10a 课（位于 10 和 11 之间） · 上一课：..."
    assert cm.with_place(zh, ["10", "10a", "11"], "zh") == "| **在课程中的位置** | 第 10a 课（3 课中的第 2 课） · 上一课：..."
    assert cm.with_place(row, ["00"]) == row  # a number the map does not have: left as written


def test_a_new_lesson_renumbers_both_editions_without_a_translator(tmp_path):
    root = tmp_path / "course"
    (root / "notebooks").mkdir(parents=True)
    (root / "translations" / "zh" / "notebooks").mkdir(parents=True)
    for name in ("00_welcome.ipynb", "01_function_calling.ipynb"):
        shutil.copy(ROOT / "notebooks" / name, root / "notebooks" / name)
        shutil.copy(ROOT / "translations" / "zh" / "notebooks" / name.replace(".ipynb", ".po"),
                    root / "translations" / "zh" / "notebooks" / name.replace(".ipynb", ".po"))
    assert cm.set_places(root) == [root / "notebooks" / "00_welcome.ipynb", root / "notebooks" / "01_function_calling.ipynb"]
    assert "lesson 01 (2 of 2)" in _first_cell(root / "notebooks" / "01_function_calling.ipynb")
    shutil.copy(ROOT / "notebooks" / "02_tool_schemas.ipynb", root / "notebooks" / "02_tool_schemas.ipynb")
    assert len(cm.set_places(root, check=True)) == 3 and len(cm.set_places(root)) == 3
    assert "lesson 01 (2 of 3)" in _first_cell(root / "notebooks" / "01_function_calling.ipynb")
    english = root / "notebooks" / "01_function_calling.ipynb"
    assert not tr.status(english, "zh", root).complete  # the English cell changed: its entry is stale
    assert tr.extract(english, "zh", root).complete  # only the place changed: carried over, not fuzzy
    cat = tr.read_catalog(tr.catalog_path(english, "zh", root), "zh")
    first = next(m for m in cat if m.id and "**Place in the course**" in m.id)
    assert "lesson 01 (2 of 3)" in first.id and "第 01 课（3 课中的第 2 课）" in first.string and not first.fuzzy
    built = next(c.source for c in tr.build(english, "zh", root).cells if c.cell_type == "markdown")
    assert "第 01 课（3 课中的第 2 课）" in built
