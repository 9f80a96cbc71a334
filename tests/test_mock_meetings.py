"""Calendar tools as a newcomer writes them (our own definitions): the Chinese wording of a meeting's report, a
conversion's answer and a clarifying question; a meeting's start is when it begins, never where one sets out."""
from __future__ import annotations

import datetime as dt
import json

import pytest

from mock_support import client, tool  # noqa: F401 (client: the module's fixture)

from course_lib.mock_llm.answer import compose_answer

EVENT = tool("create_event", "Create a calendar event", {
    "title": {"type": "string", "description": "Event title"},
    "start": {"type": "string", "description": "Start time, ISO 8601"},
    "attendees": {"type": "array", "items": {"type": "string"}, "description": "People to invite"}})
CREATED = [("create_event", {"title": "设计评审", "start": "2026-12-04T15:00", "attendees": ["张伟", "李娜"]},
            {"status": "created", "event_id": "ev1"})]


@pytest.mark.parametrize("question, answer", [
    ("帮我安排设计评审", "你 2026-12-04 15:00 的日程“设计评审”已创建（日程 ID ev1）。"),
    ("Set up the design review", "Your event “设计评审” on 2026-12-04 15:00 is created (event ID ev1)."),
])
def test_a_meetings_start_is_its_time_not_a_departure(question, answer):
    assert compose_answer(CREATED, question) == answer


def test_a_start_and_end_time_give_one_time():
    result = [("schedule_meeting", {"title": "Standup", "start_time": "2026-12-04T09:00", "end_time": "2026-12-04T09:15"},
               {"status": "scheduled", "id": 7})]
    assert compose_answer(result, "安排站会") == "你 2026-12-04 09:00 的会议“Standup”已安排（ID 7）。"


def test_a_flight_still_sets_out_from_its_origin():
    result = [("book_flight", {"origin": "北京", "date": "2026-12-24"}, {"status": "confirmed"})]
    assert compose_answer(result, "订机票") == "你 2026-12-24 从北京出发的航班已确认。"


@pytest.mark.parametrize("call, answer", [
    (("convert_currency", {"amount": 100, "from_currency": "CNY", "to_currency": "USD"},
      {"converted": 13.8, "currency": "USD"}), "100 CNY 等于 13.8 USD。"),
    (("convert_length", {"value": 5, "from_unit": "km", "to_unit": "miles"}, {"result": 3.11}), "5 km 等于 3.11 miles。"),
    (("convert_units", {"value": 5, "from_unit": "km", "to_unit": "mi"}, {"result": 3.107, "unit": "mi"}),
     "5 km 等于 3.11 mi。"),
])
def test_a_chinese_conversion_answer_names_both_quantities(call, answer):
    assert compose_answer([call], "换算一下") == answer


def _reply(client, text, tools):
    msg = client.chat.completions.create(model="mock", messages=[{"role": "user", "content": text}],
                                         tools=tools).choices[0].message
    return msg.content if not msg.tool_calls else [(c.function.name, json.loads(c.function.arguments))
                                                   for c in msg.tool_calls]


def test_a_chinese_question_names_the_missing_arguments_in_chinese(client):
    assert _reply(client, "订一个明天下午3点的会议", [EVENT]) == (
        "要调用 create_event，我还需要知道标题（`title`）和参会人（`attendees`）。请补充一下？")


def test_an_argument_with_no_chinese_word_is_named_in_backticks(client):
    frob = tool("frobnicate", "Frobnicate the widget", {"wibble_level": {"type": "integer"}})
    assert _reply(client, "帮我 frobnicate 一下 widget", [frob]) == (
        "要调用 frobnicate，我还需要知道`wibble_level`。请补充一下？")


# --------------------------------------------------------------------------- what a meeting's request says
MEETING = tool("create_event", "Create a calendar event", {
    "title": {"type": "string", "description": "Event title"},
    "start": {"type": "string", "description": "Start time, ISO 8601"},
    "attendees": {"type": "array", "items": {"type": "string"}, "description": "People to invite"},
    "location": {"type": "string", "description": "Where it takes place"}}, required=["title", "start"])
WEATHER = tool("get_weather", "Get the current weather for a city", {"city": {"type": "string"}})


def _tomorrow(clock: str) -> str:
    return f"{(dt.date.today() + dt.timedelta(days=1)).isoformat()}T{clock}"


@pytest.mark.parametrize("text, people", [
    ("明天下午3点安排周会，参加者：张伟、李娜、王芳", ["张伟", "李娜", "王芳"]),     # label, colon, 、
    ("明天下午3点安排周会，与会者张伟，李娜", ["张伟", "李娜"]),                  # no colon, ，
    ("明天下午3点安排周会，参会人员是欧阳娜娜、老王和小李", ["欧阳娜娜", "老王", "小李"]),  # 是, 和
    ("明天下午3点安排周会，参会人：张伟", ["张伟"]),                             # one name
])
def test_chinese_names_after_a_label_of_the_list_fill_the_attendees(client, text, people):
    assert _reply(client, text, [MEETING, WEATHER]) == [
        ("create_event", {"title": "周会", "start": _tomorrow("15:00"), "attendees": people})]


def _after_question(client, first: str, answer: str, tools: list[dict]):
    """Ask ``first``; the mock asks back in text; the user answers ``answer``: the mock's next reply."""
    messages = [{"role": "user", "content": first}]
    question = _reply(client, first, tools)
    assert isinstance(question, str) and question.rstrip().endswith(("?", "？")), question
    messages += [{"role": "assistant", "content": question}, {"role": "user", "content": answer}]
    msg = client.chat.completions.create(model="mock", messages=messages, tools=tools).choices[0].message
    return msg.content if not msg.tool_calls else [(c.function.name, json.loads(c.function.arguments))
                                                   for c in msg.tool_calls]


