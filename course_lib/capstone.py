"""The capstone: one orchestrator agent on every layer of the course (seed 000 §4.3 and §5).

Seed 000 §4.3 draws the whole stack: an orchestrator (Agent A) that talks **across** to an
expert agent (Agent B) over A2A and **down** to two MCP servers (a database and a file
system), with the model above it speaking function calling. :class:`Capstone` assembles that
stack from the course's own pieces, nothing re-built:

* the **model**: :func:`~course_lib.llm_client.get_client` (the offline mock, or a real
  endpoint) in the agent loop of lesson 03 (:class:`~course_lib.agent.Agent`);
* the **registry** (lesson 03) holding every tool, whatever its origin: built-in functions
  (toolset ``builtin``: the weather of lesson 01), the tools of two MCP servers bridged in by
  :class:`~course_lib.mcp_bridge.MCPToolset` (lesson 10: the project manager on SQLite, and
  :func:`wiki_files_server`, the company wiki as a folder of files), and one tool per skill of
  each A2A agent (lesson 11's finance database agent, served on 127.0.0.1), which delegates the
  task with :class:`~course_lib.a2a_agents.Orchestrator`;
* **resilience** (lesson 04) on every handler, composed by :func:`~course_lib.resilience.harden`:
  a timeout per attempt, retries with backoff and jitter for idempotent tools only, one circuit
  breaker per server or agent; :class:`~course_lib.resilience.FlakyTool` innermost, so a lesson
  can inject a fault into any tool (:meth:`Capstone.inject_fault`);
* **security** (lesson 05) by :func:`~course_lib.security.install_guards`: writes need approval
  (an unattended :class:`~course_lib.security.ApprovalPolicy` approves new tasks and notes, and
  nothing else), what the wiki returns is marked as untrusted data, every refusal is audited; the
  file server itself confines paths with :class:`~course_lib.security.PathPolicy`;
* **one trace** (:class:`~course_lib.tracing.Trace`) for everything: the agent's model calls and
  tool calls, every MCP JSON-RPC message (recorded on the wire by
  :func:`~course_lib.mcp_trace.traced_transport`), every A2A request and stream event (recorded by
  the orchestrator's tracing transport), retries, approvals and refusals.
  :meth:`Capstone.run` returns a :class:`CapstoneRun` whose ``trace`` is that run's slice.

Deliberate shortcuts: the MCP servers run in this process (in-memory transport: real JSON-RPC
messages, no socket), because lessons 08-10 already showed the remote transports; the finance
agent runs on a loopback port because A2A is HTTP. One process, one user, no authentication.
Taught in lesson 12.
"""
# No `from __future__ import annotations`: the MCP SDK reads the annotations of the file server's
# tools at run time, and those tools are local functions whose types string annotations could not find.
import dataclasses
import posixpath
import random
import re
import shutil
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, Iterator, Literal, Mapping, Sequence

from .diagrams import figure
from .i18n import N_, _
from .text_table import pad
from .tracing import LAYER_COLOURS, Event, Trace

if TYPE_CHECKING:  # matplotlib is imported on the first figure, not with this module
    from .course_figure import CourseFigure

#: What the orchestrator is told (the mock ignores it; a real model needs it).
SYSTEM_PROMPT = (
    "You are the company's orchestrator agent. Use the tools: ask the expert agents (tools named ask_...) for "
    "what they know, use the project manager for tasks and the wiki files for notes. When a step needs the result "
    "of another, wait for that result and use it. Never delete anything unless the user insists, and report "
    "refusals honestly. ")

#: The capstone's running example: one request that needs every layer (English; :func:`board_request` gives it in
#: the learner's language, which the mock reads too).
BOARD_REQUEST = N_("Get the company's 2024 revenue from the finance agent, then save a summary as a note in "
                   "notes/board-2024.md, then create a high priority task 'Present the 2024 revenue to the board' "
                   "with Ada as assignee, and check the weather in Shanghai.")


def board_request(lang: str | None = None) -> str:
    """The capstone's board request in ``lang`` (default: the learner's language, :func:`course_lib.i18n.language`):
    :data:`BOARD_REQUEST` in English, its translation in Chinese (``translations/zh/strings/course_lib.po``), so
    the Chinese lesson sends a Chinese request and the mock answers in Chinese.

    Example:
        >>> board_request("en") == BOARD_REQUEST, board_request("zh").startswith("从财务 Agent 获取公司 2024 年的营收")
        (True, True)
    """
    from .i18n import gettext

    return gettext(BOARD_REQUEST, lang)

LAYER_NAMES = {"llm": "function calling (LLM)", "tool": "registry (tools)", "mcp": "MCP", "a2a": "A2A",
               "app": "application"}


