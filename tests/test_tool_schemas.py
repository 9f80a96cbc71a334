"""Tool schemas: generated from code, validated, made strict, and converted between providers."""
from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import json
import uuid
from typing import Annotated, Any, Literal, Optional, TypedDict

import openai
import pytest
from annotated_types import Ge, Interval, Le, MaxLen, MinLen
from pydantic import BaseModel, Field

from course_lib.mock_llm import MockLLM
from course_lib.strict_mode import restore_defaults, strict_violations, to_strict
from course_lib.tool_registry import ToolRegistry
from course_lib.tool_schemas import (
    check_schema,
    function_schema,
    inline_refs,
    make_tool,
    openapi_operations,
    openapi_request,
    openapi_to_tool,
    parse_docstring,
    pydantic_function_schema,
    pydantic_tool,
    side_by_side,
    to_chat_tool,
    to_mcp_tool,
    to_responses_tool,
    tool_shape,
    type_schema,
    validate_arguments,
    validation_error_content,
)


# --------------------------------------------------------------------------- type hints -> JSON Schema
class Space(enum.Enum):
    ENGINEERING = "engineering"
    HR = "hr"


class Priority(enum.IntEnum):
    LOW = 1
    HIGH = 3


@dataclasses.dataclass
class Address:
    """A postal address.

    Args:
        zip: Postal code.
    """

    zip: str
    country: str = "CN"


class Filters(TypedDict, total=False):
    tags: list[str]
    author: str


@pytest.mark.parametrize("hint, schema", [
    (str, {"type": "string"}),
    (int, {"type": "integer"}),
    (float, {"type": "number"}),
    (bool, {"type": "boolean"}),
    (type(None), {"type": "null"}),
    (Any, {}),
    (dt.date, {"type": "string", "format": "date"}),
    (dt.datetime, {"type": "string", "format": "date-time"}),
    (uuid.UUID, {"type": "string", "format": "uuid"}),
    (Literal["a", "b"], {"type": "string", "enum": ["a", "b"]}),
    (Literal[1, 2], {"type": "integer", "enum": [1, 2]}),
    (Space, {"type": "string", "enum": ["engineering", "hr"]}),
    (Priority, {"type": "integer", "enum": [1, 3]}),
    (Optional[int], {"type": ["integer", "null"]}),
    (int | None, {"type": ["integer", "null"]}),
    (Optional[Literal["a"]], {"type": ["string", "null"], "enum": ["a", None]}),
    (int | str, {"anyOf": [{"type": "integer"}, {"type": "string"}]}),
    (list[str], {"type": "array", "items": {"type": "string"}}),
    (list, {"type": "array"}),
    (set[int], {"type": "array", "items": {"type": "integer"}, "uniqueItems": True}),
    (tuple[float, ...], {"type": "array", "items": {"type": "number"}}),
    (tuple[float, float], {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}],
                           "minItems": 2, "maxItems": 2}),
    (dict[str, int], {"type": "object", "additionalProperties": {"type": "integer"}}),
    (Annotated[int, "How many pages."], {"type": "integer", "description": "How many pages."}),
    (Annotated[int, Ge(1), Le(20)], {"type": "integer", "minimum": 1, "maximum": 20}),
    (Annotated[int, Field(ge=1, le=20, description="Pages.")], {"type": "integer", "description": "Pages.",
                                                                "minimum": 1, "maximum": 20}),
    (Annotated[str, MinLen(2), MaxLen(64)], {"type": "string", "minLength": 2, "maxLength": 64}),
    (Annotated[list[str], MaxLen(3)], {"type": "array", "items": {"type": "string"}, "maxItems": 3}),
    (Annotated[float, Interval(gt=0, lt=1)], {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}),
    (Address, {"type": "object", "properties": {"zip": {"type": "string", "description": "Postal code."},
                                                "country": {"type": "string", "default": "CN"}},
               "required": ["zip"], "additionalProperties": False}),
    (Filters, {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}},
                                                "author": {"type": "string"}}, "additionalProperties": False}),
    (list[Address], {"type": "array", "items": type_schema(Address)}),
])
def test_type_schema_for_every_supported_hint(hint, schema):
    assert type_schema(hint) == schema
    assert check_schema({"type": "object", "properties": {"x": schema}}) == []


