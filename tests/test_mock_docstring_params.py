"""The mock reads a parameter's meaning from the tool's docstring when its schema has none.

The ``mcp`` SDK's ``@tool`` copies a function's docstring into the tool description and leaves the
properties bare (``{"title": "State", "type": "string"}``), as the MCP quickstart weather server's
``get_alerts`` shows (modelcontextprotocol/quickstart-resources, weather-server-python/weather.py).
(No ``from __future__ import annotations``: the SDK must evaluate the tool's annotations.)
"""

import json

import pytest
from mcp import Client
from mcp.server import MCPServer

from course_lib.mock_llm import MockLLM
from course_lib.mock_llm.docstrings import parameter_docs, with_parameter_docs

GOOGLE = "Get weather alerts for a US state.\n\n    Args:\n        state: Two-letter US state code (e.g. CA, NY)\n    "
REST = "Alerts of a region.\n\n:param region: Two-letter US state code (e.g. CA, NY)\n:param limit: at most this many\n"
NUMPY = ("Alerts of a region.\n\nParameters\n----------\nregion : str\n    Two-letter US state code\n"
         "    (e.g. CA, NY)\n")


def _tool(name: str, description: str, props: dict) -> dict:
    return {"type": "function", "function": {"name": name, "description": description,
                                             "parameters": {"type": "object", "properties": props,
                                                            "required": list(props)}}}


def _calls(tools: list[dict], text: str) -> list | str:
    msg = MockLLM().client().chat.completions.create(
        model="mock", messages=[{"role": "user", "content": text}], tools=tools).choices[0].message
    if not msg.tool_calls:
        return msg.content
    return [(c.function.name, json.loads(c.function.arguments)) for c in msg.tool_calls]


@pytest.mark.parametrize("doc, expected", [
    (GOOGLE, {"state": "Two-letter US state code (e.g. CA, NY)"}),
    (REST, {"region": "Two-letter US state code (e.g. CA, NY)", "limit": "at most this many"}),
    (NUMPY, {"region": "Two-letter US state code (e.g. CA, NY)"}),  # continuation lines joined
    ("Get the weather of a city.", {}),
    ("Args: none of this is a section, and :param is prose", {}),
    ("", {}),
])
def test_parameter_docs_reads_the_three_docstring_styles(doc, expected):
    assert parameter_docs(doc) == expected


def test_own_description_wins_and_the_schema_is_not_modified():
    schema = {"type": "object", "properties": {"region": {"type": "string", "description": "a sales region"},
                                               "limit": {"type": "integer"}}}
    before = json.dumps(schema, sort_keys=True)
    out = with_parameter_docs(schema, REST)
    assert out["properties"]["region"]["description"] == "a sales region"
    assert out["properties"]["limit"]["description"] == "at most this many"
    assert json.dumps(schema, sort_keys=True) == before
    plain = {"type": "object", "properties": {"city": {"type": "string"}}}
    assert with_parameter_docs(plain, "Weather of a city.") is plain


@pytest.mark.parametrize("doc", [GOOGLE, REST, NUMPY])
def test_a_state_code_documented_only_in_the_docstring_is_sent_as_a_code(doc):
    name = "state" if doc is GOOGLE else "region"
    tools = [_tool("get_alerts", doc, {name: {"title": name.title(), "type": "string"}})]
    assert _calls(tools, "Are there any weather alerts in Texas?") == [("get_alerts", {name: "TX"})]


def test_without_the_docstring_the_name_is_kept_as_written():
    tools = [_tool("get_alerts", "Get weather alerts for a US state.", {"state": {"type": "string"}})]
    assert _calls(tools, "Are there any weather alerts in Texas?") == [("get_alerts", {"state": "Texas"})]


@pytest.mark.anyio
async def test_a_tool_served_by_the_mcp_sdk_gets_its_docstring_read():
    server = MCPServer("alerts", log_level="WARNING")

    @server.tool()
    def get_alerts(state: str) -> str:
        """Get weather alerts for a US state.

        Args:
            state: Two-letter US state code (e.g. CA, NY)
        """
        return f"no alerts in {state}"

    async with Client(server) as client:
        (tool,) = (await client.list_tools()).tools
    assert "description" not in tool.input_schema["properties"]["state"]  # the SDK leaves it bare
    tools = [_tool(tool.name, tool.description, tool.input_schema["properties"])]
    assert _calls(tools, "What are the active weather alerts in Ohio?") == [("get_alerts", {"state": "OH"})]


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.mark.parametrize("name", ["region", "area", "location"])
def test_a_place_slot_described_as_a_state_code_takes_the_code(name):
    tools = [_tool("get_alerts", "Weather alerts.", {name: {"type": "string",
                                                            "description": "Two-letter US state code (e.g. CA, NY)"}})]
    assert _calls(tools, "Are there any weather alerts in Texas?") == [("get_alerts", {name: "TX"})]


@pytest.mark.parametrize("desc, expected", [
    ("ISO 3166-1 alpha-2 country code", "FR"),
    ("Two-letter country code, e.g. DE", "FR"),
    ("Country name", "France"),
])
def test_a_country_slot_asking_for_a_code_gets_the_iso_code(desc, expected):
    tools = [_tool("get_population", "Population of a country.", {"country": {"type": "string", "description": desc}})]
    assert _calls(tools, "What's the population of France?") == [("get_population", {"country": expected})]


def test_a_three_letter_or_calling_code_is_never_given_the_two_letter_code():
    for desc in ("ISO 3166-1 alpha-3 country code", "Country calling code, e.g. +33"):
        tools = [_tool("get_population", "Population of a country.", {"country": {"type": "string",
                                                                                  "description": desc}})]
        reply = _calls(tools, "What's the population of France?")
        assert isinstance(reply, str) or reply[0][1].get("country") != "FR", (desc, reply)