# =========================================================================== the file/wiki MCP server
def wiki_files_server(root: str | Path) -> Any:
    """The company wiki as a folder of Markdown files, plus a notes folder: seed 000 §4.3's "MCP Svr2 (file system)".

    ``root/wiki/<page id>.md`` holds the pages of :data:`~course_lib.examples.WIKI_PAGES` (written
    again on every call, so the folder is always the same); ``root/notes/`` is where agents may
    write. Tools (each with MCP annotations, which the capstone's host policy reads):

    * ``search_wiki(query, space?, limit?)``: search the pages (read-only);
    * ``list_files(folder)``, ``read_file(path)``: read-only, anywhere under ``root``;
    * ``save_note(path, content)``: create or replace a Markdown file under ``notes/`` (idempotent);
    * ``delete_file(path)``: delete a file or folder (destructive; only under ``notes/``).

    The server enforces its own limits with :class:`~course_lib.security.PathPolicy` (lesson 05):
    a path outside ``root`` (or a write outside ``notes/``) is refused with an ``isError`` result
    naming the violation, whatever the client decided.

    Args:
        root: the folder (created if missing).

    Returns:
        A :class:`~course_lib.mcp_servers.CourseMCPServer` named ``wiki-files``; ``server.root`` is the folder.

    Taught in lesson 12.
    """
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.types import ToolAnnotations
    from pydantic import Field

    from .examples import WIKI_PAGES, WIKI_SPACES, search_wiki
    from .mcp_servers import CourseMCPServer, WikiHit
    from .security import PathPolicy, SecurityViolation

    root = Path(root)
    (root / "wiki").mkdir(parents=True, exist_ok=True)
    (root / "notes").mkdir(parents=True, exist_ok=True)
    for page in WIKI_PAGES:
        (root / "wiki" / f"{page['id']}.md").write_text(
            f"# {page['title']}\n\n_space: {page['space']}_\n\n{page['text']}\n", encoding="utf-8")
    policy = PathPolicy(read=(root,), write=(root / "notes",))
    server = CourseMCPServer("wiki-files", instructions="The company wiki as files: search and read pages, "
                                                        "write notes under notes/.")
    server.root = root.resolve()  # type: ignore[attr-defined]
    read_only = ToolAnnotations(readOnlyHint=True, idempotentHint=True)

    def resolve(path: str, mode: str) -> Path:
        try:
            return policy.resolve(path, mode, base=server.root)
        except SecurityViolation as v:  # the client sees the violation's name and reason
            raise ToolError(f"refused ({v.violation}): {v}") from None

    def relative(path: Path) -> str:
        return path.relative_to(server.root).as_posix() or "."

    @server.tool(name="search_wiki", annotations=read_only)
    def search_wiki_tool(query: Annotated[str, Field(min_length=1, description="What to look for")],
                         space: Literal[WIKI_SPACES] | None = None,  # type: ignore[valid-type]
                         limit: Annotated[int, Field(ge=1, le=20)] = 5) -> list[WikiHit]:
        """Search the company wiki pages (engineering, product, hr and finance) for processes, policies and plans;
        returns page ids, titles and snippets, best first (read them with read_file('wiki/<id>.md'))."""
        return [WikiHit(**h) for h in search_wiki(query, space, limit)]

    @server.tool(annotations=read_only)
    def list_files(folder: Annotated[str, Field(description="A folder, e.g. 'wiki' or 'notes'")] = ".") -> list[str]:
        """List the files of a wiki folder (paths relative to the wiki root)."""
        real = resolve(folder, "read")
        if not real.is_dir():
            raise ToolError(f"{folder!r} is not a folder")
        return sorted(relative(p) for p in real.rglob("*") if p.is_file())

    @server.tool(annotations=read_only)
    def read_file(path: Annotated[str, Field(description="A file, e.g. 'wiki/fin-1.md' or 'notes/board.md'")]) -> str:
        """Read a Markdown file of the wiki (a page under wiki/ or a note under notes/)."""
        real = resolve(path, "read")
        if not real.is_file():
            raise ToolError(f"no file {path!r}; list_files shows what there is")
        return real.read_text(encoding="utf-8")

    @server.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True))
    def save_note(path: Annotated[str, Field(description="Where, under notes/, e.g. 'notes/board-2024.md'")],
                  content: Annotated[str, Field(min_length=1, description="The note's Markdown text")]) -> dict:
        """Save a Markdown note in the wiki's notes folder (creates the file or replaces it)."""
        real = resolve(path, "write")
        real.parent.mkdir(parents=True, exist_ok=True)
        real.write_text(content, encoding="utf-8")
        return {"saved": relative(real), "bytes": len(content.encode("utf-8"))}

    @server.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True))
    def delete_file(path: Annotated[str, Field(description="A file or folder, e.g. 'notes/old.md'")]) -> dict:
        """Delete a file or a whole folder of the wiki."""
        real = resolve(path, "write")
        if not real.exists():
            raise ToolError(f"no file or folder {path!r}")
        if real.is_dir():
            shutil.rmtree(real)
        else:
            real.unlink()
        return {"deleted": relative(real)}

    return server


# =========================================================================== A2A skills as tools
def skill_tool_name(agent: str, skill_id: str) -> str:
    """The registry name of the tool that delegates to ``skill_id`` of ``agent``.

    Example:
        >>> skill_tool_name("Finance DB agent", "finance_report")
        'ask_finance_db_agent_finance_report'
    """
    slug = re.sub(r"[^a-z0-9]+", "_", f"ask {agent} {skill_id}".lower()).strip("_")
    return slug[:64]


def skill_tool_schema(name: str, agent: str, skill: Any) -> dict:
    """A tool definition for one A2A skill, written from the Agent Card (its description and examples).

    The model sees the skill as a function with one argument, ``message``: the task in plain
    words, which becomes the A2A Message's text part.
    """
    examples = "; ".join(f"'{e}'" for e in list(skill.examples)[:3])
    description = (f"Ask the {agent} (an A2A agent) to do this: {skill.name}. {skill.description}"
                   + (f" Examples: {examples}." if examples else ""))
    return {"name": name, "description": description,
            "parameters": {"type": "object", "properties": {"message": {
                "type": "string", "minLength": 1,
                "description": "The task for the agent, in plain words (it answers in the same language)"}},
                "required": ["message"], "additionalProperties": False}}