@pytest.mark.parametrize("hint", [object, bytes, dict[int, str], type])
def test_unsupported_types_are_refused_with_their_name(hint):
    with pytest.raises(TypeError, match="JSON"):
        type_schema(hint)


def search_wiki(query: str, space: Optional[Literal["engineering", "product", "hr"]] = None, limit: int = 5,
                include_archived: bool = False, since: dt.date | None = None) -> list[dict]:
    """Search the company wiki for pages about a topic.

    Use it for internal processes and documentation, not for the public web.

    Args:
        query: What to search for, in the user's words.
        space: Restrict the search to one wiki space.
        limit: Maximum number of pages to return
            (1 to 20).
        include_archived: Also search archived pages.
        since: Only pages edited on or after this day.

    Returns:
        The matching pages.
    """
    return []


def test_function_schema_reads_signature_and_docstring():
    tool = function_schema(search_wiki)
    assert tool == {"type": "function", "function": {
        "name": "search_wiki",
        "description": "Search the company wiki for pages about a topic.\n\n"
                       "Use it for internal processes and documentation, not for the public web.",
        "parameters": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to search for, in the user's words."},
                "space": {"type": ["string", "null"], "enum": ["engineering", "product", "hr", None],
                          "description": "Restrict the search to one wiki space.", "default": None},
                "limit": {"type": "integer", "description": "Maximum number of pages to return (1 to 20).",
                          "default": 5},
                "include_archived": {"type": "boolean", "description": "Also search archived pages.",
                                     "default": False},
                "since": {"type": ["string", "null"], "format": "date",
                          "description": "Only pages edited on or after this day.", "default": None},
            },
            "required": ["query"],
            "additionalProperties": False,
        }}}
    assert check_schema(tool["function"]["parameters"]) == []


def test_function_schema_options_and_errors():
    def tagged(*args: int, name: str, **kwargs: Any) -> None:
        ...

    tool = function_schema(tagged, name="tag_it", description="Tag.", strict=False, additional_properties=True)
    fn = tool["function"]
    assert (fn["name"], fn["description"], fn["strict"]) == ("tag_it", "Tag.", False)
    assert fn["parameters"] == {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"],
                                "additionalProperties": True}

    def bad(handle: object) -> None:
        ...

    with pytest.raises(TypeError, match=r"bad\(handle\)"):
        function_schema(bad)


def test_parse_docstring_styles():
    rest = parse_docstring("""Convert money.

    :param amount: How much.
    :param str currency: ISO code,
        e.g. EUR.
    :returns: the converted amount
    """)
    assert rest.description == "Convert money."
    assert rest.params == {"amount": "How much.", "currency": "ISO code, e.g. EUR."}
    assert parse_docstring(None).description == ""


def test_pydantic_way_side_by_side():
    def by_pydantic(query: str, space: Optional[Literal["engineering", "hr"]] = None,
                    limit: Annotated[int, Field(ge=1, le=20)] = 5) -> list:
        """Search the wiki.

        Args:
            query: What to search for.
        """
        return []

    params = pydantic_function_schema(by_pydantic)["function"]["parameters"]
    assert params["properties"]["limit"] == {"type": "integer", "minimum": 1, "maximum": 20, "default": 5}
    assert params["properties"]["space"] == {"anyOf": [{"type": "string", "enum": ["engineering", "hr"]},
                                                       {"type": "null"}], "default": None}
    assert params["properties"]["query"] == {"type": "string", "description": "What to search for."}
    assert params["additionalProperties"] is False and params["required"] == ["query"]

    class Zip(BaseModel):
        zip: str

    class SaveUser(BaseModel):
        """Save a user's address."""

        username: str = Field(description="Login name")
        address: Zip

    tool = pydantic_tool(SaveUser)
    assert tool["function"]["name"] == "save_user" and tool["function"]["description"] == "Save a user's address."
    assert tool["function"]["parameters"]["properties"]["address"] == {"$ref": "#/$defs/Zip"}
    assert tool["function"]["parameters"]["$defs"] == {"Zip": {"type": "object", "properties": {
        "zip": {"type": "string"}}, "required": ["zip"]}}
    assert check_schema(tool["function"]["parameters"]) == []


