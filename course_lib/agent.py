"""The agent loop of lesson 01, rebuilt on the tool registry, with a trace of every step.

Theory of operation. The loop is a small state machine, kept as data in
:data:`TRANSITIONS` (it drives the loop, the tests and the state diagram):

* ``thinking``: ask the model, sending the conversation and ``registry.definitions()`` as
  they are *now* (a toolset switched off or a tool that became unavailable disappears
  between steps). Text back -> ``done`` (stop reason ``answer``); ``tool_calls`` -> ``acting``;
  an API error -> ``failed``.
* ``acting``: ``registry.dispatch`` every call (never raises: errors become tool messages
  the model reads), append the results, then back to ``thinking``, unless a stop condition
  holds: a *stop tool* was called (``stop_tool``: its result is the answer), the caller's
  ``stop_when`` predicate is true (``stop_when``), or the model-call budget is spent
  (``max_steps``).

Every step is recorded in a :class:`~course_lib.tracing.Trace` (User, Agent, LLM and Tools
lanes; layers ``app``, ``llm``, ``tool``), so a lesson can draw it as a sequence diagram or
timeline and step through the real payloads; later lessons (MCP, A2A, the capstone) extend
the same trace. :meth:`Agent.run` is sync; :meth:`Agent.arun` awaits an async client and
runs a message's tool calls concurrently. Taught in lesson 03.
"""
from __future__ import annotations

import inspect
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .function_calling import as_dict, default_model
from .i18n import N_, _
from .tool_registry import ToolRegistry, ToolResult, _normalise_call
from .tracing import Trace

#: state -> {event: next state}. Terminal states: done, stopped, failed.
TRANSITIONS: dict[str, dict[str, str]] = {
    "start": {"question": "thinking"},
    "thinking": {"tool_calls": "acting", "answer": "done", "llm_error": "failed"},
    "acting": {"results": "thinking", "stop_tool": "done", "stop_when": "stopped", "max_steps": "stopped"},
}
TERMINAL = ("done", "stopped", "failed")
#: Why a run ended: the event that led to a terminal state.
STOP_REASONS = ("answer", "stop_tool", "stop_when", "max_steps", "llm_error")


@dataclass
class AgentStep:
    """One model call and the tool calls it asked for.

    Attributes:
        index: 1-based step number (= model calls so far).
        tool_calls: ``[{"id", "name", "arguments"}]`` the model asked for (empty for an answer).
        results: the :class:`~course_lib.tool_registry.ToolResult` of each call, same order.
        answer: the model's text, when it answered.
        event: what the step led to (a key of :data:`TRANSITIONS`).
    """

    index: int
    tool_calls: list[dict] = field(default_factory=list)
    results: list[ToolResult] = field(default_factory=list)
    answer: str | None = None
    event: str = ""

    def __repr__(self) -> str:
        if self.tool_calls:
            calls = ", ".join(f"{c['name']}({c['arguments']})" for c in self.tool_calls)
            return f"step {self.index}: {calls} -> {self.event}"
        return f"step {self.index}: answer {self.answer!r}"


@dataclass
class AgentResult:
    """What a run produced.

    Attributes:
        answer: the final text ('' when the run stopped without one).
        stop_reason: one of :data:`STOP_REASONS`.
        messages: the whole conversation (system, user, assistant and tool messages).
        steps: one :class:`AgentStep` per model call.
        states: the states visited, from ``start`` to a terminal one.
        trace: the recorded :class:`~course_lib.tracing.Trace`.
        error: the exception of an ``llm_error`` stop.
    """

    answer: str
    stop_reason: str
    messages: list[dict]
    steps: list[AgentStep]
    states: list[str]
    trace: Trace
    error: BaseException | None = None

    @property
    def tool_calls(self) -> list[dict]:
        """Every tool call of the run, in order."""
        return [c for s in self.steps for c in s.tool_calls]

    def __repr__(self) -> str:
        return (f"AgentResult(stop_reason={self.stop_reason!r}, steps={len(self.steps)}, "
                f"tool_calls={len(self.tool_calls)}, answer={self.answer[:60]!r})")


def _request_label(messages: int, tools: int) -> str:
    """``POST /chat/completions (4 messages, 6 tools)`` in the learner's language (singular for 1)."""
    counted_messages = _("{n} message") if messages == 1 else _("{n} messages")
    counted_tools = _("{n} tool") if tools == 1 else _("{n} tools")
    return _("POST /chat/completions ({messages}, {tools})").format(
        messages=counted_messages.format(n=messages), tools=counted_tools.format(n=tools))


def _short(value: Any, n: int = 60) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= n else text[: n - 1] + "…"


