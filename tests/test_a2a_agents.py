"""The lesson 11 agents through the official Python SDK client: send, stream, get, cancel, input-required,
failure, rejection, unknown task; the orchestrator's discovery and delegation; the client-side fold."""
from __future__ import annotations

import asyncio
import sqlite3

import httpx
import pytest
from a2a.client import ClientConfig, create_client
from a2a.helpers import get_message_text
from a2a.types import (CancelTaskRequest, GetTaskRequest, SendMessageConfiguration, SendMessageRequest,
                       StreamResponse, Task, TaskState, TaskStatus, TaskStatusUpdateEvent)
from a2a.utils.errors import A2AError, TaskNotCancelableError, TaskNotFoundError, UnsupportedOperationError

from course_lib import a2a_agents as ag
from course_lib.a2a_states import InvalidTransition, check_path, state_of
from course_lib.examples import create_finance_db, query_finance, QueryCancelled
from course_lib.servers import stop_server

SLOW_SQL = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c"
WAIT = 10.0  # seconds: the bound of every wait below (no fixed sleeps)


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return create_finance_db(tmp_path_factory.mktemp("a2a") / "finance.db")


@pytest.fixture(scope="module")
def executor(db):
    return ag.FinanceAgentExecutor(db, step_delay=0, max_query_seconds=30)


@pytest.fixture(scope="module")
def agent(executor):
    server = ag.start_agent("test-finance-agent", ag.finance_agent_card, executor)
    yield server
    stop_server("test-finance-agent")


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


async def _client(url, streaming=True):
    return await create_client(url, client_config=ClientConfig(streaming=streaming))


async def _collect(client, text, **ids):
    return [e async for e in client.send_message(SendMessageRequest(message=ag.user_message(text, **ids)))]


def _states(events):
    out = []
    for e in events:
        kind = e.WhichOneof("payload")
        if kind == "task":
            out.append(state_of(e.task.status.state))
        elif kind == "status_update":
            out.append(state_of(e.status_update.status.state))
    return out


async def _wait_state(client, task_id, state, *, note=""):
    deadline = asyncio.get_running_loop().time() + WAIT
    while True:
        task = await client.get_task(GetTaskRequest(id=task_id))
        text = get_message_text(task.status.message) if task.status.HasField("message") else ""
        if state_of(task.status.state) == state and note in text:
            return task
        assert asyncio.get_running_loop().time() < deadline, f"task stayed {state_of(task.status.state)}: {text}"
        await asyncio.sleep(0.02)


# --------------------------------------------------------------------------- the plan (no server)

@pytest.mark.parametrize("texts,expected", [
    (["查公司2024年营收数据"], ("revenue",)),
    (["Get the company's 2024 revenue"], ("revenue",)),
    (["What was the net profit in 2023?"], ("net_profit",)),
    (["revenue and profit for 2022"], ("revenue", "net_profit")),
])
def test_plan_finance_questions(texts, expected):
    plan = ag.plan_finance_request(texts)
    assert isinstance(plan, ag.RunQuery) and plan.metrics == expected
    assert plan.shown.startswith(f"SELECT year, quarter, {', '.join(expected)} FROM finance WHERE year IN (")
    assert "?" not in plan.shown and plan.sql.count("?") == len(plan.years)


def test_plan_asks_for_the_year_and_resumes_with_it():
    ask = ag.plan_finance_request(["How much revenue did we make?"])
    assert ask == ag.AskInput("Which year? The finance database has 2022–2024.")
    assert ag.plan_finance_request(["营收是多少？"]).question.startswith("哪一年")
    resumed = ag.plan_finance_request(["How much revenue did we make?", "2023"])
    assert isinstance(resumed, ag.RunQuery) and resumed.years == (2023,) and resumed.params == (2023,)


@pytest.mark.parametrize("text", ["What's the weather in Paris?", "", "DROP TABLE finance", "delete from finance"])
def test_plan_rejects_what_is_not_its_skill(text):
    assert isinstance(ag.plan_finance_request([text]), ag.Reject)


