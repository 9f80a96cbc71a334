"""A seeded generator of bad JSON-RPC messages, and the rules a well-formed answer follows (for the fuzz tests).

Each message starts from a valid one (a request or a notification of the server's own methods,
with its real tool and prompt names) and gets one or more mutations of the kinds public bug
reports show: wrong or missing ``jsonrpc``, ids of every JSON type, methods that are not strings
or do not exist, ``params`` of the wrong type, arguments of the wrong types (``60.0``, ``true``,
nested 300 levels, 100 kB strings, lone surrogates, emoji), extra keys, top-level values that
are not objects, batches, truncated text, invalid UTF-8, ``NaN``. The generator is our own
(no hypothesis dependency) and deterministic for a seed, so a failure replays exactly.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

BAD_IDS: list[Any] = [None, 1.5, 1.0, True, False, {}, {"a": 1}, [], [1], -0.5, 1e308]
GOOD_IDS: list[Any] = [0, -1, 2**53, 10**20, "", "a" * 300, "中文 🚀"]
WEIRD_VALUES: list[Any] = [None, True, False, 0, -1, 60.0, 1.5, 1e308, -1e308, "", "x", "Messgerät 🚀 中文",
                           "a" * 100_000, [], {}, [1, "a", None], {"nested": {"deeper": [1, 2, {"x": None}]}},
                           "\u0000", "\\u0000", "'; DROP TABLE tasks; --", "../../etc/passwd", "{{code}}"]


@dataclass
class Fuzzed:
    """One generated message: the bytes sent and what kind of answer it deserves."""

    raw: bytes
    replies: frozenset  # allowed numbers of replies: {0}, {1} or {0, 1}
    request_id: Any = None  # the id the reply must carry (None: null or not checked)
    label: str = ""


def _deep(depth: int) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = [value]
    return value


def _text(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, allow_nan=True)


class MessageFuzzer:
    """Generate bad messages for a server whose methods, tools and prompts are given.

    Args:
        seed: the random seed (same seed, same messages).
        tools: ``{tool name: {argument name: a valid value}}``.
        prompts: ``{prompt name: {argument name: a valid value}}``.
        methods: extra method names to call with ``{}`` params.
        mcp: True for MCP rules (an array is refused whole; ids must be strings or integers),
            False for plain JSON-RPC 2.0 (batches allowed; ``null`` and fractional ids accepted).
        max_depth: JSON nested deeper than this is a parse error for the server under test.
    """

    def __init__(self, seed: int, *, tools: dict[str, dict[str, Any]] | None = None,
                 prompts: dict[str, dict[str, Any]] | None = None, methods: list[str] | None = None,
                 mcp: bool = True, max_depth: int = 200) -> None:
        self.max_depth = max_depth
        self.rng = random.Random(seed)
        self.tools = tools or {}
        self.prompts = prompts or {}
        self.methods = methods or []
        self.mcp = mcp
        self.counter = 0

    # -- valid starting points ---------------------------------------------------------------
    def _base(self) -> dict[str, Any]:
        self.counter += 1
        rid = f"fuzz-{self.counter}"
        choices = ["tools/list", "ping"] + [f"tool:{t}" for t in self.tools] + [f"prompt:{p}" for p in self.prompts]
        choices += [f"method:{m}" for m in self.methods] + ["notification"]
        pick = self.rng.choice(choices)
        if pick.startswith("tool:"):
            name = pick[5:]
            return {"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                    "params": {"name": name, "arguments": dict(self.tools[name])}}
        if pick.startswith("prompt:"):
            name = pick[7:]
            return {"jsonrpc": "2.0", "id": rid, "method": "prompts/get",
                    "params": {"name": name, "arguments": dict(self.prompts[name])}}
        if pick.startswith("method:"):
            return {"jsonrpc": "2.0", "id": rid, "method": pick[7:], "params": {}}
        if pick == "notification":
            return {"jsonrpc": "2.0", "method": self.rng.choice(
                ["notifications/initialized", "notifications/cancelled", "notifications/progress", "no/such/thing",
                 "notify_hello"]), "params": {}}
        return {"jsonrpc": "2.0", "id": rid, "method": pick, "params": {}}

    # -- mutations -------------------------------------------------------------------------------
    def _mutate(self, msg: dict[str, Any]) -> Any:
        r = self.rng
        kind = r.choice(["id", "id", "jsonrpc", "method", "params", "arguments", "arguments", "extra", "name",
                         "drop", "deep", "big"])
        if kind == "id":
            msg["id"] = r.choice(BAD_IDS + GOOD_IDS)
        elif kind == "jsonrpc":
            value = r.choice(["1.0", 2.0, None, "", "2.0 ", ["2.0"], "DROP"])
            if value == "DROP":
                msg.pop("jsonrpc", None)
            else:
                msg["jsonrpc"] = value
        elif kind == "method":
            msg["method"] = r.choice([None, 5, True, [], {}, "", "tools/", "TOOLS/LIST", "rpc.discover",
                                      "x" * 10_000, "tools/call\u0000", "初始化"])
        elif kind == "params":
            msg["params"] = r.choice(["bar", 5, None, True, [], [1, 2], {"_meta": 5}, {"_meta": {"progressToken": []}}])
        elif kind == "arguments" and isinstance(msg.get("params"), dict):
            args = msg["params"].get("arguments")
            if isinstance(args, dict) and args and r.random() < 0.7:
                key = r.choice(sorted(args))
                args[key] = r.choice(WEIRD_VALUES + [_deep(r.choice([50, 150, 300]))])
            else:
                msg["params"]["arguments"] = r.choice(["text", 5, [], None, [{"a": 1}], {"unexpected": 1},
                                                       {"": None}, {"a" * 1000: "b"}])
        elif kind == "name" and isinstance(msg.get("params"), dict):
            msg["params"]["name"] = r.choice([None, 5, "", "no_such_tool", "../x", "x" * 5000, ["list"], "crash "])
        elif kind == "extra":
            msg[r.choice(["result", "error", "extra", "ID", "Method"])] = r.choice(WEIRD_VALUES[:12])
        elif kind == "drop" and msg:
            for key in r.sample(sorted(msg), k=r.randint(1, len(msg))):
                msg.pop(key)
        elif kind == "deep":
            msg.setdefault("params", {})
            if isinstance(msg["params"], dict):
                msg["params"]["deep"] = _deep(r.choice([100, 199, 200, 201, 202, 250, 500]))
        elif kind == "big" and isinstance(msg.get("params"), dict):
            msg["params"]["padding"] = "p" * r.choice([10_000, 300_000])
        return msg

    def _raw_kinds(self) -> Fuzzed:
        """Messages that are not a mutated object: broken text and other top-level values."""
        r = self.rng
        valid = _text(self._base())
        cut = valid[: r.randint(1, max(1, len(valid) - 1))]
        raw_choices: list[tuple[bytes, str]] = [
            (cut.encode(), "truncated"), (b"\xff\xfe" + valid.encode(), "invalid utf-8"),
            (valid.encode()[:-1] + b"\x80}", "invalid utf-8 at the end"), (b"null", "null"), (b"5", "number"),
            (b'"text"', "string"), (b"true", "true"), (b"[]", "empty batch"), (b"[1, 2]", "batch of numbers"),
            (("[" + valid + "]").encode(), "batch of one"), (("[" + valid + "," + valid + "]").encode(), "batch of two"),
            (b'{"jsonrpc":"2.0","id":NaN,"method":"ping"}', "NaN id"), (b"{,}", "broken object"),
            (b'{"jsonrpc":"2.0","id":1,"method":"ping"', "unclosed"), (("[" * 3000 + "]" * 3000).encode(), "deep array"),
            (b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}', "lone surrogate id"),
            (b'{"jsonrpc":"2.0","id":"x","method":"ping"} {"jsonrpc":"2.0","id":"y","method":"ping"}', "two objects"),
        ]
        raw, label = r.choice(raw_choices)
        return self._classify(raw, label)

    def generate(self, n: int) -> list[Fuzzed]:
        """``n`` messages: about a fifth broken text, the rest mutated objects (one to three mutations)."""
        out = []
        for _ in range(n):
            if self.rng.random() < 0.2:
                out.append(self._raw_kinds())
                continue
            msg: Any = self._base()
            for _ in range(self.rng.choice([1, 1, 2, 3])):
                if isinstance(msg, dict):
                    msg = self._mutate(msg)
            try:
                raw = _text(msg).encode("utf-8", "surrogatepass")
            except (TypeError, ValueError, RecursionError):
                continue
            out.append(self._classify(raw, "mutated"))
        return out

    # -- what the answer must look like --------------------------------------------------------------
    def _classify(self, raw: bytes, label: str) -> Fuzzed:
        try:
            data = json.loads(raw.decode("utf-8"), parse_constant=_refuse)
            json.dumps(data, ensure_ascii=False).encode("utf-8")  # a lone surrogate ("\\ud800") is no text
            if depth(data) > self.max_depth:
                raise ValueError("too deep")
        except (ValueError, UnicodeError, RecursionError):
            return Fuzzed(raw, frozenset({1}), None, label)
        if isinstance(data, list):
            if self.mcp or not data:
                return Fuzzed(raw, frozenset({1}), None, label)
            return Fuzzed(raw, frozenset({0, 1}), None, label)  # a JSON-RPC batch: one array, or none
        if not isinstance(data, dict):
            return Fuzzed(raw, frozenset({1}), None, label)
        rid = data.get("id")
        valid_id = isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool))
        if not self.mcp:
            valid_id = valid_id or rid is None or (isinstance(rid, float) and not isinstance(rid, bool))
        if "method" not in data:  # a response, or nothing: an error reply, or silence for a well-formed response
            return Fuzzed(raw, frozenset({0, 1}), None, label)
        params = data.get("params", {})
        well_formed = data.get("jsonrpc") == "2.0" and isinstance(data.get("method"), str) and (
            isinstance(params, (dict, list)) or (self.mcp and params is None))  # MCP: null params = no params
        if "id" not in data:
            # A notification gets nothing; an invalid Request object (JSON-RPC §5) gets an error.
            return Fuzzed(raw, frozenset({0}) if well_formed else frozenset({0, 1}), None, label)
        return Fuzzed(raw, frozenset({1}), rid if valid_id and well_formed else None, label)


def depth(value: Any) -> int:
    """How deeply ``value`` nests arrays and objects (a scalar is 0)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, level)
            stack.extend((v, level + 1) for v in (node.values() if isinstance(node, dict) else node))
    return deepest


