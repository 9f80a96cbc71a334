"""``course progress``: every exercise, not started / attempted / passed, from ``course check`` results."""
from __future__ import annotations

import argparse
import json

from ..i18n import _
from . import add_lang_option


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("progress", help=_("show which exercises you have passed (from `course check` results)"))
    p.add_argument("--json", action="store_true", help=_("print the rows as JSON (for scripts and instructors)"))
    p.add_argument("--map", action="store_true", help=_("show the course map instead of the table: lessons, times, exercises (yours marked ✅ ⏳)"))
    add_lang_option(p)
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from ..progress import exercise_progress, progress_file, progress_summary, progress_text

    rows = exercise_progress()
    if args.json:
        print(json.dumps([asdict(r) for r in rows], indent=2, ensure_ascii=False))
        return 0
    if args.map:  # the map lists every exercise with its mark already: the table would say it twice
        from ..course_map import course_map

        print(course_map().text() + "\n\n" + progress_summary(rows))
    else:
        print(progress_text(rows))
    print(_("(results are kept in {path})").format(path=progress_file()))
    return 0