class Agent:
    """An LLM + a :class:`~course_lib.tool_registry.ToolRegistry` + a loop with stop conditions.

    Args:
        client: an ``openai.OpenAI`` (or ``AsyncOpenAI`` for :meth:`arun`) client, e.g.
            ``get_client()``.
        registry: where the tools come from.
        model: model name (default :func:`~course_lib.llm_client.default_model`).
        system: an optional system prompt.
        max_steps: model calls allowed per run (the last one must answer, or the run stops
            with ``max_steps``).
        toolsets: restrict this agent to these toolsets (None = every enabled toolset).
        stop_tools: names of tools whose call ends the run; the tool's result is the answer.
        stop_when: ``predicate(step) -> bool`` checked after each acting step.
        name: lane name in traces.
        **options: passed to every ``chat.completions.create`` (``tool_choice``,
            ``parallel_tool_calls``, ``temperature``...).

    Example:
        >>> from course_lib.mock_llm import MockLLM
        >>> reg = ToolRegistry("demo", env={})
        >>> @reg.tool
        ... def get_weather(city: str) -> dict:
        ...     '''Get the current weather (temperature, humidity) for a city.'''
        ...     return {"temp": 28, "humidity": 65}
        >>> result = Agent(MockLLM().client(), reg).run("What's the weather in Shanghai?")
        >>> result.stop_reason, result.answer
        ('answer', 'Shanghai: 28 °C, humidity 65 %.')

    Taught in lesson 03.
    """

    def __init__(self, client: Any, registry: ToolRegistry, *, model: str | None = None, system: str | None = None,
                 max_steps: int = 8, toolsets: Sequence[str] | None = None, stop_tools: Sequence[str] = (),
                 stop_when: Callable[[AgentStep], bool] | None = None, name: str = "Agent", **options: Any) -> None:
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        self.client = client
        self.registry = registry
        self.model = model
        self.system = system
        self.max_steps = max_steps
        self.toolsets = list(toolsets) if toolsets is not None else None
        self.stop_tools = tuple(stop_tools)
        self.stop_when = stop_when
        self.name = name
        self.options = options

    def __repr__(self) -> str:
        return (f"Agent({self.name!r}, registry={self.registry.name!r}, max_steps={self.max_steps}"
                + (f", toolsets={self.toolsets}" if self.toolsets is not None else "")
                + (f", stop_tools={list(self.stop_tools)}" if self.stop_tools else "") + ")")

    # ------------------------------------------------------------------ the pieces both loops share
    def _start(self, prompt: str | list[dict], trace: Trace | None) -> tuple[list[dict], Trace]:
        if isinstance(prompt, str):
            messages = [{"role": "user", "content": prompt}]
        else:
            messages = [as_dict(m) for m in prompt]
        if self.system and not (messages and messages[0].get("role") == "system"):
            messages.insert(0, {"role": "system", "content": self.system})
        trace = trace if trace is not None else Trace(_("{name} run").format(name=self.name))
        last_user = next((m for m in reversed(messages) if m.get("role") == "user"), None)
        if last_user is not None:
            trace.add("User", self.name, _short(last_user.get("content") or ""), layer="app", payload=last_user)
        return messages, trace

    def _request(self, messages: list[dict], trace: Trace) -> dict:
        tools = self.registry.definitions(toolsets=self.toolsets)
        request: dict[str, Any] = {"model": self.model or default_model(), "messages": messages, **self.options}
        if tools:
            request["tools"] = tools
        elif "tool_choice" in request:  # tool_choice without tools is a 400
            request.pop("tool_choice")
        trace.add(self.name, "LLM", _request_label(len(messages), len(tools)),
                  layer="llm", payload={"messages": len(messages), "tools": [t["function"]["name"] for t in tools]})
        return request

    def _received(self, response: Any, messages: list[dict], step: AgentStep, trace: Trace) -> str:
        message = as_dict(response.choices[0].message)
        message = {k: v for k, v in message.items() if k in ("role", "content", "tool_calls", "name", "refusal")}
        messages.append(message)
        calls = message.get("tool_calls") or []
        if not calls:
            step.answer = message.get("content") or ""
            trace.add("LLM", self.name, _("answer: {text}").format(text=_short(step.answer)), kind="response",
                      layer="llm", payload=message)
            return "answer"
        for c in calls:
            call_id, name, raw, _shape = _normalise_call(c)
            step.tool_calls.append({"id": call_id, "name": name, "arguments": raw})
        label = ", ".join(f"{c['name']}({_short(c['arguments'] or '', 40)})" for c in step.tool_calls)
        trace.add("LLM", self.name, f"tool_calls: {label}", kind="response", layer="llm", payload=message)
        return "tool_calls"

    def _record(self, call: dict, result: ToolResult, trace: Trace) -> None:
        trace.add("Tools", self.name, f"{call['name']} -> {_short(result.content)}",
                  kind="response" if result.ok else "error", layer="tool", payload=result.message())

    def _after_tools(self, step: AgentStep) -> str:
        if any(c["name"] in self.stop_tools and r.ok for c, r in zip(step.tool_calls, step.results)):
            return "stop_tool"
        if self.stop_when is not None and self.stop_when(step):
            return "stop_when"
        if step.index >= self.max_steps:
            return "max_steps"
        return "results"

    def _finish(self, messages: list[dict], steps: list[AgentStep], states: list[str], trace: Trace,
                event: str, error: BaseException | None = None) -> AgentResult:
        answer = ""
        if event == "answer":
            answer = steps[-1].answer or ""
        elif event == "stop_tool":
            answer = next(r.content for c, r in zip(steps[-1].tool_calls, steps[-1].results)
                          if c["name"] in self.stop_tools and r.ok)
        if answer:
            trace.add(self.name, "User", _short(answer), kind="response", layer="app", payload={"answer": answer})
        elif event != "answer":
            trace.add(self.name, "User", _("stopped: {reason}").format(reason=event), kind="error", layer="app",
                      payload={"stop_reason": event, "error": str(error) if error else None})
        return AgentResult(answer, event, messages, steps, states, trace, error)

    @staticmethod
    def _advance(states: list[str], event: str) -> None:
        states.append(TRANSITIONS[states[-1]][event])

    # ------------------------------------------------------------------ the loops
    def run(self, prompt: str | list[dict], *, trace: Trace | None = None) -> AgentResult:
        """Run until an answer or a stop condition; never raises for tool or API failures.

        Args:
            prompt: the user's question, or a whole message list to continue.
            trace: a trace to append to (default: a new one).

        Returns:
            An :class:`AgentResult` (``messages`` holds the whole conversation).
        """
        messages, trace = self._start(prompt, trace)
        states, steps = ["start"], []
        self._advance(states, "question")
        while True:
            step = AgentStep(len(steps) + 1)
            steps.append(step)
            request = self._request(messages, trace)
            try:
                with trace.span("LLM", _("model call {n}").format(n=step.index), layer="llm"):
                    response = self.client.chat.completions.create(**request)
            except Exception as e:  # an API error ends the run with a reason, not a traceback
                step.event = "llm_error"
                self._advance(states, step.event)
                return self._finish(messages, steps, states, trace, step.event, e)
            step.event = self._received(response, messages, step, trace)
            self._advance(states, step.event)
            if step.event == "answer":
                return self._finish(messages, steps, states, trace, step.event)
            for call in as_dict(messages[-1])["tool_calls"]:
                _id, name, raw, _shape = _normalise_call(call)
                with trace.span("Tools", f"{name}({_short(raw or '', 40)})", layer="tool", payload=call):
                    result = self.registry.run(call, toolsets=self.toolsets)
                step.results.append(result)
                messages.append(result.message())
                self._record(step.tool_calls[len(step.results) - 1], result, trace)
            step.event = self._after_tools(step)
            self._advance(states, step.event)
            if states[-1] in TERMINAL:
                return self._finish(messages, steps, states, trace, step.event)

    async def arun(self, prompt: str | list[dict], *, trace: Trace | None = None) -> AgentResult:
        """Async :meth:`run`: awaits the client if it is async, runs each message's tool calls concurrently."""
        import asyncio

        messages, trace = self._start(prompt, trace)
        states, steps = ["start"], []
        self._advance(states, "question")
        while True:
            step = AgentStep(len(steps) + 1)
            steps.append(step)
            request = self._request(messages, trace)
            try:
                with trace.span("LLM", _("model call {n}").format(n=step.index), layer="llm"):
                    response = self.client.chat.completions.create(**request)
                    if inspect.isawaitable(response):
                        response = await response
            except Exception as e:
                step.event = "llm_error"
                self._advance(states, step.event)
                return self._finish(messages, steps, states, trace, step.event, e)
            step.event = self._received(response, messages, step, trace)
            self._advance(states, step.event)
            if step.event == "answer":
                return self._finish(messages, steps, states, trace, step.event)
            calls = as_dict(messages[-1])["tool_calls"]

            async def one(call: dict) -> ToolResult:
                _id, name, raw, _shape = _normalise_call(call)
                with trace.span("Tools", f"{name}({_short(raw or '', 40)})", layer="tool", payload=call):
                    return await self.registry.arun(call, toolsets=self.toolsets)

            step.results = list(await asyncio.gather(*(one(c) for c in calls)))
            for call, result in zip(step.tool_calls, step.results):
                messages.append(result.message())
                self._record(call, result, trace)
            step.event = self._after_tools(step)
            self._advance(states, step.event)
            if states[-1] in TERMINAL:
                return self._finish(messages, steps, states, trace, step.event)


