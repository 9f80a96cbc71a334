"""Hints come one at a time, each more specific, then the pointer to the solution section."""
from __future__ import annotations

import re

import nbformat
import pytest

from course_lib import cli
from course_lib.checks import CheckFailed
from course_lib.course_map import exercises
from course_lib.hints import Hints, heading_anchor, hints_for
from course_lib.notebooks import ROOT


@pytest.fixture(autouse=True)
def state(tmp_path, monkeypatch):
    monkeypatch.setenv("COURSE_DATA_DIR", str(tmp_path))


def test_hints_are_revealed_one_at_a_time_then_the_solution():
    h = Hints("99_demo", ["nudge", "specific", "nearly the answer"], solution_section="2. The loop")
    assert h.seen == 0 and "3 hints are available" in repr(h.show())
    first = repr(h.next())
    assert "Hint 1 of 3.** nudge" in first and "specific" not in first and "2 more" in first
    second = repr(h.next())
    assert "nudge" in second and "Hint 2 of 3.** specific" in second and "Stuck?" not in second
    third = repr(h.next())
    assert "nearly the answer" in third
    assert "../solutions/99_demo.ipynb#2.-The-loop" in third, "the stuck pointer links the solution section"
    assert repr(h.next()) == third, "past the last hint nothing new is revealed"
    h.reset()
    assert h.seen == 0


def test_hint_state_survives_a_new_object_like_a_kernel_restart():
    Hints("98_demo", ["a", "b"]).next()
    assert Hints("98_demo", ["a", "b"]).seen == 1


def test_a_hints_object_needs_steps():
    with pytest.raises(ValueError):
        Hints("97_demo", [])


def test_heading_anchor_matches_jupyterlab():
    assert heading_anchor("## Your code: answer_with_tools") == "Your-code:-answer_with_tools"


@pytest.mark.parametrize("exercise", exercises(), ids=lambda e: e.key)
def test_every_exercise_with_hints_points_to_a_real_solution_section(exercise):
    hints = hints_for(exercise.solution)  # the solution, not the learner's copy (theirs to edit)
    if hints is None:
        pytest.skip(f"{exercise.key} has no hints yet")
    assert len(hints.steps) >= 2, "progressive means at least two steps"
    assert len(set(hints.steps)) == len(hints.steps), "each hint says something new"
    nb = nbformat.read(str(exercise.solution), as_version=4)
    headings = [m.group(1) for c in nb.cells if c.cell_type == "markdown"
                for m in re.finditer(r"^#+\s+(.+?)\s*$", c.source, re.M)]
    assert hints.solution_section in headings, f"no heading {hints.solution_section!r} in {exercise.solution.name}"


def test_exercise_01_has_hints_and_a_failed_check_points_to_them():
    from course_lib.checks.tool_call_loop import HINTS, check_tool_call_loop

    assert hints_for(ROOT / "solutions" / "01_tool_call_loop.ipynb") is HINTS
    with pytest.raises(CheckFailed) as e:
        check_tool_call_loop(lambda client, q: (_ for _ in ()).throw(NotImplementedError()))
    text = e.value.report.text()
    assert "Click “Show hint 1 of 3” in the 💡 cell above" in text and "course hint 01" in text
    # one summary and one hint line: the "Not yet" line IPython shows for the exception repeats neither
    assert text.count(e.value.report.summary()) == 1 and text.count("Need a nudge?") == 1
    (not_yet,) = e.value._render_traceback_()
    assert "Not yet" in not_yet and "Need a nudge" not in not_yet and e.value.report.summary() not in not_yet


def test_course_hint_cli(capsys):
    assert cli.main(["hint", "01"]) == 0
    first = capsys.readouterr().out
    assert first.startswith("Hint 1 of 3. This is lesson 01's five steps. The reply in message is step 2")
    assert first.rstrip().endswith("2 more: run course hint 01 again.")
    assert not any(mark in first for mark in ("**", "`", "HINTS.next()", "\x1b[")), "plain text, not markdown"
    assert cli.main(["hint", "01"]) == 0
    out = capsys.readouterr().out
    assert "Hint 2 of 3" in out and "Hint 1 of 3" in out
    assert cli.main(["hint", "01", "--again"]) == 0
    assert "Hint 3" not in capsys.readouterr().out
    assert cli.main(["hint", "01", "--reset"]) == 0
    from course_lib.checks.tool_call_loop import HINTS
    assert HINTS.seen == 0


