"""Every layer of the kit beside the bare library it wraps, in one run, as one table (``make bench``).

Each row times the kit and its floor in the same process, interleaved call by call (floor, kit,
floor, kit...), and reports medians: the machine is shared, and interleaving exposes both to the
same background load while medians ignore the calls a busy neighbour slowed down. Compare the
ratios of one run, not milliseconds across runs. Rows marked *CPU time* judge by CPU seconds (this
process's for in-process work, a child's for start-up and first cells), which a loaded machine moves
far less than the wall clock; the wall clock is given beside them.

Rows (targets of the performance issue; each with its goal):

* **mock LLM vs the SDK floor**, in-process and over loopback HTTP: ``benchmarks/latency.py``
  (called, not copied); goal ≤ 1.25×.
* **registry dispatch** vs calling the handler by hand (parse, call, serialise), and a cached
  ``Draft202012Validator`` alone for scale; goal ≤ 30 µs over the bare call.
* **MCP ``tools/call``** on each course server (project-manager, wiki, demo, ``course mcp serve``)
  vs a bare ``mcp`` SDK server with the same tool body (``benchmarks/bare_mcp_server.py``), in
  memory, over stdio and over streamable HTTP; goal ≤ 1.2×.
* **stdio start-up** (spawn → ``initialize`` answered) of each course server vs a bare SDK server;
  goal ≤ 1.5×.
* **A2A ``SendMessage``**: the finance agent vs a minimal ``a2a-sdk`` agent that answers at once;
  reported with its ratio (the A2A work owns the target).
* **import time of each lesson's first code cell** in a fresh interpreter; goal ≤ 1 s.
* **each whole lesson**, two at a time as ``make test`` runs them (``benchmarks/course_runtime.py``);
  goal ≤ 10 s of wall clock.
* **load**: 30 and 100 concurrent clients on the mock LLM (``course llm serve``'s app) vs a trivial
  server, 30 MCP sessions over HTTP vs the bare SDK; goal ≥ 0.8× the floor's throughput.
* **hostile input, bounded**: a 1000-level line and a 1 MB result over stdio, 1,800 abandoned
  HTTP sessions (memory held).

Usage: ``python benchmarks/layers.py [--quick] [--json PATH] [--readme]``. ``--readme`` rewrites the
table between the ``layers-table`` markers of ``benchmarks/README.md``.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
RESULTS = REPO / "benchmarks" / "results"
README = REPO / "benchmarks" / "README.md"


@dataclass
class Row:
    """One line of the table: what, the kit's figure, the floor's, their ratio, the goal, met or not."""

    layer: str
    case: str
    kit: float
    floor: float | None
    unit: str
    goal: str
    ok: bool | None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        return None if not self.floor else self.kit / self.floor


def _ratio_row(layer: str, case: str, kit: float, floor: float, unit: str, limit: float, note: str = "",
               higher_is_better: bool = False) -> Row:
    ratio = kit / floor if floor else float("nan")
    ok = (ratio >= limit if higher_is_better else ratio <= limit) if floor else False  # no floor: nothing proven
    return Row(layer, case, kit, floor, unit, f"{'≥' if higher_is_better else '≤'} {limit}×", ok, note)


@dataclass
class Pair:
    """Medians per call of a floor and the kit, on two clocks: CPU time of this process and wall time.

    CPU time (``time.process_time``: every thread of this process, so a server running in a thread
    here is counted with its client) is what the rows judge: on a shared machine the wall clock
    mostly measures the neighbours. Wall time is kept for the notes.
    """

    floor: float
    kit: float
    floor_wall: float
    kit_wall: float

    def wall_note(self, scale: float = 1e3, unit: str = "ms") -> str:
        return (f"wall clock: {self.kit_wall * scale:.3g} vs {self.floor_wall * scale:.3g} {unit}, "
                f"{self.kit_wall / self.floor_wall:.2f}×" if self.floor_wall else "")


def interleaved(floor: Callable[[], Any], kit: Callable[[], Any], rounds: int, batch: int = 1,
                warmup: int = 20) -> Pair:
    """Median seconds per call of ``floor`` and ``kit`` (CPU and wall), timed in interleaved batches."""
    for _ in range(warmup):
        floor()
        kit()
    cpu: tuple[list[float], list[float]] = ([], [])
    wall: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        for i, fn in enumerate((floor, kit)):
            w0, c0 = time.perf_counter(), time.process_time()
            for _ in range(batch):
                fn()
            cpu[i].append((time.process_time() - c0) / batch)
            wall[i].append((time.perf_counter() - w0) / batch)
    m = statistics.median
    return Pair(m(cpu[0]), m(cpu[1]), m(wall[0]), m(wall[1]))


async def ainterleaved(floor: Callable[[], Awaitable[Any]], kit: Callable[[], Awaitable[Any]], rounds: int,
                       warmup: int = 10) -> Pair:
    """:func:`interleaved` for coroutine functions (one call per round each)."""
    for _ in range(warmup):
        await floor()
        await kit()
    cpu: tuple[list[float], list[float]] = ([], [])
    wall: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        for i, fn in enumerate((floor, kit)):
            w0, c0 = time.perf_counter(), time.process_time()
            await fn()
            cpu[i].append(time.process_time() - c0)
            wall[i].append(time.perf_counter() - w0)
    m = statistics.median
    return Pair(m(cpu[0]), m(cpu[1]), m(wall[0]), m(wall[1]))


def child_cpu() -> float:
    """CPU seconds (user + system) of this process's finished children so far."""
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