#: The state diagram's default title (translated where it is drawn).
STATE_DIAGRAM_TITLE = N_("The agent loop as a state machine")


def state_diagram(*, title: str | None = None) -> Any:
    """:data:`TRANSITIONS` drawn as boxes and arrows (a :class:`~course_lib.diagrams.CourseFigure`).

    ``title`` defaults to :data:`STATE_DIAGRAM_TITLE` in the learner's language; state and event names stay
    as the code spells them (they are the machine's data).

    Every arrow leaves and enters a box at its edge, and its event is written beside it (the two ways
    between ``thinking`` and ``acting`` run side by side, their events above and below), so no arrow
    runs into a label. Terminal states have a thick border. Text fallback: one line per transition.
    """
    from .diagrams import FONT, FONT_SMALL, FONT_TITLE, GREY, INK, OKABE_ITO, figure, text_width

    pos = {"start": (0.75, 2.3), "thinking": (3.1, 2.3), "acting": (6.3, 2.3), "failed": (1.45, 0.55),
           "done": (4.7, 0.55), "stopped": (8.1, 0.55)}
    lines = [f"{s:>8} --{e}--> {t}" for s, edges in TRANSITIONS.items() for e, t in edges.items()]
    fig = figure(9.6, 3.5, text="\n".join(lines))
    ax = fig.add_axes((0, 0, 1, 3.05 / 3.5))
    ax.set_xlim(0, 9.6)
    ax.set_ylim(0.05, 3.1)
    ax.axis("off")
    hh = 0.18
    half = {state: text_width(state, FONT, weight="bold") / 2 + 0.16 for state in pos}
    fills = {"failed": "#F9D9C9", "done": "#CFEFE3", "stopped": "#FFF1B8"}
    for state, (x, y) in pos.items():
        ax.text(x, y, state, ha="center", va="center", fontsize=FONT, weight="bold", color=INK, zorder=3,
                bbox={"boxstyle": "round,pad=0.35", "fc": fills.get(state, "#E3EEF9"), "ec": GREY,
                      "lw": 2.2 if state in TERMINAL else 1.0})
    blue = OKABE_ITO["blue"]

    def arrow(a, b, style="arc3"):
        ax.annotate("", xy=b, xytext=a, arrowprops={"arrowstyle": "-|>", "color": blue, "lw": 1.3, "shrinkA": 1,
                                                    "shrinkB": 1, "connectionstyle": style})

    def label(x, y, text, ha="center", va="center"):
        ax.text(x, y, text, ha=ha, va=va, fontsize=FONT_SMALL, color=INK)

    def events(src, dst):
        return " / ".join(e for e, t in TRANSITIONS[src].items() if t == dst)

    (sx, sy), (tx, ty), (ax_, ay) = pos["start"], pos["thinking"], pos["acting"]
    arrow((sx + half["start"], sy), (tx - half["thinking"], ty))
    label((sx + half["start"] + tx - half["thinking"]) / 2, sy + 0.08, events("start", "thinking"), va="bottom")
    arrow((tx + half["thinking"], ty + 0.08), (ax_ - half["acting"], ay + 0.08))
    label((tx + ax_) / 2, ty + 0.16, events("thinking", "acting"), va="bottom")
    arrow((ax_ - half["acting"], ay - 0.08), (tx + half["thinking"], ty - 0.08))
    label((tx + ax_) / 2, ty - 0.16, events("acting", "thinking"), va="top")
    elbow = "angle,angleA=-90,angleB=0,rad=6"  # down from the source, then across into the target's side
    for src, dst, dx, side in (("thinking", "failed", -0.3, "left"), ("thinking", "done", 0.3, "right"),
                               ("acting", "done", -0.3, "left"), ("acting", "stopped", 0.3, "right")):
        (x1, y1), (x2, y2) = pos[src], pos[dst]
        start = (x1 + dx, y1 - hh)
        end = (x2 + half[dst] if x2 < start[0] else x2 - half[dst], y2)
        arrow(start, end, elbow)
        mid = (start[1] + y2) / 2 + 0.12
        if side == "left":
            label(start[0] - 0.1, mid, events(src, dst), ha="right")
        else:
            label(start[0] + 0.1, mid, events(src, dst), ha="left")
    ax.text(9.5, 3.05, _("thick border: a final state"), ha="right", va="top", fontsize=FONT_SMALL, color=GREY)
    fig.suptitle(title or _(STATE_DIAGRAM_TITLE), fontsize=FONT_TITLE, y=1 - 0.08 / 3.5, va="top")
    return fig


__all__ = ["Agent", "AgentResult", "AgentStep", "STOP_REASONS", "TERMINAL", "TRANSITIONS", "state_diagram"]
