"""A2A agents on the official ``a2a-sdk`` (1.x, protocol 1.0): seed 000 §4's database agent and orchestrator.

Seed 000 §4.2 draws the flow this module runs for real:

    Orchestrator ── fetch Agent Card ──────────────────────────► Finance DB agent
    Orchestrator ◄── card: name, skills, examples, interfaces ── Finance DB agent
    Orchestrator ── Task "get the company's 2024 revenue" ─────► Finance DB agent ── SELECT … FROM finance
    Orchestrator ◄── status: working (streamed, several) ────── Finance DB agent
    Orchestrator ◄── artifact {rows, total} + completed ─────── Finance DB agent

Pieces, each small:

* :func:`plan_finance_request`: the database agent's decision, **sans-IO** (texts in → a plan
  out: reject, ask for input, or run this SQL), so it is tested without any server.
* :class:`FinanceAgentExecutor`: the SDK ``AgentExecutor`` that turns a plan into A2A events:
  ``working`` updates, an Artifact with the rows, ``input-required`` ("which year?") that a
  follow-up message resumes, ``failed`` with the reason when SQL fails, ``rejected`` for requests
  outside its skills, and a cancel that really stops a running query.
* :func:`finance_agent_card`: the Agent Card with two skills and their examples.
* :func:`build_agent_app` / :func:`start_agent`: card + JSON-RPC + HTTP+JSON routes as one
  Starlette app, served on 127.0.0.1 by :func:`course_lib.servers.start_server`, or used
  in-process through ``httpx.ASGITransport`` (which buffers streams: SDK-NOTES §3.6).
* :class:`CourseRequestHandler`: the SDK's request handler with an idempotent ``CancelTask``
  (A2A spec: cancel is idempotent; a2aproject/a2a-js#539 is the same bug in another SDK, where a second
  cancel of a canceled task failed with TaskNotCancelable instead of returning the same snapshot).
* :class:`TaskFold`: the client side: stream events folded into one Task, each move checked
  against :data:`course_lib.a2a_states.TRANSITIONS`.
* :class:`Orchestrator`: fetches cards, discovers skills ("what can you do?"), picks one for a
  request, delegates over streaming JSON-RPC, answers ``input-required`` turns, reports.

Deliberate shortcuts: skill matching is word/tag overlap (lesson 12 lets an LLM choose); the
task store is in memory; one SQL statement per task.

Taught in lesson 11 (seed 000 §4; A2A 1.0 §3 operations, §4 data model, §5 Agent Card).
"""
from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
import threading
from functools import lru_cache
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Awaitable, Callable, Iterable, Union

import httpx
from a2a.client import A2ACardResolver, ClientConfig, create_client
from a2a.helpers import (get_message_text, new_data_part, new_task_from_user_message, new_text_message,
                         new_text_part)
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_rest_routes
from a2a.server.tasks import TaskUpdater
from a2a.types import (AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Artifact, CancelTaskRequest,
                       DeleteTaskPushNotificationConfigRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
                       ListTaskPushNotificationConfigsRequest, ListTasksRequest, ListTasksResponse, Message, Role,
                       SendMessageConfiguration, SendMessageRequest, StreamResponse, SubscribeToTaskRequest, Task, TaskPushNotificationConfig,
                       TaskState)
from a2a.utils.errors import A2AError, InvalidParamsError
from a2a.utils.constants import TransportProtocol
from google.protobuf.json_format import MessageToDict
from starlette.applications import Starlette
from starlette.middleware import Middleware

from .a2a_limits import DEFAULT_LIMITS, BoundedTaskStore, Limits, LimitsMiddleware, jsonrpc_routes, truncate_logs
from .a2a_states import INTERRUPTED, TERMINAL, check_path, state_of, wire_name
from .a2a_wire import TracingTransport
from .diagrams import figure
from .examples import FINANCE_ROWS, FINANCE_TABLES, FINANCE_UNIT
from .servers import LocalServer, free_port, start_server
from .sql_guard import MAX_SECONDS, QueryCancelled, QueryResult, read_only_query, safe_message
from .i18n import N_, _
from .text_table import pad
from .tracing import Trace

if TYPE_CHECKING:  # matplotlib is imported on the first figure, not with this module
    from .course_figure import CourseFigure

# The SDK logs every JSON-RPC error it returns to a caller (a wrong version header, an unknown task id)
# as a warning; the caller gets the error anyway, so only server-side errors reach the notebook.
for _name in ("a2a.server.routes.jsonrpc_dispatcher", "a2a.utils.version_validator"):
    if logging.getLogger(_name).level == logging.NOTSET:
        logging.getLogger(_name).setLevel(logging.ERROR)

JSONRPC_PATH = "/a2a/jsonrpc"
REST_PATH = "/a2a/rest"
YEARS = sorted({row[0] for row in FINANCE_ROWS})

# --------------------------------------------------------------------------- the three layers

LAYERS = [  # (protocol, who talks to whom, the seed's analogy, where the course teaches it)
    ("Function calling", N_("LLM ↔ framework"), N_("an instruction set: the CPU tells the board what to do"),
     N_("lessons 01–06")),
    ("MCP", N_("agent ↔ tool"), N_("USB: one plug for every device"), N_("lessons 08–10")),
    ("A2A", N_("agent ↔ agent"), N_("HTTP: servers talking to servers"), N_("lesson 11")),
]


