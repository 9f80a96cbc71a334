"""BFCL harness: the Berkeley Function Calling Leaderboard through the real ``openai`` SDK.

Runs the categories in ``../shared/eval/bfcl`` (the synthetic ``simple_python``, ``multiple``,
``parallel``, ``irrelevance`` and the user-contributed ``live_multiple``) against the course's
mock LLM, in-process, and scores the tool calls the SDK returns with BFCL's AST rules as
``shared/README.md`` states them:

* BFCL types map to JSON Schema (``dict`` -> ``object``, ``float`` -> ``number``,
  ``tuple`` -> ``array``, ``any`` -> no type); dotted names map to ``^[a-zA-Z0-9_-]+$`` by
  replacing every other character with ``_`` (the answers' names are mapped the same way);
* for each parameter the answer lists the accepted values; ``""`` means it may be left out;
  a parameter the answer does not list is an error;
* strings compare case-insensitively after removing spaces and ``,./-_*^``; an integer is
  accepted where a number (float) is expected, never the other way round; lists compare
  element by element, objects key by key;
* parallel calls match in any order (a one-to-one matching), ``simple``/``multiple`` need
  exactly one call; irrelevance items pass only when the model makes no call.

Usage::

    python benchmarks/bfcl.py [DATA_DIR] [--baseline] [--json PATH] [--show KIND] [--limit N]

Beside accuracy each category reports **precision**: right replies among the replies that make a
call. A wrong call is worse than an honest text reply (a learner takes it as a sign their tool is
broken), so the counts of wrong calls and of replies without a call are shown apart. In
``irrelevance`` every call is wrong, so its precision is 0 % as soon as it makes one call; its
accuracy is the share of replies that rightly make none.

The scorer and the runner are plain functions, so ``tests/test_bfcl_harness.py`` can
prove the scorer with known-good and known-bad fake models on items of its own.
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script: make course_lib importable without installing
    sys.path.insert(0, str(REPO))

CATEGORIES = ("simple_python", "multiple", "parallel", "irrelevance", "live_multiple")
RESULTS = REPO / "benchmarks" / "results"
TARGETS = {"simple_python": 0.85, "multiple": 0.75, "parallel": 0.65, "irrelevance": 0.85, "live_multiple": 0.65}
#: Right replies among those that make a call, in every category (issue 13).
PRECISION_TARGET = 0.90
_TYPES = {"dict": "object", "float": "number", "tuple": "array", "int": "integer", "bool": "boolean",
          "str": "string", "list": "array"}
_STRIP = re.compile(r"[ ,./\-_*^]")


# ---------------------------------------------------------------------------- data
def default_data_dir() -> Path:
    """``../shared/eval/bfcl`` beside the repository root (``$BFCL_DATA`` overrides it).

    In a git worktree that lives elsewhere, the main checkout's ``../shared`` is used.
    """
    import os
    import subprocess

    if os.environ.get("BFCL_DATA"):
        return Path(os.environ["BFCL_DATA"])
    here = REPO.parent / "shared" / "eval" / "bfcl"
    if here.exists():
        return here
    try:
        common = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--git-common-dir"], capture_output=True,
                                text=True, check=True).stdout.strip()
        main_root = (REPO / common).resolve().parent
        if (main_root.parent / "shared" / "eval" / "bfcl").exists():
            return main_root.parent / "shared" / "eval" / "bfcl"
    except (OSError, subprocess.CalledProcessError):
        pass
    return here


def tool_name(name: str) -> str:
    """A BFCL function name as an OpenAI tool name: ``"math.factorial"`` -> ``"math_factorial"``."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", name)


def to_json_schema(schema: Any) -> Any:
    """A BFCL parameter schema as JSON Schema (``dict``/``float``/``tuple``/``any`` mapped).

    Returns a new object; the input is not changed.
    """
    if isinstance(schema, list):
        return [to_json_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, str):
            if value == "any":
                continue
            out[key] = _TYPES.get(value, value)
        elif key == "properties" and isinstance(value, dict):
            out[key] = {k: to_json_schema(v) for k, v in value.items()}
        elif key in ("items", "additionalProperties", "anyOf", "oneOf", "allOf"):
            out[key] = to_json_schema(value)
        else:
            out[key] = value
    return out


