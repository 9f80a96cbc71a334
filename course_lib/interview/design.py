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

from matplotlib.patches import FancyBboxPatch

from ..diagrams import CourseFigure, figure

GRID_W, GRID_H = 12.0, 7.0
KIND_COLOURS = {"agent": "#dbe8f7", "llm": "#e3f2e1", "tool": "#fdf0d9", "store": "#eeeeee", "infra": "#f3e5f5",
                "user": "#ffffff", "a2a": "#fce4ec"}
FLOW_COLOURS = {"fc": "#1f5fa8", "mcp": "#00796b", "a2a": "#c2185b", "data": "#555555", "obs": "#8e44ad"}


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
    fig = figure(10, 6.0 if not notes else 6.6, text=text)
    ax = fig.add_axes((0.01, 0.01 if not notes else 0.09, 0.98, 0.9 if not notes else 0.82))
    patches = {}
    for b in boxes:
        patch = FancyBboxPatch((b.x - b.w / 2, b.y - b.h / 2), b.w, b.h, boxstyle="round,pad=0.05,rounding_size=0.15",
                               fc=KIND_COLOURS.get(b.kind, "#ffffff"), ec="#555555", lw=1.1, zorder=2)
        ax.add_patch(patch)
        patches[b.id] = patch
        ax.text(b.x, b.y, b.label, ha="center", va="center", fontsize=8.5, zorder=3, wrap=True)
    for f in flows:
        a, b = by_id[f.src], by_id[f.dst]
        colour = FLOW_COLOURS.get(f.style, FLOW_COLOURS["data"])
        ax.annotate("", xy=(b.x, b.y), xytext=(a.x, a.y), zorder=1,
                    arrowprops={"arrowstyle": "<|-|>" if f.both else "-|>", "color": colour, "lw": 1.4,
                                "patchA": patches[f.src], "patchB": patches[f.dst], "shrinkA": 2, "shrinkB": 2})
        if f.label:
            ax.text((a.x + b.x) / 2, (a.y + b.y) / 2 + 0.12, f.label, ha="center", va="bottom", fontsize=7.5,
                    color=colour, zorder=4, bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                                                  "alpha": 0.85})
    ax.set_xlim(0, GRID_W)
    ax.set_ylim(0, GRID_H)
    ax.axis("off")
    fig.suptitle(title, fontsize=11)
    if notes:
        fig.text(0.02, 0.02, "\n".join(notes), fontsize=8, va="bottom", color="#333333")
    return fig


def _fallback(boxes: list[Box], flows: list[Flow], notes: list[str]) -> str:
    short = {b.id: b.label.split("\n")[0] for b in boxes}
    lines = ["components:"] + [f"  {b.label.replace(chr(10), ' · ')}" for b in boxes] + ["flows:"]
    for f in flows:
        arrow = "<->" if f.both else "->"
        lines.append(f"  {short[f.src]} {arrow} {short[f.dst]}" + (f": {f.label}" if f.label else ""))
    return "\n".join(lines + notes)


# --------------------------------------------------------------------------- the diagrams
def tool_platform() -> CourseFigure:
    """A tool platform for 1,000 tools across teams (question ``sd-tool-platform``)."""
    boxes = [
        Box("teams", "Team A / B / C\n(tool owners)", 1.6, 6.0, kind="user"),
        Box("catalogue", "Tool catalogue\nnamespaced, versioned,\nowners, scopes", 5.2, 6.0, 2.8, 1.1, "store"),
        Box("user", "User request", 1.6, 3.5, kind="user"),
        Box("agent", "Agent\n(loop + registry)", 5.2, 3.5),
        Box("retriever", "Tool retriever\ntop-k by relevance", 9.4, 6.0, kind="infra"),
        Box("llm", "LLM\n(k tool definitions)", 9.4, 3.5, kind="llm"),
        Box("gateway", "Gateway\nauth, quotas, timeouts", 5.2, 1.2, 2.8, 1.0, "infra"),
        Box("servers", "MCP servers\nteam__tool …", 9.4, 1.2, kind="tool"),
        Box("obs", "Tracing + metrics\nper tool, per team", 1.6, 1.2, kind="infra"),
    ]
    flows = [
        Flow("teams", "catalogue", "publish (CI lints schemas)"), Flow("user", "agent", "request"),
        Flow("catalogue", "retriever", "index descriptions"), Flow("agent", "retriever", "which tools?"),
        Flow("agent", "llm", "messages + top-k tools", "fc", both=True),
        Flow("agent", "gateway", "tools/call", "mcp"), Flow("gateway", "servers", "scoped token", "mcp"),
        Flow("gateway", "obs", "spans, errors, latency", "obs"),
    ]
    return block_diagram(boxes, flows, title="A tool platform for 1,000 tools across teams",
                         notes=["never send all 1,000 definitions: retrieve the few relevant ones per request"])


