"""A clarifying answer's values land in the arguments they name, in both languages.

Found by a newcomer run: the mock asked a booking tool's restaurant, party size and time; the answer
"海底捞，3个人，晚上6点半" gave ``restaurant='.'`` (the first message "我想订餐厅" ends with the label 餐厅, and the
mock read the full stop it joins the two messages with as that label's value), and the English twin
"Luigi's, 3 people, 6:30pm" gave ``restaurant='Luigi'`` (a capitalised word opening a message was no name,
and its possessive was cut off).
"""
from __future__ import annotations

import json

import pytest

from mock_support import client, tool  # noqa: F401 (client: the module's fixture)

BOOK = tool("book_table", "Book a table at a restaurant.", {
    "restaurant": {"type": "string"}, "party_size": {"type": "integer"}, "time": {"type": "string"}})
SEND = tool("send_parcel", "Send a parcel with a courier.", {
    "courier": {"type": "string", "description": "The courier company"}, "weight_kg": {"type": "number"}})


def _after_question(client, tools, first: str, answer: str):
    """The mock's reply to ``answer`` after it asked about ``first``: ``[(name, arguments)]`` or its text."""
    messages = [{"role": "user", "content": first}]
    asked = client.chat.completions.create(model="mock", messages=messages, tools=tools).choices[0].message
    assert not asked.tool_calls and asked.content, asked  # it asks first
    messages += [{"role": "assistant", "content": asked.content}, {"role": "user", "content": answer}]
    msg = client.chat.completions.create(model="mock", messages=messages, tools=tools).choices[0].message
    return [(c.function.name, json.loads(c.function.arguments)) for c in msg.tool_calls or []] or msg.content


@pytest.mark.parametrize("first", ["我想订餐厅", "帮我订个位子"])
def test_a_chinese_answer_fills_the_restaurant_with_its_name(client, first):
    got = _after_question(client, [BOOK], first, "海底捞，3个人，晚上6点半")
    assert got == [("book_table", {"restaurant": "海底捞", "party_size": 3, "time": "18:30"})]


@pytest.mark.parametrize("answer", ["Luigi's, 3 people, 6:30pm", "Luigi's for 3 people at 6:30pm"])
def test_an_english_answer_keeps_the_possessive_name_whole(client, answer):
    got = _after_question(client, [BOOK], "Book me a table", answer)
    assert got == [("book_table", {"restaurant": "Luigi's", "party_size": 3, "time": "6:30pm"})]


def test_a_possessive_opening_an_answer_is_a_name_for_another_tool_too(client):
    got = _after_question(client, [SEND], "Send a parcel of 2 kg", "Dave's, please")
    assert got == [("send_parcel", {"courier": "Dave's", "weight_kg": 2})]


def test_its_and_lets_open_no_name(client):
    """"It's 2 kg" and "Let's say 3 people": the 's is a verb's, nothing in the answer is a name."""
    from course_lib.mock_llm.reading import read

    for text in ("It's 2 kg", "Let's say 3 people", "Here's the time: 7pm"):
        assert not [m for m in read(text).mentions if m.kind == "name"], text