# --------------------------------------------------------------------------- validation
SEARCH_PARAMS = function_schema(search_wiki)["function"]["parameters"]


@pytest.mark.parametrize("arguments, messages", [
    ({"query": "vpn"}, []),
    ({"query": "vpn", "space": None, "since": "2026-01-31"}, []),
    ({}, ["missing required argument 'query'"]),
    ({"query": "vpn", "space": "legal"}, ['space: must be one of ["engineering", "product", "hr", null]']),
    ({"query": "vpn", "limit": "3"}, ["limit: must be of type integer"]),
    ({"query": "vpn", "since": "31/01/2026"}, ["since: must be a valid date"]),  # FormatChecker on
    ({"query": "vpn", "lang": "en"}, ["unexpected argument 'lang' (allowed: query, space, limit, include_archived, "
                                      "since)"]),
    (["vpn"], ["must be of type object"]),
])
def test_validate_arguments(arguments, messages):
    assert [str(e) for e in validate_arguments(arguments, SEARCH_PARAMS)] == messages


def test_ranges_lengths_patterns_and_refs():
    schema = {"type": "object", "$defs": {"Tag": {"type": "string", "pattern": "^[a-z]+$", "minLength": 2}},
              "properties": {"limit": {"type": "integer", "minimum": 1, "maximum": 20},
                             "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}, "maxItems": 2}}}
    errors = validate_arguments({"limit": 500, "tags": ["ok", "X", "abc"]}, schema)
    assert [str(e) for e in errors] == ["limit: must be <= 20", "tags: must have at most 2 items",
                                        "tags/1: must have at least 2 characters", "tags/1: must match the pattern ^[a-z]+$"]
    assert validate_arguments({"limit": 0}, schema)[0].keyword == "minimum"


def test_validation_errors_as_a_tool_message_the_model_can_act_on():
    errors = validate_arguments({"query": "vpn", "limit": 500, "space": "legal"},
                                {**SEARCH_PARAMS, "properties": {**SEARCH_PARAMS["properties"],
                                                                 "limit": {"type": "integer", "maximum": 20}}})
    body = json.loads(validation_error_content("search_wiki", errors, SEARCH_PARAMS))
    assert body["error"].startswith("invalid arguments: limit: must be <= 20; space: must be one of")
    assert body["kind"] == "invalid_arguments" and len(body["details"]) == 2
    assert body["hint"].endswith("required: query")


@pytest.mark.parametrize("schema, problem", [
    ({"type": "object", "properties": {"q": {"type": "text"}}}, "properties/q/type"),
    ({"type": "object", "required": "q"}, "required: 'q' is not of type 'array'"),
    ({"type": "object", "properties": {"n": {"type": "integer", "minimum": "1"}}}, "properties/n/minimum"),
    ({"type": "string"}, "tool parameters must be {\"type\": \"object\"}"),
    ({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}}, "does not resolve"),
    ({"type": "object", "properties": {}, "required": ["q"]}, "'q' is required but not declared"),
    ("not a dict", "must be a JSON object"),
])
def test_check_schema_finds_what_is_wrong(schema, problem):
    problems = check_schema(schema)
    assert problems and problem in problems[0]


def test_inline_refs():
    params = {"type": "object", "$defs": {"Zip": {"type": "string", "pattern": "^[0-9]{6}$"}},
              "properties": {"zip": {"$ref": "#/$defs/Zip", "description": "Postal code"}}}
    assert inline_refs(params) == {"type": "object", "properties": {
        "zip": {"type": "string", "pattern": "^[0-9]{6}$", "description": "Postal code"}}}
    with pytest.raises(ValueError, match="recursive"):
        inline_refs({"$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
                     "type": "object", "properties": {"head": {"$ref": "#/$defs/Node"}}})


# --------------------------------------------------------------------------- strict mode (C-02, C-03)
C02_RAW = {"type": "object", "properties": {"username": {"type": "string"}, "address": {
    "type": "object", "properties": {"zip": {"type": "string"}}, "required": ["zip"]}},
    "required": ["username", "address"]}


def test_c02_strict_needs_additional_properties_false_everywhere():
    client = MockLLM().client(max_retries=0)
    tool = make_tool("save_user", "Save a user's address.", C02_RAW, strict=True)
    with pytest.raises(openai.BadRequestError) as e:
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "save user ada"}],
                                       tools=[tool])
    assert "In context=()" in e.value.message and "additionalProperties" in e.value.message
    strict = to_strict(C02_RAW)
    assert strict["additionalProperties"] is False
    assert strict["properties"]["address"]["additionalProperties"] is False
    assert strict_violations(strict) == []
    tool["function"]["parameters"] = strict
    client.chat.completions.create(model="m", messages=[{"role": "user", "content": "save user ada"}], tools=[tool])