def observability() -> CourseFigure:
    """Tracing an agent's tool calls across layers (question ``sd-observability``)."""
    boxes = [
        Box("user", "User request\n(run id)", 1.6, 5.8, kind="user"),
        Box("agent", "Agent loop", 5.0, 5.8),
        Box("llm", "LLM calls\n(span per request)", 9.4, 5.8, kind="llm"),
        Box("tools", "Tool calls\nargs (redacted), latency,\nerror, retries", 5.0, 3.4, 2.8, 1.2, "tool"),
        Box("mcp", "MCP server\n(JSON-RPC spans)", 9.4, 3.4, kind="tool"),
        Box("a2a", "A2A agent\n(task spans)", 9.4, 1.2, kind="a2a"),
        Box("collector", "Trace collector\n(OpenTelemetry)", 1.6, 3.4, kind="infra"),
        Box("dash", "Dashboards + alerts\nerror rate, p95, owner", 1.6, 1.2, 2.6, 1.0, "infra"),
    ]
    flows = [
        Flow("user", "agent"), Flow("agent", "llm", "tool list + choice", "fc"), Flow("agent", "tools"),
        Flow("tools", "mcp", "correlation id", "mcp"), Flow("tools", "a2a", "correlation id", "a2a"),
        Flow("tools", "collector", "spans", "obs"), Flow("agent", "collector", "spans", "obs"),
        Flow("collector", "dash", "metrics", "obs"),
    ]
    return block_diagram(boxes, flows, title="Observing tool calls in production")


def multi_agent() -> CourseFigure:
    """The enterprise assistant: function calling, MCP and A2A together (question ``sd-multi-agent``)."""
    boxes = [
        Box("user", "User: 2024 revenue?\n+ open a review task", 1.7, 6.0, 3.0, 0.9, "user"),
        Box("orch", "Orchestrator agent\nLLM + registry + loop", 5.9, 6.0, 2.8, 1.0),
        Box("llm", "LLM", 10.2, 6.0, 1.6, 0.8, "llm"),
        Box("builtin", "Built-in tools\n(function calling)", 1.4, 3.0, kind="tool"),
        Box("wiki", "Wiki\nMCP server", 4.3, 3.0, kind="tool"),
        Box("pm", "Project-manager\nMCP server", 7.2, 3.0, kind="tool"),
        Box("db_agent", "Database agent\n(Agent Card, Tasks)", 10.2, 3.0, kind="a2a"),
        Box("db", "finance DB\n(SQL)", 10.2, 0.9, kind="store"),
    ]
    flows = [
        Flow("user", "orch", "request"), Flow("orch", "llm", "tools + tool_calls", "fc", both=True),
        Flow("orch", "builtin", "call", "fc"), Flow("orch", "wiki", "resources/read", "mcp"),
        Flow("orch", "pm", "tools/call", "mcp"), Flow("orch", "db_agent", "SendMessage → Task", "a2a"),
        Flow("db_agent", "db", "SELECT … FROM finance"),
    ]
    return block_diagram(boxes, flows, title="Enterprise assistant: function calling + MCP + A2A",
                         notes=["the database agent streams 'working' status and returns the figures as an Artifact",
                                "resilience (timeouts, retries) and security (permissions, approval) wrap every hop"])


def protocol_layers() -> CourseFigure:
    """Which layer each protocol standardises (question ``a2a-vs-mcp-vs-fc``): lesson 11's own picture."""
    from ..a2a_agents import protocol_layers as lesson_11_figure

    return lesson_11_figure()


def tool_system() -> CourseFigure:
    """The tool system of Q1: definitions → registry → model → dispatch → result."""
    boxes = [
        Box("defs", "Tool definitions\nname + description +\nJSON Schema", 1.8, 5.6, 2.8, 1.1, "tool"),
        Box("registry", "Registry\ntoolsets, check_fn,\ndynamic overrides", 5.6, 5.6, 2.8, 1.1, "store"),
        Box("llm", "LLM\nchooses by description", 9.8, 5.6, 2.6, 1.0, "llm"),
        Box("dispatch", "Dispatch\nparse + validate", 9.8, 2.2, kind="agent"),
        Box("handler", "Handler\n(runs the tool)", 5.6, 2.2, kind="tool"),
        Box("messages", "Conversation\nrole=tool message", 1.8, 2.2, kind="agent"),
    ]
    flows = [
        Flow("defs", "registry", "register"), Flow("registry", "llm", "definitions() now", "fc"),
        Flow("llm", "dispatch", "tool_calls", "fc"), Flow("dispatch", "handler", "arguments"),
        Flow("handler", "messages", "result or error"), Flow("messages", "llm", "next request", "fc"),
    ]
    return block_diagram(boxes, flows, title="Q1 · a tool system: how the agent knows which tool to call")


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
