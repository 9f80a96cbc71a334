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
from .i18n import LANGUAGES, N_, gettext

ROOT = notebooks.ROOT
SOLUTIONS = ROOT / "solutions"
EXERCISES = ROOT / "exercises"
_CODE_REGION = re.compile(r"^([ \t]*)### BEGIN SOLUTION[^\n]*\n.*?^[ \t]*### END SOLUTION[^\n]*(\n|$)", re.S | re.M)
_MD_REGION = re.compile(r"<!-- BEGIN SOLUTION -->.*?<!-- END SOLUTION -->\n?", re.S)
#: What the stub raises. English here, in the source; each edition's exercises raise it in their language
#: (:func:`localise_stubs`, applied by ``course notebooks build --lang zh``), and :func:`is_stub` knows them all.
STUB_MESSAGE = N_("Your turn: replace this line with your code.")
STUB = "{indent}# YOUR CODE HERE\n{indent}raise NotImplementedError(\"" + STUB_MESSAGE + "\")\n"
_STUB_RAISE = 'raise NotImplementedError("{message}")'


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


def stub_message(lang: str) -> str:
    """The stub's message in ``lang``'s edition: ``"Your turn: replace this line with your code."`` in English,
    ``"轮到你了：把这一行换成你的代码。"`` in Chinese (``translations/zh/strings/course_lib.po``)."""
    return gettext(STUB_MESSAGE, lang)


def stub_markers() -> tuple[str, ...]:
    """What identifies the untouched stub's message in any edition: each language's message and its lead before
    the colon (``"Your turn"``, ``"轮到你了"``), so a shortened stub in a test or an older copy is recognised too.

    Example:
        >>> {"Your turn", "轮到你了"} <= set(stub_markers())
        True
    """
    out: list[str] = []
    for lang in LANGUAGES:
        message = stub_message(lang)
        out += [message, re.split(r"[:：]", message, maxsplit=1)[0]]
    return tuple(dict.fromkeys(out))


def is_stub(error: BaseException) -> bool:
    """True for the exercise's untouched ``raise NotImplementedError(<the stub message>)``, in any edition.

    Example:
        >>> is_stub(NotImplementedError("轮到你了：把这一行换成你的代码。")), is_stub(NotImplementedError("Your turn"))
        (True, True)
        >>> is_stub(NotImplementedError("no CSV reader yet")), is_stub(ValueError("Your turn"))
        (False, False)
    """
    return isinstance(error, NotImplementedError) and any(m in str(error) for m in stub_markers())


def localise_stubs(source: str, lang: str) -> str:
    """A code cell's source with the English stub's ``raise`` in ``lang`` (only that string changes).

    Example:
        >>> print(localise_stubs(strip_solution("def f():\\n    ### BEGIN SOLUTION\\n    return 1\\n    ### END SOLUTION\\n"), "zh"))
        def f():
            # YOUR CODE HERE
            raise NotImplementedError("轮到你了：把这一行换成你的代码。")
        <BLANKLINE>
    """
    english = _STUB_RAISE.format(message=STUB_MESSAGE)
    return source.replace(english, _STUB_RAISE.format(message=stub_message(lang).replace('"', '\\"')))


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


def solution_files(solutions: Path | None = None) -> list[Path]:
    """Every solution notebook (``NN_name.ipynb``, ``NNa_name.ipynb``) in ``solutions`` (default: ``solutions/``)."""
    from .course_map import numbered

    return numbered(solutions or SOLUTIONS)


def exercise_path(solution: Path, exercises: Path | None = None) -> Path:
    """Where the exercise of ``solution`` lives in ``exercises`` (default: the course's ``exercises/``)."""
    return (exercises or EXERCISES) / solution.name


def exercise_text(solution: Path) -> str:
    """The exercise generated from ``solution``, exactly as ``course exercises generate`` writes it."""
    return nbformat.writes(make_exercise(notebooks.read(solution))) + "\n"


def generate(check: bool = False, *, solutions: Path | None = None, target: Path | None = None) -> list[Path]:
    """Write every exercise from its solution. With ``check``, write nothing and return stale ones.

    Args:
        check: only compare (the working copy of each exercise), write nothing.
        solutions: the folder of solution notebooks (default: ``solutions/``).
        target: the folder to write the exercises to (default: ``exercises/``); tests pass a temporary
            folder, so they never write into the learner's ``exercises/``.

    Returns:
        The exercises that differed from their solution (written, unless ``check``).
    """
    stale = []
    for sol in solution_files(solutions):
        text = exercise_text(sol)
        path = exercise_path(sol, target)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(path)
            if not check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    return stale


def committed_text(path: Path) -> str | None:
    """The committed version of ``path`` (``git show HEAD:<path>``), or the file itself outside git.

    ``exercises/`` is the learner's to edit: a solved exercise differs from the committed one, and
    that is no defect of the course. Comparing the committed version keeps ``make test`` green in a
    learner's checkout. A file git does not track (a new exercise not yet committed), or a copy of
    the course without git, falls back to the working file. Returns None when neither exists.
    """
    import subprocess

    path = Path(path).resolve()
    try:
        top = subprocess.run(["git", "-C", str(path.parent), "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True, timeout=30)
        if top.returncode == 0:
            rel = path.relative_to(Path(top.stdout.strip()).resolve()).as_posix()
            shown = subprocess.run(["git", "-C", top.stdout.strip(), "show", f"HEAD:{rel}"],
                                   capture_output=True, timeout=30)
            if shown.returncode == 0:
                return shown.stdout.decode("utf-8")
    except (OSError, ValueError, subprocess.SubprocessError):  # no git, or the path is outside the repo
        pass
    return path.read_text(encoding="utf-8") if path.exists() else None


def out_of_sync(*, solutions: Path | None = None, exercises: Path | None = None) -> list[Path]:
    """The exercises whose *committed* version differs from what their solution generates.

    This is the single-source test's question (developers' guide: exercises and solutions come from
    one source): a maintainer who changed a solution and forgot ``course exercises generate`` (and the
    commit) gets the exercise's name; a learner's edits to their working copy are not reported.
    """
    return [exercise_path(sol, exercises) for sol in solution_files(solutions)
            if committed_text(exercise_path(sol, exercises)) != exercise_text(sol)]


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
        from .i18n import _

        have = ", ".join(x.name for x in sorted(folder.glob("*.ipynb"))) or _("none")
        raise FileNotFoundError(_("no exercise {number!r} in {folder} (available: {have})").format(
            number=number, folder=folder, have=have))
    return hits[0]