def test_c02_on_a_pydantic_schema_with_defs():
    class Zip(BaseModel):
        zip: str

    class User(BaseModel):
        username: str
        address: Zip

    raw = User.model_json_schema()
    assert any("'$defs', 'Zip'" in p for p in strict_violations(raw))  # the problem is inside $defs
    strict = to_strict(raw)
    assert strict["$defs"]["Zip"]["additionalProperties"] is False and strict_violations(strict) == []


def test_c03_optional_fields_become_nullable_and_defaults_come_back():
    raw = {"type": "object", "properties": {"name": {"type": "string"},
                                            "is_admin": {"type": "boolean", "default": False}},
           "required": ["name"], "additionalProperties": False}
    missing = ("In context=(), 'required' is required to be supplied and to be an array "
               "including every key in properties. Missing 'is_admin'.")
    assert strict_violations(raw) == [missing]  # api.openai.com accepts `default` in a strict schema
    assert strict_violations(raw, portable=True) == [  # other deployments do not
        missing, "In context=('properties', 'is_admin'), 'default' is not permitted."]
    strict = to_strict(raw)
    assert strict == {"type": "object", "properties": {"name": {"type": "string"},
                                                       "is_admin": {"type": ["boolean", "null"]}},
                      "required": ["name", "is_admin"], "additionalProperties": False}
    assert restore_defaults({"name": "ana", "is_admin": None}, raw) == {"name": "ana", "is_admin": False}
    assert raw["properties"]["is_admin"]["default"] is False  # the non-strict schema keeps its default


def test_c03_end_to_end_the_mock_sends_null_and_the_registry_restores_the_default():
    seen = []
    reg = ToolRegistry(env={})

    @reg.tool(strict=True)
    def create_user(name: str, is_admin: bool = False) -> str:
        """Create a user account with a name."""
        seen.append((name, is_admin))
        return "created"

    client = MockLLM().client(max_retries=0)
    msg = client.chat.completions.create(model="m", tools=reg.definitions(), messages=[
        {"role": "user", "content": 'Create a user account named "ana"'}]).choices[0].message
    assert json.loads(msg.tool_calls[0].function.arguments) == {"name": "ana", "is_admin": None}
    reg.dispatch_all(msg)
    assert seen == [("ana", False)]


