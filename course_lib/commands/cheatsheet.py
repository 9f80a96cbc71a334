"""``course cheatsheet``: every interview question, model answer and comparison table, as Markdown + HTML."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..i18n import _
from . import add_lang_option


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("cheatsheet", help=_("export the interview questions and answers (Markdown + printable HTML)"))
    p.add_argument("--out", type=Path, default=Path("."), help=_("folder to write into (default: current folder)"))
    p.add_argument("--name", default="interview-cheatsheet", help=_("file name without extension"))
    p.set_defaults(func=_run)
    add_lang_option(p)


def _run(args: argparse.Namespace) -> int:
    from ..i18n import language
    from ..interview.bank import load_bank
    from ..interview.cheatsheet import export_cheatsheet
    from ..interview.localize import _t

    bank = load_bank(lang=language())
    md, html = export_cheatsheet(args.out, bank=bank, stem=args.name)
    print(_t("{n} questions, {tables} comparison tables:").format(n=len(bank), tables=len(bank.tables))
          + f"\n  {md}\n  {html}  " + _t("(open it and print)"))
    return 0
