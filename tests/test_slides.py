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


def test_docstring_examples_of_the_slides_module():
    import doctest

    result = doctest.testmod(slides, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0


def test_a_heading_in_the_middle_of_a_cell_is_split_off():
    fenced = "```bash\n# a shell comment, not a heading\n```"
    cell = nbformat.v4.new_markdown_cell(f"Prose.\n\n## 3. Next\nText.\n{fenced}\n### 3.1 Step\nMore.")
    cell.id, cell.metadata["slideshow"] = "abc123", {"slide_type": "fragment"}
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Lesson 42 · T"), cell,
                                         nbformat.v4.new_markdown_cell("## 4. Title\n\n### Step 1\nText.")])
    assert slides.hidden_headings(cell) == [2, 7] and slides.hidden_headings(nb.cells[2]) == []
    split, added = slides.split_at_headings(nb)
    assert added == 2 and [c.source for c in split.cells[1:4]] == [
        "Prose.", f"## 3. Next\nText.\n{fenced}", "### 3.1 Step\nMore."]
    assert [c.id for c in split.cells[1:4]] == ["abc123", "abc123-1", "abc123-2"]
    assert split.cells[1].metadata == {"slideshow": {"slide_type": "fragment"}} and split.cells[2].metadata == {}
    assert [slides.slide_type(c, i) for i, c in enumerate(split.cells)] == [
        "slide", "fragment", "slide", "subslide", "slide"]
    assert "\n".join(c.source for c in split.cells[1:4]).replace("\n\n", "\n") == cell.source.replace("\n\n", "\n")
    assert slides.split_at_headings(split)[1] == 0, "splitting twice changes nothing"
    assert len(nb.cells) == 3, "the input is not modified"


def test_tag_writes_splits_and_metadata_and_keeps_outputs(tmp_path):
    code = nbformat.v4.new_code_cell("print(1)")
    code.outputs = [nbformat.v4.new_output("stream", text="1\n")]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Lesson 42 · T"), code,
                                         nbformat.v4.new_markdown_cell("Prose.\n\n## 2. Next\nText.")])
    path = tmp_path / "42_t.ipynb"
    nbformat.write(nb, str(path))
    assert slides.tag_notebook(path) == slides.Tagging(split=1, tagged=4)
    again = read(path)
    assert [c.metadata["slideshow"]["slide_type"] for c in again.cells] == ["slide", "-", "-", "slide"]
    assert again.cells[1].outputs == code.outputs
    assert slides.tag_notebook(path) == slides.Tagging(0, 0)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda l: l.path.stem)
def test_every_lesson_carries_slide_metadata_and_each_section_starts_a_slide(lesson):
    nb = read(lesson.path)
    types = [c.metadata.get("slideshow", {}).get("slide_type") for c in nb.cells]
    assert all(t in slides.SLIDE_TYPES for t in types), f"run `course slides --tag {lesson.number}`"
    assert not [c.source.splitlines()[n] for c in nb.cells for n in slides.hidden_headings(c)], (
        f"a section heading inside a cell: run `course slides --tag {lesson.number}`")
    sections = [line for c in nb.cells if c.cell_type == "markdown"
                for line in c.source.splitlines() if re.match(r"##? ", line)]
    assert [line for kind, line in slides.outline(nb) if kind == "slide"] == sections
    assert nb.cells[-1].cell_type == "markdown" or types[-1] == "skip", "the clean-up cell is not a slide's content"
