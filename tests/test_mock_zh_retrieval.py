"""Chinese requests rank the right tool first among many (issue 20 item 7).

The interview's tool-retrieval demo (``course_lib.interview.demos.tool_retrieval``) ranks 1,000 tools by the
mock's own scores (``choosing.score_tools``). Chinese is read through the mock's Chinese lexicon (longest match
over known words, ``language.ZH_LEXICON``), which knew no words of work records and teams: 列出运维团队的告警
scored 3.0 for all 200 ``list`` tools. The words are data (``course_lib/data/zh_work_words.json``).
"""
from __future__ import annotations

import json

import pytest

from course_lib.interview.demos import tool_catalogue
from course_lib.mock_llm import MockLLM
from course_lib.mock_llm.choosing import score_tools
from course_lib.mock_llm.language import ZH_LEXICON, chinese_concepts
from course_lib.mock_llm.wire import ToolSpec
from course_lib.package_data import load_json

CATALOGUE = tool_catalogue(1000)
SPECS = [ToolSpec(t["function"]["name"], t["function"]["description"], t["function"]["parameters"]) for t in CATALOGUE]


def _ranked(text: str, specs=SPECS) -> list[tuple[float, str]]:
    return sorted(((score, spec.name) for spec, score, _ in score_tools(text, specs)), key=lambda t: -t[0])


@pytest.mark.parametrize("text, best", [
    ("创建一个客服工单，标题是“VPN 坏了”", "support__create_ticket"),
    ("列出运维团队的告警", "devops__list_alert"),
    ("归档这个用户组", "identity__archive_group"),
    ("列出人事团队的员工", "hr__list_employee"),
    ("列出基础设施团队所有的服务器", "infra__list_server"),
    ("更新招聘团队的面试", "recruiting__update_interview"),
    ("创建一张采购发票", "procurement__create_invoice"),
    ("列出物流的承运商", "shipping__list_carrier"),
    ("上海天气怎么样？", "weather__get_weather"),
])
def test_a_chinese_request_ranks_its_tool_first_and_alone(text, best):
    (top, name), (second, _) = _ranked(text)[:2]
    assert name == best and top > second, _ranked(text)[:4]


def test_english_still_ranks_as_before():
    (top, name), (second, _) = _ranked('Create a support ticket titled "VPN is down"')[:2]
    assert name == "support__create_ticket" and top > second


SMALL = [
    {"type": "function", "function": {"name": "create_ticket", "description": "Open a helpdesk ticket.",
     "parameters": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}}},
    {"type": "function", "function": {"name": "list_alerts", "description": "List the monitoring alerts.",
     "parameters": {"type": "object", "properties": {}}}},
    {"type": "function", "function": {"name": "get_invoice", "description": "Get one invoice by its number.",
     "parameters": {"type": "object", "properties": {"number": {"type": "string"}}, "required": ["number"]}}},
    {"type": "function", "function": {"name": "archive_contract", "description": "Archive a signed contract.",
     "parameters": {"type": "object", "properties": {"contract_id": {"type": "string"}},
                    "required": ["contract_id"]}}},
]


@pytest.mark.parametrize("text, tool", [
    ("列出所有告警", "list_alerts"),
    ("帮我开一个工单，标题是“打印机坏了”", "create_ticket"),
    ("获取发票 INV-2041", "get_invoice"),
    ("把合同 C-77 归档", "archive_contract"),
])
def test_the_mock_calls_the_tool_a_chinese_request_names(text, tool):
    reply = MockLLM().client().chat.completions.create(
        model="mock-llm", messages=[{"role": "user", "content": text}], tools=SMALL)
    calls = reply.choices[0].message.tool_calls or []
    assert [c.function.name for c in calls] == [tool], reply.choices[0].message.content


def test_the_words_are_data_in_the_lexicon():
    data = load_json("zh_work_words.json")
    words = {w: en for group in ("records", "verbs", "teams") for w, en in data[group].items()}
    assert len(words) >= 100 and all(len(w) >= 2 for w in words)
    assert all(ZH_LEXICON[w] for w in words)
    assert "ticket" in chinese_concepts("客服工单")[0] or "ticket" in " ".join(chinese_concepts("客服工单"))


def _tool(name: str, description: str, slot: str, slot_description: str) -> dict:
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "required": [slot], "properties": {
            slot: {"type": "string", "description": slot_description},
            "priority": {"type": "integer", "description": "Priority level from 1 (highest) to 8 (lowest)."}}}}}


TICKETS = _tool("get_tickets", "Retrieve the support tickets of a company.", "customer", "The name of the company.")


@pytest.mark.parametrize("text, tool", [
    ("获取阿迪达斯的p4工单", TICKETS),
    ("Get p4 tickets", TICKETS),
    ("列出Q3的报告", _tool("list_reports", "List the reports an employee wrote.", "employee_name",
                           "Full name of the employee.")),
    ("Show the l2 incidents", _tool("list_incidents", "List the incidents a client reported.", "client",
                                    "The client organization.")),
])
def test_a_short_code_is_no_company_or_person_name(text, tool):
    """Reading 工单 chose get_tickets for 获取阿迪达斯的p4工单 (a BFCL live request), which then sent customer='p4':
    a priority, quarter or level code names nobody, so the mock asks instead of guessing."""
    reply = MockLLM().client().chat.completions.create(
        model="mock-llm", messages=[{"role": "user", "content": text}], tools=[tool])
    assert not reply.choices[0].message.tool_calls, reply.choices[0].message.tool_calls
    assert reply.choices[0].message.content


@pytest.mark.parametrize("text, name", [
    ("获取 ACME 的工单", "ACME"), ("Get the p4 tickets of Adidas", "Adidas"), ("Show Q3 tickets for Initech", "Initech")])
def test_a_real_name_beside_a_code_is_still_read(text, name):
    reply = MockLLM().client().chat.completions.create(
        model="mock-llm", messages=[{"role": "user", "content": text}], tools=[TICKETS])
    (call,) = reply.choices[0].message.tool_calls
    assert json.loads(call.function.arguments)["customer"] == name
