"""`course check` names the cell a learner must edit in words JupyterLab shows, and never contradicts itself.

JupyterLab numbers no cells, so a report names a cell by its first line of code; an exception is
attributed to the cell whose code raised it (the traceback's innermost notebook frame), not to the
"Try it" cell that called it. A SyntaxError gets its own clear line: the notebook could not run.
"""
from __future__ import annotations

import nbformat
import pytest

from course_lib import cli, exercises
from course_lib.commands.check import CellOutcome, CheckRun, cell_label, error_origin, report_lines
from course_lib.notebooks import ROOT

STUB_CELL = ('def answer_with_tools(client, question):\n'
             '    """Answer ``question`` with the help of get_weather; return (answer, messages)."""\n'
             '    messages = [{"role": "user", "content": question}]\n'
             '    response = client.chat.completions.create(model=MODEL, messages=messages, tools=TOOLS)\n'
             '    message = response.choices[0].message\n'
             '    # YOUR CODE HERE\n'
             '    raise NotImplementedError("Your turn: replace this line with your code.")\n')
TRY_CELL = 'answer, messages = answer_with_tools(client, "What\'s the weather in Beijing and Shanghai?")\nprint(answer)'
SOURCES = ["import json", STUB_CELL, "HINTS", TRY_CELL, "check_tool_call_loop(answer_with_tools)"]
# What IPython prints (colours removed) when the "Try it" cell calls the untouched stub; nbval runs
# cells without history, so every frame says In[1].
STUB_TRACEBACK = """---------------------------------------------------------------------------
NotImplementedError                       Traceback (most recent call last)
Cell In[1], line 1
----> 1 answer, messages = answer_with_tools(client, "What's the weather in Beijing and Shanghai?")
      2 print(answer)

Cell In[1], line 7, in answer_with_tools(client, question)
      5     message = response.choices[0].message
      6     # YOUR CODE HERE
----> 7     raise NotImplementedError("Your turn: replace this line with your code.")

NotImplementedError: Your turn: replace this line with your code."""


def test_cell_label_is_the_first_line_of_code():
    assert cell_label(STUB_CELL) == "the cell that starts with `def answer_with_tools(client, question):`"
    assert cell_label("# a comment first\n\nx = 1\n") == "the cell that starts with `x = 1`"
    assert cell_label("x = '" + "a" * 200 + "'").endswith("...`")


def test_the_error_is_attributed_to_the_cell_that_raised_it():
    origin = error_origin(STUB_TRACEBACK, SOURCES, raising=3)
    assert (origin.cell, origin.line, origin.function) == (1, 7, "answer_with_tools")
    # a traceback whose lines match no cell (the learner edited it since) falls back to the cell that failed
    edited = STUB_TRACEBACK.replace("# YOUR CODE HERE", "# my code")
    assert error_origin(edited, SOURCES, raising=3).cell == 3
    assert error_origin("no frames at all", SOURCES, raising=4) == error_origin("", SOURCES, raising=4)


def _run(*cells):
    return CheckRun(ROOT / "exercises" / "01_tool_call_loop.ipynb", list(cells), SOURCES)


def test_a_syntax_error_says_the_notebook_could_not_run():
    syntax = CellOutcome(1, False, None, "SyntaxError: expected ':' (526495730.py, line 7)",
                         "  Cell In[1], line 7\n    for call in message.tool_calls\n          ^\nSyntaxError: expected ':'\n")
    later = CellOutcome(3, False, None, "NameError: name 'answer_with_tools' is not defined", "")
    text = "\n".join(report_lines(_run(syntax, later), "01"))
    assert ("❗ The notebook could not run: Python could not read line 7 of the cell that starts with "
            "`def answer_with_tools(client, question):`") in text
    assert "line 7: raise NotImplementedError" in text  # the line as the learner's cell has it
    assert "SyntaxError: expected ':'\n" in text + "\n" and "526495730.py" not in text
    assert "because of the SyntaxError above" in text
    assert text.endswith("0/0 checks pass: the notebook could not run to its checks: fix the SyntaxError "
                         "(❗ above), then run `course check 01` again.")
    assert "❌" not in text, "no ❌ is listed, so none may be pointed at"


