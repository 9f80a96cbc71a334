"""Pictures of a function-calling exchange, drawn from the real messages.

The same conversation (the ``messages`` list your code built) is shown three ways:
:func:`draw_message_flow` (a sequence diagram User / App / LLM / Tool), :func:`step_through`
(a widget to walk through each message as it travels, with a text fallback) and
:func:`flow_text` (plain text, for forges and nbval). Taught in lesson 01.
"""
from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any

from .diagrams import Arrow, arrows_text, sequence_diagram
from .function_calling import as_dict
from .widgets import WithFallback, json_html, stepper
from .i18n import N_, _

if TYPE_CHECKING:  # matplotlib is imported on the first figure, not with this module
    from matplotlib.figure import Figure

LANES = [N_("User"), N_("App"), N_("LLM"), N_("Tool")]  # English keys; drawn in the learner's language
ROLE_COLOURS = {"system": "#777777", "developer": "#777777", "user": "#1f5fa8", "assistant": "#2e7d32",
                "tool": "#b26a00"}


def _calls_text(message: dict) -> str:
    return ", ".join(f"{c['function']['name']}({c['function'].get('arguments') or ''})"
                     for c in message.get("tool_calls") or [])


def lanes() -> list[str]:
    """The lane names User, App, LLM, Tool in the learner's language."""
    return [_(lane) for lane in LANES]


def _request_label(n: int) -> str:
    """``POST /chat/completions (n messages + tools)``: one request and its size, in the learner's language
    (singular for 1)."""
    label = _("POST /chat/completions ({n} message + tools)") if n == 1 else \
        _("POST /chat/completions ({n} messages + tools)")
    return label.format(n=n)


def conversation_arrows(messages: list[Any]) -> list[Arrow]:
    """The arrows of an exchange: each user turn, request, ``tool_calls``, execution and answer.

    Every request the app sends to the LLM is drawn once, just before the model's reply
    it produced (the request carries all messages so far: the model is stateless).
    """
    msgs = [as_dict(m) for m in messages]
    user, app, llm, tool = lanes()
    arrows: list[Arrow] = []
    sent = 0  # messages already sent to the LLM in an earlier request
    for i, m in enumerate(msgs):
        role = m.get("role")
        if role == "user":
            arrows.append(Arrow(user, app, f"user: {m.get('content')}"))
        elif role == "assistant":
            arrows.append(Arrow(app, llm, _request_label(i)))
            sent = i
            if m.get("tool_calls"):
                arrows.append(Arrow(llm, app, f"tool_calls: {_calls_text(m)}", "response"))
            else:
                arrows.append(Arrow(llm, app, f"content: {m.get('content')}", "response"))
                arrows.append(Arrow(app, user, str(m.get("content")), "response"))
        elif role == "tool":
            call = _find_call(msgs[:i], m.get("tool_call_id"))
            name = call["function"]["name"] if call else "?"
            args = call["function"].get("arguments") if call else ""
            arrows.append(Arrow(app, tool, f"{name}(**{args})", "local"))
            arrows.append(Arrow(tool, app, f"role=tool {m.get('tool_call_id')}: {m.get('content')}", "response"))
    del sent
    return arrows


def _find_call(history: list[dict], call_id: str | None) -> dict | None:
    for m in reversed(history):
        for c in m.get("tool_calls") or []:
            if c.get("id") == call_id:
                return c
    return None


FLOW_TITLE = N_("Function calling, message by message")


def draw_message_flow(messages: list[Any], *, title: str | None = FLOW_TITLE) -> Figure:
    """A sequence diagram of the exchange (User, App, LLM, Tool lanes); ``title`` is shown in the learner's language
    when the catalog has it (the default does)."""
    return sequence_diagram(lanes(), conversation_arrows(messages), title=_(title) if title else title)


def flow_text(messages: list[Any]) -> str:
    """The exchange as numbered text lines (the fallback of the picture)."""
    return arrows_text(conversation_arrows(messages))


def _message_html(m: dict) -> str:
    colour = ROLE_COLOURS.get(m.get("role", ""), "#333")
    return f"<b style='color:{colour}'>role: {html.escape(str(m.get('role')))}</b>" + json_html(m, colour=colour)


def step_through(messages: list[Any]) -> WithFallback:
    """A widget to walk through ``messages`` one by one (text fallback: one JSON line each)."""
    msgs = [as_dict(m) for m in messages]
    text = "\n".join(f"[{i + 1}] {json.dumps(m, ensure_ascii=False)}" for i, m in enumerate(msgs))
    return stepper(msgs, _message_html, title="message", text=text)


def show_messages(messages: list[Any], width: int = 110) -> None:
    """Print each message on one line: role, then content or tool calls (long values cut)."""
    for i, m in enumerate(as_dict(x) for x in messages):
        body = _calls_text(m) if m.get("tool_calls") else m.get("content")
        extra = f" [{m['tool_call_id']}]" if m.get("tool_call_id") else ""
        line = f"{i + 1:>2}. {m.get('role'):<9}{extra} {body}"
        print(line if len(line) <= width else line[: width - 1] + "…")
