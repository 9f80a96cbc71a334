"""The "hard-code" stage before function calling: if/else keyword rules pick the tool.

Before models could call tools, programs guessed the tool from keywords in the user's
words (seed 001, "Hard code 阶段"). This router is that approach, done carefully, so
lesson 00 can show where it breaks: synonyms it never heard of ("Will it rain?"),
negations ("not the weather"), two wishes in one sentence, another language, and, above
all, no way to get the *arguments* (which city?) without more hand-written rules.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    """Route to ``tool`` when any of ``keywords`` appears in the lower-cased text."""

    keywords: tuple[str, ...]
    tool: str


DEFAULT_RULES = (
    Rule(("weather", "temperature", "天气"), "get_weather"),
    Rule(("wiki", "documentation", "docs"), "search_wiki"),
    Rule(("task", "todo", "任务"), "create_task"),
)


def route(text: str, rules: tuple[Rule, ...] = DEFAULT_RULES) -> str | None:
    """The tool of the first rule whose keyword appears in ``text``, or None.

    Example:
        >>> route("What's the weather in Shanghai?")
        'get_weather'
        >>> route("Will it rain in Paris?") is None
        True
    """
    low = text.lower()
    for rule in rules:
        if any(k in low for k in rule.keywords):
            return rule.tool
    return None
