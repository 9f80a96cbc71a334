"""Which layer do you need? Seed 000 §5's scale guide as a decision helper.

Seed 000 §5 ranks the three ways to give an agent tools by complexity and by the scale they
suit, and Q2 turns it into rules of thumb:

=====================================  =================  =====================================
stage                                   complexity         suits
=====================================  =================  =====================================
own function calling + JSON Schema      low: simple        one framework, small scale
MCP, the standard tool interface        medium             several frameworks, shared tools
A2A + MCP, the full standard stack      high               enterprise multi-agent systems
=====================================  =================  =====================================

("内部小工具（< 10 个）→ 直接 Function Calling；跨框架共享工具、或第三方工具 → MCP；完全云原生企业
→ MCP + A2A".) :func:`recommend` applies those rules to a :class:`Scenario` and says *why*;
:func:`scale_guide_figure` draws the seed's staircase with scenarios on it;
:func:`scale_guide_widget` lets a learner move the sliders. The thresholds are the seed's
(10 tools) or stated in :data:`RULES`: they are rules of thumb, not laws, which is why every
recommendation lists its reasons.

What a learner reads (stage names, reasons, the example scenarios' names, the figure and widget labels) is
in the learner's language (:mod:`course_lib.i18n`); :attr:`Stage.key` and the numbers stay as they are, and a
scenario name of the learner's own is shown as written.

Taught in lesson 12.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from .diagrams import figure
from .i18n import N_, _
from .text_table import cut, display_width, pad
from .widgets import WithFallback, widgets_available

if TYPE_CHECKING:  # matplotlib is imported on the first figure, not with this module
    from .course_figure import CourseFigure


@dataclass(frozen=True)
class Stage:
    """One step of the seed's staircase."""

    key: str
    name: str
    complexity: str
    suits: str

    def __repr__(self) -> str:
        return f"Stage({self.key!r}: {self.name})"


#: The three stages of seed 000 §5, lowest first.
STAGES: tuple[Stage, ...] = (
    Stage("function_calling", N_("own function calling + JSON Schema"), N_("low: simple to build"),
          N_("one framework, a few tools, small scale")),
    Stage("mcp", N_("MCP: a standard tool interface"), N_("medium: build a tool once, use it everywhere"),
          N_("several frameworks or hosts sharing tools; third-party tools")),
    Stage("a2a_mcp", N_("A2A + MCP: the full standard stack"), N_("high: agents, cards, tasks, servers"),
          N_("enterprise systems of many agents, run by different teams")),
)
_BY_KEY = {s.key: s for s in STAGES}

#: The thresholds the rules use (seed 000 Q2: "internal small tools (< 10) -> function calling").
RULES = {"many_tools": 10, "many_agents": 3}


@dataclass(frozen=True)
class Scenario:
    """A system to build, described by what decides the layer.

    Attributes:
        name: a short description.
        tools: how many tools the agents use.
        hosts: how many applications or agent frameworks must use the *same* tools (your agent, an
            IDE, a desktop assistant...).
        third_party_tools: some tools are written and run by another team or a vendor.
        agents: how many agents, each with its own model and loop, must work together.
        other_owners: some of those agents belong to other teams or companies: you cannot import
            their code, only talk to them.
    """

    name: str
    tools: int = 3
    hosts: int = 1
    third_party_tools: bool = False
    agents: int = 1
    other_owners: bool = False

    def __post_init__(self) -> None:
        if self.tools < 0 or self.hosts < 1 or self.agents < 1:
            raise ValueError("tools must be >= 0, hosts and agents >= 1")

    def __repr__(self) -> str:
        return (f"Scenario({self.name!r}: {self.tools} tools, {self.hosts} host{'s' * (self.hosts != 1)}, "
                f"{self.agents} agent{'s' * (self.agents != 1)}"
                + (", third-party tools" if self.third_party_tools else "")
                + (", agents of other teams" if self.other_owners else "") + ")")


