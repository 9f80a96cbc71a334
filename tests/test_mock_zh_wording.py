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


# --- counts and the kind of result are framing too: "前 3 个 wiki 页面" is English "the top 3 wiki pages" --------
PAGES = tool("search_docs", "Search the team's documentation pages", {
    "query": {"type": "string", "description": "What to look for"},
    "limit": {"type": "integer", "description": "Maximum number of pages to return", "default": 5},
}, required=["query"])


@pytest.mark.parametrize("text, args", [
    ("找出关于入职的前 3 个 wiki 页面", {"query": "入职", "limit": 3}),
    ("在文档里找 3 篇关于报销的文章", {"query": "报销", "limit": 3}),
    ("搜索关于 onboarding 的前三个页面", {"query": "onboarding", "limit": 3}),
    ("给我找 5 条关于年假的结果", {"query": "年假", "limit": 5}),
    ("搜一下报销流程相关的资料", {"query": "报销流程"}),
    ("Find the top 3 doc pages about onboarding", {"query": "onboarding", "limit": 3}),  # the English it mirrors
])
def test_chinese_counts_and_result_nouns_are_framing(client, text, args):
    assert calls(client, text, [PAGES]) == [("search_docs", args)]


SPACES = tool("search_wiki", "Search the company wiki", {
    "query": {"type": "string"},
    "space": {"type": "string", "enum": ["engineering", "hr", "sales"], "description": "Wiki space"},
}, required=["query"])


@pytest.mark.parametrize("text, args", [
    ("在工程 wiki 里搜索 VPN 设置指南", {"query": "VPN 设置指南", "space": "engineering"}),
    # English words in a Chinese request are part of it, not a value set apart as in "create task 写周报"
    ("在 engineering wiki 里搜索 VPN 设置指南", {"query": "VPN 设置指南", "space": "engineering"}),
    ("去人事的知识库里查一下年假政策", {"query": "年假政策", "space": "hr"}),
])
def test_a_department_named_in_chinese_is_the_english_option(client, text, args):
    assert calls(client, text, [SPACES]) == [("search_wiki", args)]


# --- buying: the thing bought is the object of 买, counted with a classifier ---------------------------------------
ORDER_ENUM = tool("create_order", "Buy an item from the shop: creates an order.", {
    "item": {"type": "string", "enum": ["coffee beans", "mug", "kettle"]},
    "quantity": {"type": "integer", "minimum": 1, "default": 1},
}, required=["item"])
ORDER_FREE = tool("place_order", "Buy an item: place an order.", {
    "item": {"type": "string", "description": "The product to buy"},
    "quantity": {"type": "integer", "default": 1},
}, required=["item"])


@pytest.mark.parametrize("text, args", [
    ("买个水壶", {"item": "kettle"}),
    ("帮我买两个马克杯", {"item": "mug", "quantity": 2}),
    ("买一袋咖啡豆", {"item": "coffee beans", "quantity": 1}),
    ("Buy a kettle", {"item": "kettle"}),
])
def test_an_english_option_is_read_from_the_chinese_name_of_the_thing(client, text, args):
    assert calls(client, text, [ORDER_ENUM]) == [("create_order", args)]


@pytest.mark.parametrize("text, args", [
    ("买个水壶", {"item": "水壶"}),
    ("请帮我购买三台显示器", {"item": "显示器", "quantity": 3}),
    ("Please buy a kettle", {"item": "kettle"}),  # a buy request asks an order tool ("buy" -> "order")
])
def test_what_is_bought_fills_a_free_item(client, text, args):
    assert calls(client, text, [ORDER_FREE]) == [("place_order", args)]


def test_a_thing_the_lexicon_does_not_know_is_no_option(client):
    # 台灯 (a desk lamp) is none of the shop's items: ask, never pick one
    reply = calls(client, "买个台灯", [ORDER_ENUM])
    assert isinstance(reply, str) and "item" in reply