# =========================================================================== mock LLM (latency.py)

def mock_rows(calls: int) -> list[Row]:
    """The mock vs the trivial floor, from ``benchmarks.latency.run`` (the engine's benchmark)."""
    from benchmarks import latency

    rows = []
    for transport, cases in latency.run(calls).items():
        for case, r in cases.items():
            rows.append(_ratio_row("mock LLM", f"{transport}, {case}", r["mock_ms"], r["floor_ms"], "ms",
                                   latency.TARGET, "engine work owns the target"))
    return rows


# =========================================================================== registry

def registry_rows(rounds: int) -> list[Row]:
    """Dispatch overhead over a bare call, and a cached validator alone."""
    from course_lib import examples
    from course_lib.mcp_bridge import course_registry
    from course_lib.tool_schemas import argument_validator

    registry = course_registry()
    arguments = '{"city": "Shanghai"}'
    call = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": arguments}}

    def bare() -> dict:
        args = json.loads(arguments)
        return {"role": "tool", "tool_call_id": "call_1",
                "content": json.dumps(examples.get_weather(**args), ensure_ascii=False)}

    def kit() -> dict:
        return registry.dispatch(call)

    assert kit() == bare(), "the registry and the bare call must give the same message"
    t = interleaved(bare, kit, rounds, batch=200)
    validator = argument_validator(registry.parameters_schema("get_weather"))
    parsed = json.loads(arguments)
    v = interleaved(lambda: None, lambda: list(validator.iter_errors(parsed)), rounds, batch=200)
    overhead = (t.kit - t.floor) * 1e6
    return [
        Row("registry", "dispatch overhead over a bare call (get_weather), CPU time", overhead, None, "µs", "≤ 30 µs",
            overhead <= 30, f"bare call {t.floor * 1e6:.1f} µs, dispatch {t.kit * 1e6:.1f} µs; wall clock: "
                            f"{(t.kit_wall - t.floor_wall) * 1e6:.1f} µs over"),
        Row("registry", "cached Draft202012Validator alone (for scale), CPU time", (v.kit - v.floor) * 1e6, None, "µs",
            "-", None, "part of the dispatch overhead above"),
    ]


# =========================================================================== MCP

COURSE_CALLS: dict[str, tuple[str, dict]] = {
    "project-manager": ("list_tasks", {}),
    "wiki": ("search_wiki", {"query": "onboarding", "limit": 2}),
    "demo": ("echo", {"text": "hello"}),
    "course mcp serve": ("get_weather", {"city": "Shanghai"}),
}


def course_server(name: str) -> Any:
    from course_lib import mcp_servers
    from course_lib.mcp_bridge import RegistryMCPServer, course_registry

    if name == "course mcp serve":
        return RegistryMCPServer(course_registry())
    return mcp_servers.SERVERS[name]()


def _check_same(a: Any, b: Any) -> None:
    assert not a.is_error and not b.is_error, (a, b)


async def _mcp_pair(floor_cm: Any, kit_cm: Any, tool: str, args: dict, rounds: int) -> Pair:
    async with floor_cm as floor_client, kit_cm as kit_client:
        _check_same(await floor_client.call_tool(tool, args), await kit_client.call_tool(tool, args))
        return await ainterleaved(lambda: floor_client.call_tool(tool, args),
                                  lambda: kit_client.call_tool(tool, args), rounds)


