"""``course interview``: flashcards and mock interviews in a terminal, demos, and notebook building."""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("interview", help="interview practice: flashcards, mock interview, demos")
    isub = p.add_subparsers(dest="interview_command", metavar="ACTION", required=True)

    ls = isub.add_parser("list", help="list the questions (id, topic, difficulty, frequency, demo)")
    ls.add_argument("--topic", help="only this topic")
    ls.set_defaults(func=_list)

    cards = isub.add_parser("cards", help="a flashcard session (review-again and unseen cards first)")
    cards.add_argument("--topic", action="append", help="only this topic (repeatable)")
    cards.add_argument("--size", type=int, default=10, help="cards in the session (default 10)")
    cards.add_argument("--learner", help="whose progress (default: $COURSE_LEARNER or your login name)")
    cards.set_defaults(func=_cards)

    mock = isub.add_parser("mock", help="a timed mock interview with a score")
    mock.add_argument("-n", type=int, default=5, help="number of questions (default 5)")
    mock.add_argument("--topic", action="append", help="only this topic (repeatable)")
    mock.add_argument("--seed", type=int, help="reproducible question draw")
    mock.set_defaults(func=_mock)

    demo = isub.add_parser("demo", help="run the demonstration behind an answer")
    demo.add_argument("name", help="a demo name (see `course interview list`)")
    demo.set_defaults(func=_demo)

    build = isub.add_parser("build", help="regenerate notebooks/interview/*_qa.ipynb from the bank (maintainers)")
    build.add_argument("--check", action="store_true", help="fail if a notebook is out of date; write nothing")
    build.set_defaults(func=_build)


def _list(args: argparse.Namespace) -> int:
    from ..interview.bank import load_bank
    from ..interview.demos import PENDING

    bank = load_bank()
    for i, q in enumerate(bank.questions, 1):
        if args.topic and q.topic != args.topic:
            continue
        demo = q.demo + (" (pending)" if q.demo in PENDING else "")
        print(f"{i:>2}. {q.id:<26} {q.topic:<17} {q.difficulty:<6} {q.frequency:<6} {demo}")
    return 0


def _cards(args: argparse.Namespace) -> int:
    from ..interview.bank import load_bank
    from ..interview.cards import Session, pick_cards
    from ..interview.store import CardStore
    from ..interview.terminal import run_cards

    store = CardStore(args.learner)
    run_cards(Session(pick_cards(load_bank(), store, size=args.size, topics=args.topic), store))
    return 0


def _mock(args: argparse.Namespace) -> int:
    from ..interview.timed import MockInterview
    from ..interview.terminal import run_mock

    run_mock(MockInterview(args.n, topics=args.topic, seed=args.seed))
    return 0


def _demo(args: argparse.Namespace) -> int:
    from ..interview.demos import DemoPending, run_demo

    import asyncio

    try:
        pending = run_demo(args.name)
    except (DemoPending, KeyError) as e:
        raise ValueError(str(e).strip('"')) from None
    if pending is not None:  # an async demo: a terminal has no running event loop, so run one
        asyncio.run(pending)
    return 0


def _build(args: argparse.Namespace) -> int:
    from ..interview.build import build_all

    changed = build_all(check=args.check)
    for path in changed:
        print(("out of date: " if args.check else "written: ") + str(path))
    if not changed:
        print("interview notebooks match the question bank")
    elif not args.check:
        print("now run: course notebooks refresh " + " ".join(str(p) for p in changed))
    return 1 if args.check and changed else 0