@dataclass
class Advice:
    """What :func:`recommend` says: the stage and the reasons, each naming the fact that decided it."""

    scenario: Scenario
    stage: Stage
    reasons: list[str] = field(default_factory=list)

    @property
    def level(self) -> int:
        """0, 1 or 2: the stage's step on the staircase."""
        return STAGES.index(self.stage)

    def text(self) -> str:
        """``name -> stage`` and one ``  - reason`` line per reason, in the learner's language."""
        return (f"{_(self.scenario.name)} -> {_(self.stage.name)}\n"
                + "\n".join(f"  - {r}" for r in self.reasons))

    def __repr__(self) -> str:
        return f"Advice({self.scenario.name!r} -> {self.stage.key})"


def recommend(scenario: Scenario) -> Advice:
    """The stage of seed 000 §5 that ``scenario`` needs, with the reasons.

    Rules (first match wins, from the top of the staircase down):

    * **A2A + MCP** when agents must cooperate across owners (``agents >= 2`` and ``other_owners``)
      or there are many agents (``agents >= 3``): they need cards to discover each other and a
      task protocol to delegate, and their tools are best shared through MCP;
    * **MCP** when the same tools serve several hosts (``hosts >= 2``), some tools are third-party,
      or there are ``>= 10`` tools (seed 000 Q2: "< 10 internal tools -> function calling");
    * otherwise **own function calling** with JSON Schema: simplest, nothing to run.

    Args:
        scenario: the system to build.

    Returns:
        An :class:`Advice`.

    Example:
        >>> recommend(Scenario("weather bot", tools=2)).stage.key
        'function_calling'
        >>> recommend(Scenario("IDE + desktop app", tools=6, hosts=2)).stage.key
        'mcp'
        >>> recommend(Scenario("finance + HR agents", tools=12, agents=2, other_owners=True)).stage.key
        'a2a_mcp'

    Taught in lesson 12 (seed 000 §5 and Q2).
    """
    s = scenario
    shared = _("each agent still needs tools: MCP servers keep them shareable")
    if s.agents >= 2 and s.other_owners:
        return Advice(s, _BY_KEY["a2a_mcp"], [
            _("{agents} agents, some run by other teams: you only see their Agent Cards, so they discover each "
              "other and delegate Tasks over A2A").format(agents=s.agents), shared])
    if s.agents >= RULES["many_agents"]:
        return Advice(s, _BY_KEY["a2a_mcp"], [
            _("{agents} agents delegating to each other (>= {many}): Agent Cards, task states and streaming (A2A) "
              "beat hand-made calls between them").format(agents=s.agents, many=RULES["many_agents"]), shared])
    reasons = []
    if s.hosts >= 2:
        reasons.append(_("{hosts} hosts use the same tools: one MCP server instead of {hosts} integrations")
                       .format(hosts=s.hosts))
    if s.third_party_tools:
        reasons.append(_("third-party tools: their owners run an MCP server, you connect to it"))
    if s.tools >= RULES["many_tools"]:
        reasons.append(_("{tools} tools (>= {many}): group them into servers and discover them with tools/list")
                       .format(tools=s.tools, many=RULES["many_tools"]))
    stage = _BY_KEY["mcp"] if reasons else _BY_KEY["function_calling"]
    if not reasons:
        own = (_("{tools} tool (< {many}), one host, all your own: send their JSON Schemas with each request; "
                 "nothing else to run") if s.tools == 1 else
               _("{tools} tools (< {many}), one host, all your own: send their JSON Schemas with each request; "
                 "nothing else to run"))
        reasons.append(own.format(tools=s.tools, many=RULES["many_tools"]))
    if s.agents == 2:
        reasons.append(_("2 agents of one team: the second can be a tool of the first, in the same program; move "
                         "to A2A when another team runs it"))
    return Advice(s, stage, reasons)


#: Scenarios to try (lesson 12), from a weather bot to a company of agents.
EXAMPLE_SCENARIOS: tuple[Scenario, ...] = (
    Scenario(N_("a weather chatbot"), tools=2),
    Scenario(N_("an internal helpdesk bot"), tools=7),
    Scenario(N_("a coding agent, an IDE and a desktop assistant sharing tools"), tools=8, hosts=3),
    Scenario(N_("a support bot using a vendor's ticket tools"), tools=5, third_party_tools=True),
    Scenario(N_("this capstone: an orchestrator and the finance team's agent"), tools=11, hosts=1,
             third_party_tools=True, agents=2, other_owners=True),
    Scenario(N_("a company of agents: finance, HR, IT, sales"), tools=40, hosts=3, agents=6, other_owners=True),
)