def mcp_rows(rounds: int) -> list[Row]:
    """``tools/call`` per course server vs its bare twin: in memory, over stdio (demo), over HTTP."""
    import anyio
    from mcp import Client, StdioServerParameters

    from benchmarks.bare_mcp_server import bare_server
    from course_lib.mcp_transports import StdioMCP, course_server_params, http_client, start_http
    from course_lib.servers import start_server, stop_server

    rows = []
    for name, (tool, args) in COURSE_CALLS.items():
        t = anyio.run(_mcp_pair, Client(bare_server(name)), Client(course_server(name)), tool, args, rounds)
        rows.append(_ratio_row("MCP tools/call", f"{name}, in memory, CPU time", t.kit * 1e3, t.floor * 1e3, "ms", 1.2,
                               t.wall_note()))
    for name, (tool, args) in COURSE_CALLS.items():
        bare_handle = start_server("bench-bare-http", bare_server(name).streamable_http_app())
        kit_handle = start_http(course_server(name), "bench-kit-http")
        try:
            t = anyio.run(_mcp_pair, http_client(bare_handle.url + "/mcp"),
                          http_client(kit_handle.url + "/mcp"), tool, args, rounds)
        finally:
            stop_server("bench-bare-http")
            stop_server("bench-kit-http")
        rows.append(_ratio_row("MCP tools/call", f"{name}, streamable HTTP, CPU time (client and server)", t.kit * 1e3,
                               t.floor * 1e3, "ms", 1.2, t.wall_note()))
    bare_params = StdioServerParameters(command=sys.executable, args=[str(REPO / "benchmarks" / "bare_mcp_server.py"),
                                                                      "demo"])
    for name, kit_params in [("demo", course_server_params("demo"))]:
        t = anyio.run(_mcp_pair, StdioMCP(bare_params), StdioMCP(kit_params), "echo", {"text": "hello"}, rounds)
        rows.append(_ratio_row("MCP tools/call", f"{name}, stdio, wall clock (the server is another process)",
                               t.kit_wall * 1e3, t.floor_wall * 1e3, "ms", 1.2))
    return rows


INIT_LINE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}).encode()