def protocol_layers() -> CourseFigure:
    """Seed 000 §4.1/§4.3 as a picture: function calling up to the LLM, MCP down to tools, A2A across.

    Returns:
        A :class:`~course_lib.diagrams.CourseFigure`; its text fallback is :data:`LAYERS` as a table (columns
        padded by display width). Texts in the learner's language; protocol names stay as they are spelled.

    Taught in lesson 11 (and used again in lesson 12).
    """
    text = "\n".join(pad(p, 17) + " " + pad(_(who), 16) + " " + _("like {analogy} ({where})").format(
        analogy=_(analogy), where=_(where)) for p, who, analogy, where in LAYERS)
    fig = figure(9.0, 4.6, text=text)
    ax = fig.add_axes((0.0, 0.0, 1.0, 0.92))
    boxes = {"LLM": (1.5, 3.3), "A": (1.5, 1.8), "B": (6.0, 1.8), "MCP1": (0.4, 0.2), "MCP2": (2.6, 0.2)}
    labels = {"LLM": "LLM", "A": _("Agent A\n(orchestrator)"), "B": _("Agent B\n(finance DB agent)"),
              "MCP1": _("MCP server 1\n(database)"), "MCP2": _("MCP server 2\n(files, wiki)")}
    for key, (x, y) in boxes.items():
        ax.text(x, y, labels[key], ha="center", va="center", fontsize=10,
                bbox={"boxstyle": "round,pad=0.5", "fc": "#f3f3f3", "ec": "#777777"})

    def link(a: str, b: str, colour: str, label: str, dx: float = 0.0, dy: float = 0.0) -> None:
        (x1, y1), (x2, y2) = boxes[a], boxes[b]
        ax.annotate("", xy=(x2, y2), xytext=(x1, y1), arrowprops={"arrowstyle": "<|-|>", "color": colour, "lw": 2,
                                                                   "shrinkA": 30, "shrinkB": 30})
        ax.text((x1 + x2) / 2 + dx, (y1 + y2) / 2 + dy, label, color=colour, fontsize=9, ha="center", va="center",
                bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none"})

    link("LLM", "A", "#1f5fa8", _("function calling: tool_calls\n(an instruction set)"), dx=-1.25)
    link("A", "B", "#c2185b", _("A2A: Agent Card, Task, streaming\n(HTTP between servers)"), dy=0.45)
    link("A", "MCP1", "#00796b", "MCP", dx=-0.35)
    link("A", "MCP2", "#00796b", _("MCP\n(USB)"), dx=0.45)
    ax.set_xlim(-0.6, 7.4)
    ax.set_ylim(-0.4, 3.9)
    ax.axis("off")
    fig.suptitle(_("Three protocols, three directions: up to the model, down to tools, across to agents"), fontsize=11)
    return fig


# --------------------------------------------------------------------------- the plan (sans-IO)

@lru_cache(maxsize=1)
def _finance_words() -> dict[str, Any]:
    from .package_data import load_json

    return load_json("finance_words.json")


@lru_cache(maxsize=1)
def _finance_terms() -> tuple[tuple[str, str, bool], ...]:
    """``(word, concept, is_chinese)`` of ``data/finance_words.json``, longest word first."""
    data, out = _finance_words(), []
    for group in ("measures", "broader"):
        for concept, entry in data[group].items():
            out += [(w.lower(), concept, False) for w in entry["en"]] + [(w, concept, True) for w in entry["zh"]]
    return tuple(sorted(out, key=lambda t: -len(t[0])))


def finance_concepts(text: str) -> tuple[str, ...]:
    """The finance concepts ``text`` speaks of, in the order said: measures (``revenue``, ``net_profit``,
    ``expenses``) and ``finance`` itself, from ``course_lib/data/finance_words.json`` (English and Chinese).

    Words are matched longest first without overlap (``净利润`` is net profit only, ``net income`` profit, ``income``
    alone revenue), English words whole, Chinese ones as they stand. A measure implies ``finance`` (listed last).

    Example:
        >>> finance_concepts("上个季度的收入是多少？"), finance_concepts("What was our net income in 2023?")
        (('revenue', 'finance'), ('net_profit', 'finance'))
        >>> finance_concepts("今年的支出和利润"), finance_concepts("What's the weather in Paris?")
        (('expenses', 'net_profit', 'finance'), ())
    """
    low, taken, found = text.lower(), [], []
    for word, concept, chinese in _finance_terms():
        pattern = re.escape(word) if chinese else rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])"
        for m in re.finditer(pattern, low):
            if all(m.end() <= a or m.start() >= b for a, b in taken):
                taken.append((m.start(), m.end()))
                found.append((m.start(), concept))
    concepts = list(dict.fromkeys(c for _, c in sorted(found)))
    if any(c in _finance_words()["measures"] for c in concepts) and "finance" not in concepts:
        concepts.append("finance")
    return tuple(concepts)


def _measure_name(concept: str, chinese: bool) -> str:
    return _finance_words()["names"][concept]["zh" if chinese else "en"]
_WRITE_SQL = re.compile(r"^\s*(insert|update|delete|drop|create|alter|replace|attach|pragma|vacuum)\b", re.I)
_READ_SQL = re.compile(r"^\s*(select|with)\b", re.I)
_YEAR = re.compile(r"(?<!\d)(20\d\d)(?!\d)")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_MAX_SUMMARY_CHARS = 500  # characters of rows quoted in a raw query's one-line answer


@dataclass(frozen=True)
class Reject:
    """The request is outside the agent's skills: the task ends ``rejected`` with ``reason``."""

    reason: str


@dataclass(frozen=True)
class AskInput:
    """Something is missing: the task pauses in ``input-required`` with ``question``."""

    question: str


@dataclass(frozen=True)
class RunQuery:
    """Run ``sql`` with ``params``; ``shown`` is the SQL with values inlined, for people to read.

    ``metrics`` and ``years`` are empty for the raw-SQL skill; ``chinese`` selects the reply language.
    """

    sql: str
    params: tuple = ()
    shown: str = ""
    metrics: tuple[str, ...] = ()
    years: tuple[int, ...] = ()
    chinese: bool = False

    @property
    def progress(self) -> str:
        """The one ``working`` update: what the agent understood and the SQL it runs.

        Example:
            >>> plan_finance_request(["net profit 2023"]).progress
            'Net profit for 2023. Running SQL: SELECT year, quarter, net_profit FROM finance WHERE year IN (2023) ORDER BY year, quarter'
        """
        if not self.metrics:
            return f"Running SQL: {self.shown}"
        years = ", ".join(map(str, self.years))
        if self.chinese:
            names = "、".join({"revenue": "营收", "net_profit": "净利润"}[m] for m in self.metrics)
            return f"查询 {years} 年的{names}。执行 SQL：{self.shown}"
        what = " and ".join(m.replace("_", " ") for m in self.metrics)
        return f"{what[0].upper()}{what[1:]} for {years}. Running SQL: {self.shown}"


Plan = Union[Reject, AskInput, RunQuery]


