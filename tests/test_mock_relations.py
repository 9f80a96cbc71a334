"""Meaning beyond shared words: each family of word relations (synonyms, broader words, phrases, Chinese)
chooses the tool a model would, and a related word alone never calls an unrelated tool.

Tools are our own, named as tutorials name them (``create_task``, ``list_directory``, ``search_web``...), and
each test pairs the right tool with a distractor; requests go through the real ``openai`` client.
"""
from __future__ import annotations

import json

import pytest

from course_lib.mock_llm import relations
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)


TASK = tool("create_task", "Create a task.", {"title": {"type": "string", "description": "What to do."}})
LIST_DIR = tool("list_directory", "List the entries of a directory.", {"path": {"type": "string"}}, [])
READ_FILE = tool("read_file", "Read the contents of a file.", {"path": {"type": "string"}})
SEARCH = tool("search_web", "Search the web.", {"query": {"type": "string"}})
EMAIL = tool("send_mail", "Send a mail message.", {"to": {"type": "string"}, "body": {"type": "string"}})
REMINDER = tool("set_reminder", "Set a reminder.", {"time": {"type": "string", "description": "HH:MM"}, "text": {
    "type": "string"}}, ["time"])
CALC = tool("calculator", "Evaluate an expression.", {"expression": {"type": "string"}})
STOCK = tool("get_stock_price", "Current price of a stock.", {"ticker": {"type": "string"}})
WEATHER = tool("get_weather", "Get the current weather for a city.", {"city": {"type": "string"}})
FORECAST = tool("get_forecast", "Forecast for a city.", {"city": {"type": "string"}})
MOVE = tool("move_file", "Move or rename a file.", {"source": {"type": "string"}, "destination": {"type": "string"}})
ROUTE = tool("get_route", "Route between two places.", {"origin": {"type": "string"}, "destination": {"type": "string"}},
             ["destination"])


def names(client, text: str, tools: list[dict]) -> list[str] | str:
    """The names of the tools the mock calls, or its text when it calls none."""
    got = calls(client, text, tools)
    return got if isinstance(got, str) else [name for name, _ in got]


def test_the_relations_file_has_every_family_with_its_note():
    data = relations.load()
    for family in relations.FAMILIES:
        assert data[family]["about"] and data[family]["groups"], family
    assert all(len(g) >= 2 for g in data["synonyms"]["groups"])


# ------------------------------------------------------------------------------ synonyms (both ways)
@pytest.mark.parametrize("text, tools, expected", [
    ("Add 'renew passport' to my todo list", [TASK, WEATHER], "create_task"),         # todo ~ task
    ("Show me what's in the docs directory", [LIST_DIR, WEATHER], "list_directory"),
    ("Email Ada that the report is ready", [EMAIL, WEATHER], "send_mail"),              # email ~ mail
])
def test_synonyms(client, text, tools, expected):
    assert names(client, text, tools) == [expected]


# ------------------------------------------------------------------------------ broader words (one way)
@pytest.mark.parametrize("text, tools, expected", [
    ("Can you multiply 6 by 7?", [CALC, WEATHER], "calculator"),                 # multiply -> calculator
    ("Set an alarm for 07:00", [REMINDER, WEATHER], "set_reminder"),              # alarm -> reminder
    ("Google the opening hours of the Louvre", [SEARCH, WEATHER], "search_web"),  # google -> search
    ("Is NASDAQ:AAPL trading up today?", [STOCK, WEATHER], "get_stock_price"),
])
def test_broader_words(client, text, tools, expected):
    assert names(client, text, tools) == [expected]


def test_broader_is_one_way():
    assert "reminder" in relations.related("alarm")
    assert "alarm" not in relations.related("reminder")


# ------------------------------------------------------------------------------ phrases
@pytest.mark.parametrize("text, tools, expected", [
    ("What are MSFT and GOOG trading at?", [STOCK, WEATHER], ["get_stock_price", "get_stock_price"]),
    ("what's in this folder? /tmp/project", [LIST_DIR, READ_FILE], ["list_directory"]),
    ("Look up the population of Peru", [SEARCH, WEATHER], ["search_web"]),
    ("How do I get to the Louvre from Gare du Nord?", [ROUTE, WEATHER], ["get_route"]),
    # a path with a file extension names a file: "rename" alone matched the move tool too weakly to call it
    ("Rename /home/ana/draft.txt to /home/ana/final.txt", [MOVE, LIST_DIR], ["move_file"]),
    ("Rename C:\\docs\\a.docx to C:\\docs\\b.docx", [MOVE, LIST_DIR], ["move_file"]),
])
def test_phrases(client, text, tools, expected):
    assert names(client, text, tools) == expected


