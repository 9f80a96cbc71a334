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