def skill_handler(orchestrator: Any, ref: Any, *, name: str, log: list | None = None,
                  timeout: float = 60.0) -> Callable[..., str]:
    """A sync registry handler that delegates ``message`` to the skill ``ref`` and returns the agent's answer.

    Args:
        orchestrator: the :class:`~course_lib.a2a_agents.Orchestrator` that discovered the agent.
        ref: the :class:`~course_lib.a2a_agents.SkillRef` to use.
        name: the tool's name (the handler's ``__name__``).
        log: a list receiving every :class:`~course_lib.a2a_agents.Delegation`.
        timeout: seconds for the whole delegation.

    Returns:
        ``handler(message) -> str``: the artifacts' text of a ``completed`` task, or the agent's
        question for an ``input-required`` one (the model then asks the user).

    Raises (from the handler):
        ToolError: the task ended ``failed``, ``rejected`` or ``canceled`` (its reason is the message).
    """
    from .a2a_states import INTERRUPTED
    from .tool_registry import ToolError, run_sync

    def handler(message: str) -> str:
        delegation = run_sync(orchestrator.delegate(message, skill=ref), timeout)
        if log is not None:
            log.append(delegation)
        if delegation.state == "completed":
            return delegation.text
        if delegation.state in INTERRUPTED:
            return f"The {ref.agent} asks: {delegation.fold.status_text}"
        raise ToolError(f"the {ref.agent} ended the task as {delegation.state}: {delegation.fold.status_text}",
                        agent=ref.agent, state=delegation.state)

    handler.__name__ = handler.__qualname__ = name
    handler.__doc__ = f"Delegate a task to {ref.agent} / {ref.id} over A2A."
    return handler


# =========================================================================== the policies
@dataclass(frozen=True)
class ResiliencePolicy:
    """Lesson 04's settings for every capstone tool.

    Attributes:
        timeout: seconds one attempt of a tool call may take.
        backoff: retries of idempotent tools (attempts, delays in seconds, jitter).
        failure_threshold: consecutive failed calls that open a server's or agent's circuit.
        reset_timeout: seconds an open circuit waits before a trial call.
        seed: seeds the jitter, so a lesson prints the same waits every run.
    """

    timeout: float = 30.0
    backoff: Any = None
    failure_threshold: int = 3
    reset_timeout: float = 30.0
    seed: int = 12

    def backoff_or_default(self) -> Any:
        from .resilience import Backoff

        return self.backoff or Backoff(base=0.2, max_delay=1.0, max_attempts=3, jitter="full")

    def __repr__(self) -> str:
        b = self.backoff_or_default()
        return (f"ResiliencePolicy(timeout={self.timeout:g} s, retries={b.max_attempts - 1} (idempotent tools, "
                f"backoff {b.base:g}-{b.max_delay:g} s, {b.jitter} jitter), circuit opens after "
                f"{self.failure_threshold} failures for {self.reset_timeout:g} s)")


def approve_new_tasks(request: Any) -> bool:
    """Approval rule: creating a task is fine unattended (it only adds a row anyone can close)."""
    return request.tool == "create_task"


def approve_notes(request: Any) -> bool:
    """Approval rule: saving a note under ``notes/`` is fine unattended (the server checks the real path too).

    The path is normalised first: ``notes/../wiki/x.md`` is not under ``notes/`` (lesson 05's lesson
    about ``startswith`` on raw paths).
    """
    path = posixpath.normpath(str(request.arguments.get("path", "")))
    return request.tool == "save_note" and path.startswith("notes/") and not path.startswith("notes/..")


class TracedApprover:
    """An approver (``decide(request) -> Approval``) that records each decision in a trace.

    Wraps any approver of lesson 05 (:class:`~course_lib.security.ApprovalPolicy`,
    :class:`~course_lib.security.InteractiveApprover`); the trace gets a ``Tools -> Policy``
    question and a ``Policy -> Tools`` answer (an ``error`` arrow when refused), so a refusal is
    visible in the one picture of the run.
    """

    def __init__(self, inner: Any, trace: Trace, *, lane: str = "Tools") -> None:
        self.inner, self.trace, self.lane = inner, trace, lane
        self.decisions: list[tuple[Any, Any]] = []

    def decide(self, request: Any) -> Any:
        self.trace.add(self.lane, "Policy", _("approve {tool}?").format(tool=request.tool), layer="app",
                       payload={"tool": request.tool, "arguments": request.arguments, "reason": request.reason})
        approval = self.inner.decide(request)
        self.decisions.append((request, approval))
        verdict = _("approved by {by}: {reason}") if approval.approved else _("denied by {by}: {reason}")
        self.trace.add("Policy", self.lane, verdict.format(by=approval.by, reason=approval.reason),
                       kind="response" if approval.approved else "error", layer="app",
                       payload={"approved": approval.approved, "by": approval.by, "reason": approval.reason})
        return approval

    def __repr__(self) -> str:
        return f"TracedApprover({self.inner!r}, {len(self.decisions)} decisions)"


class _RetryNotes:
    """A stand-in trace for the retry loop of lesson 04: only what is news goes into the run's trace.

    ``retry_call`` opens a span per attempt, on a lane per attempt; a first attempt that succeeds
    is not news (it would add a span and a lane to every tool call), so it is dropped, while a
    failed attempt, each wait and each later attempt are recorded on the ``Tools`` lane, labelled
    with the tool's name.
    """

    def __init__(self, trace: Trace, lane: str = "Tools") -> None:
        self.trace, self.lane = trace, lane

    @staticmethod
    def _tool(lane: str) -> str:
        return re.sub(r" try \d+$", "", lane)  # lesson 04 draws each attempt on its own lane: "<tool> try 2"

    @contextmanager
    def span(self, lane: str, label: str, *, layer: str = "", payload: Any = None) -> Iterator[Event]:
        with self.trace.span(self.lane, f"{self._tool(lane)}: {label}", layer=layer or "tool",
                             payload=payload) as event:
            yield event
        if label == _("attempt {n}").format(n=1):  # reached only when it succeeded (a failure raises through)
            self.trace.events.remove(event)

    def add(self, src: str, dst: str, label: str, **kwargs: Any) -> Event:
        return self.trace.add(self.lane, self.lane, f"{self._tool(src)}: {label}", **kwargs)


