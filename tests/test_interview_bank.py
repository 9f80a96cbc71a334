"""The question bank: coverage the issue asks for, structure, validation errors, rendering."""
from __future__ import annotations

import json

import pytest

from course_lib.interview.bank import BANK_PATH, BankError, load_bank, render_markdown, render_text
from course_lib.interview.demos import DEMOS, PENDING
from course_lib.interview.design import DIAGRAMS

BANK = load_bank()
REQUIRED_TOPICS = ["function-calling", "schemas", "registries", "reliability", "security", "orchestration",
                   "json-rpc", "mcp", "transports", "a2a", "system-design"]


def test_at_least_25_questions_across_every_topic():
    assert len(BANK) >= 25
    counts = {t: len(BANK.select(topics=t)) for t in REQUIRED_TOPICS}
    assert all(n >= 1 for n in counts.values()), counts
    assert [t.id for t in BANK.topics] == REQUIRED_TOPICS


def test_every_question_has_the_full_structure():
    for q in BANK:
        assert q.difficulty in ("easy", "medium", "hard") and q.frequency in ("high", "medium", "low")
        assert q.answer.count(". ") <= 1, f"{q.id}: the short answer should be one sentence"
        assert len(q.framework) >= 3 and q.bonus and q.pitfalls and all(q.follow_up), q.id
        assert all(p.keywords for p in q.framework + q.bonus), q.id


def test_every_model_framework_scores_full_marks():
    """Each question's own framework points, said in a row, make every point (none only named, none missed):
    the scorer must accept the answer the bank itself teaches."""
    from course_lib.interview.scoring import score_answer

    for q in BANK:
        result = score_answer(q, " ".join(p.point for p in q.framework))
        assert (result.score, result.missed, result.named) == (100, [], []), (q.id, result)


def test_the_seed_questions_with_their_bonus_points():
    seeds = {q.seed_question: q for q in BANK if q.seed_question}
    assert sorted(seeds) == ["Q1", "Q2", "Q3"]
    q1_bonus = " ".join(p.point for p in seeds["Q1"].bonus)
    for must in ("check_fn", "dynamic_schema_overrides", "Toolset isolation"):
        assert must in q1_bonus
    q3 = [p.point.split(":")[0] for p in seeds["Q3"].framework]
    assert q3 == ["Retry", "Fallback", "Graceful degradation", "Idempotency", "Timeout"]
    q2 = " ".join(p.point for p in seeds["Q2"].framework)
    assert "< ~10 internal tools" in q2 and "MCP + A2A" in q2


@pytest.mark.parametrize("table, must", [
    ("fc_vs_mcp", ["Tool discovery", "`tools/list`"]),
    ("fc_mcp_a2a", ["USB", "Agent Card"]),
    ("openapi_vs_fc", ["POST /weather", "`description`"]),
    ("rpc_styles", ["REST", "gRPC", "JSON-RPC 2.0", "Protocol Buffers"]),
    ("transports", ["stdio", "HTTP+SSE (legacy)", "Streamable HTTP", "deprecated since 2025-03-26"]),
    ("mcp_capabilities", ["Tools", "Resources", "Prompts", "Sampling", "`sampling/createMessage`"]),
    ("five_layers", ["1. Retry", "5. Timeout"]),
])
def test_the_comparisons_the_seeds_draw(table, must):
    text = BANK.tables[table].markdown()
    for word in must:
        assert word in text
    assert any(table in q.tables for q in BANK), f"no question shows table {table}"


def test_every_demo_is_written_or_explicitly_pending_and_every_diagram_exists():
    for q in BANK:
        assert (q.demo in DEMOS) != (q.demo in PENDING), q.id
        if q.diagram:
            assert q.diagram in DIAGRAMS, q.id
    assert all(q.diagram for q in BANK.select(topics="system-design"))
    assert not set(PENDING) & set(DEMOS)
    for name, where in PENDING.items():
        assert where.startswith("course_lib.") and "(lesson " in where, name


def test_select_and_lookup():
    hard_mcp = BANK.select(topics=["mcp", "transports"], difficulty="hard")
    assert [q.id for q in hard_mcp] == ["mcp-errors", "mcp-authorization", "mcp-threats"]
    assert BANK["q2-fc-vs-mcp"].topic == "mcp"
    with pytest.raises(KeyError, match="no question 'nope'"):
        BANK["nope"]
    with pytest.raises(KeyError, match="no topic 'nope'"):
        BANK.select(topics="nope")


def test_render_markdown_carries_every_part():
    q = BANK["q3-fault-tolerance"]
    md = render_markdown(q, BANK, number=7)
    assert md.startswith("## 7. A tool call failed.")
    assert "**In one sentence.** " + q.answer in md
    assert all(f"{i}. {p.point}" in md for i, p in enumerate(q.framework, 1))
    assert all(f"- {p.point}" in md for p in q.bonus) and all(f"- {p}" in md for p in q.pitfalls)
    assert q.follow_up[0] in md and "**The five layers of tool fault tolerance**" in md
    text = render_text(q)
    assert "  5. Timeout" in text and "Follow-up: " in text
    assert render_text(q, answer=False).count("\n") == 1
    assert not render_text(q, question=False).startswith(q.question)


def _write(tmp_path, mutate):
    data = json.loads(BANK_PATH.read_text(encoding="utf-8"))
    mutate(data)
    p = tmp_path / "bank.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    return p


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["questions"].append(dict(d["questions"][0])), "duplicate question id 'fc-five-steps'"),
    (lambda d: d["questions"][0].update(topic="cooking"), "unknown topic 'cooking'"),
    (lambda d: d["questions"][0].update(tables=["nope"]), "unknown table 'nope'"),
    (lambda d: d["questions"][0].update(difficulty="extreme"), "questions/0/difficulty"),
    (lambda d: d["questions"][0]["framework"].pop() and d["questions"][0]["framework"].pop() and
     d["questions"][0]["framework"].pop(), "questions/0/framework"),
    (lambda d: d["questions"].insert(0, d["questions"].pop()), "out of topic order"),
    (lambda d: d["tables"][0]["rows"][0].append("extra"), "row 0 has 4 cells, expected 3"),
])
def test_invalid_banks_are_refused_with_the_place(tmp_path, mutate, message):
    with pytest.raises(BankError, match=message.replace("(", r"\(")):
        load_bank(_write(tmp_path, mutate))


def test_not_json(tmp_path):
    p = tmp_path / "bank.json"
    p.write_text("{oops", encoding="utf-8")
    with pytest.raises(BankError, match="not valid JSON"):
        load_bank(p)
