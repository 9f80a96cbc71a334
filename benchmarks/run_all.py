"""Every benchmark of the course kit in one run (``make bench``).

1. BFCL accuracy of the mock LLM through the ``openai`` SDK, beside the placeholder
   baseline (a TestModel-style mock), per category (:mod:`benchmarks.bfcl`);
2. the learner-request suite (tutorials' own tools and requests, English and Chinese): accuracy
   and precision per category (:mod:`benchmarks.learner_suite`);
3. every layer of the kit beside the bare library it wraps, as one table also written into
   ``benchmarks/README.md`` (:mod:`benchmarks.layers`): the mock vs the SDK floor (in-process and
   HTTP, through :mod:`benchmarks.latency`), registry dispatch, MCP ``tools/call`` per server and
   transport, stdio start-up, A2A ``SendMessage``, each lesson's first cell, load, hostile input;
4. speed-up of parallel tool calls and of lesson 06's dependency graph over serial execution
   (:mod:`benchmarks.orchestration`).

Results print as tables and go to ``benchmarks/results/*.json``; ``benchmarks/README.md``
records the figures of a reference run. Usage: ``python benchmarks/run_all.py [BFCL_DIR]``.
"""
from __future__ import annotations

import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import bfcl, layers, learner_suite, orchestration  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    import os

    print(f"# {time.strftime('%Y-%m-%d %H:%M')} on {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}\n")
    print("## BFCL (AST accuracy through the openai SDK)")
    bfcl.main(argv[:1] + ["--baseline", "--json"])
    print("\n## Learner-request suite (accuracy and precision through the openai SDK)")
    learner_suite.main(["--baseline", "--json"])
    print("\n## Every layer beside its floor (one table; also written into benchmarks/README.md)")
    layers.main(["--json", "--readme"])
    print("\n## Orchestration (parallel vs serial tool calls, share of the ideal speed-up)")
    orchestration.main(["--json"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