def test_plan_passes_read_only_sql_through():
    plan = ag.plan_finance_request(["  SELECT year FROM finance  "])
    assert plan == ag.RunQuery(sql="SELECT year FROM finance", shown="SELECT year FROM finance")


def test_summary_totals_and_missing_year(db):
    plan = ag.plan_finance_request(["revenue 2024"])
    data, text = ag.summarize_rows(plan, query_finance(db, plan.sql, plan.params))
    assert data["totals"] == {"2024": {"revenue": 1279.9}}
    assert text == "2024 revenue: 1279.9 million USD (Q1 301.2, Q2 315.7, Q3 322.4, Q4 340.6)."
    missing = ag.plan_finance_request(["revenue 2019"])
    with pytest.raises(LookupError, match="no finance data for 2019"):
        ag.summarize_rows(missing, query_finance(db, missing.sql, missing.params))


def test_finance_db_is_read_only_and_cancellable(db):
    with pytest.raises(sqlite3.DatabaseError, match="not authorized"):
        query_finance(db, "DELETE FROM finance")
    with pytest.raises(sqlite3.DatabaseError, match="no such column: revnue"):
        query_finance(db, "SELECT revnue FROM finance")
    import threading
    stop = threading.Event()
    stop.set()
    with pytest.raises(QueryCancelled, match="cancelled"):
        query_finance(db, SLOW_SQL, cancel=stop)
    with pytest.raises(QueryCancelled, match="stopped after"):
        query_finance(db, SLOW_SQL, max_seconds=0)


# --------------------------------------------------------------------------- the Agent Card

def test_card_has_skills_examples_interfaces_and_streaming(agent):
    async def go():
        async with httpx.AsyncClient() as http:
            return (await http.get(agent.url + "/.well-known/agent-card.json")).json()
    card = run(go())
    assert card["name"] == "Finance DB agent" and card["capabilities"] == {"streaming": True, "pushNotifications": True}
    assert [s["id"] for s in card["skills"]] == ["finance_report", "sql_query"]
    assert "查公司2024年营收数据" in card["skills"][0]["examples"]
    assert {(i["protocolBinding"], i["url"], i["protocolVersion"]) for i in card["supportedInterfaces"]} == {
        ("JSONRPC", agent.url + "/a2a/jsonrpc", "1.0"), ("HTTP+JSON", agent.url + "/a2a/rest", "1.0")}
    assert "url" not in card  # 1.0 moved endpoints to supportedInterfaces


# --------------------------------------------------------------------------- Python SDK client

def test_send_blocking_returns_the_completed_task_with_its_artifact(agent):
    async def go():
        async with await _client(agent.url, streaming=False) as client:
            return await _collect(client, "Get the company's 2024 revenue")
    events = run(go())
    assert [e.WhichOneof("payload") for e in events] == ["task"]
    task = events[0].task
    assert state_of(task.status.state) == "completed"
    [artifact] = task.artifacts
    assert artifact.name == "finance-result"
    [data] = ag.artifact_data(artifact)
    assert data["totals"] == {"2024": {"revenue": 1279.9}} and data["unit"] == "million USD"
    assert [r["quarter"] for r in data["rows"]] == [1, 2, 3, 4]  # ints again, not 1.0 (protobuf Struct)


