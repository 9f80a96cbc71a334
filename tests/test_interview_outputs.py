"""The cheat sheet export, the design diagrams, the generated Q&A notebooks and the CLI."""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from course_lib import notebooks as nbt
from course_lib.cli import main
from course_lib.interview.bank import load_bank
from course_lib.interview.build import FOLDER, build_all, build_notebook, notebook_groups
from course_lib.interview.cheatsheet import cheatsheet_html, cheatsheet_markdown, export_cheatsheet
from course_lib.interview.demos import DEMOS, PENDING, is_async
from course_lib.interview.design import DIAGRAMS, Box, Flow, block_diagram, design_diagram

BANK = load_bank()


# --------------------------------------------------------------------------- cheat sheet
def test_markdown_contains_every_question_answer_and_table():
    md = cheatsheet_markdown(BANK)
    for q in BANK:
        assert md.count(q.question) == 2, q.id  # contents + the answer section
        assert q.answer in md and q.follow_up[1] in md
    for t in BANK.tables.values():
        assert f"**{t.title}**" in md
    assert md.count("\n### ") == len(BANK)


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.text, self.sections, self.open = [], 0, []

    def handle_starttag(self, tag, attrs):
        if tag == "section":
            self.sections += 1
        if tag in ("section", "table", "ol", "ul", "blockquote"):
            self.open.append(tag)

    def handle_endtag(self, tag):
        if tag in ("section", "table", "ol", "ul", "blockquote"):
            assert self.open.pop() == tag

    def handle_data(self, data):
        self.text.append(data)


def test_html_is_well_formed_printable_and_complete():
    page = cheatsheet_html(BANK)
    assert page.startswith("<!DOCTYPE html>") and "@media print" in page and "<script" not in page
    parser = _Text()
    parser.feed(page)
    assert parser.open == [] and parser.sections == len(BANK)
    text = " ".join("".join(parser.text).split())
    for q in BANK:
        assert " ".join(re.sub(r"`", "", q.question).split()) in text, q.id
    assert page.count("<table>") == len(BANK.tables) + sum(len(q.tables) for q in BANK)


def test_export_writes_both_files(tmp_path):
    md, page = export_cheatsheet(tmp_path / "out", bank=BANK, stem="sheet")
    assert (md.name, page.name) == ("sheet.md", "sheet.html")
    assert md.read_text(encoding="utf-8") == cheatsheet_markdown(BANK)
    assert html.escape("Why is", quote=False) in page.read_text(encoding="utf-8")
    assert not list((tmp_path / "out").glob(".*.tmp"))


def test_course_cheatsheet_command(tmp_path, capsys):
    assert main(["cheatsheet", "--out", str(tmp_path)]) == 0
    assert f"{len(BANK)} questions, {len(BANK.tables)} comparison tables" in capsys.readouterr().out
    assert (tmp_path / "interview-cheatsheet.md").exists() and (tmp_path / "interview-cheatsheet.html").exists()


# --------------------------------------------------------------------------- diagrams
@pytest.mark.parametrize("name", sorted(DIAGRAMS))
def test_diagrams_draw_with_a_text_fallback(name):
    fig = design_diagram(name)
    assert fig._repr_png_().startswith(b"\x89PNG")
    assert repr(fig).startswith("[figure: ")
    if name == "protocol_layers":  # lesson 11's figure, reused
        assert all(p in fig.fallback_text for p in ("Function calling", "MCP", "A2A"))
    else:
        assert "components:" in fig.fallback_text and "flows:" in fig.fallback_text


def test_tool_platform_names_the_pieces_the_issue_lists():
    text = design_diagram("tool_platform").fallback_text.lower()
    for word in ("catalogue", "namespaced", "versioned", "top-k", "auth", "quotas", "tracing"):
        assert word in text


def test_block_diagram_rejects_unknown_boxes():
    with pytest.raises(ValueError, match=r"\['ghost'\]"):
        block_diagram([Box("a", "A", 1, 1)], [Flow("a", "ghost")], title="t")
    with pytest.raises(KeyError, match="no diagram 'nope'"):
        design_diagram("nope")


# --------------------------------------------------------------------------- notebooks
def test_notebooks_match_the_bank():
    assert build_all(check=True) == [], "run `course interview build` then `course notebooks refresh`"


def test_every_question_is_in_exactly_one_notebook_with_its_demo():
    seen = []
    for name, questions in notebook_groups(BANK).items():
        nb = nbt.read(FOLDER / name)
        sources = [c.source for c in nb.cells]
        for q in questions:
            heading = [s for s in sources if s.startswith("## ") and q.question in s.split("\n")[0]]
            assert len(heading) == 1, q.id
            seen.append(q.id)
            if q.demo in DEMOS:
                cell = f'{"await " if is_async(q.demo) else ""}run_demo("{q.demo}")'
                assert cell in sources, q.id
            else:
                assert any(s.startswith(f"**Demo `{q.demo}`: pending.**") for s in sources), q.id
    assert sorted(seen) == sorted(q.id for q in BANK)
    assert len([q for q in BANK if q.demo in DEMOS]) + len([q for q in BANK if q.demo in PENDING]) == len(BANK)


def test_built_notebook_shape():
    nb = build_notebook("06_system_design_qa.ipynb", BANK)
    assert nb.cells[0].source.startswith("# Interview Q&A · System design") and "**Time**" in nb.cells[0].source
    assert nb.cells[-1].source == "_ = stop_all()"
    assert sum('design_diagram("' in c.source for c in nb.cells) == 3
    with pytest.raises(KeyError):
        build_notebook("99_nope.ipynb", BANK)


def test_interview_cli(capsys, monkeypatch):
    assert main(["interview", "list", "--topic", "transports"]) == 0
    assert "transports-compare" in capsys.readouterr().out
    assert main(["interview", "demo", "tool_choice"]) == 0
    assert '"auto"' in capsys.readouterr().out
    monkeypatch.setitem(PENDING, "future_demo", "course_lib.future (lesson 99)")
    assert main(["interview", "demo", "future_demo"]) == 2
    assert "is pending" in capsys.readouterr().err
    assert main(["interview", "build", "--check"]) == 0


@pytest.mark.parametrize("module", ["store", "cards", "scoring", "timed"])
def test_docstring_examples(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"course_lib.interview.{module}"), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
