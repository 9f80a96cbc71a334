"""Tool orchestration: serial, parallel and conditional calls, and a small dependency graph.

Seed 001's mind map ends with 工具编排 (tool orchestration): 串行调用 (serial: the output
of one call feeds the next), 并行调用 (parallel: independent calls at the same time) and
条件调用 (conditional: which call comes next depends on a result). Real plans mix the three,
which is a dependency graph: :class:`TaskGraph` runs every call as soon as what it needs
is ready, skips the branches whose condition is false, and records each call as a span in
a :class:`~course_lib.tracing.Trace`, so :meth:`Trace.timeline` shows what ran when.

For the model's own parallel ``tool_calls`` (several calls in one assistant message),
:func:`arun_tool_calls` executes them one after another or concurrently with
``asyncio.gather`` (through a :class:`~course_lib.tool_registry.ToolRegistry` or a dict of
functions); :func:`speedup` compares the two traces.

Deliberate shortcuts: concurrency is ``asyncio`` in one process (sync handlers go to
threads): right for I/O-bound tools (HTTP APIs, databases), not for CPU-bound ones; no
limit on how many calls run at once (add an ``asyncio.Semaphore`` for rate-limited APIs).
Taught in lesson 06.
"""
from __future__ import annotations

import asyncio
import graphlib
import inspect
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from .diagrams import figure
from .function_calling import ToolArgumentsError, as_dict, parse_arguments, tool_result_content
from .i18n import _
from .tracing import Trace

if TYPE_CHECKING:  # matplotlib is imported on the first figure, not with this module
    from .course_figure import CourseFigure

__all__ = ["GraphRun", "Node", "TaskGraph", "arun_tool_calls", "busy_time", "call_label", "run_parallel",
           "run_serial", "speedup", "wall_time"]

Call = tuple[str, Callable[..., Any], Mapping[str, Any]]  # (label, function, keyword arguments)


def call_label(name: str, arguments: Mapping[str, Any]) -> str:
    """``get_weather(Tokyo)``: a short label for a call (first argument values only)."""
    values = ", ".join(str(v) for v in list(arguments.values())[:2])
    return f"{name}({values})"


async def _invoke(fn: Callable[..., Any], arguments: Mapping[str, Any]) -> Any:
    """Await an async function; run a sync one in a worker thread (so it cannot block the loop)."""
    if inspect.iscoroutinefunction(fn):
        return await fn(**arguments)
    value = await asyncio.to_thread(fn, **arguments)
    return await value if inspect.isawaitable(value) else value


async def _traced(trace: Trace | None, lane: str, fn: Callable[..., Any], arguments: Mapping[str, Any],
                  label: str | None = None) -> Any:
    if trace is None:
        return await _invoke(fn, arguments)
    label = label or call_label(getattr(fn, "__name__", lane), arguments)
    with trace.span(lane, label, layer="tool", payload=dict(arguments)) as event:
        try:
            return await _invoke(fn, arguments)
        except BaseException as e:
            event.kind, event.label = "error", f"{label} ✗ {type(e).__name__}"
            raise


async def run_serial(calls: Iterable[Call], *, trace: Trace | None = None) -> list[Any]:
    """Run ``calls`` one after another; returns their results in order (the first error is raised).

    Each call is ``(lane, function, arguments)``; the lane names its row in ``trace``.
    Taught in lesson 06.
    """
    return [await _traced(trace, lane, fn, args) for lane, fn, args in calls]


async def run_parallel(calls: Iterable[Call], *, trace: Trace | None = None,
                       return_exceptions: bool = False) -> list[Any]:
    """Run ``calls`` concurrently with ``asyncio.gather``; results come back in the order of ``calls``.

    Args:
        calls: ``(lane, function, arguments)`` triples (independent of each other!).
        trace: where each call is recorded as a span on its own lane.
        return_exceptions: put exceptions in the result list instead of raising the first.

    Taught in lesson 06.
    """
    return list(await asyncio.gather(*(_traced(trace, lane, fn, args) for lane, fn, args in calls),
                                     return_exceptions=return_exceptions))