def test_stream_reports_working_then_artifact_then_completed_and_get_agrees(agent):
    async def go():
        async with await _client(agent.url) as client:
            events = await _collect(client, "查公司2024年营收数据")
            fold = ag.TaskFold()
            for e in events:
                fold.apply(e)
            return events, fold, await client.get_task(GetTaskRequest(id=fold.task.id))
    events, fold, got = run(go())
    kinds = [e.WhichOneof("payload") for e in events]
    # each event tells something new: the ids, what runs, the result, the end (issue 15: no repeats)
    assert kinds == ["task", "status_update", "artifact_update", "status_update"]
    assert _states(events) == ["submitted", "working", "completed"]
    assert get_message_text(events[1].status_update.status.message) == (
        "查询 2024 年的营收。执行 SQL：SELECT year, quarter, revenue FROM finance WHERE year IN (2024) ORDER BY year, quarter")
    assert not events[-1].status_update.status.HasField("message")  # the answer is the artifact, not said twice
    assert check_path(fold.states) == ["start", "complete"]
    assert fold.task.status.state == got.status.state == TaskState.TASK_STATE_COMPLETED
    assert list(fold.task.artifacts) == list(got.artifacts)
    assert ag.artifact_text(got.artifacts[0]).startswith("2024年营收：1279.9 百万美元")


def test_input_required_turn_resumes_the_same_task(agent):
    async def go():
        async with await _client(agent.url) as client:
            first = await _collect(client, "How much revenue did we make?")
            task = first[0].task
            second = await _collect(client, "2023", task_id=task.id, context_id=task.context_id)
            return first, second, await client.get_task(GetTaskRequest(id=task.id))
    first, second, got = run(go())
    assert _states(first) == ["submitted", "input-required"]
    assert get_message_text(first[-1].status_update.status.message) == "Which year? The finance database has 2022–2024."
    assert _states(second) == ["working", "completed"]
    assert {e.status_update.task_id for e in second if e.HasField("status_update")} == {got.id}
    assert ag.artifact_data(got.artifacts[0])[0]["totals"] == {"2023": {"revenue": 1078.7}}
    assert [get_message_text(m) for m in got.history if m.role == 1][:2] == ["How much revenue did we make?", "2023"]


@pytest.mark.parametrize("sql,reason", [
    ("SELECT revnue FROM finance", "The query failed: no such column: revnue"),
    ("SELECT 1; SELECT 2", "The query failed: You can only execute one statement at a time."),
])
def test_failing_query_ends_failed_with_the_reason(agent, sql, reason):
    async def go():
        async with await _client(agent.url) as client:
            return await _collect(client, sql)
    events = run(go())
    assert _states(events) == ["submitted", "working", "failed"]
    assert get_message_text(events[-1].status_update.status.message) == reason


def test_year_without_data_fails_with_the_reason(agent):
    async def go():
        async with await _client(agent.url, streaming=False) as client:
            return (await _collect(client, "revenue in 2019"))[0].task
    task = run(go())
    assert state_of(task.status.state) == "failed"
    assert get_message_text(task.status.message) == "The query failed: no finance data for 2019 (the database has 2022–2024)"


@pytest.mark.parametrize("text", ["What's the weather in Paris?", "DROP TABLE finance"])
def test_requests_outside_the_skills_are_rejected(agent, text):
    async def go():
        async with await _client(agent.url) as client:
            return await _collect(client, text)
    assert _states(run(go())) == ["submitted", "rejected"]


def test_unknown_task_gives_task_not_found(agent):
    async def go():
        async with await _client(agent.url) as client:
            with pytest.raises(TaskNotFoundError):
                await client.get_task(GetTaskRequest(id="no-such-task"))
            with pytest.raises(TaskNotFoundError):
                await client.cancel_task(CancelTaskRequest(id="no-such-task"))
    run(go())


# --------------------------------------------------------------------------- cancel (shared/cases C-20)

def test_cancel_running_task_stops_the_query_and_is_idempotent(agent, executor):
    async def go():
        async with await _client(agent.url, streaming=False) as client:
            request = SendMessageRequest(message=ag.user_message(SLOW_SQL),
                                         configuration=SendMessageConfiguration(return_immediately=True))
            [event] = [e async for e in client.send_message(request)]
            task_id = event.task.id
            await _wait_state(client, task_id, "working", note="Running SQL")
            canceled = await client.cancel_task(CancelTaskRequest(id=task_id))
            got = await client.get_task(GetTaskRequest(id=task_id))
            again = await client.cancel_task(CancelTaskRequest(id=task_id))
            deadline = asyncio.get_running_loop().time() + WAIT
            while executor.active_queries and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.02)
            return canceled, got, again
    canceled, got, again = run(go())
    assert state_of(canceled.status.state) == state_of(got.status.state) == "canceled"
    assert again == got  # a repeated cancel returns the same snapshot
    assert executor.active_queries == 0  # the SQLite query really stopped