# --------------------------------------------------------------------------- provider shapes
WIKI_WITH_DEFS = make_tool("search_wiki", "Search the company wiki.", {
    "type": "object",
    "$defs": {"Space": {"type": "string", "enum": ["engineering", "hr"]}},
    "properties": {"query": {"type": "string"}, "space": {"$ref": "#/$defs/Space"}},
    "required": ["query"], "additionalProperties": False})


def test_the_three_shapes():
    chat = WIKI_WITH_DEFS
    responses = to_responses_tool(chat)
    mcp_tool = to_mcp_tool(chat)
    assert [tool_shape(t) for t in (chat, responses, mcp_tool)] == ["chat", "responses", "mcp"]
    # explicit strict: false, or the Responses API would make the tool strict (optional fields required)
    assert responses == {"type": "function", **chat["function"], "strict": False}
    assert mcp_tool == {"name": "search_wiki", "description": "Search the company wiki.",
                        "inputSchema": chat["function"]["parameters"]}
    with pytest.raises(ValueError, match="not a tool definition"):
        tool_shape({"name": "x"})


@pytest.mark.parametrize("start", ["chat", "responses", "mcp"])
def test_round_trips_are_lossless_and_keep_defs(start):
    strict = make_tool("save_user", "Save.", to_strict(C02_RAW), strict=True)
    for tool in (WIKI_WITH_DEFS, strict):
        first = {"chat": to_chat_tool, "responses": to_responses_tool, "mcp": to_mcp_tool}[start](tool)
        assert to_chat_tool(to_mcp_tool(to_responses_tool(first))) == tool
        assert to_mcp_tool(to_chat_tool(to_mcp_tool(first))) == to_mcp_tool(tool)
    assert to_mcp_tool(strict)["_meta"] == {"openai/strict": True}


def test_mcp_fields_survive_mcp_round_trips_and_validate_with_the_sdk():
    import mcp.types

    rich = to_mcp_tool(WIKI_WITH_DEFS, title="Wiki search", annotations={"readOnlyHint": True},
                       outputSchema={"type": "object", "properties": {"pages": {"type": "array"}}})
    assert to_mcp_tool(rich) == rich
    sdk_tool = mcp.types.Tool.model_validate(rich)
    assert sdk_tool.input_schema["$defs"] == {"Space": {"type": "string", "enum": ["engineering", "hr"]}}
    assert to_chat_tool(sdk_tool) == WIKI_WITH_DEFS  # from the SDK object too


def test_converted_tools_work_on_both_openai_apis_of_the_mock():
    client = MockLLM().client(max_retries=0)
    question = "Search the engineering wiki for the VPN setup guide"
    chat = client.chat.completions.create(model="m", messages=[{"role": "user", "content": question}],
                                          tools=[to_chat_tool(to_mcp_tool(WIKI_WITH_DEFS))])
    resp = client.responses.create(model="m", input=question, tools=[to_responses_tool(WIKI_WITH_DEFS)])
    chat_args = json.loads(chat.choices[0].message.tool_calls[0].function.arguments)
    resp_args = json.loads(next(i for i in resp.output if i.type == "function_call").arguments)
    assert chat_args == resp_args and chat_args["space"] == "engineering"
    assert validate_arguments(chat_args, WIKI_WITH_DEFS["function"]["parameters"]) == []


