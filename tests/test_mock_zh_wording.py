"""Chinese wordings of the Chinese edition (our own words): the polite or command framing of a search (帮我, 请, 去 ... 里,
查一下, 搜索) and a possessive (我们的, 我的) stay out of the query, as English drops "search the wiki for" and "our";
a search asked for after another clause ("别……，去 wiki 里查……") is the query, not the whole request.
"""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

WIKI = tool("search_wiki", "Search the company wiki", {"query": {"type": "string"}})
WEATHER = tool("get_weather", "Get the current weather for a city", {"city": {"type": "string"}})


@pytest.mark.parametrize("text, query", [
    ("帮我在 wiki 里查休假政策", "休假政策"),
    ("别告诉我天气，去 wiki 里查一下休假政策", "休假政策"),
    ("请搜索我们的退款政策", "退款政策"),
    ("麻烦你在知识库中搜索一下我的报销流程", "报销流程"),
    ("从 wiki 里找一下咱们的入职指南", "入职指南"),
    ("search the wiki for our refund policy", "refund policy"),   # the English it mirrors
])
def test_search_framing_and_possessive_leave_the_query(client, text, query):
    assert calls(client, text, [WIKI, WEATHER]) == [("search_wiki", {"query": query})]


def test_last_year_is_a_topic_not_a_place(client):
    # 去年 ("last year") begins with 去 ("go to") but names no place to search.
    assert calls(client, "搜索去年上半年的销售报告", [WIKI]) == [("search_wiki", {"query": "去年上半年的销售报告"})]


# --- answers: one sentence end, whatever punctuation the tool's own text brought -------------------------------
from course_lib.mock_llm.answer import compose_answer, join_sentences  # noqa: E402


def test_chinese_tool_text_ending_in_a_full_stop_gets_no_second_one():
    assert compose_answer([("get_weather", {"city": "北京"}, "晴，25°C。")], "北京的天气怎么样？") == "北京：晴，25°C。"


def test_two_chinese_results_join_by_semicolon_and_end_once():
    results = [("get_weather", {"city": "北京"}, "晴，25°C。"), ("get_weather", {"city": "上海"}, "多云，18°C")]
    assert compose_answer(results, "北京和上海的天气怎么样？") == "北京：晴，25°C；上海：多云，18°C。"


@pytest.mark.parametrize("sentences, zh, joined", [
    (["你确定吗？", "北京：晴"], True, "你确定吗？北京：晴。"),
    (["Paris: 晴。", "Rome: sunny"], False, "Paris: 晴。 Rome: sunny."),
    (["Done!", "Rome: sunny"], False, "Done! Rome: sunny."),
])
def test_sentence_joining_knows_full_width_ends(sentences, zh, joined):
    assert join_sentences(sentences, zh) == joined


def test_a_request_passed_on_is_not_repeated_as_the_subject():
    # an orchestrator hands a clause of the user's request to another agent as its message
    question = "从财务 Agent 获取公司 2024 年的营收，然后把摘要存成笔记"
    result = [("ask_finance_agent", {"message": "从财务 Agent 获取公司 2024 年的营收"}, "2024年营收：1279.9 百万美元。")]
    assert compose_answer(result, question) == "2024年营收：1279.9 百万美元。"


# --- fixed replies follow the request's language --------------------------------------------------------------
@pytest.mark.parametrize("text, reply", [
    ("北京的天气怎么样？", "这次请求关闭了工具调用（tool_choice='none'）；要回答，我会调用 get_weather({\"city\": \"北京\"})。"),
    ("What's the weather in Oslo?", "Tool use is switched off for this request (tool_choice='none'); to answer I would "
                                    "call get_weather({\"city\": \"Oslo\"})."),
])
def test_tool_choice_none_answers_in_the_request_language(client, text, reply):
    msg = client.chat.completions.create(model="mock", messages=[{"role": "user", "content": text}],
                                         tools=[WEATHER], tool_choice="none").choices[0].message
    assert (msg.content, msg.tool_calls) == (reply, None)


# --- an enum value the request writes out wins over a longer value that only shares its stems ----------------------
@pytest.mark.parametrize("options", [["todo", "in_progress", "done"], ["to_do", "done"]])
@pytest.mark.parametrize("text", ["Set the status of task 99 to done", "把任务 99 的状态改成 done", "把任务 99 的状态改成完成"])
def test_the_status_the_request_names_is_the_one_set(client, options, text):
    task = tool("update_task", "Update a task", {"task_id": {"type": "integer"},
                                                 "status": {"type": "string", "enum": options}})
    assert calls(client, text, [task]) == [("update_task", {"task_id": 99, "status": "done"})]