#: the widest scenario-name column of :func:`advice_table` (display columns); longer names are shortened at a
#: word, with "…"
NAME_WIDTH = 60


def _shorten(name: str, width: int) -> str:
    """``name`` in at most ``width`` display columns: cut at a word with "…" (as ``textwrap.shorten``), or at a
    character where the words are too long for it (Chinese has no spaces)."""
    if display_width(name) <= width:
        return name
    short = textwrap.shorten(name, width, placeholder="…")
    return short if short != "…" and display_width(short) <= width else cut(name, width)


def advice_table(scenarios: Iterable[Scenario] = EXAMPLE_SCENARIOS) -> str:
    """One line per scenario: its name, its stage and the first reason.

    The name column is as wide as the longest name, at most :data:`NAME_WIDTH` display columns (a Chinese
    character takes two: :func:`~course_lib.text_table.display_width`); a longer name is shortened at a word
    boundary and ends with "…" (never cut mid-word; a Chinese name, which has no spaces, at a character).
    """
    names = [_(s.name) for s in scenarios]
    width = min(NAME_WIDTH, max((display_width(n) for n in names), default=0))
    rows = []
    for s, name in zip(scenarios, names):
        a = recommend(s)
        rows.append(f"{pad(_shorten(name, width), width)} -> {pad(a.stage.key, 16)} {a.reasons[0]}")
    return "\n".join(rows)


def scale_guide_figure(scenarios: Sequence[Scenario] = EXAMPLE_SCENARIOS, *,
                       title: str | None = None) -> CourseFigure:
    """The seed's staircase (complexity up, scale right), each scenario placed on its stage.

    Three steps side by side, each higher than the last, with the stage's name, complexity and what it
    suits written inside it (wrapped to fit) and the numbers of the scenarios it suits at its foot; the
    numbered scenarios are listed under the staircase. ``title`` defaults to "Seed 000 §5: which layer for which
    scale", in the learner's language.

    Returns:
        A :class:`~course_lib.diagrams.CourseFigure`; the text fallback is :func:`advice_table`.
    """
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    from .diagrams import FONT, FONT_SMALL, FONT_TITLE, GREY, INK, MAX_WIDTH, OKABE_ITO, wrap_to_width

    advice = [recommend(s) for s in scenarios]
    colours = (OKABE_ITO["blue"], OKABE_ITO["green"], OKABE_ITO["vermillion"])
    fills = ("#DCEAF7", "#D5F0E6", "#F9DCCB")
    width, col_w, gap, line = MAX_WIDTH, 2.8, 0.15, FONT_SMALL / 72 * 1.35
    left = 0.55
    blocks = []
    for stage in STAGES:
        name = wrap_to_width(_(stage.name), col_w - 0.25, FONT, max_lines=2, weight="bold")
        body = (wrap_to_width(_(stage.complexity), col_w - 0.25, FONT_SMALL, max_lines=3)
                + wrap_to_width(_("suits: {what}").format(what=_(stage.suits)), col_w - 0.25, FONT_SMALL,
                                max_lines=4))
        blocks.append((name, body, 0.3 + line * (len(name) + len(body)) + 0.2 + 0.45))
    base, rise = 0.0, 0.45
    tallest = max(block[2] + rise * i for i, block in enumerate(blocks))
    rows = (len(advice) + 1) // 2
    list_h = 0.25 + rows * 0.24
    title_h = 0.5
    height = title_h + tallest + 0.35 + list_h + 0.1
    fig = figure(width, height, text=advice_table(scenarios))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(-(list_h + 0.35), tallest + title_h + 0.1)
    ax.axis("off")
    for i, (stage, (name, body, h)) in enumerate(zip(STAGES, blocks)):
        x, top = left + i * (col_w + gap), base + h + rise * i
        ax.add_patch(FancyBboxPatch((x, base), col_w, top - base, boxstyle="round,pad=0,rounding_size=0.05",
                                    fc=fills[i], ec=colours[i], lw=1.3))
        y = top - 0.15
        ax.text(x + 0.12, y, "\n".join(name), ha="left", va="top", fontsize=FONT, weight="bold", color=INK,
                linespacing=1.25)
        y -= line * len(name) + 0.08
        ax.text(x + 0.12, y, "\n".join(body), ha="left", va="top", fontsize=FONT_SMALL, color=INK, linespacing=1.3)
        here = [n for n, a in enumerate(advice, start=1) if a.level == i]
        for k, n in enumerate(here):
            ax.text(x + 0.25 + 0.42 * k, base + 0.27, str(n), ha="center", va="center", fontsize=FONT_SMALL, color=INK,
                    weight="bold", bbox={"boxstyle": "circle,pad=0.25", "fc": "white", "ec": colours[i], "lw": 1.3})
    ax.add_patch(FancyArrowPatch((0.25, base), (0.25, tallest), arrowstyle="-|>", mutation_scale=12, color=GREY,
                                 lw=1.1))
    ax.text(0.17, tallest / 2, _("complexity"), rotation=90, ha="right", va="center", fontsize=FONT_SMALL, color=INK)
    ax.text(left, -0.12, _("scale: tools, hosts, agents, owners →"), ha="left", va="top", fontsize=FONT_SMALL,
            color=INK)
    per_col = rows
    for n, a in enumerate(advice, start=1):
        col, row = divmod(n - 1, per_col)
        label = f"{n}. {_(a.scenario.name)}"
        ax.text(left + col * 4.55, -0.45 - row * 0.24, wrap_to_width(label, 4.4, FONT_SMALL, max_lines=1)[0],
                ha="left", va="top", fontsize=FONT_SMALL, color=INK)
    fig.suptitle(title or _("Seed 000 §5: which layer for which scale"), fontsize=FONT_TITLE, y=1 - 0.08 / height,
                 va="top")
    return fig


