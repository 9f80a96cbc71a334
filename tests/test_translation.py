"""The Chinese edition (issue 20): catalogs current, generated notebooks in sync, the machinery itself.

The edition is what ``translations/zh/edition.txt`` lists; ``make test`` runs the generated
``notebooks/zh/`` notebooks under nbval like the English ones (they live under ``notebooks/``).
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import nbformat
import pytest

from course_lib import notebooks as nbt
from course_lib import translation as tr
from course_lib.cli import main as course

EDITION = tr.edition("zh")


def test_the_edition_lists_existing_english_notebooks():
    assert EDITION, "translations/zh/edition.txt lists no notebook"
    for english in EDITION:
        assert english.exists(), english
        assert not tr.is_edition_file(english), f"{english} is itself a generated notebook"


@pytest.mark.parametrize("english", EDITION, ids=lambda p: p.stem)
def test_every_markdown_cell_has_a_current_translation(english):
    state = tr.status(english, "zh")
    assert state.complete, (f"{english.relative_to(tr.ROOT)}: run `course notebooks extract "
                            f"{english.relative_to(tr.ROOT)} --lang zh` and translate:\n" + "\n".join(state.problems()))


def test_generated_notebooks_are_what_build_writes():
    problems = tr.sync_problems("zh")
    assert problems == [], "\n".join(problems)


#: one word written twice in a row on one line ("一个编排 Agent Agent 拥有"), whatever its case
_DOUBLED = re.compile(r"(?<![\w`])([A-Za-z][\w-]*)[ \t]+\1(?![\w`-])", re.IGNORECASE)
CATALOGS = sorted((tr.ROOT / "translations" / "zh").rglob("*.po"))


def doubled_words(english: str, translation: str) -> list[str]:
    """The words a translation writes twice in a row where its English does not (the English may: "very very")."""
    allowed = {m.group(0).lower() for m in _DOUBLED.finditer(english)}
    return [m.group(0) for m in _DOUBLED.finditer(translation) if m.group(0).lower() not in allowed]


def test_the_doubled_word_pattern_catches_a_repeat_and_spares_the_rest():
    assert doubled_words("An orchestrator agent with", "一个编排 Agent Agent 拥有") == ["Agent Agent"]
    assert doubled_words("x", "把 tool Tool 注册") == ["tool Tool"]
    assert doubled_words("very very", "very very") == []
    assert doubled_words("x", "JSON JSON-RPC、`a` a、Agent\nAgent、MCP 的 MCP") == []


@pytest.mark.parametrize("catalog", CATALOGS, ids=lambda p: p.relative_to(tr.ROOT / "translations" / "zh").as_posix())
def test_no_translation_doubles_a_word(catalog):
    from babel.messages.pofile import read_po

    with catalog.open("rb") as f:
        messages = [m for m in read_po(f) if m.id and m.string]
    bad = {str(m.id)[:60]: doubled_words(str(m.id), str(m.string)) for m in messages}
    assert not {k: v for k, v in bad.items() if v}, f"{catalog.name}: a word written twice in a row"


def _han(text: str) -> int:
    return sum("\u4e00" <= ch <= "\u9fff" for ch in text)


@pytest.mark.parametrize("english", EDITION, ids=lambda p: p.stem)
def test_generated_notebook_shares_the_code_and_translates_the_prose(english):
    src, out = nbt.read(english), nbt.read(tr.edition_path(english, "zh"))
    assert [(c.cell_type, c.get("id")) for c in src.cells] == [(c.cell_type, c.get("id")) for c in out.cells]
    for a, b in zip(src.cells, out.cells):
        if a.cell_type == "code" and a.source != b.source:  # a translated code cell: only its words changed
            assert tr.code_skeleton(b.source) == tr.code_skeleton(a.source), f"code cell {a.get('id')}"
            assert _han(b.source) > _han(a.source), f"code cell {a.get('id')} changed but is not in Chinese"
        elif a.cell_type == "markdown" and a.source.strip():
            assert b.source != a.source and _han(b.source) >= 5, f"cell {a.get('id')} is not in Chinese: {b.source[:80]!r}"


@pytest.mark.parametrize("english", [p for p in EDITION if nbt.keeps_outputs(tr.edition_path(p, "zh"))],
                         ids=lambda p: p.stem)
def test_a_generated_lesson_stores_outputs_of_its_own(english):
    """Build executes the lesson (nbval then checks the outputs): a code cell the English runs with output
    has output in the Chinese lesson too, and no output is an error."""
    out = nbt.read(tr.edition_path(english, "zh"))
    assert nbt.errors_in(out) == []
    for a, b in zip(nbt.read(english).cells, out.cells):
        if a.cell_type == "code" and a.outputs and "NBVAL_IGNORE_OUTPUT" not in a.source:
            assert b.outputs, f"code cell {a.get('id')} has no stored output: run `course notebooks build --lang zh`"


@pytest.mark.parametrize("english", EDITION, ids=lambda p: p.stem)
def test_relative_links_of_the_edition_resolve(english):
    out = tr.edition_path(english, "zh")
    for cell in nbt.read(out).cells:
        if cell.cell_type != "markdown":
            continue
        for _, target, _ in tr._LINK.findall(cell.source):
            if "://" in target or target.startswith("#"):
                continue
            assert (out.parent / target.partition("#")[0]).exists(), f"{out.name}: broken link {target}"


# --- the machinery, on a small English notebook in a temporary course folder ---

def _course(tmp_path: Path, cells: list[str]) -> Path:
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "02_next.ipynb").write_text("{}")
    english = tmp_path / "notebooks" / "01_demo.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(c) if not c.startswith("print")
                                         else nbformat.v4.new_code_cell(c) for c in cells])
    for i, cell in enumerate(nb.cells):
        cell.id = f"c{i}"
    nbt.write(nbt.clean(nb, keep_outputs=True), english)
    return english


def _translate(english: Path, root: Path, texts: dict[str, str]) -> None:
    path = tr.catalog_path(english, "zh", root)
    cat = tr.read_catalog(path, "zh")
    for msg in cat:
        for comment in msg.auto_comments:
            if comment in texts:
                msg.string = texts[comment]
                msg.flags.discard("fuzzy")
    tr.write_catalog(cat, path)


def test_a_changed_english_cell_is_stale_until_retranslated(tmp_path):
    english = _course(tmp_path, ["# Title\n\nSee [next](02_next.ipynb).", "print(1)", "Some prose."])
    state = tr.extract(english, "zh", tmp_path)
    assert len(state.missing) == 2 and not state.stale
    with pytest.raises(tr.TranslationError, match="missing cell c0"):
        tr.build(english, "zh", tmp_path)
    _translate(english, tmp_path, {"cell c0": "# 标题\n\n见[下一课](02_next.ipynb)。", "cell c2": "一些文字。"})
    assert tr.status(english, "zh", tmp_path).complete
    built = tr.build(english, "zh", tmp_path)
    assert built.cells[0].source == "# 标题\n\n见[下一课](../02_next.ipynb)。"  # re-pointed from notebooks/zh/
    assert built.cells[1].source == "print(1)"

    nb = nbt.read(english)
    nb.cells[2].source = "Some prose, rewritten."
    nbt.write(nb, english)
    state = tr.status(english, "zh", tmp_path)
    assert state.stale == ["cell c2: Some prose, rewritten."] and not state.missing
    state = tr.extract(english, "zh", tmp_path)  # carried over as fuzzy: still stale, the old English kept
    assert state.stale == ["cell c2: Some prose, rewritten."]
    po = tr.catalog_path(english, "zh", tmp_path).read_text(encoding="utf-8")
    assert "#, fuzzy" in po and '#| msgid "Some prose."' in po and 'msgstr "一些文字。"' in po
    with pytest.raises(tr.TranslationError, match="stale   cell c2"):
        tr.build(english, "zh", tmp_path)
    _translate(english, tmp_path, {"cell c2": "一些改写过的文字。"})
    assert tr.build(english, "zh", tmp_path).cells[2].source == "一些改写过的文字。"


def test_extract_twice_changes_nothing(tmp_path):
    english = _course(tmp_path, ["# Title", "Prose."])
    tr.extract(english, "zh", tmp_path)
    _translate(english, tmp_path, {"cell c0": "# 标题"})
    first = tr.catalog_path(english, "zh", tmp_path).read_bytes()
    tr.extract(english, "zh", tmp_path)
    assert tr.catalog_path(english, "zh", tmp_path).read_bytes() == first


def _po(english: Path, root: Path) -> str:
    return tr.catalog_path(english, "zh", root).read_text(encoding="utf-8")


def test_code_cells_are_translated_only_when_opted_in(tmp_path):
    english = _course(tmp_path, ["# Title", 'print("Hello")  # greet the learner', "print(1)"])
    tr.extract(english, "zh", tmp_path)
    assert "code cell" not in _po(english, tmp_path)  # no entry, so no code cell is ever "missing"
    _translate(english, tmp_path, {"cell c0": "# 标题"})
    assert tr.status(english, "zh", tmp_path).complete
    state = tr.extract(english, "zh", tmp_path, code=True)  # opt in: cells with a comment or a string
    assert "#. code cell c1" in _po(english, tmp_path) and "code cell c2" not in _po(english, tmp_path)
    assert state.complete and state.code == 0  # an empty code entry: shared unchanged
    assert tr.build(english, "zh", tmp_path).cells[1].source == 'print("Hello")  # greet the learner'

    _translate(english, tmp_path, {"code cell c1": 'print("你好", end="\\n")  # 向学习者问好'})
    state = tr.status(english, "zh", tmp_path)
    assert state.invalid == ['code cell c1: print("Hello")  # greet the learner '
                             '(changes the code, not only its comments and strings)']
    with pytest.raises(tr.TranslationError, match="invalid code cell c1"):
        tr.build(english, "zh", tmp_path)
    _translate(english, tmp_path, {"code cell c1": 'print("你好")  # 向学习者问好'})
    assert tr.status(english, "zh", tmp_path).code == 1
    [(out, _)] = tr.build_edition("zh", [english], tmp_path)  # a lesson: executed, its own outputs stored
    built = nbt.read(out)
    assert built.cells[1].source == 'print("你好")  # 向学习者问好'
    assert [o.text for o in built.cells[1].outputs] == ["你好\n"] and built.cells[1].execution_count is None

    nb = nbt.read(english)
    nb.cells[1].source = 'print("Hello, world")  # greet the learner'
    nbt.write(nb, english)
    stale = ['code cell c1: print("Hello, world")  # greet the learner']
    assert tr.status(english, "zh", tmp_path).stale == stale
    assert tr.extract(english, "zh", tmp_path).stale == stale  # still opted in (by cell id), now fuzzy
    assert '#| msgid "print(\\"Hello\\")  # greet the learner"' in _po(english, tmp_path)
    _translate(english, tmp_path, {"code cell c1": ""})  # the translator decides it stays English
    assert tr.status(english, "zh", tmp_path).complete


def test_extract_never_starts_prose_from_code_or_code_from_prose(tmp_path):
    english = _course(tmp_path, ["# Title", 'print("Weather in Paris")'])
    tr.extract(english, "zh", tmp_path, code=True)
    _translate(english, tmp_path, {"cell c0": "# 标题", "code cell c1": 'print("巴黎的天气")'})
    nb = nbt.read(english)
    nb.cells.append(nbformat.v4.new_markdown_cell('print("Weather in Paris!")'))  # close to the code's text
    nb.cells[-1].id = "c2"
    nb.cells[1].source = "print(2)"
    nbt.write(nb, english)
    state = tr.extract(english, "zh", tmp_path)
    # the prose cell starts empty; the code cell keeps its own old translation (by cell id) for review
    assert state.missing == ['cell c2: print("Weather in Paris!")'] and state.stale == ["code cell c1: print(2)"]
    cat = tr.read_catalog(tr.catalog_path(english, "zh", tmp_path), "zh")
    assert cat.get('print("Weather in Paris!")', context=tr.text_key('print("Weather in Paris!")')).string == ""


def test_a_rebuild_whose_outputs_differ_only_where_nbval_looks_away_leaves_the_file(tmp_path):
    english = _course(tmp_path, ["# Title", 'print(f"took {__import__(\'time\').perf_counter_ns()} ms")'])
    tr.extract(english, "zh", tmp_path)
    _translate(english, tmp_path, {"cell c0": "# 标题"})
    [(out, _)] = tr.build_edition("zh", [english], tmp_path)
    first = out.read_text(encoding="utf-8")
    assert "ms" in nbt.read(out).cells[1].outputs[0].text
    tr.build_edition("zh", [english], tmp_path)  # a new duration: the same for nbval, so not rewritten
    assert out.read_text(encoding="utf-8") == first
    _translate(english, tmp_path, {"cell c0": "# 新标题"})  # a real change is written
    tr.build_edition("zh", [english], tmp_path)
    assert "新标题" in out.read_text(encoding="utf-8")


def test_same_for_nbval_needs_the_same_cells():
    def saved(source: str, printed: str) -> str:
        cell = nbformat.v4.new_code_cell(source, id="c0")
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=printed)]
        return tr.rendered(nbformat.v4.new_notebook(cells=[cell]))

    assert nbt.same_for_nbval(saved("wait(3)", "took 3 s"), saved("wait(3)", "took 4 s"))
    assert not nbt.same_for_nbval(saved("wait(3)", "took 3 s"), saved("wait(4)", "took 3 s"))  # a cell changed
    assert not nbt.same_for_nbval(saved("wait(3)", "took 3 s"), saved("wait(3)", "took 3 s, done"))


def test_a_notebook_that_fails_when_executed_is_not_written(tmp_path):
    english = _course(tmp_path, ["# Title", 'print("ab"[5])'])
    tr.extract(english, "zh", tmp_path)
    _translate(english, tmp_path, {"cell c0": "# 标题"})
    with pytest.raises(tr.TranslationError, match="cell 1: IndexError"):
        tr.build_edition("zh", [english], tmp_path)
    assert not tr.edition_path(english, "zh", tmp_path).exists()


@pytest.mark.parametrize("english, translation, same", [
    ('x = f"{n!r:<8} items"  # count', 'x = f"{n!r:<8} 项"  # 计数', True),
    ('x = f"{n} items"', 'x = f"{m} 项"', False),  # a replacement field is code
    ("f\"{ask('Weather?', n=1):<9}\"", "f\"{ask('天气？', n=1):<9}\"", True),  # ... but not the strings in it
    ("f\"{ask('Weather?', n=1):<9}\"", "f\"{ask('天气？', n=1):<8}\"", False),  # nor its format spec
    ('print("one long sentence")', 'print("一句"\n      "长话")', True),  # literals split inside brackets
    ("# NBVAL_IGNORE_OUTPUT\nx = 1", "# 忽略输出\nx = 1", False),  # a tool directive is kept as it is
    ("def f():\n    \"\"\"Doc.\"\"\"\n    return 1", "def f():\n    \"\"\"文档。\"\"\"\n    return 1", True),
    ('print("a")', 'print("甲", flush=True)', False),
])
def test_code_skeleton_allows_only_comments_and_strings_to_change(english, translation, same):
    assert (tr.code_skeleton(english) == tr.code_skeleton(translation)) is same


def test_sync_problems_name_a_hand_edited_and_a_stray_notebook(tmp_path):
    english = _course(tmp_path, ["# Title"])
    tr.extract(english, "zh", tmp_path)
    _translate(english, tmp_path, {"cell c0": "# 标题"})
    (tmp_path / "translations" / "zh" / "edition.txt").write_text("notebooks/01_demo.ipynb\n")
    assert tr.sync_problems("zh", tmp_path) == ["notebooks/zh/01_demo.ipynb is missing: run "
                                                "`course notebooks build --lang zh`"]
    [(out, _)] = tr.build_edition("zh", root=tmp_path)
    assert tr.sync_problems("zh", tmp_path) == []
    out.write_text(out.read_text(encoding="utf-8").replace("标题", "标 题"), encoding="utf-8")
    shutil.copy(out, out.parent / "99_stray.ipynb")
    problems = tr.sync_problems("zh", tmp_path)
    assert len(problems) == 2 and "differs" in problems[0] and "99_stray" in problems[1]


def test_course_notebooks_status_command(capsys, monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "en")  # `--lang zh` sets COURSE_LANG for the process: monkeypatch restores it
    assert course(["notebooks", "status", "--lang", "zh"]) == 0
    assert "zh edition current: 00_welcome.ipynb" in capsys.readouterr().out
    assert course(["notebooks", "build"]) == 2
    assert "needs --lang" in capsys.readouterr().out


def test_notebooks_lang_picks_the_edition_and_the_language_of_the_run(capsys, monkeypatch):
    """`course notebooks ... --lang zh` names the edition and, as `--lang` anywhere in `course`, the language of
    the run (its help is Chinese); the status lines stay English for CI logs (docs/translation.md)."""
    from course_lib.i18n import language

    monkeypatch.setenv("COURSE_LANG", "en")  # restored after the test: --lang sets COURSE_LANG for the process
    with pytest.raises(SystemExit):
        course(["notebooks", "status", "--lang", "zh", "--help"])
    helptext = capsys.readouterr().out
    assert helptext.startswith("用法：course notebooks") and "也决定本次运行的帮助和消息的语言" in helptext
    monkeypatch.setenv("COURSE_LANG", "en")
    assert course(["notebooks", "status", "--lang", "zh"]) == 0
    assert "zh edition current: 00_welcome.ipynb" in capsys.readouterr().out and language() == "zh"


@pytest.mark.parametrize("solution", [p for p in EDITION if p.parts[-2] == "solutions"], ids=lambda p: p.stem)
def test_chinese_solution_passes_and_chinese_stub_fails(solution, tmp_path):
    from course_lib.commands.check import run_check

    solved = run_check(tr.edition_path(solution, "zh"))
    assert solved.checks and solved.passed, [r for r in solved.checks if not r["passed"]]
    exercise = tr.ROOT / "exercises" / solution.name
    assert exercise in EDITION, f"{solution.name}: the solution is in the edition, its exercise is not"
    stub = tmp_path / "exercises" / "zh" / solution.name  # what build writes, not the learner's working copy
    stub.parent.mkdir(parents=True)
    stub.write_text(tr.rendered(tr.build(exercise, "zh")), encoding="utf-8")
    failed = run_check(stub)
    assert failed.checks and not failed.passed, "the Chinese exercise passes its checks: a check that cannot fail"


def test_the_previous_english_survives_a_read_and_write_while_fuzzy_and_goes_once_translated(tmp_path):
    """Babel's read_po keeps `#| msgid` as a `|` comment; without the fix each write added a `# | msgid` line."""
    src = tmp_path / "a.po"
    src.write_text('#, fuzzy\n#| msgid "Old \\"text\\""\nmsgid "New text"\nmsgstr "旧译文"\n\n'
                   '# | msgid "Older"\nmsgid "Done"\nmsgstr "完成"\n', encoding="utf-8")
    cat = tr.read_catalog(src, "zh")
    assert cat.get("New text").previous_id == ['Old "text"']
    assert cat.get("Done").user_comments == [] and not cat.get("Done").previous_id
    out = tmp_path / "b.po"
    tr.write_catalog(cat, out)
    text = out.read_text(encoding="utf-8")
    assert '#| msgid "Old \\"text\\""' in text and "# |" not in text and "Older" not in text
    again = tmp_path / "c.po"
    tr.write_catalog(tr.read_catalog(out, "zh"), again)
    assert again.read_text(encoding="utf-8") == text


def test_the_english_of_an_exercise_is_its_solutions_stub_not_the_learners_copy(tmp_path):
    """A learner's work in exercises/ must not make the Chinese edition stale (nor `make test` fail)."""
    from course_lib.exercises import exercise_text

    solution = next(p for p in EDITION if p.parts[-2] == "solutions")
    (tmp_path / "solutions").mkdir()
    (tmp_path / "exercises").mkdir()
    shutil.copy(solution, tmp_path / "solutions" / solution.name)
    worked = nbt.read(tr.ROOT / "exercises" / solution.name)
    code = next(c for c in worked.cells if c.cell_type == "code")
    code.source = "# my own attempt\nanswer = 42\n"
    nbt.write(worked, tmp_path / "exercises" / solution.name)
    english = tr.read_english(tmp_path / "exercises" / solution.name, tmp_path)
    assert [c.source for c in english.cells] == [
        c.source for c in nbformat.reads(exercise_text(solution), as_version=4).cells]
    assert all(c.source != code.source for c in english.cells)
