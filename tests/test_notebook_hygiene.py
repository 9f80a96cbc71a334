"""Every shipped notebook is clean: python3 kernelspec, no counts, no widget state (C-31, C-32)."""
from __future__ import annotations

import json
import re

import nbformat
import pytest

from course_lib import notebooks as nbt

# exercises/ is the learner's to edit (and to run and save with outputs): the pristine exercises
# are checked by tests/test_exercises.py, generated from these solutions.
NOTEBOOKS = [p for p in nbt.shipped_notebooks() if "exercises" not in p.relative_to(nbt.ROOT).parts]


def test_there_are_notebooks():
    names = {p.name for p in NOTEBOOKS}
    assert {"00_welcome.ipynb", "01_function_calling.ipynb", "01_tool_call_loop.ipynb"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(nbt.ROOT)))
def test_notebook_is_clean(path):
    nb = nbformat.read(path, as_version=4)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"
    assert "widgets" not in nb.metadata
    assert all(c.get("execution_count") is None for c in nb.cells if c.cell_type == "code")
    text = path.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" not in text
    assert not re.search(r"0x7f[0-9a-f]{6,}", text), "memory address in a saved output"
    assert not nbt.clean_file(path, check=True), f"run `course notebooks clean {path}`"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(nbt.ROOT)))
def test_notebook_opens_with_a_title_and_time(path):
    first = nbformat.read(path, as_version=4).cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# ")
    assert re.search(r"\*\*Time\*\*|\*\*Time:\*\*|\*\*时长\*\*", first.source), "state the estimated time in the first cell"


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if not nbt.keeps_outputs(p)],
                         ids=lambda p: str(p.relative_to(nbt.ROOT)))
def test_exercises_and_solutions_have_no_outputs(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code")