def to_openai_tool(function: dict) -> dict:
    """A BFCL ``function`` entry as a Chat Completions ``tools[i]`` object."""
    params = to_json_schema(function.get("parameters") or {"type": "object", "properties": {}})
    params.setdefault("type", "object")
    return {"type": "function", "function": {"name": tool_name(function["name"]),
                                             "description": function.get("description", ""),
                                             "parameters": params}}


@dataclass
class Item:
    """One BFCL question: the messages, the tools and the accepted calls (None: no call)."""

    id: str
    category: str
    messages: list[dict]
    tools: list[dict]
    answers: list[dict] | None

    def __repr__(self) -> str:
        return f"Item({self.id}, {len(self.tools)} tools)"


def load_category(data_dir: Path, category: str) -> list[Item]:
    """Read ``BFCL_v4_<category>.json`` (and its ``.answers.json``) from ``data_dir``.

    Raises:
        FileNotFoundError: the data folder does not hold that category.
    """
    data_dir = Path(data_dir)
    questions = [json.loads(line) for line in (data_dir / f"BFCL_v4_{category}.json").read_text().splitlines()
                 if line.strip()]
    answers: dict[str, list[dict]] = {}
    answer_file = data_dir / f"BFCL_v4_{category}.answers.json"
    if answer_file.exists():
        for line in answer_file.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                answers[row["id"]] = [{tool_name(n): p for n, p in call.items()} for call in row["ground_truth"]]
    return [Item(q["id"], category, q["question"][0], [to_openai_tool(f) for f in q["function"]],
                 answers.get(q["id"])) for q in questions]


# ---------------------------------------------------------------------------- scoring
@dataclass
class Reply:
    """What a model answered: its tool calls as ``(name, arguments)`` and its text."""

    calls: list[tuple[str, Any]] = field(default_factory=list)
    content: str | None = None
    error: str | None = None  # the request failed (HTTP error, unparsable arguments)


def normalize(s: str) -> str:
    """A string as BFCL compares it: lower case, without spaces and ``,./-_*^``."""
    return _STRIP.sub("", s).lower()


_norm = normalize


def _type_of(schema: dict | None) -> str | None:
    t = (schema or {}).get("type")
    return t if isinstance(t, str) else None


