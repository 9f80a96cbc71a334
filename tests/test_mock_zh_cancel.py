"""Chinese verbs of cancelling reach English tool names (issue 13, kind 'tool choice by meaning'): 取消, 撤销, 退订
relate to cancel in data/word_relations.json (zh), and data/zh_actions.json tells a verb from the thing it is done
to (订单 is an order, 把预订取消掉 cancels the booking), so a cancel tool is called, not its reading twin: on main
'帮我撤销订单 A-1042' called get_order and '请把预订 BK-7781 取消掉' get_reservation (both wrong calls), '退订这个套餐'
and '取消我的订阅' called nothing. Our own tools, each with a twin that reads or adds, through the openai SDK."""
from __future__ import annotations

import pytest

from course_lib.mock_llm import purpose
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)


def _pair(cancel: str, twin: str, slot: str) -> list[dict]:
    spec = {slot: {"type": "string", "description": "Its identifier"}}
    return [tool(cancel, "", spec), tool(twin, "", spec)]


@pytest.mark.parametrize("text, tools, want", [
    ("帮我撤销订单 A-1042", _pair("cancel_order", "get_order", "order_id"), ("cancel_order", {"order_id": "A-1042"})),
    ("取消 A-1042", _pair("cancel_order", "get_order", "order_id"), ("cancel_order", {"order_id": "A-1042"})),
    ("请把预订 BK-7781 取消掉", _pair("cancel_reservation", "get_reservation", "reservation_id"),
     ("cancel_reservation", {"reservation_id": "BK-7781"})),
    ("取消我的预订 BK-7781", _pair("cancel_booking", "get_booking", "booking_id"), ("cancel_booking", {"booking_id": "BK-7781"})),
    ("退订这个套餐 P-9", _pair("cancel_subscription", "get_plan", "plan_id"), ("cancel_subscription", {"plan_id": "P-9"})),
    ("作废发票 INV-2291", _pair("void_invoice", "get_invoice", "invoice_id"), ("void_invoice", {"invoice_id": "INV-2291"})),
    ("取消航班 CA981", _pair("cancel_flight", "get_flight_status", "flight_number"),
     ("cancel_flight", {"flight_number": "CA981"})),
])
def test_a_chinese_cancel_calls_the_cancel_tool(client, text, tools, want):
    assert calls(client, text, tools) == [want]


@pytest.mark.parametrize("text, tools, want", [
    ("帮我预订一个房间 R-12", _pair("book_room", "cancel_room", "room_id"), ("book_room", {"room_id": "R-12"})),
    ("查看订单 A-1042", _pair("get_order", "cancel_order", "order_id"), ("get_order", {"order_id": "A-1042"})),
])
def test_an_add_or_a_read_still_calls_its_own_tool(client, text, tools, want):
    assert calls(client, text, tools) == [want]


@pytest.mark.parametrize("text, actions", [
    ("帮我撤销订单 A-1042", ["remove"]), ("请把预订 BK-7781 取消掉", ["remove"]), ("退订这个套餐", ["remove"]),
    ("帮我预订一个房间", ["add"]), ("订一张票", ["add"]), ("我的订阅", []),
])
def test_chinese_action_verbs(text, actions):
    assert [a for _, a in purpose._actions(text)] == actions


def test_an_appointment_cancelled_in_chinese_calls_the_cancel_tool(client):
    """预约 is an appointment as well as a reservation: it decides no kind (it declined on main)."""
    tools = [tool("cancel_appointment", "Cancel an appointment", {"appointment_id": {"type": "string"}}),
             tool("book_appointment", "Book an appointment", {"appointment_id": {"type": "string"}})]
    assert calls(client, "取消预约 APT-33", tools) == [("cancel_appointment", {"appointment_id": "APT-33"})]
