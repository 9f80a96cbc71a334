"""Kinds of real users' requests (issue 13 item 3) the mock reads like a tool-calling model.

Written in the course's own words, with small tools of its own (no benchmark item): the kinds
found reading BFCL's live (user-contributed) failures: long system prompts, many tools, enums,
optional parameters, places written "City, ST". English and Chinese where the kind exists in both.
"""
from __future__ import annotations

from course_lib.mock_llm import MockLLM


def obj(required=(), **props):
    return {"type": "object", "properties": props, "required": list(required)}


def tool(name, description, parameters):
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


def calls(text, *tools, system=None):
    messages = ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": text}]
    decision = MockLLM().explain(messages, list(tools))
    return [(c.name, c.arguments) for c in decision.tool_calls], decision


BARBER = tool("find_barber", "Find a barber shop in a city",
              obj(["city"], city={"type": "string", "description": "City and state, e.g. 'Austin, TX'"},
                  walk_in={"type": "boolean", "description": "Whether walk-ins are taken"}))
STORES = tool("store_locations", "List the stores of a chain near a place",
              obj(["location"], location={"type": "string", "description": "Where to look"}))


# ------------------------------------------------------------------ a city with its state is one place
def test_a_city_and_its_state_code_are_one_place_not_two_calls():
    got, _ = calls("Find me a barber in Bakersfield, CA please", BARBER)
    assert got == [("find_barber", {"city": "Bakersfield, CA"})]


def test_a_city_and_its_country_without_a_space_are_one_place():
    got, _ = calls("Which stores are near Tralee,Ireland?", STORES)
    assert got == [("store_locations", {"location": "Tralee,Ireland"})]


def test_two_cities_each_with_its_state_stay_two_calls():
    got, _ = calls("Find a barber in Bakersfield, CA and in Tulsa, OK", BARBER)
    assert got == [("find_barber", {"city": "Bakersfield, CA"}), ("find_barber", {"city": "Tulsa, OK"})]


def test_a_negated_modal_clears_a_flag():
    got, _ = calls("Find a barber in Tulsa, OK; it shouldn't take walk-ins", BARBER)
    assert got == [("find_barber", {"city": "Tulsa, OK", "walk_in": False})]


# ------------------------------------------------------------------ the day and year the user says they are in
FORECAST = tool("forecast", "Weather forecast for a city on a date",
                obj(["city", "date"], city={"type": "string"},
                    date={"type": "string", "description": "The date, in the format YYYY-MM-DD"}))


def test_a_year_the_user_states_applies_to_a_date_without_one():
    got, _ = calls("What will the weather be in Oslo on the 9th of June? it's 2031 right now", FORECAST)
    assert got == [("forecast", {"city": "Oslo", "date": "2031-06-09"})]


def test_a_year_written_before_day_and_month_applies_to_the_other_dates():
    trip = tool("book_trip", "Book a round trip", obj(["depart", "back"], depart={"type": "string", "description": "YYYY-MM-DD"},
                                                      back={"type": "string", "description": "YYYY-MM-DD"}))
    got, _ = calls("Book a trip departing on the 2031 4th of June and coming back on the 8th of June", trip)
    assert got == [("book_trip", {"depart": "2031-06-04", "back": "2031-06-08"})]


def test_today_is_sets_the_reference_of_relative_dates_and_asks_for_no_date_itself():
    got, _ = calls("Weather in Oslo tomorrow? today is 2031.2.28", FORECAST)
    assert got == [("forecast", {"city": "Oslo", "date": "2031-03-01"})]


def test_today_is_in_chinese():
    got, _ = calls("今天是2031年2月28日，明天北京天气怎么样？", FORECAST)
    assert got == [("forecast", {"city": "北京", "date": "2031-03-01"})]
    got, _ = calls("今年是2031年，6月9日上海天气怎么样？", FORECAST)
    assert got == [("forecast", {"city": "上海", "date": "2031-06-09"})]


def test_a_version_number_is_no_date():
    from course_lib.mock_llm.reading import read

    assert not read("install version 2023.1.15 of the package").of_kind("date")


