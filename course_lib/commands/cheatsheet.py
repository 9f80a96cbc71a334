"""``course cheatsheet``: every interview question, model answer and comparison table, as Markdown + HTML."""
from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("cheatsheet", help="export the interview questions and answers (Markdown + printable HTML)")
    p.add_argument("--out", type=Path, default=Path("."), help="folder to write into (default: current folder)")
    p.add_argument("--name", default="interview-cheatsheet", help="file name without extension")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from ..interview.bank import load_bank
    from ..interview.cheatsheet import export_cheatsheet

    bank = load_bank()
    md, html = export_cheatsheet(args.out, bank=bank, stem=args.name)
    print(f"{len(bank)} questions, {len(bank.tables)} comparison tables:\n  {md}\n  {html}  (open it and print)")
    return 0
