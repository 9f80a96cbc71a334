"""Flashcards: a session of questions, review-again and unseen cards first, progress saved per learner.

A :class:`Session` is plain Python (``current``, ``reveal()``, ``mark(known=...)``), so it
works in a terminal (``course interview cards``), in tests and behind the widget.
:func:`flashcards` wraps it in an ipywidgets card (question → your answer → reveal the
model answer → "I knew it" / "Review again") and, like every widget of the course,
carries a text fallback for places where widgets cannot render.

Which cards a session shows (:func:`pick_cards`): first the cards marked "review again"
(the longest-waiting first), then cards never seen (in bank order, or shuffled with a
``seed``), then known cards, lowest Leitner box and longest unseen first. So a short
daily session always starts with what the learner does not know yet.
Taught in ``notebooks/interview/00_practice.ipynb``.
"""
from __future__ import annotations

import html
import random
from typing import Any

from ..widgets import WithFallback, widgets_available
from .bank import (Bank, Question, difficulty_label, frequency_label, load_bank, markdown_html, render_markdown,
                   render_text)
from .localize import _t
from .scoring import feedback_markdown, score_answer
from .store import KNOWN, REVIEW, CardState, CardStore

DEFAULT_SIZE = 10


def pick_cards(bank: Bank, store: CardStore, *, size: int = DEFAULT_SIZE, topics: str | list[str] | None = None,
               difficulty: str | list[str] | None = None, seed: int | None = None) -> list[Question]:
    """Choose the cards of a session.

    Args:
        bank: the question bank.
        store: the learner's progress.
        size: at most this many cards.
        topics, difficulty: filters (see :meth:`Bank.select`).
        seed: shuffle the unseen cards with this seed (``None``: bank order).

    Returns:
        Review-again cards (oldest mark first), then unseen cards, then known cards
        (lowest box, then oldest mark first), cut to ``size``.
    """
    pool = bank.select(topics=topics, difficulty=difficulty)
    states = store.cards()
    review = sorted((q for q in pool if _status(states, q) == REVIEW), key=lambda q: states[q.id].last)
    unseen = [q for q in pool if q.id not in states]
    if seed is not None:
        random.Random(seed).shuffle(unseen)
    known = sorted((q for q in pool if _status(states, q) == KNOWN),
                   key=lambda q: (states[q.id].box, states[q.id].last))
    return (review + unseen + known)[:max(0, size)]


def _status(states: dict[str, CardState], q: Question) -> str | None:
    s = states.get(q.id)
    return s.status if s else None