# ------------------------------------------------------------------ date-time arguments in the format described
CLEANER = tool("find_cleaner", "Find a cleaner available in a period",
               obj([], start={"type": "string", "description": "Start of the period in the format 'YYYY-MM-DD HH:mm:ss'"},
                   end={"type": "string", "description": "End of the period in the format 'YYYY-MM-DD HH:mm:ss', "
                                                         "or null if open-ended"}))
ALARM = tool("set_alarm", "Set an alarm",
             obj(["alarm_time"], alarm_time={"type": "string", "description": "The alarm time, such as "
                                                                              "'YYYY-MM-DD HH:MM:SS', 'HH:MM' or 'HH:MM AM/PM'"}))


def test_a_date_time_spelled_with_a_space_in_the_description_gets_one():
    got, _ = calls("Find a cleaner on June 9, 2031 at 9.30 a.m.", CLEANER)
    assert got == [("find_cleaner", {"start": "2031-06-09 09:30:00"})]  # one clock time: the start, no end


def test_two_clock_times_start_and_end_a_span():
    got, _ = calls("Find a cleaner on June 9, 2031 between 10:30 a.m. and 7:00 p.m.", CLEANER)
    assert got == [("find_cleaner", {"start": "2031-06-09 10:30:00", "end": "2031-06-09 19:00:00"})]


def test_a_clock_time_alone_when_no_date_is_said_and_the_format_allows_it():
    got, _ = calls("Set an alarm for 11PM", ALARM)
    assert got == [("set_alarm", {"alarm_time": "23:00"})]
    got, _ = calls("设一个早上7点的闹钟", ALARM)
    assert got == [("set_alarm", {"alarm_time": "07:00"})]


# ------------------------------------------------------------------ one request, not one call per sentence
DB = tool("add_db_server", "Add a database server connection",
          obj(["host"], nickname={"type": "string"}, host={"type": "string"}, database={"type": "string"},
              password={"type": "string"}))


def test_sentences_that_each_give_one_detail_make_one_call():
    got, _ = calls("Set up a database server connection with the nickname 'Main'. The host is 'db.example.org'. "
                   "The database will be 'sales' and the password is 'p4ss'.", DB)
    assert got == [("add_db_server", {"nickname": "Main", "host": "db.example.org", "database": "sales",
                                      "password": "p4ss"})]


# ------------------------------------------------------------------ a sentence that only states a value is a detail
TOKENS = tool("get_api_tokens", "Get the API tokens of a user",
              obj(["user_id"], user_id={"type": "integer", "description": "The user's ID"}))
SHAREABLE = tool("get_shareable_api_tokens", "Get the shareable API tokens", obj())


def test_a_sentence_that_states_a_value_joins_the_request_before_it():
    got, _ = calls("I forgot all my API tokens, can you remind me of them? My user ID is 4512.", TOKENS, SHAREABLE)
    assert got == [("get_api_tokens", {"user_id": 4512})]


def test_a_sentence_that_states_a_value_in_chinese():
    got, _ = calls("我忘了我所有的 API tokens，能提醒我吗？我的用户ID是4512。", TOKENS, SHAREABLE)
    assert got == [("get_api_tokens", {"user_id": 4512})]


def test_a_detail_frame_is_no_request_of_its_own():
    from course_lib.mock_llm.planning import states_a_detail

    assert states_a_detail("My user ID is 12345") and states_a_detail("The API key is 'k-1'")
    assert states_a_detail("我的用户ID是12345") and states_a_detail("id 1234")
    assert not states_a_detail("what time is it in Tokyo") and not states_a_detail("find my user ID")


# ------------------------------------------------------------------ a second call needs a value of its own
PROFILE = tool("get_profile", "Get a member's profile", obj(["member_id"], member_id={"type": "string"}))
PROJECT = tool("get_project_details", "Get the details of a member's project",
               obj(["project_name"], project_name={"type": "string", "description": "The project's name"}))
CLOCK = tool("current_time", "Tell the current time", obj())
WEATHER = tool("get_weather", "Current weather in a city", obj(["city"], city={"type": "string"}))


