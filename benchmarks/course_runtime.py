"""How long the whole course takes to execute: every lesson, solution and interview notebook.

Each notebook runs top to bottom in a fresh ``python3`` kernel (nbclient, as ``make test`` and
``course notebooks refresh`` run them), with the offline mock LLM and a temporary state folder.
By default two notebooks run at once, as on the CI machine (2 cores) and in ``make test``
(pytest-xdist ``-n 2``); ``--jobs 1`` measures each notebook alone.

Targets (issue 9): each lesson ≤ 10 s, the whole course ≤ 3 min of wall time on 2 cores.
Notebooks are found by pattern (``notebooks/NN_*.ipynb``, ``notebooks/interview/*.ipynb``,
``solutions/NN_*.ipynb``), so new lessons are measured as soon as they land.

Usage: ``python benchmarks/course_runtime.py [--jobs N] [--json]``; writes
``benchmarks/results/course_runtime.json``; the reference figures are in ``benchmarks/README.md``.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LESSON_TARGET = 10.0  # seconds per lesson
COURSE_TARGET = 180.0  # seconds of wall time for everything


def course_notebooks(root: Path = ROOT) -> list[tuple[str, Path]]:
    """``(kind, path)`` for every lesson, interview notebook and solution, in course order."""
    found = [("lesson", p) for p in sorted((root / "notebooks").glob("[0-9][0-9]*_*.ipynb"))]  # 10a_... too
    found += [("interview", p) for p in sorted((root / "notebooks" / "interview").glob("*.ipynb"))
              if ".ipynb_checkpoints" not in p.parts]
    found += [("solution", p) for p in sorted((root / "solutions").glob("[0-9][0-9]_*.ipynb"))]
    return found


def _cpu() -> float:
    """CPU seconds (user + system) of this process and its finished children (the kernels it ran)."""
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run_one(path: str) -> dict:
    """Execute one notebook in a fresh kernel; return its wall time and CPU time (seconds) and errors.

    ``cpu_seconds`` counts the kernel (a child, reaped when it shuts down) and the nbclient driving it:
    what the notebook costs whatever else the machine is running.
    """
    os.environ["COURSE_LLM"] = "mock"
    os.environ["COURSE_DATA_DIR"] = tempfile.mkdtemp(prefix="course-bench-")
    from course_lib import notebooks

    start, cpu = time.perf_counter(), _cpu()
    try:
        nb = notebooks.execute(Path(path))
        errors = [f"cell {i}: {n}: {v}" for i, n, v in notebooks.errors_in(nb)]
    except Exception as e:  # a timeout or a dead kernel is a result too
        errors = [f"{type(e).__name__}: {e}"]
    return {"path": path, "seconds": round(time.perf_counter() - start, 2), "cpu_seconds": round(_cpu() - cpu, 2),
            "errors": errors}


def measure(jobs: int = 2) -> dict:
    """Run every course notebook with ``jobs`` at once; return per-notebook and total figures."""
    items = course_notebooks()
    kinds = {str(p): k for k, p in items}
    start = time.perf_counter()
    rows = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_one, str(p)) for _, p in items]
        for f in as_completed(futures):
            rows.append(f.result())
    wall = time.perf_counter() - start
    order = {str(p): i for i, (_, p) in enumerate(items)}
    rows.sort(key=lambda r: order[r["path"]])
    for r in rows:
        r["kind"] = kinds[r["path"]]
        r["path"] = str(Path(r["path"]).relative_to(ROOT))
    lessons = [r for r in rows if r["kind"] == "lesson"]
    return {
        "date": time.strftime("%Y-%m-%d %H:%M"), "machine": platform.machine(), "cores": os.cpu_count(),
        "python": platform.python_version(), "jobs": jobs, "notebooks": rows,
        "wall_seconds": round(wall, 1), "sum_seconds": round(sum(r["seconds"] for r in rows), 1),
        "slowest_lesson_seconds": max((r["seconds"] for r in lessons), default=0.0),
        "lessons_over_target": [r["path"] for r in lessons if r["seconds"] > LESSON_TARGET],
        "failed": [r["path"] for r in rows if r["errors"]],
    }


def table(result: dict) -> str:
    """The result as a Markdown table (as pasted into ``benchmarks/README.md``)."""
    lines = ["| notebook | kind | seconds | |", "|---|---|---:|---|"]
    for r in result["notebooks"]:
        flag = "❌ " + "; ".join(r["errors"])[:80] if r["errors"] else (
            "over 10 s" if r["kind"] == "lesson" and r["seconds"] > LESSON_TARGET else "")
        lines.append(f"| `{r['path']}` | {r['kind']} | {r['seconds']:.1f} | {flag} |")
    ok = result["wall_seconds"] <= COURSE_TARGET
    lines.append(f"\n{len(result['notebooks'])} notebooks, {result['jobs']} at a time on {result['cores']} cores: "
                 f"**{result['wall_seconds']:.1f} s wall** (target ≤ {COURSE_TARGET:.0f} s: "
                 f"{'met' if ok else 'MISSED'}), {result['sum_seconds']:.1f} s of notebook time; slowest lesson "
                 f"{result['slowest_lesson_seconds']:.1f} s (target ≤ {LESSON_TARGET:.0f} s"
                 f"{': ' + ', '.join(result['lessons_over_target']) + ' over' if result['lessons_over_target'] else ': met'}).")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="notebooks run at once (default 2, the CI's cores)")
    parser.add_argument("--json", action="store_true", help="also print the JSON result")
    args = parser.parse_args(argv)
    result = measure(args.jobs)
    out = ROOT / "benchmarks" / "results" / "course_runtime.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"# Course runtime, {result['date']}, {result['machine']}, {result['cores']} cores, "
          f"Python {result['python']}\n")
    print(table(result))
    if args.json:
        print(json.dumps(result, indent=2))
    return 1 if result["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
