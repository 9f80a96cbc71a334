"""Free-text values are read whole (issue 13, kind 'values'): a message after 'saying', 'telling her', 说, 内容是 is the
whole body (it was asked for, or cut to one word, or the whole request in Chinese); the recipient slot takes the
address and no subject is made from it (``send_email(to='meeting moved', subject='bob@x.com')`` on main); what a
meeting or an email is about is the whole noun phrase ('Q3 planning', not 'Q3'); the quoted words after 标题为 are
the title, with a space or a colon between them ('标题为 "周报"' gave no call, '标题: "购物清单"' kept the quotes).
Our own tools, through the openai SDK."""
from __future__ import annotations

import pytest

from course_lib.mock_llm.arguments import said_message, said_topic
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)


def _s(desc: str) -> dict:
    return {"type": "string", "description": desc}


EMAIL = tool("send_email", "Send an email", {"to": _s("Recipient address"), "subject": _s("Subject line"),
                                             "body": _s("Message body")}, required=["to", "body"])
EMAIL_OPTIONAL = tool("send_email", "Send an email message", {
    "to": _s("Recipient"), "subject": _s("Email subject"), "body": _s("Email body")}, required=["to"])
EMAIL_SUBJECT = tool("send_email", "Send an email", {"recipient": _s("Recipient email"), "subject": _s("Subject"),
                                                     "body": _s("Body text")})
MAIL = tool("send_mail", "Send mail", {"recipient_email": _s("Address"), "title": _s("Mail title"),
                                       "content": _s("Mail content")}, required=["recipient_email", "content"])
SLACK = tool("post_message", "Post a message to a Slack channel", {"channel": _s("Channel name"),
                                                                    "text": _s("Message text")})
TWEET = tool("post_tweet", "Post a tweet", {"content": _s("Tweet text")})
MEETING = tool("schedule_meeting", "Schedule a meeting", {"topic": _s("What the meeting is about"), "time": _s("When")},
               required=["topic"])
CALL = tool("schedule_call", "Schedule a call", {"subject": _s("What the call is about"), "with_person": _s("Who")},
            required=["subject"])
DOC = tool("create_document", "Create a document", {"title": _s("Document title")})
NOTE = tool("create_note", "Create a note", {"title": _s("Note title"), "content": _s("Note text")}, required=["title"])
TASK = tool("create_task", "Create a task", {"title": _s("Task title"), "assignee": _s("Who does it")},
            required=["title"])


@pytest.mark.parametrize("text, message", [
    ("email bob@x.com saying that the meeting moved to 3pm", "the meeting moved to 3pm"),
    ("Send it to Ann telling her the report is ready. Then archive it.", "the report is ready"),
    ("Message the team letting them know the build is green, please", "the build is green"),
    ('Text Bob saying "see you at 7"', "see you at 7"),
    ("给bob@x.com发邮件，说会议改到下午3点", "会议改到下午3点"),
    ("发一封邮件，内容是明天的会议取消了", "明天的会议取消了"),
])
def test_the_message_said_is_read_to_the_end_of_its_sentence(text, message):
    assert said_message(text)[0] == message


@pytest.mark.parametrize("text", ["Tell me the weather in Paris", "What did the novel say?", "小说的作者是谁"])
def test_no_message_where_none_is_said(text):
    assert said_message(text) is None


@pytest.mark.parametrize("text, tools, want", [
    ("email bob@x.com saying that the meeting moved to 3pm", [EMAIL],
     ("send_email", {"to": "bob@x.com", "body": "the meeting moved to 3pm"})),
    ("Send an email to alice@example.com telling her the report is ready for review", [EMAIL],
     ("send_email", {"to": "alice@example.com", "body": "the report is ready for review"})),
    ("Email support@acme.io that my order never arrived", [EMAIL_OPTIONAL],
     ("send_email", {"to": "support@acme.io", "body": "my order never arrived"})),
    ("Send mail to support@acme.io telling them the invoice is wrong", [MAIL],
     ("send_mail", {"recipient_email": "support@acme.io", "content": "the invoice is wrong"})),
    ("Tweet saying hello world from the course", [TWEET], ("post_tweet", {"content": "hello world from the course"})),
    ("给bob@x.com发邮件，说会议改到下午3点", [EMAIL], ("send_email", {"to": "bob@x.com", "body": "会议改到下午3点"})),
    ("给alice@example.com发一封邮件，内容是明天的会议取消了", [EMAIL_OPTIONAL],
     ("send_email", {"to": "alice@example.com", "body": "明天的会议取消了"})),
    ('给bob@x.com发邮件，主题为"周会"，内容为"会议改到下午3点"', [EMAIL_OPTIONAL],
     ("send_email", {"to": "bob@x.com", "subject": "周会", "body": "会议改到下午3点"})),
])
def test_a_message_slot_takes_the_whole_message(client, text, tools, want):
    assert calls(client, text, tools) == [want]


