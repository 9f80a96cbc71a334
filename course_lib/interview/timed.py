"""A timed mock interview: random questions, a time budget each, a score at the end.

:class:`MockInterview` is the sans-widget core: it draws ``n`` random questions (more
often the ones interviewers ask often), times each answer with an injectable clock,
scores it with :func:`~course_lib.interview.scoring.score_answer` and writes a
:class:`Report`. :func:`mock_interview` puts it in a widget with a live countdown;
``course interview mock`` runs it in a terminal.

Time budgets follow what interviews allow for a spoken answer: 2 minutes for an easy
question, 3 for a medium one, 5 for a hard (system-design) one. Answering late costs 20
points. Deliberate shortcut: the random draw weights questions by how often they are asked
(high 3, medium 2, low 1) without replacement; there is no adaptive difficulty.
Taught in ``notebooks/interview/00_practice.ipynb``.
"""
from __future__ import annotations

import html
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..widgets import WithFallback, widgets_available
from .bank import Bank, Question, difficulty_label, load_bank, markdown_html, render_markdown
from .localize import N_, _t
from .scoring import AnswerScore, feedback, feedback_markdown, score_answer

TIME_BUDGET = {"easy": 120.0, "medium": 180.0, "hard": 300.0}  # seconds per answer
FREQUENCY_WEIGHT = {"high": 3, "medium": 2, "low": 1}
VERDICTS = ((80, N_("strong: you would likely pass this round")), (60, N_("good: polish the missed points")),
            (40, N_("borderline: review the frameworks and try again")),
            (0, N_("needs practice: start with the flashcards")))
#: the last line of every report: the score is a reading of words, so a verdict is a hint, not a grade
SCORER_READS_WORDS = N_("How this is scored: the scorer looks for each point's key words in your sentences (and "
                        "for denials of them); it does not understand meaning. Read each model answer beside your "
                        "own: `course interview cards` shows them.")


def draw_questions(bank: Bank, n: int, *, topics: str | list[str] | None = None,
                   seed: int | None = None) -> list[Question]:
    """``n`` distinct random questions, weighted by frequency (without replacement).

    Raises:
        ValueError: ``n`` < 1.
    """
    if n < 1:
        raise ValueError("a mock interview needs at least one question (n >= 1)")
    pool = bank.select(topics=topics)
    rng = random.Random(seed)
    # Efraimidis–Spirakis: key u^(1/w) per item, keep the n largest = weighted sampling without replacement.
    keyed = sorted(pool, key=lambda q: rng.random() ** (1 / FREQUENCY_WEIGHT[q.frequency]), reverse=True)
    return keyed[:n]


