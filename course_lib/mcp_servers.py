"""The course's MCP servers, built on the official SDK's ``MCPServer`` and done properly.

* :class:`CourseMCPServer`: ``MCPServer`` with the error semantics the MCP spec asks for
  and the SDK leaves loose (modelcontextprotocol/servers#4159: an unknown tool answered as a tool
  result; modelcontextprotocol/python-sdk#3067: misspelled arguments silently dropped):

  - an **unknown tool** is a protocol error, JSON-RPC ``-32602`` naming the tool (the SDK
    answers with an ``isError`` result instead);
  - **arguments are validated** against the advertised ``inputSchema`` (``fastjsonschema``)
    before the tool body runs; every tool's schema says ``additionalProperties: false``, so a
    misspelled key (``{"path": ...}`` for ``topic``) is rejected, naming the key, instead of
    being silently dropped; messages and logs name fields, never the caller's values;
  - a tool that **raises** gives a result with ``isError: true`` and a one-line message;
    the server log gets one line, not a traceback (``ToolError("...")`` shows its text to
    the client; any other exception shows only its type);
  - values reach the tool as its schema says: an ``integer`` sent as ``60.0`` arrives as ``60``
    (:mod:`course_lib.schema_values`); ``true`` is never an integer;
  - an **unknown prompt** or bad prompt arguments (missing, unexpected, not strings) are
    JSON-RPC ``-32602`` in both protocol eras (the SDK answers code 0 or -32603);
  - over streamable HTTP, JSON-RPC is checked as on stdio and idle sessions expire
    (:meth:`CourseMCPServer.streamable_http_app`, :class:`~course_lib.mcp_transports.StrictJSONRPC`);
  - quiet logging by default (``log_level="WARNING"``: SDK-NOTES §1.2).

* :func:`project_manager_server`: the seed's project-manager server (seed 001 §19.3) with
  tasks in SQLite (standard ``sqlite3``), ids from the database, enum-checked ``status``
  and ``priority``, a clear error for an unknown task, a resource listing the tasks (and a
  template for one task), and the code-review prompt (seed 001 §19.2).
* :func:`wiki_server`: the company-wiki search of exercise 02 as an MCP server (exercises 08-10).
* :func:`demo_server`: small tools for the transport lessons (echo, big payloads, a crash).

Run one over stdio: ``python -m course_lib.mcp_servers project-manager`` (or ``wiki``, ``demo``).

Taught in lesson 08 (used in 09 and 10).
"""
# No `from __future__ import annotations`: the SDK reads tool annotations at run time, and the resolvers
# of lesson 10 are local functions that string annotations could not find.

import dataclasses
import functools
import json
import logging
import os
import sqlite3
import sys
import threading
from datetime import datetime, timezone
from typing import Annotated, Any, Literal

import fastjsonschema
from mcp import types
from mcp.server import MCPServer
from mcp.server.mcpserver import AcceptedElicitation, Context, Elicit, ElicitationResult, Resolve, Sample
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, Field

from .examples import WIKI_PAGES, WIKI_SPACES, search_wiki
from .schema_values import integral_to_int

logger = logging.getLogger(__name__)

Priority = Literal["low", "medium", "high"]
Status = Literal["todo", "in_progress", "done"]


