"""The MCP Tasks extension (``io.modelcontextprotocol/tasks``), both sides, on the mcp SDK's extension framework.

MCP 2026-07-28 moved tasks out of the core protocol (where 2025-11-25 had them as an
experimental feature) into an extension (SEP-2663; github.com/modelcontextprotocol/ext-tasks):
a client that declares the extension in a request's capabilities lets the server answer a
``tools/call`` with a **task handle** instead of the result::

    {"resultType": "task", "taskId": "...", "status": "working", "createdAt": "...",
     "lastUpdatedAt": "...", "ttlMs": 600000, "pollIntervalMs": 100}

The client then polls ``tasks/get`` (every ``pollIntervalMs``) until the task is
``completed`` (its ``result`` is the ``CallToolResult``), ``failed`` (its ``error``) or
``cancelled``; ``tasks/cancel`` stops it. The server decides per request; a client that did
not declare the extension always gets the plain result.

* :class:`TasksExtension` (server): an SDK ``Extension`` whose ``tools/call`` interceptor runs
  the chosen tools in the background and serves ``tasks/get`` and ``tasks/cancel``.
* :class:`TasksClient` (client): an SDK ``ClientExtension`` claiming ``resultType: "task"``;
  its resolver polls until the task ends, so ``client.call_tool(...)`` still returns a
  ``CallToolResult`` (:attr:`TasksClient.polls` counts the polls).

Deliberate shortcuts: tasks live in memory (one server process), ``input_required`` and
``tasks/update`` are not implemented (a tool that needs input runs without a task), and there
are no ``notifications/tasks`` pushes: clients poll.

Taught in lesson 10 (§7.1).
"""
from __future__ import annotations

import asyncio
import datetime as dt
import uuid
from dataclasses import dataclass, field
from typing import Any, Iterable, Literal

from mcp import types
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.server.extension import Extension, MethodBinding
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, ConfigDict, Field

IDENTIFIER = "io.modelcontextprotocol/tasks"
TERMINAL = ("completed", "failed", "cancelled")


class TaskIdParams(types.RequestParams):
    """``{"taskId": ...}``: the params of ``tasks/get`` and ``tasks/cancel``."""

    task_id: str = Field(alias="taskId")