def test_a_subject_is_never_made_from_the_address(client):
    """An optional subject the request does not give is left out; a required one is asked for."""
    assert calls(client, "Send an email to john@gmail.com", [EMAIL_OPTIONAL]) == [
        ("send_email", {"to": "john@gmail.com"})]
    asked = calls(client, "email carol@corp.io saying the launch is postponed until Friday", [EMAIL_SUBJECT])
    assert isinstance(asked, str) and "subject" in asked


def test_a_channel_keeps_no_word_of_the_lead(client):
    assert calls(client, "Post in #general saying the deploy is done", [SLACK]) != [
        ("post_message", {"channel": "general saying", "text": "the deploy is done"})]


@pytest.mark.parametrize("text, topic", [
    ("schedule a meeting about the Q3 planning", "Q3 planning"),
    ("Schedule a meeting about the new hiring plan tomorrow at 10am", "new hiring plan"),
    ("a call regarding the vendor contract renewal with Dana", "vendor contract renewal"),
    ("安排一个关于第三季度规划的会议", "第三季度规划"),
])
def test_a_topic_is_the_whole_noun_phrase(text, topic):
    assert said_topic(text)[0] == topic


@pytest.mark.parametrize("text, tools, want", [
    ("schedule a meeting about the Q3 planning", [MEETING], ("schedule_meeting", {"topic": "Q3 planning"})),
    ("set up a meeting about quarterly budget review", [MEETING],
     ("schedule_meeting", {"topic": "quarterly budget review"})),
    ("Schedule a call with Dana about the vendor contract renewal", [CALL],
     ("schedule_call", {"subject": "vendor contract renewal"})),
    ("安排一个关于第三季度规划的会议", [MEETING], ("schedule_meeting", {"topic": "第三季度规划"})),
    ("Send an email to bob@x.com about the Q3 planning", [EMAIL_OPTIONAL],
     ("send_email", {"to": "bob@x.com", "subject": "Q3 planning"})),
    ("Email jane@work.com about the offsite saying we leave at 8am", [EMAIL_OPTIONAL],
     ("send_email", {"to": "jane@work.com", "subject": "offsite", "body": "we leave at 8am"})),
])
def test_a_topic_slot_takes_the_whole_noun_phrase(client, text, tools, want):
    assert calls(client, text, tools) == [want]


@pytest.mark.parametrize("text, tools, want", [
    ('创建一个文档，标题为"周报"', [DOC], ("create_document", {"title": "周报"})),
    ('创建一个文档，标题为 "周报"', [DOC], ("create_document", {"title": "周报"})),
    ('创建一个文档，标题为 “月报”', [DOC], ("create_document", {"title": "月报"})),
    ('新建任务，标题是 "修复 登录 bug"，负责人小王', [TASK], ("create_task", {"title": "修复 登录 bug", "assignee": "小王"})),
    ('新建笔记 标题: "购物清单"', [NOTE], ("create_note", {"title": "购物清单"})),
])
def test_the_quoted_words_after_a_chinese_label_are_its_value(client, text, tools, want):
    assert calls(client, text, tools) == [want]


SMS = tool("send_sms", "Send a text message", {"phone_number": _s("Phone number"), "message": _s("Message content")})
WEATHER = tool("get_weather", "Weather for a city", {"city": _s("City")})


@pytest.mark.parametrize("text, tools, want", [
    ("Text 555-123-4567 saying I'm running 10 minutes late", [SMS, WEATHER],
     ("send_sms", {"phone_number": "555-123-4567", "message": "I'm running 10 minutes late"})),
    ("发短信给13800138000，告诉他我晚点到", [SMS, WEATHER], ("send_sms", {"phone_number": "13800138000", "message": "我晚点到"})),
    ("给13800138000发条短信，说我到了", [SMS, WEATHER], ("send_sms", {"phone_number": "13800138000", "message": "我到了"})),
    ("在general频道发消息说部署完成了", [SLACK, WEATHER], ("post_message", {"channel": "general", "text": "部署完成了"})),
])
def test_a_text_message_is_sent_with_its_whole_message(client, text, tools, want):
    """短信, 发消息 and 'Text <number> saying' ask a messaging tool (data/word_relations.json; none was called on main)."""
    assert calls(client, text, tools) == [want]


def test_a_phone_slot_takes_no_name(client):
    assert isinstance(calls(client, "Text Bob saying dinner is at 7", [SMS, WEATHER]), str)