class CourseMCPServer(MCPServer):
    """``MCPServer`` with strict tool errors, strict arguments and strict prompt errors (see the module docstring).

    Accepts every ``MCPServer`` argument; ``log_level`` defaults to ``"WARNING"``.

    Example:
        >>> server = CourseMCPServer("demo")
        >>> @server.tool()
        ... def read_doc(topic: str = "") -> str:
        ...     return topic
        >>> server.tool_schema("read_doc")["additionalProperties"]
        False
    """

    def __init__(self, name: str | None = None, *args: Any, log_level: Any = "WARNING", **kwargs: Any) -> None:
        super().__init__(name, *args, log_level=log_level, **kwargs)
        self.middleware.append(self._strict_tool_calls)
        self.middleware.append(self._strict_prompts)
        from .mcp_features import install

        install(self)  # logging/setLevel, completion/complete, resources/subscribe (lesson 08)

    def add_tool(self, fn: Any, name: str | None = None, *args: Any, **kwargs: Any) -> None:
        """Register a tool (see ``MCPServer.add_tool``); its input schema gets ``additionalProperties: false``."""
        super().add_tool(fn, name, *args, **kwargs)
        tool = self._tool_manager.get_tool(name or fn.__name__)
        if tool is not None:
            tool.parameters.setdefault("additionalProperties", False)

    def streamable_http_app(self, **kwargs: Any) -> Any:
        """The SDK's streamable-HTTP app (same arguments), with the kit's transport rules.

        JSON-RPC is checked as on stdio (:class:`~course_lib.mcp_transports.StrictJSONRPC`: a
        batch, ``null`` or an invalid id get -32600, a half-sent body one log line), and
        sessions expire: ``session_idle_timeout`` defaults to
        :data:`~course_lib.mcp_transports.SESSION_IDLE_TIMEOUT` seconds and ``max_sessions`` to
        :data:`~course_lib.mcp_transports.MAX_SESSIONS`, so abandoned sessions cannot grow memory
        without bound.
        """
        from .mcp_transports import MAX_SESSIONS, SESSION_IDLE_TIMEOUT, install_strict_http

        kwargs.setdefault("session_idle_timeout", SESSION_IDLE_TIMEOUT)
        kwargs.setdefault("max_sessions", MAX_SESSIONS)
        app = super().streamable_http_app(**kwargs)
        install_strict_http(self.session_manager)
        return app

    def tool_schema(self, name: str) -> dict[str, Any] | None:
        """The ``inputSchema`` advertised for tool ``name`` (None if there is no such tool)."""
        tool = self._tool_manager.get_tool(name)
        return None if tool is None else tool.parameters

    async def _strict_tool_calls(self, ctx: Any, call_next: Any) -> Any:
        # SDK middleware: runs before the SDK looks the tool up or validates anything (both eras).
        if ctx.method != "tools/call" or not isinstance(ctx.params, dict):
            return await call_next(ctx)
        name = ctx.params.get("name")
        schema = self.tool_schema(name) if isinstance(name, str) else None
        if schema is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {name}", data={"name": name})
        arguments = ctx.params.get("arguments")
        arguments = {} if arguments is None else arguments
        problems = self._argument_problems(schema, arguments)
        if problems:
            logger.info("Tool %r rejected arguments: %s", name, problems)  # field names only, no values
            return types.CallToolResult(is_error=True, content=[types.TextContent(
                type="text", text=f"Invalid arguments for tool {name}: " + "; ".join(problems))])
        converted = integral_to_int(arguments, schema)  # 60.0 for an integer arrives as 60 (schema_values)
        if converted is not arguments:
            ctx = dataclasses.replace(ctx, params={**ctx.params, "arguments": converted})
        return await call_next(ctx)

    def _argument_problems(self, schema: dict[str, Any], arguments: Any) -> list[str]:
        """Checked before a tool runs (:func:`argument_problems`); a subclass that validates later returns []."""
        return argument_problems(schema, arguments)

    async def _strict_prompts(self, ctx: Any, call_next: Any) -> Any:
        # MCP server/prompts "Error Handling": an invalid prompt name or missing required arguments are
        # -32602 Invalid params. The SDK answers code 0 (2025-11-25) or -32603 (2026-07-28) and logs a traceback.
        if ctx.method != "prompts/get" or not isinstance(ctx.params, dict):
            return await call_next(ctx)
        name = ctx.params.get("name")
        prompt = self._prompt_manager.get_prompt(name) if isinstance(name, str) else None
        if prompt is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown prompt: {name}", data={"name": name})
        problems = prompt_argument_problems([(a.name, a.required) for a in prompt.arguments or []],
                                            ctx.params.get("arguments"))
        if problems:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Invalid arguments for prompt {name}: {problems[0]}",
                           data={"name": name, "problems": problems})
        try:
            return await call_next(ctx)
        except MCPError:
            raise
        except Exception as exc:  # the prompt function itself failed: the server's fault, one log line
            cause = exc.__cause__ if exc.__cause__ is not None else exc
            logger.warning("Prompt %r failed: %s", name, type(cause).__name__)
            raise MCPError(code=types.INTERNAL_ERROR, message=f"Prompt {name} failed to render") from None

    async def _handle_call_tool(self, ctx: Any, params: Any) -> Any:
        # The SDK logs a full traceback for a tool that raises; a course server logs one line.
        from .mcp_features import LevelFilteringContext  # Context that honours logging/setLevel

        context = LevelFilteringContext(request_context=ctx, mcp_server=self, input_params=params,
                                        subscriptions=self._subscriptions)
        try:
            return await self.call_tool(params.name, params.arguments or {}, context)
        except MCPError:
            raise
        except Exception as exc:
            from mcp.server.mcpserver.exceptions import UnexpectedToolError

            cause = exc.__cause__ if exc.__cause__ is not None else exc
            level = logging.WARNING if isinstance(exc, UnexpectedToolError) else logging.INFO  # ToolError: expected
            logger.log(level, "Tool %r failed: %s", params.name, type(cause).__name__)
            return types.CallToolResult(content=[types.TextContent(type="text", text=str(exc))], is_error=True)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, tools={sorted(t.name for t in self._tool_manager.list_tools())})"


