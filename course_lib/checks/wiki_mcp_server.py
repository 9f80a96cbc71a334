"""Checks of exercise 08: the company-wiki search as an MCP server.

The learner writes ``build_wiki_server() -> MCPServer`` with a tool ``search_wiki`` (a
required ``query``, an optional ``space`` restricted to the wiki spaces, an optional
``limit`` from 1 to 20, default 5) and a resource template ``wiki://pages/{page_id}``.
The check connects the SDK's in-memory client in **both** protocol eras (2025-11-25 and
2026-07-28), reads the advertised schemas, calls the tool, reads a page, and names the
missing piece for each failure.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from ..examples import WIKI_PAGES, WIKI_SPACES, search_wiki
from ..hints import Hints
from . import CheckReport, calm_check
from ..i18n import N_, _

QUERIES = [({"query": "onboarding checklist"}, None), ({"query": "onboarding", "space": "hr"}, None),
           ({"query": "onboarding checklist", "limit": 1}, None)]
PAGE = "hr-2"  # the page the check reads through the resource template


#: Hints of exercise 08
#: from a nudge to nearly the answer (``HINTS`` in the exercise, ``course hint 08``).
HINTS = Hints('08_wiki_mcp_server', [
    N_('Lesson 08, section 2: a tool is a decorated function (`@server.tool()`), a resource template a decorated'
    ' function whose URI has `{page_id}` (`@server.resource("wiki://pages/{page_id}")`).'),
    N_('The schema comes from the type hints: `query: str` (required), `space: Literal["engineering", "product",'
    ' "hr", "finance"] | None = None`, `limit: Annotated[int, Field(ge=1, le=20)] = 5`; the docstring is the '
    'description.'),
    N_('The tool body is one line, `return find_pages(query, space, limit)`; the resource finds `next(p for p in'
    ' WIKI_PAGES if p["id"] == page_id)` and returns its title and text as a string.'),
], solution_section='Your code: build_wiki_server')


def _ids(result: Any) -> list[str] | None:
    """The page ids in a tools/call result: from structuredContent, or from JSON text content."""
    data = result.structured_content
    if isinstance(data, dict) and "result" in data:
        data = data["result"]
    if data is None and result.content:
        try:
            data = json.loads(result.content[0].text)
        except (ValueError, AttributeError):
            return None
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        return None
    return [d.get("id") for d in data if isinstance(d, dict)]


def _page(page_id: str) -> dict:
    return next(p for p in WIKI_PAGES if p["id"] == page_id)


def _enum_of(prop: dict) -> list | None:
    if "enum" in prop:
        return prop["enum"]
    for option in prop.get("anyOf", []):  # Optional[Literal[...]] → anyOf [enum, null]
        if "enum" in option:
            return option["enum"]
    return None


def _rejected_by_schema(input_schema: dict, result: Any) -> tuple[bool, str]:
    """(passed, hint): was ``limit: 500`` refused by the SDK's input validation of the declared bound?

    ``find_pages`` itself raises ``ValueError`` for a limit above 20, so an ``isError`` result alone
    proves nothing: a plain ``int`` parameter gets one too, after the call went through. The bound must
    be in the tool's ``inputSchema`` (``maximum: 20``, what the model reads in ``tools/list``), and the
    error must not be the SDK's wrapper of an exception raised inside the tool ("Error executing tool
    search_wiki" and nothing more): the SDK's validation answers before the tool's code runs.
    """
    text = " ".join(getattr(c, "text", "") or "" for c in result.content or [])
    maximum = ((input_schema or {}).get("properties", {}).get("limit") or {}).get("maximum")
    if not result.is_error:
        return False, (_("A limit above 20 must fail validation: use `Field(ge=1, le=20)`, not a plain `int` "
                       "(`limit: Annotated[int, Field(ge=1, le=20)] = 5`)."))
    if maximum != 20:
        return False, (_("The 500 was refused, but by `find_pages` inside your tool (the "
                          "call got through: the SDK answered {value!r}), not by the tool's "
                          "schema: use `Field(ge=1, le=20)`, not a plain `int`, i.e. `limit: "
                          "Annotated[int, Field(ge=1, le=20)] = 5`: the SDK then rejects 500 "
                          "before your code runs, and `tools/list` shows the model the limit "
                          "(`maximum: 20`).").format(value=text[:80]))
    if text.strip() == "Error executing tool search_wiki":  # the SDK's wrapper for an exception *in* the tool
        return False, (_("`inputSchema` declares `maximum: 20`, yet the 500 reached your tool's code, which raised: "
                       "let the SDK validate the arguments against the schema (keep the `Field(ge=1, le=20)` "
                       "annotation on the parameter the function really takes)."))
    return True, ""


@calm_check
async def check_wiki_mcp_server(build_wiki_server: Callable[[], Any]) -> CheckReport:
    """Check the learner's wiki MCP server through the SDK's in-memory client, in both eras.

    Use in a notebook as ``await check_wiki_mcp_server(build_wiki_server)``.

    Raises:
        CheckFailed: when any sub-check fails (the report lists hints).
    """
    from mcp import Client
    from mcp.server import MCPServer

    report = CheckReport(_("Exercise 08 · the wiki MCP server"), more_help=HINTS.pointer())
    try:
        server = build_wiki_server()
    except NotImplementedError:
        report.check(_("build_wiki_server() returns a server"), False,
                     _("Write your code where the exercise says `# YOUR CODE HERE` (and remove the `raise`)."))
        return report.finish()
    except Exception as e:  # the learner's code crashed
        report.check(_("build_wiki_server() returns a server"), False,
                     _("`build_wiki_server()` must run to the end: fix the line named below."), error=e)
        return report.finish()
    if not report.check(_("build_wiki_server() returns an MCPServer"), isinstance(server, MCPServer),
                        _("Create the server with `MCPServer(\"wiki\")`, register the tool and resource on it, "
                        "and `return server`.")):
        return report.finish()

    for mode, era in (("legacy", "2025-11-25"), ("auto", "2026-07-28")):
        async with Client(server, mode=mode) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            tool = tools.get("search_wiki")
            if not report.check(_("[{era}] tools/list has search_wiki").format(era=era), tool is not None,
                                _("Register a tool named exactly `search_wiki` with "
                                   "`@server.tool()` (found: {value}).").format(value=sorted(tools) or 'no tools')):
                continue
            if mode == "legacy":
                props = tool.input_schema.get("properties", {})
                report.check(_("`query` is required, `space` and `limit` are optional"),
                             tool.input_schema.get("required") == ["query"] and {"space", "limit"} <= set(props),
                             _("Parameters: `query: str` (no default), `space: ... = None`, `limit: ... = 5`."))
                report.check(_("`space` is an enum of the wiki spaces"),
                             sorted(_enum_of(props.get("space", {})) or []) == sorted(WIKI_SPACES),
                             _("Type `space` as `Literal{value} | None = None` so the schema "
                                "lists the spaces.").format(value=list(WIKI_SPACES)))
                limit = props.get("limit", {})
                report.check(_("`limit` is an integer from 1 to 20, default 5"),
                             limit.get("type") == "integer" and limit.get("minimum") == 1
                             and limit.get("maximum") == 20 and limit.get("default") == 5,
                             _("Type `limit` as `Annotated[int, Field(ge=1, le=20)] = 5` (pydantic's Field)."))
                report.check(_("the description says when to use the tool"),
                             len((tool.description or "").split()) >= 5,
                             _("Write a docstring for the tool: the model reads it to decide when to search the wiki."))
            results = []
            for args, _want in QUERIES:
                r = await client.call_tool("search_wiki", args)
                results.append((args, r))
            expected = [[h["id"] for h in search_wiki(a["query"], a.get("space"), a.get("limit", 5))]
                        for a, _want in QUERIES]
            got = [_ids(r) if not r.is_error else None for _call, r in results]
            report.check(_("[{era}] tools/call returns the pages search_wiki finds").format(era=era), got == expected,
                         _("Return the list from `course_lib.examples.search_wiki(query, "
                            "space, limit)` (pass all three arguments through). Expected ids "
                            "{expected}, got {got}.").format(expected=expected, got=got))
            bad = await client.call_tool("search_wiki", {"query": "deploy", "limit": 500})
            report.check(_("[{era}] limit 500 is rejected with isError by schema validation").format(era=era),
                         *_rejected_by_schema(tool.input_schema, bad))
            templates = [t.uri_template for t in (await client.list_resource_templates()).resource_templates]
            if report.check(_("[{era}] a resource template wiki://pages/{{page_id}}").format(era=era),
                            "wiki://pages/{page_id}" in templates,
                            _("Add `@server.resource(\"wiki://pages/{{page_id}}\")` on a "
                               "function taking `page_id: str` (found templates: {templates}).").format(templates=templates)):
                try:
                    page = await client.read_resource(f"wiki://pages/{PAGE}")
                    text = page.contents[0].text
                except Exception as e:  # the learner's resource function failed
                    text = _("(reading failed: {e})").format(e=e)
                report.check(_("[{era}] reading wiki://pages/{PAGE} returns that page's text").format(era=era, PAGE=PAGE),
                             _page(PAGE)["text"] in text,
                             _("Find the page whose `id` is `page_id` in `WIKI_PAGES` and return its title and text "
                             "as a string."))
    return report.finish()
