"""The ``course`` command line.

Each sub-command lives in a module of :mod:`course_lib.commands` with a
``register(subparsers)`` function; :data:`COMMAND_MODULES` lists them in help order.
Heavy imports happen inside the commands, so ``course --help`` is instant.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from .i18n import _

COMMAND_MODULES = [
    "course_lib.commands.check",
    "course_lib.commands.hint",
    "course_lib.commands.progress",
    "course_lib.commands.reset",
    "course_lib.commands.preflight",
    "course_lib.commands.slides",
    "course_lib.commands.cheatsheet",
    "course_lib.commands.exercises",
    "course_lib.commands.interview",
    "course_lib.commands.llm",
    "course_lib.commands.mcp",
    "course_lib.commands.a2a",
    "course_lib.commands.notebooks",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="course",
        description=_("Agent Tool Systems: check exercises, serve the mock LLM, maintain notebooks."),
    )
    parser.add_argument("--lang", dest="course_lang", choices=["en", "zh"],
                        help=_("the language of the output for this run (default: COURSE_LANG, else zh inside the "
                               "course's notebooks/zh, exercises/zh or solutions/zh or a folder named zh, else en)"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def _lang_in(argv: list[str]) -> str | None:
    """The language a ``--lang X`` / ``--lang=X`` anywhere in ``argv`` names, when it is a known one, else None.

    Read before the parser is built: the help texts are translated when the parser is built, and argparse
    prints ``--help`` while it parses, before :func:`main` could apply the parsed option.
    """
    from .i18n import LANGUAGES

    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        else:
            continue
        if value in LANGUAGES:
            return value
    return None


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``course`` command; returns the process exit code."""
    argv = sys.argv[1:] if argv is None else argv
    if lang := _lang_in(argv):  # `course --lang zh reset --help`: the help is printed in Chinese too
        from .i18n import set_language

        set_language(lang)
    args = build_parser().parse_args(argv)
    if getattr(args, "course_lang", None):
        from .i18n import set_language

        set_language(args.course_lang)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `course progress | head -3`: the reader left; Python's own advice is to point stdout at devnull
        # so the interpreter's final flush does not raise again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except (FileNotFoundError, ValueError, RuntimeError) as e:
        print(f"course {args.command}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
