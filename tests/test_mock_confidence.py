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
    # "Kirsten Dunst" is not read into cast ("that X is in"): a search by the director alone answers another question
    e = explain("films directed by Sofia Coppola that Kirsten Dunst is in", FILMS)
    assert e.tool_calls == [] and e.confidence.unused == ["Kirsten Dunst"] and not e.confidence.sure
    assert "'Kirsten Dunst'" in e.content
    # "with Kirsten Dunst" names the cast (arguments._credited_candidates): the call has both
    e = explain("films directed by Sofia Coppola with Kirsten Dunst in them", FILMS)
    assert [c.arguments for c in e.tool_calls] == [{"directed_by": "Sofia Coppola", "cast": "Kirsten Dunst"}]


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


# ---- free words that are no value (issue 13: on BFCL's live requests 54 of 68 such single calls were wrong)
MOVIES = [tool("find_movies", "Find movies showing in a city", {
              "city": {"type": "string"},
              "genre": {"type": "string", "enum": ["Drama", "Mystery", "Comedy"]}}, ["city"]),
          tool("get_movie_times", "Get the show times for a movie in a city",
               {"movie_name": {"type": "string", "description": "The title of the movie"},
                "city": {"type": "string"}}, ["movie_name", "city"])]


def _weakest(e):
    return e.confidence.arguments[e.confidence.weakest][1] if e.confidence.weakest else None


def test_free_words_another_argument_lists_as_an_option_are_no_value():
    e = explain("Show me the times for a drama movie in Berkeley", *MOVIES)
    assert e.tool_calls == [] and e.confidence.weakest == (0, "movie_name") and _weakest(e) == "guess"
    assert e.content == "To use get_movie_times I need the movie name. Could you tell me?"  # not "drama"
    sure = explain("Show me the times for the movie Oppenheimer in Berkeley", *MOVIES)
    assert [(c.name, c.arguments) for c in sure.tool_calls] == [
        ("get_movie_times", {"movie_name": "Oppenheimer", "city": "Berkeley"})]


COUNTDOWN = tool("set_countdown", "Set a countdown timer",
                 {"duration": {"type": "string", "description": "The duration, in the format 'MM:SS'"}}, ["duration"])


def test_free_words_without_the_format_the_description_asks_for_are_no_value():
    assert confidence._off_format("minute", {"description": "The duration, in the format 'MM:SS'"})
    assert not confidence._off_format("01:00", {"description": "The duration, in the format 'MM:SS'"})
    assert confidence._off_format("Ha Noi", {"description": "in the format of 'City, Country' (e.g. 'Paris, France')"})
    assert not confidence._off_format("Hanoi, Vietnam", {"description": "in the format of 'City, Country'"})
    assert not confidence._off_format("minute", {"description": "How long the countdown runs"})
    e = explain("Set a countdown for the meeting in a few minutes", COUNTDOWN)
    assert e.tool_calls == [] and _weakest(e) == "guess"
    # "a minute" is an amount of time, read as one, and written in the format asked
    assert explain("Set a countdown for the meeting in a minute", COUNTDOWN).tool_calls[0].arguments == {
        "duration": "01:00"}


def test_a_verb_a_greeting_or_a_sentences_first_word_is_no_value():
    call = type("Call", (), {"name": "make_payment"})()
    doubt = confidence._free_words_doubt
    assert doubt("receiver", "Hello", "best reading: words", call, "Hello, I need to pay Svetlana $31", []) != ""
    assert doubt("receiver", "Initiate", "best reading: words", call, "Initiate a payment for $43", []) != ""
    assert doubt("region", "produces", "words", call, "the neuron in the brain that produces GABA", []) != ""
    assert doubt("track", "hear", "words", call, "I would love to hear songs from Cry Pretty", []) != ""
    # a word before "and", "another": no object after it, no verb ("the molecule ATP in the mitochondria and ...")
    assert doubt("organelle", "mitochondria", "words", call, "ATP in the mitochondria and does it", []) == ""
    assert doubt("receiver", "Mary", "best reading: place", call, "Send a payment request to Mary for $200", []) == ""
    # a place for a clock time is no value; for a time zone it is how the zone is read
    assert doubt("pickup_time", "New York", "best reading: place", call, "rent a car from New York", []) != ""
    assert doubt("timezone", "Asia/Tokyo", "best reading: place", call, "What time is it in Tokyo?", []) == ""


