"""The tool registry: registration, toolsets, availability, dynamic schemas, and dispatch that never raises."""
from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import enum
import json
import threading
from typing import Literal

import pytest
from pydantic import BaseModel

from course_lib.mock_llm import MockLLM
from course_lib.strict_mode import strict_violations
from course_lib.tool_registry import (
    DuplicateToolError,
    ToolError,
    ToolRegistry,
    ToolUnavailable,
    default_registry,
    run_sync,
    serialize_result,
    tool,
)

WAIT = 5.0  # seconds: the bound on every wait for an event (never reached when the code is right)


def call(name, arguments, call_id="call_1"):
    raw = arguments if isinstance(arguments, str) or arguments is None else json.dumps(arguments)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": raw}}


def content(message):
    return json.loads(message["content"])


@pytest.fixture
def reg():
    r = ToolRegistry("test", env={})

    @r.tool(toolset="weather")
    def get_weather(city: str, unit: Literal["celsius", "fahrenheit"] = "celsius") -> dict:
        """Get the current weather for a city.

        Args:
            city: City name, e.g. Shanghai.
            unit: Temperature unit.
        """
        return {"city": city, "temp": 28 if unit == "celsius" else 82}

    @r.tool(toolset="clock")
    def get_time() -> str:
        """Get the current time (always noon here)."""
        return "12:00"

    return r


# --------------------------------------------------------------------------- registration
def test_decorator_derives_the_schema_and_returns_the_function(reg):
    fn = reg.get("get_weather")
    assert fn.handler(city="X") == {"city": "X", "temp": 28}  # the decorated function still works
    assert fn.schema == {
        "name": "get_weather",
        "description": "Get the current weather for a city.",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name, e.g. Shanghai."},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Temperature unit.",
                         "default": "celsius"},
            },
            "required": ["city"],
            "additionalProperties": False,
        },
    }
    assert fn.toolset == "weather" and not fn.is_async and fn.permission == "read" and fn.is_idempotent


def test_register_by_call_with_the_seed_schema_shape():
    r = ToolRegistry(env={})
    web_search_schema = {  # seed 000 §2.2
        "name": "web_search",
        "description": "Search the web for information. Returns up to 5 results...",
        "parameters": {"type": "object", "properties": {
            "query": {"type": "string", "description": "The search query to look up on the web."},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 5}}, "required": ["query"]},
    }
    entry = r.register(name="web_search", toolset="web", schema=web_search_schema,
                       handler=lambda query, limit=5: [query] * limit, requires_env=["OPENAI_API_KEY"])
    assert entry.requires_env == ("OPENAI_API_KEY",)
    assert r.get("web_search").parameters == web_search_schema["parameters"]


@pytest.mark.parametrize("shape", ["chat", "responses", "mcp", "parameters-only"])
def test_register_accepts_every_schema_shape(shape):
    params = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    schema = {
        "chat": {"type": "function", "function": {"name": "find", "description": "Find.", "parameters": params}},
        "responses": {"type": "function", "name": "find", "description": "Find.", "parameters": params},
        "mcp": {"name": "find", "description": "Find.", "inputSchema": params, "title": "Find things"},
        "parameters-only": params,
    }[shape]
    r = ToolRegistry(env={})
    entry = r.register("find", schema=schema, handler=lambda q: q)
    assert entry.parameters == params
    if shape == "mcp":
        assert entry.meta == {"title": "Find things"}


def test_duplicate_names_are_refused_with_a_clear_error(reg):
    def get_weather(city: str) -> str:  # a different function with the same name
        return "sunny"

    with pytest.raises(DuplicateToolError, match="already registered.*toolset 'weather'"):
        reg.register(handler=get_weather, toolset="other")
    reg.register(handler=get_weather, toolset="other", replace=True)
    assert reg.get("get_weather").toolset == "other"


def test_re_registering_the_same_function_replaces_it():
    r = ToolRegistry(env={})
    for version in (1, 2):  # a notebook cell defining the function again
        def ping() -> int:
            """Ping."""
            return version
        r.register(handler=ping)
    assert len(r) == 1 and r.call("ping").content == "2"


