"""Exercise 12's check: the solution passes, and each typical mistake gets its own kind hint."""
from __future__ import annotations


from course_lib.checks import CheckFailed
from course_lib.checks.capstone_extension import HINTS, check_capstone_extension
from course_lib.mock_llm import MockLLM

GOOD_REQUEST = ("Book the meeting room 'Everest' for 2026-12-01, then create a task 'Prepare the board slides' "
                "with Ada as assignee")


def rooms_server(*, docstring: bool = True, fails: bool = False):
    from course_lib.mcp_servers import CourseMCPServer

    server = CourseMCPServer("rooms")

    def book_meeting_room(room: str, date: str) -> dict:
        if fails:
            raise ValueError("the booking system is closed for maintenance")
        return {"booking": 1, "room": room, "date": date}

    if docstring:
        book_meeting_room.__doc__ = "Book a meeting room for a whole day (date as YYYY-MM-DD); returns the booking."
    server.tool()(book_meeting_room)
    return server


def good_extend(cap):
    cap.add_mcp_server(rooms_server(), "rooms")
    cap.policy.allow.append(lambda r: r.tool == "book_meeting_room")


def _report(extend, request=GOOD_REQUEST, tmp_path=None, ask=None):
    ask = ask or (lambda cap: cap.run(request))
    try:
        return check_capstone_extension(extend, ask, workdir=tmp_path, client=MockLLM().client())
    except CheckFailed as failed:
        return failed.report


def _first_failure(report):
    failed = [r for r in report.results if not r.passed]
    assert failed, report.text()
    return failed[0]


def test_the_solution_passes_every_check(tmp_path):
    report = _report(good_extend, tmp_path=tmp_path)
    assert report.passed, report.text()
    assert len(report.results) == 9
    assert "the trace shows a tools/call to rooms server" in [r.name for r in report.results]


def test_an_a2a_agent_is_an_extension_too(tmp_path):
    from course_lib.a2a_agents import FinanceAgentExecutor, finance_agent_card, start_agent
    from course_lib.examples import create_finance_db

    db = create_finance_db(tmp_path / "eu.db")
    server = start_agent("test-ex12-eu-agent", lambda url: finance_agent_card(url, name="EU finance agent"),
                         FinanceAgentExecutor(db, step_delay=0))
    try:
        report = _report(lambda cap: cap.add_agent(server.url),
                         "Ask the EU finance agent for the 2022 revenue report, and check the weather in Paris",
                         tmp_path / "cap")
        assert report.passed, report.text()
        assert "the trace shows a SendStreamingMessage to EU finance agent" in [r.name for r in report.results]
    finally:
        server.stop()


def test_the_stub_is_told_where_to_write(tmp_path):
    def stub(cap):
        raise NotImplementedError("Your turn: replace this line with your code.")

    failure = _first_failure(_report(stub, tmp_path=tmp_path))
    assert failure.name == "extend(cap) runs" and "YOUR CODE HERE" in failure.hint


def test_a_name_clash_says_to_use_a_prefix(tmp_path):
    from course_lib.mcp_servers import CourseMCPServer

    def clash(cap):
        server = CourseMCPServer("tasks")

        @server.tool()
        def create_task(title: str) -> str:
            """Create a task in another tracker."""
            return title

        cap.add_mcp_server(server, "tasks")

    failure = _first_failure(_report(clash, tmp_path=tmp_path))
    # the exception is one line under the hint; the SDK's message in it names the fix
    assert failure.error.line.startswith("ValueError") and "prefix='tasks_'" in failure.error.line


def test_a_server_built_but_not_added(tmp_path):
    failure = _first_failure(_report(lambda cap: rooms_server(), tmp_path=tmp_path))
    assert failure.name == "one more MCP server or A2A agent is plugged in"
    assert "on the `cap` you are given" in failure.hint


def test_a_python_function_is_not_an_mcp_server(tmp_path):
    def plain(cap):
        def book_meeting_room(room: str, date: str) -> dict:
            """Book a meeting room for a whole day (date as YYYY-MM-DD)."""
            return {"room": room}

        cap.registry.register(handler=book_meeting_room, toolset="rooms")

    failure = _first_failure(_report(plain, tmp_path=tmp_path))
    assert "`book_meeting_room` went into the registry as a Python function" in failure.hint


def test_a_tool_without_a_docstring(tmp_path):
    def undocumented(cap):
        cap.add_mcp_server(rooms_server(docstring=False), "rooms")
        cap.policy.allow.append(lambda r: r.tool == "book_meeting_room")

    failure = _first_failure(_report(undocumented, tmp_path=tmp_path))
    assert failure.name == "each new tool has a description" and "docstring" in failure.hint


def test_ask_not_written(tmp_path):
    def stub(cap):
        raise NotImplementedError("Your turn: replace this line with your code.")

    failure = _first_failure(_report(good_extend, ask=stub, tmp_path=tmp_path))
    assert failure.name == "ask(cap) runs a request" and "YOUR CODE HERE" in failure.hint


def test_ask_that_forgets_to_return_the_run(tmp_path):
    failure = _first_failure(_report(good_extend, ask=lambda cap: print(cap.run(GOOD_REQUEST).answer),
                                     tmp_path=tmp_path))
    assert failure.name == "ask(cap) returns the run of a request on the cap it is given"
    assert "return cap.run" in failure.hint and "got NoneType" in failure.hint


def test_a_request_the_model_does_not_route_to_the_tool(tmp_path):
    failure = _first_failure(_report(good_extend, request="Create a task 'Prepare the board slides' with Ada as "
                                                          "assignee", tmp_path=tmp_path))
    assert failure.name == "the model called your tool"
    assert "['create_task']" in failure.hint and "name and description of book_meeting_room" in failure.hint


def test_a_write_tool_without_an_approval_rule(tmp_path):
    failure = _first_failure(_report(lambda cap: cap.add_mcp_server(rooms_server(), "rooms"), tmp_path=tmp_path))
    assert failure.name == "your tool's call succeeded"
    assert "needs approval" in failure.hint and 'r.tool == "book_meeting_room"' in failure.hint


def test_a_tool_that_fails(tmp_path):
    def failing(cap):
        cap.add_mcp_server(rooms_server(fails=True), "rooms")
        cap.policy.allow.append(lambda r: r.tool == "book_meeting_room")

    failure = _first_failure(_report(failing, tmp_path=tmp_path))
    assert failure.name == "your tool's call succeeded"
    assert "Error executing tool book_meeting_room" in failure.hint and "ToolError" in failure.hint


def test_a_request_for_the_new_tool_only(tmp_path):
    report = _report(good_extend, request="Book the meeting room 'Everest' for 2026-12-01", tmp_path=tmp_path)
    failure = _first_failure(report)
    assert failure.name == "the same run also used one of the capstone's own layers"
    assert "Ask for two things" in failure.hint


def test_hints_lead_to_the_solution_section():
    assert len(HINTS.steps) == 3 and HINTS.exercise == "12_capstone_extension"
    assert HINTS.solution_section == "Your code: one more server"
    assert "cap.add_mcp_server" in HINTS.steps[0] and "cap.policy.allow.append" in HINTS.steps[1]
