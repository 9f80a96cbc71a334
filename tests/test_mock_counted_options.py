"""Counts written as options (issue 13, kind 'counted options'): a slot whose options are counts ('1', '2', '3')
takes the number said with its own noun ("two rooms" -> number_of_rooms '2', "a three-star hotel" -> star_rating
'3'), and not a number that belongs to another slot's noun (the '3' of "a 3-star hotel" was sent as the number of
rooms). Our own tools, through the openai SDK."""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

STAYS = [tool("Stays_Search", "Search hotels in a city",
              {"city": {"type": "string", "description": "City name"},
               "stars": {"type": "string", "enum": ["1", "2", "3", "4", "5", "dontcare"], "default": "dontcare",
                         "description": "Star rating of the hotel"},
               "rooms": {"type": "string", "enum": ["1", "2", "3", "dontcare"], "default": "dontcare",
                         "description": "How many rooms are needed"}}, required=["city"])]
TABLES = [tool("book_table", "Book a restaurant table",
               {"restaurant": {"type": "string", "description": "Restaurant name"},
                "party": {"type": "string", "enum": ["1", "2", "3", "4", "5", "6"], "description": "Party size"}})]


@pytest.mark.parametrize("text, want", [
    ("Search for a 4-star hotel in Oslo with two rooms", {"stars": "4", "rooms": "2"}),
    ("Search for a 5-star hotel in Oslo", {"stars": "5"}),
    ("Search for a three-star hotel in Oslo, I need one room", {"stars": "3", "rooms": "1"}),
    ("Search hotels in Oslo with 3 rooms", {"rooms": "3"}),
])
def test_each_count_goes_to_its_own_noun(client, text, want):
    assert calls(client, text, STAYS) == [("Stays_Search", {"city": "Oslo", **want})]


def test_a_count_with_no_slot_noun_still_fills_the_option(client):
    """'4 people' names no slot's noun: the party size takes it as before."""
    assert calls(client, "Book a table at Noma for 4 people", TABLES) == [
        ("book_table", {"restaurant": "Noma", "party": "4"})]
