"""``course reset NN``: save your version of an exercise with a timestamp, then restore the pristine one."""
from __future__ import annotations

import argparse
import time

from ..i18n import _


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("reset", help=_("start an exercise again (your version is saved first), e.g. `course reset 01`"))
    p.add_argument("exercise", help=_("exercise number (01) or path to its notebook"))
    p.add_argument("--list", action="store_true", help=_("list the saved versions of this exercise"))
    p.add_argument("--restore", metavar="N", help=_("bring back saved version N (from --list) or that file name"))
    p.set_defaults(func=_run)


def _edited(edited: int) -> str:
    """What a saved version changed, for the --list rows (-1: the file is not a readable notebook)."""
    if edited < 0:
        return _("unreadable notebook")
    # two messages, not an appended 's': a translation needs the whole phrase (Chinese has no plural)
    return (_("{n} code cell changed") if edited == 1 else _("{n} code cells changed")).format(n=edited)


def _run(args: argparse.Namespace) -> int:
    from .. import reset

    exercise, solution = reset.locate(args.exercise)
    if args.list:
        saved = reset.backups(exercise)
        if not saved:
            print(_("No saved versions of {name} yet (`course reset {exercise}` makes one).").format(
                name=exercise.name, exercise=args.exercise))
            return 0
        print(_("Saved versions of {name} (in {folder}):").format(name=exercise.name,
                                                                  folder=reset.backup_dir(exercise)))
        for i, p in enumerate(saved, 1):
            st = p.stat()
            what = _edited(reset.edited_cells(p, solution))
            print(f"  {i:>2}. {p.name}  {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(st.st_mtime))}"
                  f"  {st.st_size:>7} " + _("bytes") + f"  {what}")
        print(_("Bring one back with `course reset {exercise} --restore N` (your current version is saved first).")
              .format(exercise=args.exercise))
        return 0
    result = (reset.restore_backup(args.exercise, args.restore) if args.restore
              else reset.reset_exercise(args.exercise))
    if not result.changed:
        print(_("{path} is already pristine: nothing to save, nothing changed.").format(path=exercise))
        return 0
    if result.backup:
        print(_("Saved your version as {path}").format(path=result.backup))
    if args.restore:
        print(_("Restored saved version {n} in {path}").format(n=args.restore, path=result.exercise))
    else:
        print(_("Restored the pristine exercise in {path}").format(path=result.exercise))
    print(_("If the notebook is open in JupyterLab, reload it: File > Reload Notebook from Disk."))
    return 0
