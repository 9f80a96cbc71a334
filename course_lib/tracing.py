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
from typing import TYPE_CHECKING, Any, Callable, Iterator

from .diagrams import Arrow, figure, sequence_diagram
from .widgets import WithFallback, json_html, stepper
from .i18n import _
from .text_table import display_width, pad

if TYPE_CHECKING:  # matplotlib is imported on the first figure, not with this module
    from .course_figure import CourseFigure

# Okabe-Ito colours (course_lib.diagrams.OKABE_ITO), one per layer; the legend names them.
LAYER_COLOURS = {"llm": "#0072B2", "tool": "#E69F00", "json-rpc": "#CC79A7", "mcp": "#009E73",
                 "a2a": "#D55E00", "app": "#6B6B6B", "": "#6B6B6B"}
LAYER_NAMES = {"llm": "LLM", "tool": "tool", "json-rpc": "JSON-RPC", "mcp": "MCP", "a2a": "A2A", "app": "app", "": "app"}


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
            lines.append(f"{i + 1:>2}. {when}{pad(e.src, 8, '>')} {arrow} {pad(e.dst, 8)} {e.label}")
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
        w_route = max((display_width(r) for r in routes), default=0)  # columns: a Chinese label takes two each
        w_label = max((display_width(e.label) for e in self.events), default=0)
        lines = []
        for i, (e, route) in enumerate(zip(self.events, routes)):
            when = (f"{e.start * 1000:.1f} ms – {e.end * 1000:.1f} ms" if e.end is not None
                    else _("at {time}").format(time=f"{e.start * 1000:.1f} ms"))
            lines.append(f"{i + 1:>2}. {pad(route, w_route)}  {pad(e.label, w_label)}  {when}")
        return "\n".join(lines)

    def diagram(self, lanes: list[str] | None = None, *, title: str | None = None) -> CourseFigure:
        """The events as a sequence diagram."""
        arrows = [Arrow(e.src, e.dst, e.label, e.kind) for e in self.events]
        return sequence_diagram(lanes or self.lanes, arrows, title=title or self.name or None)

    def timeline(self, *, title: str | None = None, max_rows: int = 28) -> CourseFigure:
        """What ran when: one row per event, named on the left; a span is a bar, a message a tick.

        Rows (not lanes) keep every label beside its mark, never on another bar: what ran one by one
        shows as a staircase, what ran at once as bars side by side. Each bar's duration is written
        beside it; colours say the layer (legend below; Okabe-Ito, safe for colour blindness). A span
        too short to see is drawn as a tick. Beyond ``max_rows`` events the rest are in the text view.

        Returns:
            A :class:`~course_lib.diagrams.CourseFigure` whose text fallback is :meth:`timeline_text`.
        """
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch

        from .diagrams import FONT_SMALL, FONT_TITLE, GREY, MAX_WIDTH, text_width, wrap_to_width

        events = self.events[:max_rows]
        end = max([e.end if e.end is not None else e.start for e in self.events] + [1e-6])
        unit, factor = ("ms", 1000.0) if end < 2 else ("s", 1.0)
        names = []
        for e in events:
            route = e.src if e.src == e.dst else f"{e.src} → {e.dst}"
            names.append(" · ".join(dict.fromkeys([route, e.label])) if len(self.lanes) > 1 else e.label)
        left = min(max([text_width(n, FONT_SMALL) for n in names] + [1.0]) + 0.25, 3.6)
        names = [wrap_to_width(n, left - 0.2, FONT_SMALL, max_lines=1)[0] for n in names]
        legend_h, title_h = 0.75, 0.55
        height = title_h + 0.35 * max(1, len(events)) + legend_h
        fig = figure(MAX_WIDTH, height, text=self.timeline_text())
        plot_w = MAX_WIDTH - left - 0.3
        ax = fig.add_axes((left / MAX_WIDTH, legend_h / height, plot_w / MAX_WIDTH, 1 - (legend_h + title_h) / height))
        xmax = end * factor * 1.22  # room for the duration written after the last bar
        ax.set_xlim(0, xmax)
        ax.set_ylim(len(events) - 0.5, -0.5)
        per_inch = xmax / plot_w
        layers: dict[str, str] = {}
        for row, e in enumerate(events):
            colour = LAYER_COLOURS.get(e.layer, LAYER_COLOURS[""])
            name = LAYER_NAMES.get(e.layer, e.layer or "app")
            layers[name] = colour
            start = e.start * factor
            if e.end is None or (e.end - e.start) * factor / per_inch * fig.dpi < 3:  # a message, or too short to see
                ax.plot([start], [row], marker="|", markersize=13, markeredgewidth=2.2, color=colour, linestyle="none",
                        label=name)
                note = (_("at {time}").format(time=f"{start:.1f} {unit}") if e.end is None
                        else f"{(e.end - e.start) * factor:.1f} {unit}")
                ax.text(start + 0.1 * per_inch, row, note, va="center", ha="left", fontsize=FONT_SMALL, color=GREY)
                continue
            width = (e.end - e.start) * factor
            ax.barh(row, width, left=start, height=0.6, color=colour, label=name)
            note = f"{width:.1f} {unit}"
            if start + width + (text_width(note, FONT_SMALL) + 0.1) * per_inch <= xmax:
                ax.text(start + width + 0.06 * per_inch, row, note, va="center", ha="left", fontsize=FONT_SMALL,
                        color=GREY)
            elif start - (text_width(note, FONT_SMALL) + 0.1) * per_inch >= 0:
                ax.text(start - 0.06 * per_inch, row, note, va="center", ha="right", fontsize=FONT_SMALL, color=GREY)
        ax.set_yticks(range(len(events)), names)
        ax.tick_params(axis="y", length=0)
        ax.set_xlabel(_("time since the first event ({unit})").format(unit=unit))
        ax.grid(axis="x", color="#EEEEEE", lw=0.8)
        ax.set_axisbelow(True)
        handles = [Patch(color=c, label=n) for n, c in layers.items()]
        if len(self.events) > max_rows:
            handles.append(Line2D([], [], color="none", label=_("+{n} more events: see the text view").format(n=len(self.events) - max_rows)))
        fig.legend(handles=handles, loc="lower center", ncol=min(len(handles), 5), frameon=False, fontsize=FONT_SMALL,
                   bbox_to_anchor=(0.5, 0.02 / height))
        heading = title or self.name or _("timeline")
        fig.suptitle("\n".join(wrap_to_width(heading, MAX_WIDTH - 0.4, FONT_TITLE, max_lines=2)), fontsize=FONT_TITLE,
                     y=1 - 0.1 / height, va="top")
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
