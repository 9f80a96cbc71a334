"""The learner-request suite is well formed and its scorer scores what it should.

* every case is well formed: its tools are valid JSON Schema (the meta-schema of the draft
  each declares, 2020-12 otherwise) with OpenAI-valid names, its expected calls name existing
  tools and properties and give every required one a value, a call built from the expected
  values validates against the tool's schema, the conversation is a valid Chat Completions one,
  and every case and tool set names its source;
* there are at least 150 cases, in English and Chinese, in every category;
* a known-good fake scores 100 % (precision too), a known-bad one 0 % with the right kinds,
  on the real suite and on a small suite written here (every tool shape, every kind);
* the conversations go through the real ``openai`` SDK to the mock (scripted, so no test
  asserts the mock's own score: that lives in ``benchmarks/README.md``).
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import jsonschema
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks import bfcl  # noqa: E402
from benchmarks import learner_suite as ls  # noqa: E402

CASES = ls.load_suite()
NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
CJK = re.compile(r"[\u4e00-\u9fff]")


# ---------------------------------------------------------------------------- helpers
def first_value(options):
    """The first accepted value that is not "may be left out"; None when only that."""
    for value in options if isinstance(options, list) else [options]:
        if value != "":
            return (value,)
    return None


def build(value, schema):
    """A concrete value from an accepted value: nested objects hold lists of accepted values."""
    if isinstance(value, dict):
        props = resolve(schema or {}, schema or {}).get("properties", {})
        out = {}
        for key, options in value.items():
            picked = first_value(options)
            if picked is not None:
                out[key] = build(picked[0], props.get(key))
        return out
    if isinstance(value, list):
        items = (schema or {}).get("items")
        return [build(v, items if isinstance(items, dict) else None) for v in value]
    return value


def resolve(schema: dict, root: dict) -> dict:
    """Follow a local ``$ref`` (``#/$defs/X``) to its target."""
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if ref and ref.startswith("#/"):
        target = root
        for part in ref[2:].split("/"):
            target = target[part]
        return target
    return schema


def good_call(call: dict, tools: dict[str, dict]) -> tuple[str, dict]:
    """The call the expected values describe: the first tool named, each parameter's first value."""
    name, params = next(iter(call.items()))
    schema = tools[name]["function"]["parameters"]
    args = {}
    for key, options in params.items():
        picked = first_value(options)
        if picked is not None:
            args[key] = build(picked[0], {**resolve(schema.get("properties", {}).get(key, {}), schema),
                                          "$defs": schema.get("$defs", {})})
    return name, args


def good_reply(case: ls.Case) -> bfcl.Reply:
    tools = {t["function"]["name"]: t for t in case.tools}
    if case.expected:
        return bfcl.Reply(calls=[good_call(ls.alternatives(c)[0], tools) for c in case.expected])
    if case.answer:
        groups = case.answer if isinstance(case.answer[0], list) else [case.answer]
        return bfcl.Reply(content=" and ".join(g[0] for g in groups) + ".")
    return bfcl.Reply(content="None of my tools fits that; here is what I know.")


def fake(replies: dict[str, bfcl.Reply]) -> bfcl.Model:
    """A model answering each conversation (by its messages) with a fixed reply."""
    table = {json.dumps(c.messages, sort_keys=True): replies[c.id] for c in CASES + SMALL if c.id in replies}

    def ask(messages, tools):
        return table[json.dumps(messages, sort_keys=True)]

    return ask


def validator_for(schema: dict):
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return cls


# ---------------------------------------------------------------------------- the data
def test_at_least_150_cases_in_both_languages_and_every_category():
    assert len(CASES) >= 150
    assert {c.lang for c in CASES} == {"en", "zh"}
    assert {c.category for c in CASES} == set(ls.CATEGORIES)
    by_cat = {cat: sum(c.category == cat for c in CASES) for cat in ls.CATEGORIES}
    assert min(by_cat.values()) >= 10, by_cat
    assert {c.kind for c in CASES if c.category == "zh"} <= set(ls.KINDS)
    assert len({c.kind for c in CASES if c.category == "zh"}) >= 4  # Chinese of several kinds, not only single
    assert len({c.group for c in CASES}) >= 6
    assert len({c.id for c in CASES}) == len(CASES)


def test_every_tool_is_valid_json_schema_with_an_openai_name_and_a_source():
    problems = []
    for ts_id, ts in ls.load_toolsets().items():
        if not ts.get("source"):
            problems.append(f"{ts_id}: no source")
        if ts["shape"] not in ls.SHAPES:
            problems.append(f"{ts_id}: shape {ts['shape']}")
        names = [t["function"]["name"] for t in ts["chat_tools"]]
        if len(names) != len(set(names)):
            problems.append(f"{ts_id}: duplicate tool names")
        for tool in ts["chat_tools"]:
            fn = tool["function"]
            if not NAME.match(fn["name"]) or not fn.get("description"):
                problems.append(f"{ts_id}.{fn['name']}: name or description")
            params = fn["parameters"]
            try:
                validator_for(params).check_schema(params)
            except jsonschema.SchemaError as e:
                problems.append(f"{ts_id}.{fn['name']}: {e.message}")
            if params and params.get("type") != "object":
                problems.append(f"{ts_id}.{fn['name']}: parameters are not an object schema")
    assert problems == []


def _expected_problems(case: ls.Case) -> list[str]:
    tools = {t["function"]["name"]: t for t in case.tools}
    problems = []
    for entry in case.expected:
        if not isinstance(entry, (dict, list)) or not ls.alternatives(entry):
            problems.append(f"{case.id}: an expected call is neither a dict nor a list of them")
            continue
        for call in ls.alternatives(entry):
            (name, params), = call.items()
            if name not in tools:
                problems.append(f"{case.id}: no tool {name}")
                continue
            schema = tools[name]["function"]["parameters"]
            props = schema.get("properties", {})
            for key, options in params.items():
                if key not in props:
                    problems.append(f"{case.id}: {name} has no property {key}")
                if not isinstance(options, list) or not options:
                    problems.append(f"{case.id}: {name}.{key} accepted values are not a list")
            for key in schema.get("required", []):
                if key not in params or first_value(params[key]) is None:
                    problems.append(f"{case.id}: required {name}.{key} has no accepted value")
            for key, options in params.items():
                prop = {**props.get(key, {}), "$defs": schema.get("$defs", {})}
                for value in options if isinstance(options, list) else []:
                    if isinstance(value, dict):
                        nested = resolve(props.get(key, {}), schema).get("properties", {})
                        problems += [f"{case.id}: {name}.{key} has no key {k}" for k in value if k not in nested]
                    if value != "" and key in props:  # every accepted value, not only the first
                        errors = validator_for(prop)(prop).iter_errors(build(value, resolve(prop, schema)))
                        problems += [f"{case.id}: {name}.{key} accepts {value!r}: {e.message}" for e in errors]
            if name in tools:
                called, args = good_call(call, tools)
                schema = tools[called]["function"]["parameters"]
                errors = [e.message for e in validator_for(schema)(schema).iter_errors(args)]
                problems += [f"{case.id}: expected {called}{args} is invalid: {m}" for m in errors]
    return problems


def _conversation_problems(case: ls.Case) -> list[str]:
    tools = {t["function"]["name"]: t for t in case.tools}
    problems, call_ids = [], set()
    for m in case.messages:
        if m["role"] not in ("system", "user", "assistant", "tool"):
            problems.append(f"{case.id}: role {m['role']}")
        for c in m.get("tool_calls") or []:
            call_ids.add(c["id"])
            fn = c["function"]
            if fn["name"] not in tools:
                problems.append(f"{case.id}: earlier call to unknown tool {fn['name']}")
            else:
                schema = tools[fn["name"]]["function"]["parameters"]
                errors = list(validator_for(schema)(schema).iter_errors(json.loads(fn["arguments"])))
                problems += [f"{case.id}: earlier call {fn['name']} invalid: {e.message}" for e in errors]
        if m["role"] == "tool" and m["tool_call_id"] not in call_ids:
            problems.append(f"{case.id}: tool result for an unknown call {m['tool_call_id']}")
    if case.messages[-1]["role"] not in ("user", "tool"):
        problems.append(f"{case.id}: the conversation does not end with the user or a tool result")
    return problems


def _category_problems(case: ls.Case) -> list[str]:
    roles = [m["role"] for m in case.messages]
    kind = case.kind if case.category == "zh" else case.category
    checks = {
        "irrelevance": not case.expected and not case.answer,
        "parallel": len(case.expected) >= 2,
        "multi_turn_after_result": "tool" in roles,
        "multi_turn_clarify": bool(case.expected) and roles[-1] == "user"
        and any(m["role"] == "assistant" and m.get("content") and not m.get("tool_calls") for m in case.messages),
        "single": roles.count("user") == 1 and "tool" not in roles,
    }
    problems = [] if checks[kind] else [f"{case.id}: not a well-formed {kind} case"]
    last_user = next(m["content"] for m in reversed(case.messages) if m["role"] == "user")
    if (case.category == "zh") != (case.lang == "zh") or (case.lang == "zh") != bool(CJK.search(last_user)):
        problems.append(f"{case.id}: language {case.lang} / category {case.category} / text disagree")
    if case.answer and case.expected:
        problems.append(f"{case.id}: an answer check on a case that expects calls")
    if not case.source or not case.group:
        problems.append(f"{case.id}: no source")
    return problems


def test_every_case_is_well_formed():
    problems = [p for c in CASES for p in _expected_problems(c) + _conversation_problems(c) + _category_problems(c)]
    assert problems == []


def test_the_checks_above_catch_bad_cases():
    """The well-formedness checks can fail: each broken copy of a case is reported."""
    base = next(c for c in CASES if c.id == "openai-cookbook-parallel-forecast")
    broken = [
        ls.Case(**{**base.__dict__, "expected": [{"get_n_day_weather_forecast": {"location": ["Paris"]}}]}),  # required missing
        ls.Case(**{**base.__dict__, "expected": [{"get_weather": {"location": ["Paris"]}}]}),  # no such tool
        ls.Case(**{**base.__dict__, "expected": [{"get_n_day_weather_forecast": {
            "location": ["Paris"], "format": ["kelvin"], "num_days": [3]}}]}),  # not in the enum
        ls.Case(**{**base.__dict__, "expected": [{"get_n_day_weather_forecast": {
            "location": ["Paris"], "format": ["celsius"], "num_days": ["three"], "city": ["x"]}}]}),  # type, property
        ls.Case(**{**base.__dict__, "expected": [[{"get_n_day_weather_forecast": {
            "location": ["Paris"], "format": ["celsius", "kelvin"], "num_days": [3]}}]]}),  # a later accepted value
        ls.Case(**{**base.__dict__, "expected": ["get_n_day_weather_forecast"]}),  # not a call
    ]
    assert [bool(_expected_problems(c)) for c in broken] == [True] * 6
    assert _category_problems(ls.Case(**{**base.__dict__, "expected": base.expected[:1]}))  # "parallel" of one call
    assert _category_problems(ls.Case(**{**base.__dict__, "source": ""}))


# ---------------------------------------------------------------------------- shapes
def test_published_shapes_become_chat_tools():
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    want = {"type": "function", "function": {"name": "search", "description": "Search.", "parameters": schema}}
    assert ls.to_chat_tool({"name": "search", "description": "Search.", "input_schema": schema}, "anthropic") == want
    assert ls.to_chat_tool({"name": "search", "description": "Search.", "inputSchema": schema}, "mcp") == want
    assert ls.to_chat_tool({"name": "search", "description": "Search.", "parameters": schema}, "gemini") == want
    flat = {"type": "function", "name": "search", "description": "Search.", "parameters": schema, "strict": True}
    assert ls.to_chat_tool(flat, "openai_responses")["function"] == {**want["function"], "strict": True}
    assert ls.to_chat_tool(want, "openai") == want
    with pytest.raises(ValueError, match="unknown tool shape"):
        ls.to_chat_tool(want, "langchain")


# ---------------------------------------------------------------------------- scoring
def test_known_good_fake_scores_100_percent_with_full_precision():
    outcomes = ls.run(CASES, fake({c.id: good_reply(c) for c in CASES}))
    assert [o.case.id for o in outcomes if o.kind] == []
    stats = ls.by(outcomes, "category", ls.CATEGORIES)
    assert {k: (s.accuracy, s.precision is None or s.precision == 1.0) for k, s in stats.items()} == \
        {k: (1.0, True) for k in ls.CATEGORIES}
    assert stats["irrelevance"].with_call == 0 and stats["single"].wrong_calls == 0


def test_known_bad_fake_scores_0_percent_with_the_right_kinds():
    """Calls where none belong, no call where one does: every case fails, each with its kind."""
    def bad(c: ls.Case) -> bfcl.Reply:
        if c.expected:
            return bfcl.Reply(content="I cannot do that.")
        return bfcl.Reply(calls=[(c.tools[0]["function"]["name"], {})])

    outcomes = ls.run(CASES, fake({c.id: bad(c) for c in CASES}))
    assert all(o.kind for o in outcomes)
    assert {o.case.id: o.kind for o in outcomes} == \
        {c.id: "no_call:declined" if c.expected else "called_a_tool" for c in CASES}
    all_stats = ls.Stats("all", outcomes)
    assert all_stats.accuracy == 0.0 and all_stats.precision == 0.0
    assert all_stats.wrong_calls == sum(not c.expected for c in CASES)


# a small suite of its own: every shape, every failure kind
SMALL_DATA = {
    "group": "test",
    "toolsets": {
        "fs": {"source": "test", "shape": "mcp", "tools": [
            {"name": "read_text_file", "description": "Read a file.", "inputSchema": {
                "type": "object", "properties": {"path": {"type": "string"}, "head": {"type": "number"}}, "required": ["path"]}},
            {"name": "read_file", "description": "Read a file (deprecated).", "inputSchema": {
                "type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}]},
        "calc": {"source": "test", "shape": "anthropic", "tools": [
            {"name": "calculator", "description": "Evaluate an expression.", "input_schema": {
                "type": "object", "properties": {"expression": {"type": "string"}}, "required": ["expression"]}}]},
        "weather": {"source": "test", "shape": "gemini", "tools": [
            {"name": "get_weather", "description": "Weather of a city.", "parameters": {
                "type": "object", "properties": {"city": {"type": "string"},
                                                 "unit": {"type": "string", "enum": ["c", "f"]}}, "required": ["city"]}}]},
    },
    "cases": [
        {"id": "t-read", "category": "single", "lang": "en", "toolset": "fs", "source": "test",
         "messages": [{"role": "user", "content": "Read /tmp/a.txt"}],
         "expected": [{"read_text_file": {"path": ["/tmp/a.txt"]}, "read_file": {"path": ["/tmp/a.txt"]}}]},
        {"id": "t-two", "category": "parallel", "lang": "en", "toolset": "weather", "source": "test",
         "messages": [{"role": "user", "content": "Weather in Oslo and Rome"}],
         "expected": [{"get_weather": {"city": ["Oslo"], "unit": ["", "c"]}}, {"get_weather": {"city": ["Rome"]}}]},
        {"id": "t-result", "category": "multi_turn_after_result", "lang": "en", "toolset": "weather", "source": "test",
         "messages": [{"role": "user", "content": "Weather in Oslo?"},
                      {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function",
                       "function": {"name": "get_weather", "arguments": "{\"city\": \"Oslo\"}"}}]},
                      {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp\": 41, \"unit\": \"f\"}"}],
         "expected": [], "answer": [["41"]], "answer_not": ["°C"]},
        {"id": "t-ask", "category": "zh", "kind": "single", "lang": "zh", "toolset": "calc", "source": "test",
         "messages": [{"role": "user", "content": "帮我算一下"}], "expected": [], "answer": ["?", "？"]},
        {"id": "t-calc", "category": "zh", "kind": "single", "lang": "zh", "toolset": "calc", "source": "test",
         "messages": [{"role": "user", "content": "17乘以23"}], "expected": [{"calculator": {"expression": ["17*23"]}}]},
        {"id": "t-none", "category": "irrelevance", "lang": "en", "toolset": ["calc", "weather"], "source": "test",
         "messages": [{"role": "user", "content": "Who painted the Mona Lisa?"}], "expected": []},
    ],
}


@pytest.fixture(scope="module")
def small_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("suite")
    (folder / "test.json").write_text(json.dumps(SMALL_DATA, ensure_ascii=False), encoding="utf-8")
    return folder


SMALL: list[ls.Case] = []


@pytest.fixture(scope="module")
def small(small_dir) -> list[ls.Case]:
    SMALL[:] = ls.load_suite(small_dir)
    return SMALL


GOOD = {"t-read": bfcl.Reply(calls=[("read_file", {"path": "/tmp/a.txt"})]),  # the deprecated twin is right too
        "t-two": bfcl.Reply(calls=[("get_weather", {"city": "rome"}), ("get_weather", {"city": "Oslo", "unit": "c"})]),
        "t-result": bfcl.Reply(content="It is 41 °F in Oslo."),
        "t-ask": bfcl.Reply(content="请问要算什么？"),
        "t-calc": bfcl.Reply(calls=[("calculator", {"expression": "17 * 23"})]),
        "t-none": bfcl.Reply(content="Leonardo da Vinci.")}
BAD = {"t-read": (bfcl.Reply(calls=[("read_file", {"path": "/tmp/b.txt"})]), "wrong_value:string"),
       "t-two": (bfcl.Reply(calls=[("get_weather", {"city": "Oslo"})]), "too_few_calls"),
       "t-result": (bfcl.Reply(content="It is 41 °C."), "answer_contradicts"),
       "t-ask": (bfcl.Reply(content="好的。"), "answer_missing_value"),
       "t-calc": (bfcl.Reply(content="要计算什么？"), "no_call:asked"),
       "t-none": (bfcl.Reply(calls=[("calculator", {"expression": "1"})]), "called_a_tool")}


def test_small_suite_good_and_bad(small):
    assert {c.id for c in small} == set(GOOD)
    assert small[0].tools[0]["function"]["parameters"]["required"] == ["path"]  # mcp inputSchema converted
    good = ls.run(small, fake(GOOD))
    assert [o.kind for o in good] == [None] * len(small)
    bad = ls.run(small, fake({k: r for k, (r, _) in BAD.items()}))
    assert {o.case.id: o.kind for o in bad} == {k: kind for k, (_, kind) in BAD.items()}
    assert ls.score_case(small[2], bfcl.Reply(content="")) == "no_text"
    assert ls.score_case(small[2], bfcl.Reply(content="Sunny.")) == "answer_missing_value"
    assert ls.score_case(small[1], bfcl.Reply(error="http_400: bad")) == "error:http_400"


def test_precision_counts_right_calls_among_replies_that_call(small):
    by_id = {c.id: c for c in small}
    outcomes = [ls.Outcome(by_id["t-read"], GOOD["t-read"], None),  # right call
                ls.Outcome(by_id["t-two"], BAD["t-two"][0], "too_few_calls"),  # wrong call
                ls.Outcome(by_id["t-none"], GOOD["t-none"], None),  # right, no call
                ls.Outcome(by_id["t-calc"], BAD["t-calc"][0], "no_call:asked")]  # wrong, no call
    s = ls.Stats("x", outcomes)
    assert (s.total, s.passed, s.with_call, s.right_calls, s.wrong_calls, s.no_call) == (4, 2, 2, 1, 1, 2)
    assert (s.accuracy, s.precision) == (0.5, 0.5)
    assert ls.Stats("empty", outcomes[2:3]).precision is None
    text = ls.table(outcomes)
    assert re.search(r"^parallel\s+1\s+0\.0%\s+0\.0%\s+1\s+0  too_few_calls 1$", text, re.M)
    assert re.search(r"^all\s+4\s+50\.0%\s+50\.0%\s+1\s+2 ", text, re.M)
    data = ls.to_json(outcomes)
    assert data["all"]["precision"] == 0.5 and data["categories"]["irrelevance"]["precision"] is None
    assert "too_few_calls" in ls.show(outcomes, "too_few") and "t-calc" in ls.show(outcomes, "all")


def test_variants_expand_alternatives():
    assert ls.variants([{"a": {"x": [1]}, "b": {"y": [2]}}, {"c": {}}]) == \
        [[{"a": {"x": [1]}}, {"c": {}}], [{"b": {"y": [2]}}, {"c": {}}]]
    assert ls.variants([[{"add": {"a": [1], "b": [2]}}, {"add": {"a": [2], "b": [1]}}]]) == \
        [[{"add": {"a": [1], "b": [2]}}], [{"add": {"a": [2], "b": [1]}}]]


# ---------------------------------------------------------------------------- through the SDK
def test_conversations_go_through_the_openai_sdk_to_the_mock():
    """Every conversation shape of the suite (system prompts, earlier tool calls, tool results,
    Chinese) is accepted by the real client and the mock's wire; the scripted mock answers right."""
    from course_lib.mock_llm import MockLLM

    picked = [c for c in CASES if c.category == "multi_turn_after_result"][:3] + \
        [c for c in CASES if c.category == "zh"][:2] + [c for c in CASES if c.category == "parallel"][:2]
    mock = MockLLM()
    for case in picked:
        reply = good_reply(case)
        mock.script({"tool_calls": [{"name": n, "arguments": json.dumps(a)} for n, a in reply.calls]}
                    if reply.calls else reply.content)
    model = bfcl.sdk_model(mock.client(max_retries=0))
    assert [o.kind for o in ls.run(picked, model)] == [None] * len(picked)


def test_main_prints_the_table_and_writes_json(tmp_path, capsys, small_dir):
    out = tmp_path / "r.json"
    assert ls.main(["--suite", str(small_dir), "--json", str(out), "--show", "all"]) == 0
    text = capsys.readouterr().out
    assert "precision" in text and "lang zh" in text
    data = json.loads(out.read_text())
    assert set(data["course mock"]["categories"]) <= set(ls.CATEGORIES)
    assert len(data["course mock"]["cases"]) == len(SMALL_DATA["cases"])


def test_an_endpoint_that_cannot_be_reached_gives_error_kinds(tmp_path, capsys, small_dir):
    """--base-url scores another endpoint through the SDK; an unreachable one is an error per case."""
    import socket

    with socket.socket() as s:  # a free port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    model = ls.endpoint_model(f"http://127.0.0.1:{port}/v1", "any", max_retries=0)
    outcomes = ls.run(SMALL or ls.load_suite(small_dir), model)
    assert {o.kind for o in outcomes} == {"error:connection"}
    out = tmp_path / "r.json"
    assert ls.main(["--suite", str(small_dir), "--base-url", f"http://127.0.0.1:{port}/v1", "--model", "m",
                    "--max-retries", "0", "--json", str(out)]) == 0
    assert set(json.loads(out.read_text())) == {"endpoint m"}