def argument_problems(schema: dict[str, Any], arguments: Any) -> list[str]:
    """What is wrong with ``arguments`` for ``schema``: short sentences that name fields, never values.

    Validation uses ``fastjsonschema`` (a compiled JSON Schema validator, cached per schema;
    it imports in milliseconds, which matters for stdio servers started per session).

    Returns:
        An empty list when the arguments are valid, else one sentence for the first problem.
    """
    if not isinstance(arguments, dict):
        return ["arguments must be a JSON object"]
    problems = []
    allowed = sorted(schema.get("properties", {}))
    extra = sorted(set(arguments) - set(allowed))
    if extra and schema.get("additionalProperties") is False:  # a misspelled key is named first
        problems.append(f"unexpected argument{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra))}"
                        f" (allowed: {', '.join(allowed) or 'none'})")
        arguments = {k: v for k, v in arguments.items() if k not in extra}
    try:
        _validator(schema)(arguments)
    except fastjsonschema.JsonSchemaValueException as e:
        where = ".".join(str(p) for p in e.path[1:])
        if e.rule == "required" and not where:
            missing = [k for k in e.rule_definition if k not in arguments]
            problems.append(f"missing required argument {', '.join(map(repr, missing))}")
        else:
            problems.append(e.message.replace("data.", "argument ", 1).replace("data ", "arguments ", 1))
    return problems


def prompt_argument_problems(declared: list[tuple[str, bool]], arguments: Any) -> list[str]:
    """What is wrong with ``prompts/get`` arguments: short sentences naming arguments, never values.

    Args:
        declared: ``(name, required)`` for each argument the prompt declares.
        arguments: the request's ``arguments`` (MCP: an object of strings, or absent).

    Returns:
        ``[]`` when the arguments fit, else one sentence per problem (unexpected names, missing
        required ones, values that are not strings).
    """
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        return ["arguments must be an object of strings"]
    names = [n for n, _ in declared]
    problems = []
    extra = sorted(set(arguments) - set(names))
    if extra:
        problems.append(f"unexpected argument{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra))}"
                        f" (allowed: {', '.join(names) or 'none'})")
    missing = [n for n, required in declared if required and n not in arguments]
    if missing:
        problems.append(f"missing required argument{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))}")
    not_text = [k for k, v in arguments.items() if k in names and not isinstance(v, str)]
    if not_text:
        problems.append(f"prompt arguments are strings: {', '.join(map(repr, not_text))} "
                        f"{'is' if len(not_text) == 1 else 'are'} not")
    return problems


