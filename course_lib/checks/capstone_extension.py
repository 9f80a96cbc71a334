"""Checks of exercise 12: extend the capstone with one more MCP server (or A2A agent), and prove it is used.

The learner writes ``extend(cap)``: build a server (or start an agent), plug it into the given
:class:`~course_lib.capstone.Capstone` with ``cap.add_mcp_server(...)`` (or ``cap.add_agent(url)``),
and add whatever the host policy needs (an approval rule for a tool that writes); and
``ask(cap)``, which runs a user request that needs the new tool *and* one of the capstone's own
(``return cap.run("...")``).

The check starts a fresh capstone (its own folder and key), calls ``extend`` and ``ask`` on it,
and reads the run's trace: the proof is a ``tools/call`` to the new server (or an
A2A ``SendStreamingMessage`` to the new agent) inside the same run as another layer's call,
ending with an answer. Each typical mistake gets its own hint (see
``tests/test_check_capstone_extension.py``).
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any, Callable

from ..hints import Hints
from . import CheckReport, calm_check
from ..i18n import N_, _

#: The hints of exercise 12, from a nudge to nearly the answer (``HINTS`` in the exercise, ``course hint 12``).
HINTS = Hints("12_capstone_extension", [
    N_("Lesson 12 built the stack with `Capstone().start()`; the same object plugs in one more MCP server with "
    "`cap.add_mcp_server(server, name)` (or an A2A agent with `cap.add_agent(url)`). Lesson 08 shows how to "
    "write a server: `CourseMCPServer(name)` and `@server.tool()` on a function with type hints and a docstring."),
    N_("In `extend(cap)`: `server = CourseMCPServer(\"rooms\")`; under `@server.tool()` define "
    "`book_meeting_room(room: str, date: str) -> dict` with a docstring; then `cap.add_mcp_server(server, "
    "\"rooms\")`. The tool writes (no `readOnlyHint`), so the unattended policy refuses it until you add a rule: "
    "`cap.policy.allow.append(lambda r: r.tool == \"book_meeting_room\")`."),
    N_("In `ask(cap)`, `return cap.run(request)` with a request for two things in the words of the tools, e.g. "
    "\"Book the meeting room 'Everest' for 2026-12-01, then create a task 'Prepare the board slides' with Ada "
    "as assignee\". Then `print(run.trace.text())` shows `tools/call book_meeting_room` going to `rooms server`; "
    "`default_mock().explain([{\"role\": \"user\", \"content\": request}], cap.registry.definitions())` "
    "shows why the model picked each tool."),
], solution_section="Your code: one more server")

WRITE_YOUR_CODE = _("Write your code where the exercise says `# YOUR CODE HERE` (and remove the `raise`).")


def _result_of(run: Any, name: str) -> Any:
    for step in run.result.steps:
        for call, result in zip(step.tool_calls, step.results):
            if call["name"] == name:
                return result
    return None


@calm_check
def check_capstone_extension(extend: Callable[[Any], Any], ask: Callable[[Any], Any], *,
                             workdir: str | Path | None = None, client: Any = None) -> CheckReport:
    """Run the learner's ``extend`` then ``ask`` on a fresh capstone; check the trace proves the extension is used.

    Args:
        extend: ``extend(cap) -> None``: adds one more MCP server or A2A agent to ``cap``.
        ask: ``ask(cap) -> CapstoneRun``: runs a user request on ``cap`` (``return cap.run("...")``).
        workdir: the capstone's folder (default: a new temporary one).
        client: the ``openai`` client (default :func:`~course_lib.llm_client.get_client`).

    Returns:
        The :class:`~course_lib.checks.CheckReport` (when every sub-check passed).

    Raises:
        CheckFailed: a sub-check failed (the report lists a hint for each).
    """
    from ..capstone import Capstone, CapstoneRun

    report = CheckReport(_("Exercise 12 · extend the capstone"), more_help=HINTS.pointer())
    cap = Capstone(workdir or tempfile.mkdtemp(prefix="course-ex12-"), client=client, key="exercise-12-check")
    try:
        cap.start()
        core = set(cap.registry.names)
        try:
            extend(cap)
        except NotImplementedError:
            report.check(_("extend(cap) runs"), False, WRITE_YOUR_CODE)
            return report.finish()
        except Exception as e:  # the learner's code failed: say how, kindly
            report.check(_("extend(cap) runs"), False, _("`extend(cap)` must run to the end: fix the line named below."), error=e)
            return report.finish()
        report.check(_("extend(cap) runs"), True, "")
        added = [n for n in cap.registry.names if n not in core]
        mine = [n for n in added if cap.registry.get(n).toolset in cap.extensions]
        plain = [n for n in added if n not in mine]
        if not report.check(
                _("one more MCP server or A2A agent is plugged in"), cap.extensions and mine,
                _("`{value}` went into the registry as a Python function: that is function "
                   "calling, not MCP. Put the function in an MCP server (`@server.tool()`) "
                   "and add the server with `cap.add_mcp_server(server, \"name\")`.").format(value=', '.join(plain)) if plain else
                _("Nothing new reached the capstone: inside `extend(cap)`, call `cap.add_mcp_server(server, \"name\")` "
                "(or `cap.add_agent(url)`) on the `cap` you are given, and give the server at least one tool.")):
            return report.finish()
        blank = [n for n in mine if not cap.registry.get(n).description.strip()]
        report.check(_("each new tool has a description"), not blank,
                     _("Give {value} a docstring: the model chooses tools by their "
                        "descriptions, and an empty one is never chosen.").format(value=', '.join(blank)))
        before = len(cap.trace.events)
        try:
            run = ask(cap)
        except NotImplementedError:
            report.check(_("ask(cap) runs a request"), False, WRITE_YOUR_CODE)
            return report.finish()
        except Exception as e:  # the learner's code failed
            report.check(_("ask(cap) runs a request"), False, _("`ask(cap)` must run to the end: fix the line named below."), error=e)
            return report.finish()
        if not report.check(_("ask(cap) returns the run of a request on the cap it is given"),
                            isinstance(run, CapstoneRun) and len(cap.trace.events) > before,
                            _("Return the run: `return cap.run(\"...\")`, on the `cap` you are "
                               "given (got {error_type}).").format(error_type=type(run).__name__)):
            return report.finish()
        report.check(_("the run ended with an answer"), run.result.stop_reason == "answer",
                     _("The run stopped with {stop_reason!r}: {value!r}.").format(stop_reason=run.result.stop_reason, value=run.result.error or run.answer))
        called = run.called()
        used = [n for n in called if n in mine]
        if not report.check(_("the model called your tool"), used,
                            _("The model called {value} ({value2!r}). It picks tools by the "
                               "words they share with the request: use words of the name and "
                               "description of {value3} in your request, and give every "
                               "required argument (a quoted title, a date...). "
                               "`default_mock().explain([{{'role': 'user', 'content': "
                               "request}}], cap.registry.definitions())` shows the scores.").format(value=called or 'no tool', value2=run.answer[:90], value3=' or '.join(mine))):
            return report.finish()
        tool = cap.tools[used[0]]
        result = _result_of(run, used[0])
        error = None if result is None or result.ok else json.loads(result.content).get("error", result.content)
        if result is not None and result.error == "denied":
            hint = (_("The host refused it: {error}. {value} needs approval (it writes, or "
                       "its server is not one the capstone trusts, so its annotations are "
                       "ignored): add a rule in extend(cap), `cap.policy.allow.append(lambda "
                       "r: r.tool == \"{value}\")`, or, if it only reads, mark it read-only "
                       "(`@server.tool(annotations=ToolAnnotations(readOnlyHint=True))`) and "
                       "add your own server as trusted: `cap.add_mcp_server(server, name, "
                       "trusted=True)`.").format(error=error, value=used[0]))
        else:
            hint = (_("Your tool answered with an error: {error}. Fix the tool, or the "
                       "arguments your request gives it. An MCP server sends only the type of "
                       "an unexpected exception (its log line names it); raise "
                       "`ToolError(\"why\")` (from `mcp.server.mcpserver.exceptions`) to send "
                       "the reason.").format(error=error))
        if not report.check(_("your tool's call succeeded"), result is not None and result.ok, hint):
            return report.finish()
        if tool.layer == "mcp":
            proof = [e for e in run.trace.events if e.layer == "mcp" and e.dst == tool.lane
                     and e.label.startswith("tools/call ")]
            what = _("tools/call to {lane}").format(lane=tool.lane)
        else:
            proof = [e for e in run.trace.events if e.layer == "a2a" and e.dst == tool.lane
                     and e.label.startswith("SendStreamingMessage")]
            what = _("SendStreamingMessage to {lane}").format(lane=tool.lane)
        report.check(_("the trace shows a {what}").format(what=what), proof,
                     _("The call did not travel over the protocol: no {what} in `run.trace`. "
                        "Add the server with `cap.add_mcp_server(...)` (or the agent with "
                        "`cap.add_agent(url)`), not as a plain function.").format(what=what))
        others = [n for n in called if n in core]
        report.check(_("the same run also used one of the capstone's own layers"), others,
                     _("The run only called {used}. Ask for two things in one request: one "
                        "for your server and one for an existing tool (create a task, ask the "
                        "finance agent, check the weather...), so the trace shows the "
                        "orchestrator combining them.").format(used=used))
    finally:
        cap.close()
    return report.finish()


__all__ = ["HINTS", "check_capstone_extension"]