class GetTaskRequest(types.Request[TaskIdParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    params: TaskIdParams


class CancelTaskRequest(types.Request[TaskIdParams, Literal["tasks/cancel"]]):
    method: Literal["tasks/cancel"] = "tasks/cancel"
    params: TaskIdParams


class CreateTaskResult(types.Result):
    """The task handle a server returns in lieu of a ``CallToolResult`` (``resultType: "task"``)."""

    model_config = ConfigDict(populate_by_name=True, extra="allow")
    result_type: Literal["task"] = Field(default="task", alias="resultType")
    task_id: str = Field(alias="taskId")
    status: str
    poll_interval_ms: int | None = Field(default=None, alias="pollIntervalMs")


class TaskState(BaseModel):
    """``tasks/get``'s answer: the task, with ``result`` (completed) or ``error`` (failed) inlined."""

    model_config = ConfigDict(populate_by_name=True, extra="allow")
    task_id: str = Field(alias="taskId")
    status: str
    status_message: str | None = Field(default=None, alias="statusMessage")
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class _Task:
    task_id: str
    tool: str
    job: asyncio.Task | None = None
    status: str = "working"
    created_at: str = field(default_factory=_now)
    updated_at: str = field(default_factory=_now)
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    message: str | None = None

    def wire(self, ttl_ms: int, poll_ms: int) -> dict[str, Any]:
        out = {"taskId": self.task_id, "status": self.status, "createdAt": self.created_at,
               "lastUpdatedAt": self.updated_at, "ttlMs": ttl_ms, "pollIntervalMs": poll_ms}
        if self.message:
            out["statusMessage"] = self.message
        if self.status == "completed":
            out["result"] = self.result
        if self.status == "failed":
            out["error"] = self.error
        return out


class TasksExtension(Extension):
    """Server side: run ``tools`` as tasks for clients that declare the extension.

    Args:
        tools: names of the tools that become tasks (long ones); others answer as usual.
        poll_interval_ms: the polling interval suggested to clients.
        ttl_ms: how long a finished task is kept (advertised; expired tasks are forgotten).

    Attributes:
        tasks: task id -> its state (for the lesson's tables).
    """

    identifier = IDENTIFIER

    def __init__(self, tools: Iterable[str], *, poll_interval_ms: int = 100, ttl_ms: int = 600_000) -> None:
        self.task_tools = set(tools)
        self.poll_interval_ms = poll_interval_ms
        self.ttl_ms = ttl_ms
        self.tasks: dict[str, _Task] = {}

    def methods(self) -> list[MethodBinding]:
        return [MethodBinding("tasks/get", TaskIdParams, self._get),
                MethodBinding("tasks/cancel", TaskIdParams, self._cancel)]

    @staticmethod
    def declared(ctx: Any) -> bool:
        """Did this request's client capabilities name the extension? (Decided per request.)"""
        capabilities = getattr(ctx.session, "client_capabilities", None)
        return bool(capabilities and capabilities.extensions and IDENTIFIER in capabilities.extensions)

    async def intercept_tool_call(self, params: Any, ctx: Any, call_next: Any) -> Any:
        if params.name not in self.task_tools or not self.declared(ctx):
            return await call_next(ctx)
        task = _Task(uuid.uuid4().hex, params.name)
        self.tasks[task.task_id] = task
        task.job = asyncio.create_task(self._run(task, ctx, call_next))
        return {"resultType": "task", **task.wire(self.ttl_ms, self.poll_interval_ms)}

    async def _run(self, task: _Task, ctx: Any, call_next: Any) -> None:
        try:
            result = await call_next(ctx)
            task.result = (result.model_dump(by_alias=True, mode="json", exclude_none=True)
                           if isinstance(result, BaseModel) else dict(result or {}))
            task.result.pop("resultType", None)
            task.status = "completed"
        except asyncio.CancelledError:
            task.status, task.message = "cancelled", task.message or "cancelled"
        except MCPError as e:
            task.status, task.error = "failed", {"code": e.error.code, "message": e.error.message}
        except Exception as e:  # the tool's own failure the SDK did not turn into isError
            task.status, task.error = "failed", {"code": types.INTERNAL_ERROR, "message": type(e).__name__}
        task.updated_at = _now()

    def _find(self, params: TaskIdParams) -> _Task:
        task = self.tasks.get(params.task_id)
        if task is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown task: {params.task_id}")
        return task

    async def _get(self, ctx: Any, params: TaskIdParams) -> dict[str, Any]:
        return self._find(params).wire(self.ttl_ms, self.poll_interval_ms)

    async def _cancel(self, ctx: Any, params: TaskIdParams) -> dict[str, Any]:
        task = self._find(params)
        if task.status not in TERMINAL and task.job is not None:
            task.message = "cancelled by the client"
            task.job.cancel()
            await asyncio.gather(task.job, return_exceptions=True)
        return {}


class TasksClient(ClientExtension):
    """Client side: declare the extension and resolve task handles by polling ``tasks/get``.

    Attributes:
        polls: ``tasks/get`` requests sent, per task id.
        seen: the task handles received (``CreateTaskResult``).
    """

    identifier = IDENTIFIER

    def __init__(self) -> None:
        self.polls: dict[str, int] = {}
        self.seen: list[CreateTaskResult] = []

    def claims(self) -> list[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=CreateTaskResult, resolve=self._resolve)]

    async def _resolve(self, handle: CreateTaskResult, ctx: ClaimContext) -> types.CallToolResult:
        self.seen.append(handle)
        interval = (handle.poll_interval_ms or 100) / 1000
        while True:
            await asyncio.sleep(interval)
            state = await ctx.session.send_request(GetTaskRequest(params=TaskIdParams(taskId=handle.task_id)),
                                                   TaskState)
            self.polls[handle.task_id] = self.polls.get(handle.task_id, 0) + 1
            if state.status == "completed":
                return types.CallToolResult.model_validate(state.result or {})
            if state.status in ("failed", "cancelled"):
                error = state.error or {}
                raise MCPError(code=error.get("code", types.INTERNAL_ERROR),
                               message=f"task {state.status}: {error.get('message') or state.status_message or ''}")


def reports_server(seconds: float = 0.5) -> tuple[Any, TasksExtension]:
    """A server whose ``build_report`` (slow) runs as a task for clients that declare the extension.

    Returns:
        ``(server, extension)``.
    """
    from mcp.server import MCPServer

    tasks = TasksExtension(["build_report"])
    server = MCPServer("reports", log_level="WARNING", extensions=[tasks])

    @server.tool()
    async def build_report(quarter: str) -> str:
        """Build the quarterly report (slow: runs as a task when the client supports tasks)."""
        await asyncio.sleep(seconds)
        return f"report for {quarter}: revenue up 12%"

    return server, tasks
