"""Exercises: generated from solutions (in sync), stubs fail their checks, solutions pass them."""
from __future__ import annotations

import pytest

from course_lib import exercises
from course_lib.commands.check import run_check

SOLUTIONS = exercises.solution_files()


def test_exercises_are_generated_from_solutions():
    assert SOLUTIONS, "no solution notebooks found"
    stale = exercises.generate(check=True)
    assert stale == [], f"run `course exercises generate`: {stale}"


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.stem)
def test_solution_passes_and_stub_fails(solution):
    solved = run_check(solution)
    assert solved.checks, "the solution ran no check"
    assert solved.passed, [r for r in solved.checks if not r["passed"]]
    stub = run_check(exercises.exercise_path(solution))
    assert not stub.passed, "the generated exercise passes its checks: a check that cannot fail"
    failing = [r for r in stub.checks if not r["passed"]]
    assert failing and all(r["hint"] for r in failing), "every failing check must give a hint"
