"""What the engine decides: the calls it plans (:class:`PlannedCall`) and its reply (:class:`Decision`).

The data shapes every stage of the pipeline shares (see :mod:`.engine` for the stages).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .arguments import Evidence


@dataclass
class PlannedCall:
    """A tool call the model decided to make.

    ``clause`` is the index of the request clause it serves; ``from_results`` names the
    arguments to be written from the results of earlier clauses (the call waits for them);
    ``condition`` is the condition a conditional request sets on it ("it rains in Shanghai"): the call
    waits for the condition's results and is made only if they say it holds (clause 1), or only if they say
    it does not (clause 2, an "otherwise" part) (:mod:`.conditions`).
    """

    name: str
    arguments: dict
    evidence: dict[str, Evidence] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    clause: int = 0
    from_results: tuple[str, ...] = ()
    condition: str = ""

    def key(self) -> str:
        return self.name + json.dumps(self.arguments, sort_keys=True, ensure_ascii=False)

    def __repr__(self) -> str:
        return f"{self.name}({json.dumps(self.arguments, ensure_ascii=False)})"


@dataclass
class Decision:
    """What the mock decided for one request, and why.

    Attributes:
        tool_calls: the calls to emit (empty for a text answer).
        content: the text answer (None when calling tools).
        reason: one sentence on why, for lessons and ``MockLLM.explain``.
        scores: every tool's relevance score for the user's last message.
        matched: the words that produced each tool's score.
        confidence: how sure the engine is of the calls it planned (:class:`~.confidence.Confidence`),
            also when it held them back for being unsure; None when it planned no call.
    """

    tool_calls: list[PlannedCall] = field(default_factory=list)
    content: str | None = None
    reason: str = ""
    scores: dict[str, float] = field(default_factory=dict)
    matched: dict[str, list[str]] = field(default_factory=dict)
    confidence: Any = None

    def __repr__(self) -> str:
        what = ", ".join(map(repr, self.tool_calls)) if self.tool_calls else repr(self.content)
        return f"Decision({what}; {self.reason})"