# =========================================================================== one run
@dataclass
class ToolInfo:
    """Where a capstone tool comes from and how it is protected (one row of :meth:`Capstone.describe`)."""

    name: str
    layer: str  # "builtin", "mcp" or "a2a"
    source: str  # "builtin", the MCP server's name or the agent's name
    permission: str
    retried: bool
    needs_approval: bool
    untrusted: bool
    lane: str  # where its calls go in the trace

    def __repr__(self) -> str:
        return f"ToolInfo({self.name!r}, {self.layer}:{self.source})"


@dataclass
class CapstoneRun:
    """One request through the whole stack.

    Attributes:
        request: what the user asked.
        result: the agent's :class:`~course_lib.agent.AgentResult` (``answer``, ``steps``, ``messages``).
        trace: this run's events, every layer, in order (times from the run's start).
        tools: the capstone's :class:`ToolInfo` by name, when the run started.
        approvals: ``(ApprovalRequest, Approval)`` decided during the run.
        refusals: the audit entries added during the run (``{"tool", "violation", "message"}``).
        orchestrator: the orchestrator's lane name.
    """

    request: str
    result: Any
    trace: Trace
    tools: dict[str, ToolInfo]
    approvals: list[tuple[Any, Any]] = field(default_factory=list)
    refusals: list[dict] = field(default_factory=list)
    orchestrator: str = "Orchestrator"

    @property
    def answer(self) -> str:
        return self.result.answer

    @property
    def tool_calls(self) -> list[dict]:
        """Every tool call the model made, in order (``{"id", "name", "arguments"}``)."""
        return self.result.tool_calls

    def called(self, layer: str | None = None) -> list[str]:
        """Names of the tools called (of one ``layer``: ``builtin``, ``mcp``, ``a2a``), in order."""
        names = [c["name"] for c in self.tool_calls]
        return [n for n in names if layer is None or (n in self.tools and self.tools[n].layer == layer)]

    def layers(self) -> list[str]:
        """The trace layers this run touched, in order of first appearance (``app``, ``llm``, ``tool``, ``a2a``, ``mcp``)."""
        seen: list[str] = []
        for e in self.trace.events:
            if e.layer and e.layer not in seen:
                seen.append(e.layer)
        return seen

    def messages(self, layer: str) -> list[Event]:
        """The trace's messages (not spans) of ``layer``."""
        return [e for e in self.trace.events if e.layer == layer and e.src != e.dst]

    def retries(self) -> list[Event]:
        """The trace's retry notes: failed attempts, waits, later attempts.

        The resilience layer writes those labels in the learner's language (``attempt 1`` / ``第 1 次尝试``), so
        both the English and the current language's wording are recognised (:func:`_retry_label`).
        """
        return [e for e in self.trace.events if _retry_label().search(e.label)]

    def report(self) -> str:
        """What each layer did in this run, one paragraph per layer (the lesson prints it), in the learner's
        language; tool, server and agent names, task states and policy names stay as the trace has them."""
        r = self.result
        answer = self.answer or _("(none: {reason})").format(reason=r.stop_reason)
        lines = [_("request: {request}").format(request=self.request), _("answer:  {answer}").format(answer=answer), ""]
        model_calls = len(r.steps)
        rounds = [", ".join(c["name"] for c in s.tool_calls) for s in r.steps if s.tool_calls]
        lines.append(_row(_("Function calling"), (_("{n} model call; tool_calls per step: {rounds}") if model_calls == 1
                                                  else _("{n} model calls; tool_calls per step: {rounds}")).format(
            n=model_calls, rounds=" | ".join(rounds) or _("none"))))
        builtin = self.called("builtin")
        lines.append(_row(_("Built-in tools"), _("{tools} (Python functions in this process: no protocol)").format(
            tools=", ".join(builtin)) if builtin else _("none called")))
        by_server: dict[str, list[str]] = {}
        for e in (e for e in self.messages("mcp") if e.kind == "request"):
            by_server.setdefault(e.dst, []).append(e.label.split(" (id")[0])
        lines.append(_row("MCP", "; ".join(f"{s}: {', '.join(m)}" for s, m in by_server.items()) or _("no message")))
        lines.append(_row("A2A", self._a2a_summary()))
        retries = self.retries()
        lines.append(_row(_("Resilience"), "; ".join(e.label for e in retries) if retries else
                          _("no fault: every call succeeded at the first attempt")))
        asked = [(_("{tool} approved by {by}") if a.approved else _("{tool} denied by {by}")).format(tool=q.tool, by=a.by)
                 for q, a in self.approvals]
        refused = [f"{e['tool']} ({e['violation']})" for e in self.refusals]
        lines.append(_row(_("Security"), (_("approvals: {approvals}").format(approvals=", ".join(asked)) if asked
                                          else _("no approval needed"))
                          + (_("; REFUSED: {refused}").format(refused=", ".join(refused)) if refused
                             else _("; nothing refused"))))
        return "\n".join(lines)

    def _a2a_summary(self) -> str:
        """The A2A paragraph of :meth:`report`: the agents, how many messages, the task states in order."""
        a2a = self.messages("a2a")
        if not a2a:
            return _("no message")
        agents = sorted({e.dst for e in a2a if e.kind == "request"})
        states = [re.sub(r"^.*TASK_STATE_(\w+).*$", r"\1", e.label).lower().replace("_", "-")
                  for e in a2a if "TASK_STATE_" in e.label]
        return _("{agents}: {n} messages; task states {states}").format(
            agents=", ".join(agents), n=len(a2a), states=" → ".join(states))

    def lanes(self) -> list[str]:
        """The trace's lanes, left to right: the user, the orchestrator and its model, the tools, the
        policy, then the agents (A2A) and the servers (MCP) in order of first use."""
        first = ["User", self.orchestrator, "LLM", "Tools", "Policy"]
        present = self.trace.lanes
        a2a = [lane for lane in present if any(e.layer == "a2a" and lane in (e.src, e.dst) for e in self.trace.events)]
        head = [lane for lane in first if lane in present]
        rest = [lane for lane in present if lane not in head and lane not in a2a]
        return head + [lane for lane in a2a if lane not in head] + rest

    def diagram(self, *, title: str | None = None) -> "CourseFigure":
        """The run's trace as one sequence diagram, lanes ordered by :meth:`lanes`."""
        return self.trace.diagram(self.lanes(), title=title)

    def picture(self, *, title: str | None = None) -> "CourseFigure":
        """Seed 000 §4.3's picture of the stack, with this run's message counts on each link."""
        return stack_figure(self, title=title)

    def __repr__(self) -> str:
        return (f"CapstoneRun({self.result.stop_reason}, {len(self.result.steps)} model calls, "
                f"tools={self.called()}, layers={self.layers()}, refusals={len(self.refusals)})")


