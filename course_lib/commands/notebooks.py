"""``course notebooks``: clean metadata, or re-execute lessons and store their outputs (maintainers)."""
from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("notebooks", help="clean or refresh the shipped notebooks (maintainers)")
    p.add_argument("action", choices=["clean", "check", "refresh"],
                   help="clean: strip noisy metadata in place; check: fail if cleaning would change a file; "
                        "refresh: execute lessons and save their outputs")
    p.add_argument("paths", nargs="*", type=Path, help="notebooks (default: all shipped notebooks)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from .. import notebooks as nbt

    paths = args.paths or nbt.shipped_notebooks()
    bad = 0
    for path in paths:
        if args.action == "refresh":
            if not nbt.keeps_outputs(path):
                nbt.clean_file(path)
                continue
            errs = nbt.refresh_outputs(path)
            print(f"{'FAILED' if errs else 'refreshed'}: {path}" + "".join(f"\n   cell {i}: {n}: {v}" for i, n, v in errs))
            bad += bool(errs)
        else:
            changed = nbt.clean_file(path, check=args.action == "check")
            if changed:
                print(("needs cleaning: " if args.action == "check" else "cleaned: ") + str(path))
                bad += args.action == "check"
    return 1 if bad else 0
