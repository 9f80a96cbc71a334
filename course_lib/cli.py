"""The ``course`` command line.

Each sub-command lives in a module of :mod:`course_lib.commands` with a
``register(subparsers)`` function; :data:`COMMAND_MODULES` lists them in help order.
Heavy imports happen inside the commands, so ``course --help`` is instant.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import re
import sys

from .i18n import N_, _

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


#: punctuation a Chinese line never starts with (closing brackets and stops)
_NO_LINE_START = frozenset("）)]】」』，。、；：！？,.;:!?")


def wrap_columns(text: str, width: int) -> list[str]:
    """``text`` (whitespace collapsed) in lines of at most ``width`` display columns (UAX #11, as a terminal
    shows them): English words are never split, a Chinese line breaks between any two characters.

    ``textwrap`` counts characters, so Chinese help, two columns a character, ran past the terminal's edge.

    Example:
        >>> wrap_columns("检查练习 check exercises", 10)
        ['检查练习', 'check', 'exercises']
        >>> wrap_columns("幻灯片（讲师用）", 14)
        ['幻灯片（讲师', '用）']
    """
    from .text_table import char_width, display_width

    text = " ".join(text.split())
    if display_width(text) == len(text):  # no wide characters: what argparse has always done
        import textwrap

        return textwrap.wrap(text, width)
    lines, line, used = [], "", 0
    for token in re.findall(r"[\x21-\x7e]+| |.", text):  # ASCII words, spaces, any other single character
        size = sum(char_width(c) for c in token)
        if used + size > width and line.strip():
            carried = ""
            if token in _NO_LINE_START and len(line.rstrip()) > 1:  # "（讲师用" + "）": carry 用 down with it
                line, carried = line.rstrip()[:-1], line.rstrip()[-1]
            lines.append(line.rstrip())
            line, used = carried, sum(char_width(c) for c in carried)
            if token == " ":
                continue
        line, used = line + token, used + size
    if line.strip():
        lines.append(line.rstrip())
    return lines


class CourseHelpFormatter(argparse.HelpFormatter):
    """argparse's formatter in the learner's language: the ``usage:`` heading translated, help wrapped by
    display width (:func:`wrap_columns`). English output is argparse's own, byte for byte."""

    def add_usage(self, usage, actions, groups, prefix=None):  # type: ignore[no-untyped-def]
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap_columns(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrap_columns(text, width - len(indent)))


#: argparse's own error texts as Python 3.11's argparse writes them (its gettext msgids), translated in
#: course_lib.po while a CourseParser parses; a text argparse words otherwise, or any other, prints in English.
ARGPARSE_ERRORS = (
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("invalid %(type)s value: %(value)r"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ignored explicit argument %r"),
)


@contextlib.contextmanager
def _argparse_speaks_course_language():
    """While parsing, argparse's module-level ``_`` (gettext, the ``argparse`` domain the course ships no
    ``.mo`` for) looks up :data:`ARGPARSE_ERRORS` in the course catalog; restored afterwards."""
    english = argparse._
    argparse._ = lambda message: _(message) if message in ARGPARSE_ERRORS else english(message)
    try:
        yield
    finally:
        argparse._ = english


class CourseParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose own headings speak the learner's language ("positional arguments",
    "options", the ``-h`` help, "error:"); its sub-parsers are made of the same class (argparse's
    ``add_subparsers`` uses the parent's class), so every level of ``course ... --help`` is translated.

    argparse translates these with gettext's ``argparse`` domain, for which the course ships no ``.mo``;
    the course catalog holds them instead (``translations/zh/strings/course_lib.po``).
    """

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        kwargs.setdefault("formatter_class", CourseHelpFormatter)
        super().__init__(*args, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        for action in self._actions:
            if isinstance(action, argparse._HelpAction):
                action.help = _("show this help message and exit")

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def,override]
        with _argparse_speaks_course_language():
            return super().parse_known_args(args, namespace)

    def parse_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def,override]
        with _argparse_speaks_course_language():  # "unrecognized arguments" is written here, not in parse_known_args
            return super().parse_args(args, namespace)

    def error(self, message: str):  # type: ignore[no-untyped-def]
        self.print_usage(sys.stderr)
        self.exit(2, _("{prog}: error: {message}").format(prog=self.prog, message=message) + "\n")


def build_parser() -> argparse.ArgumentParser:
    parser = CourseParser(
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
    except LookupError as e:  # an unknown topic or question id: its message, not a traceback (str() would quote it)
        print(f"course {args.command}: {e.args[0] if e.args else e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
