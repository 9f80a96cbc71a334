"""pytest configuration shared by the library tests and nbval runs of the notebooks.

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


def pytest_collection_modifyitems(session, config, items):
    for item in items:
        cell = getattr(item, "cell", None)
        if cell is not None and cell.get("outputs") and cell.get("execution_count") is None:
            cell["execution_count"] = getattr(item, "cell_num", 0) + 1
