"""Chinese wordings of the Chinese edition (our own words): the polite or command framing of a search (帮我, 请, 去 ... 里,
查一下, 搜索) and a possessive (我们的, 我的) stay out of the query, as English drops "search the wiki for" and "our";
a search asked for after another clause ("别……，去 wiki 里查……") is the query, not the whole request.
"""
from __future__ import annotations

import pytest

from course_lib.mock_llm import MockLLM
from mock_support import calls, tool

WIKI = tool("search_wiki", "Search the company wiki", {"query": {"type": "string"}})
WEATHER = tool("get_weather", "Get the current weather for a city", {"city": {"type": "string"}})


@pytest.fixture(scope="module")
def client():
    return MockLLM().client()


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
