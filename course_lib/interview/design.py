"""System-design diagrams for the interview answers: boxes, arrows and a text fallback.

A system-design answer is easier to give (and to remember) with a picture of the boxes
and the flows between them. :func:`block_diagram` draws one with matplotlib on a
:class:`~course_lib.diagrams.CourseFigure` (PNG in Jupyter; a component/flow list as text
elsewhere), and :data:`DIAGRAMS` holds one per design question of the bank, keyed by the
question's ``diagram`` field. Layout is given by hand on a 12 × 7 grid: for a handful of
boxes that reads better than any automatic layout. Taught in
``notebooks/interview/06_system_design_qa.ipynb``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from matplotlib.lines import Line2D
from matplotlib.patches import FancyBboxPatch

from ..diagrams import FONT_SMALL, FONT_TITLE, INK, MAX_WIDTH, CourseFigure, figure, text_width, wrap_to_width
from .localize import N_, _t

GRID_W, GRID_H = 12.0, 7.0
# Light fills for boxes (black text stays above 4.5:1 on each), Okabe-Ito colours for flows.
KIND_COLOURS = {"agent": "#DCEAF7", "llm": "#D5F0E6", "tool": "#FBEBC8", "store": "#EEEEEE", "infra": "#F3E0EC",
                "user": "#FFFFFF", "a2a": "#F9DCCB"}
FLOW_COLOURS = {"fc": "#0072B2", "mcp": "#009E73", "a2a": "#D55E00", "data": "#6B6B6B", "obs": "#CC79A7"}
# legend names: English keys, shown in the learner's language (_t)
FLOW_NAMES = {"fc": N_("function calling"), "mcp": "MCP", "a2a": "A2A", "data": N_("data"), "obs": N_("telemetry")}


@dataclass(frozen=True)
class Box:
    """A component: ``label`` drawn in a rounded box centred at ``(x, y)`` on the 12 × 7 grid."""

    id: str
    label: str
    x: float
    y: float
    w: float = 2.4
    h: float = 0.9
    kind: str = "agent"


@dataclass(frozen=True)
class Flow:
    """An arrow from box ``src`` to box ``dst`` with a short label; ``style`` picks the colour."""

    src: str
    dst: str
    label: str = ""
    style: str = "data"
    both: bool = False


def block_diagram(boxes: list[Box], flows: list[Flow], *, title: str, notes: list[str] | None = None) -> CourseFigure:
    """Draw a box-and-arrow architecture diagram.

    Args:
        boxes: the components (positions on a 12 × 7 grid, origin bottom left).
        flows: the arrows between them.
        title: shown above the diagram.
        notes: optional lines printed under the diagram (and in the text fallback).

    Returns:
        A :class:`CourseFigure` whose text fallback lists the components and the flows.

    Raises:
        ValueError: a flow names a box that does not exist.
    """
    by_id = {b.id: b for b in boxes}
    unknown = {f.src for f in flows} | {f.dst for f in flows} - set(by_id)
    unknown -= set(by_id)
    if unknown:
        raise ValueError(f"flows use boxes {sorted(unknown)} that are not defined")
    text = _fallback(boxes, flows, notes or [])
    note_h = 0.0 if not notes else 0.25 + 0.2 * len(notes)
    height = 6.4 + note_h
    fig = figure(MAX_WIDTH, height, text=text)
    ax = fig.add_axes((0.0, (note_h + 0.35) / height, 1.0, 5.55 / height))
    patches = {}
    unit = MAX_WIDTH / GRID_W  # inches per grid unit
    fitted = {}
    for b in boxes:  # a box as wide as its text needs (at most its given width): room between boxes for labels
        lines = [part for line in b.label.split("\n")
                 for part in wrap_to_width(line, b.w * unit - 0.2, FONT_SMALL, max_lines=2)]
        need = max(text_width(line, FONT_SMALL) for line in lines) + 0.3
        fitted[b.id] = (min(b.w, need / unit), lines)
    boxes = [Box(b.id, b.label, b.x, b.y, fitted[b.id][0], b.h, b.kind) for b in boxes]
    by_id = {b.id: b for b in boxes}
    for b in boxes:
        patch = FancyBboxPatch((b.x - b.w / 2, b.y - b.h / 2), b.w, b.h, boxstyle="round,pad=0.05,rounding_size=0.15",
                               fc=KIND_COLOURS.get(b.kind, "#ffffff"), ec="#555555", lw=1.1, zorder=2)
        ax.add_patch(patch)
        patches[b.id] = patch
        ax.text(b.x, b.y, "\n".join(fitted[b.id][1]), ha="center", va="center", fontsize=FONT_SMALL, zorder=3,
                color=INK)
    for f in flows:
        a, b = by_id[f.src], by_id[f.dst]
        colour = FLOW_COLOURS.get(f.style, FLOW_COLOURS["data"])
        ax.annotate("", xy=(b.x, b.y), xytext=(a.x, a.y), zorder=1,
                    arrowprops={"arrowstyle": "<|-|>" if f.both else "-|>", "color": colour, "lw": 1.4,
                                "patchA": patches[f.src], "patchB": patches[f.dst], "shrinkA": 2, "shrinkB": 2})
        if f.label:
            x, y, room = _label_spot(a, b)
            lines = wrap_to_width(f.label, max(room * unit - 0.15, 0.6), FONT_SMALL, max_lines=3)
            ax.text(x, y, "\n".join(lines), ha="center", va="center", fontsize=FONT_SMALL, color=INK, zorder=4,
                    bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": colour, "lw": 0.8})
    ax.set_xlim(0, GRID_W)
    ax.set_ylim(0, GRID_H)
    ax.axis("off")
    styles = list(dict.fromkeys(f.style for f in flows))
    handles = [Line2D([], [], color=FLOW_COLOURS.get(st, FLOW_COLOURS["data"]), lw=1.6,
                      label=_t(FLOW_NAMES.get(st, st))) for st in styles]
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), frameon=False, fontsize=FONT_SMALL,
               bbox_to_anchor=(0.5, (note_h + 0.02) / height))
    fig.suptitle(title, fontsize=FONT_TITLE, y=1 - 0.08 / height, va="top")
    if notes:
        wrapped = [w for n in notes for w in wrap_to_width(n, MAX_WIDTH - 0.4, FONT_SMALL, max_lines=2)]
        fig.text(0.02, 0.08 / height, "\n".join(wrapped), fontsize=FONT_SMALL, va="bottom", color=INK)
    return fig


def _label_spot(a: "Box", b: "Box") -> tuple[float, float, float]:
    """Where a flow's label goes: the middle of the gap between the two boxes, and the gap's width (grid units).

    A flow between boxes side by side gets the horizontal gap; one between boxes above each other gets
    the vertical gap's middle and, as width, the narrower of the two boxes plus the gap beside them.
    """
    # the gap along the axis that separates them most
    gx = abs(b.x - a.x) - (a.w + b.w) / 2
    gy = abs(b.y - a.y) - (a.h + b.h) / 2
    if gy >= gx:
        lo, hi = (a, b) if a.y < b.y else (b, a)
        y = (lo.y + lo.h / 2 + hi.y - hi.h / 2) / 2
        x = lo.x + (hi.x - lo.x) * ((y - lo.y) / (hi.y - lo.y) if hi.y != lo.y else 0.5)
        return x, y, max(min(lo.w, hi.w), 2.0)
    lo, hi = (a, b) if a.x < b.x else (b, a)
    x = (lo.x + lo.w / 2 + hi.x - hi.w / 2) / 2
    y = lo.y + (hi.y - lo.y) * ((x - lo.x) / (hi.x - lo.x) if hi.x != lo.x else 0.5)
    return x, y, gx


def _fallback(boxes: list[Box], flows: list[Flow], notes: list[str]) -> str:
    short = {b.id: b.label.split("\n")[0] for b in boxes}
    lines = [_t("components:")] + [f"  {b.label.replace(chr(10), ' · ')}" for b in boxes] + [_t("flows:")]
    for f in flows:
        arrow = "<->" if f.both else "->"
        lines.append(f"  {short[f.src]} {arrow} {short[f.dst]}" + (f": {f.label}" if f.label else ""))
    return "\n".join(lines + notes)


# --------------------------------------------------------------------------- the diagrams
def tool_platform() -> CourseFigure:
    """A tool platform for 1,000 tools across teams (question ``sd-tool-platform``)."""
    boxes = [
        Box("teams", _t("Team A / B / C\n(tool owners)"), 1.6, 6.0, kind="user"),
        Box("catalogue", _t("Tool catalogue\nnamespaced, versioned,\nowners, scopes"), 5.2, 6.0, 2.8, 1.1, "store"),
        Box("user", _t("User request"), 1.6, 3.5, kind="user"),
        Box("agent", _t("Agent\n(loop + registry)"), 5.2, 3.5),
        Box("retriever", _t("Tool retriever\ntop-k by relevance"), 9.4, 6.0, kind="infra"),
        Box("llm", _t("LLM\n(k tool definitions)"), 9.4, 3.5, kind="llm"),
        Box("gateway", _t("Gateway\nauth, quotas, timeouts"), 5.2, 1.2, 2.8, 1.0, "infra"),
        Box("servers", _t("MCP servers\nteam__tool …"), 9.4, 1.2, kind="tool"),
        Box("obs", _t("Tracing + metrics\nper tool, per team"), 1.6, 1.2, kind="infra"),
    ]
    flows = [
        Flow("teams", "catalogue", _t("publish (CI lints schemas)")), Flow("user", "agent", _t("request")),
        Flow("catalogue", "retriever", _t("index descriptions")), Flow("agent", "retriever", _t("which tools?")),
        Flow("agent", "llm", _t("messages + top-k tools"), "fc", both=True),
        Flow("agent", "gateway", "tools/call", "mcp"), Flow("gateway", "servers", _t("scoped token"), "mcp"),
        Flow("gateway", "obs", _t("spans, errors, latency"), "obs"),
    ]
    return block_diagram(boxes, flows, title=_t("A tool platform for 1,000 tools across teams"),
                         notes=[_t("never send all 1,000 definitions: retrieve the few relevant ones per request")])


def observability() -> CourseFigure:
    """Tracing an agent's tool calls across layers (question ``sd-observability``)."""
    boxes = [
        Box("user", _t("User request\n(run id)"), 1.6, 5.8, kind="user"),
        Box("agent", _t("Agent loop"), 5.0, 5.8),
        Box("llm", _t("LLM calls\n(span per request)"), 9.4, 5.8, kind="llm"),
        Box("tools", _t("Tool calls\nargs (redacted), latency,\nerror, retries"), 5.0, 3.4, 2.8, 1.2, "tool"),
        Box("mcp", _t("MCP server\n(JSON-RPC spans)"), 9.4, 3.4, kind="tool"),
        Box("a2a", _t("A2A agent\n(task spans)"), 9.4, 1.2, kind="a2a"),
        Box("collector", _t("Trace collector\n(OpenTelemetry)"), 1.6, 3.4, kind="infra"),
        Box("dash", _t("Dashboards + alerts\nerror rate, p95, owner"), 1.6, 1.2, 2.6, 1.0, "infra"),
    ]
    flows = [
        Flow("user", "agent", "run id"), Flow("agent", "llm", _t("tool list + choice"), "fc"),
        Flow("agent", "tools", "tool_calls"),
        Flow("tools", "mcp", _t("correlation id"), "mcp"), Flow("tools", "a2a", _t("correlation id"), "a2a"),
        Flow("tools", "collector", _t("spans"), "obs"), Flow("agent", "collector", _t("spans"), "obs"),
        Flow("collector", "dash", _t("metrics"), "obs"),
    ]
    return block_diagram(boxes, flows, title=_t("Observing tool calls in production"))