@pytest.mark.parametrize("answer, title", [
    ("Title: 1:1, start: tomorrow at 3pm", "1:1"),                       # a value that looks like a time
    ("title: Design review, round 2\nstart: tomorrow 3pm", "Design review, round 2"),  # a comma inside the value
    ("Title: 'Q3 planning'; Start: tomorrow at 3pm", "Q3 planning"),
    ("标题：周会，开始时间：明天下午3点", "周会"),                              # the Chinese label of the argument
])
def test_a_labelled_answer_to_the_question_gives_the_whole_value(client, answer, title):
    assert _after_question(client, "Put an event in my calendar", answer, [MEETING]) == [
        ("create_event", {"title": title, "start": _tomorrow("15:00")})]


def test_a_labelled_list_of_people_is_split(client):
    assert _after_question(client, "Put an event in my calendar", "Title: 1:1; Start: tomorrow at 3pm; "
                           "Attendees: Ana, Ben and Chen", [MEETING]) == [
        ("create_event", {"title": "1:1", "start": _tomorrow("15:00"), "attendees": ["Ana", "Ben", "Chen"]})]


def test_a_label_alone_still_leaves_the_other_arguments_to_ask(client):
    assert _after_question(client, "Put an event in my calendar", "Title: 1:1", [MEETING]) == (
        "To use create_event I need the start. Could you tell me?")


# --------------------------------------------------------------------------- booking verbs choose the calendar tool
@pytest.mark.parametrize("text, title", [
    ("Book 'Design review' tomorrow at 3pm with Ana and Ben", "Design review"),   # a quoted name
    ("Set up 'Design review' tomorrow at 3pm with Ana and Ben", "Design review"),
    ("Arrange a design review tomorrow at 3pm with Ana and Ben", "design review"),  # people after "with"
    ("Schedule 'Design review' tomorrow at 3pm with Ana and Ben", "Design review"),  # as "Schedule" did
])
def test_booking_verbs_choose_the_calendar_tool_like_schedule(client, text, title):
    assert _reply(client, text, [MEETING, WEATHER]) == [
        ("create_event", {"title": title, "start": _tomorrow("15:00"), "attendees": ["Ana", "Ben"]})]


@pytest.mark.parametrize("text", ["安排明天下午3点的设计评审，参会人：张伟、李娜", "帮我约个明天下午3点的设计评审，参会人：张伟、李娜"])
def test_chinese_booking_verbs_choose_the_calendar_tool(client, text):
    assert _reply(client, text, [MEETING, WEATHER]) == "要调用 create_event，我还需要知道标题（`title`）。请补充一下？"


@pytest.mark.parametrize("text", ["Book a flight to Paris tomorrow", "Book a table for two at 7pm",
                                  "Arrange the files in my folder by date", "大约多少度"])
def test_a_booking_verb_alone_asks_no_calendar_tool(client, text):
    assert isinstance(_reply(client, text, [MEETING]), str)


# --------------------------------------------------------------------------- no invented titles
OPTIONAL_TITLE = tool("create_event", "Create a calendar event", {
    "title": {"type": "string", "description": "Event title"},
    "start": {"type": "string", "description": "Start time, ISO 8601"},
    "attendees": {"type": "array", "items": {"type": "string"}, "description": "People to invite"}}, required=["start"])


@pytest.mark.parametrize("text, start, people", [
    ("Schedule a meeting with Dana tomorrow at 3pm", _tomorrow("15:00"), ["Dana"]),
    ("Book a call with Ana and Ben tomorrow at 10am", _tomorrow("10:00"), ["Ana", "Ben"]),
    ("Add a meeting with Bob to my calendar tomorrow at 3pm", _tomorrow("15:00"), ["Bob"]),
    ("明天下午3点在日历上加一个会议，参会人：张伟", _tomorrow("15:00"), ["张伟"]),
])
def test_a_meeting_with_someone_names_no_title(client, text, start, people):
    assert _reply(client, text, [OPTIONAL_TITLE]) == [("create_event", {"start": start, "attendees": people})]
    asked = _reply(client, text, [MEETING, WEATHER])                      # a required title is asked for
    assert asked in ("To use create_event I need the title. Could you tell me?",
                     "要调用 create_event，我还需要知道标题（`title`）。请补充一下？")


@pytest.mark.parametrize("text, title", [
    ("Put a dentist appointment in my calendar tomorrow at 3pm", "dentist appointment"),   # a kind of appointment
    ("明天下午3点安排一个周会", "周会"),
])
def test_a_specific_entry_is_still_its_title(client, text, title):
    assert _reply(client, text, [OPTIONAL_TITLE]) == [("create_event", {"title": title, "start": _tomorrow("15:00")})]


# --------------------------------------------------------------------------- 约 + a name
@pytest.mark.parametrize("text, start, people", [
    ("约张伟和李娜明天下午3点讨论预算", _tomorrow("15:00"), ["张伟", "李娜"]),     # no meeting noun: 约 + names
    ("明天下午3点约王小明开个会", _tomorrow("15:00"), ["王小明"]),
])
def test_yue_and_a_name_invites_that_person(client, text, start, people):
    assert _reply(client, text, [OPTIONAL_TITLE]) == [("create_event", {"start": start, "attendees": people})]


@pytest.mark.parametrize("text", ["大约多少度", "节约用电的方法有哪些", "约10公里有多远"])
def test_yue_meaning_about_asks_no_calendar_tool(client, text):
    assert isinstance(_reply(client, text, [OPTIONAL_TITLE]), str)
