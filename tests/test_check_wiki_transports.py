"""Exercise 09's check proves the transport was really used, and names each typical mistake."""
from __future__ import annotations

import pytest
from mcp import Client

from course_lib.checks import CheckFailed
from course_lib.checks.wiki_transports import check_wiki_over_transports
from course_lib.mcp_servers import wiki_server
from course_lib.mcp_transports import StdioMCP, http_client

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def _ids(client, query):
    r = await client.call_tool("search_wiki", {"query": query})
    return [h["id"] for h in r.structured_content["result"]]


async def good_stdio(params, query):
    async with StdioMCP(params) as c:
        return await _ids(c, query)


async def good_http(url, query):
    async with http_client(url) as c:
        return await _ids(c, query)


async def in_memory(_target, query):  # ignores the transport it was given
    async with Client(wiki_server()) as c:
        return await _ids(c, query)


async def whole_hits(url, query):
    async with http_client(url) as c:
        return (await c.call_tool("search_wiki", {"query": query})).structured_content["result"]


@pytest.mark.parametrize("stdio, http, failing, words", [
    (in_memory, good_http, "stdio: the calls reached the server process", "StdioMCP(params)"),
    (good_stdio, in_memory, "HTTP: the calls reached the HTTP server", "http_client(url)"),
    (good_stdio, whole_hits, "HTTP: it returns the page ids search_wiki finds", "page ids"),
])
async def test_typical_mistakes_get_their_own_hint(stdio, http, failing, words):
    with pytest.raises(CheckFailed) as e:
        await check_wiki_over_transports(stdio, http)
    failed = {r.name: r.hint for r in e.value.report.results if not r.passed}
    assert failing in failed and words in failed[failing], failed


async def test_the_reference_solution_passes():
    assert (await check_wiki_over_transports(good_stdio, good_http)).passed
