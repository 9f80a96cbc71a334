"""Learner-request suite: tools and requests from public tutorials, through the real ``openai`` SDK.

The cases in ``benchmarks/learner_suite/*.json`` are what a learner tries first: the tool
definitions of the OpenAI, Anthropic and Gemini guides and cookbooks, the MCP quickstart and
reference servers, LangChain, pydantic-ai, the OpenAI Agents SDK, Ollama, DeepSeek and Qwen,
with their demo requests and requests written the way their readers write them, in English and
Chinese. ``benchmarks/learner_suite/README.md`` says where each tool set comes from and under
which licence.

Every case goes through the unmodified ``openai`` client to the in-process mock (as
:mod:`benchmarks.bfcl` does) and is scored with BFCL's rules (:func:`benchmarks.bfcl.score_item`):
per parameter a list of accepted values, ``""`` = may be left out, strings compared after
:func:`benchmarks.bfcl.normalize`, parallel calls in any order. Two additions, both general:

* an expected call may name several tools (``{"read_text_file": {...}, "read_file": {...}}``):
  any one of them is right (a server that lists a deprecated twin of a tool); or be a list of
  calls, any one of which is right (``add(a=15, b=27)`` or ``add(a=27, b=15)``);
* a case that expects no call may list ``answer`` substrings: the reply's text must contain one
  of them (after the same normalisation), or, when ``answer`` is a list of lists, one of each
  inner list (the key values of a tool result, the question mark of a clarifying question);
  ``answer_not`` lists substrings it must not contain (a unit the result does not say);
* a reply without a call that asks a question with a full-width ``？`` is ``no_call:asked``, as
  one with ``?`` is in BFCL's scorer.

Per category the harness prints the items, the accuracy, the **precision** (right calls among
the replies that make a call), the wrong calls, the replies without a call and the failure
kinds. ``--base-url`` scores any OpenAI-compatible endpoint instead (a real model, to check that
the expected replies are fair). Usage::

    python benchmarks/learner_suite.py [--categories single,zh] [--lang zh] [--show KIND] [--json [PATH]]
    OPENAI_API_KEY=... python benchmarks/learner_suite.py --base-url https://api.openai.com/v1 --model gpt-4.1
"""
from __future__ import annotations

import argparse
import collections
import itertools
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script: make course_lib and benchmarks importable
    sys.path.insert(0, str(REPO))

from benchmarks import bfcl  # noqa: E402

SUITE = REPO / "benchmarks" / "learner_suite"
RESULTS = REPO / "benchmarks" / "results"
CATEGORIES = ("single", "parallel", "multi_turn_after_result", "multi_turn_clarify", "irrelevance", "zh")
KINDS = CATEGORIES[:-1]  # what a ``zh`` case is besides Chinese
SHAPES = ("openai", "openai_responses", "anthropic", "gemini", "mcp")
TARGET_ACCURACY = 0.90  # issue 13: the whole suite
TARGET_PRECISION = 0.90  # issue 13: every category


# ---------------------------------------------------------------------------- data
def to_chat_tool(tool: dict, shape: str) -> dict:
    """One published tool definition as a Chat Completions ``tools[i]`` object.

    Args:
        tool: the definition as its source publishes it.
        shape: ``"openai"`` (already ``{"type": "function", "function": {...}}``),
            ``"openai_responses"`` (the Responses API's flat ``{"type": "function", "name": ...}``),
            ``"anthropic"`` (``input_schema``), ``"gemini"`` (a function declaration's
            ``parameters``) or ``"mcp"`` (``inputSchema``, MCP spec ``tools/list``).

    Returns:
        A new dict; the schema itself is not changed (``strict`` is kept where published).

    Raises:
        ValueError: an unknown shape.
    """
    if shape == "openai":
        return json.loads(json.dumps(tool))
    if shape not in SHAPES:
        raise ValueError(f"unknown tool shape {shape!r}; expected one of {SHAPES}")
    schema_key = {"openai_responses": "parameters", "anthropic": "input_schema", "gemini": "parameters",
                  "mcp": "inputSchema"}[shape]
    function = {"name": tool["name"], "description": tool.get("description", ""),
                "parameters": json.loads(json.dumps(tool.get(schema_key) or {"type": "object", "properties": {}}))}
    if "strict" in tool:
        function["strict"] = tool["strict"]
    return {"type": "function", "function": function}


