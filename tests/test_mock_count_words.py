"""A count said in words is no identifier, and 建 creates (issue 13, kind 'indefinite 一个 read as 1'):
删掉一个日程 called ``delete_event(event_id='一')`` (一个 is 'an'); 帮我建一个日程 listed events. Our own tools,
through the openai SDK: the mock asks which one, or for what a new one needs."""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

CAL = [tool("create_event", "Create a calendar event.", {"title": {"type": "string"}, "date": {"type": "string"},
                                                          "start_time": {"type": "string"}}),
       tool("list_events", "List calendar events on a date.", {"date": {"type": "string"}}),
       tool("delete_event", "Delete a calendar event.", {"event_id": {"type": "string"}})]
ORDERS = [tool("cancel_order", "Cancel an order.", {"order_number": {"type": "string"}}),
          tool("get_order", "Look up an order.", {"order_number": {"type": "string"}})]
TICKETS = [tool("close_ticket", "关闭工单", {"ticket_code": {"type": "string", "description": "工单编号"}})]


@pytest.mark.parametrize("text, tools, slot", [
    ("删掉一个日程", CAL, "event_id"), ("取消一个会议", CAL, "event_id"), ("删除两条日程", CAL, "event_id"),
    ("取消一个订单", ORDERS, "order_number"), ("关闭一张工单", TICKETS, "ticket_code"),
])
def test_a_count_word_is_no_identifier(client, text, tools, slot):
    reply = calls(client, text, tools)
    assert isinstance(reply, str) and slot in reply, reply


@pytest.mark.parametrize("text, tools, want", [
    ("删除日程E-7", CAL, ("delete_event", {"event_id": "E-7"})),
    ("取消订单 A-1042", ORDERS, ("cancel_order", {"order_number": "A-1042"})),
])
def test_a_written_identifier_still_fills(client, text, tools, want):
    assert calls(client, text, tools) == [want]


@pytest.mark.parametrize("text", ["帮我建一个日程：周五开项目周会", "建个日程，周五下午3点", "新建一个日程"])
def test_jian_creates_and_never_lists_or_deletes(client, text):
    reply = calls(client, text, CAL)
    if isinstance(reply, str):
        assert "create_event" in reply, reply
    else:
        assert [n for n, _ in reply] == ["create_event"], reply
