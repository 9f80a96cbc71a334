"""Pre-flight check of a learner's machine, before a workshop: every layer the course uses, offline.

``course preflight`` runs each check below in turn, each bounded in time, and prints one line
per check (✅ pass, ⚠️ warning, ❌ fail with what to do). Nothing leaves the machine: the LLM is
the embedded mock, and every server binds 127.0.0.1 on a port the OS picks, so it works on
conference Wi-Fi or none. The whole run takes a few seconds (under a minute on a slow laptop).

================= =========================================================================
``python``        Python 3.10 or newer
``install``       this checkout's ``course_lib`` is the one imported; every requirement of
                  ``pyproject.toml`` installed at a version it accepts; the ``course`` command
``kernel``        the ``python3`` Jupyter kernel starts, runs *this* Python, imports course_lib
``widgets``       ipywidgets (kernel) and jupyterlab_widgets (front end) majors match, and the
                  JupyterLab extension is installed (else "Error displaying widget", ipywidgets#3577)
``mock-llm``      a full tool-call round trip through the ``openai`` client and the mock LLM
``mcp-memory``    an MCP ``tools/call`` to an in-process server (``Client(server)``)
``mcp-stdio``     the same over stdio, to a server in a subprocess of this Python
``mcp-http``      the same over streamable HTTP, to a server on 127.0.0.1
``a2a``           an A2A ``SendMessage`` to an agent on 127.0.0.1 (Agent Card, JSON-RPC)
``ports``         a free loopback port can be had; the default port of ``make lab`` is free
``state``         the learner's state folder is writable (progress, hints, flashcards)
================= =========================================================================

Each check is a function returning a one-line detail, raising :class:`PreflightFailure` (or
any exception) to fail and :class:`PreflightWarning` to warn; :data:`CHECKS` lists them in
order, so tests can simulate a broken piece by replacing one. Taught with: lesson 00 (the
environment check) and the instructor guide (``docs/instructor.md``).
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import os
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable
from .i18n import _
from .text_table import pad

if sys.version_info < (3, 11):  # pragma: no cover - the backport anyio installs on 3.10
    from exceptiongroup import BaseExceptionGroup

CHECK_TIMEOUT = 30.0  # seconds, per check
LAB_PORT = 8888  # `make lab`'s default port
#: how the stdio check starts its MCP server (tests replace it to simulate a broken server)
STDIO_SERVER = ["-m", "course_lib.preflight", "--serve-mcp-stdio"]


class PreflightFailure(RuntimeError):
    """A check failed; the message says what is wrong and what to do."""


class PreflightWarning(RuntimeError):
    """A check found something that works but deserves attention (e.g. a busy default port)."""


@dataclass(frozen=True)
class Result:
    """One line of the pre-flight report: ``status`` is ``pass``, ``warn`` or ``fail``; ``seconds`` its duration."""

    name: str
    status: str
    detail: str
    seconds: float

    @property
    def symbol(self) -> str:
        return {"pass": "✅", "warn": "⚠️ ", "fail": "❌"}[self.status]

    def line(self) -> str:
        return f"{self.symbol} {pad(self.name, 11)} {self.detail}  ({self.seconds:.1f} s)"

    def __repr__(self) -> str:
        return f"Result({self.name!r}, {self.status!r})"


# --- helpers --------------------------------------------------------------------------------------

def _run_async(fn: Callable[[], Awaitable[str]], timeout: float = CHECK_TIMEOUT) -> str:
    """Run ``fn()`` to completion on a fresh event loop, even when called from a running loop (a kernel)."""
    import anyio

    async def bounded() -> str:
        with anyio.fail_after(timeout):
            return await fn()

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return anyio.run(bounded)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(anyio.run, bounded).result()


def _quiet() -> None:
    # Deprecation notices of the 2026-07-28 MCP era and SDK INFO logs are noise in a checklist.
    warnings.filterwarnings("ignore", category=UserWarning, module=r"mcp\..*")
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    import logging

    for name in ("mcp", "httpx", "httpx2", "uvicorn", "a2a"):
        logging.getLogger(name).setLevel(logging.WARNING)


def _mcp_server():
    """A one-tool MCP server (``add``), the smallest thing every transport can carry."""
    from mcp.server import MCPServer

    server = MCPServer("preflight", log_level="WARNING")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    return server


async def _call_add(client: Any) -> int:
    result = await client.call_tool("add", {"a": 2, "b": 3})
    if result.is_error:
        raise PreflightFailure(_("tools/call returned an error: {content}").format(content=result.content))
    return (result.structured_content or {}).get("result")


# --- the checks -------------------------------------------------------------------------------

def check_python() -> str:
    """Python 3.10 or newer."""
    v = sys.version_info
    if v < (3, 10):
        raise PreflightFailure(_("Python {value} is too old: the course needs 3.10 or newer "
                                  "(run `make lab PYTHON=python3.12`, for example)").format(value=sys.version.split()[0]))
    return _("Python {version} at {path}").format(version=sys.version.split()[0], path=sys.executable)


def check_install() -> str:
    """This checkout's course_lib, every requirement of pyproject.toml at an accepted version."""
    from importlib import metadata

    from packaging.requirements import Requirement

    import course_lib

    from .course_map import exercises, lessons
    from .notebooks import ROOT

    here = Path(course_lib.__file__).resolve().parent
    if not (ROOT / "notebooks").is_dir():
        raise PreflightFailure(_("course_lib is imported from {here}, which is not a "
                                  "checkout of the course; run `make lab` in the repository "
                                  "folder").format(here=here))
    try:
        dist = metadata.distribution("agent-tool-systems")
    except metadata.PackageNotFoundError:
        raise PreflightFailure(_("the course is not installed in this Python: run `make lab` (or `make setup`)")) from None
    problems, count = [], 0
    for text in dist.requires or []:
        req = Requirement(text)
        if req.marker and not req.marker.evaluate({"extra": ""}):
            continue  # an optional extra (tests, browser)
        count += 1
        try:
            got = metadata.version(req.name)
        except metadata.PackageNotFoundError:
            problems.append(_("{name} missing").format(name=req.name))
            continue
        if req.specifier and not req.specifier.contains(got, prereleases=True):
            problems.append(_("{name} {got} (needs {wanted})").format(name=req.name, got=got, wanted=req.specifier))
    if problems:
        raise PreflightFailure("; ".join(problems) + _(": run `make setup` to reinstall from the lock"))
    script = Path(sys.executable).with_name("course" + (".exe" if os.name == "nt" else ""))
    note = "" if script.exists() else _("; note: no `course` command beside {executable}").format(executable=sys.executable)
    return (_("agent-tool-systems {version}: {count} requirements satisfied; {lessons} "
               "lessons, {exercises} exercises{note}").format(version=dist.version, count=count, lessons=len(lessons()),
                                                            exercises=len(exercises()), note=note))