def test_a_second_tool_filled_only_with_free_words_is_not_called():
    got, _ = calls("Get me the profile of member 4471, and I'd also like the contact details included.",
                   PROFILE, PROJECT)
    assert got == [("get_profile", {"member_id": "4471"})]


def test_a_second_tool_without_parameters_is_still_called_for_its_own_question():
    got, _ = calls("What's the weather in Oslo? And what time is it now?", WEATHER, CLOCK)
    assert got == [("get_weather", {"city": "Oslo"}), ("current_time", {})]
    got, _ = calls("奥斯陆天气怎么样？现在几点了？", WEATHER, CLOCK)
    assert got == [("get_weather", {"city": "奥斯陆"}), ("current_time", {})]


def test_a_later_call_holding_only_what_an_earlier_call_holds_is_dropped():
    from course_lib.mock_llm.decision import PlannedCall
    from course_lib.mock_llm.planning import without_bare_calls
    from course_lib.mock_llm.wire import ToolSpec

    spec = ToolSpec("readings", "", {"type": "object", "properties": {"metric": {}, "per_page": {}}})
    full = PlannedCall("readings", {"metric": "humidity", "per_page": 100})
    bare = PlannedCall("readings", {"per_page": 100})
    assert without_bare_calls([full, bare], [spec], "") == [full]
    assert without_bare_calls([bare, full], [spec], "") == [bare, full]  # a later call may vary an earlier one


# Identifiers written the way users write them: a label before the value, figures joined by dots or dashes.
TICKET = tool("get_ticket", "Get a support ticket by its id",
              obj(["ticket_id"], ticket_id={"type": "string", "description": "The ticket's identifier"}))
RELEASE = tool("get_release", "Look up a release of a library",
               obj(["package", "version"], package={"type": "string", "description": "Name of the package"},
                   version={"type": "string", "description": "The release version"}))
DAY_FORECAST = tool("city_forecast", "Weather forecast for a city on a day",
                obj(["city"], city={"type": "string", "description": "The city"},
                    day={"type": "string", "description": "The date, YYYY-MM-DD"}))


def test_a_label_in_capitals_is_no_value_the_value_after_it_is():
    got, _ = calls("Show me the ticket with ID qx7Rt2", TICKET)
    assert got == [("get_ticket", {"ticket_id": "qx7Rt2"})]      # not ticket_id="ID"
    got, d = calls("Show me the ticket ID", TICKET)
    assert got == [] and "ticket" in d.content                    # no value after the label: asked, not "ID"


def test_figures_joined_by_dots_or_dashes_are_one_value():
    got, _ = calls("Get ticket 044-718 for me", TICKET)
    assert got == [("get_ticket", {"ticket_id": "044-718"})]      # not "044" (a leading zero: no range of numbers)
    got, _ = calls("Look up release 4.10.2 of numpy", RELEASE)
    assert got == [("get_release", {"package": "numpy", "version": "4.10.2"})]  # not "4.1"
    got, _ = calls("Look up the release of package my_pkg_version, v 3.0.1", RELEASE)
    assert got == [("get_release", {"package": "my_pkg_version", "version": "3.0.1"})]  # not "3.0"
    got, _ = calls("Look up the release of my_version_proj, v 3.0.1", RELEASE)
    assert got == [("get_release", {"package": "my_version_proj", "version": "3.0.1"})]  # a version names no package


def test_a_dotted_date_ending_a_sentence_is_a_date():
    got, _ = calls("Forecast for Oslo on 2031.5.17. Thanks!", DAY_FORECAST)
    assert got == [("city_forecast", {"city": "Oslo", "day": "2031-05-17"})]


def test_a_mistyped_date_no_argument_takes_holds_the_call_back():
    # "20031-05-17" / "2031-0517": figures the user stated for the day; sending no day would drop them
    for text in ("Forecast for Oslo on 20031-05-17?", "Forecast for Oslo on 2031-0517?"):
        got, d = calls(text, DAY_FORECAST)
        assert got == [] and d.confidence.unused and not d.confidence.sure
