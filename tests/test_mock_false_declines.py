"""Everyday words for a tool's action or thing are understood, so such requests are not declined.

Found by a newcomer run: "Reserve Luigi's for 3 people at 7pm" with ``book_table`` was declined (reserve is how
people say book, and "Reserve Luigi's" was read as one name); "Turn on the heating to 21 degrees" with
``set_thermostat(temperature, mode)`` was declined (heating is what a thermostat controls, and the heat mode);
把空调调到制冷 24 度 with ``set_ac(mode, temperature)`` asked for the mode (制冷 is the ``cool`` mode). The relations
are data (``course_lib/data/word_relations.json``, ``language.ZH_LEXICON``); our own tools below.
"""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

TABLE = tool("book_table", "Book a table at a restaurant.", {
    "restaurant": {"type": "string"}, "party_size": {"type": "integer"}, "time": {"type": "string"}})
LIBRARY = [tool("library_search_book", "Search for a book in the library.", {"title": {"type": "string"}}),
           tool("library_reserve_book", "Reserve a book by its id.", {"book_id": {"type": "string"}})]
THERMOSTAT = tool("set_thermostat", "Set the thermostat's target temperature and mode.", {
    "temperature": {"type": "number", "description": "Target temperature in degrees Celsius"},
    "mode": {"type": "string", "enum": ["heat", "cool", "auto", "off"]}})
AC = tool("set_ac", "设置空调的模式和温度", {
    "mode": {"type": "string", "enum": ["cool", "heat", "dry", "fan", "auto"], "description": "模式"},
    "temperature": {"type": "integer", "description": "温度（摄氏度）"}})


@pytest.mark.parametrize("text, restaurant, size, time", [
    ("Reserve Luigi's for 3 people at 7pm", "Luigi's", 3, "7pm"),
    ("Make a reservation at Nopa for 2 at 8pm", "Nopa", 2, "8pm"),
])
def test_reserve_asks_a_booking_tool(client, text, restaurant, size, time):
    assert calls(client, text, [TABLE]) == [("book_table", {"restaurant": restaurant, "party_size": size, "time": time})]


def test_the_noun_book_does_not_ask_a_reserving_tool(client):
    """reserve -> book is one way: a library *book* is no reservation."""
    got = calls(client, "Find the book 'Dune' in the library", LIBRARY)
    assert got == [("library_search_book", {"title": "Dune"})]


@pytest.mark.parametrize("text, expected", [
    ("Turn on the heating to 21 degrees", {"temperature": 21, "mode": "heat"}),
    ("Set cooling to 19 degrees", {"temperature": 19, "mode": "cool"}),
])
def test_heating_and_cooling_ask_a_thermostat(client, text, expected):
    assert calls(client, text, [THERMOSTAT]) == [("set_thermostat", expected)]


def test_a_question_about_heating_is_still_no_call(client):
    assert isinstance(calls(client, "What's the best heating system for a small flat?", [THERMOSTAT]), str)


@pytest.mark.parametrize("text, mode, degrees", [
    ("把空调调到制冷 24 度", "cool", 24), ("空调开制热 26 度", "heat", 26), ("空调除湿模式，26度", "dry", 26),
])
def test_chinese_mode_words_name_the_enum_value(client, text, mode, degrees):
    assert calls(client, text, [AC]) == [("set_ac", {"mode": mode, "temperature": degrees})]


def test_the_noun_reservation_still_lists_reservations(client):
    """Only "make a reservation" asks to book: "What reservations do I have?" asks the listing tool."""
    tools = [TABLE, tool("list_reservations", "List my reservations.", {}, required=[])]
    assert calls(client, "What reservations do I have?", tools) == [("list_reservations", {})]