def check_kernel() -> str:
    """The python3 Jupyter kernel starts, runs this Python and imports course_lib."""
    from jupyter_client.manager import start_new_kernel

    # The kernel's own stderr (start-up warnings, a crash) goes to a file: shown only on failure.
    log = tempfile.TemporaryFile("w+", encoding="utf-8")
    try:
        km, kc = start_new_kernel(kernel_name="python3", startup_timeout=CHECK_TIMEOUT, stderr=log)
    except Exception as e:
        log.seek(0)
        tail = " | ".join(log.read().strip().splitlines()[-3:])
        log.close()
        raise PreflightFailure(_("the python3 kernel does not start ({value}){value2}; run "
                                  "`make setup`").format(value=_reason(e), value2='; ' + tail if tail else '')) from e
    out: list[str] = []
    try:
        def hook(msg: dict) -> None:
            if msg["msg_type"] == "stream":
                out.append(msg["content"]["text"])
            elif msg["msg_type"] == "error":
                out.append(f"{msg['content']['ename']}: {msg['content']['evalue']}")

        reply = kc.execute_interactive("import sys, course_lib; print(sys.prefix)", timeout=CHECK_TIMEOUT,
                                       output_hook=hook)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
        log.close()
    text = "".join(out).strip()
    if reply["content"]["status"] != "ok":
        raise PreflightFailure(_("the python3 kernel cannot import course_lib ({text}); run "
                                  "`make setup`").format(text=text))
    if Path(text).resolve() != Path(sys.prefix).resolve():
        raise PreflightFailure(_("the python3 kernel runs the Python in {text}, not the "
                                  "course's ({prefix}): remove the stale kernel (`jupyter "
                                  "kernelspec list`, then `jupyter kernelspec remove "
                                  "python3`) and start the course with `make lab`").format(text=text, prefix=sys.prefix))
    return _("the python3 kernel starts, runs this Python and imports course_lib")


