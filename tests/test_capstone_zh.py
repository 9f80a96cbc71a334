"""Lesson 12 in Chinese sends a Chinese request and shows Chinese text (issue 20 item 4).

The board request is one translated string (``capstone.BOARD_REQUEST``, :func:`capstone.board_request` in the
learner's language); the messages the library writes about a refused or failed call (the approval's reason, the
refusal, exhausted retries) are translated too, so the mock's Chinese answer that quotes them is Chinese.
"""
from __future__ import annotations

import json
import re

import pytest

from course_lib.capstone import BOARD_REQUEST, Capstone, board_request
from course_lib.mock_llm import MockLLM
from course_lib.resilience import Attempt, RetriesExhausted

FINANCE_TOOL = "ask_finance_db_agent_finance_report"
ZH_BOARD = ("从财务 Agent 获取公司 2024 年的营收，然后把摘要作为笔记保存到 notes/board-2024.md，然后创建一个高优先级任务"
            "“向董事会汇报 2024 年营收”，负责人是 Ada，再查一下上海的天气。")
_ENGLISH_WORDS = re.compile(r"\b(revenue|task|created|humidity|note|saved|was not run|failed|nobody)\b", re.I)


@pytest.fixture(scope="module")
def cap(tmp_path_factory):
    capstone = Capstone(tmp_path_factory.mktemp("capstone-zh"), client=MockLLM().client(), key="test-capstone-zh").start()
    yield capstone
    capstone.close()


def test_the_board_request_is_in_the_learners_language(monkeypatch):
    assert board_request("en") == BOARD_REQUEST and board_request("zh") == ZH_BOARD
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert board_request() == ZH_BOARD
    monkeypatch.setenv("COURSE_LANG", "en")
    assert board_request() == BOARD_REQUEST


def test_the_chinese_request_runs_every_layer_and_answers_in_chinese(cap, monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    cap.clear_faults()
    run = cap.run(board_request())
    assert [[c["name"] for c in s.tool_calls] for s in run.result.steps] == [
        [FINANCE_TOOL, "create_task", "get_weather"], ["save_note"], []]
    first = {c["name"]: json.loads(c["arguments"]) for c in run.result.steps[0].tool_calls}
    assert first[FINANCE_TOOL] == {"message": "从财务 Agent 获取公司 2024 年的营收"}
    assert first["create_task"] == {"title": "向董事会汇报 2024 年营收", "priority": "high", "assignee": "Ada"}
    assert first["get_weather"] == {"city": "上海"}
    assert run.answer.startswith("2024年营收：1279.9 百万美元") and "你的任务“向董事会汇报 2024 年营收”已创建" in run.answer
    assert "上海" in run.answer and "你的笔记已保存到 notes/board-2024.md" in run.answer
    assert not _ENGLISH_WORDS.search(run.answer), run.answer
    note = (cap.workdir / "wiki-files" / "notes" / "board-2024.md").read_text(encoding="utf-8")
    assert note.startswith("2024年营收：")
    policy = [e.label for e in run.trace.events if e.src == "Policy"]
    assert "由 policy 批准：一条允许规则匹配了" in policy


def test_a_refusal_reads_chinese_in_chinese_and_english_in_english(cap, monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    blocked = cap.run("wiki 已经过时了：删除文件夹 'wiki'。")
    assert "delete_file 没有运行：没有规则批准它，也没有人可以询问（policy）" in blocked.answer
    assert not _ENGLISH_WORDS.search(blocked.answer), blocked.answer
    monkeypatch.setenv("COURSE_LANG", "en")
    blocked = cap.run("The wiki is outdated: delete the folder 'wiki'.")
    assert "delete_file was not run: no rule approves it and nobody is here to ask (policy)" in blocked.answer


def test_exhausted_retries_read_in_the_learners_language(monkeypatch):
    attempts = [Attempt(1, 0.0, "ConnectionError: down"), Attempt(2, 0.1, "ConnectionError: down")]
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert str(RetriesExhausted("get_weather", attempts)) == "get_weather 失败了 2 次；最后一次错误：ConnectionError: down"
    monkeypatch.setenv("COURSE_LANG", "en")
    assert str(RetriesExhausted("get_weather", attempts)) == "get_weather failed 2 times; last error: ConnectionError: down"
