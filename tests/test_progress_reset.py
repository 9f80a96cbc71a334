"""`course progress` reads what `course check` stored; `course reset` never loses a learner's work."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from course_lib import cli, progress, reset
from course_lib import exercises as ex_mod
from course_lib.course_map import exercises
from course_lib.notebooks import ROOT


@pytest.fixture
def state(tmp_path, monkeypatch):
    """A fresh, empty learner state folder."""
    monkeypatch.setenv("COURSE_DATA_DIR", str(tmp_path / "state"))
    return tmp_path / "state"


@pytest.fixture
def course(tmp_path):
    """A copy of the course's solutions and its pristine exercises (generated from them, as
    `course exercises generate` does), so resets never touch the real files, and a learner's work in
    `exercises/` (theirs to edit) changes nothing here."""
    root = tmp_path / "course"
    shutil.copytree(ROOT / "solutions", root / "solutions", ignore=shutil.ignore_patterns("backups"))
    ex_mod.generate(solutions=root / "solutions", target=root / "exercises")
    return root


def _edit(path: Path, marker: str) -> str:
    nb = nbformat.read(str(path), as_version=4)
    code = next(c for c in nb.cells if c.cell_type == "code" and "YOUR CODE HERE" in c.source)
    code.source = code.source.replace("raise NotImplementedError", f"pass  # {marker}\n    raise NotImplementedError")
    nbformat.write(nb, str(path))
    return path.read_text(encoding="utf-8")


# --- progress ---------------------------------------------------------------------------------

def test_progress_lists_every_exercise_as_not_started_at_first(state):
    rows = progress.exercise_progress()
    assert [r.key for r in rows] == [e.key for e in exercises()]
    assert rows and all(r.status == progress.NOT_STARTED and r.total_checks == 0 for r in rows)


def test_progress_reads_what_check_recorded(state, capsys):
    key = exercises()[0].key
    checks = [{"name": "a", "passed": True, "hint": ""}, {"name": "b", "passed": False, "hint": "do b"}]
    progress.record(key, False, checks)
    row = next(r for r in progress.exercise_progress() if r.key == key)
    assert (row.status, row.passed_checks, row.total_checks) == (progress.ATTEMPTED, 1, 2)
    assert json.loads((state / "progress.json").read_text())[key]["status"] == "attempted"

    progress.record(key, True, [dict(c, passed=True) for c in checks])
    assert cli.main(["progress"]) == 0
    out = capsys.readouterr().out
    line = next(l for l in out.splitlines() if l.startswith("✅"))
    assert "passed" in line and "2/2" in line
    assert f"1 of {len(exercises())} exercises passed." in out


def test_progress_json_and_map(state, capsys):
    assert cli.main(["progress", "--json", ]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["key"] for r in rows} == {e.key for e in exercises()}
    assert cli.main(["progress", "--map"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^00 +Welcome", out, re.M) and "lessons, about" in out


def test_progress_survives_a_corrupt_file(state):
    state.mkdir(parents=True, exist_ok=True)
    (state / "progress.json").write_text("{ half a file", encoding="utf-8")
    assert all(r.status == progress.NOT_STARTED for r in progress.exercise_progress())


def test_course_check_records_progress_for_the_exercise(state, course, monkeypatch, capsys):
    """The real path: `course check 01` on the untouched exercise records `attempted`."""
    monkeypatch.setattr(ex_mod, "EXERCISES", course / "exercises")
    ex = exercises()[0]
    assert cli.main(["check", ex.number]) == 1
    entry = progress.load()[ex.key]
    assert entry["status"] == progress.ATTEMPTED and entry["checks"]
    assert any(not c["passed"] for c in entry["checks"])


def test_progress_widget_has_a_text_fallback(state):
    view = progress.progress_view()
    assert "exercises passed" in repr(view)
    assert view.widget is not None  # ipywidgets is installed in the course environment


# --- reset ------------------------------------------------------------------------------------

def test_reset_backs_up_then_restores_pristine(course):
    exercise, solution = reset.locate("01", course)
    pristine = exercise.read_text(encoding="utf-8")
    mine = _edit(exercise, "my work")

    result = reset.reset_exercise("1", root=course, now=1_700_000_000)
    assert result.changed and result.backup is not None
    assert result.backup.parent == exercise.parent / "backups"
    assert result.backup.read_text(encoding="utf-8") == mine, "the backup is the learner's exact file"
    assert exercise.read_text(encoding="utf-8") == pristine == reset.pristine_text(solution)


def test_reset_of_a_pristine_exercise_writes_nothing(course):
    exercise, _ = reset.locate("01", course)
    result = reset.reset_exercise("01", root=course)
    assert not result.changed and result.backup is None
    assert reset.backups(exercise) == []


def test_two_resets_in_the_same_second_keep_both_versions(course):
    exercise, _ = reset.locate("01", course)
    first = _edit(exercise, "first try")
    reset.reset_exercise("01", root=course, now=1_700_000_000)
    second = _edit(exercise, "second try")
    reset.reset_exercise("01", root=course, now=1_700_000_000)
    saved = reset.backups(exercise)
    assert len(saved) == 2
    assert {p.read_text(encoding="utf-8") for p in saved} == {first, second}


def test_reset_restores_a_deleted_exercise(course):
    exercise, solution = reset.locate("01", course)
    exercise.unlink()
    result = reset.reset_exercise("01", root=course)
    assert result.changed and result.backup is None
    assert exercise.read_text(encoding="utf-8") == reset.pristine_text(solution)


def test_restore_brings_back_a_saved_version_and_saves_the_current_one(course):
    exercise, _ = reset.locate("01", course)
    mine = _edit(exercise, "keep me")
    reset.reset_exercise("01", root=course, now=1_700_000_000)
    later = _edit(exercise, "later work")
    result = reset.restore_backup("01", "1", root=course, now=1_700_000_100)
    assert exercise.read_text(encoding="utf-8") == mine
    assert result.backup is not None and result.backup.read_text(encoding="utf-8") == later
    with pytest.raises(reset.ResetError, match="saved: 1:"):
        reset.restore_backup("01", "9", root=course)


def test_a_failed_backup_leaves_the_exercise_untouched(course, monkeypatch):
    exercise, _ = reset.locate("01", course)
    mine = _edit(exercise, "precious")

    def disk_full(*a, **k):
        raise OSError("No space left on device")

    monkeypatch.setattr(reset, "atomic_write_text", disk_full)
    with pytest.raises(OSError, match="No space"):
        reset.reset_exercise("01", root=course)
    assert exercise.read_text(encoding="utf-8") == mine


def test_unknown_exercise_lists_the_available_ones(course):
    with pytest.raises(reset.ResetError, match="available: 01_"):
        reset.reset_exercise("99", root=course)


def test_reset_cli_list_and_reset(course, monkeypatch, capsys):
    monkeypatch.setattr(ex_mod, "SOLUTIONS", course / "solutions")
    monkeypatch.setattr(ex_mod, "EXERCISES", course / "exercises")
    exercise, _ = reset.locate("01", course)
    assert cli.main(["reset", "01", "--list"]) == 0
    assert "No saved versions" in capsys.readouterr().out
    _edit(exercise, "cli work")
    assert cli.main(["reset", "01"]) == 0
    out = capsys.readouterr().out
    assert "Saved your version as" in out and "Restored the pristine exercise" in out
    assert cli.main(["reset", "01", "--list"]) == 0
    out = capsys.readouterr().out
    assert " 1. 01_" in out and "1 code cell changed" in out
    assert cli.main(["reset", "42"]) == 2  # a clear error, no traceback
    assert "no exercise '42'" in capsys.readouterr().err


def test_the_progress_table_is_aligned_by_display_width_with_chinese_titles(monkeypatch):
    """A Chinese title takes two columns per character: the checks column ends at the same display column in
    every row (padding by len() would leave the Chinese row short by one column per character)."""
    from course_lib.progress import ExerciseProgress, progress_text
    from course_lib.text_table import display_width

    monkeypatch.setenv("COURSE_LANG", "zh")
    rows = [ExerciseProgress(key="01_a", number="01", title="工具调用循环", status="passed", passed_checks=3,
                             total_checks=3, hints_seen=1, checked_at="2026-12-02T09:00"),
            ExerciseProgress(key="02_b", number="02", title="Schema", status="attempted", passed_checks=1,
                             total_checks=3, hints_seen=0, checked_at="2026-12-02T09:01")]
    lines = progress_text(rows).splitlines()[1:3]
    ends = [display_width(line[:line.index("/3") + 2]) for line in lines]
    assert ends[0] == ends[1], lines


@pytest.fixture
def zh_course(course):
    """The course copy with the Chinese edition's exercises and catalogs (exercises/zh, translations/zh)."""
    shutil.copytree(ROOT / "translations", course / "translations")
    shutil.copytree(ROOT / "exercises" / "zh", course / "exercises" / "zh", ignore=shutil.ignore_patterns("backups"))
    for path in (course / "exercises" / "zh").glob("*.ipynb"):
        path.write_text(ex_mod.committed_text(ROOT / "exercises" / "zh" / path.name), encoding="utf-8")
    return course