class Session:
    """One flashcard session over a fixed list of cards.

    Args:
        cards: the questions, in order (usually from :func:`pick_cards`).
        store: where marks are saved.

    Example:
        >>> import tempfile
        >>> bank = load_bank()
        >>> store = CardStore("demo", folder=tempfile.mkdtemp())
        >>> s = Session(pick_cards(bank, store, size=2), store)
        >>> s.current.id, s.mark(known=False).status, s.current.id
        ('fc-five-steps', 'review', 'fc-arguments')
    """

    def __init__(self, cards: list[Question], store: CardStore) -> None:
        self.cards = list(cards)
        self.store = store
        self.index = 0
        self.revealed = False
        self.results: dict[str, str] = {}

    @property
    def current(self) -> Question | None:
        """The card being shown, or None when the session is over."""
        return self.cards[self.index] if self.index < len(self.cards) else None

    @property
    def done(self) -> bool:
        return self.current is None

    def reveal(self) -> str:
        """Show the model answer of the current card (returns it as text, without the question)."""
        if self.current is None:
            raise RuntimeError("the session is over; start a new one")
        self.revealed = True
        return render_text(self.current, question=False)

    def mark(self, *, known: bool) -> CardState:
        """Save "I knew it" / "review again" for the current card and move to the next.

        Raises:
            RuntimeError: the session is over.
        """
        q = self.current
        if q is None:
            raise RuntimeError("the session is over; start a new one")
        state = self.store.mark(q.id, known=known)
        self.results[q.id] = state.status
        self.index += 1
        self.revealed = False
        return state

    def summary(self) -> str:
        """``"3 known, 1 to review, 6 left"`` (in the learner's language)."""
        known = sum(v == KNOWN for v in self.results.values())
        return _t("{known} known, {review} to review, {left} left").format(
            known=known, review=len(self.results) - known, left=len(self.cards) - self.index)

    def text(self) -> str:
        """The session as plain text: the cards in order, with the learner's last mark."""
        states = self.store.cards()
        lines = [_t("Flashcards for {learner!r}: {n} cards (review-again and unseen first).").format(
            learner=self.store.learner, n=len(self.cards))]
        for i, q in enumerate(self.cards, 1):
            s = states.get(q.id)
            mark = (_t("new") if s is None else _t("review again") if s.status == REVIEW
                    else _t("known (box {box})").format(box=s.box))
            lines.append(f"{i:>2}. [{mark}] {q.question}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Session({len(self.cards)} cards, at {self.index + 1}, {self.summary()})"


def flashcards(*, topics: str | list[str] | None = None, difficulty: str | list[str] | None = None,
               size: int = DEFAULT_SIZE, learner: str | None = None, store: CardStore | None = None,
               seed: int | None = None, bank: Bank | None = None) -> WithFallback:
    """A flashcard widget for one session (JupyterLab), with the session's text as fallback.

    Args:
        topics, difficulty, size, seed: which cards (see :func:`pick_cards`).
        learner: whose progress (default: ``$COURSE_LEARNER`` or the login name).
        store: a :class:`CardStore` to use instead (e.g. a temporary one).
        bank: the question bank (default: the course's).

    Returns:
        A :class:`~course_lib.widgets.WithFallback`: the widget in Jupyter, the card list
        elsewhere. Its ``.session`` attribute is the underlying :class:`Session`.
    """
    bank = bank or load_bank()
    store = store or CardStore(learner)
    session = Session(pick_cards(bank, store, size=size, topics=topics, difficulty=difficulty, seed=seed), store)
    widget = _card_widget(session, bank) if widgets_available() and session.cards else None
    shown = WithFallback(widget, session.text() if session.cards else _t("No cards match these filters."))
    shown.session = session  # type: ignore[attr-defined]
    return shown


def _card_widget(session: Session, bank: Bank) -> Any:
    import ipywidgets as w

    header, question, verdict = w.HTML(), w.HTML(), w.HTML()
    answer_box = w.Textarea(placeholder=_t("Answer out loud or type it here, then show the model answer."),
                            layout=w.Layout(width="100%", height="110px"))
    model = w.HTML()
    reveal_b = w.Button(description=_t("Show answer"), button_style="info", icon="eye")
    known_b = w.Button(description=_t("I knew it"), button_style="success", icon="check")
    review_b = w.Button(description=_t("Review again"), button_style="warning", icon="refresh")
    marks = w.HBox([known_b, review_b])

    def show() -> None:
        q = session.current
        if q is None:
            header.value = "<b>" + html.escape(_t("Session complete.")) + "</b>"
            question.value = "<p>" + html.escape(_t("{summary}. Run the cell again for a new session.").format(
                summary=session.summary())) + "</p>"
            for x in (answer_box, reveal_b, marks, model, verdict):
                x.layout.display = "none"
            return
        header.value = ("<span style='color:#666'>"
                        + html.escape(_t("card {i} / {n}").format(i=session.index + 1, n=len(session.cards)))
                        + f" · {html.escape(bank.topic(q.topic).title)} · {difficulty_label(q.difficulty)} · "
                        f"{frequency_label(q.frequency)}</span>")
        question.value = f"<h3 style='margin:4px 0'>{html.escape(q.question)}</h3>"
        answer_box.value = ""
        model.value = verdict.value = ""
        answer_box.layout.display = reveal_b.layout.display = None
        marks.layout.display = "none"

    def on_reveal(_: Any) -> None:
        q = session.current
        if q is None:
            return
        session.reveal()
        if answer_box.value.strip():
            verdict.value = markdown_html(feedback_markdown(q, score_answer(q, answer_box.value)))
        model.value = markdown_html("#### " + _t("Model answer") + "\n\n"
                                    + render_markdown(q, bank, level=4, heading=False))
        reveal_b.layout.display = "none"
        marks.layout.display = None

    def on_mark(known: bool) -> None:
        if session.current is not None:
            session.mark(known=known)
        show()

    reveal_b.on_click(on_reveal)
    known_b.on_click(lambda _: on_mark(True))
    review_b.on_click(lambda _: on_mark(False))
    show()
    return w.VBox([header, question, answer_box, reveal_b, verdict, model, marks],
                  layout=w.Layout(border="1px solid #ddd", padding="8px"))