def value_matches(value: Any, accepted: Any, schema: dict | None = None) -> bool:
    """Whether ``value`` equals one accepted value under BFCL's comparison rules.

    ``accepted`` is a single accepted value (not the list of them); ``schema`` is the
    parameter's JSON Schema, used for the int-for-float rule and nested items.
    """
    kind = _type_of(schema)
    if isinstance(accepted, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(accepted, bool) and value == accepted
    if isinstance(accepted, (int, float)):
        if not isinstance(value, (int, float)):
            return False
        if isinstance(value, float) and not isinstance(accepted, float) and kind == "integer":
            return False  # a float where an integer is expected is a type error
        return float(value) == float(accepted)
    if isinstance(accepted, str):
        return isinstance(value, str) and _norm(value) == _norm(accepted)
    if isinstance(accepted, list):
        if not isinstance(value, list) or len(value) != len(accepted):
            return False
        items = (schema or {}).get("items") if isinstance((schema or {}).get("items"), dict) else None
        return all(value_matches(v, a, items) for v, a in zip(value, accepted))
    if isinstance(accepted, dict):
        return isinstance(value, dict) and _dict_matches(value, accepted, schema)
    return value == accepted


def _dict_matches(value: dict, accepted: dict, schema: dict | None) -> bool:
    """Nested objects: each accepted key holds a list of accepted values (``""``: may be left out)."""
    props = (schema or {}).get("properties") or {}
    for key, v in value.items():
        if key not in accepted:
            return False
        options = accepted[key] if isinstance(accepted[key], list) else [accepted[key]]
        if not any(value_matches(v, a, props.get(key)) for a in options if a != ""):
            return False
    return all("" in (opts if isinstance(opts, list) else [opts]) for k, opts in accepted.items() if k not in value)


def _kind_name(schema: dict | None, value: Any = None) -> str:
    if schema and "enum" in schema:
        return "enum"
    t = _type_of(schema)
    if t:
        return t
    return type(value).__name__ if value is not None else "any"


def check_call(name: str, args: Any, expected: dict, tool: dict | None) -> str | None:
    """Compare one call with one accepted call; None when it matches, else the failure kind.

    Args:
        name: the called tool's name; ``args``: its decoded arguments.
        expected: ``{tool name: {param: [accepted values]}}`` (one entry).
        tool: the tool's Chat Completions definition (for parameter types), or None.

    Returns:
        None, or a kind such as ``"wrong_function"``, ``"missing:integer"``,
        ``"unexpected_param"``, ``"wrong_value:string"``.
    """
    (want_name, params), = expected.items()
    if name != want_name:
        return "wrong_function"
    if not isinstance(args, dict):
        return "arguments_not_object"
    props = ((tool or {}).get("function", {}).get("parameters") or {}).get("properties") or {}
    for key in args:
        if key not in params:
            return "unexpected_param"
    for key, options in params.items():
        options = options if isinstance(options, list) else [options]
        if key not in args:
            if "" not in options:
                return f"missing:{_kind_name(props.get(key))}"
            continue
        if not any(value_matches(args[key], a, props.get(key)) for a in options if a != ""):
            return f"wrong_value:{_kind_name(props.get(key), args[key])}"
    return None


def _match_all(calls: list[tuple[str, Any]], expected: list[dict], tools: dict[str, dict]) -> str | None:
    """A one-to-one matching of calls to accepted calls (any order); None when one exists."""
    first_kind: list[str] = []

    def search(i: int, used: frozenset[int]) -> bool:
        if i == len(expected):
            return True
        for j, (name, args) in enumerate(calls):
            if j in used:
                continue
            kind = check_call(name, args, expected[i], tools.get(name))
            if kind is None:
                if search(i + 1, used | {j}):
                    return True
            elif not first_kind:
                first_kind.append(kind)
        return False

    if search(0, frozenset()):
        return None
    return first_kind[0] if first_kind else "no_match"


def score_item(item: Item, reply: Reply) -> str | None:
    """Score one reply: None when it passes, else the failure kind (a short string)."""
    if reply.error:
        return f"error:{reply.error.split(':')[0]}"
    if item.answers is None:  # irrelevance: any call is wrong
        return "called_a_tool" if reply.calls else None
    if not reply.calls:
        return "no_call:asked" if reply.content and "?" in reply.content else "no_call:declined"
    if len(reply.calls) != len(item.answers):
        return "too_many_calls" if len(reply.calls) > len(item.answers) else "too_few_calls"
    tools = {t["function"]["name"]: t for t in item.tools}
    return _match_all(reply.calls, item.answers, tools)


# ---------------------------------------------------------------------------- models
Model = Callable[[list[dict], list[dict]], Reply]


def sdk_model(client: Any, model: str = "mock-llm") -> Model:
    """A :data:`Model` that asks ``client`` (an ``openai.OpenAI``) through Chat Completions."""
    import openai

    def ask(messages: list[dict], tools: list[dict]) -> Reply:
        try:
            r = client.chat.completions.create(model=model, messages=messages, tools=tools)
        except openai.APIStatusError as e:
            return Reply(error=f"http_{e.status_code}: {e.message}")
        msg = r.choices[0].message
        calls = []
        for c in msg.tool_calls or []:
            try:
                calls.append((c.function.name, json.loads(c.function.arguments)))
            except ValueError:
                return Reply(error=f"invalid_json: {c.function.arguments[:80]}")
        return Reply(calls, msg.content)

    return ask


def mock_model() -> Model:
    """The course's mock LLM, in-process, through the real ``openai`` SDK."""
    from course_lib.mock_llm import MockLLM

    return sdk_model(MockLLM().client(max_retries=0))


class PlaceholderLLM:
    """The usual mock of other toolkits: call every tool with schema-shaped placeholders.

    In the manner of pydantic-ai's ``TestModel``: every tool is called once, each required
    property gets a value of its type (the first enum value, ``"a"``, ``0``, ``0.0``,
    ``False``, a one-item array, a nested object filled the same way). Served through the
    same in-process transport as the course's mock, so the comparison is like for like.
    """

    def __repr__(self) -> str:
        return "PlaceholderLLM()"

    @staticmethod
    def placeholder(schema: dict) -> Any:
        """A value shaped like ``schema``."""
        if "enum" in schema and schema["enum"]:
            return schema["enum"][0]
        t = schema.get("type", "string")
        t = t[0] if isinstance(t, list) else t
        if t == "object":
            req = schema.get("required") or []
            return {k: PlaceholderLLM.placeholder(v) for k, v in (schema.get("properties") or {}).items() if k in req}
        if t == "array":
            return [PlaceholderLLM.placeholder(schema.get("items") or {})]
        return {"integer": 0, "number": 0.0, "boolean": False, "null": None}.get(t, "a")

    def handle(self, method: str, path: str, headers: dict, body: bytes):
        from course_lib.mock_llm.server import HTTPReply

        data = json.loads(body)
        calls = [{"id": f"call_{i}", "type": "function",
                  "function": {"name": t["function"]["name"],
                               "arguments": json.dumps(self.placeholder(t["function"].get("parameters") or {}))}}
                 for i, t in enumerate(data.get("tools") or [])]
        message = {"role": "assistant", "content": None if calls else "ok", **({"tool_calls": calls} if calls else {})}
        completion = {"id": "chatcmpl-placeholder", "object": "chat.completion", "created": 0,
                      "model": data.get("model", "placeholder"),
                      "choices": [{"index": 0, "message": message,
                                   "finish_reason": "tool_calls" if calls else "stop"}]}
        return HTTPReply(200, {"content-type": "application/json"}, json.dumps(completion).encode())


def placeholder_model() -> Model:
    """:class:`PlaceholderLLM` through the real ``openai`` SDK (in-process)."""
    import httpx2
    import openai

    from course_lib.llm_client import MOCK_BASE_URL, InProcessTransport

    client = openai.OpenAI(api_key="x", base_url=MOCK_BASE_URL, max_retries=0,
                           http_client=httpx2.Client(transport=InProcessTransport(PlaceholderLLM())))
    return sdk_model(client, "placeholder")


# ---------------------------------------------------------------------------- running
@dataclass
class CategoryResult:
    """Accuracy of one model on one category, with every failure's id and kind."""

    category: str
    total: int = 0
    passed: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    called: int = 0  # replies that made at least one tool call
    called_right: int = 0  # ... and passed
    replies: dict[str, Reply] = field(default_factory=dict, repr=False)  # every reply, by item id

    @property
    def accuracy(self) -> float:
        return self.passed / self.total if self.total else 0.0

    @property
    def precision(self) -> float | None:
        """Right replies among the replies that make a call; None when no reply made one."""
        return self.called_right / self.called if self.called else None

    @property
    def wrong_calls(self) -> int:
        """Replies that made a call and failed (wrong tool, values, count, or any call in irrelevance)."""
        return self.called - self.called_right

    @property
    def no_call(self) -> int:
        """Replies without a call (asked, declined or answered in text), right or wrong."""
        return self.total - self.called

    def kinds(self) -> list[tuple[str, int]]:
        """Failure kinds, commonest first."""
        return collections.Counter(k for _, k in self.failures).most_common()

    def __repr__(self) -> str:
        return f"CategoryResult({self.category}: {self.passed}/{self.total} = {self.accuracy:.1%})"


def run_category(items: Iterable[Item], model: Model, category: str = "") -> CategoryResult:
    """Ask ``model`` every item and score the replies."""
    result = CategoryResult(category)
    start = time.perf_counter()
    for item in items:
        result.category = result.category or item.category
        reply = model(item.messages, item.tools)
        kind = score_item(item, reply)
        result.replies[item.id] = reply
        result.total += 1
        result.called += bool(reply.calls)
        if kind is None:
            result.passed += 1
            result.called_right += bool(reply.calls)
        else:
            result.failures.append((item.id, kind))
    result.seconds = time.perf_counter() - start
    return result


def run(data_dir: Path, model: Model, categories: Iterable[str] | None = None,
        limit: int | None = None) -> dict[str, CategoryResult]:
    """Run ``model`` on each category of the data folder; ``limit`` items per category at most.

    ``categories`` None: every one of :data:`CATEGORIES` whose file the folder holds.
    """
    if categories is None:
        categories = [c for c in CATEGORIES if (Path(data_dir) / f"BFCL_v4_{c}.json").exists()]
    out = {}
    for cat in categories:
        items = load_category(data_dir, cat)[:limit]
        out[cat] = run_category(items, model, cat)
    return out


def table(results: dict[str, dict[str, CategoryResult]], top: int = 4) -> str:
    """A plain-text table: one row per category and model, with the commonest failure kinds."""
    lines = [f"{'category':<14} {'model':<12} {'accuracy':>8} {'passed':>9} {'target':>7} {'precision':>9} "
             f"{'wrong calls':>11} {'no call':>7}  commonest failure kinds",
             "-" * 124]
    for cat in CATEGORIES:
        for label, per_cat in results.items():
            r = per_cat.get(cat)
            if r is None:
                continue
            kinds = ", ".join(f"{k} {n}" for k, n in r.kinds()[:top]) or "-"
            precision = "-" if r.precision is None else f"{r.precision:.1%}"
            lines.append(f"{cat:<14} {label:<12} {r.accuracy:>8.1%} {r.passed:>4}/{r.total:<4} "
                         f"{TARGETS[cat]:>7.0%} {precision:>9} {r.wrong_calls:>11} {r.no_call:>7}  {kinds}")
    return "\n".join(lines)


def to_json(results: dict[str, dict[str, CategoryResult]]) -> dict:
    """The results as JSON-ready data (per model, per category: accuracy, kinds, failures)."""
    return {label: {cat: {"accuracy": round(r.accuracy, 4), "passed": r.passed, "total": r.total,
                          "precision": None if r.precision is None else round(r.precision, 4),
                          "called": r.called, "wrong_calls": r.wrong_calls, "no_call": r.no_call,
                          "seconds": round(r.seconds, 3), "kinds": dict(r.kinds()),
                          "failures": [{"id": i, "kind": k} for i, k in r.failures]}
                    for cat, r in per_cat.items()}
            for label, per_cat in results.items()}


def _show(data_dir: Path, result: CategoryResult, kind: str, model: Model, n: int) -> None:
    """Print the failures of one kind (question, expected, got): for developers."""
    items = {i.id: i for i in load_category(data_dir, result.category)}
    shown = 0
    for item_id, k in result.failures:
        if not k.startswith(kind) or shown >= n:
            continue
        shown += 1
        item = items[item_id]
        reply = model(item.messages, item.tools)
        print(f"--- {item_id} [{k}]\n  Q: {item.messages[-1]['content']}")
        print(f"  want: {json.dumps(item.answers, ensure_ascii=False)[:600]}")
        print(f"  got:  {reply.calls or reply.content or reply.error}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("data_dir", nargs="?", default=None,
                   help="folder holding BFCL_v4_*.json (default: ../shared/eval/bfcl beside the repository)")
    p.add_argument("--categories", default=",".join(CATEGORIES))
    p.add_argument("--baseline", action="store_true", help="also score the placeholder mock (TestModel-style)")
    p.add_argument("--json", nargs="?", const=str(RESULTS / "bfcl.json"), help="write JSON results here")
    p.add_argument("--limit", type=int, help="at most N items per category")
    p.add_argument("--show", metavar="KIND", help="print the failures whose kind starts with KIND")
    p.add_argument("--show-n", type=int, default=15)
    p.add_argument("--dump", metavar="PATH", help="write every reply (calls, text) as JSON lines, to compare "
                   "the decisions of two engine versions item by item (diff the files)")
    args = p.parse_args(argv)
    data_dir = Path(args.data_dir) if args.data_dir else default_data_dir()
    cats = [c for c in args.categories.split(",") if c]
    models = {"course mock": mock_model()}
    if args.baseline:
        models["placeholder"] = placeholder_model()
    results = {label: run(data_dir, m, cats, args.limit) for label, m in models.items()}
    print(table(results))
    for label, per_cat in results.items():
        secs = sum(r.seconds for r in per_cat.values())
        n = sum(r.total for r in per_cat.values())
        print(f"{label}: {n} requests in {secs:.2f} s ({1000 * secs / max(n, 1):.2f} ms per request, through the SDK)")
    if args.show:
        for cat, r in results["course mock"].items():
            _show(data_dir, r, args.show, models["course mock"], args.show_n)
    if args.dump:
        with open(args.dump, "w") as f:
            for cat, r in results["course mock"].items():
                for item_id, reply in r.replies.items():
                    f.write(json.dumps({"id": item_id, "calls": reply.calls, "content": reply.content,
                                        "error": reply.error}, ensure_ascii=False, sort_keys=True) + "\n")
        print(f"wrote {args.dump}")
    if args.json:
        path = Path(args.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(to_json(results), indent=1, ensure_ascii=False))
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
