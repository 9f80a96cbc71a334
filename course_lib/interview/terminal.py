"""Flashcards and mock interviews in a terminal, for learners without Jupyter widgets.

``course interview cards`` and ``course interview mock`` call these loops. Input and output
are injectable (``ask`` returns one line, ``say`` prints), so tests drive them with a
script of answers instead of a keyboard. An answer is typed over several lines and ends
with an empty line; end of input (Ctrl+D) stops the session, keeping what was saved.
"""
from __future__ import annotations

from typing import Callable

from .bank import difficulty_label, render_text
from .cards import Session
from .timed import MockInterview, Report
from .scoring import feedback, score_answer
from .localize import _t

Ask = Callable[[str], str]
Say = Callable[[str], None]


def _read_answer(ask: Ask) -> str | None:
    """Lines until an empty one; None at end of input."""
    lines = []
    while True:
        try:
            line = ask("> ")
        except EOFError:
            return None if not lines else "\n".join(lines)
        if not line.strip():
            return "\n".join(lines)
        lines.append(line)


def run_cards(session: Session, *, ask: Ask = input, say: Say = print) -> Session:
    """Go through ``session`` card by card: answer, see the model answer, mark it.

    Returns:
        The session (its marks are already saved in the learner's store).
    """
    say(_t("{n} cards for {learner!r}. Type an answer (empty line to finish it), "
           "or just press Enter to think it through.").format(n=len(session.cards), learner=session.store.learner))
    while not session.done:
        q = session.current
        say(f"\n[{session.index + 1}/{len(session.cards)}] {render_text(q, answer=False)}")
        typed = _read_answer(ask)
        if typed is None:
            break
        if typed.strip():
            result = score_answer(q, typed)
            say(_t("You made {made} of {n} framework points:").format(made=len(result.made), n=len(q.framework))
                + "\n" + feedback(q, result))
        say("\n" + session.reveal())
        try:
            verdict = ask(_t("Did you know it? [y]es / [n]o (review again): ")).strip().lower()
        except EOFError:
            break
        session.mark(known=verdict.startswith(("y", "是", "会")))
    say("\n" + _t("Session: {summary}. Progress saved in {path}").format(summary=session.summary(),
                                                                         path=session.store.path))
    return session


def run_mock(interview: MockInterview, *, ask: Ask = input, say: Say = print) -> Report:
    """Ask each question with its time budget, score the answers, print the report.

    Returns:
        The :class:`Report` (for the questions answered before end of input).
    """
    n = len(interview.questions)
    say((_t("Mock interview: 1 question.") if n == 1 else _t("Mock interview: {n} questions.").format(n=n)) + " "
        + _t("Each has a time budget; the clock runs while you type. End each answer with an empty line."))
    while not interview.finished:
        q = interview.current
        say("\n" + _t("Question {i}/{n} ({difficulty}, {seconds} s): {question}").format(
            i=interview.index + 1, n=len(interview.questions), difficulty=difficulty_label(q.difficulty),
            seconds=f"{interview.budget():.0f}", question=q.question))
        interview.start()
        typed = _read_answer(ask)
        if typed is None:
            break
        s = interview.answer(typed)
        late = _t(" (late: -20)") if s.late else ""
        say(_t("→ {score}/100: {made} of {n} points, {bonus} bonus").format(
            score=s.score, made=len(s.made), n=len(q.framework), bonus=len(s.bonus)) + late)
    report = interview.report()
    say("\n" + report.text())
    return report
