"""The Chinese exercises' stubs speak Chinese, and every check knows them as "not written yet" (issue 20 item 1).

The stub's message is one translated string (``exercises.STUB_MESSAGE``); ``course notebooks build --lang zh``
writes it into every code cell of the edition's exercises, whether a translator opted that cell in or not, and
``exercises.is_stub`` (used by the calm try-it cell, every check report and exercise 11's hints) knows each
edition's message.
"""
from __future__ import annotations

import re

import nbformat
import pytest

from course_lib import exercises as ex
from course_lib import translation as tr
from course_lib.i18n import gettext

ZH_STUB = "轮到你了：把这一行换成你的代码。"
EXERCISES = [p for p in tr.edition("zh") if p.parts[-2] == "exercises"]
_RAISE = re.compile(r'raise NotImplementedError\("([^"]*)"\)')


def _stub_messages(text: str) -> list[str]:
    nb = nbformat.reads(text, as_version=4)
    return [m for c in nb.cells if c.cell_type == "code" for m in _RAISE.findall(c.source)]


def test_the_stub_message_is_one_translated_string():
    assert ex.stub_message("en") == "Your turn: replace this line with your code." == ex.STUB_MESSAGE
    assert ex.stub_message("zh") == ZH_STUB == gettext(ex.STUB_MESSAGE, "zh")
    assert ex.STUB.format(indent="    ").endswith(f'raise NotImplementedError("{ex.STUB_MESSAGE}")\n')


def test_every_exercise_is_in_the_edition():
    assert len(EXERCISES) == len(ex.solution_files()) >= 14


@pytest.mark.parametrize("english", EXERCISES, ids=lambda p: p.stem)
def test_every_chinese_stub_raises_the_chinese_message(english):
    """The built and the committed Chinese exercise: as many stubs as the English one, each in Chinese."""
    english_stubs = _stub_messages(ex.exercise_text(ex.SOLUTIONS / english.name))
    assert english_stubs and set(english_stubs) == {ex.STUB_MESSAGE}
    built = _stub_messages(tr.rendered(tr.build(english, "zh")))
    committed = _stub_messages(ex.committed_text(tr.edition_path(english, "zh")))
    assert built == committed == [ZH_STUB] * len(english_stubs)


def test_localise_stubs_changes_only_the_stub_string():
    source = ('def handle(text):\n    # YOUR CODE HERE\n    raise NotImplementedError("Your turn: replace this line with '
              'your code.")\n\n\ndef other():\n    raise NotImplementedError("subclasses do this")\n')
    out = ex.localise_stubs(source, "zh")
    assert out == source.replace("Your turn: replace this line with your code.", ZH_STUB)
    assert tr.code_problem(source, out) is None  # the same program: only a string changed
    assert ex.localise_stubs(source, "en") == source


@pytest.mark.parametrize("message, stub", [
    (ZH_STUB, True), ("Your turn: replace this line with your code.", True), ("轮到你了", True), ("Your turn", True),
    ("subclasses implement this", False), ("还没有实现", False),
])
def test_is_stub_knows_each_editions_message(message, stub):
    assert ex.is_stub(NotImplementedError(message)) is stub
    assert not ex.is_stub(RuntimeError(message))


def test_in_chinese_the_try_it_cell_and_the_checks_call_the_chinese_stub_not_written_yet(monkeypatch, capsys):
    from course_lib.checks import STUB_HINT, CheckReport
    from course_lib.checks.calm import try_it
    from course_lib.checks.currency_agent import _error_hint, _Recorder

    monkeypatch.setenv("COURSE_LANG", "zh")

    def run_concurrently():
        raise NotImplementedError(ZH_STUB)

    with try_it() as cell:
        run_concurrently()
    assert cell.error.stub
    said = capsys.readouterr().out
    assert said.startswith("⏳ 你的代码 还没有写：") and "NotImplementedError" not in said  # outside a cell: no name
    report = CheckReport("练习")
    report.run("run_concurrently 能运行", run_concurrently, "同时 await 所有调用")
    (result,) = report.as_json()["results"]
    assert result["hint"] == gettext(STUB_HINT, "zh") and "error" not in result
    assert "抛出" not in report.text()
    hint = _error_hint(NotImplementedError(ZH_STUB), _Recorder(object()))
    assert hint == "在练习写着 `# YOUR CODE HERE` 的地方写执行器的代码（并删掉那行 `raise`）。"