def test_two_different_lambdas_are_duplicates():
    r = ToolRegistry(env={})
    r.register("a", handler=lambda: 1)
    with pytest.raises(DuplicateToolError):
        r.register("a", handler=lambda: 2)


@pytest.mark.parametrize("schema, match", [
    ({"type": "object", "properties": {"q": {"type": "text"}}}, "properties/q/type"),
    ({"type": "object", "properties": {}, "required": ["q"]}, "'q' is required but not declared"),
    ({"name": "other", "parameters": {"type": "object"}}, "use one name"),
])
def test_invalid_schemas_are_refused_at_registration(schema, match):
    with pytest.raises(ValueError, match=match):
        ToolRegistry(env={}).register("find", schema=schema, handler=lambda q: q)


def test_bad_names_and_handlers_are_refused():
    r = ToolRegistry(env={})
    with pytest.raises(ValueError, match="must match"):
        r.register("get weather", handler=lambda: 1)
    with pytest.raises(TypeError, match="callable"):
        r.register("x", handler=None)


def test_default_registry_and_independent_instances():
    @tool(toolset="test-only")
    def registry_demo_tool() -> str:
        """A tool in the process-wide registry."""
        return "hi"

    try:
        assert "registry_demo_tool" in default_registry
        assert "registry_demo_tool" not in ToolRegistry(env={})  # a new instance starts empty
        copy = default_registry.copy("mine")
        copy.disable("test-only")
        assert default_registry.is_enabled("test-only")  # the copy's switches are its own
    finally:
        default_registry.unregister("registry_demo_tool")
    assert "registry_demo_tool" not in default_registry


# --------------------------------------------------------------------------- toolsets and availability
def names(definitions):
    return [d["function"]["name"] for d in definitions]


def test_toolsets_enable_and_disable(reg):
    assert names(reg.definitions()) == ["get_weather", "get_time"]
    reg.disable("clock")
    assert names(reg.definitions()) == ["get_weather"]
    assert reg.availability("get_time").reason == "toolset 'clock' is disabled"
    reg.enable("clock")
    assert names(reg.definitions()) == ["get_weather", "get_time"]
    assert names(reg.definitions(toolsets=["clock"])) == ["get_time"]
    assert reg.toolsets() == {"weather": ["get_weather"], "clock": ["get_time"]}


def test_requires_env_hides_a_tool_and_says_which_variable():
    env: dict[str, str] = {}
    r = ToolRegistry(env=env)
    r.register("web_search", "web", handler=lambda query: [], requires_env=["SEARCH_API_KEY", "SEARCH_URL"],
               schema={"type": "object", "properties": {"query": {"type": "string"}}})
    assert r.definitions() == []
    assert r.availability("web_search").reason == "missing environment variables SEARCH_API_KEY, SEARCH_URL"
    env.update(SEARCH_API_KEY="k", SEARCH_URL="")  # empty counts as missing
    assert r.availability("web_search").reason == "missing environment variable SEARCH_URL"
    env["SEARCH_URL"] = "http://127.0.0.1"
    assert names(r.definitions()) == ["web_search"]


def test_check_fn_hides_unavailable_tools_with_the_reason():
    docker_installed = False

    def check_docker() -> bool:
        return docker_installed

    def check_gpu() -> bool:
        raise ToolUnavailable("no GPU on this machine")

    def check_broken() -> bool:
        raise OSError("permission denied")

    r = ToolRegistry(env={})
    r.register("docker_run", "terminal", handler=lambda image: image, check_fn=check_docker,
               schema={"type": "object", "properties": {"image": {"type": "string"}}})
    r.register("train", "ml", handler=lambda: 1, check_fn=check_gpu)
    r.register("probe", "ml", handler=lambda: 1, check_fn=check_broken)
    vis = {v.name: v for v in r.visibility()}
    assert not vis["docker_run"].visible and "check_docker() returned False" in vis["docker_run"].reason
    assert vis["train"].reason == "no GPU on this machine"
    assert vis["probe"].reason.endswith("raised OSError: permission denied")
    docker_installed = True  # checked at request time, not at registration
    assert names(r.definitions()) == ["docker_run"]
    assert "docker_run" in r.describe() and "no GPU on this machine" in r.describe()