# ---------------------------------------------------------------------------------------- the model's tool_calls
def _tool_message(call_id: str, content: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


async def _one_call(index: int, call: dict, tools: Any, trace: Trace | None) -> dict:
    call_id, fn_part = call["id"], call["function"]
    name = fn_part.get("name", "")
    try:
        args = parse_arguments(fn_part.get("arguments"))
    except ToolArgumentsError as e:
        return _tool_message(call_id, json.dumps({"error": str(e), "tool": name}))
    lane, label = f"call {index + 1}", call_label(name, args)
    if hasattr(tools, "arun"):  # a ToolRegistry: validation, timeouts, hooks, errors as messages
        with trace.span(lane, label, layer="tool", payload=call) if trace is not None else _nullcontext():
            return (await tools.arun(call)).message()
    if name not in tools:
        return _tool_message(call_id, json.dumps({"error": f"unknown tool {name!r}", "tool": name}))
    try:
        result = await _traced(trace, lane, tools[name], args, label)
    except Exception as e:  # a failing tool is reported to the model, not raised
        return _tool_message(call_id, json.dumps({"error": f"{type(e).__name__}: {e}", "tool": name}))
    return _tool_message(call_id, tool_result_content(result))


class _nullcontext:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


async def arun_tool_calls(message: Any, tools: Any, *, parallel: bool = True,
                          trace: Trace | None = None) -> list[dict]:
    """Execute the ``tool_calls`` of one assistant message; one ``tool`` message per call, in call order.

    The async twin of lesson 01's :func:`course_lib.function_calling.run_tool_calls`.

    Args:
        message: the assistant message (SDK object or dict) holding ``tool_calls``.
        tools: a :class:`~course_lib.tool_registry.ToolRegistry`, or ``{name: function}`` (sync or async).
        parallel: ``True``: all calls at once (``asyncio.gather``); ``False``: one after another.
        trace: each call becomes a span on its own lane (``call 1``, ``call 2``...), labelled
            with the call (``get_weather(Tokyo)``).

    Returns:
        ``[{"role": "tool", "tool_call_id", "content"}, ...]`` in the order of the calls, whatever
        order they finished in (the ``tool_call_id`` ties each result to its call anyway).

    Errors of single calls become tool messages with ``"error"``; nothing is raised for them.
    Taught in lesson 06.
    """
    calls = [as_dict(c) for c in (as_dict(message).get("tool_calls") or [])]
    if parallel:
        return list(await asyncio.gather(*(_one_call(i, c, tools, trace) for i, c in enumerate(calls))))
    return [await _one_call(i, c, tools, trace) for i, c in enumerate(calls)]


def wall_time(trace: Trace) -> float:
    """Seconds from the first span's start to the last span's end (0 for no spans)."""
    spans = [e for e in trace.events if e.end is not None]
    return max(e.end for e in spans) - min(e.start for e in spans) if spans else 0.0


def busy_time(trace: Trace) -> float:
    """The sum of all span durations, seconds: what a serial run would take at least."""
    return sum(e.duration or 0.0 for e in trace.events if e.end is not None)


def speedup(serial: Trace, parallel: Trace) -> float:
    """How many times faster ``parallel`` finished than ``serial`` (ratio of :func:`wall_time`)."""
    return wall_time(serial) / max(wall_time(parallel), 1e-9)


# ---------------------------------------------------------------------------------------- the dependency graph
Args = Mapping[str, Any] | Callable[[dict[str, Any]], Mapping[str, Any]]


@dataclass
class Node:
    """One call of a :class:`TaskGraph`.

    Attributes:
        name: unique in the graph; results are stored under it.
        fn: the tool (sync or async function).
        args: keyword arguments, or a function of the results so far returning them (serial:
            the output of one call feeds the next).
        after: names of the nodes that must finish first.
        when: a condition on the results so far; False skips the node (conditional call).
    """

    name: str
    fn: Callable[..., Any]
    args: Args = field(default_factory=dict)
    after: tuple[str, ...] = ()
    when: Callable[[dict[str, Any]], bool] | None = None

    def __repr__(self) -> str:
        deps = f" after {', '.join(self.after)}" if self.after else ""
        cond = " (conditional)" if self.when else ""
        return f"Node({self.name}{deps}{cond})"


@dataclass
class GraphRun:
    """The outcome of :meth:`TaskGraph.run`.

    Attributes:
        results: ``{node name: result}`` for every node that ran and succeeded.
        skipped: ``{node name: reason}`` (condition false, or a dependency skipped or failed).
        failed: ``{node name: exception}``.
        order: node names in the order they *started*.
        trace: the spans, one lane per node.
    """

    results: dict[str, Any]
    skipped: dict[str, str]
    failed: dict[str, BaseException]
    order: list[str]
    trace: Trace

    def text(self) -> str:
        """What ran, what was skipped and why, what failed: one line each, in the learner's language."""
        lines = [_("ran:     {names}").format(names=", ".join(self.order))]
        lines += [_("skipped: {name} ({reason})").format(name=n, reason=why) for n, why in self.skipped.items()]
        lines += [_("failed:  {name} ({error})").format(name=n, error=f"{type(e).__name__}: {e}")
                  for n, e in self.failed.items()]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"GraphRun({len(self.results)} results, {len(self.skipped)} skipped, {len(self.failed)} failed)"


class TaskGraph:
    """Calls with dependencies and conditions, each run as soon as it can be.

    Example:
        >>> async def add(a, b): return a + b
        >>> g = TaskGraph("demo")
        >>> _ = g.add("x", add, {"a": 1, "b": 2}).add("y", add, {"a": 10, "b": 20})
        >>> _ = g.add("total", add, lambda r: {"a": r["x"], "b": r["y"]}, after=["x", "y"])
        >>> g.levels()
        [['x', 'y'], ['total']]
        >>> asyncio.run(g.run()).results["total"]
        33

    Taught in lesson 06.
    """

    def __init__(self, name: str = "plan") -> None:
        self.name = name
        self.nodes: dict[str, Node] = {}

    def add(self, name: str, fn: Callable[..., Any], args: Args | None = None, *, after: Sequence[str] = (),
            when: Callable[[dict[str, Any]], bool] | None = None) -> "TaskGraph":
        """Add a node (see :class:`Node`); returns the graph, so calls chain.

        Raises:
            ValueError: a duplicate name, or a dependency that is not (yet) in the graph.
        """
        if name in self.nodes:
            raise ValueError(f"the graph already has a node named {name!r}")
        missing = [d for d in after if d not in self.nodes]
        if missing:
            raise ValueError(f"{name!r} depends on {missing}, which are not in the graph yet: add them first")
        self.nodes[name] = Node(name, fn, args or {}, tuple(after), when)
        return self

    def levels(self) -> list[list[str]]:
        """Nodes grouped by depth: everything in one level can run at the same time."""
        sorter = graphlib.TopologicalSorter({n.name: set(n.after) for n in self.nodes.values()})
        sorter.prepare()
        levels = []
        while sorter.is_active():
            ready = sorted(sorter.get_ready(), key=list(self.nodes).index)
            levels.append(ready)
            sorter.done(*ready)
        return levels

    async def run(self, *, trace: Trace | None = None) -> GraphRun:
        """Run the graph: each node starts when all of its ``after`` nodes are done.

        A failing node does not stop the others; the nodes that need it are skipped.
        """
        trace = trace if trace is not None else Trace(self.name)
        results: dict[str, Any] = {}
        skipped: dict[str, str] = {}
        failed: dict[str, BaseException] = {}
        order: list[str] = []
        tasks: dict[str, asyncio.Task] = {}

        async def run_node(node: Node) -> None:
            if node.after:
                await asyncio.gather(*(tasks[d] for d in node.after))
            blocked = [d for d in node.after if d not in results]
            if blocked:
                skipped[node.name] = _("needs {names}").format(names=", ".join(blocked))
                return
            if node.when is not None and not node.when(results):
                skipped[node.name] = _("condition false")
                trace.add(node.name, node.name, _("{name}: skipped ({reason})").format(
                    name=node.name, reason=skipped[node.name]), kind="notification", layer="tool")
                return
            args = node.args(results) if callable(node.args) else node.args
            order.append(node.name)
            try:
                results[node.name] = await _traced(trace, node.name, node.fn, args)
            except Exception as e:  # recorded; dependants are skipped
                failed[node.name] = e

        for node in self.nodes.values():  # insertion order is a topological order (add() checks)
            tasks[node.name] = asyncio.create_task(run_node(node))
        await asyncio.gather(*tasks.values())
        return GraphRun(results, skipped, failed, order, trace)

    def _node_text(self, name: str) -> str:
        """A node in the diagram's text version: ``indoor (after weather) [if ...]``, in the learner's language."""
        node = self.nodes[name]
        text = _("{node} (after {names})").format(node=name, names=", ".join(node.after)) if node.after else name
        return _("{node} [if ...]").format(node=text) if node.when else text

    def diagram(self, *, title: str | None = None) -> CourseFigure:
        """The graph drawn by levels, left to right: arrows are dependencies, dashed boxes conditions.

        Boxes are as wide as their names need; arrows run from a box's right edge to its dependant's
        left edge; a legend says what an arrow and a dashed box mean.
        """
        from matplotlib.lines import Line2D
        from matplotlib.patches import FancyArrowPatch, Patch

        from .diagrams import FONT, FONT_SMALL, FONT_TITLE, GREY, INK, MAX_WIDTH, text_width, wrap_to_width

        levels = self.levels()
        text = "\n".join(_("level {n}: {nodes}").format(n=i + 1, nodes=", ".join(self._node_text(n) for n in level))
                         for i, level in enumerate(levels))
        half = {n: text_width(n, FONT) / 2 + 0.12 for n in self.nodes}
        col = [max(2 * half[n] for n in level) for level in levels]
        gap = 0.9
        conditional = any(n.when for n in self.nodes.values())
        after_label, if_label = _("runs after"), _("runs only if its condition holds")
        legend_w = text_width(after_label, FONT_SMALL) + 1.2 + (
            text_width(if_label, FONT_SMALL) + 1.0 if conditional else 0.0)
        width = min(MAX_WIDTH, max(0.4 + sum(col) + gap * (len(levels) - 1), legend_w))
        tallest = max(len(level) for level in levels)
        row = 0.62
        legend_h, title_h = 0.5, 0.55
        height = title_h + row * tallest + 0.2 + legend_h
        fig = figure(width, height, text=text)
        ax = fig.add_axes((0, legend_h / height, 1, (row * tallest + 0.2) / height))
        ax.set_xlim(0, width)
        ax.set_ylim(-(row * tallest) / 2 - 0.1, (row * tallest) / 2 + 0.1)
        ax.axis("off")
        xs, x = [], (width - (sum(col) + gap * (len(levels) - 1))) / 2
        for w in col:
            xs.append(x + w / 2)
            x += w + gap
        pos = {n: (xs[i], -(j - (len(level) - 1) / 2) * row) for i, level in enumerate(levels)
               for j, n in enumerate(level)}
        for node in self.nodes.values():
            x, y = pos[node.name]
            for dep in node.after:
                dx, dy = pos[dep]
                ax.add_patch(FancyArrowPatch((dx + half[dep], dy), (x - half[node.name], y), arrowstyle="-|>",
                                             mutation_scale=11, color=GREY, lw=1.1, shrinkA=3, shrinkB=3,
                                             label="runs after"))
            ax.text(x, y, node.name, ha="center", va="center", fontsize=FONT, color=INK,
                    bbox={"boxstyle": "round,pad=0.3", "fc": "#FFF1B8" if node.when else "#DCEAF7", "ec": GREY,
                          "ls": "--" if node.when else "-", "lw": 1.0})
        handles = [Line2D([], [], color=GREY, lw=1.1, marker=">", markevery=[1], label=after_label)]
        if any(n.when for n in self.nodes.values()):
            handles.append(Patch(fc="#FFF1B8", ec=GREY, ls="--", label=if_label))
        fig.legend(handles=handles, loc="lower center", ncol=len(handles), frameon=False, fontsize=FONT_SMALL,
                   bbox_to_anchor=(0.5, 0.02 / height))
        heading = title or _("{name}: {calls} calls in {levels} levels").format(
            name=self.name, calls=len(self.nodes), levels=len(levels))
        fig.suptitle("\n".join(wrap_to_width(heading, width - 0.3, FONT_TITLE, max_lines=2)), fontsize=FONT_TITLE,
                     y=1 - 0.08 / height, va="top")
        return fig

    def __repr__(self) -> str:
        return f"TaskGraph({self.name!r}, {len(self.nodes)} nodes, levels={self.levels()})"


#: The name this function had before it was renamed to match the ``arun`` convention of the registry
#: (and to stop clashing with the *sync* :func:`course_lib.function_calling.run_tool_calls`).
run_tool_calls = arun_tool_calls