def test_reset_of_a_chinese_exercise_restores_the_chinese_one(zh_course, monkeypatch):
    """`course reset 01` in Chinese (COURSE_LANG=zh, or the zh notebook's path) resets exercises/zh/, not the
    English exercise (it used to answer "already pristine" about exercises/01 and leave the Chinese file edited)."""
    monkeypatch.setenv("COURSE_LANG", "zh")
    exercise, solution = reset.locate("01", zh_course)
    assert exercise == zh_course / "exercises" / "zh" / "01_tool_call_loop.ipynb"
    assert solution == zh_course / "solutions" / "zh" / "01_tool_call_loop.ipynb"
    pristine = exercise.read_text(encoding="utf-8")
    assert reset.pristine_text(solution, exercise) == pristine
    mine = _edit(exercise, "我的代码")
    result = reset.reset_exercise("01", root=zh_course, now=1_700_000_000)
    assert result.changed and result.backup.parent == exercise.parent / "backups"
    assert result.backup.read_text(encoding="utf-8") == mine
    assert exercise.read_text(encoding="utf-8") == pristine
    english = zh_course / "exercises" / "01_tool_call_loop.ipynb"
    assert reset.locate("01", zh_course)[0] != english
    monkeypatch.setenv("COURSE_LANG", "en")
    assert reset.locate("01", zh_course)[0] == english
    assert reset.locate(str(exercise), zh_course)[0] == exercise, "a path in exercises/zh/ names the Chinese one"


