"""The finance agent's ``SendMessage`` beside a minimal ``a2a-sdk`` agent doing the least the protocol asks.

Both agents run in this process behind the same uvicorn loopback server setup
(:func:`course_lib.a2a_agents.start_agent`), and the same SDK client (JSON-RPC binding, blocking
``SendMessage``) calls them in interleaved rounds, so load on the shared machine hits both alike:

* **finance**: :class:`course_lib.a2a_agents.FinanceAgentExecutor` answering "Get the company's 2024
  revenue": its plan, one read-only SQLite query under every guard of :mod:`course_lib.sql_guard`, and
  the events it publishes (Task, ``working``, artifact, ``completed``);
* **minimal**: an ``AgentExecutor`` that publishes the Task, one artifact with a fixed text and
  ``completed``: the floor of a task-returning A2A agent on this SDK.

Target: finance ≤ 1.25× minimal (issue 15: the kit adds next to nothing over the SDK it teaches).
:func:`measure` is what ``make bench`` calls; ``python benchmarks/a2a_send.py [--rounds N] [--json]``
prints the table.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from a2a.client import ClientConfig, create_client  # noqa: E402
from a2a.helpers import new_task_from_user_message, new_text_part  # noqa: E402
from a2a.server.agent_execution import AgentExecutor, RequestContext  # noqa: E402
from a2a.server.events import EventQueue  # noqa: E402
from a2a.server.tasks import TaskUpdater  # noqa: E402
from a2a.types import SendMessageRequest  # noqa: E402
from a2a.utils.constants import TransportProtocol  # noqa: E402

from course_lib import a2a_agents as ag  # noqa: E402
from course_lib.examples import create_finance_db  # noqa: E402
from course_lib.servers import stop_server  # noqa: E402

TARGET = 1.25
RESULTS = REPO / "benchmarks" / "results"
REQUEST = "Get the company's 2024 revenue"


class MinimalExecutor(AgentExecutor):
    """The least a task-returning agent publishes: the Task, one artifact, ``completed``."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:  # noqa: D102
        task = context.current_task or new_task_from_user_message(context.message)
        if context.current_task is None:
            await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        await updater.add_artifact([new_text_part("2024 revenue: 1279.9 million USD")], name="answer")
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:  # noqa: D102
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


async def _rounds(urls: dict[str, str], rounds: int, warmup: int) -> dict[str, list[float]]:
    config = ClientConfig(streaming=False, supported_protocol_bindings=[TransportProtocol.JSONRPC])
    clients = {name: await create_client(url, client_config=config) for name, url in urls.items()}
    times: dict[str, list[float]] = {name: [] for name in urls}
    try:
        for i in range(warmup + rounds):
            for name, client in clients.items():
                start = time.perf_counter()
                async for _ in client.send_message(SendMessageRequest(message=ag.user_message(REQUEST))):
                    pass
                if i >= warmup:
                    times[name].append((time.perf_counter() - start) * 1000)
    finally:
        for client in clients.values():
            await client.close()
    return times


async def _count_events(url: str) -> int:
    config = ClientConfig(streaming=True, supported_protocol_bindings=[TransportProtocol.JSONRPC])
    async with await create_client(url, client_config=config) as client:
        return len([e async for e in client.send_message(SendMessageRequest(message=ag.user_message(REQUEST)))])


def measure(rounds: int = 200, warmup: int = 20) -> dict:
    """Median milliseconds per blocking ``SendMessage`` for each agent, their ratio and their stream events.

    Returns:
        ``{"finance_ms", "minimal_ms", "ratio", "target", "met", "finance_events", "minimal_events",
        "rounds"}``; times are medians over ``rounds`` interleaved calls after ``warmup`` calls each.
    """
    db = create_finance_db(Path(tempfile.mkdtemp(prefix="bench-a2a-")) / "finance.db")
    finance = ag.start_agent("bench-finance", ag.finance_agent_card, ag.FinanceAgentExecutor(db, step_delay=0))
    minimal = ag.start_agent("bench-minimal", lambda url: ag.finance_agent_card(url, name="Minimal agent"),
                             MinimalExecutor())
    try:
        urls = {"finance": finance.url, "minimal": minimal.url}
        times = asyncio.run(_rounds(urls, rounds, warmup))
        events = {name: asyncio.run(_count_events(url)) for name, url in urls.items()}
    finally:
        stop_server("bench-finance")
        stop_server("bench-minimal")
    finance_ms, minimal_ms = statistics.median(times["finance"]), statistics.median(times["minimal"])
    ratio = finance_ms / minimal_ms
    return {"finance_ms": round(finance_ms, 2), "minimal_ms": round(minimal_ms, 2), "ratio": round(ratio, 2),
            "target": TARGET, "met": ratio <= TARGET, "finance_events": events["finance"],
            "minimal_events": events["minimal"], "rounds": rounds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--json", action="store_true", help="also write benchmarks/results/a2a_send.json")
    args = parser.parse_args(argv)
    result = measure(args.rounds)
    print("| agent | median ms per SendMessage | stream events |")
    print("|---|---|---|")
    print(f"| minimal a2a-sdk agent | {result['minimal_ms']} | {result['minimal_events']} |")
    print(f"| finance agent | {result['finance_ms']} | {result['finance_events']} |")
    print(f"\nratio {result['ratio']}x (target <= {TARGET}x): {'met' if result['met'] else 'MISSED'}")
    if args.json:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "a2a_send.json").write_text(json.dumps(result, indent=1) + "\n")
    return 0 if result["met"] else 1


if __name__ == "__main__":
    sys.exit(main())
