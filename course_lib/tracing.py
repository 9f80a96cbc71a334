"""One trace format for every layer: LLM calls, tool runs, JSON-RPC, MCP and A2A messages.

Lessons record what really happened (not a drawing of what should happen) into a
:class:`Trace`, then show it as a sequence diagram (:meth:`Trace.diagram`), a timeline of
what ran when (:meth:`Trace.timeline`), a widget to step through the real payloads
(:meth:`Trace.stepper`) or plain text (:meth:`Trace.text`, the fallback and what nbval
compares). Because every lesson uses the same format, the capstone can show one run across
all layers in one picture.

Times come from an injectable clock (seconds), so tests can use a fake one.
"""
from __future__ import annotations

import json
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from .diagrams import Arrow, CourseFigure, figure, sequence_diagram
from .widgets import WithFallback, json_html, stepper

LAYER_COLOURS = {"llm": "#1f5fa8", "tool": "#b26a00", "json-rpc": "#6a1b9a", "mcp": "#00796b",
                 "a2a": "#c2185b", "app": "#555555", "": "#555555"}


@dataclass
class Event:
    """One message (``src`` → ``dst``) or one span of work on a lane (``src == dst`` with an ``end``).

    Attributes:
        src, dst: lane names (``"App"``, ``"LLM"``, ``"MCP server"``...).
        label: a short description shown in pictures and text.
        kind: ``request``, ``response``, ``notification``, ``error`` or ``local``.
        layer: ``llm``, ``tool``, ``json-rpc``, ``mcp``, ``a2a`` or ``app`` (colours, filtering).
        payload: the real message (a JSON-able dict) for the stepper.
        start, end: seconds since the trace started (``end`` only for spans).
    """

    src: str
    dst: str
    label: str
    kind: str = "request"
    layer: str = ""
    payload: Any = None
    start: float = 0.0
    end: float | None = None

    @property
    def duration(self) -> float | None:
        """Seconds the span took (None for a message)."""
        return None if self.end is None else self.end - self.start

    def __repr__(self) -> str:
        arrow = "->" if self.src != self.dst else "::"
        return f"{self.src} {arrow} {self.dst}: {self.label}"