@dataclass
class Report:
    """The result of a mock interview.

    Attributes:
        rows: ``(question, score)`` per question, in the order asked.
        total: mean score, 0–100.
        verdict: a one-line reading of the total.
    """

    rows: list[tuple[Question, AnswerScore]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return round(sum(s.score for _, s in self.rows) / len(self.rows)) if self.rows else 0

    @property
    def verdict(self) -> str:
        """The reading of :attr:`total`, in the learner's language."""
        return next(_t(text) for floor, text in VERDICTS if self.total >= floor)

    def text(self, *, details: bool = True) -> str:
        """The report as plain text (per-question line, and with ``details`` the points made/missed and how the
        score was made: :data:`SCORER_READS_WORDS`)."""
        n = len(self.rows)
        head = (_t("Mock interview: 1 question, score {total}/100 ({verdict})") if n == 1
                else _t("Mock interview: {n} questions, score {total}/100 ({verdict})"))
        lines = [head.format(n=n, total=self.total, verdict=self.verdict), ""]
        for i, (q, s) in enumerate(self.rows, 1):
            took = (_t("{seconds} s of {budget} s").format(seconds=f"{s.seconds:.0f}",
                                                          budget=f"{TIME_BUDGET[q.difficulty]:.0f}")
                    if s.seconds is not None else _t("untimed"))
            lines.append(f"{i}. [{s.score:>3}/100] {q.question}")
            lines.append("   " + _t("{made}/{n} points, {bonus} bonus, {took}").format(
                made=len(s.made), n=len(q.framework), bonus=len(s.bonus), took=took)
                + (_t(" (late: -20)") if s.late else ""))
            if details:
                lines.append(feedback(q, s))
        if details and self.rows:
            lines += ["", _t(SCORER_READS_WORDS)]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text(details=False)


class MockInterview:
    """A timed sequence of questions; answer each, then read the :class:`Report`.

    Args:
        n: number of questions.
        topics: restrict to these topics (default: all).
        seed: for a reproducible draw.
        clock: seconds, monotonic (injectable for tests).
        bank: the question bank (default: the course's).

    Example:
        >>> t = iter([0.0, 30.0, 30.0, 400.0])
        >>> mi = MockInterview(n=2, seed=1, clock=lambda: next(t))
        >>> q = mi.start()
        >>> mi.answer("retry with backoff").score >= 0
        True
        >>> _ = mi.answer("")
        >>> mi.finished, len(mi.report().rows)
        (True, 2)
    """

    def __init__(self, n: int = 5, *, topics: str | list[str] | None = None, seed: int | None = None,
                 clock: Callable[[], float] = time.monotonic, bank: Bank | None = None) -> None:
        self.bank = bank or load_bank()
        self.questions = draw_questions(self.bank, n, topics=topics, seed=seed)
        self.clock = clock
        self.index = 0
        self.scores: list[AnswerScore] = []
        self._asked_at: float | None = None

    @property
    def current(self) -> Question | None:
        """The question being asked, or None when finished."""
        return self.questions[self.index] if self.index < len(self.questions) else None

    @property
    def finished(self) -> bool:
        return self.index >= len(self.questions)

    def budget(self, q: Question | None = None) -> float:
        """Seconds allowed for ``q`` (default: the current question)."""
        q = q or self.current
        return TIME_BUDGET[q.difficulty] if q else 0.0

    def start(self) -> Question | None:
        """Start the clock on the current question and return it."""
        self._asked_at = self.clock()
        return self.current

    def elapsed(self) -> float:
        """Seconds since the current question was asked (0 before :meth:`start`)."""
        return 0.0 if self._asked_at is None else self.clock() - self._asked_at

    def answer(self, text: str) -> AnswerScore:
        """Score ``text`` for the current question, then ask the next one.

        Raises:
            RuntimeError: the interview is finished.
        """
        q = self.current
        if q is None:
            raise RuntimeError("the interview is finished; read report()")
        seconds = self.elapsed() if self._asked_at is not None else None
        result = score_answer(q, text, seconds=seconds, budget=self.budget(q))
        self.scores.append(result)
        self.index += 1
        self._asked_at = self.clock() if not self.finished else None
        return result

    def report(self) -> Report:
        """The report for the questions answered so far."""
        return Report(list(zip(self.questions, self.scores)))

    def __repr__(self) -> str:
        return f"MockInterview({len(self.questions)} questions, answered {len(self.scores)})"


def mock_interview(n: int = 5, *, topics: str | list[str] | None = None, seed: int | None = None,
                   bank: Bank | None = None) -> WithFallback:
    """A mock-interview widget with a live countdown; text fallback: how to run it elsewhere.

    Args:
        n, topics, seed: see :class:`MockInterview`.
        bank: the question bank (default: the course's).

    Returns:
        A :class:`~course_lib.widgets.WithFallback`; ``.interview`` is the :class:`MockInterview`.
    """
    interview = MockInterview(n, topics=topics, seed=seed, bank=bank)
    budget_total = sum(TIME_BUDGET[q.difficulty] for q in interview.questions)
    text = _t("Mock interview: {n} random questions, {minutes} minutes in all (2 min easy, 3 min medium, 5 min "
              "hard). In JupyterLab this cell shows the interview; in a terminal run `course interview mock`.").format(
        n=len(interview.questions), minutes=f"{budget_total / 60:.0f}")
    widget = _interview_widget(interview) if widgets_available() else None
    shown = WithFallback(widget, text)
    shown.interview = interview  # type: ignore[attr-defined]
    return shown


class _Countdown:
    """Updates a label once a second from a daemon thread until stopped (widgets sync from threads)."""

    def __init__(self, tick: Callable[[], None]) -> None:
        self._tick, self._stop = tick, threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.stop()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(self._stop,), daemon=True, name="mock-interview")
        self._thread.start()

    def _run(self, stop: threading.Event) -> None:
        while not stop.wait(1.0):
            self._tick()

    def stop(self) -> None:
        self._stop.set()