def _row(label: str, text: str) -> str:
    """One paragraph of :meth:`CapstoneRun.report`: the layer's name padded to 18 display columns, then ``text``."""
    return pad(label, 17) + " " + text


def _retry_label() -> "re.Pattern[str]":
    """``: attempt N`` or ``: wait S s`` (a retry note of the resilience layer's trace), in English or in the
    learner's language: the templates are the ones :mod:`course_lib.resilience` translates with ``_()``."""
    attempts = {"attempt {n}", _("attempt {n}")}
    waits = {"wait {seconds:.2f} s", _("wait {seconds:.2f} s")}
    forms = [re.escape(t).replace(re.escape("{n}"), r"\d+") for t in attempts]
    forms += [re.escape(t).replace(re.escape("{seconds:.2f}"), r"\d+(?:\.\d+)?") for t in waits]
    return re.compile(": (?:" + "|".join(forms) + ")")


def _rebased(events: Sequence[Event], name: str) -> Trace:
    """A trace of ``events`` (copies) with times counted from the first one."""
    t0 = events[0].start if events else 0.0
    copies = [dataclasses.replace(e, start=e.start - t0, end=None if e.end is None else e.end - t0) for e in events]
    return Trace(name, events=copies)


# =========================================================================== the assembled stack
class Capstone:
    """The orchestrator agent of seed 000 §4.3, assembled from the course's pieces.

    Args:
        workdir: where the databases, the wiki files and the notes live (default: a new
            temporary folder).
        client: the ``openai`` client (default :func:`~course_lib.llm_client.get_client`).
        resilience: the :class:`ResiliencePolicy` of every tool.
        approver: decides the calls that need approval (default: an unattended
            :class:`~course_lib.security.ApprovalPolicy` approving :func:`approve_new_tasks` and
            :func:`approve_notes`, refusing everything else).
        name: the orchestrator's lane in traces.
        max_steps: model calls per run.
        read_only: MCP tools the host knows to be read-only although their server does not say so
            (no ``readOnlyHint``); default: the project manager's ``list_tasks``. Anything else
            without the hint is treated as a write (needs approval), the safe assumption.
        trusted_servers: the MCP servers whose **annotations** the host believes (default: the
            two it runs itself, ``pm`` and ``wiki``). MCP's tools section: clients MUST treat
            annotations as untrusted unless they come from trusted servers; a server not named
            here gets no ``readOnlyHint`` shortcut (every tool needs approval, none is retried),
            whatever it declares. ``add_mcp_server(..., trusted=True)`` trusts one more.
        key: names this capstone's servers and connections (``<key>-finance-agent``...). Starting a
            capstone with the same key replaces the earlier one's (idempotent cells); two capstones
            running side by side need two keys.

    Use: ``cap = Capstone().start()``, ``run = cap.run(request)``, ``cap.close()`` (or ``with``).
    Starting again replaces the servers, toolsets and agent of an earlier capstone (idempotent cells).

    Taught in lesson 12.
    """

    def __init__(self, workdir: str | Path | None = None, *, client: Any = None,
                 resilience: ResiliencePolicy | None = None, approver: Any = None, name: str = "Orchestrator",
                 max_steps: int = 8, read_only: Sequence[str] = ("list_tasks",), key: str = "capstone",
                 trusted_servers: Sequence[str] = ("pm", "wiki")) -> None:
        from .security import ApprovalPolicy, AuditLog
        from .tool_registry import ToolRegistry

        self.workdir = Path(workdir) if workdir is not None else Path(tempfile.mkdtemp(prefix="course-capstone-"))
        self.client = client
        self.resilience = resilience or ResiliencePolicy()
        self.name = name
        self.max_steps = max_steps
        self.read_only = set(read_only)
        self.trusted_servers = set(trusted_servers)
        self.key = key
        self.trace = Trace("capstone")
        self.registry = ToolRegistry("capstone", env={})
        self.audit = AuditLog()
        self.policy = approver if approver is not None else ApprovalPolicy([approve_new_tasks, approve_notes])
        self.approver = TracedApprover(self.policy, self.trace)
        self.tools: dict[str, ToolInfo] = {}
        self.flaky: dict[str, Any] = {}
        self.breakers: dict[str, Any] = {}
        self.toolsets: dict[str, Any] = {}
        self.servers: dict[str, Any] = {}
        self.agents: dict[str, Any] = {}  # agent name -> LocalServer (or the URL's owner)
        self.delegations: list[Any] = []
        self.extensions: list[str] = []  # toolsets added after start (exercise 12)
        self.replaced: list[str] = []  # tool names an extension tried to take from another toolset
        self.orchestrator: Any = None
        self._rng = random.Random(self.resilience.seed)
        self._started = False
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ assembly
    def start(self) -> "Capstone":
        """Build the stack: built-in tools, two MCP servers, the finance agent, the policies. Returns self.

        Raises:
            ConnectionError: an MCP server could not be reached.
            course_lib.servers.ServerStartError: the finance agent could not start.
        """
        from .a2a_agents import FinanceAgentExecutor, finance_agent_card, start_agent
        from .examples import create_finance_db
        from .mcp_servers import project_manager_server
        from .security import install_guards

        if self._started:
            return self
        self.workdir.mkdir(parents=True, exist_ok=True)
        install_guards(self.registry, approver=self.approver, approval_for=("write", "execute"), untrusted=(),
                       audit=self.audit)
        self._add_builtins()
        self.add_mcp_server(project_manager_server(str(self.workdir / "tasks.db")), "pm", _core=True)
        self.add_mcp_server(wiki_files_server(self.workdir / "wiki-files"), "wiki", _core=True)
        database = create_finance_db(self.workdir / "finance.db")
        server = start_agent(f"{self.key}-finance-agent", finance_agent_card,
                             FinanceAgentExecutor(database, step_delay=0.0))
        self.add_agent(server.url, _server=server, _core=True)
        self._started = True
        return self

    def _add_builtins(self) -> None:
        from .examples import WEATHER_TOOL, get_weather

        self._register("get_weather", "builtin", WEATHER_TOOL, get_weather, layer="builtin", source="builtin",
                       lane="Tools", permission="read", idempotent=True, breaker_key="builtin")

    def _breaker(self, key: str) -> Any:
        from .resilience import CircuitBreaker

        if key not in self.breakers:
            self.breakers[key] = CircuitBreaker(key, failure_threshold=self.resilience.failure_threshold,
                                                reset_timeout=self.resilience.reset_timeout)
        return self.breakers[key]

    def _register(self, name: str, toolset: str, schema: Any, handler: Callable[..., Any], *, layer: str,
                  source: str, lane: str, permission: str, idempotent: bool, breaker_key: str,
                  meta: Mapping[str, Any] | None = None) -> None:
        """Wrap ``handler`` with the resilience policy (FlakyTool innermost) and register it."""
        from .resilience import FlakyTool, harden

        flaky = FlakyTool(handler, name=name)
        hardened = harden(flaky, name=name, timeout=self.resilience.timeout,
                          backoff=self.resilience.backoff_or_default(), idempotent=idempotent,
                          breaker=self._breaker(breaker_key), rng=self._rng, trace=_RetryNotes(self.trace))
        meta = dict(meta or {})
        self.registry.register(name, toolset, schema, hardened, permission=permission, idempotent=idempotent,
                               meta=meta, replace=True)
        self.flaky[name] = flaky
        self.tools[name] = ToolInfo(name, layer, source, permission, idempotent,
                                    permission in ("write", "execute") or bool(meta.get("needs_approval")),
                                    bool(meta.get("untrusted")), lane)

    def add_mcp_server(self, server: Any, name: str, *, prefix: str = "", trusted: bool | None = None,
                       _core: bool = False) -> list[str]:
        """Bridge an MCP server's tools into the registry (toolset ``mcp:<name>``), traced and protected.

        The connection is in-memory (real JSON-RPC, recorded on the wire into the capstone's trace,
        lane ``<name> server``). For a **trusted** server, each tool's MCP annotations decide the host
        policy: ``readOnlyHint`` → permission ``read`` and retries; otherwise ``write`` (needs approval),
        retried only with ``idempotentHint``; ``destructiveHint`` is shown in the approval reason. For any
        other server the annotations are ignored (a malicious server would mark a deleting tool
        read-only to skip the approval and be retried): every tool is a write that needs approval and
        is never retried. Wiki text (``search_wiki``, ``read_file``) is marked as untrusted data.

        Args:
            server: an ``MCPServer`` (e.g. a :class:`~course_lib.mcp_servers.CourseMCPServer`).
            name: a short name (``"calendar"``); the toolset is ``mcp:<name>``.
            prefix: put before each tool name (``"cal_"``) when a name is already taken.
            trusted: believe this server's annotations (default: ``name in trusted_servers``);
                say ``True`` only for a server you run or vetted (you wrote it, exercise 12).

        Returns:
            The registry names of the server's tools.

        Raises:
            ConnectionError: the server could not be reached.
            ValueError: a tool name is already used by another toolset (use ``prefix``).
        """
        from .mcp_bridge import MCPToolset
        from .mcp_trace import traced_transport
        from .tool_registry import ToolRegistry

        lane = f"{name} server"
        toolset = MCPToolset(traced_transport(server, self.trace, client="Tools", server_lane=lane),
                             f"{self.key}-{name}", prefix=prefix, call_timeout=self.resilience.timeout).start()
        clashes = [t.name for t in toolset.tools
                   if (prefix + t.name) in self.registry and self.registry.get(prefix + t.name).toolset != f"mcp:{name}"]
        if clashes:
            toolset.close()
            self.replaced.extend(clashes)
            raise ValueError(f"tool name{'s' * (len(clashes) > 1)} {', '.join(clashes)} already used by another "
                             f"toolset; add the server with a prefix, e.g. prefix='{name.replace('-', '_')}_'")
        self.toolsets[name] = toolset
        self.servers[name] = server
        if trusted is None:
            trusted = name in self.trusted_servers
        elif trusted:
            self.trusted_servers.add(name)
        staging = ToolRegistry("staging", env={})
        names = toolset.register_into(staging)  # the bridge maps schemas, annotations and handlers...
        for tool_name in names:  # ...then the capstone wraps each handler and decides its permission
            entry = staging.get(tool_name)
            declared = entry.meta.get("annotations", {})
            hints = declared if trusted else {}  # an untrusted server's annotations are only claims
            read_only = bool(hints.get("readOnlyHint")) or (trusted and entry.meta.get("mcp_name") in self.read_only)
            meta = dict(entry.meta)
            if hints.get("destructiveHint"):
                meta["approval_reason"] = _("{tool} is destructive (MCP destructiveHint): a human must agree").format(
                    tool=tool_name)
            elif not trusted:
                meta["approval_reason"] = _("{tool} comes from {server}, a server the host does not trust: its "
                                            "annotations {annotations} are ignored, so it needs approval").format(
                    tool=tool_name, server=repr(name), annotations=declared or "{}")
                meta["annotations_ignored"] = bool(declared)
            if entry.meta.get("mcp_name") in ("search_wiki", "read_file"):
                meta["untrusted"] = True  # text anyone could have written into the wiki
            self._register(tool_name, f"mcp:{name}", entry.schema, entry.handler, layer="mcp", source=name,
                           lane=lane, permission="read" if read_only else "write",
                           idempotent=read_only or bool(hints.get("idempotentHint")), breaker_key=f"mcp:{name}",
                           meta=meta)
        if not _core:
            self.extensions.append(f"mcp:{name}")
        return names

    def add_agent(self, url: str, *, _server: Any = None, _core: bool = False) -> list[str]:
        """Discover the A2A agent at ``url`` (its Agent Card) and register one tool per skill.

        Args:
            url: the agent's base URL, e.g. ``start_agent(...).url``.

        Returns:
            The registry names of its skills' tools (``ask_<agent>_<skill>``).

        Raises:
            a2a.client.AgentCardResolutionError: no valid Agent Card at ``url``.
        """
        from .a2a_agents import Orchestrator
        from .tool_registry import run_sync

        if self.orchestrator is None:  # its lane is "Tools": A2A leaves from the registry, like MCP
            self.orchestrator = Orchestrator("Tools", trace=self.trace)
        card = run_sync(self.orchestrator.discover(url), self.resilience.timeout)[0]
        self.agents[card.name] = _server or url
        names = []
        for ref in [r for r in self.orchestrator.skills() if r.url == url]:
            name = skill_tool_name(ref.agent, ref.id)
            self._register(name, f"a2a:{card.name}", skill_tool_schema(name, ref.agent, ref.skill),
                           skill_handler(self.orchestrator, ref, name=name, log=self.delegations,
                                         timeout=self.resilience.timeout),
                           layer="a2a", source=card.name, lane=card.name, permission="read", idempotent=True,
                           breaker_key=f"a2a:{card.name}", meta={"a2a_agent": card.name, "a2a_skill": ref.id})
            names.append(name)
        if not _core:
            self.extensions.append(f"a2a:{card.name}")
        return names

    # ------------------------------------------------------------------ running
    def agent(self) -> Any:
        """The lesson 03 :class:`~course_lib.agent.Agent` on this registry (a new one per run: it is cheap)."""
        from .agent import Agent
        from .llm_client import get_client
        from .security import SYSTEM_RULE

        if self.client is None:
            self.client = get_client()
        return Agent(self.client, self.registry, name=self.name, system=SYSTEM_PROMPT + SYSTEM_RULE,
                     max_steps=self.max_steps)

    def run(self, request: str, *, name: str | None = None) -> CapstoneRun:
        """Answer ``request`` with the whole stack; every event goes to the capstone's trace.

        Args:
            request: the user's message.
            name: the title of the run's trace (default: the request, shortened).

        Returns:
            A :class:`CapstoneRun` (answer, this run's trace, approvals and refusals).

        Raises:
            RuntimeError: :meth:`start` was not called.
        """
        if not self._started:
            raise RuntimeError("call start() first: cap = Capstone().start()")
        with self._lock:  # one run at a time: the run's trace is a slice of the shared one
            first_event, first_audit = len(self.trace.events), len(self.audit.entries)
            first_decision = len(self.approver.decisions)
            result = self.agent().run(request, trace=self.trace)
            events = self.trace.events[first_event:]
            title = name or (request if len(request) <= 60 else request[:59] + "…")
            return CapstoneRun(request, result, _rebased(events, title), dict(self.tools),
                               list(self.approver.decisions[first_decision:]), list(self.audit.entries[first_audit:]),
                               self.name)

    def inject_fault(self, tool: str, kind: str = "down", times: int | None = 1, **options: Any) -> Any:
        """Make ``tool`` fail on its next ``times`` calls (lesson 04's :class:`~course_lib.resilience.FlakyTool`).

        Args:
            tool: a registry name (``"ask_finance_db_agent_finance_report"``).
            kind: ``error``, ``down``, ``hang``, ``slow`` or ``lost_response``.
            times: how many calls (None: until :meth:`clear_faults`).

        Returns:
            The tool's :class:`~course_lib.resilience.FlakyTool`.

        Raises:
            KeyError: no such tool.
        """
        if tool not in self.flaky:
            raise KeyError(f"no tool named {tool!r}; tools: {', '.join(self.flaky)}")
        return self.flaky[tool].inject(kind, times, **options)

    def clear_faults(self) -> None:
        """Forget every injected fault (an open circuit breaker still waits for its ``reset_timeout``)."""
        for flaky in self.flaky.values():
            flaky.clear()

    # ------------------------------------------------------------------ looking at it
    def describe(self) -> str:
        """One line per tool: name, where it comes from, permission, retries, approval, untrusted output."""
        # headings padded by display width like the cells: a Chinese heading takes two columns a character
        rows = [f"{pad(_('tool'), 38)} {pad(_('layer'), 8)} {pad(_('from'), 18)} {pad(_('permission'), 10)} "
                f"{pad(_('retried'), 8)} {pad(_('approval'), 9)} {_('output')}"]
        for t in self.tools.values():
            rows.append(f"{pad(t.name, 38)} {pad(t.layer, 8)} {pad(t.source, 18)} {pad(t.permission, 10)} "
                        f"{pad(_('yes') if t.retried else _('no'), 8)} {pad(_('needed') if t.needs_approval else '-', 9)} "
                        f"{_('untrusted') if t.untrusted else '-'}")
        return "\n".join(rows)

    def close(self) -> list[str]:
        """Close the MCP connections and stop the agents' servers; returns what was closed. Safe twice."""
        closed = []
        for name, toolset in list(self.toolsets.items()):
            toolset.close()
            closed.append(f"mcp:{name}")
        self.toolsets.clear()
        for name, server in list(self.agents.items()):
            if hasattr(server, "stop"):
                server.stop()
                closed.append(f"a2a:{name}")
        self.agents.clear()
        self._started = False
        return closed

    def __enter__(self) -> "Capstone":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        sets = ", ".join(f"{k}: {len(v)}" for k, v in self.registry.toolsets().items())
        return f"Capstone({str(self.workdir)!r}, {'started' if self._started else 'not started'}; {sets or 'no tools'})"