def test_calling_a_hidden_tool_is_reported_as_unavailable(reg):
    reg.disable("clock")
    result = reg.run(call("get_time", ""))
    assert result.error == "unavailable"
    assert content(result.message())["error"] == "tool 'get_time' is unavailable now: toolset 'clock' is disabled"


def test_dynamic_schema_overrides_are_computed_at_request_time():
    config = {"agents": ["researcher", "coder"]}
    r = ToolRegistry(env={})
    r.register("delegate_task", "delegation", handler=lambda agent, task: f"{agent}: {task}",
               schema={"type": "object", "properties": {"agent": {"type": "string"}, "task": {"type": "string"}},
                       "required": ["agent", "task"]},
               schema_override=lambda: {"description": "Delegate a task to one of: " + ", ".join(config["agents"])})
    assert r.definitions()[0]["function"]["description"] == "Delegate a task to one of: researcher, coder"
    config["agents"].append("reviewer")
    assert r.definitions()[0]["function"]["description"].endswith("coder, reviewer")
    # the registry-level table (the seed's dynamic_schema_overrides) can also change the parameters
    r.dynamic_schema_overrides["delegate_task"] = lambda: {"parameters": {
        "type": "object", "properties": {"agent": {"enum": config["agents"]}, "task": {"type": "string"}},
        "required": ["agent", "task"]}}
    bad = r.run(call("delegate_task", {"agent": "boss", "task": "x"}))
    assert bad.error == "invalid_arguments"
    assert content(bad.message())["error"] == 'invalid arguments: agent: must be one of ["researcher", "coder", "reviewer"]'
    assert r.call("delegate_task", {"agent": "coder", "task": "fix"}).content == "coder: fix"


# --------------------------------------------------------------------------- dispatch: every failure kind
@pytest.mark.parametrize("raw", ["", None])
def test_empty_or_null_arguments_mean_no_arguments(reg, raw):  # C-01 (a), (b)
    assert reg.dispatch(call("get_time", raw)) == {"role": "tool", "tool_call_id": "call_1", "content": "12:00"}


def test_arguments_that_are_not_an_object(reg):  # C-01 (c)
    result = reg.run(call("get_weather", '["oops"]'))
    assert result.error == "not_an_object"
    assert content(result.message())["error"].startswith("arguments must be a JSON object")


def test_invalid_json_names_the_position(reg):  # C-01 (d)
    result = reg.run(call("get_weather", '{"city": "Paris"}}'))
    assert result.error == "invalid_json"
    assert content(result.message())["error"] == "invalid JSON: Extra data at char 17"


def test_unknown_tool_lists_what_is_available(reg):
    reg.disable("clock")
    result = reg.run(call("get_stock_price", {"symbol": "X"}))
    assert result.error == "unknown_tool"
    assert content(result.message()) == {"error": "no tool named 'get_stock_price'", "tool": "get_stock_price",
                                         "kind": "unknown_tool", "available": ["get_weather"]}


def test_misspelled_argument_is_rejected_before_the_handler_runs():  # C-17
    ran = []
    r = ToolRegistry(env={})

    @r.tool
    def read_doc(topic: str = "") -> str:
        """Read a documentation page."""
        ran.append(topic)
        return topic

    assert r.get("read_doc").parameters["additionalProperties"] is False  # advertised as it behaves
    result = r.run(call("read_doc", {"path": "secret-guide.md"}))
    assert result.error == "invalid_arguments" and ran == []
    body = content(result.message())
    assert body["details"] == [{"path": "", "message": "unexpected argument 'path' (allowed: topic)",
                                "keyword": "additionalProperties"}]
    assert "secret-guide.md" not in result.content  # the value is not echoed


def test_validation_errors_list_every_problem_for_the_model(reg):
    result = reg.run(call("get_weather", {"unit": "kelvin"}))
    body = content(result.message())
    assert body["kind"] == "invalid_arguments"
    assert [d["message"] for d in body["details"]] == ["missing required argument 'city'",
                                                       'must be one of ["celsius", "fahrenheit"]']
    assert body["hint"] == ("fix the arguments and call the tool again; expected properties: city, unit; "
                            "required: city")


