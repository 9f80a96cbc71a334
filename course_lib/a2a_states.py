"""The A2A task lifecycle as one table: ``{state: {event: next_state}}``.

A Task (A2A 1.0 §4.1.3) moves through eight states. This module writes the moves down once,
as data, and everything else is derived from it: the state diagram of lesson 11
(:func:`state_diagram`), the check that a stream of updates is a legal path
(:func:`check_path`, used by the orchestrator's fold and by the tests), and the sets of
terminal and interrupted states, which the tests compare with the ``a2a-sdk``'s own
``TaskState`` enum and its ``TERMINAL_TASK_STATES`` / ``INTERRUPTED_TASK_STATES``.

State names are the spec's prose spelling (``input-required``); on the 1.0 wire they are
ProtoJSON enum names (``TASK_STATE_INPUT_REQUIRED``), in 0.3 they were lower-case
(``"input-required"``). :func:`wire_name` and :func:`state_of` convert.

Deliberate choices (the spec lists the states but draws no transition table):

* a resumed task reports ``working`` before it finishes (``input-required --reply-->
  working``), so a client always sees the agent pick the work up again;
* ``working --progress--> working`` is the one self-loop: several progress updates in a row;
* the four terminal states have no way out: a second cancel of a canceled task changes
  nothing (see ``CourseRequestHandler`` in :mod:`course_lib.a2a_agents`).

Taught in lesson 11.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Mapping

from .diagrams import figure
from .i18n import N_, _
from .text_table import pad

if TYPE_CHECKING:  # matplotlib is imported on the first figure, not with this module
    from .course_figure import CourseFigure

#: The lifecycle: for each state, the events that leave it and the state each one leads to.
TRANSITIONS: dict[str, dict[str, str]] = {
    "submitted": {"start": "working", "need_input": "input-required", "need_auth": "auth-required",
                  "complete": "completed", "fail": "failed", "reject": "rejected", "cancel": "canceled"},
    "working": {"progress": "working", "need_input": "input-required", "need_auth": "auth-required",
                "complete": "completed", "fail": "failed", "reject": "rejected", "cancel": "canceled"},
    "input-required": {"reply": "working", "fail": "failed", "cancel": "canceled"},
    "auth-required": {"authenticate": "working", "fail": "failed", "cancel": "canceled"},
    "completed": {},
    "failed": {},
    "canceled": {},
    "rejected": {},
}

#: How a client follows a task's moves (A2A 1.0 §3.1); none of them changes a state.
FOLLOW: dict[str, str] = {
    "SendStreamingMessage": N_("live events while the client stays connected"),
    "SubscribeToTask": N_("reconnect to a running task: its snapshot now, then every later event"),
    "GetTask / ListTasks": N_("poll a snapshot (ListTasks filters by state and context, in pages)"),
    "push notification": N_("the agent POSTs each update to the client's webhook, with the client's token"),
}
#: What a paused task waits for, and how the client gives it (the same ``taskId`` resumes it).
RESUME: dict[str, str] = {
    "input-required": N_("an answer: a message on the same task"),
    "auth-required": N_("credentials (HTTP headers, never in the message), then a message on the same task"),
}

#: States with no way out.
TERMINAL: frozenset[str] = frozenset(s for s, moves in TRANSITIONS.items() if not moves)
#: States where the agent waits for the client (the task is paused, not finished).
INTERRUPTED: frozenset[str] = frozenset(s for s in TRANSITIONS if s.endswith("-required"))
#: Where every task starts.
INITIAL = "submitted"


class InvalidTransition(ValueError):
    """A task moved in a way :data:`TRANSITIONS` does not allow (e.g. ``completed`` → ``working``)."""

    def __init__(self, state: str, new_state: str) -> None:
        allowed = ", ".join(f"{e} → {n}" for e, n in TRANSITIONS.get(state, {}).items()) or "none (terminal)"
        super().__init__(f"a task cannot go from {state!r} to {new_state!r}; allowed moves: {allowed}")
        self.state, self.new_state = state, new_state


def wire_name(state: str) -> str:
    """The A2A 1.0 ProtoJSON name of ``state``: ``"input-required"`` → ``"TASK_STATE_INPUT_REQUIRED"``.

    Raises:
        KeyError: ``state`` is not one of :data:`TRANSITIONS`.
    """
    if state not in TRANSITIONS:
        raise KeyError(f"unknown task state {state!r}; known: {', '.join(TRANSITIONS)}")
    return "TASK_STATE_" + state.upper().replace("-", "_")


def state_of(value: object) -> str:
    """The table's name for a state given in any spelling.

    Accepts the SDK enum value (an ``int``, e.g. ``TaskState.TASK_STATE_WORKING``), the 1.0
    wire name (``"TASK_STATE_WORKING"``) or the 0.3 / prose name (``"working"``).

    Raises:
        KeyError: not a task state (``TASK_STATE_UNSPECIFIED`` included).
    """
    if isinstance(value, int):
        from a2a.types import TaskState  # the SDK is only needed for numeric enum values

        value = TaskState.Name(value)
    text = str(value)
    if text.startswith("TASK_STATE_"):
        text = text[len("TASK_STATE_"):].lower().replace("_", "-")
    if text not in TRANSITIONS:
        raise KeyError(f"not a task state: {value!r}")
    return text


def next_state(state: str, event: str) -> str:
    """The state that ``event`` leads to from ``state``.

    Raises:
        InvalidTransition: ``event`` is not allowed in ``state`` (the message lists what is).
    """
    try:
        return TRANSITIONS[state][event]
    except KeyError:
        raise InvalidTransition(state, f"<{event}>") from None


def event_between(state: str, new_state: str) -> str:
    """The event that moves a task from ``state`` to ``new_state``.

    Raises:
        InvalidTransition: no event does.
    """
    for event, target in TRANSITIONS.get(state, {}).items():
        if target == new_state:
            return event
    raise InvalidTransition(state, new_state)


def check_path(states: Iterable[object]) -> list[str]:
    """Check that a sequence of observed states is a legal path through the table.

    Repeated states are collapsed first, except ``working`` → ``working`` which is the
    ``progress`` event (a stream can carry several progress updates). The path may start
    in any state (a resumed task's stream starts where the task was).

    Args:
        states: states in any spelling accepted by :func:`state_of`.

    Returns:
        The events taken, e.g. ``["start", "complete"]`` for submitted → working → completed.

    Raises:
        InvalidTransition: at the first illegal move.
    """
    names = [state_of(s) for s in states]
    events = []
    for a, b in zip(names, names[1:]):
        if a == b and a != "working":
            continue
        events.append(event_between(a, b))
    return events


def transitions_text(table: Mapping[str, Mapping[str, str]] = TRANSITIONS) -> str:
    """The table as text, one ``state --event--> state`` line per move (terminal states marked).

    The states are padded to 15 display columns (:func:`~course_lib.text_table.pad`), so a table whose
    states or events are Chinese still lines up; state and event names themselves are never translated
    (they are the spec's), only the ``(terminal)`` mark is, in the learner's language.
    """
    lines = []
    for state, moves in table.items():
        if not moves:
            lines.append(pad(state, 15) + " " + _("(terminal)"))
        for event, target in moves.items():
            lines.append(f"{pad(state, 15)} --{event}--> {target}")
    return "\n".join(lines)


# Where each active state sits in the picture (inches); the moves that end a task are drawn as a table
# beside it (from-state x terminal state), so no arrow crosses another's label.
_LAYOUT = {"submitted": (0.75, 1.7), "working": (3.0, 1.7), "input-required": (3.0, 3.15),
           "auth-required": (3.0, 0.25)}
_HALF_HEIGHT = 0.17  # half the height of a state's box (inches)


def _half_width(state: str) -> float:
    from .diagrams import FONT, text_width

    return text_width(state, FONT) / 2 + 0.14


def _edge_point(centre: tuple[float, float], half: tuple[float, float], toward: tuple[float, float]) -> tuple[float, float]:
    """Where the segment from ``centre`` toward ``toward`` leaves the box of half sizes ``half``."""
    (cx, cy), (hw, hh) = centre, half
    dx, dy = toward[0] - cx, toward[1] - cy
    t = min(hw / abs(dx) if dx else float("inf"), hh / abs(dy) if dy else float("inf"))
    return cx + dx * t, cy + dy * t


def state_diagram(table: Mapping[str, Mapping[str, str]] = TRANSITIONS, *,
                  highlight: Iterable[object] = (), legend: bool = True) -> CourseFigure:
    """Draw the lifecycle from ``table``: the active states with the moves between them, and a table of endings.

    Left, every state a task can still leave, one arrow per event between them (each label beside its
    arrow; ``progress`` is the loop on ``working``). Right, every move that ends a task: a row per state,
    a column per terminal state, the event in the cell. ``highlight`` colours a task's real path in both.

    Args:
        table: ``{state: {event: next_state}}`` (default :data:`TRANSITIONS`); states other than the
            four active states of A2A 1.0 must be terminal (they become columns of the table).
        highlight: a path of observed states (any spelling) to draw in colour, e.g. the
            states a real task went through.
        legend: add what the paused states wait for (:data:`RESUME`) and the ways a client follows
            the moves (:data:`FOLLOW`) under the states (the default table only).

    Returns:
        A :class:`~course_lib.diagrams.CourseFigure` whose text fallback is
        :func:`transitions_text`, the legend, then the highlighted path, if any.
    """
    from matplotlib.lines import Line2D

    from .diagrams import FONT, FONT_SMALL, FONT_TITLE, GREY, INK, OKABE_ITO, decoration_line

    path = [state_of(s) for s in highlight]
    used = set(zip(path, path[1:]))
    notes = legend_lines() if legend and table is TRANSITIONS else []
    text = "\n".join([transitions_text(table), *notes])
    if path:
        text += "\n" + _("path: {states}").format(states=" -> ".join(path))
    hot, cold = OKABE_ITO["vermillion"], GREY
    terminal = [s for s, moves in table.items() if not moves]
    active = [s for s in table if s not in terminal]
    extra = 0.3 * len(notes) + 0.3 if notes else 0.0  # inches under the drawing for the legend
    width, height = 9.6, 4.6 + extra
    fig = figure(width, height, text=text)
    if notes:
        leg = fig.add_axes((0.0, 0.0, 1.0, extra / height))
        leg.set_xlim(0, width)
        leg.set_ylim(0, extra)
        leg.axis("off")
        for i, line in enumerate(notes):
            leg.text(0.25, extra - 0.25 - 0.3 * i, line, ha="left", va="center", fontsize=FONT_SMALL, color=INK)

    # -- left: the active states and the moves between them (data coordinates are inches)
    graph_w = 4.5
    ax = fig.add_axes((0.0, extra / height, graph_w / width, 3.75 / height))
    ax.set_xlim(0, graph_w)
    ax.set_ylim(-0.3, 3.45)
    ax.axis("off")
    for state in active:
        x, y = _LAYOUT[state]
        on_path = state in path
        ax.text(x, y, state, ha="center", va="center", fontsize=FONT, color=INK, weight="bold" if on_path else "normal",
                zorder=3, bbox={"boxstyle": "round,pad=0.35", "fc": "#FBE3D6" if on_path else "#F2F2F2",
                                "ec": hot if on_path else GREY, "lw": 1.6 if on_path else 0.9})
    pairs = {(a, b) for a, moves in table.items() for b in moves.values()}
    for state in active:
        for event, target in table[state].items():
            if target in terminal:
                continue
            colour, lw = (hot, 2.2) if (state, target) in used else (cold, 1.1)
            (x1, y1), (x2, y2) = _LAYOUT[state], _LAYOUT[target]
            if state == target:  # progress: a loop on the right of the box
                hw = _half_width(state)
                ax.annotate("", xy=(x1 + hw, y1 - 0.1), xytext=(x1 + hw, y1 + 0.1),
                            arrowprops={"arrowstyle": "-|>", "color": colour, "lw": lw,
                                        "connectionstyle": "arc3,rad=-2.4", "shrinkA": 0, "shrinkB": 0})
                ax.text(x1 + hw + 0.42, y1, event, ha="left", va="center", fontsize=FONT_SMALL, color=INK)
                continue
            if x1 != x2 and y1 != y2:  # up or down from the source, then across into the target's side
                up = y2 > y1
                a = (x1, y1 + (_HALF_HEIGHT if up else -_HALF_HEIGHT))
                b = (x2 - _half_width(target) if x2 > x1 else x2 + _half_width(target), y2)
                ax.annotate("", xy=b, xytext=a, arrowprops={"arrowstyle": "-|>", "color": colour, "lw": lw,
                                                            "shrinkA": 2, "shrinkB": 2,
                                                            "connectionstyle": "angle,angleA=90,angleB=0,rad=6"})
                ax.text(x1 + 0.1, (a[1] + y2) / 2, event, ha="left", va="center", fontsize=FONT_SMALL, color=INK)
                continue
            shift = 0.16 if (target, state) in pairs and x1 == x2 else 0.0  # a two-way pair: side by side
            ox = (-shift if y2 > y1 else shift) if shift else 0.0  # up on the left, down on the right
            a = _edge_point((x1 + ox, y1), (_half_width(state) if not shift else 1.0, _HALF_HEIGHT), (x2 + ox, y2))
            b = _edge_point((x2 + ox, y2), (_half_width(target) if not shift else 1.0, _HALF_HEIGHT), (x1 + ox, y1))
            ax.annotate("", xy=b, xytext=a, arrowprops={"arrowstyle": "-|>", "color": colour, "lw": lw,
                                                        "shrinkA": 2, "shrinkB": 2})
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            if shift:  # label outside the pair
                ax.text(mx + (0.1 if ox > 0 else -0.1), my, event, ha="left" if ox > 0 else "right", va="center",
                        fontsize=FONT_SMALL, color=INK)
            elif abs(y2 - y1) < 1e-9:  # horizontal: above
                ax.text(mx, my + 0.08, event, ha="center", va="bottom", fontsize=FONT_SMALL, color=INK)
            else:  # vertical, one way: on its right
                ax.text(mx + 0.1, my, event, ha="left", va="center", fontsize=FONT_SMALL, color=INK)
    ax.text(0.05, 3.42, _("moves between active states"), fontsize=FONT, color=INK, weight="bold", va="top")

    # -- right: every move that ends a task, as a table
    enders = [s for s in active if any(t in terminal for t in table[s].values())]
    from .diagrams import text_width

    row_h = 0.44
    first_w = max(text_width(s, FONT_SMALL, weight="bold") for s in enders) + 0.2 if enders else 1.0
    col_w = max([text_width(t, FONT_SMALL, weight="bold") + 0.16 for t in terminal] + [0.6])
    left = graph_w + 0.05
    tw = first_w + col_w * len(terminal)
    tab = fig.add_axes((left / width, extra / height, (width - left) / width, 3.75 / height))
    tab.set_xlim(0, width - left)
    tab.set_ylim(-0.3, 3.45)
    tab.axis("off")
    top = 2.75
    tab.text(0.05, 3.42, _("moves that end a task"), fontsize=FONT, color=INK, weight="bold", va="top")
    for j, end in enumerate(terminal):  # terminal states in boxes with a thick border, as the title says
        tab.text(first_w + col_w * (j + 0.5), top + row_h / 2, end, ha="center", va="center", fontsize=FONT_SMALL,
                 color=INK, weight="bold", bbox={"boxstyle": "round,pad=0.25", "fc": "#F2F2F2", "ec": GREY, "lw": 2.0})
    for i, state in enumerate(enders):
        y = top - row_h * (i + 0.5)
        tab.text(first_w - 0.1, y, state, ha="right", va="center", fontsize=FONT_SMALL, color=INK,
                 weight="bold" if state in path else "normal")
        for j, end in enumerate(terminal):
            event = next((e for e, t in table[state].items() if t == end), None)
            on = (state, end) in used
            tab.text(first_w + col_w * (j + 0.5), y, event or "–", ha="center", va="center", fontsize=FONT_SMALL,
                     color=hot if on else (INK if event else GREY), weight="bold" if on else "normal")
    for i in range(len(enders) + 2):
        y = top + row_h - row_h * i
        tab.add_line(decoration_line(Line2D([0.05, tw], [y, y], color="#CCCCCC", lw=0.8)))
    if path:
        tab.text(0.05, top - row_h * (len(enders) + 1) - 0.1, _("in vermillion: this task's path"), fontsize=FONT_SMALL,
                 color=hot, va="top")
    title = _("A2A task lifecycle (thick border: terminal)")
    fig.suptitle(title + (" · " + _("coloured: this task's path") if path else ""),
                 fontsize=FONT_TITLE, y=1 - 0.08 / height, va="top")
    return fig


def legend_lines() -> list[str]:
    """:data:`RESUME` and :data:`FOLLOW` as short lines (the diagram's legend), in the learner's language;
    state and method names stay as the spec spells them (``input-required waits for ...``)."""
    return ([_("{state} waits for {what}").format(state=state, what=_(what)) for state, what in RESUME.items()]
            + [_("follow by {how}: {what}").format(how=how, what=_(what)) for how, what in FOLLOW.items()])


__all__ = ["FOLLOW", "INITIAL", "RESUME", "legend_lines", "INTERRUPTED", "TERMINAL", "TRANSITIONS", "InvalidTransition", "check_path",
           "event_between", "next_state", "state_diagram", "state_of", "transitions_text", "wire_name"]