def plan_finance_request(texts: Iterable[str]) -> Plan:
    """Decide what the database agent does with a request (sans-IO: no database, no network).

    Args:
        texts: the user's texts in this task, oldest first: the request and, after an
            ``input-required`` turn, the answers (``["get the company's revenue", "2024"]``).

    Returns:
        :class:`RunQuery` for a finance question with a year (``revenue``/``profit``/``营收``/
        ``利润`` + a year 2000–2099) or for a read-only SQL statement (``SELECT``/``WITH``);
        :class:`AskInput` ("Which year?") when the year is missing; :class:`Reject` for SQL that
        writes and for anything that is not about the company's finances.

    Example:
        >>> plan_finance_request(["查公司2024年营收数据"]).shown
        'SELECT year, quarter, revenue FROM finance WHERE year IN (2024) ORDER BY year, quarter'
        >>> plan_finance_request(["How much revenue did we make?"])
        AskInput(question='Which year? The finance database has 2022–2024.')

    Taught in lesson 11 (seed 000 §4.2).
    """
    texts = [t.strip() for t in texts if t and t.strip()]
    if not texts:
        return Reject("Empty request: ask about the company's revenue or net profit, e.g. "
                      "\"get the company's 2024 revenue\".")
    first = texts[0]
    if _WRITE_SQL.match(first):
        return Reject("This agent only reads: send one SELECT statement on the finance table.")
    if _READ_SQL.match(first):
        return RunQuery(sql=first, shown=" ".join(first.split()))
    joined = " ".join(texts)
    chinese = bool(_CJK.search(first))
    asked = finance_concepts(joined)
    measures = _finance_words()["measures"]
    metrics = tuple(measures[c]["column"] for c in measures if c in asked and measures[c]["column"])
    if not metrics:
        unheld = [c for c in asked if c in measures]  # a measure the finance table does not hold (expenses)
        if unheld:
            name = _measure_name(unheld[0], chinese)
            return Reject(f"财务数据库只有营收和净利润，没有{name}的数据。" if chinese else
                          f"The finance database holds revenue and net profit, not {name}.")
        return Reject("我只回答公司营收和净利润的问题（财务数据库）；这个请求超出了我的技能范围。" if chinese else
                      "I answer questions about the company's revenue and net profit (finance database); "
                      "this request is outside my skills.")
    years = tuple(sorted({int(y) for y in _YEAR.findall(joined)}))
    if not years:
        span = f"{YEARS[0]}–{YEARS[-1]}"
        return AskInput(f"哪一年？财务数据库有 {span} 年的数据。" if chinese
                        else f"Which year? The finance database has {span}.")
    columns = ", ".join(metrics)
    marks = ", ".join("?" * len(years))
    sql = f"SELECT year, quarter, {columns} FROM finance WHERE year IN ({marks}) ORDER BY year, quarter"
    shown = sql.replace(f"({marks})", f"({', '.join(map(str, years))})")
    return RunQuery(sql=sql, params=years, shown=shown, metrics=metrics, years=years, chinese=chinese)


