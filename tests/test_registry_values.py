"""Values reach handlers as their schema says, on every path (issue 14), and dispatch is cached (issue 15).

An ``integer`` given as ``60.0`` arrives as ``60`` through the registry, the MCP bridge, the
registry served as MCP and the course's MCP servers; ``True`` is never an integer anywhere.
Dispatch reuses each tool's effective schema and validator until the tool changes; sync
handlers run on a bounded pool of reused daemon threads.
"""
from __future__ import annotations

import copy
import json
import threading
import time

import pytest
from mcp import Client

from course_lib.mcp_bridge import MCPToolset, RegistryMCPServer, course_registry
from course_lib.mcp_servers import CourseMCPServer, wiki_server
from course_lib.schema_values import integral_to_int, mentions_integer
from course_lib.tool_registry import HandlerPool, ToolRegistry

ERAS = ["legacy", "auto"]


@pytest.fixture
def anyio_backend():
    return "asyncio"


# -- the conversion itself ---------------------------------------------------------------------

def test_integral_floats_become_int_where_the_schema_says_integer():
    schema = {"type": "object", "$defs": {"n": {"type": "integer"}}, "properties": {
        "limit": {"type": "integer"}, "ratio": {"type": "number"}, "ref": {"$ref": "#/$defs/n"},
        "ids": {"type": "array", "items": {"type": "integer"}},
        "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "number"}]},
        "maybe": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "either": {"anyOf": [{"type": "integer"}, {"type": "number"}]},
        "nullable": {"type": ["integer", "null"]},
        "inner": {"type": "object", "properties": {"k": {"type": "integer"}}},
        "free": {"type": "object", "additionalProperties": {"type": "integer"}}}}
    got = integral_to_int({"limit": 60.0, "ratio": 2.0, "ref": 3.0, "ids": [1.0, 2], "pair": [4.0, 5.0],
                           "maybe": 6.0, "either": 7.0, "nullable": 8.0, "inner": {"k": 9.0}, "free": {"x": 10.0}},
                          schema)
    assert got == {"limit": 60, "ratio": 2.0, "ref": 3, "ids": [1, 2], "pair": [4, 5.0], "maybe": 6,
                   "either": 7.0, "nullable": 8, "inner": {"k": 9}, "free": {"x": 10}}
    assert [type(got[k]) for k in ("limit", "ratio", "ref", "maybe", "either", "nullable")] == [
        int, float, int, int, float, int]
    assert type(got["ids"][0]) is int and type(got["pair"][1]) is float and type(got["inner"]["k"]) is int


def test_nothing_else_changes_and_the_input_is_not_modified():
    schema = {"type": "object", "properties": {"n": {"type": "integer"}, "flag": {"type": "boolean"}}}
    args = {"n": 1.5, "flag": True}
    assert integral_to_int(args, schema) is args  # 1.5 is no integer (validation refuses it), True stays True
    original = {"n": 2.0}
    assert integral_to_int(original, schema) == {"n": 2} and original == {"n": 2.0}
    cyclic = {"type": "object", "$defs": {"a": {"$ref": "#/$defs/a"}}, "properties": {"x": {"$ref": "#/$defs/a"}}}
    assert integral_to_int({"x": 1.0}, cyclic) == {"x": 1.0}  # a $ref cycle is left alone, never loops
    assert mentions_integer(schema) and not mentions_integer({"type": "object", "properties": {"q": {"type": "string"}}})


# -- every path into a handler ---------------------------------------------------------------------

def _range_registry() -> tuple[ToolRegistry, list]:
    seen: list = []
    registry = ToolRegistry("values", env={})

    @registry.tool
    def countdown(seconds: int) -> list[int]:
        """Count down from a number of seconds."""
        seen.append(seconds)
        return list(range(seconds, 0, -20))

    return registry, seen


def test_registry_hands_60_for_60_point_0_and_refuses_true():
    registry, seen = _range_registry()
    ok = registry.call("countdown", {"seconds": 60.0})
    assert ok.ok and json.loads(ok.content) == [60, 40, 20] and type(seen[-1]) is int
    refused = registry.call("countdown", {"seconds": True})
    assert refused.error == "invalid_arguments" and seen == [60]
    assert registry.call("countdown", {"seconds": 60.5}).error == "invalid_arguments"


def test_course_registry_search_wiki_limit_given_as_a_float():
    result = course_registry().call("search_wiki", {"query": "onboarding", "limit": 2.0})
    assert result.ok, result.content  # was "slice indices must be integers"
    assert len(json.loads(result.content)) == 2


