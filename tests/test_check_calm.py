"""Check cells are calm: one summary, one hint line, no SDK traceback, no raw repr; "Try it" cells let Run All go on.

The notebook-level behaviour (what a learner sees in a cell) is tested in a real kernel with nbclient:
IPython's display hook, ``_render_traceback_`` and cell file names only exist there.
"""
from __future__ import annotations

import re
from typing import Annotated, Literal

import nbformat
import pytest
from nbclient import NotebookClient
from pydantic import Field

from course_lib.checks import CheckFailed, CheckReport, learner_error, quiet_sdk_logs

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _run(cells: list[str]) -> list[list[dict]]:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in cells]
    NotebookClient(nb, timeout=120, allow_errors=True, kernel_name="python3").execute()
    return [c.outputs for c in nb.cells]


def _text(outputs: list[dict]) -> str:
    parts = []
    for o in outputs:
        if o["output_type"] == "stream":
            parts.append(o["text"])
        elif o["output_type"] == "error":
            parts.append(ANSI.sub("", "\n".join(o["traceback"])))
        else:
            parts.append(o["data"].get("text/plain", ""))
    return "\n".join(parts)


@pytest.fixture(scope="module")
def cells():
    return _run([
        # 0: the exercise's stub, 1: its "Try it" cell
        'def answer_with_tools(client, q):\n    # YOUR CODE HERE\n    raise NotImplementedError("Your turn: replace this line with your code.")',
        'from course_lib.checks import try_it\n\nwith try_it():\n    answer, messages = answer_with_tools(None, "q")\n    print(answer)',
        # 2: a cell that needs what the unfinished one makes
        'with try_it():\n    display(messages)',
        # 3: a learner's bug inside a function of theirs
        'def lookup(d):\n    return d["city"]\n\nwith try_it():\n    lookup({})',
        # 4: a passing check as the last expression, 5: a failing one
        'from course_lib.checks import CheckReport\n\ndef check_ok():\n    r = CheckReport("demo", more_help="Need a nudge? click")\n'
        '    r.check("two is even", True, "use %")\n    return r.finish()\n\ncheck_ok()',
        'def check_bad():\n    r = CheckReport("demo", more_help="Need a nudge? click")\n'
        '    r.check("lookup works", False, "fix the line named below", error=_err)\n    return r.finish()\n\n'
        'try:\n    lookup({})\nexcept KeyError as e:\n    _err = e\ncheck_bad()',
        # 6: the try-it context resets once the cells above run to the end
        'def answer_with_tools(client, q):\n    return "ok", []\n\nwith try_it():\n    answer, messages = answer_with_tools(None, "q")\n    print(answer)',
    ])


def test_the_untouched_stub_says_what_to_do_in_one_line_and_run_all_goes_on(cells):
    out = cells[1]
    assert [o["output_type"] for o in out] == ["display_data"]  # no error output: Run All continues
    text = out[0]["data"]["text/plain"]
    assert text.startswith("⏳ `answer_with_tools` is not written yet: write your code where it says `# YOUR CODE HERE`")
    assert len(text.splitlines()) == 1 and "Traceback" not in text
    assert "<code>answer_with_tools</code>" in out[0]["data"]["text/html"]
    caught = out[0]["data"]["application/vnd.course.try-it+json"]
    assert caught["ename"] == "NotImplementedError"
    assert any("Cell In[" in ANSI.sub("", line) for line in caught["traceback"]), "IPython's traceback, for `course check`"


def test_a_cell_after_the_unfinished_one_says_why_it_is_skipped(cells):
    (out,) = cells[2]
    assert out["output_type"] == "display_data"
    assert out["data"]["text/plain"].startswith("⏳ skipped: name 'messages' is not defined.")


def test_a_learners_bug_is_one_line_naming_function_line_and_cell_with_the_traceback_folded(cells):
    (out,) = cells[3]
    assert out["output_type"] == "display_data"
    text = out["data"]["text/plain"]
    assert re.match(r"⚠️ your code raised KeyError: 'city' \(in lookup, line 2 of cell In\[\d+\]\)\n", text), text
    page = out["data"]["text/html"]
    assert "<details>" in page and "Traceback" not in text and "return d[" in page  # the full traceback, folded


def test_a_passing_check_shows_its_report_and_no_raw_repr(cells):
    out = cells[4]
    assert len(out) == 1 and out[0]["output_type"] == "display_data", out
    assert "CheckReport(" not in _text(out)
    assert _text(out).splitlines() == ["demo: 1/1 checks pass", "✅ two is even"]