def summarize_rows(plan: RunQuery, rows: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
    """The artifact's data and its one-line text for the rows of ``plan``.

    Returns:
        ``(data, text)``: ``data`` is ``{"sql", "rows", "unit"}`` plus ``"totals": {year: {metric:
        total}}`` for finance questions; ``text`` reads e.g. ``"2024 revenue: 1279.9 million USD
        (Q1 301.2, Q2 315.7, Q3 322.4, Q4 340.6)."``

    Raises:
        LookupError: a finance question found no rows (a year the database does not have).
    """
    data: dict[str, Any] = {"sql": plan.shown, "rows": rows}
    if not plan.metrics:
        shown = repr(rows[:5])
        shown = shown if len(shown) <= _MAX_SUMMARY_CHARS else shown[: _MAX_SUMMARY_CHARS - 1] + "…"
        return data, f"{len(rows)} row{'s' * (len(rows) != 1)}: {shown}" + (" …" if len(rows) > 5 else "")
    missing = [y for y in plan.years if not any(r["year"] == y for r in rows)]
    if missing:
        raise LookupError(f"no finance data for {', '.join(map(str, missing))} "
                          f"(the database has {YEARS[0]}–{YEARS[-1]})")
    totals = {str(y): {m: round(sum(r[m] for r in rows if r["year"] == y), 1) for m in plan.metrics}
              for y in plan.years}
    data.update(unit=FINANCE_UNIT, totals=totals)
    lines = []
    for y in plan.years:
        for m in plan.metrics:
            quarters = ", ".join(f"Q{r['quarter']} {r[m]}" for r in rows if r["year"] == y)
            if plan.chinese:
                name = {"revenue": "营收", "net_profit": "净利润"}[m]
                lines.append(f"{y}年{name}：{totals[str(y)][m]} 百万美元（{quarters}）。")
            else:
                lines.append(f"{y} {m.replace('_', ' ')}: {totals[str(y)][m]} {FINANCE_UNIT} ({quarters}).")
    return data, " ".join(lines)


# --------------------------------------------------------------------------- the agent (server side)

def agent_message(text: str, task: Task | None = None, *, task_id: str | None = None,
                  context_id: str | None = None) -> Message:
    """A ``ROLE_AGENT`` text Message tied to ``task`` (or to ``task_id``/``context_id``)."""
    return new_text_message(text, role=Role.ROLE_AGENT, task_id=task.id if task else task_id,
                            context_id=task.context_id if task else context_id)


def user_message(text: str, *, task_id: str | None = None, context_id: str | None = None) -> Message:
    """A ``ROLE_USER`` text Message; give ``task_id``/``context_id`` to continue a task (SDK-NOTES §3.5:
    the SDK's ``new_text_message`` defaults to ``ROLE_AGENT``)."""
    return new_text_message(text, role=Role.ROLE_USER, task_id=task_id, context_id=context_id)


def user_texts(context: RequestContext) -> list[str]:
    """The user's texts of this task, oldest first, ending with the message being handled."""
    texts, seen = [], set()
    task = context.current_task
    for message in (task.history if task is not None else []):
        if message.role == Role.ROLE_USER:
            texts.append(get_message_text(message))
            seen.add(message.message_id)
    if context.message is not None and context.message.message_id not in seen:
        texts.append(get_message_text(context.message))
    return texts


class FinanceAgentExecutor(AgentExecutor):
    """The database agent of seed 000 §4.2, as an ``a2a-sdk`` ``AgentExecutor``.

    Events it publishes for one request (A2A 1.0 §3.1.2 streaming), each one telling the client
    something new: the Task (``submitted``: the ids to follow it by), one ``working`` update (what
    it understood and the SQL it runs), an Artifact named ``finance-result`` (a data part ``{sql,
    rows, unit, totals}`` and a text part), then ``completed``. Other endings: ``input-required``
    (no year: the follow-up message with the same ``taskId`` resumes it), ``failed`` (the SQL failed
    or found no data; the status message gives the reason), ``rejected`` (not a finance question, or
    SQL that writes), ``canceled`` (``CancelTask``: the running query is interrupted).

    Bounded like any database exposed to strangers (:mod:`course_lib.sql_guard`): a read-only
    connection with an authorizer, a statement timeout of ``max_query_seconds``, at most
    :data:`~course_lib.sql_guard.MAX_ROWS` rows and :data:`~course_lib.sql_guard.MAX_RESULT_BYTES`
    bytes per result (the artifact says when it was cut), errors without data or paths. Free SQL runs
    on a small thread pool of its own, so heavy SQL cannot starve report requests, whose one known,
    parameterised query (microseconds on the finance table) runs at once in the agent; when
    ``workers + max_waiting`` free queries are already in flight, a new one fails at once ("busy")
    instead of queueing without end.

    Args:
        db_path: the SQLite file made by :func:`course_lib.examples.create_finance_db`.
        step_delay: seconds of pause before the result, so streaming is visible (0 in tests).
        max_query_seconds: a running statement is stopped after this many seconds.
        workers: threads for free SQL.
        max_waiting: free SQL queries that may wait for a thread.

    Taught in lesson 11.
    """

    def __init__(self, db_path: str | Path, *, step_delay: float = 0.2, max_query_seconds: float = MAX_SECONDS,
                 workers: int = 2, max_waiting: int = 8) -> None:
        self.db_path = Path(db_path)
        self.step_delay = step_delay
        self.max_query_seconds = max_query_seconds
        self.workers, self.max_waiting = workers, max_waiting
        self._pools: dict[str, ThreadPoolExecutor] = {}
        self._in_flight = {"report": 0, "sql": 0}
        self._active = 0
        self._lock = threading.Lock()

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Handle one message: a new request, or the answer to an ``input-required`` question."""
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        plan = plan_finance_request(user_texts(context))
        if isinstance(plan, Reject):
            await updater.reject(agent_message(plan.reason, task))
        elif isinstance(plan, AskInput):
            await updater.requires_input(agent_message(plan.question, task))
        else:
            await self._run(plan, task, updater)

    async def _run(self, plan: RunQuery, task: Task, updater: TaskUpdater) -> None:
        await updater.start_work(agent_message(plan.progress, task))
        lane = "report" if plan.metrics else "sql"
        if lane == "sql":
            with self._lock:
                busy = self._in_flight[lane] >= self.workers + self.max_waiting
                if not busy:
                    self._in_flight[lane] += 1
            if busy:
                await updater.failed(agent_message("The agent is busy: too many queries are running. Try again "
                                                   "later.", task))
                return
        stop = threading.Event()
        try:
            if lane == "report":  # the report's own indexed query on 12 rows: microseconds, no thread hop needed
                result = self._query(plan, stop)
            else:
                result = await asyncio.get_running_loop().run_in_executor(self._pool(lane), self._query, plan, stop)
            data, text = summarize_rows(plan, result.rows)
        except asyncio.CancelledError:  # CancelTask: stop the SQLite query thread too, then let the SDK go on
            stop.set()
            raise
        except (sqlite3.Error, QueryCancelled, LookupError) as e:
            await updater.failed(agent_message(f"The query failed: {safe_message(e, hide=[str(self.db_path)])}", task))
            return
        finally:
            if lane == "sql":
                with self._lock:
                    self._in_flight[lane] -= 1
        if result.truncated:
            data["truncated"] = f"the result was cut at {result.truncated}"
            text += f" (cut at {result.truncated})"
        await asyncio.sleep(self.step_delay)
        await updater.add_artifact([new_data_part(data), new_text_part(text)], name="finance-result")
        await updater.complete()

    def _pool(self, lane: str) -> ThreadPoolExecutor:
        with self._lock:
            if lane not in self._pools:
                self._pools[lane] = ThreadPoolExecutor(self.workers, thread_name_prefix=f"finance-{lane}")
            return self._pools[lane]

    def _query(self, plan: RunQuery, stop: threading.Event) -> QueryResult:
        # Runs in a worker thread; the counter tells whether a cancelled query really stopped.
        with self._lock:
            self._active += 1
        try:
            return read_only_query(self.db_path, plan.sql, plan.params, tables=FINANCE_TABLES, cancel=stop,
                                   max_seconds=self.max_query_seconds)
        finally:
            with self._lock:
                self._active -= 1

    @property
    def active_queries(self) -> int:
        """How many SQL queries are running right now (0 after a cancel has stopped one)."""
        with self._lock:
            return self._active

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Publish ``canceled`` (the SDK has already cancelled a running :meth:`execute`)."""
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel(
            agent_message("Canceled at the caller's request.", task_id=context.task_id,
                          context_id=context.context_id))

    def close(self) -> None:
        """Stop the worker threads (running statements end at their timeout); safe to call twice."""
        with self._lock:
            pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            pool.shutdown(wait=False, cancel_futures=True)

    def __repr__(self) -> str:
        return f"FinanceAgentExecutor({str(self.db_path)!r}, step_delay={self.step_delay})"


def agent_interfaces(base_url: str, *, jsonrpc_path: str = JSONRPC_PATH, rest_path: str = REST_PATH
                     ) -> list[AgentInterface]:
    """The card's ``supportedInterfaces``: JSON-RPC and HTTP+JSON (REST) at ``base_url``, A2A 1.0."""
    return [AgentInterface(url=base_url + jsonrpc_path, protocol_binding=TransportProtocol.JSONRPC,
                           protocol_version="1.0"),
            AgentInterface(url=base_url + rest_path, protocol_binding=TransportProtocol.HTTP_JSON,
                           protocol_version="1.0")]


def finance_agent_card(base_url: str, *, name: str = "Finance DB agent", push_notifications: bool = True,
                       jsonrpc_path: str = JSONRPC_PATH, rest_path: str = REST_PATH) -> AgentCard:
    """The database agent's Agent Card (A2A 1.0 §5): who it is, where to reach it, what it can do.

    Args:
        base_url: ``http://127.0.0.1:<port>``; the card lists the JSON-RPC and REST URLs under it.
        name: the agent's display name.
        push_notifications: declare ``capabilities.pushNotifications`` (the app then accepts webhooks).
        jsonrpc_path, rest_path: where the app mounts its bindings (see :func:`build_agent_app`).

    Returns:
        An ``AgentCard`` with capabilities ``streaming`` and push notifications, text and JSON output modes, and two skills
        (``finance_report``, ``sql_query``), each with tags and examples the orchestrator matches.

    Taught in lesson 11 (seed 000 §4.2 "Agent Card").
    """
    return AgentCard(
        name=name,
        description="Answers questions about the company's finances from its SQLite finance database.",
        version="1.0.0",
        supported_interfaces=agent_interfaces(base_url, jsonrpc_path=jsonrpc_path, rest_path=rest_path),
        capabilities=AgentCapabilities(streaming=True, push_notifications=push_notifications),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain", "application/json"],
        skills=[
            AgentSkill(id="finance_report", name="Revenue and profit report",
                       description="Revenue and net profit by year and quarter, with yearly totals "
                                   f"({FINANCE_UNIT}, {YEARS[0]}–{YEARS[-1]}). Asks which year if none is given.",
                       tags=["finance", "revenue", "profit", "营收", "利润", "database"],
                       examples=["Get the company's 2024 revenue", "查公司2024年营收数据",
                                 "What was the net profit in 2023?"]),
            AgentSkill(id="sql_query", name="Read-only SQL on the finance table",
                       description="Runs one SELECT statement on table finance(year, quarter, revenue, net_profit) "
                                   "and returns the rows.",
                       tags=["sql", "select", "finance", "database"],
                       examples=["SELECT year, SUM(revenue) FROM finance GROUP BY year"]),
        ],
    )


class CourseRequestHandler(DefaultRequestHandler):
    """The SDK's ``DefaultRequestHandler`` with the kit's corrections, on every transport.

    * An idempotent ``CancelTask`` (a2aproject/a2a-js#539): ``a2a-sdk`` 1.3 answers a second
      ``CancelTask`` on a canceled task with ``TaskNotCancelableError`` (-32002). Cancel is a request
      for an outcome the task already has, so the kit returns the canceled Task unchanged instead (a
      retried cancel, e.g. after a timeout, must not look like a failure). Every other case is the
      SDK's: a completed, failed or rejected task still gives -32002, an unknown id -32001.
    * A message from the client must be the user's: ``role: ROLE_AGENT`` in ``SendMessage`` is
      ``InvalidParamsError`` (-32602), not an internal error.
    * ``ListTasks`` reports as ``pageSize`` the number of tasks on the page it returns (A2A 1.0:
      "the page size used for this response"; the SDK reports the page size asked for, 50 on an
      empty page).
    """

    async def on_cancel_task(self, params: CancelTaskRequest, context: Any) -> Task | None:  # noqa: D102
        stored = await self.task_store.get(params.id, context)
        if stored is not None and stored.status.state == TaskState.TASK_STATE_CANCELED:
            return stored
        return await super().on_cancel_task(params, context)

    @staticmethod
    def _check_role(params: SendMessageRequest) -> None:
        if params.HasField("message") and params.message.role == Role.ROLE_AGENT:
            raise InvalidParamsError(message="A message sent to an agent must have role ROLE_USER "
                                             "(ROLE_AGENT marks the agent's own replies)")

    async def on_message_send(self, params: SendMessageRequest, context: Any) -> Any:  # noqa: D102
        self._check_role(params)
        return await super().on_message_send(params, context)

    async def on_message_send_stream(self, params: SendMessageRequest, context: Any) -> Any:  # noqa: D102
        self._check_role(params)
        async for event in super().on_message_send_stream(params, context):
            yield event

    async def on_list_tasks(self, params: ListTasksRequest, context: Any) -> ListTasksResponse:  # noqa: D102
        page = await super().on_list_tasks(params, context)
        page.page_size = len(page.tasks)
        return page

    def __repr__(self) -> str:
        return f"CourseRequestHandler(agent={self._agent_card.name!r})"


def build_agent_app(card: AgentCard, executor: AgentExecutor, *, limits: Limits = DEFAULT_LIMITS,
                    jsonrpc_path: str = JSONRPC_PATH, rest_path: str = REST_PATH,
                    middleware: Iterable[Middleware] = (), **handler_options: Any) -> Starlette:
    """One agent as a Starlette app: the card, JSON-RPC and HTTP+JSON endpoints, behind the kit's limits.

    Routes: ``GET /.well-known/agent-card.json``, ``POST /a2a/jsonrpc`` (methods ``SendMessage``,
    ``SendStreamingMessage``, ``GetTask``, ``ListTasks``, ``CancelTask``…), ``/a2a/rest/...``
    (``POST /message:send``, ``GET /tasks/{id}``…). The card's ``supportedInterfaces`` must point at
    this app's address (see :func:`start_agent`).

    Args:
        card: the Agent Card to serve.
        executor: the agent's logic.
        limits: body size, JSON depth, task store and log bounds (:class:`~course_lib.a2a_limits.Limits`).
        jsonrpc_path: where the JSON-RPC endpoint is mounted.
        rest_path: the prefix of the HTTP+JSON endpoints.
        middleware: more Starlette middleware, inside the limits (e.g. authentication:
            :func:`course_lib.a2a_security.auth_middleware`).
        handler_options: passed to the SDK's request handler (``push_config_store``, ``push_sender``,
            ``extended_agent_card``...). A card with ``capabilities.pushNotifications`` gets
            :func:`course_lib.a2a_push.push_options` unless a store is given.

    Build a fresh app per server: each has its own bounded in-memory task store. ``app.state.a2a_handler`` is
    the request handler; the app's lifespan closes it (and the executor's threads) when a server stops.
    """
    truncate_logs(limits)
    if card.capabilities.push_notifications and "push_config_store" not in handler_options:
        from .a2a_push import push_options  # the card promises push notifications: the app provides them

        handler_options.update(push_options())
    handler = CourseRequestHandler(agent_executor=executor, task_store=BoundedTaskStore(limits), agent_card=card,
                                   **handler_options)
    sender = handler_options.get("push_sender")
    routes = (create_agent_card_routes(card) + jsonrpc_routes(handler, jsonrpc_path)
              + create_rest_routes(handler, path_prefix=rest_path))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await handler.aclose()  # a stopping server leaves no task behind (e.g. one waiting for input)
        if callable(getattr(executor, "close", None)):
            executor.close()
        if callable(getattr(sender, "aclose", None)):
            await sender.aclose()

    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(LimitsMiddleware, limits=limits, jsonrpc_paths=(jsonrpc_path,),
                                           rest_prefix=rest_path), *middleware])
    app.state.a2a_handler = handler  # in-process users (no lifespan) call ``await app.state.a2a_handler.aclose()``
    return app