@dataclass
class Case:
    """One learner request: the conversation, the tools, what a right reply is, where it comes from.

    ``expected`` lists the accepted calls in BFCL's answer style (``[]``: no call; an entry may
    name several tools or be a list of alternatives, see :func:`alternatives`); ``answer``
    lists substrings the reply's text must contain when no call is expected (None: no check).
    """

    id: str
    category: str
    lang: str
    kind: str
    messages: list[dict]
    tools: list[dict]
    expected: list
    answer: list | None
    source: str
    answer_not: tuple[str, ...] = ()
    group: str = ""
    toolsets: tuple[str, ...] = ()
    request: str = "written"
    note: str = ""

    def __repr__(self) -> str:
        return f"Case({self.id}, {self.category}, {len(self.tools)} tools)"


def load_toolsets(folder: Path = SUITE) -> dict[str, dict]:
    """Every tool set of every group file, by id, with its tools in the Chat Completions shape.

    Raises:
        ValueError: two files define the same tool set id.
    """
    out: dict[str, dict] = {}
    for path in sorted(Path(folder).glob("*.json")):
        for ts_id, ts in json.loads(path.read_text(encoding="utf-8")).get("toolsets", {}).items():
            if ts_id in out:
                raise ValueError(f"tool set {ts_id!r} defined twice ({path.name})")
            out[ts_id] = {**ts, "group": path.stem, "chat_tools": [to_chat_tool(t, ts["shape"]) for t in ts["tools"]]}
    return out


def load_suite(folder: Path = SUITE) -> list[Case]:
    """Read every ``*.json`` group file of the suite folder into cases (tools resolved).

    Raises:
        KeyError: a case names a tool set no file defines.
        ValueError: two cases share an id.
    """
    toolsets = load_toolsets(folder)
    cases: list[Case] = []
    seen: set[str] = set()
    for path in sorted(Path(folder).glob("*.json")):
        for row in json.loads(path.read_text(encoding="utf-8")).get("cases", []):
            if row["id"] in seen:
                raise ValueError(f"case id {row['id']!r} used twice")
            seen.add(row["id"])
            ids = row["toolset"] if isinstance(row["toolset"], list) else [row["toolset"]]
            tools = [t for ts in ids for t in toolsets[ts]["chat_tools"]]
            cases.append(Case(row["id"], row["category"], row["lang"], row.get("kind", row["category"]),
                              row["messages"], tools, row["expected"], row.get("answer"), row["source"],
                              tuple(row.get("answer_not", ())), path.stem, tuple(ids),
                              row.get("request", "written"), row.get("note", "")))
    return cases


# ---------------------------------------------------------------------------- scoring
def alternatives(call: dict | list) -> list[dict]:
    """The one-tool calls an expected entry accepts: a dict naming several tools accepts a call to
    any of them; a list of such dicts accepts any of its members (the same tool with other values)."""
    members = call if isinstance(call, list) else [call]
    return [{name: params} for member in members for name, params in member.items()]


def variants(expected: list) -> list[list[dict]]:
    """Every BFCL answer list an expected list stands for: ``[{"a": P, "b": Q}, {"c": R}]`` ->
    ``[[{"a": P}, {"c": R}], [{"b": Q}, {"c": R}]]``; ``[[{"a": P}, {"a": P2}]]`` -> ``[[{"a": P}], [{"a": P2}]]``."""
    return [list(combo) for combo in itertools.product(*(alternatives(c) for c in expected))]


def answer_kind(content: str | None, answer: list | None, answer_not: Iterable[str] = ()) -> str | None:
    """None when ``content`` states the answer, else ``"no_text"``, ``"answer_missing_value"``
    or ``"answer_contradicts"``.

    ``answer`` is a list of substrings (one must appear) or a list of such lists (one of each
    must appear), or None (anything); ``answer_not`` lists substrings that must not appear.
    Both sides are compared after :func:`benchmarks.bfcl.normalize`.
    """
    if not content or not content.strip():
        return "no_text"
    text = bfcl.normalize(content)
    groups = (answer if isinstance(answer[0], list) else [answer]) if answer else []
    if not all(any(bfcl.normalize(s) in text for s in group) for group in groups):
        return "answer_missing_value"
    if any(bfcl.normalize(s) in text for s in answer_not):
        return "answer_contradicts"
    return None


def score_case(case: Case, reply: bfcl.Reply) -> str | None:
    """Score one reply: None when right, else its failure kind.

    Kinds are BFCL's (``wrong_function``, ``wrong_value:string``, ``missing:integer``,
    ``too_few_calls``, ``no_call:asked``, ``called_a_tool``, ``error:http_400``...) plus
    ``no_text``, ``answer_missing_value`` and ``answer_contradicts`` for an answer that should
    state a value. When an expected call names several tools, the kind reported is the one of
    the tool the reply called, if it called one of them.
    """
    if reply.error:
        return f"error:{reply.error.split(':')[0]}"
    if not case.expected:
        if reply.calls:
            return "called_a_tool"
        if case.answer or case.answer_not:
            return answer_kind(reply.content, case.answer, case.answer_not)
        return None
    kinds = []
    for answers in variants(case.expected):
        kind = bfcl.score_item(bfcl.Item(case.id, case.category, case.messages, case.tools, answers), reply)
        if kind is None:
            return None
        kinds.append(kind)
    kind = next((k for k in kinds if k != "wrong_function"), kinds[0])
    if kind == "no_call:declined" and "？" in (reply.content or ""):
        return "no_call:asked"
    return kind