def multi_agent() -> CourseFigure:
    """The enterprise assistant: function calling, MCP and A2A together (question ``sd-multi-agent``)."""
    boxes = [
        Box("user", _t("User: 2024 revenue?\n+ open a review task"), 1.7, 6.0, 3.0, 0.9, "user"),
        Box("orch", _t("Orchestrator agent\nLLM + registry + loop"), 5.9, 6.0, 2.8, 1.0),
        Box("llm", "LLM", 10.2, 6.0, 1.6, 0.8, "llm"),
        Box("builtin", _t("Built-in tools\n(function calling)"), 1.4, 3.0, kind="tool"),
        Box("wiki", _t("Wiki\nMCP server"), 4.3, 3.0, kind="tool"),
        Box("pm", _t("Project-manager\nMCP server"), 7.2, 3.0, kind="tool"),
        Box("db_agent", _t("Database agent\n(Agent Card, Tasks)"), 10.2, 3.0, kind="a2a"),
        Box("db", _t("finance DB\n(SQL)"), 10.2, 0.9, kind="store"),
    ]
    flows = [
        Flow("user", "orch", _t("request")), Flow("orch", "llm", "tools + tool_calls", "fc", both=True),
        Flow("orch", "builtin", _t("call"), "fc"), Flow("orch", "wiki", "resources/read", "mcp"),
        Flow("orch", "pm", "tools/call", "mcp"), Flow("orch", "db_agent", "SendMessage → Task", "a2a"),
        Flow("db_agent", "db", "SELECT … FROM finance"),
    ]
    return block_diagram(boxes, flows, title=_t("Enterprise assistant: function calling + MCP + A2A"),
                         notes=[
                             _t("the database agent streams 'working' status and returns the figures as an Artifact"),
                             _t("resilience (timeouts, retries) and security (permissions, approval) wrap every hop")])