def start_agent(name: str, make_card: Callable[[str], AgentCard], executor: AgentExecutor,
                **app_options: Any) -> LocalServer:
    """Serve an agent on 127.0.0.1 (a free port) in a daemon thread; re-running replaces it.

    Args:
        name: the server's registry name (``"finance-agent"``); see :func:`course_lib.servers.start_server`.
        make_card: ``base_url -> AgentCard`` (e.g. :func:`finance_agent_card`), called with the real URL.
        executor: the agent's logic.
        app_options: passed to :func:`build_agent_app` (``limits``, ``extended_agent_card``...).

    Returns:
        The running :class:`~course_lib.servers.LocalServer` (``.url`` is the card's base URL).

    Raises:
        course_lib.servers.ServerStartError: the server could not start.
    """
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    return start_server(name, build_agent_app(make_card(url), executor, **app_options), port=port)


# --------------------------------------------------------------------------- the client side

def as_json(message: Any) -> dict:
    """A protobuf A2A object (Task, Message, AgentCard…) as its ProtoJSON dict (the wire form)."""
    return MessageToDict(message)


def _plain(value: Any) -> Any:
    # Data parts travel as google.protobuf.Struct, where every number is a double: 2024 -> 2024.0.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):  # sorted: a Struct's map order is not stable across runs
        return {k: _plain(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def artifact_data(artifact: Artifact) -> list[Any]:
    """The JSON data parts of ``artifact`` as Python values.

    Whole-number floats become ``int`` again (a data part is a ``google.protobuf.Struct``, whose numbers are
    all doubles: 2024 travels as 2024.0), and dict keys are sorted (a Struct is a map without order).
    """
    return [_plain(MessageToDict(p.data)) for p in artifact.parts if p.HasField("data")]


def artifact_text(artifact: Artifact) -> str:
    """The text parts of ``artifact``, joined by newlines."""
    return "\n".join(p.text for p in artifact.parts if p.HasField("text"))


def describe_event(event: StreamResponse) -> str:
    """One line for a ``StreamResponse`` (task / message / status_update / artifact_update)."""
    kind = event.WhichOneof("payload")
    if kind == "task":
        return f"task {state_of(event.task.status.state)}"
    if kind == "message":
        return f"message {get_message_text(event.message)!r}"
    if kind == "status_update":
        status = event.status_update.status
        note = get_message_text(status.message) if status.HasField("message") else ""
        return f"status {state_of(status.state)}" + (f": {note}" if note else "")
    return f"artifact {event.artifact_update.artifact.name!r}: {artifact_text(event.artifact_update.artifact)}"


class TaskMismatch(ValueError):
    """An event about another task reached a :class:`TaskFold` that follows one task."""

    def __init__(self, expected: str, got: str) -> None:
        super().__init__(f"this fold follows task {expected!r}; an event for task {got!r} does not belong to it "
                         f"(use one TaskFold per task)")
        self.expected, self.got = expected, got


@dataclass
class TaskFold:
    """Fold a stream of A2A events into one Task, the way a client must (A2A 1.0 §3.1.2).

    ``apply`` each ``StreamResponse``: a ``task`` replaces the snapshot, a ``status_update``
    sets ``status`` (the previous status message joins ``history``), an ``artifact_update`` adds
    the artifact or, with ``append``, extends its parts. Every change of state is checked against
    :data:`course_lib.a2a_states.TRANSITIONS`, so an agent that goes ``completed`` → ``working``
    raises :class:`~course_lib.a2a_states.InvalidTransition`. One fold follows one task: an event
    about another task (a snapshot or an update with a different ``taskId``) raises
    :class:`TaskMismatch` instead of silently replacing what was folded so far.

    Attributes:
        task: the folded Task (None until the first event carrying one).
        states: every state seen, in order (table names: ``"working"``).
        events: every event applied.
        message: the ``message`` of an agent that answered without a task, if any.

    Taught in lesson 11.
    """

    task: Task | None = None
    states: list[str] = field(default_factory=list)
    events: list[StreamResponse] = field(default_factory=list)
    message: Message | None = None

    def apply(self, event: StreamResponse) -> "TaskFold":
        """Fold one event in; returns self."""
        self.events.append(event)
        kind = event.WhichOneof("payload")
        if kind == "message":
            self.message = event.message
        elif kind == "task":
            self._same_task(event.task.id)
            self.task = Task()
            self.task.CopyFrom(event.task)
            self._saw(self.task.status.state)
        elif kind == "status_update":
            update = event.status_update
            task = self._task_for(update.task_id, update.context_id)
            if task.status.HasField("message"):
                task.history.append(task.status.message)
            task.status.CopyFrom(update.status)
            self._saw(update.status.state)
        elif kind == "artifact_update":
            update = event.artifact_update
            task = self._task_for(update.task_id, update.context_id)
            for existing in task.artifacts:
                if existing.artifact_id == update.artifact.artifact_id and update.append:
                    existing.parts.extend(update.artifact.parts)
                    break
            else:
                task.artifacts.append(update.artifact)
        return self

    def _task_for(self, task_id: str, context_id: str) -> Task:
        if self.task is None:  # an update before any Task snapshot (e.g. a resumed task's stream)
            self.task = Task(id=task_id, context_id=context_id)
        self._same_task(task_id)
        return self.task

    def _same_task(self, task_id: str) -> None:
        if self.task is not None and self.task.id and task_id != self.task.id:
            self.events.pop()  # the event was not folded in
            raise TaskMismatch(self.task.id, task_id)

    def _saw(self, state: int) -> None:
        self.states.append(state_of(state))
        check_path(self.states[-2:])

    @property
    def state(self) -> str | None:
        """The current state's table name, or None before any task event."""
        return self.states[-1] if self.states else None

    @property
    def status_text(self) -> str:
        """The text of the current status message ('' if none)."""
        if self.task is None or not self.task.status.HasField("message"):
            return ""
        return get_message_text(self.task.status.message)

    def __repr__(self) -> str:
        return f"TaskFold(state={self.state!r}, {len(self.events)} events, path={' → '.join(self.states)})"


@dataclass(frozen=True)
class SkillRef:
    """One skill of one discovered agent: where it lives and what it says about itself."""

    agent: str
    url: str
    skill: AgentSkill

    @property
    def id(self) -> str:
        return self.skill.id

    def __repr__(self) -> str:
        return f"SkillRef({self.agent!r}/{self.skill.id})"


_WORD = re.compile(r"[a-z0-9_]+|[\u4e00-\u9fff]+")


_STOP = frozenset("the what was were how much many did does for and get give show from with please our you your "
                  "can this that are has have who when which".split())


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower())
            if (len(w) > 2 and w not in _STOP and not w.isdigit()) or _CJK.match(w)}