_COMPILED: dict[int, tuple[dict[str, Any], Any]] = {}  # id(schema) -> (the schema, its validator)
_COMPILED_LOCK = threading.Lock()


def _validator(schema: dict[str, Any]) -> Any:
    # Keyed by the schema object (kept alive in the entry, so its id cannot be reused), not by its JSON:
    # serialising the schema on every call cost more than validating. Bounded: an old entry goes first.
    hit = _COMPILED.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    validator = _compile_schema(json.dumps(schema, sort_keys=True))
    with _COMPILED_LOCK:
        if len(_COMPILED) >= 512:
            _COMPILED.pop(next(iter(_COMPILED)))
        _COMPILED[id(schema)] = (schema, validator)
    return validator


@functools.lru_cache(maxsize=256)
def _compile_schema(schema_json: str) -> Any:
    return fastjsonschema.compile(json.loads(schema_json))


# -- the project manager (seed 001 §19.3), on SQLite ------------------------------------------

class Task(BaseModel):
    """A task row, as tools return it."""

    id: int
    title: str
    priority: Priority
    assignee: str
    status: Status
    created_at: str


class TaskStore:
    """Tasks in a SQLite database (``":memory:"`` or a file path); safe to call from worker threads.

    The database enforces what the schemas promise: ``CHECK`` constraints on ``priority`` and
    ``status``, a non-empty title, and ids from ``INTEGER PRIMARY KEY AUTOINCREMENT`` (never
    ``len(tasks) + 1``, which repeats ids after a delete).
    """

    SCHEMA = """CREATE TABLE IF NOT EXISTS tasks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        title TEXT NOT NULL CHECK (length(title) > 0),
        priority TEXT NOT NULL CHECK (priority IN ('low', 'medium', 'high')),
        assignee TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('todo', 'in_progress', 'done')),
        created_at TEXT NOT NULL)"""

    def __init__(self, path: str = ":memory:") -> None:
        self.path = path
        # Sync tools run in worker threads (SDK-NOTES §1.2): one connection, guarded by a lock.
        self._db = sqlite3.connect(path, check_same_thread=False)
        self._db.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        with self._lock, self._db:
            self._db.execute(self.SCHEMA)

    def create(self, title: str, priority: str = "medium", assignee: str = "unassigned") -> Task:
        """Insert a task (status ``todo``); returns it with its database id."""
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        with self._lock, self._db:
            cur = self._db.execute("INSERT INTO tasks (title, priority, assignee, status, created_at) "
                                   "VALUES (?, ?, ?, 'todo', ?)", (title, priority, assignee, now))
            row = self._db.execute("SELECT * FROM tasks WHERE id = ?", (cur.lastrowid,)).fetchone()
        return Task(**dict(row))

    def list(self, status: str | None = None) -> list[Task]:
        """All tasks (or those with ``status``), oldest first."""
        with self._lock:
            if status is None:
                rows = self._db.execute("SELECT * FROM tasks ORDER BY id").fetchall()
            else:
                rows = self._db.execute("SELECT * FROM tasks WHERE status = ? ORDER BY id", (status,)).fetchall()
        return [Task(**dict(r)) for r in rows]

    def get(self, task_id: int) -> Task | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM tasks WHERE id = ?", (task_id,)).fetchone()
        return None if row is None else Task(**dict(row))

    def update_status(self, task_id: int, status: str) -> Task | None:
        """Set a task's status; returns the updated task, or None when no task has that id."""
        with self._lock, self._db:
            cur = self._db.execute("UPDATE tasks SET status = ? WHERE id = ?", (status, task_id))
        return self.get(task_id) if cur.rowcount else None

    def close(self) -> None:
        self._db.close()

    def __repr__(self) -> str:
        return f"TaskStore({self.path!r})"


CODE_REVIEW_PROMPT = """Please review the following {language} code as an experienced engineer.
Point out bugs, unclear names, missing tests and security problems, most important first,
and suggest a concrete fix for each.

```{language}
{code}
```"""


