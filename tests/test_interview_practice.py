"""Flashcard sessions, the widget, scoring, the timed mock interview and the terminal loops."""
from __future__ import annotations

import html
import json
from itertools import count

import pytest

from course_lib.interview.bank import BANK_PATH, BankError, _build, load_bank
from course_lib.interview.cards import Session, flashcards, pick_cards
from course_lib.interview.scoring import (LATE_PENALTY, PITFALL_PENALTY, feedback, mentions, normalise,
                                          score_answer, stated_pitfalls)
from course_lib.interview.store import CardStore
from course_lib.interview.terminal import run_cards, run_mock
from course_lib.interview.timed import TIME_BUDGET, MockInterview, draw_questions, mock_interview

BANK = load_bank()
FC = [q.id for q in BANK.select(topics="function-calling")]


@pytest.fixture
def store(tmp_path):
    return CardStore("ada", folder=tmp_path, clock=count(1000).__next__)


# --------------------------------------------------------------------------- session order
def test_review_again_then_unseen_then_known(store):
    store.mark(FC[5], known=True)     # known, box 1, t=1000
    store.mark(FC[2], known=False)    # review, t=1001
    store.mark(FC[0], known=False)    # review, t=1002
    store.mark(FC[4], known=True)
    store.mark(FC[4], known=True)     # known, box 2
    ids = [q.id for q in pick_cards(BANK, store, size=20, topics="function-calling")]
    assert ids[:2] == [FC[2], FC[0]]                      # review again, the older mark first
    assert ids[2:-2] == [FC[1], FC[3], *FC[6:]]          # never seen, in bank order
    assert ids[-2:] == [FC[5], FC[4]]                    # known: lowest box first


def test_size_filters_and_seeded_shuffle(store):
    assert len(pick_cards(BANK, store, size=3)) == 3
    assert pick_cards(BANK, store, size=0) == []
    assert {q.difficulty for q in pick_cards(BANK, store, size=len(BANK), difficulty="hard")} == {"hard"}
    a = [q.id for q in pick_cards(BANK, store, size=len(BANK), seed=1)]
    assert a == [q.id for q in pick_cards(BANK, store, size=len(BANK), seed=1)] and a != [q.id for q in BANK]
    assert sorted(a) == sorted(q.id for q in BANK)


def test_session_marks_and_moves_on(store):
    s = Session(pick_cards(BANK, store, size=2), store)
    revealed = s.reveal()
    assert "Framework:" in revealed and s.revealed and s.current.question not in revealed  # just asked
    assert s.mark(known=True).status == "known" and not s.revealed
    s.mark(known=False)
    assert s.done and s.summary() == "1 known, 1 to review, 0 left"
    with pytest.raises(RuntimeError, match="session is over"):
        s.mark(known=True)
    assert {k: v.status for k, v in store.cards().items()} == {FC[0]: "known", FC[1]: "review"}


def test_flashcards_widget_records_marks(store):
    shown = flashcards(store=store, size=2, topics="function-calling")
    assert shown.text.startswith("Flashcards for 'ada': 2 cards") and "1. [new]" in shown.text
    box = shown.widget
    header, question, answer_box, reveal_b, verdict, model, marks = box.children
    known_b, review_b = marks.children
    assert "Walk me through function calling" in question.value
    answer_box.value = "The model returns tool_calls; I parse arguments and reply with a tool_call_id message."
    reveal_b.click()
    assert "framework points" in verdict.value and "In one sentence" in model.value
    known_b.click()
    assert "card 2 / 2" in header.value
    reveal_b.click()
    review_b.click()
    assert "Session complete" in header.value
    assert {k: v.status for k, v in store.cards().items()} == {FC[0]: "known", FC[1]: "review"}


def test_flashcards_without_matching_cards(store):
    assert flashcards(store=store, size=0).text == "No cards match these filters."


# --------------------------------------------------------------------------- scoring
def test_keyword_rules():
    assert normalise("Tool_Call-ID / x") == "tool call id x"
    assert mentions("Validation errors", ["validat"]) == ["validat"]
    assert mentions("an assessment", ["sse"]) == [] and mentions("over SSE", ["sse"]) == ["sse"]
    assert mentions("先重试，再降级", ["重试", "降级", "幂等"]) == ["重试", "降级"]
    assert mentions("error -32601 came back", ["-32601"]) == ["-32601"]