# =========================================================================== the picture of a run
#: Boxes of the stack picture: (label, x, y). Seed 000 §4.3 with the model on top.
_BOXES = {"LLM": ("LLM\n(function calling)", 1.6, 3.4), "Orchestrator": ("Agent A: orchestrator\nregistry + built-in tools", 1.6, 1.9),
          "agent": ("Agent B: Finance DB agent\n(A2A, SQLite)", 6.2, 1.9),
          "pm": ("MCP server 1: project manager\n(database)", 0.2, 0.2),
          "files": ("MCP server 2: wiki files\n(file system)", 3.1, 0.2)}


def stack_figure(run: CapstoneRun | None = None, *, title: str | None = None) -> "CourseFigure":
    """The capstone's stack as seed 000 §4.3 draws it; with a run, each link shows what travelled on it.

    Args:
        run: a :class:`CapstoneRun` (None: the bare architecture).
        title: the figure's title.

    Returns:
        A :class:`~course_lib.diagrams.CourseFigure`; its text fallback is :meth:`CapstoneRun.report`
        (or the list of links).
    """
    def count(layer: str, lane_match: Callable[[str], bool] = lambda lane: True) -> int:
        if run is None:
            return 0
        return sum(1 for e in run.messages(layer) if lane_match(e.src) or lane_match(e.dst))

    links = [("LLM", "Orchestrator", "llm", "function calling", count("llm")),
             ("Orchestrator", "agent", "a2a", "A2A", count("a2a")),
             ("Orchestrator", "pm", "mcp", "MCP", count("mcp", lambda lane: lane == "pm server")),
             ("Orchestrator", "files", "mcp", "MCP", count("mcp", lambda lane: lane == "wiki server"))]
    builtin = run.called("builtin") if run is not None else []
    text = run.report() if run is not None else "\n".join(
        f"{_BOXES[a][0].splitlines()[0]} <-> {_BOXES[b][0].splitlines()[0]}: {what}" for a, b, _layer, what, _n in links)
    fig = figure(9.5, 4.8, text=text)
    ax = fig.add_axes((0.0, 0.0, 1.0, 0.9))
    boxes = {}
    for key, (label, x, y) in _BOXES.items():
        extra = "\n" + _("built-in calls: {calls}").format(calls=", ".join(builtin)) if key == "Orchestrator" and builtin else ""
        boxes[key] = ax.text(x, y, label + extra, ha="center", va="center", fontsize=9,
                             bbox={"boxstyle": "round,pad=0.5", "fc": "#f3f3f3", "ec": "#777777"})
    fig.canvas.draw()  # the boxes' patches get their size: arrows then start and end at their edges
    for a, b, layer, what, n in links:
        (_la, x1, y1), (_lb, x2, y2) = _BOXES[a], _BOXES[b]
        colour = LAYER_COLOURS[layer]
        used = run is None or n > 0
        ax.annotate("", xy=(x2, y2), xytext=(x1, y1),
                    arrowprops={"arrowstyle": "<|-|>", "color": colour if used else "#cccccc", "lw": 2.2 if used else 1,
                                "patchA": boxes[a].get_bbox_patch(), "patchB": boxes[b].get_bbox_patch(),
                                "shrinkA": 4, "shrinkB": 4})
        label = what if run is None else (_("{what}: {n} message") if n == 1 else _("{what}: {n} messages")).format(
            what=what, n=n)
        ax.text((x1 + x2) / 2, (y1 + y2) / 2, label, color=colour if used else "#999999", fontsize=9, ha="center",
                va="center", bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none"})
    ax.set_xlim(-1.4, 7.6)
    ax.set_ylim(-0.45, 3.95)
    ax.axis("off")
    fig.suptitle(title or (_("One request, every layer") if run is not None else
                           _("The capstone: seed 000 §4.3's stack, built from the course's pieces")), fontsize=11)
    return fig


__all__ = ["BOARD_REQUEST", "Capstone", "board_request", "CapstoneRun", "ResiliencePolicy", "SYSTEM_PROMPT", "ToolInfo",
           "TracedApprover", "approve_new_tasks", "approve_notes", "skill_handler", "skill_tool_name",
           "skill_tool_schema", "stack_figure", "wiki_files_server"]