#: What ``completion/complete`` offers for the code-review prompt's ``language`` argument.
CODE_REVIEW_LANGUAGES = ["python", "javascript", "typescript", "java", "go", "rust", "c", "cpp", "csharp",
                         "kotlin", "swift", "ruby", "php", "sql", "shell"]


def project_manager_server(db_path: str = ":memory:", *, interactive: bool = False) -> CourseMCPServer:
    """The seed's project-manager MCP server: three tools, a resource (+ template), a prompt.

    Args:
        db_path: SQLite database file, or ``":memory:"`` (default: a fresh empty database).
        interactive: also add the tools of lesson 10 that call back into the client
            (sampling, elicitation, progress and logging; see :func:`add_interactive_tools`).

    Returns:
        A :class:`CourseMCPServer` named ``project-manager``; its store is ``server.store``.
    """
    server = CourseMCPServer("project-manager", instructions="Create, list and update project tasks.")
    store = TaskStore(db_path)
    server.store = store  # type: ignore[attr-defined]

    async def changed(task: Task) -> None:
        # Subscribers of tasks://all (and of this task) hear of it, in both eras (course_lib.mcp_features).
        from .mcp_features import resource_updated

        await resource_updated(server, "tasks://all")
        await resource_updated(server, f"tasks://{task.id}")

    @server.tool()
    async def create_task(title: Annotated[str, Field(min_length=1, description="Task title")],
                          priority: Priority = "medium",
                          assignee: Annotated[str, Field(description="Who does it")] = "unassigned") -> Task:
        """Create a new task (status 'todo'); returns the task with its id."""
        task = store.create(title, priority, assignee)
        await changed(task)
        return task

    @server.tool()
    def list_tasks(status: Status | None = None) -> list[Task]:
        """List all tasks, or only those with the given status."""
        return store.list(status)

    @server.tool()
    async def update_task_status(task_id: int, status: Status) -> Task:
        """Change the status of a task; returns the updated task."""
        task = store.update_status(task_id, status)
        if task is None:
            raise ToolError(f"no task with id {task_id}; list_tasks shows the existing ids")
        await changed(task)
        return task

    @server.resource("tasks://all", mime_type="application/json")
    def all_tasks() -> str:
        """Every task, as a JSON array (read-only data for the model's context)."""
        return json.dumps([t.model_dump() for t in store.list()], ensure_ascii=False)

    @server.resource("tasks://{task_id}", mime_type="application/json")
    def one_task(task_id: str) -> str:
        """One task by id, as JSON."""
        task = store.get(int(task_id)) if task_id.isdigit() else None
        if task is None:
            from mcp.server.mcpserver.exceptions import ResourceNotFoundError
            raise ResourceNotFoundError(f"no task with id {task_id}")
        return task.model_dump_json()

    @server.prompt()
    def code_review(code: str, language: str = "python") -> str:
        """A code-review prompt template (seed 001 §19.2, 'code_review')."""
        return CODE_REVIEW_PROMPT.format(code=code, language=language)

    from .mcp_features import add_completer

    add_completer(server, "prompt", "code_review", "language", CODE_REVIEW_LANGUAGES)
    add_completer(server, "template", "tasks://{task_id}", "task_id", lambda typed, _: [str(t.id) for t in store.list()])
    if interactive:
        add_interactive_tools(server, store)
    return server


class ReviewSlot(BaseModel):
    """What the server asks the user when scheduling a review (elicitation schemas must be flat)."""

    date: str = Field(description="Day of the review, YYYY-MM-DD")
    reviewer: str = Field(description="Who reviews")
    minutes: int = Field(default=30, ge=15, le=120, description="Length of the meeting")


def _task_lines(store: TaskStore) -> str:
    return "\n".join(f"- #{t.id} {t.title} ({t.priority}, {t.status}, {t.assignee})" for t in store.list()) \
        or "(no tasks)"