# --- one exercise, two editions (issue 20 item 2) -----------------------------------------------

def _at(monkeypatch, stamp):
    monkeypatch.setattr(progress.time, "strftime", lambda fmt: stamp)


def test_checking_the_other_edition_never_overwrites_a_pass(state, monkeypatch):
    """A pass in one edition stays a pass when the untouched copy of the other edition is checked, either way
    round; each edition keeps its own last run."""
    a, b = exercises()[2].key, exercises()[4].key
    good, bad = [{"name": "x", "passed": True, "hint": ""}], [{"name": "x", "passed": False, "hint": "do x"}]
    _at(monkeypatch, "2026-12-01T10:00:00")
    progress.record(a, True, good, "en")
    progress.record(b, True, good, "zh")
    _at(monkeypatch, "2026-12-02T10:00:00")
    progress.record(a, False, bad, "zh")
    progress.record(b, False, bad, "en")
    data = json.loads((state / "progress.json").read_text())
    assert (data[a]["status"], data[a]["lang"], data[a]["checked_at"]) == ("passed", "en", "2026-12-01T10:00:00")
    assert (data[b]["status"], data[b]["lang"]) == ("passed", "zh")
    assert {k: v["status"] for k, v in data[a]["editions"].items()} == {"en": "passed", "zh": "attempted"}
    assert data[a]["editions"]["zh"]["checks"] == bad and data[a]["checks"] == good
    assert progress.status(a) == progress.status(b) == progress.PASSED


def test_progress_follows_the_learner_into_the_other_language(state, monkeypatch):
    key = exercises()[0].key
    progress.record(key, True, [{"name": "x", "passed": True, "hint": ""}], "en")
    for lang in ("en", "zh"):
        monkeypatch.setenv("COURSE_LANG", lang)
        row = next(r for r in progress.exercise_progress() if r.key == key)
        assert (row.status, row.passed_checks, row.total_checks) == (progress.PASSED, 1, 1), lang
    assert row.notebook == f"exercises/zh/{key}.ipynb"


def test_within_one_edition_the_last_run_counts_and_the_latest_edition_without_a_pass(state, monkeypatch):
    key = exercises()[1].key
    _at(monkeypatch, "2026-12-01T10:00:00")
    progress.record(key, True, [], "zh")
    _at(monkeypatch, "2026-12-01T11:00:00")
    assert progress.record(key, False, [], "zh")["status"] == progress.ATTEMPTED  # a re-check that fails
    _at(monkeypatch, "2026-12-01T12:00:00")
    entry = progress.record(key, False, [{"name": "y", "passed": False, "hint": ""}], "en")
    assert (entry["status"], entry["lang"], entry["checked_at"]) == ("attempted", "en", "2026-12-01T12:00:00")


def test_an_entry_from_before_editions_is_kept(state):
    key = exercises()[3].key
    state.mkdir(parents=True, exist_ok=True)
    old = {"status": "passed", "checked_at": "2026-11-30T09:00:00", "checks": []}
    (state / "progress.json").write_text(json.dumps({key: old}), encoding="utf-8")
    assert progress.status(key) == progress.PASSED
    entry = progress.record(key, False, [], "zh")
    assert entry["status"] == "passed" and entry["editions"][""] == old and entry["editions"]["zh"]["status"] == "attempted"


def test_course_check_of_the_chinese_exercise_records_the_chinese_edition(state, zh_course, monkeypatch, capsys):
    monkeypatch.setattr(ex_mod, "EXERCISES", zh_course / "exercises")
    monkeypatch.setenv("COURSE_LANG", "en")
    ex = exercises()[0]
    progress.record(ex.key, True, [{"name": "x", "passed": True, "hint": ""}], "en")
    assert cli.main(["check", ex.number, "--lang", "zh"]) == 1
    entry = progress.load()[ex.key]
    assert entry["editions"]["zh"]["status"] == "attempted" and entry["editions"]["en"]["status"] == "passed"
    assert entry["status"] == "passed"