# ---------------------------------------------------------------------------- running
@dataclass
class Outcome:
    """One case's reply and verdict."""

    case: Case
    reply: bfcl.Reply
    kind: str | None

    @property
    def passed(self) -> bool:
        return self.kind is None

    @property
    def made_call(self) -> bool:
        return bool(self.reply.calls)


@dataclass
class Stats:
    """Accuracy and precision of one slice of the suite (a category, a language, a group)."""

    label: str
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.outcomes)

    @property
    def passed(self) -> int:
        return sum(o.passed for o in self.outcomes)

    @property
    def with_call(self) -> int:
        return sum(o.made_call for o in self.outcomes)

    @property
    def right_calls(self) -> int:
        return sum(o.made_call and o.passed for o in self.outcomes)

    @property
    def wrong_calls(self) -> int:
        """Replies that make a call and are wrong (a wrong tool, a wrong value, a call where none belongs)."""
        return self.with_call - self.right_calls

    @property
    def no_call(self) -> int:
        return self.total - self.with_call

    @property
    def accuracy(self) -> float:
        return self.passed / self.total if self.total else 0.0

    @property
    def precision(self) -> float | None:
        """Right calls among replies that make a call; None when no reply makes one."""
        return self.right_calls / self.with_call if self.with_call else None

    def kinds(self) -> list[tuple[str, int]]:
        """Failure kinds, commonest first."""
        return collections.Counter(o.kind for o in self.outcomes if o.kind).most_common()

    def __repr__(self) -> str:
        return f"Stats({self.label}: {self.passed}/{self.total} = {self.accuracy:.1%})"


def endpoint_model(base_url: str, model: str, api_key: str | None = None, max_retries: int = 2) -> bfcl.Model:
    """A ``bfcl.Model`` asking an OpenAI-compatible endpoint through the ``openai`` SDK.

    The key comes from ``api_key`` or ``$OPENAI_API_KEY`` (a placeholder when neither is set, as
    local servers need none). A request that cannot reach the endpoint is a reply with
    ``error="connection: ..."`` (scored ``error:connection``), so one bad request stops nothing.
    """
    import os

    import openai

    client = openai.OpenAI(base_url=base_url, api_key=api_key or os.environ.get("OPENAI_API_KEY") or "none",
                           max_retries=max_retries)
    ask = bfcl.sdk_model(client, model)

    def guarded(messages: list[dict], tools: list[dict]) -> bfcl.Reply:
        try:
            return ask(messages, tools)
        except openai.APIConnectionError as e:
            return bfcl.Reply(error=f"connection: {e}")

    return guarded


def run(cases: Iterable[Case], model: bfcl.Model) -> list[Outcome]:
    """Ask ``model`` (``bfcl.Model``: messages, tools -> Reply) every case and score the replies."""
    return [Outcome(c, reply, score_case(c, reply)) for c in cases for reply in [model(c.messages, c.tools)]]


def by(outcomes: list[Outcome], key: str, order: Iterable[str] = ()) -> dict[str, Stats]:
    """Outcomes grouped by a case attribute (``category``, ``lang``, ``group``, ``kind``...)."""
    groups: dict[str, Stats] = {k: Stats(k) for k in order}
    for o in outcomes:
        label = str(getattr(o.case, key))
        groups.setdefault(label, Stats(label)).outcomes.append(o)
    return {k: v for k, v in groups.items() if v.total}


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def table(outcomes: list[Outcome], top: int = 4) -> str:
    """Per category, then per language and per source group: items, accuracy, precision, wrong calls,
    replies without a call and the commonest failure kinds."""
    head = (f"{'slice':<24} {'items':>5} {'accuracy':>9} {'precision':>9} {'wrong':>6} {'no-call':>7}  "
            f"commonest failure kinds")
    lines = [head, "-" * 110]

    def row(s: Stats) -> str:
        kinds = ", ".join(f"{k} {n}" for k, n in s.kinds()[:top]) or "-"
        return (f"{s.label:<24} {s.total:>5} {_pct(s.accuracy):>9} {_pct(s.precision):>9} {s.wrong_calls:>6} "
                f"{s.no_call:>7}  {kinds}")

    for s in by(outcomes, "category", CATEGORIES).values():
        lines.append(row(s))
    lines.append(row(Stats("all", list(outcomes))))
    lines.append("")
    for s in by(outcomes, "lang").values():
        lines.append(row(Stats(f"lang {s.label}", s.outcomes)))
    for s in by(outcomes, "group").values():
        lines.append(row(Stats(f"group {s.label}", s.outcomes)))
    return "\n".join(lines)


