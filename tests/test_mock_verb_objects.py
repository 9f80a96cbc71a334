"""The tool's own verb done to another kind of thing is not the tool's job: the mock declines and says why.

Found by a newcomer run: with only ``book_table(restaurant, party_size, time)`` offered, "Book a hotel room" was
asked for a party size and time (and, with both given, booked a table at restaurant='hotel room'); "book a flight"
likewise; "convert a string to an int in Python" was asked for an amount of a ``convert_currency`` tool. The verb
matched, the object did not. The kinds of things each everyday verb is done to are data
(``course_lib/data/verb_objects.json``); our own tools below.
"""
from __future__ import annotations

import json

import pytest

from course_lib.mock_llm.purpose import another_object
from course_lib.package_data import load_json
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

TABLE = tool("book_table", "Book a table at a restaurant.", {
    "restaurant": {"type": "string"}, "party_size": {"type": "integer"}, "time": {"type": "string"}})
HOTEL = tool("book_hotel", "Book a hotel room.", {"hotel": {"type": "string"}, "nights": {"type": "integer"}})
MONEY = tool("convert_currency", "Convert an amount of money from one currency to another.", {
    "amount": {"type": "number"}, "from_currency": {"type": "string"}, "to_currency": {"type": "string"}})
MUSIC = tool("play_music", "Play music on the speaker.", {"query": {"type": "string"}})
ZH_TABLE = tool("book_table", "预订餐厅的桌位", {
    "restaurant": {"type": "string", "description": "餐厅名称"}, "party_size": {"type": "integer", "description": "人数"},
    "time": {"type": "string", "description": "时间"}})


@pytest.mark.parametrize("text, tools, said", [
    ("Book a hotel room", [TABLE], "not hotel rooms"),
    ("Book a hotel room for 2 people at 3pm", [TABLE], "not hotel rooms"),  # every value given: still no table
    ("Can you book me a flight to Rome?", [TABLE], "not flights"),
    ("How do I convert a string to an int in Python?", [MONEY], "not data types"),
    ("Play the movie Inception", [MUSIC], "not videos"),
])
def test_another_kind_of_thing_is_declined_with_the_reason(client, text, tools, said):
    reply = calls(client, text, tools)
    assert isinstance(reply, str) and said in reply and "?" not in reply, reply


@pytest.mark.parametrize("text, said", [("帮我订一张去上海的机票", "不是航班机票"), ("帮我订一间酒店，明天两个人", "不是酒店客房")])
def test_chinese_requests_get_the_reason_in_chinese(client, text, said):
    reply = calls(client, text, [ZH_TABLE])
    assert isinstance(reply, str) and said in reply and "餐厅订座" in reply, reply


@pytest.mark.parametrize("text, tools, expected", [
    ("Book a table at Nopa for 4 at 7pm", [TABLE], ("book_table", {"restaurant": "Nopa", "party_size": 4, "time": "7pm"})),
    ("Book a hotel room for 2 nights at the Hilton", [TABLE, HOTEL], ("book_hotel", {"hotel": "Hilton", "nights": 2})),
    ("Convert my salary of 5000 dollars to euros", [MONEY],
     ("convert_currency", {"amount": 5000, "from_currency": "USD", "to_currency": "EUR"})),
    ("把100美元换成人民币", [MONEY], ("convert_currency", {"amount": 100, "from_currency": "USD", "to_currency": "CNY"})),
])
def test_the_tools_own_kind_is_still_served(client, text, tools, expected):
    assert calls(client, text, tools) == [expected]


def test_a_request_or_tool_naming_no_kind_decides_nothing():
    assert another_object("Book it for tonight", "book_table", "Book a table at a restaurant.") is None
    assert another_object("Book a hotel room", "book_it", "Makes a booking.") is None  # the tool names no kind
    assert another_object("Play some jazz", "play_music", "Play music.") is None  # jazz: no kind of the table


def test_every_kind_has_a_chinese_name_and_words():
    data = load_json("verb_objects.json")["verbs"]
    for verb, entry in data.items():
        assert entry["verbs"] and len(entry["kinds"]) >= 2, verb
        for kind, spec in entry["kinds"].items():
            assert spec["zh"] and spec["words"] and all(isinstance(w, str) and w for w in spec["words"]), kind
    json.dumps(data, ensure_ascii=False)
