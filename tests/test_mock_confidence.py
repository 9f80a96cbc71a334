"""The engine knows how sure it is (issue 13 item 2): a confidence per decision, shown by explain().

Below its threshold it makes no call with invented values: it asks for the one value it would have
to guess, or says in one sentence (English or Chinese, as the request) that the offline mock could not
map the request, which tool came closest and why, and that a real model may do better.
"""
from __future__ import annotations

import pytest

from course_lib.mock_llm import MockLLM
from course_lib.mock_llm import confidence


def tool(name, description, properties, required):
    return {"type": "function", "function": {"name": name, "description": description,
                                             "parameters": {"type": "object", "properties": properties,
                                                            "required": required}}}


PAY = tool("make_payment", "Send a payment to a contact",
           {"receiver": {"type": "string", "description": "Who gets the money"}, "amount": {"type": "number"}},
           ["receiver", "amount"])
ROOM = tool("book_room", "Book a hotel room in a city", {"city": {"type": "string"}}, ["city"])


def explain(text, *tools):
    return MockLLM().explain([{"role": "user", "content": text}], list(tools))


def test_explain_shows_the_confidence_of_a_sure_call():
    e = explain("Send a payment of $40 to Ada", PAY)
    assert [(c.name, c.arguments) for c in e.tool_calls] == [("make_payment", {"receiver": "Ada", "amount": 40})]
    assert e.confidence.sure and e.confidence.value >= confidence.THRESHOLD
    assert "confidence 0.65 (threshold 0.5): weakest receiver (free words 0.65)" in str(e)  # a best reading


def test_a_value_that_would_be_the_requests_own_verb_is_asked_for_not_invented():
    e = explain("I need to transfer $250 as a payment from my balance", PAY)
    assert e.tool_calls == [] and "receiver" in e.content and e.content.endswith("?")
    assert e.confidence.weakest[1] == "receiver" and e.confidence.arguments[e.confidence.weakest][1] == "guess"


def test_a_request_saying_much_the_tool_has_no_place_for_gets_an_honest_sentence():
    e = explain("Book a room in Lisbon for 3 nights from 2031-05-02 at 6pm", ROOM)
    assert e.tool_calls == []
    assert e.content.startswith("The offline mock could not map this request to a tool with confidence")
    assert "book_room" in e.content and "'3 nights'" in e.content and "real model" in e.content
    assert e.confidence.unused == ["3 nights", "2031-05-02", "6pm"] and not e.confidence.sure


def test_the_honest_sentence_in_chinese():
    e = explain("帮我在杭州订一间房，2031年5月2日入住，住3晚，下午6点到", ROOM)
    assert e.tool_calls == [] and e.content.startswith("离线模拟模型没能把这个请求可靠地对应到工具上")
    assert "book_room" in e.content and "真实模型" in e.content


def test_one_or_two_details_the_tool_ignores_still_call():
    e = explain("Book a room in Lisbon for 3 nights", ROOM)
    assert [(c.name, c.arguments) for c in e.tool_calls] == [("book_room", {"city": "Lisbon"})]
    assert e.confidence.unused == ["3 nights"] and e.confidence.value == pytest.approx(0.85 * 0.8)


@pytest.mark.parametrize("rule, kind", [("quoted", "said"), ("number with unit kg", "said"), ("place", "read"),
                                        ("words", "free words"), ("best reading: code", "read"),
                                        ("best reading: words", "free words")])
def test_rule_classes(rule, kind):
    assert confidence.rule_class(rule) == kind


def test_forced_tool_choice_is_not_held_back():
    e = MockLLM().explain([{"role": "user", "content": "Book a room in Lisbon for 3 nights from 2031-05-02 at 6pm"}],
                          [ROOM], tool_choice="required")
    assert [c.name for c in e.tool_calls] == ["book_room"]


NOTES = tool("search_notes", "Search my notes", {"query": {"type": "string", "description": "What to look for"}},
             ["query"])


def test_a_short_request_is_its_own_query_without_the_framing():
    e = explain("Search my notes for the budget meeting with Lena", NOTES)
    assert [(c.name, c.arguments) for c in e.tool_calls] == [("search_notes", {"query": "the budget meeting with Lena"})]
    z = explain("搜索我的笔记里关于预算会议的内容", NOTES)
    assert [c.name for c in z.tool_calls] == ["search_notes"] and "预算会议" in z.tool_calls[0].arguments["query"]


def test_a_long_message_is_no_query_as_it_stands():
    # a pasted prompt or a long story: a real model writes a query from it; the mock does not send it whole
    long = ("You are my assistant for the week and you should always be polite and brief with everyone. "
            "Remember that I prefer mornings, that I am travelling on Thursday, and that my notes are messy. "
            "Search my notes for whatever seems useful")
    e = explain(long, NOTES)
    assert e.tool_calls == [] and e.content
    assert e.confidence.arguments[e.confidence.weakest][1:] == ("guess", "the request without its framing")
    zh = ("你是我这一周的助手，对每个人都要礼貌简短。记住我喜欢上午开会，星期四我要出差，我的笔记很乱，"
          "很多内容都是随手记下的，有中文也有英文，还有一些会议的草稿和待办事项。帮我在笔记里搜索一下有用的内容")
    z = explain(zh, NOTES)
    assert z.tool_calls == [] and z.content