def test_handler_exceptions_become_tool_messages(reg):
    @reg.tool
    def divide(a: float, b: float) -> float:
        """Divide a by b."""
        return a / b

    result = reg.run(call("divide", {"a": 1, "b": 0}))
    assert result.error == "handler_error"
    assert content(result.message())["error"] == "ZeroDivisionError: division by zero"
    assert reg.call("divide", {"a": 1, "b": 4}).content == "0.25"


def test_tool_error_carries_kind_and_details(reg):
    @reg.tool
    def book(room: str) -> str:
        """Book a room."""
        raise ToolError("room is taken", kind="conflict", alternatives=["B2"])

    assert content(reg.dispatch(call("book", {"room": "B1"}))) == {
        "error": "room is taken", "tool": "book", "kind": "conflict", "alternatives": ["B2"]}


def test_dispatch_never_raises_on_garbage(reg):
    for garbage in [None, 42, {}, {"function": None}, {"id": "x", "function": {"name": None}}]:
        result = reg.run(garbage)
        assert result.error == "unknown_tool"


# --------------------------------------------------------------------------- sync, async, timeouts
def test_async_handler_in_sync_dispatch(reg):
    @reg.tool
    async def fetch_page(url: str) -> dict:
        """Fetch a web page."""
        await asyncio.sleep(0)
        return {"url": url, "status": 200}

    assert reg.get("fetch_page").is_async
    assert content(reg.dispatch(call("fetch_page", {"url": "http://127.0.0.1/"}))) == {
        "url": "http://127.0.0.1/", "status": 200}


def test_sync_dispatch_works_inside_a_running_event_loop(reg):  # C-12: a notebook kernel has a running loop
    @reg.tool
    async def slow_echo(text: str) -> str:
        """Echo the text."""
        await asyncio.sleep(0)
        return text

    async def notebook_cell():
        return reg.dispatch(call("slow_echo", {"text": "中文 ok"}))

    assert asyncio.run(notebook_cell())["content"] == "中文 ok"


def test_run_sync_outside_and_inside_a_loop():
    async def answer():
        return 42

    assert run_sync(answer()) == 42

    async def inside():
        return run_sync(answer())

    assert asyncio.run(inside()) == 42


def test_a_hanging_sync_handler_times_out():
    release = threading.Event()
    r = ToolRegistry(env={})

    @r.tool(timeout=0.05)
    def hang() -> str:
        """Never returns until released."""
        release.wait(WAIT)
        return "late"

    try:
        result = r.call("hang")
        assert result.error == "timeout"
        assert content(result.message())["error"] == "hang did not finish within 0.05 s"
    finally:
        release.set()


def test_a_hanging_async_handler_times_out():
    r = ToolRegistry(env={})

    @r.tool(timeout=0.05)
    async def never() -> str:
        """Waits forever."""
        await asyncio.Event().wait()
        return "never"

    assert r.call("never").error == "timeout"
    assert asyncio.run(r.acall("never")).error == "timeout"


def test_adispatch_all_runs_calls_concurrently_and_keeps_order():
    # Each handler waits for the other: this only finishes if both run at the same time.
    barrier = threading.Barrier(2, timeout=WAIT)
    r = ToolRegistry(env={})

    @r.tool
    def sync_side(n: int) -> int:
        """Wait for the partner."""
        barrier.wait()
        return n

    both = asyncio.Barrier(2) if hasattr(asyncio, "Barrier") else None

    @r.tool
    async def async_side(n: int) -> int:
        """Wait for the partner."""
        await asyncio.wait_for(both.wait(), WAIT)
        return n

    message = {"role": "assistant", "tool_calls": [call("sync_side", {"n": 1}, "a"), call("sync_side", {"n": 2}, "b"),
                                                   call("async_side", {"n": 3}, "c"), call("async_side", {"n": 4}, "d")]}
    replies = asyncio.run(r.adispatch_all(message))
    assert [(m["tool_call_id"], m["content"]) for m in replies] == [("a", "1"), ("b", "2"), ("c", "3"), ("d", "4")]


# --------------------------------------------------------------------------- results
@dataclasses.dataclass
class Forecast:
    city: str
    day: dt.date


class Colour(enum.Enum):
    RED = "red"


class Weather(BaseModel):
    city: str
    temp: float


