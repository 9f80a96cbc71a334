"""After a tool's error the mock relays it and never does the opposite (issue 13, kind 'an error answers'):
remove_from_cart failed with "not in the cart" and the next turn called add_to_cart; add_to_cart failed with
"out of stock" and the next turn called remove_from_cart. Our own tools, through the openai SDK."""
from __future__ import annotations

import json

import pytest

from mock_support import client, tool  # noqa: F401 (client: the module's fixture)

CART = [tool("add_to_cart", "Add a product to the shopping cart.", {"product_id": {"type": "string"},
                                                                      "quantity": {"type": "integer"}}),
        tool("remove_from_cart", "Remove a product from the shopping cart.", {"product_id": {"type": "string"}}),
        tool("view_cart", "Show the shopping cart.", {})]
CAL = [tool("create_event", "Create a calendar event.", {"title": {"type": "string"}, "date": {"type": "string"}}),
       tool("delete_event", "Delete a calendar event.", {"event_id": {"type": "string"}}),
       tool("list_events", "List calendar events on a date.", {"date": {"type": "string"}})]
SUBS = [tool("subscribe", "Subscribe an email address to the newsletter.", {"email": {"type": "string"}}),
        tool("unsubscribe", "Unsubscribe an email address from the newsletter.", {"email": {"type": "string"}})]


def _after(client, text, tools, name, args, result):
    msgs = [{"role": "user", "content": text},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]},
            {"role": "tool", "tool_call_id": "c1", "content": json.dumps(result)}]
    return client.chat.completions.create(model="mock", messages=msgs, tools=tools).choices[0].message


@pytest.mark.parametrize("text, tools, name, args, error", [
    ("Remove SKU-9 from my cart", CART, "remove_from_cart", {"product_id": "SKU-9"}, "SKU-9 is not in the cart"),
    ("Add SKU-3 to my cart", CART, "add_to_cart", {"product_id": "SKU-3", "quantity": 1}, "SKU-3 is out of stock"),
    ("Take P-12 out of the cart", CART, "remove_from_cart", {"product_id": "P-12"}, "no such item in the cart"),
    ("Delete event E-7", CAL, "delete_event", {"event_id": "E-7"}, "no event E-7"),
    ("Create an event called Standup on 2026-12-07", CAL, "create_event",
     {"title": "Standup", "date": "2026-12-07"}, "calendar is read-only"),
    ("把SKU-5从购物车里删掉", CART, "remove_from_cart", {"product_id": "SKU-5"}, "购物车里没有SKU-5"),
    ("Unsubscribe ada@example.com", SUBS, "unsubscribe", {"email": "ada@example.com"}, "not subscribed"),
])
def test_an_error_is_relayed_not_undone(client, text, tools, name, args, error):
    msg = _after(client, text, tools, name, args, {"error": error})
    assert not msg.tool_calls, [c.function.name for c in msg.tool_calls]
    assert error.split()[-1] in msg.content, msg.content


def test_a_result_is_relayed(client):
    msg = _after(client, "Remove SKU-9 from my cart", CART, "remove_from_cart", {"product_id": "SKU-9"},
                 {"status": "removed"})
    assert not msg.tool_calls and "SKU-9" in msg.content