def _refuse(constant: str) -> Any:
    raise ValueError(constant)


#: The JSON-RPC 2.0 codes (§5.1) and the ones MCP and the kit use in errors.
KNOWN_CODES = {-32700, -32600, -32601, -32602, -32603, -32000, -32001, -32002, -32042, -32020}


def check_reply(reply: Any, fuzzed: Fuzzed) -> None:
    """Assert ``reply`` is one well-formed JSON-RPC 2.0 response (§5), an error with a known code if an error."""
    assert isinstance(reply, dict), f"{fuzzed.label}: the reply is not an object: {reply!r:.200}"
    assert reply.get("jsonrpc") == "2.0", f"{fuzzed.label}: {reply!r:.200}"
    assert ("result" in reply) != ("error" in reply), f"{fuzzed.label}: {reply!r:.200}"
    assert "id" in reply, f"{fuzzed.label}: {reply!r:.200}"
    if fuzzed.request_id is not None:
        assert reply["id"] == fuzzed.request_id, f"{fuzzed.label}: id {reply['id']!r} for {fuzzed.request_id!r}"
    if "error" in reply:
        error = reply["error"]
        assert isinstance(error, dict) and isinstance(error.get("code"), int) and isinstance(error.get("message"), str)
        assert error["code"] in KNOWN_CODES, f"{fuzzed.label}: code {error['code']} for {fuzzed.raw[:200]!r}"
        text = error["message"] + json.dumps(error.get("data"))
        assert "Traceback" not in text and "validation errors for union" not in text, text[:300]
