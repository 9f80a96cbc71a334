"""Whether a clause asks for a tool's action, or only speaks of it.

"Never delete /tmp/a.txt", "Should I delete it?", "I cancelled order A-1042 yesterday", "Is the kitchen light
on?" and "Cancel it. Actually no, keep it." all name an action a tool does, and none asks for it: a
tool-calling model answers, asks or does nothing; it does not delete, cancel or switch. This stage of the
pipeline (used by :func:`.planning.without_negated`, before tools are chosen) finds such clauses; the word
patterns are data (``course_lib/data/speech_acts.json``). Only tools that change something are held back
(their names' verbs: delete, send, cancel, set...): "Is it going to rain?" still calls ``get_weather``.
Seed idea: the tool loop of seed 000 §1 runs a call only when the user asks for it.
"""
from __future__ import annotations

import re
from functools import lru_cache

from . import language as lang
from ..package_data import load_json


@lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern]:
    """The clause patterns of ``speech_acts.json``, one alternation per kind (anchored at the clause start)."""
    data = load_json("speech_acts.json")
    kinds = ("forbidding", "advice", "past", "state_questions")
    found = {k: re.compile(r"^\s*(?:(?:but|and|so|please|just|hmm|um)\s+)?(?:" + "|".join(data[k]) + ")", re.I)
             for k in kinds}
    found["withdrawals"] = re.compile(r"^\s*(?:" + "|".join(data["withdrawals"]) + r")\s*$", re.I)
    return found


@lru_cache(maxsize=1)
def _changing_verbs() -> frozenset[str]:
    return frozenset(lang.stem(w) for w in load_json("speech_acts.json")["changing_verbs"])


@lru_cache(maxsize=4096)
def changes_something(tool_name: str) -> bool:
    """Whether a tool named ``tool_name`` changes something: a word of its name is a changing verb
    (``delete_file``, ``sendEmail``, ``set_light``), not only a reading one (``get_weather``, ``list_files``)."""
    return any(lang.stem(w.lower()) in _changing_verbs() for w in lang.split_identifier(tool_name))


def not_asked(clause: str) -> str | None:
    """The kind of clause that speaks of an action without asking for it, or None for a request.

    Args:
        clause: one clause of the user's message (:data:`.planning._CLAUSE_EDGE` cuts them).

    Returns:
        ``"forbidding"`` ("never ..."), ``"advice"`` ("should I ...", "what happens if ..."), ``"past"``
        ("I cancelled ...", "did I ...", 我昨天已经...), ``"state_questions"`` ("is the light on?"), or None.

    >>> [not_asked(c) for c in ("Never delete /tmp/a.txt", "Should I delete it?", "I cancelled order A-1042",
    ...  "I need to book a table", "Is the kitchen light on?", "Delete /tmp/a.txt")]
    ['forbidding', 'advice', 'past', None, 'state_questions', None]
    """
    for kind, pattern in _patterns().items():
        if kind != "withdrawals" and pattern.search(clause):
            return kind
    return None


def withdraws(clause: str) -> bool:
    """Whether ``clause`` takes back what came before it ("Actually no, keep it", "never mind", 算了).

    >>> withdraws("Actually no, keep it."), withdraws("算了"), withdraws("no, the other one")
    (True, True, False)
    """
    return bool(_patterns()["withdrawals"].search(clause.strip(" .!。！")))
