"""Start an exercise again without losing anything: back up, then restore the pristine version.

``course reset NN`` first copies the learner's ``exercises/NN_name.ipynb`` to
``exercises/backups/NN_name.<YYYYmmdd-HHMMSS>.ipynb`` (beside the exercises, visible in
JupyterLab's file browser, ignored by git), checks the copy reads back byte for byte, and only
then writes the pristine exercise, generated from ``solutions/NN_name.ipynb`` exactly as
``course exercises generate`` does. Both writes are atomic (:mod:`course_lib.storage`), so a
crash at any moment leaves either the old file or the new one, and the backup is complete
before the exercise changes. ``course reset NN --list`` shows the saved versions;
``--restore`` brings one back (backing up the current version first, too).

When the exercise is already pristine there is nothing to save and nothing is written.

The Chinese edition's exercises (``exercises/zh/``) are reset the same way, when the learner works in Chinese
(``COURSE_LANG=zh``, ``--lang zh``, a working directory in ``exercises/zh``) or names the notebook by its path:
their pristine version is what ``course notebooks build --lang zh`` generates from the English exercise and its
catalog, and their backups go to ``exercises/zh/backups/``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import nbformat

from . import exercises, notebooks
from .storage import atomic_write_text

BACKUP_FOLDER = "backups"


class ResetError(ValueError):
    """The exercise or backup asked for does not exist (the message lists what does)."""


@dataclass(frozen=True)
class ResetResult:
    """What :func:`reset_exercise` did.

    Attributes:
        exercise: the exercise notebook written.
        backup: where the previous version was saved (None: it was already pristine, or absent).
        changed: False when the exercise was already pristine (nothing was written).
    """

    exercise: Path
    backup: Path | None
    changed: bool

    def __repr__(self) -> str:
        return f"ResetResult({self.exercise.name}, backup={self.backup.name if self.backup else None})"


def backup_dir(exercise: Path) -> Path:
    return exercise.parent / BACKUP_FOLDER


def backups(exercise: Path) -> list[Path]:
    """The saved versions of ``exercise``, oldest first."""
    return sorted(backup_dir(exercise).glob(f"{exercise.stem}.*.ipynb"))


def pristine_text(solution: Path, exercise: Path | None = None) -> str:
    """The pristine text of ``exercise``: generated from ``solution`` as ``course exercises generate`` writes it,
    or, for an exercise of a translated edition (``exercises/zh/NN_x.ipynb``), built from the English exercise
    and its catalog as ``course notebooks build --lang zh`` writes it.

    Raises:
        course_lib.translation.TranslationError: the edition's catalog is not complete.
    """
    lang = _edition_language(exercise.parent) if exercise is not None else None
    if lang is None:
        return exercises.exercise_text(solution)
    from . import translation

    english = exercise.parent.parent / exercise.name
    return translation.rendered(translation.build(english, lang, english.parent.parent))


def _edition_language(folder: Path) -> str | None:
    """The language of a translated edition's folder (``exercises/zh`` -> ``"zh"``), None for the English one."""
    from .i18n import LANGUAGES, SOURCE_LANGUAGE

    name = folder.name
    return name if name in LANGUAGES and name != SOURCE_LANGUAGE else None


def locate(number: str, root: Path | None = None) -> tuple[Path, Path]:
    """``(exercise path, solution path)`` for ``"1"``, ``"01"`` or a notebook path.

    The exercise need not exist (a learner may have deleted it); its solution must.

    Raises:
        ResetError: no solution with that number (the message lists the exercises).
    """
    sol_dir = (root / "solutions") if root else exercises.SOLUTIONS
    ex_dir = (root / "exercises") if root else exercises.EXERCISES
    lang = _learners_edition(number, ex_dir)
    if lang:
        sol_dir, ex_dir = sol_dir / lang, ex_dir / lang
    try:
        solution = exercises.find(Path(number).name.split("_", 1)[0] if number.endswith(".ipynb") else number, sol_dir)
    except FileNotFoundError:
        from .course_map import numbered

        from .i18n import _

        have = ", ".join(p.stem for p in numbered(sol_dir)) or _("none")
        raise ResetError(_("no exercise {number!r} (available: {have})").format(number=number, have=have)) from None
    return ex_dir / solution.name, solution