def add_interactive_tools(server: CourseMCPServer, store: TaskStore) -> None:
    """Tools that need the client: sampling, elicitation, progress and logging (lesson 10).

    Each server→client feature comes twice: the *direct* style (``ctx.session.create_message``,
    ``ctx.elicit``), which needs a back-channel and so works only in the 2025-11-25 era, and
    the *portable* resolver style (``Annotated[..., Resolve(fn)]`` returning ``Sample``/``Elicit``),
    which the SDK maps to a real request in 2025-11-25 and to ``input_required`` + a client
    retry in 2026-07-28.
    """
    def summary_request() -> Sample:
        # A resolver: runs on the server before the tool body; its return value says what to ask the client.
        return Sample([types.SamplingMessage(role="user", content=types.TextContent(
            type="text", text=f"Summarize these project tasks in one sentence:\n{_task_lines(store)}"))],
            system_prompt="You are a concise project assistant.", max_tokens=80)

    @server.tool()
    async def summarize_tasks(summary: Annotated[types.CreateMessageResult, Resolve(summary_request)]) -> str:
        """Summarize all tasks in one sentence, written by the client's LLM (sampling, both eras)."""
        return f"{summary.content.text} (written by {summary.model})"

    @server.tool()
    async def summarize_tasks_direct(ctx: Context) -> str:
        """Same as summarize_tasks, asking with ctx.session.create_message (2025-11-25 era only)."""
        result = await ctx.session.create_message(
            messages=[types.SamplingMessage(role="user", content=types.TextContent(
                type="text", text=f"Summarize these project tasks in one sentence:\n{_task_lines(store)}"))],
            system_prompt="You are a concise project assistant.", max_tokens=80)
        return f"{result.content.text} (written by {result.model})"

    def slot_request(task_id: int) -> Elicit[ReviewSlot]:
        task = store.get(task_id)
        title = task.title if task else f"task {task_id}"
        return Elicit(f"When should {title!r} be reviewed, and by whom?", ReviewSlot)

    @server.tool()
    async def schedule_review(task_id: int,
                              answer: Annotated[ElicitationResult[ReviewSlot], Resolve(slot_request)]) -> str:
        """Schedule a review meeting for a task; asks the user for date and reviewer (elicitation, both eras)."""
        if store.get(task_id) is None:
            raise ToolError(f"no task with id {task_id}")
        if not isinstance(answer, AcceptedElicitation):
            return f"review of task {task_id} not scheduled (the user chose {answer.action})"
        slot = answer.data
        return f"review of task {task_id} on {slot.date} with {slot.reviewer} ({slot.minutes} min)"

    @server.tool()
    async def schedule_review_direct(task_id: int, ctx: Context) -> str:
        """Same as schedule_review, asking with ctx.elicit (2025-11-25 era only)."""
        answer = await ctx.elicit(f"When should task {task_id} be reviewed, and by whom?", ReviewSlot)
        if answer.action != "accept":
            return f"review of task {task_id} not scheduled (the user chose {answer.action})"
        return f"review of task {task_id} on {answer.data.date} with {answer.data.reviewer}"

    @server.tool()
    async def import_tasks(titles: list[str], ctx: Context) -> list[Task]:
        """Create several tasks, reporting progress and logging each step."""
        created = []
        for i, title in enumerate(titles, start=1):
            created.append(store.create(title))
            await ctx.info(f"created task #{created[-1].id}: {title}")
            await ctx.report_progress(i, len(titles), message=f"imported {title!r}")  # the counts are the progress itself
        return created


# -- the company wiki (exercise 02's search_wiki), as an MCP server -----------------------------

class WikiHit(BaseModel):
    """One search result: the page id (for ``wiki://pages/{id}``), its space, title and first words."""

    id: str
    space: str
    title: str
    snippet: str


