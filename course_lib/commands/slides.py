"""``course slides NN``: build reveal.js slides of a lesson with nbconvert (no extra service)."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..i18n import _


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("slides", help=_("build reveal.js slides of a lesson, e.g. `course slides 01` (instructors)"))
    p.add_argument("lessons", nargs="*", help=_("lesson numbers (01) or notebook paths; `all` for every lesson"))
    p.add_argument("--out", type=Path, default=None, help=_("output folder (default: _build/slides)"))
    p.add_argument("--execute", action="store_true",
                   help=_("run the lesson first so every output is on the slides"))
    p.add_argument("--reveal-prefix", help=_("URL or relative path of reveal.js 4 (default: a CDN)"))
    p.add_argument("--tag", action="store_true",
                   help=_("instead of building: split cells at section headings and write the derived slide "
                          "metadata into the lessons (maintainers)"))
    p.add_argument("--outline", action="store_true",
                   help=_("instead of building: print each lesson's slide outline"))
    p.set_defaults(func=_run)


def _print_outline(path: Path) -> None:
    """A lesson's slide outline, then the headings that do not start a slide (inside a cell)."""
    from .. import slides
    from ..notebooks import read

    nb = read(path)
    print(path.name)
    for kind, line in slides.outline(nb):
        print(f"  {'▶' if kind == 'slide' else '  ↳'} {line}")
    for cell in nb.cells:  # a heading in the middle of a cell does not start a slide
        for number in slides.hidden_headings(cell):
            print("  ⚠ " + _("not a slide (inside a cell): {heading}  (`course slides --tag {number}` splits it off)")
                  .format(heading=cell.source.splitlines()[number], number=path.name.split('_', 1)[0]))


def _run(args: argparse.Namespace) -> int:
    from .. import slides
    from ..course_map import lessons

    names = args.lessons or []
    if not names:
        print(_("Which lesson? e.g. `course slides 01`, or `course slides all`."))
        return 2
    paths = [l.path for l in lessons()] if names == ["all"] else [slides.find_lesson(n) for n in names]
    for path in paths:
        if args.tag:
            done = slides.tag_notebook(path)
            print(_("{path}: {split} cells split at a section heading, slide metadata on {tagged} more cells")
                  .format(path=path, split=done.split, tagged=done.tagged))
        elif args.outline:
            _print_outline(path)
        else:
            target = slides.build_slides(path, args.out or slides.OUT_DIR, execute=args.execute,
                                         reveal_prefix=args.reveal_prefix)
            print(f"{path.name} -> {target}")
    if not (args.tag or args.outline):
        print(_("Open the file in a browser (arrow keys move, `s` opens the speaker view, `?` lists the keys)."))
        if not args.reveal_prefix and not slides.offline_assets(args.out or slides.OUT_DIR):
            print(_("The decks load reveal.js from a CDN. To present with no network, run once\n  {command}\n"
                    "then build the slides again.").format(command=slides.OFFLINE_HINT))
    return 0
