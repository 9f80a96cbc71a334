"""CPU time of the mock LLM's own work per request, the steady proxy for its latency on a shared machine.

Wall-clock medians (``latency.py``) move with whatever else the machine runs; the CPU time the
process spends in ``MockLLM.handle`` for one request (decode the body, validate it, decide, build
and encode the completion) moves much less. This script times that for the same requests as
``latency.py``'s "new wording" rows (5 and 20 tools, a new user wording on every call, so no memo
answers), as the best of several batches of ``time.process_time()``.

Usage::

    python benchmarks/mock_cpu.py [--batches 12] [--size 100]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
for p in (REPO, REPO / "benchmarks"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))


def best_ms(fn: Callable[[], None], batches: int, size: int) -> float:
    """The lowest mean CPU milliseconds per call of ``fn`` over ``batches`` batches of ``size`` calls."""
    best = float("inf")
    for _ in range(batches):
        t0 = time.process_time()
        for _ in range(size):
            fn()
        best = min(best, (time.process_time() - t0) / size * 1000)
    return best


def handle_new_wording(n_tools: int) -> Callable[[], None]:
    """One ``MockLLM.handle`` call per invocation, each with a new wording (a weather call is checked)."""
    from latency import _CITIES, request_body

    from course_lib.mock_llm import MockLLM

    mock, body, counter = MockLLM(), request_body(n_tools), iter(range(10**9))

    def call() -> None:
        i = next(counter)
        body["messages"][-1]["content"] = (f"What's the weather in {_CITIES[i % len(_CITIES)]} today, in celsius? "
                                           f"I leave at {i % 12 + 1} o'clock, trip {i}.")
        reply = mock.handle("POST", "/v1/chat/completions", {}, json.dumps(body).encode())
        assert b'"get_weather"' in reply.body

    return call


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--batches", type=int, default=12, help="batches timed (the best one counts)")
    p.add_argument("--size", type=int, default=100, help="calls per batch")
    args = p.parse_args(argv)
    for n in (5, 20):
        call = handle_new_wording(n)
        for _ in range(args.size):  # warm-up: the tool set's caches, the first readings
            call()
        print(f"{n:>2} tools, new wording: {best_ms(call, args.batches, args.size):.3f} ms CPU per request "
              "in MockLLM.handle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