def test_a_greeting_taken_as_the_receiver_holds_the_payment_back():
    e = explain("Hello, could you send the amount of $31 using my app balance", PAY)
    assert e.tool_calls == [] and e.confidence.weakest == (0, "receiver") and _weakest(e) == "guess"
    sure = explain("Please make a payment of $31 to Svetlana", PAY)
    assert [(c.name, c.arguments) for c in sure.tool_calls] == [("make_payment", {"receiver": "Svetlana", "amount": 31})]


PLAY = tool("play_song", "Play a song on the speaker",
            {"query": {"type": "string", "description": "The song to look for"}}, ["query"])
SUPPORT = tool("transfer_to_human_agent", "Hand the conversation to a human agent",
               {"statement": {"type": "string", "description": "The user's message describing the issue"}},
               ["statement"])


def test_a_query_that_still_holds_the_tools_own_words_is_no_query():
    assert confidence._framing_left("query", "play baby shark song", type("C", (), {"name": "play_song"})())
    assert confidence._framing_left("query", "seacrh apple using your tools", type("C", (), {"name": "search_web_tool"})())
    assert not confidence._framing_left("query", "baby shark", type("C", (), {"name": "play_song"})())
    # a statement carries the user's words: the tool's words inside it are fine, at its start they are the verb
    agent = type("C", (), {"name": "transfer_to_human_agent"})()
    assert not confidence._framing_left("statement", "I would like to discuss my complaint with a human agent", agent)
    assert confidence._framing_left("text", "Translate Hello from English", type("C", (), {"name": "translate"})())
    # a Chinese text whose first Latin word is a tool word does not start with it (lesson 12's Chinese request)
    finance = type("C", (), {"name": "ask_finance_db_agent_finance_report"})()
    assert not confidence._framing_left("message", "从财务 Agent 获取公司 2024 年的营收", finance)
    assert confidence._framing_left("message", "Finance: 获取公司 2024 年的营收", finance)  # agent: a weak word now
    e = explain("I've submitted a complaint and would like to discuss its status with a human agent.", SUPPORT)
    assert [c.name for c in e.tool_calls] == ["transfer_to_human_agent"]


def test_a_word_of_the_amount_is_no_receiver():
    # "a ninety dollar payment": "dollar" is the amount's, the receiver is not said: ask for it
    e = explain("Could you initiate a ninety dollar payment using my card?", PAY)
    assert e.tool_calls == [] and e.content == "To use make_payment I need the receiver. Could you tell me?"
    assert e.confidence.weakest == (0, "receiver") and _weakest(e) == "guess"


def test_a_described_example_another_argument_already_holds_is_a_guess():
    """'Convert 72 F to C' read to_unit 'C' and then from_unit 'C' from its description's example ('C'): a wrong
    call at 0.85; one mention cannot be both units. Now that a bare scale letter beside a figure is read as
    its unit ("72 F"), the right call is made; the guard against one mention filling both stays."""
    units = [{"type": "function", "function": {
        "name": "convert_units", "description": "Convert a quantity from one unit to another (length, mass, temperature).",
        "parameters": {"type": "object", "required": ["value", "from_unit", "to_unit"], "properties": {
            "value": {"type": "number"},
            "from_unit": {"type": "string", "description": "unit to convert from, e.g. 'km', 'lb', 'C'"},
            "to_unit": {"type": "string", "description": "unit to convert to, e.g. 'mi', 'kg', 'F'"}}}}}]
    e = explain("Convert 72 F to C", *units)
    assert [(c.name, c.arguments) for c in e.tool_calls] == [
        ("convert_units", {"value": 72, "from_unit": "F", "to_unit": "C"})]
    assert confidence._held_by_another("from_unit", "C", type("C", (), {"arguments": {"to_unit": "c", "value": 72}})())
    assert not confidence._held_by_another("from_unit", "km", type("C", (), {"arguments": {"to_unit": "mi"}})())
    assert [c.arguments for c in explain("convert 5 km to mi", *units).tool_calls] == [
        {"value": 5, "from_unit": "km", "to_unit": "mi"}]
