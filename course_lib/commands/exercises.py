"""``course exercises``: generate exercise notebooks from the solutions, or check they are in sync."""
from __future__ import annotations

import argparse

from ..i18n import _


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("exercises", help=_("generate exercises/ from solutions/ (maintainers)"))
    p.add_argument("action", choices=["generate", "check"],
                   help=_("generate: write them; check: report stale ones"))
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from ..exercises import generate

    stale = generate(check=args.action == "check")
    for path in stale:
        print((_("stale: {path}") if args.action == "check" else _("wrote: {path}")).format(path=path))
    if not stale:
        print(_("exercises are in sync with solutions"))
    return 1 if (stale and args.action == "check") else 0
