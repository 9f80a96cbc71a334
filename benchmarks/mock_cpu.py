"""CPU time of the mock LLM's own work per request, the steady proxy for its latency on a shared machine.

Wall-clock medians (``latency.py``) move with whatever else the machine runs; the CPU time the
process spends in ``MockLLM.handle`` for one request (decode the body, validate it, decide, build
and encode the completion) moves much less. This script times that for the same requests as
``latency.py``'s "new wording" rows (5 and 20 tools, a new user wording on every call, so no memo
answers), as the best of several batches of ``time.process_time()``.

``--against REV`` compares the working tree's engine with the one at git revision ``REV`` in the same
process: REV's ``course_lib`` is copied (``git archive``) into a temporary folder as the package
``course_lib_base``, both mocks answer the same new wordings one after the other, request by request,
and the medians of their CPU times are compared; on a shared machine this ratio holds while the
milliseconds move with the load. The two must make the same choices (it stops at the first that differs).

Usage::

    python benchmarks/mock_cpu.py [--batches 12] [--size 100]
    python benchmarks/mock_cpu.py --against main [--calls 1500]
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


def _body(n_tools: int, i: int) -> bytes:
    """Chat request bytes with ``n_tools`` tools and the ``i``-th new wording (as :func:`handle_new_wording`)."""
    from latency import _CITIES, request_body

    body = request_body(n_tools)
    body["messages"][-1]["content"] = (f"What's the weather in {_CITIES[i % len(_CITIES)]} today, in celsius? "
                                       f"I leave at {i % 12 + 1} o'clock, trip {i}.")
    return json.dumps(body).encode()


def base_package(rev: str, folder: Path) -> None:
    """Put ``course_lib`` as it is at git revision ``rev`` into ``folder`` as the package ``course_lib_base``
    (every import inside the mock is relative, so the copy runs its own code). Raises
    ``subprocess.CalledProcessError`` for an unknown revision."""
    import subprocess
    import tarfile

    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev, "course_lib"], capture_output=True, check=True)
    with tarfile.open(fileobj=__import__("io").BytesIO(archive.stdout)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "course_lib").rename(folder / "course_lib_base")


def against(rev: str, calls: int) -> dict[int, tuple[float, float]]:
    """``{n_tools: (median ms at rev, median ms here)}``: CPU time of ``MockLLM.handle`` per new wording, the two
    engines interleaved request by request on the same bodies (5 and 20 tools, ``calls`` each, after 200 warm-ups).

    Raises:
        AssertionError: when the two engines answer a request with different choices.
    """
    import importlib
    import statistics
    import tempfile

    from course_lib.mock_llm import MockLLM

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        base_package(rev, Path(tmp))
        sys.path.insert(0, tmp)
        try:
            Base = importlib.import_module("course_lib_base.mock_llm").MockLLM
            for n in (5, 20):
                here, there = MockLLM(), Base()
                times: tuple[list[float], list[float]] = ([], [])
                for i in range(200 + calls):
                    body = _body(n, 10**6 + i)
                    t0 = time.process_time()
                    a = there.handle("POST", "/v1/chat/completions", {}, body)
                    t1 = time.process_time()
                    b = here.handle("POST", "/v1/chat/completions", {}, body)
                    t2 = time.process_time()
                    assert json.loads(a.body)["choices"] == json.loads(b.body)["choices"], (rev, body)
                    if i >= 200:
                        times[0].append(t1 - t0)
                        times[1].append(t2 - t1)
                out[n] = (statistics.median(times[0]) * 1000, statistics.median(times[1]) * 1000)
        finally:
            sys.path.remove(tmp)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--batches", type=int, default=12, help="batches timed (the best one counts)")
    p.add_argument("--size", type=int, default=100, help="calls per batch")
    p.add_argument("--against", metavar="REV", help="compare with the engine at this git revision, in one process")
    p.add_argument("--calls", type=int, default=1500, help="with --against: timed requests per tool count")
    args = p.parse_args(argv)
    if args.against:
        for n, (there, here) in against(args.against, args.calls).items():
            print(f"{n:>2} tools, new wording: {args.against} {there:.3f} ms, working tree {here:.3f} ms CPU per "
                  f"request in MockLLM.handle (medians, interleaved): {here / there:.3f}x")
        return 0
    for n in (5, 20):
        call = handle_new_wording(n)
        for _ in range(args.size):  # warm-up: the tool set's caches, the first readings
            call()
        print(f"{n:>2} tools, new wording: {best_ms(call, args.batches, args.size):.3f} ms CPU per request "
              "in MockLLM.handle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