@pytest.mark.parametrize("value, expected", [
    ("plain text", "plain text"),
    ({"city": "上海", "temp": 28}, '{"city": "上海", "temp": 28}'),
    ([1, 2], "[1, 2]"),
    (None, "null"),
    (True, "true"),
    (Forecast("Paris", dt.date(2026, 5, 1)), '{"city": "Paris", "day": "2026-05-01"}'),
    (Weather(city="Paris", temp=18.5), '{"city": "Paris", "temp": 18.5}'),
    ({"colour": Colour.RED, "tags": {"b", "a"}}, '{"colour": "red", "tags": ["a", "b"]}'),
    (b"bytes \xe4\xb8\xad", "bytes 中"),
])
def test_results_are_serialised_for_the_model(value, expected):
    assert serialize_result(value) == expected


def test_unserialisable_result_is_a_handler_error():
    r = ToolRegistry(env={})
    r.register("odd", handler=lambda: {"x": float("nan")})  # NaN is not JSON but json.dumps allows it
    r.register("cyclic", handler=lambda: (lambda d: (d.__setitem__("self", d), d)[1])({}))
    assert r.call("odd").ok
    assert r.call("cyclic").error == "handler_error"


def test_results_in_every_shape(reg):
    chat = reg.run(call("get_weather", {"city": "Paris"}))
    assert chat.ok and chat.value == {"city": "Paris", "temp": 28} and chat.arguments == {"city": "Paris"}
    resp = reg.dispatch({"type": "function_call", "call_id": "fc_1", "name": "get_weather",
                         "arguments": '{"city": "Paris"}'})
    assert resp == {"type": "function_call_output", "call_id": "fc_1", "output": '{"city": "Paris", "temp": 28}'}
    assert chat.mcp_result() == {"content": [{"type": "text", "text": '{"city": "Paris", "temp": 28}'}],
                                 "isError": False, "structuredContent": {"city": "Paris", "temp": 28}}
    assert reg.call("get_weather", {}).mcp_result()["isError"] is True


# --------------------------------------------------------------------------- hooks
def test_before_call_hook_can_refuse_and_after_call_can_rewrite(reg):
    @reg.tool(permission="write")
    def delete_file(path: str) -> str:
        """Delete a file."""
        return f"deleted {path}"

    @reg.before_call
    def read_only_policy(inv):
        if inv.entry.permission != "read":
            raise ToolError(f"{inv.entry.name} needs {inv.entry.permission!r} permission, which this session lacks")

    @reg.after_call
    def mark_as_data(inv, result):
        if result.ok:
            return dataclasses.replace(result, content=f"<tool-output>{result.content}</tool-output>")
        return None

    denied = reg.run(call("delete_file", {"path": "/tmp/x"}))
    assert denied.error == "denied" and "needs 'write' permission" in denied.content
    assert reg.call("get_time").content == "<tool-output>12:00</tool-output>"


# --------------------------------------------------------------------------- strict mode and the wire
def test_strict_tools_are_advertised_strict_and_nulls_get_their_defaults():  # C-03
    seen = []
    r = ToolRegistry(env={})

    @r.tool(strict=True)
    def create_user(name: str, is_admin: bool = False) -> dict:
        """Create a user account."""
        seen.append(is_admin)
        return {"name": name, "is_admin": is_admin}

    fn = r.definitions()[0]["function"]
    assert fn["strict"] is True and strict_violations(fn["parameters"]) == []
    assert fn["parameters"]["properties"]["is_admin"] == {"type": ["boolean", "null"]}
    assert r.get("create_user").parameters["properties"]["is_admin"]["default"] is False  # non-strict view kept
    assert r.call("create_user", {"name": "ana", "is_admin": None}).value == {"name": "ana", "is_admin": False}
    assert r.call("create_user", {"name": "bo", "is_admin": True}).value["is_admin"] is True
    MockLLM().explain([{"role": "user", "content": "create a user named ana"}], r.definitions())  # accepted


