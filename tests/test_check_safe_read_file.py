"""Exercise 05's checks name each typical mistake, and pass the worked solution."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from course_lib.checks import CheckFailed
from course_lib.checks.safe_read_file import ATTACK_HINTS, check_safe_read_file
from course_lib.attack_lab import load_attacks

MAX_PATH = 1024


def solution(root):
    root = Path(root).resolve()

    def read_file(path):
        if not isinstance(path, str) or not path or "\x00" in path or len(path) > MAX_PATH:
            raise PermissionError("refused: not an acceptable path")
        real = (root / path).resolve()
        if not real.is_relative_to(root):
            raise PermissionError(f"refused: {path!r} resolves outside the project")
        return real.read_text(encoding="utf-8")
    return read_file


def naive(root):
    def read_file(path):
        return open(os.path.join(root, path)).read()
    return read_file


def abspath_only(root):
    def read_file(path):
        full = os.path.abspath(os.path.join(root, path))  # no symlinks followed
        if not full.startswith(str(root) + os.sep):
            raise PermissionError("outside")
        return open(full).read()
    return read_file


def rejects_dotdot(root):
    inner = solution(root)

    def read_file(path):
        if ".." in path:
            raise PermissionError("no .. allowed")
        return inner(path)
    return read_file


def string_prefix(root):
    def read_file(path):
        if "\x00" in path or len(path) > MAX_PATH:
            raise PermissionError("bad path")
        real = str((Path(root) / path).resolve())
        if not real.startswith(str(root)):
            raise PermissionError("outside")
        return open(real).read()
    return read_file


def no_length_limit(root):
    root = Path(root).resolve()

    def read_file(path):
        real = (root / path).resolve()
        if not real.is_relative_to(root):
            raise PermissionError("outside")
        return real.read_text()
    return read_file


def returns_message(root):
    inner = solution(root)

    def read_file(path):
        try:
            return inner(path)
        except PermissionError as e:
            return f"error: {e}"
    return read_file


def failures(make_read_file) -> dict[str, str]:
    with pytest.raises(CheckFailed) as e:
        check_safe_read_file(make_read_file)
    return {r.name: r.hint for r in e.value.report.results if not r.passed}


def test_the_solution_passes_every_attack_and_read():
    report = check_safe_read_file(solution)
    read_attacks = [a for a in load_attacks() if a["tool"] == "read_file"]
    assert report.passed and len(report.results) == 1 + 5 + len(read_attacks)


def test_every_read_attack_has_a_hint():
    assert {a["id"] for a in load_attacks() if a["tool"] == "read_file"} == set(ATTACK_HINTS)


def test_the_naive_version_leaks_and_is_told_why():
    failed = failures(naive)
    leaks = [h for h in failed.values() if h.startswith("It LEAKED THE SECRET")]
    assert len(leaks) >= 5
    assert any("`Path.resolve()` does" in h for h in failed.values())  # the symlink attack


def test_abspath_misses_symlinks():
    failed = failures(abspath_only)
    assert {n.split()[1] for n in failed} >= {"symlink-file", "symlink-dir"}
    assert not any(n.startswith("reads") for n in failed)
    assert "`Path.resolve()` does" in failed["blocks symlink-file (a symlink inside the project points to the "
                                           "secret outside)"]


def test_rejecting_every_dotdot_breaks_a_legitimate_read():
    failed = failures(rejects_dotdot)
    assert list(failed) == ["reads docs/../README.md"]
    assert "do not reject every `..`" in failed["reads docs/../README.md"]


def test_string_prefix_comparison_falls_for_the_sibling_folder():
    failed = failures(string_prefix)
    assert [n.split()[1] for n in failed] == ["prefix-confusion"]
    assert "is_relative_to" in next(iter(failed.values()))


def test_missing_nul_and_length_checks_are_named_alike():
    """Neither check written: the OS's "File name too long" and Python's own "embedded null byte" ValueError
    are both accidents, not refusals (the exercise asks for PermissionError for every refusal)."""
    failed = {n.split()[1]: h for n, h in failures(no_length_limit).items()}
    assert sorted(failed) == ["long-path", "nul-byte"]
    assert "MAX_PATH" in failed["long-path"] and "raise PermissionError" in failed["long-path"]
    assert failed["nul-byte"].startswith("Python itself raised ValueError: embedded null byte: your code did not "
                                         "refuse the path")
    assert "raise PermissionError" in failed["nul-byte"]


def value_error_refusals(root):
    inner = solution(root)

    def read_file(path):
        if "\x00" in path or len(path) > MAX_PATH:
            raise ValueError("bad path")
        return inner(path)
    return read_file


def test_a_deliberate_value_error_is_not_the_refusal_the_exercise_asks_for():
    failed = {n.split()[1]: h for n, h in failures(value_error_refusals).items()}
    assert sorted(failed) == ["long-path", "nul-byte"]
    assert all(h.startswith("Every refusal must be a `PermissionError` (yours: ValueError: bad path)")
               for h in failed.values())


def test_the_exercise_text_asks_for_permission_error_for_every_refusal():
    from course_lib.notebooks import ROOT
    import nbformat

    nb = nbformat.read(str(ROOT / "solutions" / "05_safe_read_file.ipynb"), as_version=4)
    text = " ".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "`PermissionError` for every refusal" in text and "NUL byte" in text and "`MAX_PATH`" in text


def test_returning_an_error_message_is_not_a_refusal():
    failed = failures(returns_message)
    assert len(failed) == len(ATTACK_HINTS)
    assert all("not a returned message" in h for h in failed.values())