def test_score_answer_counts_points_bonus_and_lateness():
    q = BANK["q3-fault-tolerance"]
    full = ("I retry a 429 with exponential backoff. When the tool keeps failing I switch to a backup tool. If no "
            "tool works the agent degrades gracefully and tells the model. Orders carry an idempotency key so a "
            "retry is not a second order. Each tool has its own timeout, and a circuit breaker stops calling a "
            "dead tool.")
    s = score_answer(q, full)
    assert s.made == [0, 1, 2, 3, 4] and s.bonus == [0] and s.score == 100
    partial = score_answer(q, "I would retry and add a timeout")
    assert partial.made == [0, 4] and partial.score == 40
    late = score_answer(q, "I would retry and add a timeout", seconds=301, budget=300)
    assert late.late and late.score == 40 - LATE_PENALTY
    assert score_answer(q, "").score == 0
    # the same terms as a bare list name the points but make none of them: a fifth of their weight
    listed = score_answer(q, "retry with backoff, fallback, graceful degradation, idempotency keys, a timeout, "
                             "and a circuit breaker")
    assert listed.made == [] and listed.named == [0, 1, 2, 3, 4] and listed.bonus == [] and listed.score == 20
    listed = score_answer(q, "重试 备用 降级 幂等 超时")
    assert listed.made == [] and listed.named == [0, 1, 2, 3, 4] and listed.score == 20
    said = score_answer(q, "遇到临时错误先重试，再用备用工具，然后降级，写操作要有幂等键，每次调用都设超时")
    assert said.made == [0, 1, 2, 3, 4] and said.score == 100
    # 先重试 alone ("retry first") says nothing about the retry: named, like "retry with backoff"
    assert score_answer(q, "先重试，再用备用工具").named == [0]


GOOD = {
    "fc-five-steps": ("The app sends the messages plus the tool definitions, each with a JSON Schema. The model "
                      "answers with tool_calls and finish_reason tool_calls, no text. The app parses the arguments "
                      "with json.loads and runs the function. It appends the assistant message, then a tool message "
                      "with the same tool_call_id. The model reads the result and writes the final answer; the loop "
                      "repeats until it answers in text."),
    "jsonrpc-basics": ("A request has jsonrpc 2.0, a method, optional params and an id. The response echoes the same "
                       "id with a result or an error. A notification has no id and the server must not reply to it. "
                       "An error object has a code and a message, like -32601 for an unknown method. A batch is an "
                       "array of requests, and the reply holds the responses of those with ids."),
    "q2-fc-vs-mcp": ("Function calling is the LLM API layer: how the model expresses a call. MCP is the tool layer: "
                     "tools are discovered with tools/list and called with tools/call over JSON-RPC. They are "
                     "complementary: the host converts MCP tools into function definitions. For a few internal "
                     "tools in one app I use function calling; to share tools cross-framework or with third-party "
                     "clients I use MCP."),
}
KEYWORD_LISTS = {
    "fc-five-steps": "definition, tool_calls, parse, tool_call_id, loop",
    "jsonrpc-basics": "request, response, notification, error code, batch",
    "q2-fc-vs-mcp": "function calling, mcp, complementary, internal, cross-framework",
}
PITFALLS = {   # each states the card's first pitfall as true, with the contradicted point's keywords present
    "fc-five-steps": ("The app sends the tool definitions with a JSON Schema. The model returns tool_calls. The "
                      "model itself calls the get_weather API and runs the function. The result goes back as a "
                      "tool message with the tool_call_id. The model writes the final answer.", 2),
    "jsonrpc-basics": ("A request has a method, params and an id. The response has the same id and a result. A "
                       "notification has no id but it still gets a reply. An error has a code. A batch is an "
                       "array.", 2),
    "q2-fc-vs-mcp": ("Function calling is the LLM API layer. MCP is the tool layer with tools/list and tools/call. "
                     "MCP replaces function calling, so they are not used together. Internal tools are few. "
                     "Third-party tools are shared over MCP.", 2),
}


@pytest.mark.parametrize("qid", sorted(GOOD))
def test_a_good_answer_makes_every_point(qid):
    s = score_answer(BANK[qid], GOOD[qid])
    assert s.made == [0, 1, 2, 3, 4] and s.pitfalls == [] and s.score == 100, s


@pytest.mark.parametrize("qid", sorted(KEYWORD_LISTS))
def test_a_bare_keyword_list_names_points_but_makes_none(qid):
    s = score_answer(BANK[qid], KEYWORD_LISTS[qid])
    assert s.made == [] and len(s.named) == 5 and s.score == 20 and s.listed, s
    assert "~ 1." in feedback(BANK[qid], s) and "named in a list" in feedback(BANK[qid], s)
    assert feedback(BANK[qid], s, "en").endswith("  → You listed the key terms: that is a good start. Now explain "
                                                 "each point: say in a sentence what it does and why, as you would "
                                                 "to an interviewer.")


@pytest.mark.parametrize("qid", sorted(PITFALLS))
def test_a_stated_pitfall_contradicts_its_point_and_costs(qid):
    q = BANK[qid]
    text, point = PITFALLS[qid]
    s = score_answer(q, text)
    assert s.pitfalls == [0] and s.contradicted == [point] and point not in s.made, s
    assert s.score == round(100 * len(s.made) / 5) - PITFALL_PENALTY
    lines = feedback(q, s)
    assert f"✗ {point + 1}. {q.framework[point].point} (your answer says the opposite: {q.pitfalls[0]})" in lines
    assert f"! pitfall (−{PITFALL_PENALTY}): {q.pitfalls[0]}" in lines


