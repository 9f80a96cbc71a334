"""``course preflight``: check this machine for the course in under a minute, offline, with a pass/fail list."""
from __future__ import annotations

import argparse
import json

from ..i18n import _
from . import add_lang_option


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("preflight", help=_("check this machine is ready for the course (offline, < 1 minute)"))
    p.add_argument("--only", metavar="NAMES", help=_("comma-separated checks to run (default: all)"))
    p.add_argument("--skip", metavar="NAMES", help=_("comma-separated checks to leave out"))
    p.add_argument("--list", action="store_true", help=_("list the checks and exit"))
    p.add_argument("--json", action="store_true", help=_("print the results as JSON (for collecting from a room)"))
    add_lang_option(p)
    p.set_defaults(func=_run)


def _names(text: str | None) -> list[str] | None:
    return [n.strip() for n in text.split(",") if n.strip()] if text else None


def _run(args: argparse.Namespace) -> int:
    from .. import preflight

    if args.list:
        for name, fn in preflight.CHECKS:
            print(f"{name:<11} {(fn.__doc__ or '').strip().splitlines()[0] if fn.__doc__ else ''}".rstrip())
        return 0
    if not args.json:
        print(_("Pre-flight check for Agent Tool Systems (offline: loopback only, mock LLM)") + "\n")
    results = preflight.run_checks(_names(args.only), _names(args.skip),
                                   on_result=None if args.json else (lambda r: print(r.line(), flush=True)))
    if args.json:
        print(json.dumps([r.__dict__ for r in results], indent=2))
    else:
        print("\n" + preflight.summary(results))
    return 1 if any(r.status == "fail" for r in results) else 0