@dataclass
class Trace:
    """An ordered record of events.

    Args:
        name: shown as the title of pictures.
        clock: a function returning seconds (default ``time.perf_counter``).

    Example:
        >>> t = Trace("demo", clock=iter([0.0, 0.5, 1.0]).__next__)
        >>> _ = t.add("App", "LLM", "POST /chat/completions", layer="llm")
        >>> with t.span("Tool", "get_weather(Paris)", layer="tool"):
        ...     pass
        >>> print(t.text())
         1.      App -> LLM      POST /chat/completions
         2.     Tool :: Tool     get_weather(Paris)
    """

    name: str = ""
    clock: Callable[[], float] = time.perf_counter
    events: list[Event] = field(default_factory=list)
    _t0: float | None = field(default=None, repr=False)

    def _now(self) -> float:
        now = self.clock()
        if self._t0 is None:
            self._t0 = now
        return now - self._t0

    def add(self, src: str, dst: str, label: str, *, kind: str = "request", layer: str = "",
            payload: Any = None) -> Event:
        """Record a message from ``src`` to ``dst``; returns the event."""
        event = Event(src, dst, label, kind, layer, payload, self._now())
        self.events.append(event)
        return event

    @contextmanager
    def span(self, lane: str, label: str, *, layer: str = "", payload: Any = None) -> Iterator[Event]:
        """Record the work done inside the ``with`` block as a span on ``lane``."""
        event = Event(lane, lane, label, "local", layer, payload, self._now())
        self.events.append(event)
        try:
            yield event
        finally:
            event.end = self._now()

    def extend(self, other: "Trace") -> None:
        """Append another trace's events (e.g. the MCP part of a capstone run)."""
        self.events.extend(other.events)

    def filter(self, *layers: str) -> "Trace":
        """A new trace with only the events of ``layers``."""
        return Trace(self.name, self.clock, [e for e in self.events if e.layer in layers])

    @property
    def lanes(self) -> list[str]:
        """Lane names in order of first appearance."""
        seen: list[str] = []
        for e in self.events:
            for lane in (e.src, e.dst):
                if lane not in seen:
                    seen.append(lane)
        return seen

    def text(self, *, times: bool = False) -> str:
        """One numbered line per event (``times=True`` adds start/duration in ms)."""
        lines = []
        for i, e in enumerate(self.events):
            arrow = "->" if e.src != e.dst else "::"
            when = ""
            if times:
                when = f"[{e.start * 1000:7.1f} ms{'' if e.end is None else f' +{e.duration * 1000:.1f} ms'}] "
            lines.append(f"{i + 1:>2}. {when}{e.src:>8} {arrow} {e.dst:<8} {e.label}")
        return "\n".join(lines)

    def timeline_text(self) -> str:
        """The text fallback of :meth:`timeline`: one line per event, then its start–end in ms.

        A span ends with ``0.0 ms – 101.2 ms``, a message with ``at 3.4 ms``, so what ran one by one and
        what ran at once (or in waves) is as visible in text as on the picture. The times come last and
        unpadded, so a line reads the same after nbval's duration sanitising whatever the times were.

        Example:
            >>> t = Trace("demo", clock=iter([0.0, 0.1, 0.1, 0.3]).__next__)
            >>> with t.span("a", "call a"): pass
            >>> with t.span("b", "call b"): pass
            >>> print(t.timeline_text())
             1. a  call a  0.0 ms – 100.0 ms
             2. b  call b  100.0 ms – 300.0 ms
        """
        routes = [e.src if e.src == e.dst else f"{e.src} -> {e.dst}" for e in self.events]
        w_route = max((len(r) for r in routes), default=0)
        w_label = max((len(e.label) for e in self.events), default=0)
        lines = []
        for i, (e, route) in enumerate(zip(self.events, routes)):
            when = (f"{e.start * 1000:.1f} ms – {e.end * 1000:.1f} ms" if e.end is not None
                    else f"at {e.start * 1000:.1f} ms")
            lines.append(f"{i + 1:>2}. {route:<{w_route}}  {e.label:<{w_label}}  {when}")
        return "\n".join(lines)

    def diagram(self, lanes: list[str] | None = None, *, title: str | None = None) -> CourseFigure:
        """The events as a sequence diagram."""
        arrows = [Arrow(e.src, e.dst, e.label, e.kind) for e in self.events]
        return sequence_diagram(lanes or self.lanes, arrows, title=title or self.name or None)

    def timeline(self, *, title: str | None = None) -> CourseFigure:
        """Spans as horizontal bars per lane (what ran when, and in parallel); messages as ticks."""
        lanes = self.lanes
        fig = figure(9, 0.8 + 0.45 * max(1, len(lanes)), text=self.timeline_text())
        ax = fig.add_subplot()
        end = max([e.end or e.start for e in self.events] + [1e-6])
        for e in self.events:
            y = lanes.index(e.src)
            colour = LAYER_COLOURS.get(e.layer, "#555555")
            if e.end is not None:
                ax.barh(y, max(e.end - e.start, end * 0.004), left=e.start, height=0.5, color=colour, alpha=0.85)
                ax.text(e.start, y + 0.33, e.label[:40], fontsize=7, va="bottom")
            else:
                ax.plot([e.start], [y], marker="|", markersize=12, color=colour)
        ax.set_yticks(range(len(lanes)), lanes)
        ax.invert_yaxis()
        ax.set_xlabel("seconds since start")
        ax.set_title(title or self.name or "timeline", fontsize=10)
        fig.tight_layout()
        return fig

    def stepper(self) -> WithFallback:
        """A widget to step through the events and their payloads (text fallback: :meth:`text`)."""
        def render(e: Event) -> str:
            colour = LAYER_COLOURS.get(e.layer, "#555555")
            head = f"<b style='color:{colour}'>{e!r}</b>"
            return head + (json_html(e.payload, colour=colour) if e.payload is not None else "")
        return stepper(self.events, render, title=self.name or "event", text=self.text())

    def to_json(self) -> list[dict]:
        """The events as JSON-able dicts (payloads included)."""
        return [json.loads(json.dumps(e.__dict__, default=str)) for e in self.events]

    def __len__(self) -> int:
        return len(self.events)

    def __repr__(self) -> str:
        return f"Trace({self.name!r}, {len(self.events)} events)\n{self.text()}"
