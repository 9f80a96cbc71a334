"""Exercise 08's check names each typical mistake of a wiki MCP server.

(No `from __future__ import annotations` here: the SDK must evaluate the local type aliases.)
"""

from typing import Annotated, Literal

import pytest
from mcp.server import MCPServer
from pydantic import Field

from course_lib.checks import CheckFailed
from course_lib.checks.wiki_mcp_server import check_wiki_mcp_server
from course_lib.examples import WIKI_PAGES, search_wiki
from course_lib.mcp_servers import wiki_server

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


def _server(*, name="search_wiki", plain_limit=False, plain_space=False, resource=True, drop_space=False,
            clamp=True):
    server = MCPServer("wiki", log_level="WARNING")
    Limit = int if plain_limit else Annotated[int, Field(ge=1, le=20)]
    Space = str | None if plain_space else Literal["engineering", "product", "hr", "finance"] | None

    def search(query: str, space: Space = None, limit: Limit = 5) -> list[dict]:
        """Search the company wiki for internal processes and policies."""
        return search_wiki(query, None if drop_space else space, min(limit, 20) if clamp else limit)

    server.add_tool(search, name=name)
    if resource:
        @server.resource("wiki://pages/{page_id}")
        def page(page_id: str) -> str:
            return next(p["text"] for p in WIKI_PAGES if p["id"] == page_id)
    return server


@pytest.mark.parametrize("kwargs, failing, words", [
    ({"name": "wiki_search"}, "tools/list has search_wiki", "exactly `search_wiki`"),
    ({"plain_limit": True}, "`limit` is an integer from 1 to 20, default 5", "Field(ge=1, le=20)"),
    ({"plain_limit": True}, "limit 500 is rejected with isError by schema validation", "Field(ge=1, le=20)"),
    ({"plain_space": True}, "`space` is an enum of the wiki spaces", "Literal"),
    ({"resource": False}, "a resource template wiki://pages/{page_id}", "@server.resource"),
    ({"drop_space": True}, "tools/call returns the pages search_wiki finds", "pass all three arguments"),
])
async def test_typical_mistakes_get_their_own_hint(kwargs, failing, words):
    with pytest.raises(CheckFailed) as e:
        await check_wiki_mcp_server(lambda: _server(**kwargs))
    failed = {r.name: r.hint for r in e.value.report.results if not r.passed}
    match = [hint for name, hint in failed.items() if failing in name]
    assert match and all(words in h for h in match), failed


async def test_not_implemented_gets_the_your_code_here_hint():
    def stub():
        raise NotImplementedError
    with pytest.raises(CheckFailed) as e:
        await check_wiki_mcp_server(stub)
    assert "YOUR CODE HERE" in e.value.report.results[0].hint


async def test_reference_servers_pass():
    assert (await check_wiki_mcp_server(_server)).passed
    assert (await check_wiki_mcp_server(wiki_server)).passed


async def test_limit_500_refused_by_find_pages_is_not_schema_validation():
    """A plain `int` passed through: find_pages raises for 500, so isError is true, yet the schema has no bound."""
    with pytest.raises(CheckFailed) as e:
        await check_wiki_mcp_server(lambda: _server(plain_limit=True, clamp=False))
    failed = {r.name: r.hint for r in e.value.report.results if not r.passed}
    rejected = [name for name in failed if "limit 500 is rejected" in name]
    assert rejected == ["[2025-11-25] limit 500 is rejected with isError by schema validation",
                        "[2026-07-28] limit 500 is rejected with isError by schema validation"]
    assert all(failed[n].startswith("The 500 was refused, but by `find_pages` inside your tool") for n in rejected)
    assert all("Annotated[int, Field(ge=1, le=20)]" in failed[n] for n in rejected)


async def test_the_bound_declared_in_the_schema_passes_even_if_the_tool_would_accept_500():
    report = await check_wiki_mcp_server(lambda: _server(clamp=True))
    names = [r.name for r in report.results if "limit 500" in r.name]
    assert len(names) == 2 and report.passed