def test_hints_widget_has_a_text_fallback():
    from course_lib.checks.tool_call_loop import HINTS

    view = HINTS.widget()
    assert "HINTS.next()" in repr(view) and "solutions/01_tool_call_loop.ipynb" in repr(view)
    bundle = HINTS._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle and "text/plain" in bundle


def test_every_exercise_check_points_to_its_hints_when_it_fails():
    """The "Need a nudge?" line is in every failed exercise report (exercise 02 and 03 once lacked it)."""
    from course_lib import checks

    folder = ROOT / "course_lib" / "checks"
    for module in sorted(folder.glob("*.py")):
        text = module.read_text(encoding="utf-8")
        if module.name == "__init__.py" or "HINTS = Hints(" not in text:
            continue
        reports = re.findall(r"CheckReport\(([^\n]*)\)", text)
        assert reports, module.name
        assert all("more_help=HINTS.pointer()" in args for args in reports), (module.name, reports)
    assert checks.CheckReport("x", more_help="Need a nudge?").as_json()["more_help"] == "Need a nudge?"


def test_course_hint_in_a_terminal_ends_with_the_plain_stuck_pointer(capsys):
    for _ in range(4):
        assert cli.main(["hint", "01"]) == 0
    out = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert out == ("Stuck? The worked solution is in solutions/01_tool_call_loop.ipynb, section “Your code: "
                   "answer_with_tools”. Read it, close it, then write the code yourself: that is what makes it stick.")


def test_markdown_to_text():
    from course_lib.hints import markdown_to_text

    md = ("**Hint 2 of 3.** Call `__init__` and _then_ `tool_call_id`; see "
          "[`solutions/01_x.ipynb`](../solutions/01_x.ipynb#Your-code).\n\n## Next\n\n_1 more: run `course hint 01` again._")
    assert markdown_to_text(md) == ("Hint 2 of 3. Call __init__ and then tool_call_id; see solutions/01_x.ipynb.\n\n"
                                    "Next\n\n1 more: run course hint 01 again.")
    assert markdown_to_text("run `course hint 01`", colour=True) == "run \x1b[36mcourse hint 01\x1b[0m"
    # star italics go too; a spaced product and a code span keep their stars
    assert markdown_to_text("says *what* it does, 2 * 3 * 4, `f(**kwargs)`") == "says what it does, 2 * 3 * 4, f(**kwargs)"


def test_the_widget_html_keeps_code_spans_intact():
    from course_lib.hints import _md_html

    assert _md_html("*when* to use `f(**kw, *a)` and `__init__`") == (
        "<p style='margin:4px 0'><i>when</i> to use <code>f(**kw, *a)</code> and <code>__init__</code></p>")


def test_code_that_indexes_and_calls_is_no_link():
    from course_lib.hints import _md_html, markdown_to_text

    md = "awaits `functions[call.function.name](**args)`; see [solutions/06](../solutions/06.ipynb)"
    assert markdown_to_text(md) == "awaits functions[call.function.name](**args); see solutions/06"
    assert "<code>functions[call.function.name](**args)</code>" in _md_html(md)
    assert "<a href='../solutions/06.ipynb' target='_self'><code>solutions/06</code></a>" in _md_html(md)


def test_the_notebook_keeps_its_markdown_and_hints_next():
    h = Hints("96_demo", ["use `json.loads`", "b"])
    shown = h.next()
    assert shown._repr_markdown_() == "**Hint 1 of 2.** use `json.loads`\n\n_1 more: run `HINTS.next()` again._"
    assert h.show(terminal=True).text() == "Hint 1 of 2. use json.loads\n\n1 more: run course hint 96 again."


def test_the_hint_count_is_one_per_exercise_in_every_language(monkeypatch):
    """Revealed in English, already revealed (and shown in Chinese) in the Chinese exercise: the same hints."""
    h = Hints("10a_token_verifier", ["Lesson 10a, section 4, step 7: after the 401 dance, the MCP server asks the "
                                     "authorization server about every token (`POST /introspect`, RFC 7662). Do "
                                     "the same: post the token, read the JSON answer.", "b"])
    monkeypatch.setenv("COURSE_LANG", "en")
    h.next()
    assert h.command_arguments == "10a" and "`course hint 10a`" in h.pointer(terminal=True)
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert h.seen == 1
    assert h.revealed() == ["**提示 1/2**。第 10a 课第 4 节第 7 步：经过 401 那一套流程之后，MCP 服务器会就每个令牌"
                            "询问授权服务器（`POST /introspect`，RFC 7662）。你也这样做：提交令牌，读取 JSON 回答。"]
    assert h.command_arguments == "10a --lang zh" and "`course hint 10a --lang zh`" in h.pointer(terminal=True)