def test_cancel_task_waiting_for_input_then_resume_is_refused(agent):
    async def go():
        async with await _client(agent.url) as client:
            task = (await _collect(client, "profit please"))[0].task
            canceled = await client.cancel_task(CancelTaskRequest(id=task.id))
            got = await client.get_task(GetTaskRequest(id=task.id))
            with pytest.raises(UnsupportedOperationError, match="terminal state"):
                await _collect(client, "2024", task_id=task.id, context_id=task.context_id)
            return canceled, got
    canceled, got = run(go())
    assert state_of(canceled.status.state) == state_of(got.status.state) == "canceled"


def test_cancel_completed_task_is_not_cancelable(agent):
    async def go():
        async with await _client(agent.url, streaming=False) as client:
            task = (await _collect(client, "revenue 2022"))[0].task
            assert state_of(task.status.state) == "completed"
            with pytest.raises(TaskNotCancelableError):
                await client.cancel_task(CancelTaskRequest(id=task.id))
    run(go())


# --------------------------------------------------------------------------- the fold

def _status(task_id, state):
    return StreamResponse(status_update=TaskStatusUpdateEvent(task_id=task_id, context_id="c",
                                                              status=TaskStatus(state=state)))


def test_fold_refuses_an_agent_that_leaves_a_terminal_state():
    fold = ag.TaskFold()
    fold.apply(StreamResponse(task=Task(id="t", context_id="c", status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED))))
    fold.apply(_status("t", TaskState.TASK_STATE_COMPLETED))
    with pytest.raises(InvalidTransition, match="'completed' to 'working'"):
        fold.apply(_status("t", TaskState.TASK_STATE_WORKING))


def test_fold_starts_from_an_update_when_no_task_came_first():
    fold = ag.TaskFold().apply(_status("t", TaskState.TASK_STATE_WORKING))
    assert fold.task.id == "t" and fold.state == "working"


# --------------------------------------------------------------------------- the orchestrator

def test_orchestrator_discovers_skills_and_chooses(agent):
    orch = ag.Orchestrator()
    run(orch.discover(agent.url))
    assert [(s.agent, s.id) for s in orch.skills()] == [("Finance DB agent", "finance_report"),
                                                         ("Finance DB agent", "sql_query")]
    assert orch.choose("查公司2024年营收数据").id == "finance_report"
    assert orch.choose("SELECT year FROM finance").id == "sql_query"
    assert orch.choose("What's the weather in Paris?") is None
    with pytest.raises(LookupError, match="no discovered agent has a skill"):
        run(orch.delegate("What's the weather in Paris?"))


def test_orchestrator_delegates_answers_input_and_reports(agent):
    orch = ag.Orchestrator()
    questions = []

    async def go():
        await orch.discover(agent.url)
        delegation = await orch.delegate("How much net profit did we make?",
                                         answer=lambda q: questions.append(q) or "2024")
        return delegation, await orch.get_task(agent.url, delegation.fold.task.id)
    delegation, got = run(go())
    assert questions == ["Which year? The finance database has 2022–2024."]
    assert delegation.turns == [(questions[0], "2024")]
    assert delegation.fold.states == ["submitted", "input-required", "working", "completed"]
    assert delegation.data[0]["totals"] == {"2024": {"net_profit": 138.0}}
    assert orch.report(delegation) == ("Finance DB agent answered: 2024 net profit: 138.0 million USD "
                                       "(Q1 30.9, Q2 33.4, Q3 35.0, Q4 38.7).")
    assert got.status.state == delegation.fold.task.status.state


