"""Slides build for every lesson with nbconvert's reveal.js exporter, from metadata or derived from headings."""
from __future__ import annotations

import html
import re

import nbformat
import pytest

from course_lib import cli, slides
from course_lib.course_map import lessons
from course_lib.notebooks import clean, read

LESSONS = lessons()


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda l: l.path.stem)
def test_slides_build_for_every_lesson(lesson, tmp_path):
    target = slides.build_slides(lesson.path, tmp_path)
    assert target == tmp_path / f"{lesson.path.stem}.slides.html"
    page = target.read_text(encoding="utf-8")
    nb = read(lesson.path)
    outline = slides.outline(nb)
    assert outline[0][0] == "slide" and outline[0][1].startswith(f"# Lesson {lesson.number}")
    assert page.count("<section") >= len(outline), "one reveal.js section per slide and subslide"
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    for _, line in outline:
        words = re.sub(r"[#`*]", "", line).strip()[:30]
        assert words in text, f"slide {line!r} is missing from the deck"
    assert "Reveal.initialize" in page and f"<title>Lesson {lesson.number}" in page
    assert "application/vnd.jupyter.widget-view+json" not in page


@pytest.mark.parametrize("name", ["00_welcome", "01_function_calling"])
def test_lessons_00_and_01_carry_slide_metadata_on_every_cell(name):
    nb = nbformat.read(str(slides.ROOT / "notebooks" / f"{name}.ipynb"), as_version=4)
    types = [c.metadata.get("slideshow", {}).get("slide_type") for c in nb.cells]
    assert all(t in slides.SLIDE_TYPES for t in types), types
    assert types[0] == "slide" and types.count("slide") >= 7


def test_derived_types_follow_the_headings():
    cells = [nbformat.v4.new_markdown_cell("# Lesson 42 · Test"), nbformat.v4.new_markdown_cell("prose"),
             nbformat.v4.new_code_cell("x = 1"), nbformat.v4.new_markdown_cell("## 1. A section"),
             nbformat.v4.new_markdown_cell("### A step"), nbformat.v4.new_code_cell("stop_all()"),
             nbformat.v4.new_code_cell("from course_lib.servers import stop_all\n_ = stop_all()")]
    cells[1].metadata["slideshow"] = {"slide_type": "fragment"}  # given metadata wins
    nb = nbformat.v4.new_notebook(cells=cells)
    assert [slides.slide_type(c, i) for i, c in enumerate(nb.cells)] == [
        "slide", "fragment", "-", "slide", "subslide", "skip", "skip"]
    assert slides.slide_count(nb) == 2


def test_clean_keeps_slide_metadata():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# T")])
    nb.cells[0].metadata.update({"slideshow": {"slide_type": "slide"}, "collapsed": True})
    assert dict(clean(nb, keep_outputs=False).cells[0].metadata) == {"slideshow": {"slide_type": "slide"}}


def test_offline_assets_beside_the_decks_are_used(tmp_path):
    for rel in ("node_modules/reveal.js/dist/reveal.js", "node_modules/requirejs/require.js",
                "node_modules/jquery/dist/jquery.min.js"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("// stand-in", encoding="utf-8")
    page = slides.build_slides(LESSONS[0].path, tmp_path).read_text(encoding="utf-8")
    assert 'src="node_modules/requirejs/require.js"' in page
    assert '"node_modules/reveal.js/dist/reveal.js"' in page and "unpkg.com/reveal.js" not in page


def test_course_slides_cli(tmp_path, capsys):
    assert cli.main(["slides", "01", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert (tmp_path / "01_function_calling.slides.html").exists() and "npm install --prefix" in out
    assert cli.main(["slides", "01", "--outline"]) == 0
    assert "▶ ## 8. Summary" in capsys.readouterr().out
    assert cli.main(["slides"]) == 2
    assert cli.main(["slides", "99"]) == 2
    assert "no lesson '99'" in capsys.readouterr().err
