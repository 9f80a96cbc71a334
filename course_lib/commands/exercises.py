"""``course exercises``: generate exercise notebooks from the solutions, or check they are in sync."""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("exercises", help="generate exercises/ from solutions/ (maintainers)")
    p.add_argument("action", choices=["generate", "check"], help="generate: write them; check: report stale ones")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from ..exercises import generate

    stale = generate(check=args.action == "check")
    for path in stale:
        print(("stale: " if args.action == "check" else "wrote: ") + str(path))
    if not stale:
        print("exercises are in sync with solutions")
    return 1 if (stale and args.action == "check") else 0