def test_orchestrator_trace_shows_the_wire_in_order(agent):
    orch = ag.Orchestrator()

    async def go():
        await orch.discover(agent.url)
        return await orch.delegate("Get the company's 2024 revenue")
    run(go())
    labels = [(e.src, e.dst, e.label.split(" ")[0]) for e in orch.trace.events]
    assert labels == [
        ("Orchestrator", "Finance DB agent", "GET"),
        ("Finance DB agent", "Orchestrator", "Agent"),
        ("Orchestrator", "Orchestrator", "delegate"),
        ("Orchestrator", "Finance DB agent", "SendStreamingMessage"),
        ("Finance DB agent", "Orchestrator", "Task"),
        ("Finance DB agent", "Orchestrator", "statusUpdate"),
        ("Finance DB agent", "Orchestrator", "artifactUpdate"),
        ("Finance DB agent", "Orchestrator", "statusUpdate"),
    ]
    assert orch.trace.events[2].label == "delegate to Finance DB agent / finance_report"
    assert orch.trace.events[2].end >= orch.trace.events[-1].start  # the span covers the whole stream
    assert orch.trace.events[3].payload["method"] == "SendStreamingMessage"
    assert orch.trace.events[-1].payload["result"]["statusUpdate"]["status"]["state"] == "TASK_STATE_COMPLETED"
    assert {e.layer for e in orch.trace.filter("a2a").events} == {"a2a"} and len(orch.trace.filter("a2a")) == 7


def _methods(orch):
    """The JSON-RPC methods the orchestrator sent, in order (the card's HTTP GETs left out)."""
    return [e.payload["method"] for e in orch.trace.events
            if e.kind == "request" and isinstance(e.payload, dict) and e.payload.get("method", "GET") != "GET"]


def test_orchestrator_resumes_a_cut_stream_with_subscribe_to_task(db):
    """Lesson 11 §9: the first stream drops after two events; the orchestrator reconnects with
    SubscribeToTask (or, if the task finished meanwhile, reads it with GetTask) and ends where the agent is."""
    slow = ag.start_agent("test-slow-finance-agent", ag.finance_agent_card, ag.FinanceAgentExecutor(db, step_delay=1.0))
    try:
        orch = ag.Orchestrator()

        async def go():
            await orch.discover(slow.url)
            delegation = await orch.delegate("revenue 2023", cut_after=2)
            return delegation, await orch.get_task(slow.url, delegation.fold.task.id)
        delegation, got = run(go())
        assert _methods(orch)[:2] == ["SendStreamingMessage", "SubscribeToTask"]
        assert delegation.state == "completed" and delegation.fold.states[-1] == "completed"
        assert delegation.data[0]["totals"]["2023"]["revenue"] == 1078.7
        assert got.status.state == delegation.fold.task.status.state
        assert [a.artifact_id for a in got.artifacts] == [a.artifact_id for a in delegation.fold.task.artifacts]

        # A finished task cannot be subscribed to: resume falls back to GetTask and keeps the state.
        fold = run(orch.resume(slow.url, delegation.fold))
        assert fold.state == "completed" and _methods(orch)[-2:] == ["SubscribeToTask", "GetTask"]
    finally:
        stop_server("test-slow-finance-agent")


def test_orchestrator_in_process_through_asgi_transport(db):
    base = "http://finance.local"
    app = ag.build_agent_app(ag.finance_agent_card(base), ag.FinanceAgentExecutor(db, step_delay=0))
    orch = ag.Orchestrator(transport=httpx.ASGITransport(app=app))

    async def go():
        await orch.discover(base)
        return await orch.delegate("查公司2024年营收数据")
    delegation = run(go())
    assert delegation.state == "completed" and delegation.data[0]["totals"]["2024"]["revenue"] == 1279.9


def test_protocol_errors_reach_the_caller_as_a2a_errors(agent):
    orch = ag.Orchestrator()

    async def go():
        await orch.discover(agent.url)
        with pytest.raises(A2AError):
            await orch.cancel_task(agent.url, "no-such-task")
    run(go())
