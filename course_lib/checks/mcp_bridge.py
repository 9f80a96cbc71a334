"""Checks of exercise 10: bridge an MCP server's tools into the registry and let the agent use one.

The learner writes ``add_wiki_tools(registry, wiki_target) -> MCPToolset`` (connect, register
the server's tools into the registry) and ``ask(registry, question) -> AgentResult`` (run the
agent of lesson 03 on that registry). The check hands them a fresh wiki MCP server that
counts the ``tools/call`` requests it receives, so a shortcut (calling ``search_wiki``
directly, or copying its schema by hand) is detected and named.
"""
from __future__ import annotations

from typing import Any, Callable

from ..examples import get_weather
from ..mcp_servers import wiki_server
from ..tool_registry import ToolRegistry
from ..hints import Hints
from . import CheckReport, calm_check
from ..i18n import N_, _

QUESTION = "Search the wiki for the onboarding checklist"


#: Hints of exercise 10
#: from a nudge to nearly the answer (``HINTS`` in the exercise, ``course hint 10``).
HINTS = Hints('10_mcp_bridge', [
    N_('Lesson 10, section 6: `MCPToolset` connects to an MCP server and registers its tools into a registry; '
    'the agent of lesson 03 then uses them like any other tool.'),
    N_('`MCPToolset(wiki_target, "wiki").start()` connects; `.register_into(registry)` adds the tools as toolset'
    ' `mcp:wiki`. Return the toolset. For `ask`, build `Agent(get_client(), registry)`.'),
    N_('`wiki = MCPToolset(wiki_target, "wiki").start(); wiki.register_into(registry); return wiki` and `return '
    'Agent(get_client(), registry).run(question)`.'),
], solution_section='Your code: add_wiki_tools and ask')


def _fresh_registry() -> ToolRegistry:
    registry = ToolRegistry("exercise-10", env={})
    registry.register("get_weather", "weather", None, _weather)
    return registry


def _weather(city: str) -> dict:
    """Get the current weather (temperature, humidity) for a city."""
    return get_weather(city)


@calm_check
def check_mcp_bridge(add_wiki_tools: Callable[[ToolRegistry, Any], Any],
                     ask: Callable[[ToolRegistry, str], Any]) -> CheckReport:
    """Run the learner's two functions against a counting wiki MCP server.

    Raises:
        CheckFailed: when any sub-check fails (the report lists hints).
    """
    from ..mcp_bridge import close_all_toolsets

    report = CheckReport(_("Exercise 10 · the MCP bridge"), more_help=HINTS.pointer())
    server = wiki_server()
    calls: list[str] = []

    async def count(ctx: Any, call_next: Any) -> Any:
        if ctx.method == "tools/call":
            calls.append(ctx.params.get("name", ""))
        return await call_next(ctx)

    server.middleware.append(count)
    registry = _fresh_registry()
    try:
        try:
            toolset = add_wiki_tools(registry, server)
        except NotImplementedError:
            report.check(_("add_wiki_tools runs"), False,
                         _("Write your code where the exercise says `# YOUR CODE HERE` (and remove the `raise`)."))
            return report.finish()
        except Exception as e:  # the learner's code failed
            report.check(_("add_wiki_tools runs"), False, _("`add_wiki_tools` must run to the end: fix the line named below."), error=e)
            return report.finish()
        report.check(_("add_wiki_tools runs"), True, "")
        entry = registry._tools.get("search_wiki")
        if not report.check(_("search_wiki is in the registry"), entry is not None,
                            _("Create `MCPToolset(wiki_target, \"wiki\").start()` and call its "
                            "`.register_into(registry)`; the registry now has: ") + ", ".join(registry.names)):
            return report.finish()
        report.check(_("it is in the toolset mcp:wiki"), entry.toolset == "mcp:wiki",
                     _("Name the toolset after the server: `MCPToolset(wiki_target, \"wiki\")` "
                        "registers into `mcp:wiki` (found {toolset!r}).").format(toolset=entry.toolset))
        tools = getattr(toolset, "tools", None) or []
        mcp_schema = next((t.input_schema for t in tools if t.name == "search_wiki"), None)
        report.check(_("its schema is the server's inputSchema, unchanged"), mcp_schema is not None
                     and entry.parameters == mcp_schema,
                     _("Do not write the schema by hand: `register_into` copies the server's `inputSchema`; "
                     "return the `MCPToolset` from your function."))
        report.check(_("the built-in get_weather is still there"), "get_weather" in registry.names,
                     _("Add the MCP tools to the registry you are given; do not create a new one."))
        try:
            result = ask(registry, QUESTION)
        except NotImplementedError:
            report.check(_("ask runs the agent"), False,
                         _("Write your code where the exercise says `# YOUR CODE HERE` (and remove the `raise`)."))
            return report.finish()
        except Exception as e:  # the learner's code failed
            report.check(_("ask runs the agent"), False, _("`ask` must run to the end: fix the line named below."), error=e)
            return report.finish()
        names = [c.get("name") for c in getattr(result, "tool_calls", [])]
        report.check(_("the agent called search_wiki"), "search_wiki" in names,
                     _("Run the agent of lesson 03 on the registry: `Agent(get_client(), "
                        "registry).run(question)`, and return its result (tools called: "
                        "{names}).").format(names=names))
        report.check(_("the call reached the MCP server"), "search_wiki" in calls,
                     _("The tool must run on the MCP server, through the bridge: don't call `search_wiki` from "
                     "`course_lib.examples` yourself."))
        answer = getattr(result, "answer", "") or ""
        report.check(_("the answer names the onboarding checklist page"), "Onboarding checklist" in answer,
                     _("Return the agent's result; its `.answer` should come from the wiki "
                        "page (got {value!r}).").format(value=answer[:80]))
    finally:
        close_all_toolsets()
    return report.finish()