def _record(o: Outcome) -> dict:
    return {"id": o.case.id, "category": o.case.category, "lang": o.case.lang, "kind": o.kind,
            "calls": [[n, a] for n, a in o.reply.calls], "content": (o.reply.content or "")[:300],
            "error": o.reply.error}


def to_json(outcomes: list[Outcome]) -> dict:
    """The results as JSON-ready data: per category, language and group, then every case."""
    def summary(s: Stats) -> dict:
        return {"items": s.total, "passed": s.passed, "accuracy": round(s.accuracy, 4),
                "precision": None if s.precision is None else round(s.precision, 4),
                "right_calls": s.right_calls, "wrong_calls": s.wrong_calls, "no_call": s.no_call,
                "kinds": dict(s.kinds())}

    return {"all": summary(Stats("all", list(outcomes))),
            "categories": {k: summary(s) for k, s in by(outcomes, "category", CATEGORIES).items()},
            "languages": {k: summary(s) for k, s in by(outcomes, "lang").items()},
            "groups": {k: summary(s) for k, s in by(outcomes, "group").items()},
            "cases": [_record(o) for o in outcomes]}


def show(outcomes: list[Outcome], kind: str, n: int = 15) -> str:
    """The failures whose kind starts with ``kind`` (``"all"``: every failure): the last user turn,
    what was wanted, what came."""
    lines = []
    prefix = "" if kind == "all" else kind
    for o in [o for o in outcomes if o.kind and o.kind.startswith(prefix)][:n]:
        last = next((m.get("content") for m in reversed(o.case.messages) if m["role"] == "user"), "")
        want = json.dumps(o.case.expected, ensure_ascii=False)[:400] if o.case.expected else \
            f"no call{'; text with ' + json.dumps(o.case.answer, ensure_ascii=False) if o.case.answer else ''}"
        got = o.reply.calls or o.reply.content or o.reply.error
        lines += [f"--- {o.case.id} [{o.kind}] ({o.case.category}, {o.case.source})", f"  Q: {last}",
                  f"  want: {want}", f"  got:  {got}"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--suite", default=str(SUITE), help="folder of the suite's JSON files")
    p.add_argument("--categories", default=",".join(CATEGORIES))
    p.add_argument("--lang", help="only cases in this language (en, zh)")
    p.add_argument("--baseline", action="store_true", help="also score the placeholder mock (TestModel-style)")
    p.add_argument("--base-url", help="score this OpenAI-compatible endpoint instead of the mock ($OPENAI_API_KEY)")
    p.add_argument("--model", default="gpt-4.1-mini", help="the model name sent with --base-url")
    p.add_argument("--max-retries", type=int, default=2, help="the SDK's retries with --base-url")
    p.add_argument("--json", nargs="?", const=str(RESULTS / "learner_suite.json"), help="write JSON results here")
    p.add_argument("--show", metavar="KIND", help="print the failures whose kind starts with KIND (all: every failure)")
    p.add_argument("--show-n", type=int, default=15)
    p.add_argument("--dump", metavar="PATH", help="write every reply (calls, text) as JSON lines, to compare "
                   "the replies of two engine versions case by case (diff the files)")
    args = p.parse_args(argv)
    cats = {c for c in args.categories.split(",") if c}
    cases = [c for c in load_suite(Path(args.suite)) if c.category in cats and (not args.lang or c.lang == args.lang)]
    if args.base_url:
        models = {f"endpoint {args.model}": endpoint_model(args.base_url, args.model, max_retries=args.max_retries)}
    else:
        models = {"course mock": bfcl.mock_model()}
    if args.baseline:
        models["placeholder"] = bfcl.placeholder_model()
    results = {}
    for label, model in models.items():
        start = time.perf_counter()
        results[label] = run(cases, model)
        secs = time.perf_counter() - start
        print(f"## {label}: {len(cases)} cases in {secs:.2f} s\n")
        print(table(results[label]))
        print()
    if args.show:
        print(show(next(iter(results.values())), args.show, args.show_n))
    if args.dump:
        with open(args.dump, "w") as f:
            for o in next(iter(results.values())):
                f.write(json.dumps({"id": o.case.id, "calls": o.reply.calls, "content": o.reply.content,
                                    "error": o.reply.error}, ensure_ascii=False, sort_keys=True) + "\n")
        print(f"wrote {args.dump}")
    if args.json:
        path = Path(args.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({k: to_json(v) for k, v in results.items()}, indent=1, ensure_ascii=False))
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
