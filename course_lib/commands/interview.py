"""``course interview``: flashcards and mock interviews in a terminal, demos, and notebook building.

``cards``, ``mock`` and ``list`` speak the learner's language (``--lang zh``, ``COURSE_LANG=zh``, the course's Chinese
edition folders or a folder named ``zh``: :func:`course_lib.i18n.language`): the Chinese bank, Chinese labels. ``build --lang zh``
writes the Chinese Q&A notebooks; ``extract``/``status --lang zh`` maintain their catalog.
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import N_, _
from . import add_lang_option

if TYPE_CHECKING:
    from ..interview.demo_translation import DemoStatus


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("interview", help=_("interview practice: flashcards, mock interview, demos"))
    isub = p.add_subparsers(dest="interview_command", metavar="ACTION", required=True)

    ls = isub.add_parser("list", help=_("list the questions (id, topic, difficulty, frequency, demo)"))
    ls.add_argument("--topic", help=_("only this topic"))
    ls.set_defaults(func=_list)
    add_lang_option(ls)

    cards = isub.add_parser("cards", help=_("a flashcard session (review-again and unseen cards first)"))
    cards.add_argument("--topic", action="append", help=_("only this topic (repeatable)"))
    cards.add_argument("--size", type=int, default=10, help=_("cards in the session (default 10)"))
    cards.add_argument("--learner", help=_("whose progress (default: $COURSE_LEARNER or your login name)"))
    cards.set_defaults(func=_cards)
    add_lang_option(cards)

    mock = isub.add_parser("mock", help=_("a timed mock interview with a score"))
    mock.add_argument("-n", type=int, default=5, help=_("number of questions (default 5)"))
    mock.add_argument("--topic", action="append", help=_("only this topic (repeatable)"))
    mock.add_argument("--seed", type=int, help=_("reproducible question draw"))
    mock.set_defaults(func=_mock)
    add_lang_option(mock)

    demo = isub.add_parser("demo", help=_("run the demonstration behind an answer"))
    demo.add_argument("name", help=_("a demo name or a question id (both in `course interview list`)"))
    demo.set_defaults(func=_demo)

    build = isub.add_parser("build", help=_("regenerate notebooks/interview/*_qa.ipynb from the bank (maintainers); "
                                            "with --lang zh, notebooks/zh/interview/ from its translation"))
    build.add_argument("--check", action="store_true", help=_("fail if a notebook is out of date; write nothing"))
    build.set_defaults(func=_build)
    add_lang_option(build)

    for name, func, text in (("extract", _extract, N_("create or update translations/LANG/interview.po from the bank "
                                                       "and the interview UI strings (maintainers)")),
                             ("status", _status, N_("what the LANG translation of the bank lacks (exit 1 if the "
                                                    "edition's notebooks are not current)"))):
        cmd = isub.add_parser(name, help=_(text))
        cmd.add_argument("--lang", dest="course_lang", choices=["zh"], required=True, help=_("the language"))
        cmd.set_defaults(func=func)


def _lang() -> str:
    from ..i18n import language

    return language()


def _list(args: argparse.Namespace) -> int:
    from ..interview.bank import load_bank
    from ..interview.demos import PENDING

    from ..interview.bank import difficulty_label, frequency_label
    from ..text_table import pad

    lang = _lang()
    bank = load_bank(lang=lang)
    if args.topic:
        bank.topic(args.topic)  # an unknown topic: one line naming the topics (cli.main), not an empty list
    for i, q in enumerate(bank.questions, 1):
        if args.topic and q.topic != args.topic:
            continue
        demo = q.demo + (" " + _("(pending)") if q.demo in PENDING else "")
        # English shows the bank's own values; another language its words for them (中等, 高频), padded by display width
        difficulty, frequency = ((q.difficulty, q.frequency) if lang == "en" else
                                 (difficulty_label(q.difficulty, lang), frequency_label(q.frequency, lang)))
        print(f"{i:>2}. {q.id:<26} {q.topic:<17} {pad(difficulty, 6)} {pad(frequency, 6)} {demo}")
    return 0


def _cards(args: argparse.Namespace) -> int:
    from ..interview.bank import load_bank
    from ..interview.cards import Session, pick_cards
    from ..interview.store import CardStore
    from ..interview.terminal import run_cards

    store = CardStore(args.learner)
    run_cards(Session(pick_cards(load_bank(lang=_lang()), store, size=args.size, topics=args.topic), store))
    return 0


def _mock(args: argparse.Namespace) -> int:
    from ..interview.bank import load_bank
    from ..interview.timed import MockInterview
    from ..interview.terminal import run_mock

    run_mock(MockInterview(args.n, topics=args.topic, seed=args.seed, bank=load_bank(lang=_lang())))
    return 0


def demo_name(name: str) -> str:
    """The demo ``course interview demo NAME`` runs: ``NAME`` itself when it is a demo, else the demo of the
    question whose id it is (``fc-five-steps`` -> ``five_steps``).

    Raises:
        LookupError: neither a demo nor a question id (the message says what to give, in the learner's language).
    """
    from ..interview.bank import load_bank
    from ..interview.demos import DEMOS, PENDING

    if name in DEMOS or name in PENDING:
        return name
    question = next((q for q in load_bank(lang="en").questions if q.id == name), None)
    if question is None:
        raise LookupError(_("no demo or question {name!r}: give a demo name or a question id, both listed by "
                            "`course interview list` (for example five_steps or fc-five-steps)").format(name=name))
    return question.demo


def _demo(args: argparse.Namespace) -> int:
    from ..interview.demos import DemoPending, run_demo

    import asyncio

    try:
        pending = run_demo(demo_name(args.name))
    except DemoPending as e:
        raise ValueError(str(e).strip('"')) from None
    if pending is not None:  # an async demo: a terminal has no running event loop, so run one
        asyncio.run(pending)
    return 0


def _build(args: argparse.Namespace) -> int:
    from ..interview.build import build_all, build_all_translated

    lang = getattr(args, "course_lang", None) or "en"
    changed = build_all(check=args.check) if lang == "en" else build_all_translated(lang, check=args.check)
    for path in changed:
        print(("out of date: " if args.check else "written: ") + str(path))
    if not changed:
        print("interview notebooks match the question bank" + (f" and its {lang} translation" if lang != "en" else ""))
    elif not args.check and lang == "en":
        print("now run: course notebooks refresh " + " ".join(str(p) for p in changed)
              + "\nthen: course interview build --lang zh (the Chinese copies take the new outputs)")
    return 1 if args.check and changed else 0


def _extract(args: argparse.Namespace) -> int:
    from ..interview import demo_translation
    from ..interview.localize import catalog_file, extract

    state = extract(args.course_lang)
    print(f"{catalog_file(args.course_lang)}: {len(state.complete_questions)} questions translated, "
          f"{len(state.missing)} fields missing, {len(state.stale)} stale, {len(state.ui_missing)} UI strings missing")
    _print_demos(demo_translation.extract(args.course_lang), demo_translation.catalog_file(args.course_lang))
    return 0


def _print_demos(demos: DemoStatus, path: Path) -> None:
    """One line for the demo catalog, then its stale and invalid demos (maintainers' output: English)."""
    print(f"{path}: {len(demos.translated)} demos translated, {len(demos.shared)} shared (English), "
          f"{len(demos.stale)} stale, {len(demos.invalid)} invalid")
    for name in demos.stale:
        print(f"  stale   demo {name}")
    for line in demos.invalid:
        print(f"  invalid demo {line}")


def _status(args: argparse.Namespace) -> int:
    from ..interview import demo_translation
    from ..interview.bank import load_bank
    from ..interview.build import translated_sync_problems
    from ..interview.localize import status

    state = status(args.course_lang)
    total = len(load_bank())
    print(f"{len(state.complete_questions)} of {total} questions translated; "
          f"{len(state.missing)} fields missing, {len(state.stale)} stale")
    for line in state.problems()[:40]:
        print("  " + line)
    problems = translated_sync_problems(args.course_lang)
    for line in problems:
        print(line)
    demos = demo_translation.status(args.course_lang)
    _print_demos(demos, demo_translation.catalog_file(args.course_lang))
    return 1 if problems or state.stale or state.ui_missing or state.ui_bad or demos.stale or demos.invalid else 0
