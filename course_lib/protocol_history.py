"""Where function calling, MCP and A2A come from: a dated timeline with its public sources.

Seed 003 tells the story in stages (hard code, then function calling, then MCP, then A2A);
this module holds the dates, so lesson 00 and the interview demo show the same facts.
Taught in lesson 00 §6.
"""
from __future__ import annotations

from dataclasses import dataclass

from .i18n import N_, _


@dataclass(frozen=True)
class Milestone:
    """One dated step: ``when`` (``YYYY-MM-DD``), ``what`` (English, marked for translation: shown as ``_(what)``),
    ``who`` and the public ``source`` (a title, never translated)."""

    when: str
    what: str
    who: str
    source: str


TIMELINE: tuple[Milestone, ...] = (
    Milestone("2023-06-13", N_("function calling in the Chat Completions API (`functions`, `function_call`)"), "OpenAI",
              'OpenAI blog, "Function calling and other API updates"'),
    Milestone("2023-11-06", N_("`tools` / `tool_calls` replace `functions`, with parallel calls"), "OpenAI",
              'OpenAI DevDay, "New models and developer products announced at DevDay"'),
    Milestone("2024-11-25", N_("the Model Context Protocol (MCP)"), "Anthropic",
              'Anthropic news, "Introducing the Model Context Protocol"'),
    Milestone("2025-04-09", N_("the Agent2Agent protocol (A2A)"), "Google",
              'Google Developers Blog, "Announcing the Agent2Agent Protocol (A2A)"'),
    Milestone("2025-06-23", N_("A2A becomes a Linux Foundation project"), "Google, Linux Foundation",
              'Linux Foundation press release, "Linux Foundation Launches the Agent2Agent Protocol Project"'),
    Milestone("2025-12-09", N_("MCP is donated to the Agentic AI Foundation (a Linux Foundation fund co-founded by "
                                 "Anthropic, OpenAI and Block)"), "Anthropic",
              'Anthropic news, "Donating the Model Context Protocol and establishing the Agentic AI Foundation"'),
)


def timeline_text() -> str:
    """The timeline as aligned text lines: date, who, what (in the learner's language).

    Example:
        >>> timeline_text().splitlines()[0]
        '2023-06-13  OpenAI                    function calling in the Chat Completions API (`functions`, `function_call`)'
    """
    return "\n".join(f"{m.when}  {m.who:<24}  {_(m.what)}" for m in TIMELINE)