# ------------------------------------------------------------------------------ Chinese words
@pytest.mark.parametrize("text, tools, expected", [
    ("/tmp/project 文件夹里面有什么？", [LIST_DIR, READ_FILE], "list_directory"),
    ("明天早上7:00的闹钟", [REMINDER, WEATHER], "set_reminder"),
    ("把“写周报”加到待办", [TASK, WEATHER], "create_task"),
])
def test_chinese_words(client, text, tools, expected):
    assert names(client, text, tools) == [expected]


# ------------------------------------------------------------------------------ precision
@pytest.mark.parametrize("text, tools", [
    ("Find the capital of France", [WEATHER, STOCK]),
    ("Find the area of a circle of radius 3", [SEARCH]),     # "find" is too common a verb to mean "search"
    ("Share this document with my team", [STOCK]),              # "share" is no stock
    ("Book a table for two at 7pm", [CALC, STOCK]),
    ("I had lunch with Ada", [WEATHER, CALC]),
    ("你好，今天过得怎么样？", [TASK, REMINDER]),
])
def test_a_related_word_alone_calls_no_unrelated_tool(client, text, tools):
    assert isinstance(names(client, text, tools), str)


def test_concepts_added_are_the_related_ones_only():
    assert relations.concepts("What's in this folder?", frozenset({"folder"})) >= {"directory", "list"}
    assert relations.concepts("hello there", frozenset({"hello"})) == frozenset()


# ------------------------------------------------------------------------------ paths (what the folder family needs)
def test_an_absolute_path_without_extension_is_a_path_value(client):
    msg = client.chat.completions.create(model="mock", tools=[LIST_DIR, READ_FILE], messages=[
        {"role": "user", "content": "What's in my Downloads folder? It's /Users/alice/Downloads"}]).choices[0].message
    assert [(c.function.name, json.loads(c.function.arguments)) for c in msg.tool_calls] == [
        ("list_directory", {"path": "/Users/alice/Downloads"})]
    msg = client.chat.completions.create(model="mock", tools=[LIST_DIR, READ_FILE], messages=[
        {"role": "user", "content": "列出 /var/log 目录里的文件"}]).choices[0].message
    assert [(c.function.name, json.loads(c.function.arguments)) for c in msg.tool_calls] == [
        ("list_directory", {"path": "/var/log"})]


# ------------------------------------------------------------------------------ what a typed value says
FETCH = tool("fetch", "Fetches a URL from the internet and extracts its contents.", {"url": {"type": "string"}})
LIST_TABLES = tool("list_tables", "List all tables in the database.", {}, [])
DESCRIBE = tool("describe_table", "Get the schema of a table.", {"table_name": {"type": "string"}})
READ_QUERY = tool("read_query", "Execute a SELECT query on the database.", {"query": {"type": "string"}})
LIGHT = tool("set_light", "Set the brightness of a light.", {"brightness": {"type": "integer"}})


@pytest.mark.parametrize("text, tools, expected", [
    ("Fetch https://example.com and tell me what it says", [FETCH, WEATHER], [("fetch", {"url": "https://example.com"})]),
    ("What's on https://example.com/news?", [FETCH, WEATHER], [("fetch", {"url": "https://example.com/news"})]),
    ("帮我抓取 https://www.python.org 的内容", [FETCH, WEATHER], [("fetch", {"url": "https://www.python.org"})]),
    ("Run SELECT * FROM orders LIMIT 5", [READ_QUERY, LIST_TABLES], [("read_query", {"query": "SELECT * FROM orders LIMIT 5"})]),
    ("数据库里有哪些表？", [READ_QUERY, LIST_TABLES, DESCRIBE], [("list_tables", {})]),
    ("看一下 customers 表的结构", [READ_QUERY, LIST_TABLES, DESCRIBE], [("describe_table", {"table_name": "customers"})]),
])
def test_a_url_or_a_statement_says_what_tool_it_needs(client, text, tools, expected):
    msg = client.chat.completions.create(model="mock", messages=[{"role": "user", "content": text}],
                                         tools=tools).choices[0].message
    assert [(c.function.name, json.loads(c.function.arguments)) for c in msg.tool_calls or []] == expected


@pytest.mark.parametrize("text, brightness", [("把灯光调到30%", 30), ("把灯调亮一点，亮度50", 50)])
def test_lights_in_chinese_choose_the_light_tool(client, text, brightness):
    msg = client.chat.completions.create(model="mock", messages=[{"role": "user", "content": text}],
                                         tools=[LIGHT, WEATHER]).choices[0].message
    assert [(c.function.name, json.loads(c.function.arguments)) for c in msg.tool_calls or []] == [
        ("set_light", {"brightness": brightness})]