def _interview_widget(interview: MockInterview) -> Any:
    import ipywidgets as w

    header, question, clock_label, result = w.HTML(), w.HTML(), w.HTML(), w.HTML()
    box = w.Textarea(placeholder=_t("Type your answer (key points are enough), then Submit."),
                     layout=w.Layout(width="100%", height="140px"))
    start_b = w.Button(description=_t("Start"), button_style="primary", icon="play")
    submit_b = w.Button(description=_t("Submit"), button_style="success", icon="check")
    next_b = w.Button(description=_t("Next question"), icon="forward")

    def tick() -> None:
        if interview.finished or interview._asked_at is None:
            return
        left = interview.budget() - interview.elapsed()
        colour = "#c62828" if left < 0 else ("#b26a00" if left < 30 else "#2e7d32")
        shown = (_t("over by {seconds} s") if left < 0 else _t("{seconds} s")).format(seconds=f"{abs(left):.0f}")
        clock_label.value = f"<b style='color:{colour}'>{html.escape(shown)}</b>"

    countdown = _Countdown(tick)

    def ask() -> None:
        q = interview.current
        header.value = ("<span style='color:#666'>" + html.escape(_t("question {i} / {n}").format(
            i=interview.index + 1, n=len(interview.questions))) + f" · {difficulty_label(q.difficulty)} · "
            + html.escape(_t("{seconds} s").format(seconds=f"{interview.budget():.0f}")) + "</span>")
        question.value = f"<h3 style='margin:4px 0'>{html.escape(q.question)}</h3>"
        box.value, result.value = "", ""
        for x in (box, submit_b, clock_label):
            x.layout.display = None
        next_b.layout.display = "none"
        interview.start()
        tick()
        countdown.start()

    def on_submit(_: Any) -> None:
        q = interview.current
        if q is None:
            return
        countdown.stop()
        s = interview.answer(box.value)
        late = _t(" (late: -20)") if s.late else ""
        result.value = markdown_html(_t("**Score: {score}/100**").format(score=s.score) + late + "\n\n"
                                     + feedback_markdown(q, s) + "\n\n#### " + _t("Model answer") + "\n\n"
                                     + render_markdown(q, interview.bank, level=4, heading=False))
        submit_b.layout.display = "none"
        next_b.description = _t("Next question") if not interview.finished else _t("See the score")
        next_b.layout.display = None

    def on_next(_: Any) -> None:
        if interview.finished:
            countdown.stop()
            for x in (box, submit_b, next_b, clock_label, question):
                x.layout.display = "none"
            header.value = ""
            result.value = f"<pre style='font-size:12px'>{html.escape(interview.report().text())}</pre>"
            return
        ask()

    def on_start(_: Any) -> None:
        start_b.layout.display = "none"
        ask()

    start_b.on_click(on_start)
    submit_b.on_click(on_submit)
    next_b.on_click(on_next)
    for x in (box, submit_b, next_b, clock_label):
        x.layout.display = "none"
    header.value = html.escape(_t("Mock interview: {n} questions, about {minutes} minutes. Press Start.").format(
        n=len(interview.questions), minutes=f"{sum(interview.budget(q) for q in interview.questions) / 60:.0f}"))
    return w.VBox([header, start_b, question, clock_label, box, submit_b, result, next_b],
                  layout=w.Layout(border="1px solid #ddd", padding="8px"))
