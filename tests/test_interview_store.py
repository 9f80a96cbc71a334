"""Flashcard progress: per learner, survives restarts, never corrupted by a crash mid-write."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from itertools import count

import pytest

from course_lib.interview.store import (CRASH_EXIT_CODE, MAX_BOX, CardStore, orphaned_temp_files,
                                        simulate_crash_during_save)


@pytest.fixture
def store(tmp_path):
    return CardStore("ada", folder=tmp_path, clock=count(100).__next__)


def test_marks_are_saved_and_read_back_by_a_new_instance(store, tmp_path):
    store.mark("fc-five-steps", known=True)
    store.mark("fc-arguments", known=False)
    again = CardStore("ada", folder=tmp_path)
    assert {k: (v.status, v.box, v.reviews) for k, v in again.cards().items()} == {
        "fc-five-steps": ("known", 1, 1), "fc-arguments": ("review", 0, 1)}


def test_progress_survives_a_kernel_restart(store):
    """Another process (like a restarted kernel) sees exactly what was saved."""
    store.mark("q2-fc-vs-mcp", known=True)
    code = ("from course_lib.interview.store import CardStore; "
            f"print(CardStore('ada', folder={str(store.folder)!r}).get('q2-fc-vs-mcp').status)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "known", out.stderr


def test_leitner_boxes(store):
    for _ in range(MAX_BOX + 2):
        state = store.mark("x", known=True)
    assert state.box == MAX_BOX and state.reviews == MAX_BOX + 2
    assert store.mark("x", known=False).box == 0
    assert store.mark("x", known=True).box == 1


def test_learners_are_separate_and_names_are_safe(tmp_path):
    CardStore("ada", folder=tmp_path).mark("a", known=True)
    bob = CardStore("../../bob smith", folder=tmp_path)
    assert bob.path.parent == tmp_path and bob.path.name == "bob_smith.json"
    assert bob.cards() == {}
    bob.mark("b", known=False)
    assert set(CardStore("ada", folder=tmp_path).cards()) == {"a"}


def test_default_learner_and_folder_come_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("COURSE_LEARNER", "grace")
    monkeypatch.setenv("COURSE_DATA_DIR", str(tmp_path))
    s = CardStore()
    assert s.learner == "grace" and s.path == tmp_path / "interview" / "grace.json"


def test_a_crash_between_write_and_rename_leaves_the_old_file_intact(store):
    store.mark("fc-five-steps", known=True)
    before = store.path.read_bytes()
    assert simulate_crash_during_save(store, "fc-parallel") == CRASH_EXIT_CODE
    assert store.path.read_bytes() == before
    orphans = orphaned_temp_files(store)
    assert len(orphans) == 1
    # The temp file really holds the new, complete content: the crash hit exactly before the rename.
    assert "fc-parallel" in json.loads(orphans[0].read_text())["cards"]
    assert set(store.cards()) == {"fc-five-steps"}
    store.mark("fc-arguments", known=False)  # a later save works
    assert set(CardStore("ada", folder=store.folder).cards()) == {"fc-five-steps", "fc-arguments"}


def test_old_orphans_are_swept_young_ones_kept(store):
    store.mark("a", known=True)
    # What crashed saves leave behind (the same names atomic_write_text gives its temp files).
    old, young = store.folder / ".ada.json.aaaa.tmp", store.folder / ".ada.json.bbbb.tmp"
    old.write_text("{}")
    young.write_text("{}")
    an_hour_ago = time.time() - 3600
    os.utime(old, (an_hour_ago, an_hour_ago))
    store.mark("d", known=True)
    assert orphaned_temp_files(store) == [young]


def test_a_failed_rename_in_process_cleans_up_and_raises(store, monkeypatch):
    store.mark("a", known=True)
    before = store.path.read_bytes()

    def broken_replace(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        store.mark("b", known=True)
    monkeypatch.undo()
    assert store.path.read_bytes() == before and orphaned_temp_files(store) == []


@pytest.mark.parametrize("content", ["{half a file", '["not", "a", "progress", "file"]', '{"cards": {}}'])
def test_an_unreadable_file_is_kept_aside_not_overwritten(store, content):
    store.folder.mkdir(parents=True, exist_ok=True)
    store.path.write_text(content, encoding="utf-8")
    with pytest.warns(RuntimeWarning, match="unreadable"):
        assert store.cards() == {}
    kept = list(store.folder.glob("ada.corrupt-*.json"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == content
    store.mark("a", known=True)
    assert set(store.cards()) == {"a"}


def test_one_damaged_entry_does_not_cost_the_others(store):
    store.mark("good", known=True)
    data = json.loads(store.path.read_text())
    data["cards"]["bad"] = {"status": "known"}
    store.path.write_text(json.dumps(data))
    assert set(store.cards()) == {"good"}


def test_reset(store):
    store.mark("a", known=True)
    store.mark("b", known=False)
    assert store.reset(["b", "zzz"]) == 1 and set(store.cards()) == {"a"}
    assert store.reset() == 1 and store.cards() == {}
    assert "0 cards seen" in repr(store)


def test_atomic_writes_get_the_permissions_of_a_plain_write(tmp_path):
    # mkstemp alone makes 0o600 files: a cheat sheet shared from a workshop machine must be readable (umask 022)
    import os
    import stat

    from course_lib.storage import atomic_write_text

    old = os.umask(0o022)
    try:
        new = tmp_path / "sheet.html"
        atomic_write_text(new, "<p>hi</p>")
        assert stat.S_IMODE(new.stat().st_mode) == 0o644
        kept = tmp_path / "private.md"
        kept.write_text("x")
        kept.chmod(0o600)
        atomic_write_text(kept, "y")
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and kept.read_text() == "y"
    finally:
        os.umask(old)