def test_bridge_passes_integers_to_an_mcp_server():
    registry = ToolRegistry("bridge", env={})
    with MCPToolset(wiki_server(), "wiki-values") as wiki:
        wiki.register_into(registry)
        ok = registry.call("search_wiki", {"query": "onboarding", "limit": 1.0})
        assert ok.ok and len(json.loads(ok.content)["result"]) == 1
        assert registry.call("search_wiki", {"query": "onboarding", "limit": True}).error == "invalid_arguments"


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ERAS)
async def test_registry_served_as_mcp_converts_and_refuses(mode):
    registry, seen = _range_registry()
    async with Client(RegistryMCPServer(registry), mode=mode) as client:
        r = await client.call_tool("countdown", {"seconds": 40.0})
        assert not r.is_error and json.loads(r.content[0].text) == [40, 20] and type(seen[-1]) is int
        r = await client.call_tool("countdown", {"seconds": True})
        assert r.is_error and "invalid_arguments" in r.content[0].text and len(seen) == 1


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ERAS)
async def test_course_mcp_servers_convert_and_refuse(mode):
    server = CourseMCPServer("values")
    seen: list = []

    @server.tool()
    def tally(counts: dict, total: int) -> str:
        """Record counts; reports the Python types received."""
        seen.append((counts, total))
        return f"{type(total).__name__}"

    server.tool_schema("tally")["properties"]["counts"]["additionalProperties"] = {"type": "integer"}
    async with Client(server, mode=mode) as client:
        r = await client.call_tool("tally", {"counts": {"a": 2.0}, "total": 3.0})
        assert not r.is_error and r.content[0].text == "int"
        assert seen[-1] == ({"a": 2}, 3) and type(seen[-1][0]["a"]) is int  # also inside a dict typed by schema only
        r = await client.call_tool("tally", {"counts": {}, "total": True})
        assert r.is_error and "total" in r.content[0].text and len(seen) == 1


# -- the cache (issue 15) ----------------------------------------------------------------------------

def test_dispatch_reuses_the_compiled_schema_and_copies_nothing(monkeypatch):
    registry, _ = _range_registry()
    registry.call("countdown", {"seconds": 20})
    compiled = registry._compile("countdown")

    def no_copy(*a, **k):
        raise AssertionError("deepcopy during dispatch")

    monkeypatch.setattr(copy, "deepcopy", no_copy)
    for _ in range(3):
        assert registry.call("countdown", {"seconds": 20}).ok
    assert registry._compile("countdown") is compiled


def test_the_cache_follows_overrides_and_re_registration():
    registry, _ = _range_registry()
    assert registry.call("countdown", {"seconds": 100}).ok
    limit = {"maximum": 1000}
    registry.dynamic_schema_overrides["countdown"] = lambda: {"parameters": {
        "type": "object", "properties": {"seconds": {"type": "integer", **limit}}, "required": ["seconds"]}}
    assert registry.call("countdown", {"seconds": 100}).ok
    limit["maximum"] = 50  # what the override returns changed: the validator follows
    assert registry.call("countdown", {"seconds": 100}).error == "invalid_arguments"
    assert registry.effective_schema("countdown")["parameters"]["properties"]["seconds"]["maximum"] == 50
    del registry.dynamic_schema_overrides["countdown"]
    assert registry.call("countdown", {"seconds": 100}).ok

    def countdown(seconds: int) -> str:
        return "replaced"

    registry.register("countdown", "default", {"name": "countdown", "parameters": {
        "type": "object", "properties": {"seconds": {"type": "integer", "minimum": 500}}}}, countdown, replace=True)
    assert registry.call("countdown", {"seconds": 100}).error == "invalid_arguments"
    assert registry.call("countdown", {"seconds": 600}).content == "replaced"


def test_effective_schema_is_a_copy_the_caller_may_change():
    registry, _ = _range_registry()
    registry.effective_schema("countdown")["parameters"]["properties"].clear()
    assert registry.call("countdown", {"seconds": 20}).ok
    assert "seconds" in registry.effective_schema("countdown")["parameters"]["properties"]


# -- the handler pool ----------------------------------------------------------------------------------

