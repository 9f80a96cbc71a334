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

from typing import Iterable, Mapping

from .diagrams import CourseFigure, figure

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
    """The table as text, one ``state --event--> state`` line per move (terminal states marked)."""
    lines = []
    for state, moves in table.items():
        if not moves:
            lines.append(f"{state:<15} (terminal)")
        for event, target in moves.items():
            lines.append(f"{state:<15} --{event}--> {target}")
    return "\n".join(lines)


# Where each state sits in the picture (x, y), and how much each arrow bends (matplotlib's
# arc3 ``rad``); lesson 11 draws the table itself, not a hand-made image.
_LAYOUT = {"submitted": (0.0, 1.5), "working": (2.8, 1.5), "input-required": (1.4, 3.1),
           "auth-required": (1.4, -0.1), "completed": (6.0, 3.1), "failed": (6.0, 2.05),
           "canceled": (6.0, 0.95), "rejected": (6.0, -0.1)}
_BEND = {("working", "input-required"): -0.25, ("input-required", "working"): -0.25,
         ("working", "auth-required"): 0.25, ("auth-required", "working"): 0.25,
         ("submitted", "completed"): -0.32, ("submitted", "failed"): -0.2,
         ("submitted", "canceled"): 0.2, ("submitted", "rejected"): 0.32,
         ("input-required", "failed"): 0.0, ("input-required", "canceled"): 0.12,
         ("auth-required", "failed"): -0.12, ("auth-required", "canceled"): 0.0}


def state_diagram(table: Mapping[str, Mapping[str, str]] = TRANSITIONS, *,
                  highlight: Iterable[object] = ()) -> CourseFigure:
    """Draw the lifecycle from ``table``: one box per state, one arrow per event.

    Args:
        table: ``{state: {event: next_state}}`` (default :data:`TRANSITIONS`).
        highlight: a path of observed states (any spelling) to draw in colour, e.g. the
            states a real task went through.

    Returns:
        A :class:`~course_lib.diagrams.CourseFigure` whose text fallback is
        :func:`transitions_text` (plus the highlighted path, if any).
    """
    path = [state_of(s) for s in highlight]
    used = set(zip(path, path[1:]))
    text = transitions_text(table) + (f"\npath: {' -> '.join(path)}" if path else "")
    fig = figure(10.0, 5.2, text=text)
    ax = fig.add_axes((0.0, 0.0, 1.0, 0.93))
    terminal = {s for s, moves in table.items() if not moves}
    for state, (x, y) in _LAYOUT.items():
        on_path = state in path
        ax.text(x, y, state, ha="center", va="center", fontsize=10, weight="bold" if on_path else "normal",
                bbox={"boxstyle": "round,pad=0.45", "fc": "#fde7ef" if on_path else "#f3f3f3",
                      "ec": "#c2185b" if on_path else "#888888", "lw": 2.4 if state in terminal else 1.0},
                zorder=3)
    for state, moves in table.items():
        for event, target in moves.items():
            hot = (state, target) in used
            colour, width = ("#c2185b", 2.0) if hot else ("#8a8a8a", 0.9)
            (x1, y1), (x2, y2) = _LAYOUT[state], _LAYOUT[target]
            if state == target:  # the progress self-loop, drawn above the box
                ax.annotate("", xy=(x1 + 0.32, y1 + 0.2), xytext=(x1 + 0.02, y1 + 0.2),
                            arrowprops={"arrowstyle": "-|>", "color": colour, "lw": width,
                                        "connectionstyle": "arc3,rad=-1.6"})
                ax.text(x1 + 0.17, y1 + 0.62, event, ha="center", va="bottom", fontsize=7, color=colour)
                continue
            rad = _BEND.get((state, target), 0.0)
            ax.annotate("", xy=(x2, y2), xytext=(x1, y1), zorder=2,
                        arrowprops={"arrowstyle": "-|>", "color": colour, "lw": width, "shrinkA": 20,
                                    "shrinkB": 20, "connectionstyle": f"arc3,rad={rad}"})
            # the middle of the quadratic Bezier matplotlib draws for arc3 (equal aspect)
            mx, my = (x1 + x2) / 2 + rad * (y2 - y1) / 2, (y1 + y2) / 2 - rad * (x2 - x1) / 2
            ax.text(mx, my, event, ha="center", va="center", fontsize=7, color=colour, zorder=4,
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.85})
    ax.set_xlim(-0.9, 6.9)
    ax.set_ylim(-1.0, 3.7)
    ax.set_aspect("equal")
    ax.axis("off")
    fig.suptitle("A2A task lifecycle (thick border: terminal)" + (" · coloured: this task's path" if path else ""),
                 fontsize=11)
    return fig


__all__ = ["INITIAL", "INTERRUPTED", "TERMINAL", "TRANSITIONS", "InvalidTransition", "check_path",
           "event_between", "next_state", "state_diagram", "state_of", "transitions_text", "wire_name"]