def check_widgets() -> str:
    """Widget majors match (kernel / front end) and the JupyterLab extension is installed."""
    from jupyter_core.paths import jupyter_path

    from .environment import widgets_compatible

    item = widgets_compatible()
    if not item.ok:
        raise PreflightFailure(item.note)
    ext = [Path(d) / "@jupyter-widgets" / "jupyterlab-manager" / "package.json" for d in jupyter_path("labextensions")]
    if not any(p.exists() for p in ext):
        raise PreflightFailure(_("the JupyterLab widgets extension is not installed (widgets would show "
                               "'Error displaying widget'): run `make setup`"))
    return item.value + _(", JupyterLab extension installed")


def check_mock_llm() -> str:
    """A tool-call round trip through the openai client and the mock LLM."""
    import json

    from .examples import WEATHER_TOOL, get_weather
    from .function_calling import as_dict
    from .mock_llm import MockLLM

    client = MockLLM().client(max_retries=0)
    messages: list[dict] = [{"role": "user", "content": "What's the weather in Shanghai?"}]
    first = client.chat.completions.create(model="mock-llm", messages=messages, tools=[WEATHER_TOOL])
    message = first.choices[0].message
    if not message.tool_calls:
        raise PreflightFailure(_("the mock LLM did not call the weather tool (it said {content!r})").format(content=message.content))
    messages.append(as_dict(message))
    for call in message.tool_calls:
        result = get_weather(**json.loads(call.function.arguments))
        messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)})
    answer = client.chat.completions.create(model="mock-llm", messages=messages, tools=[WEATHER_TOOL])
    text = answer.choices[0].message.content or ""
    if "28" not in text:
        raise PreflightFailure(_("the final answer does not use the tool result: {text!r}").format(text=text))
    return _("tool_calls → tool result → {text!r}").format(text=text)


def check_mcp_memory() -> str:
    """MCP tools/call to an in-process server."""
    from mcp import Client

    async def go() -> str:
        async with Client(_mcp_server()) as client:
            value = await _call_add(client)
            version = client.protocol_version
        if value != 5:
            raise PreflightFailure(_("add(2, 3) returned {value!r}").format(value=value))
        return _("tools/call add(2, 3) = 5 in-process (protocol {version})").format(version=version)

    return _run_async(go)


def check_mcp_stdio() -> str:
    """MCP tools/call over stdio to a server subprocess."""
    from mcp import Client, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=list(STDIO_SERVER))
    # A real file for the server's stderr (python-sdk#1103): a kernel's stderr has no file descriptor.
    with tempfile.TemporaryFile("w+", encoding="utf-8") as errlog:
        async def go() -> str:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                value = await _call_add(client)
            if value != 5:
                raise PreflightFailure(_("add(2, 3) returned {value!r}").format(value=value))
            return _("tools/call add(2, 3) = 5 over stdio (server in a subprocess of this Python)")

        try:
            return _run_async(go)
        except Exception as e:
            errlog.seek(0)
            tail = " | ".join(errlog.read().strip().splitlines()[-3:])
            raise PreflightFailure(_("the stdio server failed ({value})").format(value=_reason(e)) + (_("; its "
                                                                                   "stderr: "
                                                                                   "{tail}").format(tail=tail) if tail else "")) from e