def scale_guide_widget(start: Scenario | None = None) -> WithFallback:
    """Sliders and checkboxes for a :class:`Scenario`; the advice updates as you move them.

    Text fallback (nbval, GitHub): where to try it, and the advice for ``start`` (the example scenarios'
    table is :func:`scale_guide_figure`'s fallback; it is not repeated here).
    """
    begin = start or Scenario(N_("your system"))
    text = (_("Try the scale guide in JupyterLab: sliders for tools, hosts and agents, checkboxes for third-party "
              "tools and other teams' agents; the advice follows them. Starting from:") + "\n" + recommend(begin).text())
    if not widgets_available():
        return WithFallback(None, text)
    import html

    import ipywidgets as w

    s = begin
    tools = w.IntSlider(value=s.tools, min=0, max=50, description=_("tools"))
    hosts = w.IntSlider(value=s.hosts, min=1, max=6, description=_("hosts"))
    agents = w.IntSlider(value=s.agents, min=1, max=8, description=_("agents"))
    third = w.Checkbox(value=s.third_party_tools, description=_("third-party tools"))
    owners = w.Checkbox(value=s.other_owners, description=_("agents of other teams"))
    out = w.HTML()

    def show(change: Any = None) -> None:
        a = recommend(Scenario(s.name, tools.value, hosts.value, third.value, agents.value, owners.value))
        items = "".join(f"<li>{html.escape(r)}</li>" for r in a.reasons)
        out.value = (f"<b>→ {html.escape(_(a.stage.name))}</b> <i>({html.escape(_(a.stage.complexity))})</i>"
                     f"<ul>{items}</ul>")

    for control in (tools, hosts, agents, third, owners):
        control.observe(show, names="value")
    show()
    return WithFallback(w.VBox([w.HBox([tools, hosts, agents]), w.HBox([third, owners]), out]), text)


__all__ = ["Advice", "EXAMPLE_SCENARIOS", "RULES", "STAGES", "Scenario", "Stage", "advice_table", "recommend",
           "scale_guide_figure", "scale_guide_widget"]