def wiki_server() -> CourseMCPServer:
    """The company-wiki search as an MCP server: tool ``search_wiki``, resources ``wiki://pages/{page_id}``.

    The reference for exercises 08-10 (the learner writes their own in exercise 08).
    """
    server = CourseMCPServer("wiki", instructions="Search the company wiki and read its pages.")

    @server.tool(name="search_wiki")  # the function's own name would shadow examples.search_wiki
    def search_wiki_tool(query: Annotated[str, Field(min_length=1, description="What to look for")],
                         space: Literal[WIKI_SPACES] | None = None,  # type: ignore[valid-type]
                         limit: Annotated[int, Field(ge=1, le=20)] = 5) -> list[WikiHit]:
        """Search the company wiki (engineering, product, hr and finance pages). Use it for questions
        about internal processes, policies and plans; returns page ids, titles and snippets, best first."""
        return [WikiHit(**h) for h in search_wiki(query, space, limit)]

    @server.resource("wiki://pages/{page_id}", mime_type="text/markdown")
    def page(page_id: str) -> str:
        """A wiki page as Markdown."""
        p = next((p for p in WIKI_PAGES if p["id"] == page_id), None)
        if p is None:
            from mcp.server.mcpserver.exceptions import ResourceNotFoundError
            raise ResourceNotFoundError(f"no wiki page {page_id!r}")
        return f"# {p['title']}\n\n_space: {p['space']}_\n\n{p['text']}"

    @server.resource("wiki://spaces", mime_type="application/json")
    def spaces() -> str:
        """The wiki spaces and their page ids."""
        return json.dumps({s: [p["id"] for p in WIKI_PAGES if p["space"] == s] for s in WIKI_SPACES})

    from .mcp_features import add_completer

    add_completer(server, "template", "wiki://pages/{page_id}", "page_id", [p["id"] for p in WIKI_PAGES])
    return server


# -- small tools for the transport lessons ------------------------------------------------------

class ProcessInfo(BaseModel):
    pid: int
    python: str


def demo_server() -> CourseMCPServer:
    """Tools to exercise transports: ``echo``, ``add``, ``big_text``, ``crash``, ``where``."""
    server = CourseMCPServer("demo", instructions="Small tools to test MCP transports.")

    @server.tool()
    def echo(text: str) -> str:
        """Return the text unchanged (UTF-8 round trip)."""
        return text

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    def big_text(size: int = 1_000_000) -> str:
        """A string of ``size`` 'x' characters (to test large messages)."""
        return "x" * size

    @server.tool()
    def crash(exit_code: int = 1) -> str:
        """Kill the server process at once (to test a server dying during a call)."""
        sys.stderr.write(f"demo server: crashing on purpose with exit code {exit_code}\n")
        sys.stderr.flush()
        os._exit(exit_code)

    @server.tool()
    def where() -> ProcessInfo:
        """The server's process id and Python executable (which process answered?)."""
        return ProcessInfo(pid=os.getpid(), python=os.path.basename(sys.executable))

    return server


def _call_logger(path: str) -> Any:
    """Middleware appending ``<method> <tool name>`` to ``path`` for every request (no arguments logged)."""
    async def log_calls(ctx: Any, call_next: Any) -> Any:
        if ctx.request_id is not None:
            name = ctx.params.get("name", "") if isinstance(ctx.params, dict) else ""
            with open(path, "a", encoding="utf-8") as f:
                f.write(f"{ctx.method} {name}".rstrip() + "\n")
        return await call_next(ctx)
    return log_calls


SERVERS = {"project-manager": project_manager_server, "wiki": wiki_server, "demo": demo_server}


def main(argv: list[str] | None = None) -> None:
    """``python -m course_lib.mcp_servers NAME [stdio|streamable-http]``: run a course server."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in SERVERS:
        sys.exit(f"usage: python -m course_lib.mcp_servers {{{'|'.join(SERVERS)}}} [stdio]")
    server = SERVERS[argv[0]]()
    if os.environ.get("COURSE_MCP_CALL_LOG"):  # exercise checks: prove that calls reached this process
        server.middleware.append(_call_logger(os.environ["COURSE_MCP_CALL_LOG"]))
    from .mcp_transports import run_stdio_server

    run_stdio_server(server)


if __name__ == "__main__":
    main()
