"""A value must have the shape its slot asks for: an email address slot never takes a clock time or a word.

Found by a newcomer run: after the mock asked for an email's subject, the answer "The meeting moved to 3pm" gave
``send_email(to='3pm', ...)``, a side-effecting call with a value its own schema (``format: email``) rejects.
"""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

EMAIL = tool("send_email", "Send an email.", {
    "to": {"type": "string", "format": "email", "description": "Recipient email address"},
    "subject": {"type": "string"}, "body": {"type": "string"}})
INVITE = tool("invite_user", "Invite a user to the workspace.", {
    "user_email": {"type": "string"}, "workspace": {"type": "string"}})
TICKET = tool("get_ticket", "Look up a support ticket.", {"ticket_id": {"type": "string", "format": "uuid"}})
NOTE = tool("save_email_draft", "Save an email draft.", {"email_body": {"type": "string",
                                                                         "description": "The text of the email"}})


def _conversation(client, tools, first: str, answer: str):
    reply = client.chat.completions.create(model="mock", messages=[{"role": "user", "content": first}],
                                           tools=tools).choices[0].message
    assert not reply.tool_calls and reply.content, reply  # it asks first
    messages = [{"role": "user", "content": first}, {"role": "assistant", "content": reply.content},
                {"role": "user", "content": answer}]
    import json

    msg = client.chat.completions.create(model="mock", messages=messages, tools=tools).choices[0].message
    return [(c.function.name, json.loads(c.function.arguments)) for c in msg.tool_calls or []] or msg.content


def test_a_clarifying_answer_never_puts_a_time_in_the_address(client):
    got = _conversation(client, [EMAIL], "Email bob@example.com saying the meeting moved to 3pm",
                        "The meeting moved to 3pm")
    assert isinstance(got, str) or got[0][1]["to"] == "bob@example.com", got


@pytest.mark.parametrize("text", ["Invite the intern to the design workspace", "Invite Ana to the design workspace"])
def test_an_address_slot_without_an_address_asks(client, text):
    got = calls(client, text, [INVITE])
    assert isinstance(got, str) and "email" in got.lower(), got


def test_an_address_slot_takes_an_address(client):
    assert calls(client, "Invite ana@corp.example to the design workspace", [INVITE]) == [
        ("invite_user", {"user_email": "ana@corp.example", "workspace": "design"})]


def test_a_uuid_slot_never_takes_a_piece_of_one(client):
    # the mock cannot read a UUID whole yet ("4" came out of it): it asks rather than send a non-UUID
    for text in ("Look up ticket 3f2b8c1e-9d4a-4b7e-8f1a-2c3d4e5f6a7b", "Look up ticket 4521"):
        got = calls(client, text, [TICKET])
        assert isinstance(got, str) or got[0][1]["ticket_id"] == "3f2b8c1e-9d4a-4b7e-8f1a-2c3d4e5f6a7b", got


def test_an_email_message_slot_is_not_an_address(client):
    got = calls(client, "Save an email draft: 'I will be late'", [NOTE])
    assert got == [("save_email_draft", {"email_body": "I will be late"})]