def protocol_layers() -> CourseFigure:
    """Which layer each protocol standardises (question ``a2a-vs-mcp-vs-fc``): lesson 11's own picture."""
    from ..a2a_agents import protocol_layers as lesson_11_figure

    return lesson_11_figure()


def tool_system() -> CourseFigure:
    """The tool system of Q1: definitions → registry → model → dispatch → result."""
    boxes = [
        Box("defs", _t("Tool definitions\nname + description +\nJSON Schema"), 1.8, 5.6, 2.8, 1.1, "tool"),
        Box("registry", _t("Registry\ntoolsets, check_fn,\ndynamic overrides"), 5.6, 5.6, 2.8, 1.1, "store"),
        Box("llm", _t("LLM\nchooses by description"), 9.8, 5.6, 2.6, 1.0, "llm"),
        Box("dispatch", _t("Dispatch\nparse + validate"), 9.8, 2.2, kind="agent"),
        Box("handler", _t("Handler\n(runs the tool)"), 5.6, 2.2, kind="tool"),
        Box("messages", _t("Conversation\nrole=tool message"), 1.8, 2.2, kind="agent"),
    ]
    flows = [
        Flow("defs", "registry", _t("register")), Flow("registry", "llm", _t("definitions() now"), "fc"),
        Flow("llm", "dispatch", "tool_calls", "fc"), Flow("dispatch", "handler", _t("arguments")),
        Flow("handler", "messages", _t("result or error")), Flow("messages", "llm", _t("next request"), "fc"),
    ]
    return block_diagram(boxes, flows, title=_t("Q1 · a tool system: how the agent knows which tool to call"))


DIAGRAMS: dict[str, Callable[[], CourseFigure]] = {
    "tool_platform": tool_platform, "observability": observability, "multi_agent": multi_agent,
    "protocol_layers": protocol_layers, "tool_system": tool_system,
}


def design_diagram(name: str) -> CourseFigure:
    """The diagram ``name`` (a question's ``diagram`` field).

    Raises:
        KeyError: no such diagram (the message lists them).
    """
    if name not in DIAGRAMS:
        raise KeyError(f"no diagram {name!r}; diagrams: {', '.join(DIAGRAMS)}")
    return DIAGRAMS[name]()