# --------------------------------------------------------------------------- OpenAPI
WEATHER_API = {
    "openapi": "3.0.3",
    "info": {"title": "Weather", "version": "1.0"},
    "servers": [{"url": "https://api.weather.example/v1"}],
    "paths": {
        "/weather/{city}": {
            "parameters": [{"name": "city", "in": "path", "required": True, "schema": {"type": "string"},
                            "description": "City name"}],
            "get": {
                "operationId": "getWeather",
                "summary": "Current weather for a city",
                "parameters": [
                    {"name": "units", "in": "query", "schema": {"type": "string", "enum": ["metric", "imperial"],
                                                                "default": "metric"}},
                    {"name": "Authorization", "in": "header", "required": True, "schema": {"type": "string"}},
                    {"name": "X-Request-Lang", "in": "header", "schema": {"type": "string", "nullable": True}},
                ],
            },
        },
        "/alerts": {
            "post": {
                "operationId": "createAlert",
                "description": "Subscribe to weather alerts.",
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Alert"}}}},
            },
        },
    },
    "components": {"schemas": {
        "Alert": {"type": "object", "required": ["city", "threshold"], "properties": {
            "city": {"type": "string"}, "threshold": {"$ref": "#/components/schemas/Threshold"}}},
        "Threshold": {"type": "object", "properties": {"temp_c": {"type": "number", "example": 35}}},
    }},
}


def test_openapi_operation_to_tool():
    tool = openapi_to_tool(WEATHER_API, "getWeather")
    assert tool == {"type": "function", "function": {
        "name": "getWeather",
        "description": "Current weather for a city",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name"},
                "units": {"type": "string", "enum": ["metric", "imperial"], "default": "metric"},
                "X-Request-Lang": {"type": ["string", "null"]},
            },
            "required": ["city"],
            "additionalProperties": False,
        }}}
    assert openapi_to_tool(WEATHER_API, ("GET", "/weather/{city}")) == tool
    with pytest.raises(KeyError, match="getWeather, createAlert"):
        openapi_to_tool(WEATHER_API, "deleteEverything")


def test_openapi_body_and_component_refs_become_defs():
    params = openapi_to_tool(WEATHER_API, "createAlert")["function"]["parameters"]
    assert params["properties"] == {"city": {"type": "string"}, "threshold": {"$ref": "#/$defs/Threshold"}}
    assert params["required"] == ["city", "threshold"]
    assert params["$defs"]["Threshold"] == {"type": "object", "properties": {
        "temp_c": {"type": "number", "examples": [35]}}}
    assert check_schema(params) == []
    assert [o.operation_id for o in openapi_operations(WEATHER_API)] == ["getWeather", "createAlert"]


def test_openapi_request_maps_arguments_back_onto_http():
    req = openapi_request(WEATHER_API, "getWeather", {"city": "São Paulo", "units": "imperial"},
                          headers={"Authorization": "Bearer secret"})
    assert (req.method, str(req.url)) == ("GET", "https://api.weather.example/v1/weather/S%C3%A3o%20Paulo?units=imperial")
    assert req.headers["authorization"] == "Bearer secret"
    post = openapi_request(WEATHER_API, "createAlert", {"city": "Paris", "threshold": {"temp_c": 35}},
                           base_url="http://127.0.0.1:9")
    assert post.method == "POST" and json.loads(post.content) == {"city": "Paris", "threshold": {"temp_c": 35}}
    with pytest.raises(ValueError, match="missing path parameter"):
        openapi_request(WEATHER_API, "getWeather", {"units": "metric"})


def test_the_model_calls_the_openapi_tool_by_meaning():
    client = MockLLM().client(max_retries=0)
    msg = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Weather in Paris?"}],
                                         tools=[openapi_to_tool(WEATHER_API, "getWeather"),
                                                openapi_to_tool(WEATHER_API, "createAlert")]).choices[0].message
    call = msg.tool_calls[0].function
    assert call.name == "getWeather" and json.loads(call.arguments) == {"city": "Paris"}


def test_side_by_side_aligns_equal_lines_and_marks_differences():
    text = side_by_side({"a": 1, "b": 2}, {"a": 1, "b": 3, "c": 4}, titles=("left", "right"), width=12)
    assert text.splitlines() == [
        "left           right",
        "------------   ------------",
        "{              {",
        ' "a": 1,        "a": 1,',
        ' "b": 2      |  "b": 3,',
        '             |  "c": 4',
        "}              }",
    ]
