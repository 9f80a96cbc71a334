"""Cost of one mock decision against the length of the user's message (issue 14 item 1, engine side).

A learner may paste a long document into a request. The engine reads the first
``course_lib.mock_llm.reading.READ_LIMIT`` characters of the user's last message (cut at a sentence
end) and accepts the rest without reading it, so the time to decide is bounded whatever the length;
what still grows with the length (decoding the JSON body, copying the text) is linear.

Each row sends one request through the real ``openai`` SDK to the in-process mock (a fresh
``MockLLM`` per request, so nothing is answered from memory): a message of N KB of prose that names
places, numbers and dates in many sentences (the hardest kind for the clause planner), with two tools.
The mock's context limit is raised for the run (by default a message over 128,000 tokens, ~500 KB, gets
the API's ``context_length_exceeded`` before the engine sees it).
``--limit`` changes the read limit for the run (``--limit 0``: no limit, the engine as it was before,
quadratic in the number of clauses; keep ``--sizes`` small then).

Usage::

    python benchmarks/request_size.py [--sizes 1,4,16,64,256,1024] [--repeat 3] [--limit N] [--json]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

RESULTS = REPO / "benchmarks" / "results"
_WORDS = ("please check the weather in Paris tomorrow and also look at the report numbers 42 and 17 for the team "
          "meeting notes on March 3 in Berlin").split()
TOOLS = [
    {"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city",
                                      "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                     "required": ["city"]}}},
    {"type": "function", "function": {"name": "search_notes", "description": "Search the team's meeting notes",
                                      "parameters": {"type": "object", "properties": {"query": {"type": "string"}},
                                                     "required": ["query"]}}},
]


def prose(n_bytes: int, seed: int = 0) -> str:
    """About ``n_bytes`` of sentences made of :data:`_WORDS` (deterministic for a seed)."""
    rnd = random.Random(seed)
    out, size = [], 0
    while size < n_bytes:
        word = rnd.choice(_WORDS) + ("." if rnd.random() < 0.08 else "")
        out.append(word)
        size += len(word) + 1
    return " ".join(out)[:n_bytes]


def measure(sizes_kb: list[int], repeat: int = 3) -> list[dict]:
    """Median seconds per request for each size (KB), through the openai SDK, a fresh mock each time."""
    from course_lib.mock_llm import MockLLM
    from course_lib.mock_llm.limits import Limits

    limits = Limits(max_context_tokens=10**7)  # past 128k tokens (~500 KB) the wire refuses, as the API does
    rows = []
    for kb in sizes_kb:
        times = []
        for r in range(repeat):
            text = prose(kb * 1024, seed=r)
            client = MockLLM(limits=limits).client(max_retries=0)
            start = time.perf_counter()
            client.chat.completions.create(model="mock-llm", messages=[{"role": "user", "content": text}], tools=TOOLS)
            times.append(time.perf_counter() - start)
        rows.append({"kb": kb, "seconds": round(statistics.median(times), 4)})
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="1,4,16,64,256,1024", help="message sizes in KB, comma-separated")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--limit", type=int, help="characters the engine reads (0: no limit)")
    p.add_argument("--json", nargs="?", const=str(RESULTS / "request_size.json"))
    args = p.parse_args(argv)
    from course_lib.mock_llm import reading as engine  # the read stage holds READ_LIMIT

    if args.limit is not None:
        engine.READ_LIMIT = args.limit or 10**12
    rows = measure([int(s) for s in args.sizes.split(",") if s], args.repeat)
    print(f"read limit: {engine.READ_LIMIT} characters")
    print(f"{'message':>9} {'seconds':>9} {'ms per KB':>10}")
    for row in rows:
        print(f"{row['kb']:>6} KB {row['seconds']:>9.3f} {1000 * row['seconds'] / row['kb']:>10.2f}")
    if args.json:
        path = Path(args.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"read_limit": engine.READ_LIMIT, "rows": rows}, indent=1))
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
