"""Why the mock chose what it chose: every candidate's score and the words behind each argument.

``MockLLM.explain(messages, tools)`` returns an :class:`Explanation`: the same
:class:`~.engine.Decision` the engine would send, plus a readable table. Lesson 02 and the
interview notebooks print it to show *why a description matters*: rename a tool or
reword its description and watch the scores move.

Example::

    >>> from course_lib.mock_llm import MockLLM
    >>> weather = {"type": "function", "function": {"name": "get_weather",
    ...     "description": "Get the current weather for a city",
    ...     "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
    ...                    "required": ["city"]}}}
    >>> print(MockLLM().explain([{"role": "user", "content": "Weather in Paris?"}], [weather]))
    request: 'Weather in Paris?'
    decision: get_weather({"city": "Paris"})
    reason: best match: get_weather (score 4.0)
    confidence 0.85 (threshold 0.5): weakest city (read 0.85); tool margin 4.0
    <BLANKLINE>
    candidate    score  words that matched
    get_weather    4.0  weather  <- chosen
    <BLANKLINE>
    call get_weather
      city = 'Paris'  (place: 'Paris')
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from .engine import Decision, PlannedCall


@dataclass(repr=False)
class Explanation(Decision):
    """A :class:`~.engine.Decision` with the request it answers, printable as a table.

    Attributes (besides the decision's ``tool_calls``, ``content``, ``reason``, ``scores``,
    ``matched``):
        request: the user's last message, as the engine read it.
    """

    request: str = ""
    candidates: list[tuple[str, float, list[str]]] = field(default_factory=list)

    @classmethod
    def of(cls, decision: Decision, request: str) -> "Explanation":
        """Wrap ``decision`` (for the user message ``request``)."""
        ranked = sorted(decision.scores.items(), key=lambda kv: -kv[1])
        return cls(decision.tool_calls, decision.content, decision.reason, decision.scores, decision.matched,
                   decision.confidence, request, [(name, score, decision.matched.get(name, [])) for name, score in ranked])

    @property
    def chosen(self) -> list[str]:
        """The names of the tools called (empty for a text answer)."""
        return [c.name for c in self.tool_calls]

    def arguments_table(self) -> list[tuple[str, str, str, str, str]]:
        """``(tool, argument, value, rule, words)`` for every argument of every call."""
        rows = []
        for call in self.tool_calls:
            for name, value in call.arguments.items():
                ev = call.evidence.get(name)
                rows.append((call.name, name, json.dumps(value, ensure_ascii=False) if not isinstance(value, str)
                             else repr(value), ev.rule if ev else "", ev.words if ev else ""))
        return rows

    def table(self) -> str:
        """The explanation as plain text: the decision, the candidates, the arguments."""
        if self.tool_calls:
            what = ", ".join(repr(c) for c in self.tool_calls)
        else:
            what = f"text answer: {self.content!r}"
        lines = [f"request: {self.request!r}", f"decision: {what}", f"reason: {self.reason}"]
        if self.confidence is not None:
            lines.append(self.confidence.summary())
        lines.append("")
        width = max([len("candidate")] + [len(n) for n, _, _ in self.candidates])
        lines.append(f"{'candidate':<{width}}  score  words that matched")
        chosen = set(self.chosen)
        for name, score, words in self.candidates:
            mark = "  <- chosen" if name in chosen else ""
            lines.append(f"{name:<{width}}  {score:>5.1f}  {', '.join(words) or '-'}{mark}")
        for call in self.tool_calls:
            lines += ["", f"call {call.name}"]
            for arg, value in call.arguments.items():
                ev = call.evidence.get(arg)
                shown = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
                lines.append(f"  {arg} = {shown}" + (f"  ({ev.rule}: {ev.words!r})" if ev else ""))
            if call.missing:
                lines.append(f"  missing: {', '.join(call.missing)}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        return self.table()


__all__ = ["Explanation", "PlannedCall"]
