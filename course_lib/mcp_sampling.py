"""The client side of server-initiated requests: sampling (the server asks the client's LLM),
elicitation (the server asks the user), progress and log notifications.

Seed 001 §19.2 lists **sampling** as MCP's fourth capability: a server that needs an LLM
(to summarise, classify, draft) borrows the *client's* model instead of holding its own API
key. The client stays in control: it picks the model, may show the request to the user,
and may refuse. **Elicitation** (2025-06-18) is the same idea for the user: the server sends
a message and a flat JSON Schema, the client renders a form.

Two protocol eras (the MCP 2026-07-28 changelog; the ``mcp`` 2.3 SDK's ``Resolve``/``Sample``):

* 2025-11-25 (``mode="legacy"``): the server sends a real ``sampling/createMessage`` or
  ``elicitation/create`` *request* to the client in the middle of a ``tools/call``.
* 2026-07-28 (default): no server→client requests. The tool answers ``input_required``
  with the requests it needs; the client runs the same callbacks and retries ``tools/call``
  with ``inputResponses``. Sampling, logging and roots are deprecated (SEP-2577): the SDK
  warns with ``MCPDeprecationWarning``, and log notifications arrive only if the client
  asked with ``Client(log_level=...)``.

This module provides the callbacks: :func:`llm_sampling_callback` (answer sampling with the
course's LLM client: the mock offline, or a real endpoint), :class:`ElicitationRecorder`,
:class:`ElicitationForm` (an ipywidgets form built from the requested schema, with a
non-interactive answer for CI), and :class:`Notifications` (progress and log messages).

Taught in lesson 10.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .i18n import _
from .text_table import pad


def sampling_messages(params: Any) -> list[dict]:
    """Chat Completions messages for a ``sampling/createMessage`` request (system prompt first)."""
    messages = [{"role": "system", "content": params.system_prompt}] if params.system_prompt else []
    for m in params.messages:
        content = m.content
        text = getattr(content, "text", None)
        if text is None and isinstance(content, list):  # several content blocks: keep the text ones
            text = "\n".join(getattr(c, "text", "") for c in content)
        messages.append({"role": m.role, "content": text or ""})
    return messages


def llm_sampling_callback(client: Any = None, *, model: str | None = None, log: list | None = None) -> Any:
    """A ``sampling_callback`` for ``mcp.Client`` that answers with an OpenAI-compatible client.

    Args:
        client: an ``openai.OpenAI`` client (default: ``course_lib.llm_client.get_client()``,
            the offline mock unless the learner configured a real endpoint).
        model: the model name (default: ``default_model()``); a request's ``modelPreferences``
            are hints the client may ignore, as here.
        log: if given, each ``(messages sent to the LLM, answer)`` is appended (for display).

    Returns:
        ``async callback(ctx, params) -> CreateMessageResult``.
    """
    import anyio
    from mcp import types

    from .llm_client import default_model, get_client

    llm = client or get_client()
    name = model or default_model()

    async def sampling_callback(ctx: Any, params: Any) -> Any:
        messages = sampling_messages(params)
        # The openai client is synchronous: run it in a worker thread, not in the event loop.
        response = await anyio.to_thread.run_sync(lambda: llm.chat.completions.create(
            model=name, messages=messages, max_tokens=params.max_tokens))
        choice = response.choices[0]
        text = choice.message.content or ""
        if log is not None:
            log.append((messages, text))
        return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text=text),
                                         model=response.model,
                                         stop_reason="maxTokens" if choice.finish_reason == "length" else "endTurn")

    return sampling_callback


@dataclass
class ElicitationRecorder:
    """An ``elicitation_callback`` that records each request and answers with a fixed ``action``.

    Attributes:
        action: ``"decline"`` (default), ``"cancel"``, or ``"accept"`` (with ``content``).
        content: the answer for ``accept``.
        requests: every ``ElicitRequestParams`` received.
    """

    action: str = "decline"
    content: dict | None = None
    requests: list = field(default_factory=list)

    async def __call__(self, ctx: Any, params: Any) -> Any:
        from mcp import types

        self.requests.append(params)
        return types.ElicitResult(action=self.action, content=self.content if self.action == "accept" else None)

    def __repr__(self) -> str:
        return f"ElicitationRecorder(action={self.action!r}, {len(self.requests)} requests)"


class ElicitationForm:
    """A form for an elicitation request's schema: ipywidgets in JupyterLab, text elsewhere.

    Build it from the ``requestedSchema`` a server sends (flat: strings, numbers, integers,
    booleans, enums). Fill it in; then pass :meth:`callback` as ``elicitation_callback``: it
    answers ``accept`` with the form's current values (or ``decline`` if *Decline* is ticked).
    A notebook cell cannot wait for clicks while it runs, so the form is filled **before**
    the call that needs it; ``answers`` pre-fills it, which is also the non-interactive
    answer used in CI.

    Args:
        schema: the requested JSON Schema (``{"type": "object", "properties": ..., "required": ...}``).
        answers: initial values by field name (default: the schema's defaults).
        message: the server's question, shown above the fields.
    """

    def __init__(self, schema: dict, answers: dict | None = None, message: str = "") -> None:
        self.schema = schema
        self.message = message
        self.properties: dict[str, dict] = schema.get("properties", {})
        self.required: list[str] = list(schema.get("required", []))
        self.values: dict[str, Any] = {k: p.get("default") for k, p in self.properties.items() if "default" in p}
        self.values.update(answers or {})
        self.declined = False
        self._widgets: dict[str, Any] = {}
        self._decline_box: Any = None

    def current(self) -> dict[str, Any]:
        """The values the form would send now (widget values when widgets exist)."""
        if self._widgets:
            for name, w in self._widgets.items():
                self.values[name] = w.value
            self.declined = bool(self._decline_box.value)
        return {k: v for k, v in self.values.items() if v is not None and v != ""}

    def missing(self) -> list[str]:
        """Required fields still empty."""
        now = self.current()
        return [k for k in self.required if k not in now]

    async def callback(self, ctx: Any, params: Any) -> Any:
        """``elicitation_callback``: accept with :meth:`current`, or decline."""
        from mcp import types

        values = self.current()
        if self.declined:
            return types.ElicitResult(action="decline")
        if self.missing():
            return types.ElicitResult(action="cancel")
        return types.ElicitResult(action="accept", content=values)

    def text(self) -> str:
        """The form as text: the message, one ``* name [kind] = value`` line per field (``*``: required;
        names padded to 12 display columns), then whether *Decline* is ticked; labels in the learner's language."""
        lines = [self.message] if self.message else []
        now = self.current()
        for name, prop in self.properties.items():
            kind = (_("one of {choices}").format(choices="/".join(map(str, prop["enum"]))) if "enum" in prop
                    else prop.get("type", ""))
            star = "*" if name in self.required else " "
            lines.append(f"{star} {pad(name, 12)} [{kind}] = {json.dumps(now.get(name), ensure_ascii=False)}")
        lines.append(_("(* required; decline: yes)") if self.declined else _("(* required; decline: no)"))
        return "\n".join(lines)

    def widget(self) -> Any:
        """The form as ipywidgets (with :meth:`text` as the fallback); display it in a cell."""
        from .widgets import WithFallback, widgets_available

        if not widgets_available():
            return WithFallback(None, self.text())
        import ipywidgets as w

        rows = [w.HTML(f"<b>{self.message}</b>")] if self.message else []
        for name, prop in self.properties.items():
            value = self.values.get(name)
            label = prop.get("title", name) + (" *" if name in self.required else "")
            if "enum" in prop:
                box = w.Dropdown(options=prop["enum"], value=value if value in prop["enum"] else None, description=label)
            elif prop.get("type") == "boolean":
                box = w.Checkbox(value=bool(value), description=label)
            elif prop.get("type") == "integer":
                box = w.IntText(value=value or 0, description=label)
            elif prop.get("type") == "number":
                box = w.FloatText(value=value or 0.0, description=label)
            else:
                box = w.Text(value=value or "", description=label, placeholder=prop.get("description", ""))
            self._widgets[name] = box
            rows.append(box)
        self._decline_box = w.Checkbox(value=False, description=_("Decline"))
        rows.append(self._decline_box)
        return WithFallback(w.VBox(rows), self.text())

    def __repr__(self) -> str:
        return f"ElicitationForm({sorted(self.properties)}, values={self.current()})"


@dataclass
class Notifications:
    """Collects progress and log notifications; pass :attr:`progress` and :attr:`log` to the client.

    ``Client(..., logging_callback=notes.log, log_level="info")`` and
    ``client.call_tool(..., progress_callback=notes.progress)``. :attr:`lines` keeps them in order.
    """

    lines: list[str] = field(default_factory=list)

    async def progress(self, progress: float, total: float | None, message: str | None) -> None:
        """Keep one line: ``progress 1/2: imported 'Draft slides'`` (``progress 3`` without a total or message)."""
        done = f"{progress:g}/{total:g}" if total else f"{progress:g}"
        self.lines.append(f"progress {done}: {message}" if message else f"progress {done}")

    async def log(self, params: Any) -> None:
        self.lines.append(f"log [{params.level}] {params.data}")

    def __repr__(self) -> str:
        return "\n".join(self.lines) or _("(no notifications)")