def _startup(command: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) from spawning a stdio server to its ``initialize`` reply.

    The CPU figure is the child's user + system time up to its exit, which follows at once when its
    stdin closes after the reply (what a host pays to start it; the wall clock mostly measures the load).
    """
    c0 = child_cpu()
    t0 = time.perf_counter()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            cwd=REPO)
    try:
        proc.stdin.write(INIT_LINE + b"\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        elapsed = time.perf_counter() - t0
        assert b'"result"' in line, line[:200]
    finally:
        proc.stdin.close()
        proc.wait(30)
    return child_cpu() - c0, elapsed


def startup_rows(runs: int) -> list[Row]:
    """Stdio start-up of each course server vs the bare SDK server (interleaved runs, medians of CPU time)."""
    bare = [sys.executable, str(REPO / "benchmarks" / "bare_mcp_server.py"), "demo"]
    commands = {name: [sys.executable, "-m", "course_lib.mcp_servers", name]
                for name in ("project-manager", "wiki", "demo")}
    commands["course mcp serve"] = [sys.executable, "-c", "from course_lib.cli import main; main(['mcp', 'serve'])"]
    rows = []
    m = statistics.median
    for name, command in commands.items():
        floor, kit = [], []
        for _ in range(runs):
            floor.append(_startup(bare))
            kit.append(_startup(command))
        f_cpu, k_cpu = m(c for c, _ in floor), m(c for c, _ in kit)
        f_wall, k_wall = m(w for _, w in floor), m(w for _, w in kit)
        rows.append(_ratio_row("stdio start-up", f"{name}, CPU time", k_cpu * 1e3, f_cpu * 1e3, "ms", 1.5,
                               f"spawn → initialize answered; wall clock: {k_wall * 1e3:.0f} vs {f_wall * 1e3:.0f} ms, "
                               f"{k_wall / f_wall:.2f}×"))
    return rows


# =========================================================================== A2A

def a2a_rows(rounds: int) -> list[Row]:
    """``SendMessage`` (blocking, JSON-RPC over HTTP) to the finance agent vs a minimal agent."""
    import httpx
    from a2a.helpers import new_task_from_user_message, new_text_message
    from a2a.server.agent_execution import AgentExecutor
    from a2a.server.tasks import TaskUpdater

    from course_lib import a2a_agents as ag
    from course_lib.examples import create_finance_db
    from course_lib.servers import stop_server

    class MinimalAgent(AgentExecutor):
        """Answers every message at once: one task, completed with one text message (two events)."""

        async def execute(self, context: Any, event_queue: Any) -> None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
            await TaskUpdater(event_queue, task.id, task.context_id).complete(new_text_message("done"))

        async def cancel(self, context: Any, event_queue: Any) -> None:
            return None

    db = create_finance_db(Path(tempfile.mkdtemp(prefix="bench-a2a-")) / "finance.db")
    finance = ag.start_agent("bench-finance", ag.finance_agent_card, ag.FinanceAgentExecutor(db, step_delay=0))
    minimal = ag.start_agent("bench-minimal", ag.finance_agent_card, MinimalAgent())
    text = "What was the total revenue in 2024?"

    def body(i: int) -> dict:
        return {"jsonrpc": "2.0", "id": i, "method": "SendMessage", "params": {"message": {
            "messageId": f"m-{i}", "role": "ROLE_USER", "parts": [{"text": text}]}}}

    counter = iter(range(10**9))
    try:
        with httpx.Client(headers={"A2A-Version": "1.0"}, timeout=30) as http:
            def send(url: str) -> Callable[[], None]:
                def go() -> None:
                    reply = http.post(url + ag.JSONRPC_PATH, json=body(next(counter))).json()
                    assert "result" in reply, reply
                return go

            t = interleaved(send(minimal.url), send(finance.url), rounds)
    finally:
        stop_server("bench-finance")
        stop_server("bench-minimal")
    return [_ratio_row("A2A SendMessage", "finance agent vs a minimal agent (blocking JSON-RPC), CPU time", t.kit * 1e3,
                       t.floor * 1e3, "ms", 1.2, "the A2A work owns this target; " + t.wall_note())]


# =========================================================================== lessons' first cells

def _first_code_cell(path: Path) -> str:
    import nbformat

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.source.strip():
            # IPython magics and shell lines are not Python; top-level await is not needed in a first cell.
            return "\n".join(line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!")))
    return ""


#: The SDKs whose own import is a lesson's floor: a first cell that uses one cannot start faster than it.
SDKS = ("openai", "mcp", "a2a")
_SDK_PROBE = """
import json as _json, sys as _sys
print("@@sdk-modules " + _json.dumps(sorted(m for m in _sys.modules if m.split(".")[0] in {sdks!r})))
"""


def first_cell_rows(runs: int) -> list[Row]:
    """Each lesson's first code cell in a fresh interpreter: CPU time, minus the interpreter's own start.

    The floor beside it is a fresh interpreter importing the same SDK modules (of :data:`SDKS`) that the
    cell ended up importing, and nothing else: what the cell would cost if the kit added nothing. Both are
    CPU time of the child (user + system), interleaved with a bare interpreter start, medians.
    """
    env = {**os.environ, "COURSE_LLM": "mock", "MPLBACKEND": "Agg", "COURSE_DATA_DIR": tempfile.mkdtemp()}

    def run(code: str) -> tuple[float, float, str]:
        c0, t0 = child_cpu(), time.perf_counter()
        out = subprocess.run([sys.executable, "-c", code], cwd=REPO / "notebooks", env=env, check=True,
                             capture_output=True, text=True, timeout=300)
        return child_cpu() - c0, time.perf_counter() - t0, out.stdout

    rows = []
    m = statistics.median
    for path in sorted((REPO / "notebooks").glob("[0-9][0-9]*_*.ipynb")):
        code = _first_code_cell(path)
        stdout = run(code + _SDK_PROBE.format(sdks=set(SDKS)))[2]
        modules = json.loads(stdout.rsplit("@@sdk-modules ", 1)[1])
        floor_code = "\n".join(f"try:\n    import {name}\nexcept Exception:\n    pass" for name in modules) or "pass"
        base, floor, kit = [], [], []
        for _ in range(runs):
            base.append(run("pass"))
            floor.append(run(floor_code))
            kit.append(run(code))
        start = m(c for c, _, _ in base)
        kit_s = max(0.0, m(c for c, _, _ in kit) - start)
        floor_s = max(0.0, m(c for c, _, _ in floor) - start)
        wall_s = max(0.0, m(w for _, w, _ in kit) - m(w for _, w, _ in base))
        sdks = sorted({name.split(".")[0] for name in modules})
        note = (f"floor: the {' + '.join(sdks)} SDK modules it imports, alone; " if sdks else "no SDK; ") + \
            f"interpreter start subtracted; wall clock {wall_s:.2f} s"
        rows.append(Row("first cell", f"{path.stem}, CPU time", kit_s, floor_s if sdks else None, "s", "≤ 1 s",
                        kit_s <= 1.0, note))
    return rows


# =========================================================================== whole lessons

def lesson_rows(quick: bool = False) -> list[Row]:
    """Each lesson top to bottom in a fresh kernel, two at a time as ``make test`` runs them.

    The goal (≤ 10 s each) is wall clock on the 2-core CI machine. On a shared machine the wall clock
    mostly measures the neighbours, so the row judges by the CPU time of the kernel and the nbclient
    driving it (what the lesson costs: with two at a time on 2 cores, each has a core) and gives the
    wall clock in its note (``benchmarks/course_runtime.py`` does the work).
    """
    from concurrent.futures import ProcessPoolExecutor

    from benchmarks import course_runtime

    lessons = [str(p) for kind, p in course_runtime.course_notebooks(REPO) if kind == "lesson"]
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(course_runtime.run_one, lessons[:2] if quick else lessons))
    rows = []
    for r in results:
        failed = f"; failed: {r['errors'][0]}"[:120] if r["errors"] else ""
        rows.append(Row("lesson, 2 at a time", f"{Path(r['path']).stem}, CPU time", r["cpu_seconds"], None, "s",
                        f"≤ {course_runtime.LESSON_TARGET:.0f} s", not r["errors"] and
                        r["cpu_seconds"] <= course_runtime.LESSON_TARGET,
                        f"kernel + nbclient; wall clock {r['seconds']:.1f} s{failed}"))
    return rows


# =========================================================================== load

def _throughput(clients: int, seconds: float, request: Callable[[Any], None],
                make_client: Callable[[], Any]) -> tuple[float, float]:
    """(requests per CPU second, requests per wall second) done by ``clients`` threads for ``seconds``.

    Each thread has its own client. Every client is made (and an MCP session opened) before the clock
    starts: set-up is not throughput. CPU seconds are this process's (``time.process_time``: the clients
    and the server, all threads of it): on a shared machine the neighbours take the wall clock, not these.
    """
    counts = [0] * clients
    ready = threading.Barrier(clients + 1)
    window: dict[str, float] = {}

    def worker(i: int) -> None:
        client = make_client()
        try:
            ready.wait()
            while time.monotonic() < window["stop"]:
                request(client)
                counts[i] += 1
        finally:
            client.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    window["stop"] = float("inf")
    ready.wait()
    t0, c0 = time.monotonic(), time.process_time()
    window["stop"] = t0 + seconds
    for t in threads:
        t.join()
    done = sum(counts)
    return done / (time.process_time() - c0), done / (time.monotonic() - t0)


def _load_row(case: str, kit: list[tuple[float, float]], floor: list[tuple[float, float]]) -> Row:
    """A load row judged by requests per CPU second (medians), the wall-clock req/s in its note."""
    m = statistics.median
    k_cpu, f_cpu = m(c for c, _ in kit), m(c for c, _ in floor)
    k_wall, f_wall = m(w for _, w in kit), m(w for _, w in floor)
    return _ratio_row("load", f"{case}, requests per CPU second (clients and server)", k_cpu, f_cpu, "req/CPU-s", 0.8,
                      f"wall clock: {k_wall:.0f} vs {f_wall:.0f} req/s, {k_wall / f_wall:.2f}×", higher_is_better=True)


def load_rows(seconds: float) -> list[Row]:
    """Throughput with 30 and 100 clients on the mock vs a trivial server, 30 MCP sessions vs the bare SDK."""
    import httpx

    from benchmarks import latency
    from benchmarks.bare_mcp_server import bare_server
    from course_lib.mock_llm import MockLLM
    from course_lib.servers import start_server, stop_server

    rows = []
    trivial = start_server("bench-trivial", latency.trivial_asgi)
    mock = start_server("bench-mock", MockLLM().asgi_app())
    counter = iter(range(10**9))

    def chat(url: str) -> Callable[[Any], None]:
        def go(client: Any) -> None:
            body = latency.request_body(5)
            i = next(counter)
            body["messages"][-1]["content"] = f"What's the weather in Paris today, in celsius? Trip {i}."
            r = client.post(url + "/v1/chat/completions", json=body)
            assert r.status_code == 200
        return go

    try:
        for clients in (30, 100):
            floor_rps, kit_rps = [], []
            for _ in range(2):  # interleaved: floor, kit, floor, kit
                floor_rps.append(_throughput(clients, seconds, chat(trivial.url), lambda: httpx.Client(timeout=60)))
                kit_rps.append(_throughput(clients, seconds, chat(mock.url), lambda: httpx.Client(timeout=60)))
            rows.append(_load_row(f"mock LLM, {clients} clients, new wordings", kit_rps, floor_rps))
    finally:
        stop_server("bench-trivial")
        stop_server("bench-mock")

    from course_lib.mcp_transports import start_http

    bare = start_server("bench-bare-load", bare_server("demo").streamable_http_app())
    kit = start_http(course_server("demo"), "bench-kit-load")
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}

    def session(url: str) -> Callable[[], Any]:
        def make() -> Any:
            client = httpx.Client(timeout=60, headers=headers)
            r = client.post(url, content=INIT_LINE)
            client.headers.update({"mcp-session-id": r.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"})
            client.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"})
            return client
        return make

    def call(url: str) -> Callable[[Any], None]:
        def go(client: Any) -> None:
            r = client.post(url, json={"jsonrpc": "2.0", "id": next(counter), "method": "tools/call",
                                       "params": {"name": "echo", "arguments": {"text": "hi"}}})
            assert r.status_code == 200 and b'"result"' in r.content
        return go

    try:
        floor_rps, kit_rps = [], []
        for _ in range(2):
            floor_rps.append(_throughput(30, seconds, call(bare.url + "/mcp"), session(bare.url + "/mcp")))
            kit_rps.append(_throughput(30, seconds, call(kit.url + "/mcp"), session(kit.url + "/mcp")))
        rows.append(_load_row("MCP over HTTP, 30 sessions, tools/call", kit_rps, floor_rps))
    finally:
        stop_server("bench-bare-load")
        stop_server("bench-kit-load")
    return rows


# =========================================================================== hostile input, bounded

def hostile_rows() -> list[Row]:
    """Big and deep inputs answered in bounded time and memory."""
    import resource

    import httpx

    from course_lib.mcp_servers import project_manager_server
    from course_lib.mcp_transports import MAX_SESSIONS, SESSION_IDLE_TIMEOUT, start_http
    from course_lib.servers import stop_server

    rows = []
    proc = subprocess.Popen([sys.executable, "-m", "course_lib.mcp_servers", "demo"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=REPO)
    try:
        proc.stdin.write(INIT_LINE + b"\n")
        proc.stdin.flush()
        proc.stdout.readline()
        proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        for label, line in [("a 1000-level line (6 kB)", ("[" * 1000 + "]" * 1000).encode()),
                            ("a 100,000-level line (200 kB)", ("[" * 100_000 + "]" * 100_000).encode()),
                            ("1 MB tools/call result (big_text)", json.dumps({
                                "jsonrpc": "2.0", "id": 5, "method": "tools/call",
                                "params": {"name": "big_text", "arguments": {"size": 1_000_000}}}).encode())]:
            t0 = time.perf_counter()
            proc.stdin.write(line + b"\n")
            proc.stdin.flush()
            reply = proc.stdout.readline()
            ms = (time.perf_counter() - t0) * 1e3
            assert reply, "the server died"
            rows.append(Row("hostile input", f"stdio demo server: {label}", ms, None, "ms", "answered, alive",
                            proc.poll() is None, json.loads(reply).get("error", {}).get("message", "result")[:60]))
    finally:
        proc.stdin.close()
        proc.wait(10)

    import logging

    logging.getLogger("mcp.server.streamable_http_manager").setLevel(logging.ERROR)  # 1,300 "refusing" lines
    server = project_manager_server()
    handle = start_http(server, "bench-sessions")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    statuses: dict[int, int] = {}
    with httpx.Client(headers={"Accept": "application/json, text/event-stream"}, timeout=30) as http:
        for _ in range(1800):
            code = http.post(handle.url + "/mcp", content=INIT_LINE,
                             headers={"Content-Type": "application/json"}).status_code
            statuses[code] = statuses.get(code, 0) + 1
    held = len(server.session_manager._server_instances)
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    stop_server("bench-sessions")
    rows.append(Row("hostile input", "1,800 abandoned HTTP sessions: sessions held", held, None, "sessions",
                    f"≤ MAX_SESSIONS ({MAX_SESSIONS})", held <= MAX_SESSIONS,
                    f"HTTP {statuses}; peak RSS +{grown_mb:.0f} MB; idle ones expire after {SESSION_IDLE_TIMEOUT:.0f} s"))
    return rows


# =========================================================================== the table

def table(rows: list[Row]) -> str:
    """The rows as one Markdown table."""
    lines = ["| layer | case | kit | floor | ratio | goal | met |", "|---|---|---:|---:|---:|---|---|"]
    for r in rows:
        def fmt(v: float | None) -> str:
            if v is None:
                return "-"
            return f"{v:.0f}" if abs(v) >= 100 else f"{v:.2f}" if abs(v) < 10 else f"{v:.1f}"
        ratio = "-" if r.ratio is None else f"{r.ratio:.2f}×"
        met = "-" if r.ok is None else ("yes" if r.ok else "**no**")
        note = f" ({r.note})" if r.note else ""
        lines.append(f"| {r.layer} | {r.case}{note} | {fmt(r.kit)} {r.unit} | "
                     f"{fmt(r.floor) + ' ' + r.unit if r.floor is not None else '-'} | {ratio} | {r.goal} | {met} |")
    return "\n".join(lines)


def write_readme(text: str) -> None:
    """Replace the table between the ``layers-table`` markers of ``benchmarks/README.md``."""
    start, end = "<!-- layers-table:start -->", "<!-- layers-table:end -->"
    readme = README.read_text(encoding="utf-8")
    block = f"{start}\n{text}\n{end}"
    if start in readme:
        readme = re.sub(re.escape(start) + ".*?" + re.escape(end), lambda m: block, readme, flags=re.S)
    else:
        readme = readme.rstrip("\n") + "\n\n" + block + "\n"
    README.write_text(readme, encoding="utf-8")


SECTIONS = ["mock", "registry", "mcp", "startup", "a2a", "first-cell", "lessons", "load", "hostile"]


def run(sections: list[str], quick: bool = False) -> list[Row]:
    """Run the chosen sections; returns every row."""
    n = 40 if quick else 200
    runners: dict[str, Callable[[], list[Row]]] = {
        "mock": lambda: mock_rows(60 if quick else 300),
        "registry": lambda: registry_rows(15 if quick else 41),
        "mcp": lambda: mcp_rows(n),
        "startup": lambda: startup_rows(2 if quick else 5),
        "a2a": lambda: a2a_rows(n),
        "first-cell": lambda: first_cell_rows(1 if quick else 3),
        "lessons": lambda: lesson_rows(quick),
        "load": lambda: load_rows(1.0 if quick else 3.0),
        "hostile": hostile_rows,
    }
    rows: list[Row] = []
    for name in sections:
        t0 = time.perf_counter()
        try:
            got = runners[name]()
        except Exception as e:  # one broken layer must not hide the others' figures
            got = [Row(name, f"failed: {type(e).__name__}: {e}"[:160], float("nan"), None, "", "-", False)]
        rows += got
        print(f"  {name}: {len(got)} rows in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer calls (a smoke run, not for the README)")
    p.add_argument("--only", nargs="*", choices=SECTIONS, help="run only these sections")
    p.add_argument("--json", nargs="?", const=str(RESULTS / "layers.json"), help="write JSON results here")
    p.add_argument("--readme", action="store_true", help="write the table into benchmarks/README.md")
    args = p.parse_args(argv)
    load_avg = (lambda: os.getloadavg()[0]) if hasattr(os, "getloadavg") else (lambda: float("nan"))
    load_start = load_avg()
    rows = run(args.only or SECTIONS, args.quick)
    header = (f"Run of {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC on {platform.machine()}, {os.cpu_count()} cores, "
              f"Python {platform.python_version()}, load average {load_start:.1f} at the start and "
              f"{load_avg():.1f} at the end.")
    text = header + "\n\n" + table(rows)
    print(text)
    if args.json:
        path = Path(args.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"header": header, "rows": [asdict(r) | {"ratio": r.ratio} for r in rows]},
                                   indent=1, ensure_ascii=False))
    if args.readme:
        write_readme(text)
    return 0 if all(r.ok is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