def skill_score(skill: AgentSkill, request: str) -> int:
    """How well ``skill`` matches ``request``: 3 per tag found in it, 1 per shared example word, and by meaning:
    3 per finance measure both speak of, 1 when both speak of finance (:func:`finance_concepts` of the request
    and of the skill's name and tags).

    Example words skip short and common English words ("what", "the"), so "What's the weather?"
    does not match "What was the net profit in 2023?".

    Tags are matched as substrings, so Chinese tags (``营收``) work without word splitting; the concepts read
    the words a tag does not hold (``收入``, ``销售额``, ``sales``, ``earnings`` find the revenue or profit skill).

    Example:
        >>> card = finance_agent_card("http://finance.local")
        >>> [skill_score(s, "上个季度的收入是多少？") for s in card.skills]
        [4, 1]
    """
    low = request.lower()
    tag_hits = sum(3 for tag in skill.tags if tag.lower() in low)
    example_words = set().union(*(_words(e) for e in skill.examples)) if skill.examples else set()
    asked, offered = set(finance_concepts(request)), set(finance_concepts(" · ".join([skill.name, *skill.tags])))
    shared = asked & offered
    meaning = 3 * len(shared - {"finance"}) + ("finance" in shared)
    return tag_hits + len(_words(low) & example_words) + meaning


Answerer = Callable[[str], Union[str, Awaitable[str]]]


