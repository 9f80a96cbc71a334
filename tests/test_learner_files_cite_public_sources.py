"""Learner-facing files cite public sources, never the developers' material.

The kit's developers keep failing inputs from public bug reports under ``../shared/`` with
internal codes ("C-01"...). Neither ships: a learner who reads "case C-17" or
"../shared/cases/..." has nothing to open. Lessons, Q&A notebooks, exercises, solutions,
the library's docstrings and data, the docs and the README name the public report instead
(repository + issue number, or the spec section).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: An internal case code ("C-01", "C-32") or a path into the developers' shared folder.
FORBIDDEN = re.compile(r"\bC-\d{2}\b|shared/")


def learner_facing_files() -> list[Path]:
    """Every file a learner, candidate or instructor reads: what ships and what the docs show."""
    patterns = ["notebooks/**/*.ipynb", "exercises/*.ipynb", "solutions/*.ipynb", "course_lib/**/*.py",
                "course_lib/data/*", "docs/**/*.md", "README.md", "README.zh.md", "translations/**/*.po"]
    files = {p for pattern in patterns for p in ROOT.glob(pattern) if p.is_file()}
    return sorted(p for p in files if "backups" not in p.parts and "__pycache__" not in p.parts)


def offending_lines(text: str) -> list[str]:
    return [line.strip()[:160] for line in text.splitlines() if FORBIDDEN.search(line)]


def test_the_pattern_catches_what_it_must_and_spares_the_rest():
    assert offending_lines("see case C-17 for why") and offending_lines("(C-01)")
    assert offending_lines("``../shared/cases/openai-wire.md``") and offending_lines("shared/SDK-NOTES.md §2")
    assert not offending_lines("modelcontextprotocol/python-sdk#3067, UTF-8, ABC-12, C-3PO, shared or remote")


def test_the_walk_covers_every_kind_of_learner_file():
    names = {p.relative_to(ROOT).as_posix() for p in learner_facing_files()}
    for expected in ["README.md", "notebooks/02_tool_schemas.ipynb", "notebooks/interview/01_function_calling_qa.ipynb",
                     "exercises/01_tool_call_loop.ipynb", "solutions/01_tool_call_loop.ipynb",
                     "course_lib/strict_mode.py", "course_lib/data/interview.json", "docs/architecture.md"]:
        assert expected in names


@pytest.mark.parametrize("path", learner_facing_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_case_code_and_no_shared_path(path):
    bad = offending_lines(path.read_text(encoding="utf-8", errors="replace"))
    assert not bad, ("cite the public source (repository#issue or spec section) instead of an internal case code "
                     f"or ../shared/: {bad}")
