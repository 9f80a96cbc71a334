"""``course reset NN``: save your version of an exercise with a timestamp, then restore the pristine one."""
from __future__ import annotations

import argparse
import time


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("reset", help="start an exercise again (your version is saved first), e.g. `course reset 01`")
    p.add_argument("exercise", help="exercise number (01) or path to its notebook")
    p.add_argument("--list", action="store_true", help="list the saved versions of this exercise")
    p.add_argument("--restore", metavar="N", help="bring back saved version N (from --list) or that file name")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from .. import reset

    exercise, solution = reset.locate(args.exercise)
    if args.list:
        saved = reset.backups(exercise)
        if not saved:
            print(f"No saved versions of {exercise.name} yet (`course reset {args.exercise}` makes one).")
            return 0
        print(f"Saved versions of {exercise.name} (in {reset.backup_dir(exercise)}):")
        for i, p in enumerate(saved, 1):
            st = p.stat()
            edited = reset.edited_cells(p, solution)
            what = "unreadable notebook" if edited < 0 else f"{edited} code cell{'s' if edited != 1 else ''} changed"
            print(f"  {i:>2}. {p.name}  {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(st.st_mtime))}"
                  f"  {st.st_size:>7} bytes  {what}")
        print(f"Bring one back with `course reset {args.exercise} --restore N` (your current version is saved first).")
        return 0
    result = (reset.restore_backup(args.exercise, args.restore) if args.restore
              else reset.reset_exercise(args.exercise))
    if not result.changed:
        print(f"{exercise} is already pristine: nothing to save, nothing changed.")
        return 0
    if result.backup:
        print(f"Saved your version as {result.backup}")
    what = f"saved version {args.restore}" if args.restore else "the pristine exercise"
    print(f"Restored {what} in {result.exercise}")
    print("If the notebook is open in JupyterLab, reload it: File > Reload Notebook from Disk.")
    return 0