def test_handler_pool_is_bounded_reused_and_daemon():
    pool = HandlerPool(max_workers=3)
    release = threading.Event()
    seen: set = set()

    def job() -> str:
        seen.add(threading.current_thread())
        release.wait(10)
        return threading.current_thread().name

    futures = [pool.submit(job) for _ in range(10)]
    time.sleep(0.2)
    assert len(seen) == 3  # three run, seven wait: never more threads than max_workers
    release.set()
    names = {f.result(10) for f in futures}
    assert len(names) == 3 and all(t.daemon for t in seen)  # daemon: a hung handler never blocks exit
    assert pool.submit(lambda: threading.current_thread()).result(5) in seen  # reused, not a new thread
    assert isinstance(pool.submit(lambda: 1 / 0).exception(5), ZeroDivisionError)


@pytest.mark.anyio
async def test_arun_sync_handlers_use_the_pool():
    registry = ToolRegistry("pool", env={})
    threads: list = []

    @registry.tool
    def which() -> str:
        """Name the thread."""
        threads.append(threading.current_thread())
        return "ok"

    for _ in range(5):
        assert (await registry.acall("which")).ok
    assert all(t.name.startswith("tool-handler-") and t.daemon for t in threads)
    assert len(set(threads)) < 5  # threads are reused across calls


# -- the fast "valid?" check agrees with jsonschema ------------------------------------------------

def test_fast_check_accepts_exactly_what_jsonschema_accepts():
    import random

    from course_lib.tool_registry import _fast_check
    from course_lib.tool_schemas import validate_arguments

    rng = random.Random(5)
    leaves = [{"type": "integer", "minimum": 0, "maximum": 10}, {"type": "number", "exclusiveMaximum": 1.5},
              {"type": "string", "minLength": 2, "maxLength": 3}, {"type": "string", "pattern": "^[a-z]+$"},
              {"enum": ["a", 1, None, True]}, {"const": 2}, {"type": ["integer", "null"]}, {"type": "boolean"},
              {"type": "array", "items": {"type": "integer"}, "minItems": 1, "uniqueItems": True},
              {"anyOf": [{"type": "string"}, {"type": "integer", "multipleOf": 3}]},
              {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"],
               "additionalProperties": False}, {"not": {"type": "string"}}, {"$ref": "#/$defs/small"}]
    values = [0, 1, 3, 9, 10, 11, -1, 1.0, 1.5, 2.0, True, False, None, "", "a", "ab", "abc", "abcd", "Ab", "中文",
              [], [1], [1, 1], [1, "a"], {}, {"k": "v"}, {"k": 1}, {"k": "v", "x": 1}]
    checked = 0
    for _ in range(60):
        props = {f"p{i}": rng.choice(leaves) for i in range(rng.randint(1, 3))}
        schema = {"type": "object", "$defs": {"small": {"type": "integer", "maximum": 3}}, "properties": props,
                  "required": rng.sample(sorted(props), k=rng.randint(0, len(props))),
                  "additionalProperties": rng.choice([False, True, {"type": "integer"}])}
        fast = _fast_check(schema)
        assert fast is not None, schema
        for _ in range(40):
            args = {k: rng.choice(values) for k in props if rng.random() < 0.8}
            if rng.random() < 0.2:
                args["extra"] = rng.choice(values)
            try:
                fast(args)
                fast_ok = True
            except Exception:
                fast_ok = False
            assert fast_ok == (validate_arguments(args, schema) == []), (schema, args)
            checked += 1
    assert checked == 2400


def test_fast_check_steps_aside_where_the_drafts_differ():
    from course_lib.tool_registry import _fast_check

    assert _fast_check({"type": "object", "properties": {"d": {"type": "string", "format": "date"}}}) is None
    assert _fast_check({"type": "object", "$defs": {"n": {"type": "string"}},
                        "properties": {"x": {"$ref": "#/$defs/n", "maxLength": 2}}}) is None  # a $ref with siblings
    assert _fast_check({"type": "object", "properties": {"t": {"type": "array", "prefixItems": [{}]}}}) is None
    assert _fast_check({"type": "object", "properties": {"t": {"items": [{"type": "string"}]}}}) is None


def test_fast_check_fills_in_no_defaults():
    registry = ToolRegistry("defaults", env={})
    seen = []

    def search(query: str, limit: int = 3) -> str:
        seen.append(limit)
        return "ok"

    registry.register("search", "default", {"name": "search", "parameters": {"type": "object", "properties": {
        "query": {"type": "string"}, "limit": {"type": "integer", "default": 5}}, "required": ["query"]}}, search)
    assert registry._compile("search").fast is not None
    assert registry.dispatch({"id": "1", "type": "function", "function": {"name": "search",
                                                                         "arguments": '{"query": "x"}'}})
    assert seen == [3]  # the handler's own default: the schema's default is advertised, not injected
