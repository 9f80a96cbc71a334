"""A count of things is no count of people, and a bare value in a Chinese comma list is a value (issue 13):
订一张桌子 (one table) gave ``party_size=1``: it now asks how many people; 订一张桌子，海底捞，3个人，晚上7点 asked for
the restaurant though 海底捞 was given. Our own tools, through the openai SDK."""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

TABLE = tool("book_table", "预订餐厅座位", {
    "restaurant": {"type": "string", "description": "餐厅名称"}, "party_size": {"type": "integer", "description": "人数"},
    "time": {"type": "string", "description": "时间"}})
RESERVE = tool("reserve_table", "Reserve a table at a restaurant.", {
    "restaurant_name": {"type": "string"}, "guests": {"type": "integer"}, "time": {"type": "string"}})
HOTEL = tool("book_hotel", "预订酒店", {
    "hotel": {"type": "string", "description": "酒店名称"}, "nights": {"type": "integer", "description": "入住晚数"},
    "guests": {"type": "integer", "description": "入住人数"}})


@pytest.mark.parametrize("text, tools, slot", [
    ("订一张桌子", [TABLE], "party_size"), ("帮我订一张桌子，海底捞", [TABLE], "party_size"),
    ("订一张桌子，全聚德，晚上7点", [RESERVE], "guests"),
])
def test_a_table_is_no_party_of_one(client, text, tools, slot):
    reply = calls(client, text, tools)
    assert isinstance(reply, str) and slot in reply


@pytest.mark.parametrize("text, tools, want", [
    ("订一张桌子，海底捞，3个人，晚上7点", [TABLE], {"restaurant": "海底捞", "party_size": 3, "time": "19:00"}),
    ("帮我订个位子，全聚德，4位，晚上6点", [RESERVE], {"restaurant_name": "全聚德", "guests": 4, "time": "18:00"}),
    ("订酒店，如家，2个人，住3晚", [HOTEL], {"hotel": "如家", "nights": 3, "guests": 2}),
])
def test_a_listed_name_is_a_value(client, text, tools, want):
    (name, args), = calls(client, text, tools)
    assert args == want


def test_two_bare_parts_are_no_guess(client):
    """Two unread parts for one open slot: which one is it? The mock asks."""
    reply = calls(client, "订一张桌子，海底捞，靠窗，3个人，晚上7点", [TABLE])
    assert isinstance(reply, str) and "restaurant" in reply