@dataclass
class Delegation:
    """What came back from one delegated task.

    Attributes:
        skill: the skill chosen.
        fold: the folded task (``fold.task``, ``fold.states``).
        turns: ``(question, answer)`` pairs of ``input-required`` turns.
    """

    skill: SkillRef
    fold: TaskFold
    turns: list[tuple[str, str]] = field(default_factory=list)

    @property
    def state(self) -> str | None:
        return self.fold.state

    @property
    def data(self) -> list[Any]:
        """The JSON data of every artifact."""
        return [d for a in (self.fold.task.artifacts if self.fold.task else []) for d in artifact_data(a)]

    @property
    def text(self) -> str:
        """The artifacts' text, or the final status message (e.g. a failure's reason)."""
        arts = [artifact_text(a) for a in (self.fold.task.artifacts if self.fold.task else [])]
        return "\n".join(a for a in arts if a) or self.fold.status_text

    def __repr__(self) -> str:
        return f"Delegation({self.skill!r}, state={self.state!r}, {len(self.turns)} input turns)"


class Orchestrator:
    """The orchestrator agent of seed 000 §4.2: discover agents by their cards, then delegate.

    Args:
        name: its lane name in traces.
        trace: where the wire messages go (a new :class:`~course_lib.tracing.Trace` by default).
        transport: the inner ``httpx`` transport (default: real HTTP; pass
            ``httpx.ASGITransport(app=...)`` to talk to an in-process agent).
        credentials: ``{security scheme name: credential}`` (e.g. ``{"apiKey": "..."}``); the SDK's
            ``AuthInterceptor`` puts each where the agent's card says (:mod:`course_lib.a2a_security`).
        verify_card: a card signature verifier (:func:`course_lib.a2a_security.card_verifier`); a card
            that fails it is never used.

    Use ``await`` in a notebook (never ``asyncio.run``: SDK-NOTES §2). Each call opens and closes
    its own HTTP client, so calls can be spread over several cells.

    Taught in lesson 11.
    """

    def __init__(self, name: str = "Orchestrator", *, trace: Trace | None = None,
                 transport: httpx.AsyncBaseTransport | None = None, credentials: dict[str, str] | None = None,
                 verify_card: Callable[[AgentCard], None] | None = None) -> None:
        self.name = name
        self.trace = trace if trace is not None else Trace(f"{name} ↔ agents (A2A)")
        self._inner = transport
        self.credentials = dict(credentials or {})
        self.verify_card = verify_card
        self.cards: dict[str, AgentCard] = {}  # base URL -> card
        self._names: dict[str, str] = {}

    def _http(self) -> tuple[httpx.AsyncClient, TracingTransport]:
        wire = TracingTransport(self.trace, self._inner or httpx.AsyncHTTPTransport(), client=self.name,
                                names=self._names)
        return httpx.AsyncClient(transport=wire, timeout=httpx.Timeout(30.0)), wire

    async def discover(self, *base_urls: str) -> list[AgentCard]:
        """Fetch each agent's card from ``<base_url>/.well-known/agent-card.json`` and remember it.

        Raises:
            a2a.client.AgentCardResolutionError: an agent did not answer with a valid card.
            a2a.utils.signing.SignatureVerificationError: with ``verify_card``, a card whose signature
                does not verify (changed, unsigned, or signed by an unknown key).
        """
        cards = []
        http, wire = self._http()
        async with http:
            for url in base_urls:
                card = await A2ACardResolver(http, url).get_agent_card(signature_verifier=self.verify_card)
                self.cards[url] = card
                wire.name(url, card.name)  # later events, and those already recorded, use the card's name
                self._names.update(wire.names)
                cards.append(card)
        return cards

    def skills(self) -> list[SkillRef]:
        """Every skill of every discovered agent ("what can you do?")."""
        return [SkillRef(card.name, url, s) for url, card in self.cards.items() for s in card.skills]

    def choose(self, request: str) -> SkillRef | None:
        """The best skill for ``request`` by :func:`skill_score`, or None when nothing matches."""
        scored = [(skill_score(ref.skill, request), i, ref) for i, ref in enumerate(self.skills())]
        best = max(scored, default=None, key=lambda t: (t[0], -t[1]))
        return best[2] if best and best[0] > 0 else None

    @asynccontextmanager
    async def client(self, url: str, *, streaming: bool = True) -> AsyncIterator[Any]:
        """An SDK client (JSON-RPC binding) for the agent at ``url``, traced into :attr:`trace`.

        The card is fetched first if this agent was not discovered yet. Use ``async with`` in one cell.
        """
        card = self.cards.get(url) or (await self.discover(url))[0]
        http, _ = self._http()
        async with http:
            config = ClientConfig(streaming=streaming, httpx_client=http,
                                  supported_protocol_bindings=[TransportProtocol.JSONRPC])
            interceptors = None
            if self.credentials:
                from .a2a_security import auth_interceptors

                interceptors = auth_interceptors(self.credentials)
            async with await create_client(card, client_config=config, interceptors=interceptors) as client:
                yield client

    async def stream(self, url: str, message: Message, *, cut_after: int | None = None
                     ) -> AsyncIterator[StreamResponse]:
        """Send ``message`` to the agent at ``url`` with ``SendStreamingMessage``; yield its events.

        ``cut_after=n`` closes the connection after ``n`` events, as a dropped network would (lesson 11
        uses it to show :meth:`resume`).
        """
        async with self.client(url) as client:
            seen = 0
            async for event in client.send_message(SendMessageRequest(message=message)):
                yield event
                seen += 1
                if cut_after is not None and seen >= cut_after:
                    break

    async def send(self, url: str, message: Message, *, return_immediately: bool = False) -> Task | Message:
        """``SendMessage`` without streaming: the task when it is finished or paused, or at once with
        ``return_immediately`` (then follow it with :meth:`get_task`, :meth:`resume` or a webhook)."""
        request = SendMessageRequest(message=message,
                                     configuration=SendMessageConfiguration(return_immediately=return_immediately))
        async with self.client(url, streaming=False) as client:
            async for event in client.send_message(request):
                return event.task if event.HasField("task") else event.message
        raise RuntimeError("the agent answered SendMessage with nothing")

    async def resume(self, url: str, fold: "TaskFold", *,
                     on_event: Callable[[StreamResponse], None] | None = None) -> "TaskFold":
        """Reconnect to a task whose stream broke: ``SubscribeToTask`` and fold what follows into ``fold``.

        The agent sends the task as it is now, then every later event. A task that finished meanwhile
        cannot be subscribed to (the SDK answers ``UnsupportedOperationError``): then its ``GetTask``
        snapshot is folded instead. Either way ``fold`` ends where the agent's task is.

        Returns:
            ``fold``, updated.
        """
        task_id = fold.task.id
        try:
            async with self.client(url) as client:
                async for event in client.subscribe(SubscribeToTaskRequest(id=task_id)):
                    fold.apply(event)
                    if on_event is not None:
                        on_event(event)
        except A2AError:
            snapshot = await self.get_task(url, task_id)
            event = StreamResponse(task=snapshot)
            fold.apply(event)
            if on_event is not None:
                on_event(event)
        return fold

    async def list_tasks(self, url: str, *, state: str | None = None, context_id: str = "", page_size: int = 0,
                         page_token: str = "", include_artifacts: bool = False) -> ListTasksResponse:
        """``ListTasks``: the agent's tasks, newest first, filtered and paged.

        Args:
            state: a state in any spelling (``"completed"``, ``"TASK_STATE_COMPLETED"``), or None for all.
            context_id: only the tasks of one conversation.
            page_size: at most this many (0: the agent's default, 50).
            page_token: the ``nextPageToken`` of the previous page.
            include_artifacts: also return each task's artifacts.
        """
        request = ListTasksRequest(context_id=context_id, page_token=page_token,
                                   include_artifacts=include_artifacts)
        if state:
            request.status = TaskState.Value(wire_name(state_of(state)))
        if page_size:
            request.page_size = page_size
        async with self.client(url, streaming=False) as client:
            return await client.list_tasks(request)

    async def set_push(self, url: str, task_id: str, webhook: str, token: str) -> TaskPushNotificationConfig:
        """``CreateTaskPushNotificationConfig``: ask the agent to POST this task's updates to ``webhook``."""
        async with self.client(url, streaming=False) as client:
            return await client.create_task_push_notification_config(
                TaskPushNotificationConfig(task_id=task_id, url=webhook, token=token))

    async def push_configs(self, url: str, task_id: str) -> list[TaskPushNotificationConfig]:
        """``ListTaskPushNotificationConfigs``: the webhooks registered for a task."""
        async with self.client(url, streaming=False) as client:
            response = await client.list_task_push_notification_configs(
                ListTaskPushNotificationConfigsRequest(task_id=task_id))
            return list(response.configs)

    async def get_push(self, url: str, task_id: str, config_id: str) -> TaskPushNotificationConfig:
        """``GetTaskPushNotificationConfig``: one registered webhook."""
        async with self.client(url, streaming=False) as client:
            return await client.get_task_push_notification_config(
                GetTaskPushNotificationConfigRequest(task_id=task_id, id=config_id))

    async def delete_push(self, url: str, task_id: str, config_id: str) -> None:
        """``DeleteTaskPushNotificationConfig``: stop the agent calling that webhook."""
        async with self.client(url, streaming=False) as client:
            await client.delete_task_push_notification_config(
                DeleteTaskPushNotificationConfigRequest(task_id=task_id, id=config_id))

    async def delegate(self, request: str, *, answer: Answerer | None = None, skill: SkillRef | None = None,
                       on_event: Callable[[StreamResponse], None] | None = None,
                       max_turns: int = 3, authenticate: Callable[[str], dict[str, str]] | None = None,
                       cut_after: int | None = None) -> Delegation:
        """Send ``request`` to the agent whose skill fits best; follow the task to its end.

        Args:
            request: the task in plain words, e.g. ``"get the company's 2024 revenue"``.
            answer: called with the agent's question when the task is ``input-required``; its
                (possibly awaitable) reply is sent back on the same task. Without it, the
                delegation stops in ``input-required``.
            skill: use this skill instead of :meth:`choose`.
            on_event: called with every stream event as it arrives (e.g. to print progress).
            max_turns: at most this many ``input-required``/``auth-required`` turns.
            authenticate: called with the agent's message when the task is ``auth-required``; returns
                the credentials to use from now on (``{"apiKey": "..."}``), and the same task continues.
            cut_after: drop the first connection after this many events (a network failure, for
                lesson 11); the orchestrator reconnects with :meth:`resume`.

        A stream that ends before the task is finished or waiting (a dropped connection, an agent
        that closes early) is resumed with ``SubscribeToTask``.

        Returns:
            A :class:`Delegation`; its ``fold.state`` is terminal, or ``input-required``/``auth-required``.

        Raises:
            LookupError: no discovered skill matches ``request``.
            a2a.utils.errors.A2AError: the agent answered with a protocol error.
        """
        ref = skill or self.choose(request)
        if ref is None:
            raise LookupError(f"no discovered agent has a skill for {request!r}; known: "
                              f"{[f'{s.agent}/{s.id}' for s in self.skills()]}")
        fold = TaskFold()
        turns: list[tuple[str, str]] = []
        message = user_message(request)
        # A span on the orchestrator's lane: the timeline shows how long it waited for the delegate.
        with self.trace.span(self.name, f"delegate to {ref.agent} / {ref.id}", layer="app"):
            while True:
                async for event in self.stream(ref.url, message, cut_after=cut_after):
                    fold.apply(event)
                    if on_event is not None:
                        on_event(event)
                cut_after = None
                if fold.task is not None and fold.state not in TERMINAL | INTERRUPTED:
                    await self.resume(ref.url, fold, on_event=on_event)
                helper = {"input-required": answer, "auth-required": authenticate}.get(fold.state or "")
                if helper is None or len(turns) >= max_turns:
                    return Delegation(ref, fold, turns)
                question = fold.status_text
                reply = helper(question)
                reply = await reply if asyncio.iscoroutine(reply) else reply
                if fold.state == "auth-required":
                    self.credentials.update(reply)
                    reply = "(authenticated with new credentials)"
                turns.append((question, str(reply)))
                message = user_message(str(reply), task_id=fold.task.id, context_id=fold.task.context_id)

    async def get_task(self, url: str, task_id: str) -> Task:
        """``GetTask``: the agent's current snapshot of a task."""
        async with self.client(url, streaming=False) as client:
            return await client.get_task(GetTaskRequest(id=task_id))

    async def cancel_task(self, url: str, task_id: str) -> Task:
        """``CancelTask``: ask the agent to stop a task; returns the task (``canceled``)."""
        async with self.client(url, streaming=False) as client:
            return await client.cancel_task(CancelTaskRequest(id=task_id))

    def report(self, delegation: Delegation) -> str:
        """The orchestrator's answer to its user, from a finished delegation."""
        state = delegation.state
        who = delegation.skill.agent
        if state == "completed":
            return f"{who} answered: {delegation.text}"
        if state in INTERRUPTED:
            return f"{who} needs more input: {delegation.fold.status_text}"
        if state in TERMINAL:
            return f"{who} ended the task as {state}: {delegation.fold.status_text}"
        return f"{who} left the task in state {state}"

    def __repr__(self) -> str:
        return f"Orchestrator({self.name!r}, agents={[c.name for c in self.cards.values()]})"


__all__ = ["LAYERS", "protocol_layers", "AskInput", "CourseRequestHandler", "Delegation", "FinanceAgentExecutor", "Orchestrator", "Reject",
           "RunQuery", "SkillRef", "TaskFold", "TaskMismatch", "agent_interfaces", "agent_message", "artifact_data",
           "artifact_text", "as_json", "build_agent_app", "describe_event", "finance_agent_card",
           "plan_finance_request", "skill_score", "start_agent", "summarize_rows", "user_message", "user_texts"]