ASK = tool("ask_research_agent", "Send a message to the research agent and return its answer",
           {"message": {"type": "string", "description": "The message for the agent"}}, ["message"])


def test_a_long_list_of_instructions_gives_each_call_its_own_clause():
    # not a pasted prompt: each clause is an instruction, so each call's text is its clause (the capstone's request)
    e = explain("Ask the research agent for this year's average hotel prices in European capitals, then book a hotel "
                "room in Paris, and save a note in notes/offsite.md", ASK, ROOM)
    calls = {c.name: c.arguments for c in e.tool_calls}
    assert calls["book_room"] == {"city": "Paris"}
    assert "average hotel prices in European capitals" in calls["ask_research_agent"]["message"]
    assert e.confidence.sure


def test_words_of_a_request_count_chinese_two_characters_to_a_word():
    assert confidence._words("Search the web for the latest Python release") == 8
    assert confidence._words("搜索最新的版本") == 4 and confidence._words("") == 0


CAB = tool("order_cab", "Order a cab to an address",
           {"destination": {"type": "string", "description": "Street address to go to"},
            "seats": {"type": "integer", "description": "Seats needed"}}, ["destination"])
ALPHA = tool("t_test", "Two-sample t test", {
    "a": {"type": "array", "items": {"type": "number"}}, "b": {"type": "array", "items": {"type": "number"}},
    "alpha": {"type": "number", "default": 0.05, "description": "Significance level"}}, ["a", "b"])


def test_a_street_address_no_call_uses_holds_the_call_back():
    # the street number and name were not read into destination: a cab sent to the city alone is a wrong trip
    e = explain("Get me a cab to 42 Elm Road, Dublin", CAB)
    assert e.tool_calls == [] and e.confidence.unused == ["42 Elm"] and not e.confidence.sure
    assert "'42 Elm'" in e.content and "order_cab" in e.content


def test_a_figure_the_tool_has_no_argument_for_only_lowers_the_confidence():
    e = explain("Book a room in Lisbon for 3 nights", ROOM)  # book_room takes a city and nothing else
    assert e.confidence.value == pytest.approx(0.85 * confidence.UNUSED_FACTOR)


def test_a_figure_that_is_the_tools_default_is_no_missed_value():
    e = explain("Run a t test on [1, 2, 3] and [4, 5, 6] at significance level 0.05", ALPHA)
    assert "0.05" not in e.confidence.unused


def test_a_date_sent_in_the_tools_format_counts_as_used():
    e = explain("Show my calendar for March 19, 2031", tool(
        "show_calendar", "Show the calendar for a day",
        {"day": {"type": "string", "description": "Day as MM/DD/YYYY"}}, ["day"]))
    assert [(c.name, c.arguments) for c in e.tool_calls] == [("show_calendar", {"day": "03/19/2031"})]
    assert e.confidence.unused == []


CONCERTS = tool("find_concerts", "Find concerts in a city on a day",
                {"city": {"type": "string"}, "date": {"type": "string", "description": "YYYY-MM-DD"}}, ["city", "date"])


def test_a_year_said_apart_from_its_day_that_no_call_sends_holds_the_call_back():
    e = explain("Find concerts in Lisbon on March 9th, I mean in 2031", CONCERTS)
    assert e.tool_calls == [] and e.confidence.unused == ["2031"] and not e.confidence.sure
    e = explain("Find concerts in Lisbon on March 9th 2031", CONCERTS)
    assert [(c.name, c.arguments) for c in e.tool_calls] == [("find_concerts", {"city": "Lisbon", "date": "2031-03-09"})]


FILMS = tool("find_films", "Find films", {"directed_by": {"type": "string", "description": "Director"},
                                          "cast": {"type": "string", "description": "An actor in the film"}}, [])


def test_a_persons_name_left_out_while_a_persons_argument_is_empty_holds_the_call_back():
    # "Kirsten Dunst" was not read into cast: a search by the director alone answers another question
    e = explain("films directed by Sofia Coppola with Kirsten Dunst in them", FILMS)
    assert e.tool_calls == [] and e.confidence.unused == ["Kirsten Dunst"] and not e.confidence.sure
    assert "'Kirsten Dunst'" in e.content


def test_every_name_used_calls():
    e = explain("films directed by Sofia Coppola", FILMS)
    assert [(c.name, c.arguments) for c in e.tool_calls] == [("find_films", {"directed_by": "Sofia Coppola"})]


def test_an_acronym_or_a_name_with_no_persons_argument_is_context():
    # "ACME RDS" is no person; a tool without a person's argument has no place a name was meant for
    assert not confidence._strong(_mention("name", "ACME RDS"), [("owner", {"type": "string"})])
    assert not confidence._strong(_mention("name", "Kirsten Dunst"), [("title", {"type": "string"})])
    assert confidence._strong(_mention("name", "Kirsten Dunst"), [("cast", {"type": "string"})])


def _mention(kind, text):
    from course_lib.mock_llm.reading import Mention
    return Mention(kind, text, text, 0, len(text))