def check_mcp_http() -> str:
    """MCP tools/call over streamable HTTP on 127.0.0.1."""
    from mcp import Client

    from .servers import start_server, stop_server

    server = start_server("preflight-mcp-http", _mcp_server().streamable_http_app())
    try:
        async def go() -> str:
            async with Client(f"{server.url}/mcp") as client:
                value = await _call_add(client)
            if value != 5:
                raise PreflightFailure(_("add(2, 3) returned {value!r}").format(value=value))
            return _("tools/call add(2, 3) = 5 over streamable HTTP at 127.0.0.1:{port}/mcp").format(port=server.port)

        return _run_async(go)
    finally:
        stop_server("preflight-mcp-http")


def _a2a_app(base_url: str) -> Any:
    from a2a.helpers import new_text_message
    from a2a.server.agent_execution import AgentExecutor, RequestContext
    from a2a.server.events import EventQueue
    from a2a.server.request_handlers import DefaultRequestHandler
    from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
    from a2a.server.tasks import InMemoryTaskStore
    from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
    from a2a.utils.constants import TransportProtocol
    from starlette.applications import Starlette

    class Echo(AgentExecutor):
        async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
            await event_queue.enqueue_event(
                new_text_message(f"echo: {context.get_user_input()}", context_id=context.context_id))

        async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
            return None

    card = AgentCard(
        name="Preflight echo", description="Echoes a message (course preflight).", version="1.0.0",
        supported_interfaces=[AgentInterface(url=f"{base_url}/a2a/jsonrpc", protocol_binding=TransportProtocol.JSONRPC,
                                             protocol_version="1.0")],
        capabilities=AgentCapabilities(streaming=False), default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[AgentSkill(id="echo", name="Echo", description="Echo text", tags=["preflight"], examples=["ping"])])
    handler = DefaultRequestHandler(agent_executor=Echo(), task_store=InMemoryTaskStore(), agent_card=card)
    return Starlette(routes=create_agent_card_routes(card) + create_jsonrpc_routes(handler, rpc_url="/a2a/jsonrpc"))


def check_a2a() -> str:
    """A2A Agent Card + SendMessage to an agent on 127.0.0.1."""
    from a2a.client import ClientConfig, create_client
    from a2a.helpers import get_message_text, new_text_message
    from a2a.types import Role, SendMessageRequest

    from .servers import free_port, start_server, stop_server

    port = free_port()
    start_server("preflight-a2a", _a2a_app(f"http://127.0.0.1:{port}"), port)
    try:
        async def go() -> str:
            replies = []
            async with await create_client(f"http://127.0.0.1:{port}",
                                           client_config=ClientConfig(streaming=False)) as client:
                request = SendMessageRequest(message=new_text_message("ping", role=Role.ROLE_USER))
                async for event in client.send_message(request):
                    if event.HasField("message"):
                        replies.append(get_message_text(event.message))
            if replies != ["echo: ping"]:
                raise PreflightFailure(_("the agent answered {replies!r}, expected ['echo: ping']").format(replies=replies))
            return _("Agent Card fetched, SendMessage 'ping' → 'echo: ping' at 127.0.0.1:{port}").format(port=port)

        return _run_async(go)
    finally:
        stop_server("preflight-a2a")


def check_ports() -> str:
    """A free loopback port; make lab's default port is free."""
    from .servers import free_port, port_in_use

    port = free_port()
    if port_in_use(LAB_PORT):
        raise PreflightWarning(_("loopback port {port} was free, but port {LAB_PORT} (`make "
                                  "lab`'s default) is busy: start the course with `make lab "
                                  "PORT={port}`").format(port=port, LAB_PORT=LAB_PORT))
    return _("loopback ports are free (e.g. {port}); `make lab`'s port {LAB_PORT} is free").format(port=port, LAB_PORT=LAB_PORT)


