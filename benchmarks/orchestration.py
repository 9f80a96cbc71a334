"""Speed-up of parallel tool calls and of the dependency graph over serial execution (lesson 06).

Three measurements, each the median of ``--repeat`` runs (the machine is shared):

* the model's parallel ``tool_calls`` for N cities (N = 3, 5, 10), each call an I/O-bound tool
  that waits ``--latency`` seconds, run through a ``ToolRegistry`` one after another and then
  with ``asyncio.gather`` (:func:`course_lib.orchestration.arun_tool_calls`);
* the trip-planner graph of lesson 06 (:class:`~course_lib.orchestration.TaskGraph`) against
  the same calls run serially.

Targets: the parallel run reaches at least 80 % of the ideal speed-up (N for N equal calls;
busy time / critical path for the graph). Exit status 1 when a target is missed.

Usage::

    python benchmarks/orchestration.py [--latency 0.1] [--repeat 5] [--json]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from course_lib.examples import TRIP_LATENCY, make_trip_tools  # noqa: E402
from course_lib.orchestration import TaskGraph, arun_tool_calls, run_serial, wall_time  # noqa: E402
from course_lib.tool_registry import ToolRegistry  # noqa: E402
from course_lib.tracing import Trace  # noqa: E402

TARGET = 0.8  # share of the ideal speed-up the parallel run must reach
RESULTS = REPO / "benchmarks" / "results"
CITIES = ["Beijing", "Shanghai", "Tokyo", "Paris", "London", "New York", "Shenzhen", "Singapore", "Berlin", "Sydney"]


def _message(n: int) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"call_{i}", "type": "function",
         "function": {"name": "get_weather", "arguments": json.dumps({"city": CITIES[i]})}} for i in range(n)]}


async def _tool_calls(n: int, latency: float) -> tuple[float, float]:
    tools = make_trip_tools(scale=latency / TRIP_LATENCY["get_weather"])
    registry = ToolRegistry("bench", env={})
    registry.register(handler=tools["get_weather"])
    serial, parallel = Trace("serial"), Trace("parallel")
    await arun_tool_calls(_message(n), registry, parallel=False, trace=serial)
    await arun_tool_calls(_message(n), registry, parallel=True, trace=parallel)
    return wall_time(serial), wall_time(parallel)


def trip_graph(tools: dict) -> TaskGraph:
    """The plan of lesson 06: three independent look-ups, then a branch and a budget."""
    g = TaskGraph("trip to Tokyo")
    g.add("weather", tools["get_weather"], {"city": "Tokyo"})
    g.add("rate", tools["get_exchange_rate"], {"base": "CNY", "quote": "JPY"})
    g.add("flights", tools["search_flights"], {"origin": "Shanghai", "destination": "Tokyo"})
    g.add("indoor", tools["find_activities"], {"city": "Tokyo", "kind": "indoor"}, after=["weather"],
          when=lambda r: r["weather"]["humidity"] >= 70)
    g.add("outdoor", tools["find_activities"], {"city": "Tokyo", "kind": "outdoor"}, after=["weather"],
          when=lambda r: r["weather"]["humidity"] < 70)
    g.add("budget", tools["estimate_budget"],
          lambda r: {"flight_price_cny": r["flights"][0]["price_cny"], "nights": 4, "rate": r["rate"]["rate"]},
          after=["flights", "rate"])
    return g


async def _graph(scale: float) -> tuple[float, float, float]:
    tools = make_trip_tools(scale=scale)
    run = await trip_graph(tools).run()
    calls = [(n, tools[fn], args) for n, fn, args in (
        ("weather", "get_weather", {"city": "Tokyo"}), ("rate", "get_exchange_rate", {"base": "CNY", "quote": "JPY"}),
        ("flights", "search_flights", {"origin": "Shanghai", "destination": "Tokyo"}),
        ("indoor", "find_activities", {"city": "Tokyo", "kind": "indoor"}),
        ("budget", "estimate_budget", {"flight_price_cny": 1850, "nights": 4, "rate": 21.0}))]
    serial = Trace("serial")
    await run_serial(calls, trace=serial)
    lat = {k: v * scale for k, v in TRIP_LATENCY.items()}
    ideal = (sum([lat["get_weather"], lat["get_exchange_rate"], lat["search_flights"], lat["find_activities"],
                  lat["estimate_budget"]])
             / max(lat["get_weather"] + lat["find_activities"],
                   max(lat["search_flights"], lat["get_exchange_rate"]) + lat["estimate_budget"]))
    return wall_time(serial), wall_time(run.trace), ideal


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.1, help="seconds each weather call waits")
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (median reported)")
    parser.add_argument("--json", action="store_true", help=f"also write {RESULTS / 'orchestration.json'}")
    args = parser.parse_args(argv)
    rows, ok = [], True
    print(f"{'case':<28} {'serial s':>9} {'parallel s':>11} {'speed-up':>9} {'ideal':>6} {'share':>6}")
    for n in (3, 5, 10):
        runs = [asyncio.run(_tool_calls(n, args.latency)) for _ in range(args.repeat)]
        serial = statistics.median(r[0] for r in runs)
        parallel = statistics.median(r[1] for r in runs)
        rows.append({"case": f"{n} parallel tool_calls", "serial_s": serial, "parallel_s": parallel,
                     "speedup": serial / parallel, "ideal": float(n)})
    scale = args.latency / TRIP_LATENCY["get_weather"]
    runs = [asyncio.run(_graph(scale)) for _ in range(args.repeat)]
    serial, parallel = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
    rows.append({"case": "trip-planner graph", "serial_s": serial, "parallel_s": parallel,
                 "speedup": serial / parallel, "ideal": runs[0][2]})
    for row in rows:
        row["share_of_ideal"] = row["speedup"] / row["ideal"]
        row["meets_target"] = row["share_of_ideal"] >= TARGET
        ok &= row["meets_target"]
        print(f"{row['case']:<28} {row['serial_s']:>9.3f} {row['parallel_s']:>11.3f} {row['speedup']:>8.2f}x "
              f"{row['ideal']:>5.2f}x {row['share_of_ideal']:>5.0%}{'' if row['meets_target'] else '  < target'}")
    print(f"target: at least {TARGET:.0%} of the ideal speed-up -> {'met' if ok else 'MISSED'}")
    if args.json:
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / "orchestration.json").write_text(json.dumps(
            {"latency_s": args.latency, "repeat": args.repeat, "target_share": TARGET, "rows": rows}, indent=2) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
