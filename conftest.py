"""pytest configuration shared by the library tests and nbval runs of the notebooks.

Every figure a notebook displays is measured against the course's figure standard
(:mod:`course_lib.figure_standard`): the kernels record an audit of each figure they show
(``COURSE_FIGURE_AUDIT``), and an nbval cell whose figure breaks the standard fails, naming
each problem.

Lessons are saved without execution counts (clean diffs, see ``course notebooks clean``),
but nbval only compares the outputs of cells that have one ("unrun" cells with outputs are
an error). So, in memory only, every saved cell that has outputs gets a count before
nbval runs it, and its stored outputs are compared with fresh ones.
"""
from __future__ import annotations

import os
import tempfile

# Tests and nbval kernels (they inherit this environment) never write to the learner's own progress, and never
# reach a real endpoint even when the learner's shell exports OPENAI_API_KEY.
os.environ["COURSE_DATA_DIR"] = tempfile.mkdtemp(prefix="course-test-data-")
os.environ["COURSE_LLM"] = "mock"
# The language course_lib speaks follows the working directory (course_lib.i18n): a kernel in notebooks/zh speaks
# Chinese, one in notebooks/ English, as their stored outputs do; a COURSE_LANG the shell exports would override both.
os.environ.pop("COURSE_LANG", None)
# Each pytest process (xdist worker) gets its own folder: its kernels append one record per figure shown.
os.environ["COURSE_FIGURE_AUDIT"] = tempfile.mkdtemp(prefix="course-figure-audit-")

import pytest  # noqa: E402  (after the environment is set: kernels inherit it)


@pytest.fixture(autouse=True)
def _course_lang_restored():
    """`course --lang zh ...` sets COURSE_LANG for its process (so the kernels it starts inherit it): in a test that
    would leak into every later test of the same worker, which would then speak Chinese."""
    before = os.environ.get("COURSE_LANG")
    yield
    if before is None:
        os.environ.pop("COURSE_LANG", None)
    else:
        os.environ["COURSE_LANG"] = before


def pytest_collection_modifyitems(session, config, items):
    for item in items:
        cell = getattr(item, "cell", None)
        if cell is not None and cell.get("outputs") and cell.get("execution_count") is None:
            cell["execution_count"] = getattr(item, "cell_num", 0) + 1


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """An nbval cell fails when a figure it displayed breaks the figure standard (its problems are listed)."""
    if getattr(item, "cell", None) is None:
        return (yield)
    from course_lib.figure_standard import problems_of, read_records

    folder = os.environ["COURSE_FIGURE_AUDIT"]
    _, before = read_records(folder)
    result = yield
    records, _ = read_records(folder, before)
    problems = problems_of(records)
    if problems:
        raise AssertionError("a figure in this cell breaks the course's figure standard "
                             "(course_lib/figure_standard.py):\n" + "\n".join(f"  - {p}" for p in problems))
    return result
