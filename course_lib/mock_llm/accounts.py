"""The final reply accounts for every clause of the request, truthfully.

A request may hold clauses the mock does not act on: set aside as no request ("Never delete a.txt", "Should I
cancel it?", a request taken back: :func:`.planning.set_aside`) or asking what none of the tools does ("tell me a
joke", "book me a flight to Rome" beside a weather tool). A model says so, each for its own reason: "OK, I
won't" is no answer to a joke, and "none of my tools can help" is no answer to "Never delete a.txt". This module
finds the clauses no tool serves (:func:`unserved`) and writes the sentences (:func:`sentences`), in the request's
language. Taught in lesson 01 (the model says what it did and did not do).
"""
from __future__ import annotations

import re

from . import language as lang
from .choosing import THRESHOLD, score_tools
from .followups import is_question
from .wire import ToolSpec
from ..package_data import load_json

#: A clause that opens with an action verb (course_lib/data/tool_actions.json, and the request verbs "tell",
#: "find", "get"...) asks that action of its own.
ACTION_LEAD = re.compile(r"^\s*(?:(?:please|also|and|then|just|can you|could you)\s+)*(?:" +
                         "|".join(load_json("tool_actions.json")["verbs"]) +
                         r"|tell|book|find|get|order|buy|give|show|make|explain|write)\b|^\s*(?:给我|帮我|请|告诉我)", re.I)

#: Why a clause was set aside, as the reply says it (English, Chinese); "{c}" is the clause as written.
_WHY = {
    "negated": ("I did not act on \u201c{c}\u201d: you asked me not to.", "我没有执行\u201c{c}\u201d：你要求不要这样做。"),
    "forbidding": ("I did not act on \u201c{c}\u201d: you asked me not to.", "我没有执行\u201c{c}\u201d：你要求不要这样做。"),
    "advice": ("I did not act on \u201c{c}\u201d: it asks for advice, and the choice is yours.",
               "我没有执行\u201c{c}\u201d：这是在征求建议，由你决定。"),
    "past": ("I did not act on \u201c{c}\u201d: it tells of something already done.",
             "我没有执行\u201c{c}\u201d：这说的是已经做过的事。"),
    "state_questions": ("I did not act on \u201c{c}\u201d: it asks about a state, not for a change.",
                        "我没有执行\u201c{c}\u201d：这是在问状态，不是要求改变。"),
    "withdrawn": ("I did not act on \u201c{c}\u201d: you took it back.", "我没有执行\u201c{c}\u201d：你已经收回了这个请求。"),
}


#: Words by which a clause speaks of what another clause asks for ("Give *it* as DD/MM/YYYY", 把它...).
_REFERS_BACK = re.compile(r"\b(?:it|its|them|this|that|these|those|one|ones|same)\b|它|这个|那个", re.I)


def unserved(text: str, tools: list[ToolSpec]) -> list[str]:
    """The clauses of a request of several clauses that no tool serves (each tool scores below the threshold on
    it) and that ask something (an action verb first, or a question), not a detail of another clause: "tell me a
    joke" in "Delete a.txt and tell me a joke"; not "I am an Aquarius" beside a horoscope request, nor a clause
    that speaks of another's object ("Give it as DD/MM/YYYY"). A request of
    one clause gives ``[]`` (its "no tool fits" reply says it already)."""
    from .planning import split_clauses, states_a_detail  # (planning imports this module's neighbours)
    clauses = split_clauses(text)
    if len(clauses) < 2 or not tools:
        return []
    out = []
    for clause in clauses:
        if states_a_detail(clause) or not (lang.content_stems(clause) or lang.is_chinese(clause)) or not (
                ACTION_LEAD.match(clause) or is_question(clause)) or _REFERS_BACK.search(clause):
            continue  # a detail, or "give it as DD/MM/YYYY": about what another clause asks
        if score_tools(clause, tools)[0][1] < THRESHOLD:
            out.append(clause)
    return out if len(out) < len(clauses) else []


def sentences(aside: list[tuple[str, str]], left: list[str], tools: list[ToolSpec], question: str) -> list[str]:
    """One sentence per clause not acted on: why it was set aside (``aside``: ``(clause, kind)``), or that none of
    the ``tools`` helps with it (``left``). Chinese when ``question`` is."""
    zh = lang.is_chinese(question)
    out = [_WHY.get(kind, _WHY["negated"])[zh].format(c=clause.strip(" ,，.。")) for clause, kind in aside]
    names = ", ".join(t.name for t in tools)
    for clause in left:
        c = clause.strip(" ,，.。?？")
        out.append(f"我的工具（{names}）都帮不了\u201c{c}\u201d。" if zh else
                   f"None of my tools ({names}) can help with \u201c{c}\u201d.")
    return out
