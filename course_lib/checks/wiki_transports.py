"""Checks of exercise 09: call the wiki MCP server over stdio and over streamable HTTP.

The learner writes two coroutines, ``search_via_stdio(params, query)`` and
``search_via_http(url, query)``, each returning the page ids ``search_wiki`` finds. The
check starts the course's wiki server both ways and proves the calls really travelled
over each transport: the stdio child writes every request it serves to a log file, and
the HTTP server counts the ``tools/call`` requests it receives.
"""
from __future__ import annotations

import os
import tempfile
from typing import Any, Awaitable, Callable

from ..examples import search_wiki
from ..mcp_servers import wiki_server
from ..mcp_transports import course_server_params, start_http
from ..servers import stop_server
from ..hints import Hints
from . import CheckReport, calm_check
from ..i18n import N_, _

QUERIES = ["onboarding checklist", "vacation days"]


#: Hints of exercise 09
#: from a nudge to nearly the answer (``HINTS`` in the exercise, ``course hint 09``).
HINTS = Hints('09_wiki_over_transports', [
    N_('Lesson 09, sections 2 and 4: the same `call_tool` works on any transport; only the way you connect changes.'),
    N_('stdio: `async with StdioMCP(params) as client:` starts the server as a child process. HTTP: `async with '
    'http_client(url) as client:` connects to the running server.'),
    N_('In both: `result = await client.call_tool("search_wiki", {"query": query})`, then return `[hit["id"] for'
    ' hit in result.structured_content["result"]]`.'),
], solution_section='Your code: search_via_stdio and search_via_http')


def _expected(query: str) -> list[str]:
    return [h["id"] for h in search_wiki(query)]


def _hint_for(error: BaseException, transport: str) -> str:
    if isinstance(error, NotImplementedError):
        return _("Write your code where the exercise says `# YOUR CODE HERE` (and remove the `raise`).")
    if isinstance(error, TypeError) and "subscriptable" in str(error):
        return (_("Read the ids from the result's structured content: `r.structured_content[\"result\"]` is the list "
                "of hits; take `hit[\"id\"]` of each."))
    if transport == "HTTP" and ("connect" in str(error).lower() or "404" in str(error)):
        return _("Connect to the URL you are given (it ends with /mcp): `http_client(url)` "
                  "or `Client(url)`. ({error})").format(error=error)
    return _("Your function raised {error_type}: {error}").format(error_type=type(error).__name__, error=error)


@calm_check
async def check_wiki_over_transports(search_via_stdio: Callable[[Any, str], Awaitable[Any]],
                                     search_via_http: Callable[[str, str], Awaitable[Any]]) -> CheckReport:
    """Run the learner's two coroutines against fresh wiki servers; one sub-check per requirement.

    Use in a notebook as ``await check_wiki_over_transports(search_via_stdio, search_via_http)``.

    Raises:
        CheckFailed: when any sub-check fails (the report lists hints).
    """
    report = CheckReport(_("Exercise 09 · the wiki over stdio and HTTP"), more_help=HINTS.pointer())
    fd, call_log = tempfile.mkstemp(prefix="wiki-calls-", suffix=".log")
    os.close(fd)
    params = course_server_params("wiki", env={"COURSE_MCP_CALL_LOG": call_log})
    try:
        got = []
        for query in QUERIES:
            try:
                got.append(await search_via_stdio(params, query))
            except BaseException as e:  # noqa: BLE001 - the learner's code, any failure becomes a hint
                if isinstance(e, (KeyboardInterrupt, SystemExit)):
                    raise
                report.check(_("stdio: search_via_stdio runs"), False, _hint_for(e, "stdio"))
                break
        else:
            report.check(_("stdio: search_via_stdio runs"), True, "")
            report.check(_("stdio: it returns the page ids search_wiki finds"), got == [_expected(q) for q in QUERIES],
                         _("Return a list of page ids (strings) in the server's order, e.g. "
                            "{value} for {value2!r}; you returned {value3!r}.").format(value=_expected(QUERIES[0]), value2=QUERIES[0], value3=got[0]))
            with open(call_log, encoding="utf-8") as f:
                served = [line.strip() for line in f]
            report.check(_("stdio: the calls reached the server process"), served.count("tools/call search_wiki")
                         >= len(QUERIES),
                         _("Start the server from the `params` you are given: `StdioMCP(params)` (or the SDK's "
                         "`Client(stdio_client(params, errlog=...))`), then `call_tool(\"search_wiki\", ...)`."))
    finally:
        os.unlink(call_log)

    server = wiki_server()
    calls: list[str] = []

    async def count_calls(ctx: Any, call_next: Any) -> Any:
        if ctx.method == "tools/call":
            calls.append(ctx.params.get("name", ""))
        return await call_next(ctx)

    server.middleware.append(count_calls)
    handle = start_http(server, "check-09-wiki")
    try:
        url = handle.url + "/mcp"
        got = []
        for query in QUERIES:
            try:
                got.append(await search_via_http(url, query))
            except BaseException as e:  # noqa: BLE001 - the learner's code
                if isinstance(e, (KeyboardInterrupt, SystemExit)):
                    raise
                report.check(_("HTTP: search_via_http runs"), False, _hint_for(e, "HTTP"))
                break
        else:
            report.check(_("HTTP: search_via_http runs"), True, "")
            report.check(_("HTTP: it returns the page ids search_wiki finds"), got == [_expected(q) for q in QUERIES],
                         _("Return a list of page ids (strings), as in the stdio function."))
            report.check(_("HTTP: the calls reached the HTTP server"), calls.count("search_wiki") >= len(QUERIES),
                         _("Connect to `url` with `http_client(url)` (or `Client(url)`) and call `search_wiki` there; "
                         "a client on another server or in memory does not count."))
    finally:
        stop_server("check-09-wiki")
    return report.finish()
