"""Exercises: generated from solutions (in sync), stubs fail their checks, solutions pass them.

``exercises/`` belongs to the learner (the README calls it "yours to edit"): a learner who solved
exercise 01 must still get a green ``make test``. So nothing here reads the working copy of an
exercise or writes into ``exercises/``: the stub-fails tests run on exercises freshly generated
from ``solutions/`` into a temporary folder, and the sync test compares the *committed* exercises
(``git show HEAD:...``) with what the solutions generate.
"""
from __future__ import annotations

import re
import shutil
import subprocess

import nbformat
import pytest

from course_lib import exercises
from course_lib.commands.check import run_check
from course_lib.notebooks import ROOT

SOLUTIONS = exercises.solution_files()
STUB_LINE = 'raise NotImplementedError("Your turn: replace this line with your code.")'


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """``exercises/`` as ``course exercises generate`` writes it, in a temporary folder."""
    target = tmp_path_factory.mktemp("pristine") / "exercises"
    written = exercises.generate(target=target)
    assert sorted(p.name for p in written) == [s.name for s in SOLUTIONS]
    return target


def test_committed_exercises_are_generated_from_solutions():
    assert SOLUTIONS, "no solution notebooks found"
    stale = exercises.out_of_sync()
    assert stale == [], f"run `course exercises generate` and commit the result: {stale}"


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.stem)
def test_solution_passes_and_stub_fails(solution, pristine):
    solved = run_check(solution)
    assert solved.checks, "the solution ran no check"
    assert solved.passed, [r for r in solved.checks if not r["passed"]]
    stub = run_check(exercises.exercise_path(solution, pristine))
    assert not stub.passed, "the generated exercise passes its checks: a check that cannot fail"
    failing = [r for r in stub.checks if not r["passed"]]
    assert failing and all(r["hint"] for r in failing), "every failing check must give a hint"
    # Run All on the untouched exercise reaches a check: the first cell that stops it is a check cell
    # (the "Try it" cell catches the stub's NotImplementedError and says what to do)
    first_stop = next(c for c in stub.cells if c.raised)
    assert first_stop.check is not None and first_stop.error.startswith("CheckFailed"), first_stop


def test_generated_exercises_are_clean_notebooks(pristine):
    """What the hygiene tests ask of shipped notebooks, asked of the pristine exercises (not the learner's)."""
    for path in sorted(pristine.glob("*.ipynb")):
        nb = nbformat.read(str(path), as_version=4)
        assert nb.metadata.get("kernelspec", {}).get("name") == "python3", path.name
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert all(not c.outputs and c.execution_count is None for c in code), path.name
        assert any(STUB_LINE in c.source for c in code), f"{path.name} has no stub to complete"
        assert not any("### BEGIN SOLUTION" in c.source for c in nb.cells), path.name
        first = nb.cells[0]
        assert first.cell_type == "markdown" and first.source.startswith("# ") and "**Time:**" in first.source


def _git(root, *args):
    subprocess.run(["git", "-C", str(root), "-c", "user.name=test", "-c", "user.email=test@example.invalid",
                    "-c", "commit.gpgsign=false",
                    *args], check=True, capture_output=True)


def _solve_like_a_learner(exercise, solution):
    """Paste the solution's code over the stub and save the notebook with outputs, as JupyterLab would."""
    nb = nbformat.read(str(exercise), as_version=4)
    solved = [c.source for c in nbformat.read(str(solution), as_version=4).cells if "### BEGIN SOLUTION" in c.source]
    stubs = [c for c in nb.cells if "# YOUR CODE HERE" in c.source]
    assert stubs and len(stubs) == len(solved)
    for cell, source in zip(stubs, solved):
        cell.source = re.sub(r"[ \t]*### (BEGIN|END) SOLUTION\n?", "", source)
        cell.execution_count = 3
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="it works\n")]
    nbformat.write(nb, str(exercise))


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_learners_solved_exercise_does_not_fail_the_suite(tmp_path):
    """A copy of the course in its own git repository; the learner solves exercise 01 in the working tree."""
    root = tmp_path / "course"
    solutions = root / "solutions"
    solutions.mkdir(parents=True)
    solution = SOLUTIONS[0]
    shutil.copy(solution, solutions / solution.name)
    exercises.generate(solutions=solutions, target=root / "exercises")
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "the course")
    exercise = root / "exercises" / solution.name
    pristine_text = exercise.read_text(encoding="utf-8")

    _solve_like_a_learner(exercise, solutions / solution.name)
    assert STUB_LINE not in exercise.read_text(encoding="utf-8"), "the learner replaced the stub"
    assert exercises.generate(check=True, solutions=solutions, target=root / "exercises") == [exercise], \
        "the working copy really differs from the generated exercise"
    # the suite's two questions, asked of this checkout:
    assert exercises.committed_text(exercise) == pristine_text
    assert exercises.out_of_sync(solutions=solutions, exercises=root / "exercises") == []
    regenerated = tmp_path / "pristine"
    exercises.generate(solutions=solutions, target=regenerated)
    assert (regenerated / solution.name).read_text(encoding="utf-8") == pristine_text, \
        "the stub-fails test runs on the pristine stub, not on the learner's solved copy"

    # a maintainer who changes the solution and forgets to regenerate is still caught
    nb = nbformat.read(str(solutions / solution.name), as_version=4)
    nb.cells[0].source += "\n\nOne more sentence."
    nbformat.write(nb, str(solutions / solution.name))
    assert exercises.out_of_sync(solutions=solutions, exercises=root / "exercises") == [exercise]


def test_committed_text_without_git_is_the_file(tmp_path):
    path = tmp_path / "01_x.ipynb"
    assert exercises.committed_text(path) is None
    path.write_text("{}\n", encoding="utf-8")
    assert exercises.committed_text(path) == "{}\n"


def test_make_test_runs_nbval_on_lessons_and_solutions_but_not_exercises():
    """The learner's exercises fail their checks until solved: nbval must never collect them."""
    recipe = re.search(r"^test: .*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert recipe, "the Makefile has a test target"
    words = recipe.group(1).replace("\\\n", " ").split()
    assert "--nbval" in words and "notebooks" in words and "solutions" in words
    assert "exercises" not in words
