"""``course hint NN``: the next hint of an exercise (each more specific), then where the solution is."""
from __future__ import annotations

import argparse
import os
import sys

from ..i18n import _
from . import add_lang_option, edition_of


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hint", help=_("reveal the next hint of an exercise, e.g. `course hint 01`"))
    p.add_argument("exercise", help=_("exercise number (01) or path to its notebook"))
    p.add_argument("--again", action="store_true", help=_("show the hints revealed so far, without a new one"))
    p.add_argument("--reset", action="store_true", help=_("hide all hints of this exercise again"))
    add_lang_option(p)
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from .. import exercises
    from ..hints import hints_for

    edition_of(exercises.SOLUTIONS, args.exercise)  # a path in exercises/zh/ sets the language of the run
    path = exercises.find(args.exercise, exercises.SOLUTIONS)
    hints = hints_for(path)
    if hints is None:
        print(_("{stem} has no hints yet; its checks' messages and solutions/{name} can help.").format(
            stem=path.stem, name=path.name))
        return 1
    if args.reset:
        hints.reset()
        print(_("All {n} hints of {stem} are hidden again.").format(n=len(hints.steps), stem=path.stem))
        return 0
    shown = hints.show(terminal=True) if args.again else hints.next(terminal=True)
    # a terminal shows markdown as its raw syntax: print what a reader should see (code in colour on a tty)
    print(shown.text(colour=sys.stdout.isatty() and not os.environ.get("NO_COLOR")))
    return 0