def test_the_right_relation_is_not_taken_for_the_pitfall():
    q = BANK["fc-five-steps"]
    for text in ("The app, not the model, parses the arguments and runs the function.",
                 "The model does not run the function: the app runs it.",
                 "The model only emits a request; your code executes it."):
        assert stated_pitfalls(q, text) == [], text
    assert 2 in score_answer(q, "The app, not the model, parses the arguments and runs the function.").made


def test_every_model_answer_states_no_pitfall():
    assert [q.id for q in BANK if stated_pitfalls(q, q.answer) or stated_pitfalls(q, q.follow_up[1])] == []


def test_pitfall_claims_are_validated():
    raw = json.loads(BANK_PATH.read_text(encoding="utf-8"))
    q = next(x for x in raw["questions"] if x.get("pitfall_claims"))
    q["pitfall_claims"] = [{"pitfall": 9, "point": 0, "patterns": ["x"]}]
    with pytest.raises(BankError, match="pitfall 9"):
        _build(raw)


# --------------------------------------------------------------------------- mock interview
def test_draw_is_distinct_reproducible_and_weighted_by_frequency():
    a = draw_questions(BANK, 6, seed=3)
    assert len({q.id for q in a}) == 6 and a == draw_questions(BANK, 6, seed=3)
    firsts = [draw_questions(BANK, 1, seed=s)[0].frequency for s in range(2000)]
    share = {f: firsts.count(f) / 2000 for f in ("high", "low")}
    per_question = {f: share[f] / sum(q.frequency == f for q in BANK) for f in share}
    assert per_question["high"] > 2 * per_question["low"]
    with pytest.raises(ValueError, match="at least one question"):
        draw_questions(BANK, 0)
    assert {q.topic for q in draw_questions(BANK, 3, topics="mcp", seed=1)} == {"mcp"}


def test_timed_interview_and_report():
    ticks = iter([0.0, 100.0, 100.0, 1000.0])
    mi = MockInterview(2, seed=5, clock=lambda: next(ticks))
    first = mi.start()
    s1 = mi.answer(first.answer)
    second = mi.current
    s2 = mi.answer(" ".join(p.point for p in second.framework))
    assert mi.finished and mi.current is None
    assert s1.seconds == 100.0 and not s1.late
    assert s2.seconds == 900.0 and s2.late and s2.score == 100 - LATE_PENALTY
    report = mi.report()
    assert report.total == round((s1.score + s2.score) / 2)
    assert f"score {report.total}/100" in report.text() and "(late: -20)" in report.text()
    with pytest.raises(RuntimeError, match="finished"):
        mi.answer("more")


def test_budgets():
    assert TIME_BUDGET == {"easy": 120.0, "medium": 180.0, "hard": 300.0}


def test_mock_interview_widget_flow():
    shown = mock_interview(n=2, seed=2)
    header, start_b, question, clock_label, box, submit_b, result, next_b = shown.widget.children
    assert "2 random questions" in shown.text
    start_b.click()
    first = shown.interview.current
    assert html.escape(first.question) in question.value  # the widget shows it as HTML
    box.value = first.answer
    submit_b.click()
    assert "points" in result.value and next_b.description == "Next question"
    next_b.click()
    submit_b.click()
    assert next_b.description == "See the score"
    next_b.click()
    assert "Mock interview: 2 questions" in result.value
    assert shown.interview.finished


# --------------------------------------------------------------------------- terminal
def _script(lines):
    it = iter(lines)

    def ask(prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return ask


def test_terminal_cards(store):
    out = []
    session = Session(pick_cards(BANK, store, size=2), store)
    run_cards(session, ask=_script(["the model returns tool_calls", "and a tool_call_id", "", "y", "", "n"]),
              say=out.append)
    text = "\n".join(out)
    assert "You made" in text and "Session: 1 known, 1 to review, 0 left" in text
    assert {v.status for v in store.cards().values()} == {"known", "review"}


def test_terminal_cards_stop_at_end_of_input(store):
    session = Session(pick_cards(BANK, store, size=3), store)
    run_cards(session, ask=_script(["", "y"]), say=lambda _: None)
    assert session.index == 1 and len(store.cards()) == 1


def test_terminal_mock():
    out = []
    mi = MockInterview(2, seed=1, clock=count(0, 10).__next__)
    report = run_mock(mi, ask=_script(["retry with backoff", "", "tool_calls and tool_call_id", ""]),
                      say=out.append)
    assert len(report.rows) == 2 and "Mock interview: 2 questions, score" in out[-1]
