"""Kinds of wrong calls the mock made on real users' requests (issue 13), each fixed as a kind.

Small tools of the course's own; each test names the kind it covers (a yes/no flag written as string options).
"""
from __future__ import annotations

from course_lib.mock_llm import MockLLM


def obj(required=(), **props):
    return {"type": "object", "properties": props, "required": list(required)}


def tool(name, description, parameters):
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


def calls(text, *tools):
    decision = MockLLM().explain([{"role": "user", "content": text}], list(tools))
    return [(c.name, c.arguments) for c in decision.tool_calls], decision


FLAG = {"type": "string", "enum": ["True", "False", "dontcare"], "default": "dontcare"}
CABINS = tool("find_cabin", "Find a cabin to rent near a town",
              obj(["town"], town={"type": "string", "description": "The town"},
                  has_sauna=dict(FLAG, description="Whether the cabin must have a sauna"),
                  pets_allowed=dict(FLAG, description="Whether pets may stay")))


def test_a_flag_written_as_true_false_options_is_read_like_a_boolean():
    got, _ = calls("Find me a cabin near Bergen with a sauna", CABINS)
    assert got == [("find_cabin", {"town": "Bergen", "has_sauna": "True"})]
    got, _ = calls("Find me a cabin near Bergen, no sauna please, and pets allowed", CABINS)
    assert got == [("find_cabin", {"town": "Bergen", "has_sauna": "False", "pets_allowed": "True"})]
    got, _ = calls("Find me a cabin near Bergen", CABINS)
    assert got == [("find_cabin", {"town": "Bergen"})]          # neither named: left to the default


SHOWS = tool("find_shows", "Find live shows in a city on a date",
             obj(["city", "date"], city={"type": "string", "description": "The city, e.g. Lyon"},
                 date={"type": "string", "description": "The date, YYYY-MM-DD"}))


def test_the_day_the_user_says_they_are_in_is_no_second_date():
    # kind: "today is <date>" with a weekday or without a year was read as a second date (a second call)
    got, _ = calls("Find shows in Lyon this Sunday. Today is Friday 2031-05-09.", SHOWS)
    assert got == [("find_shows", {"city": "Lyon", "date": "2031-05-11"})]
    got, _ = calls("Find shows in Lyon next Saturday? today is 2031-05-10 saturday", SHOWS)
    assert got == [("find_shows", {"city": "Lyon", "date": "2031-05-17"})]
    got, _ = calls("Find shows in Lyon on the 20th of May 2031? today is May 9th", SHOWS)
    assert got == [("find_shows", {"city": "Lyon", "date": "2031-05-20"})]


def test_a_date_of_next_year_counts_from_the_year_the_user_is_in():
    got, _ = calls("Find shows in Lyon on February 2nd of next year. today is 2031.10.1", SHOWS)
    assert got == [("find_shows", {"city": "Lyon", "date": "2032-02-02"})]
    got, _ = calls("Find shows in Lyon on March 3rd last year? today is 2031.10.1", SHOWS)
    assert got == [("find_shows", {"city": "Lyon", "date": "2030-03-03"})]


SONGS = tool("lookup_songs", "Look up songs by album and genre",
             obj([], album={"type": "string", "description": "The album's title"},
                 genre={"type": "string", "enum": ["Jazz", "Funk", "Rock"]}))


def test_a_request_verb_opening_a_sentence_is_no_second_value():
    # kind: "..., Find a selection" read "Find" as a second album (a second call of the same tool)
    got, _ = calls("I'd like some Jazz from the Kind of Blue album, Find a few tracks for me?", SONGS)
    assert got == [("lookup_songs", {"album": "Kind of Blue", "genre": "Jazz"})]
    got, _ = calls("Some Funk music from the Isolation album, Find a selection of tracks for me?", SONGS)
    assert got == [("lookup_songs", {"album": "Isolation", "genre": "Funk"})]


PLAYS = tool("find_plays", "Find stage plays by director and cast",
             obj([], directed_by={"type": "string", "description": "The director of the play"},
                 cast={"type": "string", "description": "An actor in the cast of the play"}))


def test_a_name_followed_by_in_the_role_noun_takes_that_role():
    # kind: "has Y in the cast" read Y as a second director (a second call) instead of the cast
    got, _ = calls("Find me a play directed by Ada Brook and has Noor Vale in the cast", PLAYS)
    assert got == [("find_plays", {"directed_by": "Ada Brook", "cast": "Noor Vale"})]
    got, _ = calls("Find me a play directed by Ada Brook", PLAYS)
    assert got == [("find_plays", {"directed_by": "Ada Brook"})]


BIKES = tool("rent_bike", "Rent a bike for a span of days",
             obj(["start_date", "end_date"], start_date={"type": "string", "description": "First day, YYYY-MM-DD"},
                 pickup_time={"type": "string", "description": "Pick-up time, HH:MM"},
                 end_date={"type": "string", "description": "Last day, YYYY-MM-DD"}))


def test_the_end_of_a_span_after_until_is_no_start():
    # kind: "from A, starting at 10:00 until B" gave B to the start ("starting" three words left of it)
    got, _ = calls("Rent a bike from May 3, starting at 9:00 AM until May 8, 2031", BIKES)
    assert got == [("rent_bike", {"start_date": "2031-05-03", "pickup_time": "09:00", "end_date": "2031-05-08"})]
