"""The A2A task-state table: it matches the SDK's TaskState and drives validation and the diagram."""
from __future__ import annotations

import pytest
from a2a.server.agent_execution.active_task import INTERRUPTED_TASK_STATES, TERMINAL_TASK_STATES
from a2a.types import TaskState

from course_lib import a2a_states as st


def test_table_has_exactly_the_sdk_states():
    sdk = {name for name in TaskState.keys() if name != "TASK_STATE_UNSPECIFIED"}
    assert {st.wire_name(s) for s in st.TRANSITIONS} == sdk
    assert len(st.TRANSITIONS) == 8


def test_every_target_is_a_state_and_every_state_is_reachable():
    targets = {t for moves in st.TRANSITIONS.values() for t in moves.values()}
    assert targets <= set(st.TRANSITIONS)
    assert targets | {st.INITIAL} == set(st.TRANSITIONS)


def test_terminal_and_interrupted_sets_agree_with_the_sdk():
    assert {TaskState.Value(st.wire_name(s)) for s in st.TERMINAL} == TERMINAL_TASK_STATES
    assert {TaskState.Value(st.wire_name(s)) for s in st.INTERRUPTED} == INTERRUPTED_TASK_STATES
    assert st.TERMINAL == {"completed", "failed", "canceled", "rejected"}


@pytest.mark.parametrize("value", [TaskState.TASK_STATE_INPUT_REQUIRED, "TASK_STATE_INPUT_REQUIRED", "input-required"])
def test_state_of_accepts_every_spelling(value):
    assert st.state_of(value) == "input-required"


@pytest.mark.parametrize("bad", [TaskState.TASK_STATE_UNSPECIFIED, "TASK_STATE_DONE", "pending", "running"])
def test_state_of_refuses_non_states(bad):
    # "pending"/"running" are the seed's informal words; the protocol says submitted/working.
    with pytest.raises(KeyError):
        st.state_of(bad)


def test_wire_name_of_unknown_state_raises():
    with pytest.raises(KeyError, match="unknown task state"):
        st.wire_name("done")


def test_check_path_returns_the_events_of_a_resumed_task():
    path = ["TASK_STATE_SUBMITTED", "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_WORKING", "TASK_STATE_WORKING",
            "TASK_STATE_COMPLETED"]
    assert st.check_path(path) == ["need_input", "reply", "progress", "complete"]


def test_check_path_collapses_repeated_snapshots_but_counts_progress():
    assert st.check_path(["submitted", "submitted", "working", "working", "failed"]) == ["start", "progress", "fail"]


@pytest.mark.parametrize("a,b", [("completed", "working"), ("canceled", "canceled-again"), ("input-required", "completed"),
                                 ("failed", "working"), ("rejected", "submitted")])
def test_illegal_moves_raise_with_the_allowed_ones(a, b):
    with pytest.raises((st.InvalidTransition, KeyError)) as info:
        st.check_path([a, b])
    if isinstance(info.value, st.InvalidTransition):
        assert a in str(info.value) and "allowed moves" in str(info.value)


def test_terminal_states_have_no_way_out():
    for state in st.TERMINAL:
        for target in st.TRANSITIONS:
            with pytest.raises(st.InvalidTransition, match="terminal"):
                st.event_between(state, target)


def test_next_state_and_its_error():
    assert st.next_state("input-required", "reply") == "working"
    assert st.next_state("working", "cancel") == "canceled"
    with pytest.raises(st.InvalidTransition):
        st.next_state("completed", "cancel")


def test_diagram_is_drawn_from_the_table():
    fig = st.state_diagram(highlight=["submitted", "working", "completed"])
    lines = fig.fallback_text.splitlines()
    moves = sum(len(m) for m in st.TRANSITIONS.values())
    assert sum("-->" in ln for ln in lines) == moves
    assert "input-required  --reply--> working" in lines
    assert lines[-1] == "path: submitted -> working -> completed"
    assert fig._repr_png_().startswith(b"\x89PNG")


def test_diagram_of_another_table_follows_it():
    table = {"submitted": {"start": "working"}, "working": {"complete": "completed"}, "completed": {}}
    text = st.transitions_text(table)
    assert text.splitlines() == ["submitted       --start--> working", "working         --complete--> completed",
                                 "completed       (terminal)"]


def test_the_lifecycle_picture_says_how_paused_tasks_resume_and_how_clients_follow():
    lines = st.state_diagram(highlight=["submitted", "auth-required", "working", "completed"]).fallback_text.splitlines()
    assert "auth-required waits for credentials (HTTP headers, never in the message), then a message on the same task" \
        in lines
    assert [ln.split(":")[0] for ln in lines if ln.startswith("follow by")] == [
        "follow by SendStreamingMessage", "follow by SubscribeToTask", "follow by GetTask / ListTasks",
        "follow by push notification"]
    assert lines[-1] == "path: submitted -> auth-required -> working -> completed"
    assert st.check_path(["submitted", "auth-required", "working", "completed"]) == ["need_auth", "authenticate",
                                                                                   "complete"]
    assert not any(ln.startswith("follow") for ln in st.state_diagram(legend=False).fallback_text.splitlines())


def test_the_text_table_pads_by_display_width_so_a_chinese_row_lines_up(monkeypatch):
    """transitions_text pads states with text_table.pad: English is what `f"{state:<15}"` wrote (ASCII
    widths equal len), a Chinese state keeps its arrows in the same column as the English ones."""
    from course_lib.text_table import display_width

    monkeypatch.setenv("COURSE_LANG", "en")
    english = st.transitions_text()
    before = []  # what the len()-padded version wrote
    for state, moves in st.TRANSITIONS.items():
        before += [f"{state:<15} (terminal)"] if not moves else []
        before += [f"{state:<15} --{event}--> {target}" for event, target in moves.items()]
    assert english == "\n".join(before) and len(before) == 24
    lines = st.transitions_text({"已提交": {"start": "working"}, "working": {"complete": "completed"},
                                 "completed": {}}).splitlines()
    assert [display_width(ln.split("--")[0]) for ln in lines[:2]] == [16, 16]
    assert lines[0] == "已提交          --start--> working"


def test_the_lifecycle_picture_speaks_chinese_in_chinese_and_keeps_the_spec_names(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    fig = st.state_diagram(highlight=["submitted", "input-required", "working", "completed"])
    lines = fig.fallback_text.splitlines()
    assert lines[0] == "submitted       --start--> working"
    assert "completed       （终止状态）" in lines
    assert "input-required 等待一个回答，即发到同一个 Task 上的消息" in lines
    assert "用 SubscribeToTask 跟进：重新连接到运行中的任务，先得到它此刻的快照，再收到之后的每个事件" in lines
    assert lines[-1] == "路径：submitted -> input-required -> working -> completed"
    assert fig.title == "A2A 任务生命周期（粗边框：终止状态） · 着色：这个任务的路径"