def test_definitions_in_every_format_are_valid_on_their_wire(reg):
    import mcp.types

    for d in reg.definitions("mcp"):
        tool_obj = mcp.types.Tool.model_validate(d)
        assert tool_obj.input_schema == reg.get(d["name"]).parameters
    assert reg.definitions("mcp")[0]["annotations"] == {"readOnlyHint": True, "idempotentHint": True}
    client = MockLLM().client(max_retries=0)
    r = client.responses.create(model="m", input="What's the weather in Paris?", tools=reg.definitions("responses"))
    assert [(i.name, json.loads(i.arguments)) for i in r.output if i.type == "function_call"] == [
        ("get_weather", {"city": "Paris"})]
    with pytest.raises(ValueError, match="format must be"):
        reg.definitions("xml")


def test_the_mock_calls_a_registry_tool_and_the_result_goes_back(reg):
    client = MockLLM().client(max_retries=0)
    messages = [{"role": "user", "content": "What's the weather in Paris?"}]
    msg = client.chat.completions.create(model="m", messages=messages, tools=reg.definitions()).choices[0].message
    messages.append(msg.model_dump(exclude_none=True))
    messages.extend(reg.dispatch_all(msg))
    assert messages[-1]["content"] == '{"city": "Paris", "temp": 28}'
    final = client.chat.completions.create(model="m", messages=messages, tools=reg.definitions())
    assert "28" in final.choices[0].message.content


def test_reprs_teach_something(reg):
    assert repr(reg) == "ToolRegistry('test', 2 tools; weather: 1, clock: 1)"
    assert repr(reg.get("get_weather")) == "ToolEntry('get_weather', toolset='weather')"
    reg.disable("clock")
    assert repr(reg.availability("get_time")) == "🚫 clock/get_time: toolset 'clock' is disabled"
    assert repr(reg.run(call("get_time", ""))).startswith("ToolResult(get_time [unavailable]")


def test_registry_picture_has_a_text_fallback(reg):
    reg.disable("clock")
    fig = reg.diagram()
    assert fig.fallback_text == reg.describe()
    assert "✘ get_time" in fig.fallback_text and "hidden: toolset 'clock' is disabled" in fig.fallback_text
    assert fig._suptitle.get_text() == "test: the model sees 1 of 2 tools"


def test_remove_toolset_for_a_disconnected_server(reg):
    reg.register("mcp_echo", "mcp:demo", schema={"type": "object", "properties": {"text": {"type": "string"}}},
                 handler=lambda text: text)
    reg.register("mcp_ping", "mcp:demo", handler=lambda: "pong")
    assert reg.remove_toolset("mcp:demo") == ["mcp_echo", "mcp_ping"]
    assert reg.names == ["get_weather", "get_time"]


# --------------------------------------------------------------------------- arguments arrive as the signature says
class Room(enum.Enum):
    A1 = "A1"
    B2 = "B2"


@dataclasses.dataclass
class Person:
    name: str
    email: str | None = None


def test_arguments_are_converted_to_the_annotated_types():
    seen = {}
    r = ToolRegistry(env={})

    @r.tool
    def book(room: Room, day: dt.date, owner: Person | None = None, slots: tuple[int, int] = (9, 10),
             note: str = "") -> str:
        """Book a room."""
        seen.update(room=room, day=day, owner=owner, slots=slots, note=note)
        return "booked"

    result = r.call("book", {"room": "B2", "day": "2026-05-04", "owner": {"name": "Ada"}, "slots": [14, 15]})
    assert result.ok
    assert seen == {"room": Room.B2, "day": dt.date(2026, 5, 4), "owner": Person("Ada"), "slots": (14, 15),
                    "note": ""}
    assert set(r.get("book").coercers) == {"room", "day", "owner", "slots"}  # str needs no conversion


def test_a_value_that_does_not_convert_is_an_argument_error_without_the_value():
    r = ToolRegistry(env={})

    def at(day: dt.date) -> str:
        return day.isoformat()

    r.register("at", handler=at, schema={"type": "object", "properties": {"day": {"type": "string"}},
                                         "required": ["day"]})  # the schema forgot `format: date`
    bad = r.call("at", {"day": "secret-not-a-date"})
    assert bad.error == "invalid_arguments" and "day:" in bad.content
    assert "secret-not-a-date" not in bad.content
    assert r.call("at", {"day": "2026-01-31"}).content == "2026-01-31"