def _learners_edition(number: str, ex_dir: Path) -> str | None:
    """The translated edition to reset in: the folder of a notebook path (``exercises/zh/01_x.ipynb``), else
    the learner's language when its edition has the exercise (:func:`course_lib.commands.edition_of`)."""
    if number.endswith(".ipynb"):
        return _edition_language(Path(number).resolve().parent)
    from .commands import edition_of

    return _edition_language(edition_of(ex_dir, number))


def _stamp(now: float | None) -> str:
    return time.strftime("%Y%m%d-%H%M%S", time.localtime(now))


def save_backup(exercise: Path, now: float | None = None) -> Path:
    """Copy ``exercise`` into its backup folder under a timestamped name; return the copy.

    Two backups in the same second get ``-2``, ``-3``… suffixes: no backup is ever overwritten.

    Raises:
        OSError: the copy could not be written or does not read back identical (the exercise
            has not been touched).
    """
    data = exercise.read_text(encoding="utf-8")
    folder = backup_dir(exercise)
    folder.mkdir(parents=True, exist_ok=True)
    base = f"{exercise.stem}.{_stamp(now)}"
    target, n = folder / f"{base}.ipynb", 1
    while target.exists():
        n += 1
        target = folder / f"{base}-{n}.ipynb"
    atomic_write_text(target, data)
    if target.read_text(encoding="utf-8") != data:
        raise OSError(f"the backup {target} does not read back identical; {exercise} was left as it was")
    return target


def reset_exercise(number: str, *, root: Path | None = None, now: float | None = None) -> ResetResult:
    """Back up the learner's exercise, then restore the pristine one generated from its solution.

    Args:
        number: ``"01"``, ``"1"`` or a notebook path.
        root: the repository root (default: this checkout; tests pass a temporary copy).
        now: the time used for the backup's name (seconds since the epoch; default: now).

    Returns:
        A :class:`ResetResult`.

    Raises:
        ResetError: unknown exercise.
    """
    exercise, solution = locate(number, root)
    fresh = pristine_text(solution, exercise)
    if exercise.exists():
        if exercise.read_text(encoding="utf-8") == fresh:
            return ResetResult(exercise, None, False)
        backup = save_backup(exercise, now)
    else:
        backup = None
    atomic_write_text(exercise, fresh)
    return ResetResult(exercise, backup, True)


def restore_backup(number: str, which: str, *, root: Path | None = None, now: float | None = None) -> ResetResult:
    """Bring back a saved version (``which``: its number in ``--list``, 1 = oldest, or its file name).

    The current exercise is backed up first (unless it is pristine or identical to the chosen version).

    Raises:
        ResetError: no such backup.
    """
    exercise, solution = locate(number, root)
    saved = backups(exercise)
    chosen = None
    if which.isdigit() and 1 <= int(which) <= len(saved):
        chosen = saved[int(which) - 1]
    else:
        chosen = next((p for p in saved if p.name == Path(which).name), None)
    if chosen is None:
        from .i18n import _

        listing = ", ".join(f"{i + 1}: {p.name}" for i, p in enumerate(saved)) or _("none")
        raise ResetError(_("no saved version {which!r} of {name} (saved: {listing})").format(
            which=which, name=exercise.name, listing=listing))
    text = chosen.read_text(encoding="utf-8")
    backup = None
    if exercise.exists():
        current = exercise.read_text(encoding="utf-8")
        # a pristine exercise holds no work of the learner's: no need to save it
        if current not in (text, pristine_text(solution, exercise)):
            backup = save_backup(exercise, now)
    atomic_write_text(exercise, text)
    return ResetResult(exercise, backup, True)


def edited_cells(path: Path, solution: Path) -> int:
    """How many code cells of ``path`` differ from the pristine exercise (to describe a backup)."""
    try:
        mine = [c.source for c in notebooks.read(path).cells if c.cell_type == "code"]
    except Exception:  # an unreadable backup is still listed, with -1
        return -1
    fresh = [c.source for c in exercises.make_exercise(notebooks.read(solution)).cells if c.cell_type == "code"]
    return sum(a != b for a, b in zip(mine, fresh)) + abs(len(mine) - len(fresh))
