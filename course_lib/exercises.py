"""Exercises generated from solutions: one source, two views (nbgrader's convention).

``solutions/NN_name.ipynb`` is the only copy. Inside it, code between ``### BEGIN SOLUTION``
and ``### END SOLUTION`` is replaced in ``exercises/NN_name.ipynb`` by::

    # YOUR CODE HERE
    raise NotImplementedError(...)

at the same indentation; markdown between ``<!-- BEGIN SOLUTION -->`` and
``<!-- END SOLUTION -->`` is removed, and cells tagged ``solution-only`` are dropped.
``course exercises generate`` writes the exercises; ``tests/test_exercises.py`` fails when a
committed exercise differs from what the solution generates.
"""
from __future__ import annotations

import re
from pathlib import Path

import nbformat

from . import notebooks

ROOT = notebooks.ROOT
SOLUTIONS = ROOT / "solutions"
EXERCISES = ROOT / "exercises"
_CODE_REGION = re.compile(r"^([ \t]*)### BEGIN SOLUTION[^\n]*\n.*?^[ \t]*### END SOLUTION[^\n]*(\n|$)", re.S | re.M)
_MD_REGION = re.compile(r"<!-- BEGIN SOLUTION -->.*?<!-- END SOLUTION -->\n?", re.S)
STUB = "{indent}# YOUR CODE HERE\n{indent}raise NotImplementedError(\"Your turn: replace this line with your code.\")\n"


class ExerciseError(ValueError):
    """A solution notebook breaks the marker convention (unbalanced markers...)."""


def strip_solution(source: str) -> str:
    """Replace every solution region in a code cell's source by the stub.

    Example:
        >>> print(strip_solution("def f():\\n    ### BEGIN SOLUTION\\n    return 1\\n    ### END SOLUTION\\n"))
        def f():
            # YOUR CODE HERE
            raise NotImplementedError("Your turn: replace this line with your code.")
        <BLANKLINE>
    """
    if source.count("### BEGIN SOLUTION") != source.count("### END SOLUTION"):
        raise ExerciseError("unbalanced ### BEGIN SOLUTION / ### END SOLUTION markers")
    return _CODE_REGION.sub(lambda m: STUB.format(indent=m.group(1)), source)


def make_exercise(solution: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The exercise view of a solution notebook (outputs removed)."""
    nb = notebooks.clean(solution, keep_outputs=False)
    cells = []
    for cell in nb.cells:
        if "solution-only" in cell.metadata.get("tags", []):
            continue
        if cell.cell_type == "code":
            cell.source = strip_solution(cell.source)
        elif cell.cell_type == "markdown":
            cell.source = _MD_REGION.sub("", cell.source)
        cells.append(cell)
    nb.cells = cells
    return nb


def solution_files() -> list[Path]:
    return sorted(SOLUTIONS.glob("[0-9][0-9]_*.ipynb"))


def exercise_path(solution: Path) -> Path:
    return EXERCISES / solution.name


def generate(check: bool = False) -> list[Path]:
    """Write every exercise from its solution. With ``check``, write nothing and return stale ones."""
    stale = []
    for sol in solution_files():
        text = nbformat.writes(make_exercise(notebooks.read(sol))) + "\n"
        target = exercise_path(sol)
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            stale.append(target)
            if not check:
                target.parent.mkdir(exist_ok=True)
                target.write_text(text, encoding="utf-8")
    return stale


def find(number: str, folder: Path = EXERCISES) -> Path:
    """The notebook of exercise ``number`` (``"1"``, ``"01"`` or a path) in ``folder``.

    Raises:
        FileNotFoundError: with the list of available exercises.
    """
    p = Path(number)
    if p.suffix == ".ipynb" and p.exists():
        return p
    key = number.zfill(2)
    hits = sorted(folder.glob(f"{key}_*.ipynb"))
    if not hits:
        have = ", ".join(x.name for x in sorted(folder.glob("*.ipynb"))) or "none"
        raise FileNotFoundError(f"no exercise {number!r} in {folder} (available: {have})")
    return hits[0]