def test_a_failing_check_says_the_summary_and_the_nudge_once_and_names_the_learners_line(cells):
    out = cells[5]
    text = _text(out)
    assert text.count("demo: 0/1 checks pass") == 1 and text.count("Need a nudge?") == 1
    assert re.search(r"your code raised KeyError: 'city' \(in lookup, line 2 of cell In\[\d+\]\)", text)
    error = [o for o in out if o["output_type"] == "error"]
    assert len(error) == 1 and len(error[0]["traceback"]) == 1, "one 'Not yet' line instead of a traceback"
    assert "fix the first ❌ above" in ANSI.sub("", error[0]["traceback"][0])
    page = next(o for o in out if o["output_type"] == "display_data")["data"]["text/html"]
    assert "<details>" in page and "show the full traceback" in page


def test_try_it_is_quiet_when_the_code_runs(cells):
    assert _text(cells[6]).strip() == "ok"


def test_learner_error_outside_a_notebook_names_the_exception():
    try:
        {}["x"]
    except KeyError as e:
        info = learner_error(e)
    assert info.line == "KeyError: 'x'" and "Traceback" in info.traceback and not info.stub


@pytest.mark.parametrize("message, stub", [
    ("Your turn: replace this line with your code.", True),
    ("轮到你了：把这一行换成你的代码。", True),  # the Chinese exercises' stub (exercises/zh/)
    ("subclasses implement this", False),     # a learner's own NotImplementedError is an error like any other
])
def test_the_stub_is_recognised_in_each_edition(message, stub):
    try:
        raise NotImplementedError(message)
    except NotImplementedError as e:
        assert learner_error(e).stub is stub


def _learner_server(validate_inside: bool):
    from mcp.server import MCPServer

    from course_lib.examples import WIKI_PAGES, search_wiki as find_pages

    def build():
        server = MCPServer("wiki", log_level="WARNING")

        if validate_inside:  # the mistake of the issue: the limit checked by hand, so the SDK logs the exception
            @server.tool()
            def search_wiki(query: str, space: Literal["engineering", "product", "hr", "finance"] | None = None,
                            limit: int = 5) -> list[dict]:
                """Search the company wiki (engineering, product, hr and finance pages) for internal processes."""
                if not 1 <= limit <= 20:
                    raise ValueError("limit must be between 1 and 20")
                return find_pages(query, space, limit)
        else:
            @server.tool()
            def search_wiki(query: str, space: Literal["engineering", "product", "hr", "finance"] | None = None,
                            limit: Annotated[int, Field(ge=1, le=20)] = 5) -> list[dict]:
                """Search the company wiki (engineering, product, hr and finance pages) for internal processes."""
                return find_pages(query, space, limit)

        @server.resource("wiki://pages/{page_id}", mime_type="text/markdown")
        def page(page_id: str) -> str:
            """One wiki page."""
            p = next(p for p in WIKI_PAGES if p["id"] == page_id)
            return f"# {p['title']}\n\n{p['text']}"
        return server
    return build


@pytest.mark.anyio
async def test_exercise_08_validating_inside_the_tool_prints_no_sdk_traceback(capfd):
    from course_lib.checks.wiki_mcp_server import check_wiki_mcp_server

    with pytest.raises(CheckFailed) as e:
        await check_wiki_mcp_server(_learner_server(validate_inside=True))
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err and "raised an unexpected exception" not in out + err
    failed = [r for r in e.value.report.results if not r.passed]
    assert any("limit 500 is rejected" in r.name and "Field(ge=1, le=20)" in r.hint for r in failed)
    # the same hint for the second protocol era is not said twice in full
    assert e.value.report.text().count("The 500 was refused, but by `find_pages`") == 1


def test_quiet_sdk_logs_collects_and_restores():
    import logging

    logger = logging.getLogger("mcp.server.test")
    parent = logging.getLogger("mcp")
    before = (parent.propagate, list(parent.handlers))
    with quiet_sdk_logs() as records:
        logger.error("boom")
    assert [r.getMessage() for r in records] == ["boom"]
    assert (parent.propagate, list(parent.handlers)) == before


def test_a_report_repr_is_its_text_not_a_raw_repr():
    r = CheckReport("demo")
    r.check("fine", True, "")
    assert repr(r) == "demo: 1/1 checks pass\n✅ fine"


def test_a_check_that_meets_the_stub_gives_the_calm_hint_and_no_raised_line():
    from course_lib.checks import STUB_HINT, CheckReport

    def stub():
        raise NotImplementedError("轮到你了：把这一行换成你的代码。")

    report = CheckReport("demo")
    report.run("runs concurrently", stub, "await every call at once")
    report.run("measures", stub, "Write `measure` where it says `# YOUR CODE HERE`.")
    (first, second) = report.as_json()["results"]
    assert first == {"name": "runs concurrently", "passed": False, "hint": STUB_HINT}
    assert second["hint"] == "Write `measure` where it says `# YOUR CODE HERE`." and "error" not in second
    assert "raised" not in report.text()