def check_state() -> str:
    """The learner's state folder is writable."""
    from .storage import data_dir, read_json, write_json

    folder = data_dir()
    probe = folder / f".preflight-{os.getpid()}.json"
    try:
        write_json(probe, {"ok": True})
        if read_json(probe, None) != {"ok": True}:
            raise PreflightFailure(_("{folder} does not read back what was written").format(folder=folder))
    except OSError as e:
        raise PreflightFailure(_("cannot write to {folder} ({e}); set COURSE_DATA_DIR to a "
                                  "writable folder").format(folder=folder, e=e)) from e
    finally:
        probe.unlink(missing_ok=True)
    return _("{folder} is writable").format(folder=folder)


#: Every check, in the order they run (name, function). Replace one in a test to simulate a broken piece.
CHECKS: list[tuple[str, Callable[[], str]]] = [
    ("python", check_python), ("install", check_install), ("kernel", check_kernel), ("widgets", check_widgets),
    ("mock-llm", check_mock_llm), ("mcp-memory", check_mcp_memory), ("mcp-stdio", check_mcp_stdio),
    ("mcp-http", check_mcp_http), ("a2a", check_a2a), ("ports", check_ports), ("state", check_state),
]


def _reason(e: BaseException) -> str:
    # anyio wraps failures in (nested) exception groups: show the innermost cause.
    while isinstance(e, BaseExceptionGroup) and e.exceptions:
        e = e.exceptions[0]
    if isinstance(e, TimeoutError):
        return _("no answer within {CHECK_TIMEOUT:.0f} s").format(CHECK_TIMEOUT=CHECK_TIMEOUT)
    return f"{type(e).__name__}: {e}" if not isinstance(e, (PreflightFailure, PreflightWarning)) else str(e)


def run_checks(only: list[str] | None = None, skip: list[str] | None = None,
               on_result: Callable[[Result], None] | None = None) -> list[Result]:
    """Run the pre-flight checks and return one :class:`Result` per check (never raises for a failed check).

    Args:
        only: names of the checks to run (default: all of :data:`CHECKS`).
        skip: names of checks to leave out.
        on_result: called with each result as soon as it is known (the CLI prints it).

    Raises:
        ValueError: an unknown check name in ``only`` or ``skip``.
    """
    names = [n for n, _fn in CHECKS]
    for n in (only or []) + (skip or []):
        if n not in names:
            raise ValueError(_("no check named {n!r} (checks: {value})").format(n=n, value=', '.join(names)))
    _quiet()
    results = []
    for name, fn in CHECKS:
        if (only and name not in only) or (skip and name in skip):
            continue
        start = time.monotonic()
        try:
            status, detail = "pass", fn()
        except PreflightWarning as e:
            status, detail = "warn", str(e)
        except Exception as e:  # a failed check is a line in the report, not a crash
            status, detail = "fail", _reason(e)
        result = Result(name, status, detail, time.monotonic() - start)
        results.append(result)
        if on_result:
            on_result(result)
    return results


def summary(results: list[Result]) -> str:
    """The closing line: how many passed, and whether the machine is ready."""
    failed = [r.name for r in results if r.status == "fail"]
    warned = [r.name for r in results if r.status == "warn"]
    total = sum(r.seconds for r in results)
    if failed:
        return (_("{passed} of {n_results} checks pass; FAILED: {failed} ({total:.1f} s). Fix "
                   "the ❌ lines above (each says how), then run `course preflight` again.").format(
                       passed=len(results) - len(failed), n_results=len(results), failed=', '.join(failed), total=total))
    extra = _(" (warnings: {names})").format(names=", ".join(warned)) if warned else ""
    return _("All {n_results} checks pass{extra} in {total:.1f} s: this machine is ready for "
              "the course.").format(n_results=len(results), extra=extra, total=total)


def _serve_mcp_stdio() -> None:
    _mcp_server().run("stdio")


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve-mcp-stdio"]:
        _serve_mcp_stdio()
    else:
        sys.exit("usage: python -m course_lib.preflight --serve-mcp-stdio (the stdio server of `course preflight`)")