def test_no_check_ran_points_at_the_warning_not_at_a_missing_cross():
    crash = CellOutcome(0, False, None, "ModuleNotFoundError: No module named 'course_lib'", "")
    text = "\n".join(report_lines(_run(crash), "01"))
    assert "❌" not in text and "Fix the first ⚠️ above" in text


@pytest.fixture
def pristine(tmp_path):
    exercises.generate(target=tmp_path / "exercises")
    return tmp_path / "exercises"


def test_course_check_names_the_stub_cell_of_an_untouched_exercise(pristine, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COURSE_DATA_DIR", str(tmp_path / "state"))
    assert cli.main(["check", str(pristine / "01_tool_call_loop.ipynb")]) == 1
    out = capsys.readouterr().out
    assert ("⚠️  `answer_with_tools` is not written yet: it still raises NotImplementedError (the exercise's stub).\n"
            "       Write your code in the cell that starts with `def answer_with_tools(client, question):`, "
            "where it says `# YOUR CODE HERE`") in out
    assert "code cell" not in out and "answer, messages = answer_with_tools" not in out
    # said once: the check's own hint does not repeat the ⚠️ line's advice
    assert out.count("# YOUR CODE HERE") == 1 and "hint: the exercise's stub is still in place (⚠️ above)." in out
    assert out.rstrip().endswith("0/1 checks pass: not yet: fix the first ⚠️ above and run `course check 01` again.")


def test_course_check_after_a_syntax_error(pristine, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COURSE_DATA_DIR", str(tmp_path / "state"))
    path = pristine / "01_tool_call_loop.ipynb"
    nb = nbformat.read(str(path), as_version=4)
    cell = next(c for c in nb.cells if "# YOUR CODE HERE" in c.source)
    cell.source = cell.source.replace('raise NotImplementedError("Your turn: replace this line with your code.")',
                                      "for call in message.tool_calls\n        pass")
    nbformat.write(nb, str(path))
    assert cli.main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert ("❗ The notebook could not run: Python could not read line 7 of the cell that starts with "
            "`def answer_with_tools(client, question):`.\n       line 7: for call in message.tool_calls\n"
            "       SyntaxError: expected ':'\n") in out
    assert "0/0 checks pass: the notebook could not run to its checks" in out
    assert "fix the first ❌" not in out


def test_another_error_names_both_the_cell_that_ran_and_the_code_that_raised():
    traceback = STUB_TRACEBACK.replace("NotImplementedError: Your turn", "AttributeError: Your turn")
    crash = CellOutcome(3, False, None, "AttributeError: 'NoneType' object has no attribute 'tool_calls'", traceback)
    text = "\n".join(report_lines(_run(crash), "01"))
    assert text.startswith("  ⚠️  the cell that starts with `answer, messages = answer_with_tools(client, \"What's "
                           "the weather in Beijing and Shangha...` raised AttributeError: 'NoneType' object has no "
                           "attribute 'tool_calls'\n       (it came from your code: in `answer_with_tools`, line 7 of "
                           "the cell that starts with `def answer_with_tools(client, question):`)")


def test_course_check_records_progress_in_the_learners_folder(pristine, tmp_path):
    """Run as a learner does (a fresh process, the exercise below the repository's conftest.py, which nbval
    loads in that process): the conftest must not redirect the progress record to the tests' throw-away folder."""
    import json
    import os
    import shutil
    import subprocess
    import sys

    shutil.copy(ROOT / "conftest.py", pristine.parent / "conftest.py")   # the repository's layout
    state = tmp_path / "state"
    env = {**os.environ, "COURSE_DATA_DIR": str(state), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "course_lib.cli", "check", str(pristine / "02_wiki_search_schema.ipynb")],
                          cwd=pristine.parent, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    entry = json.loads((state / "progress.json").read_text())["02_wiki_search_schema"]
    assert entry["status"] == "attempted" and entry["checked_at"]


def test_course_check_counts_the_hints_already_seen_and_says_a_stub_failure_once(pristine, tmp_path):
    """Two hints seen (``course hint 07`` twice) → the next is hint 3 of 3, even though nbval's kernel runs
    under the conftest's throw-away state folder; the untouched stub fails all 17 sub-checks for one
    reason, which is said once, not 17 times."""
    import json
    import os
    import shutil
    import subprocess
    import sys

    shutil.copy(ROOT / "conftest.py", pristine.parent / "conftest.py")   # the repository's layout
    state = tmp_path / "state"
    state.mkdir()
    (state / "hints.json").write_text(json.dumps({"07_json_rpc_batch": 2}))
    env = {**os.environ, "COURSE_DATA_DIR": str(state), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "course_lib.cli", "check", str(pristine / "07_json_rpc_batch.ipynb")],
                          cwd=pristine.parent, env=env, capture_output=True, text=True, timeout=300)
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "(hint 3 of 3)" in out and "hint 1 of 3" not in out
    # the stub's advice once: in the ⚠️ line; the grouped ❌ line's hint points at it
    assert out.count("# YOUR CODE HERE") == 1 and out.count("hint: the exercise's stub is still in place") == 1, out
    assert ("❌ 17 checks fail for one reason: rpc call with positional parameters, rpc call with positional "
            "parameters (2), rpc call with named parameters and 14 more") in out
    assert "0/17 checks pass" in out


def test_report_lines_uses_the_learners_hint_pointer_and_groups_one_reason():
    same = [{"name": f"case {i}", "passed": False, "hint": "write it"} for i in range(3)]
    other = {"name": "case 3", "passed": False, "hint": "another reason"}
    check = {"exercise": "Exercise 99", "passed": False, "results": [*same, other],
             "more_help": "Need a nudge? Run `HINTS.next()` (hint 1 of 3)"}
    run = _run(CellOutcome(4, False, check, None))
    text = "\n".join(report_lines(run, "99", more_help="All 3 hints are shown; stuck? see solutions/99_x.ipynb."))
    assert "  ❌ 3 checks fail for one reason: case 0, case 1 and case 2\n       hint: write it\n" in text
    assert "  ❌ case 3\n       hint: another reason" in text
    assert "All 3 hints are shown" in text and "hint 1 of 3" not in text
    assert "(hint 1 of 3)" in "\n".join(report_lines(run, "99"))   # no pointer given: the cell's own


@pytest.mark.parametrize("path, rerun", [
    ("exercises/01_tool_call_loop.ipynb", "01"),
    ("exercises/zh/06b_registry_in_a_framework.ipynb", "06b --lang zh"),  # short from any folder, as in English
])
def test_the_rerun_command_is_short_in_every_language(path, rerun, monkeypatch, tmp_path):
    from course_lib.commands.check import rerun_arguments

    monkeypatch.chdir(tmp_path)  # a terminal outside the course: no path relative to it
    assert rerun_arguments(ROOT / path, exercises.EXERCISES) == rerun
    assert rerun_arguments(tmp_path / "mine" / "01_x.ipynb", exercises.EXERCISES) == "mine/01_x.ipynb"


def test_the_chinese_hint_line_has_no_space_after_its_colon(monkeypatch):
    from course_lib.checks import CheckResult, hint_line

    monkeypatch.setenv("COURSE_LANG", "zh")
    assert hint_line("调用工具") == "提示：调用工具"
    assert CheckResult("检查", False, "调用工具").line() == "❌ 检查\n     提示：调用工具"
    lines = report_lines(_run(CellOutcome(4, True, {"exercise": "x", "passed": False, "results": [
        {"name": "a", "passed": False, "hint": "写在那里", "error": None}]}, None)), "01 --lang zh")
    assert "       提示：写在那里" in lines and "`course check 01 --lang zh`" in lines[-1]
    monkeypatch.setenv("COURSE_LANG", "en")
    assert hint_line("call the tool") == "hint: call the tool"
