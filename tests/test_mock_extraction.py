"""Each kind of phrase the mock reads into an argument, with its right value (English and Chinese).

Written for the course in its own words (no benchmark item): one small schema per kind, so
a failure names the kind that broke.
"""
from __future__ import annotations

import json

import pytest

from course_lib.mock_llm import MockLLM
from course_lib.mock_llm.arguments import fill_arguments
from course_lib.mock_llm.reading import read


def obj(required=(), **props):
    return {"type": "object", "properties": props, "required": list(required)}


INT = {"type": "integer"}
NUM = {"type": "number"}
STR = {"type": "string"}


@pytest.mark.parametrize("schema, text, expected", [
    # number words, negative and decimal numbers
    (obj(["servings"], servings={"type": "integer", "description": "How many people to cook for"}),
     "Scale the soup recipe for twelve people", {"servings": 12}),
    (obj(["count"], count={"type": "integer", "description": "Number of dice to roll"}),
     "Roll twenty five dice", {"count": 25}),
    (obj(["offset"], offset={"type": "number", "description": "Temperature offset in degrees"}),
     "Shift the reading by -3.5 degrees", {"offset": -3.5}),
    # units and currency stripped, the number kept; the unit picks the parameter
    (obj(["distance", "time"], distance={"type": "number", "description": "Distance in meters"},
         time={"type": "number", "description": "Time in seconds"}),
     "A runner covers 400 meters in 52.3 seconds", {"distance": 400, "time": 52.3}),
    (obj(["price"], price={"type": "number", "description": "Price of the bike"}),
     "Insure my bike worth $1,250", {"price": 1250}),
    (obj(["budget"], budget={"type": "integer", "description": "Budget in dollars"}),
     "Plan a party with a budget of $2k", {"budget": 2000}),
    # percent: a fraction unless the description asks for a percentage
    (obj(["rate"], rate={"type": "number", "description": "Annual rate as a decimal"}),
     "Grow 800 at 4% a year", {"rate": 0.04}),
    (obj(["tip"], tip={"type": "number", "description": "Tip as a percentage of the bill"}),
     "Add a 15% tip", {"tip": 15}),
    # named numbers
    (obj(["a", "b"], a=INT, b=INT), "Add b = 7 to a = 2", {"a": 2, "b": 7}),
    # ranges
    (obj(["bounds"], bounds={"type": "array", "items": NUM, "description": "Lower and upper bound"}),
     "Integrate sin(x) from 0 to 2", {"bounds": [0.0, 2.0]}),
    # lists
    (obj(["values"], values={"type": "array", "items": INT, "description": "The numbers to add up"}),
     "Add up 4, 8 and 15", {"values": [4, 8, 15]}),
    (obj(["toppings"], toppings={"type": "array", "items": STR, "description": "Pizza toppings"}),
     "Order a pizza with 'olives', 'basil' and 'mushrooms'", {"toppings": ["olives", "basil", "mushrooms"]}),
    # quoted strings
    (obj(["title"], title={"type": "string", "description": "Title of the note"}),
     'Create a note called "Groceries for Sunday"', {"title": "Groceries for Sunday"}),
    # dates in the format the description asks
    (obj(["day"], day={"type": "string", "description": "Date, YYYY-MM-DD"}),
     "Book the meeting room on March 3rd 2027", {"day": "2027-03-03"}),
    (obj(["due"], due={"type": "string", "description": "Due date in MM-DD-YYYY format"}),
     "The invoice is due 14 February 2026", {"due": "02-14-2026"}),
    # enum synonyms and case
    (obj(["order"], order={"type": "string", "enum": ["asc", "desc"]}),
     "List the files, largest first", {"order": "desc"}),
    (obj(["unit"], unit={"type": "string", "enum": ["celsius", "fahrenheit"]}),
     "Show it in Fahrenheit", {"unit": "fahrenheit"}),
    # booleans from phrasing
    (obj(["path"], path={"type": "string", "description": "File path"}, recursive={"type": "boolean"}),
     "Delete reports/old.csv recursively", {"path": "reports/old.csv", "recursive": True}),
    (obj(["query"], query={"type": "string"}, include_archived={"type": "boolean"}),
     "Search for budget without archived items", {"query": "budget without archived items",
                                                  "include_archived": False}),
    # nested objects
    (obj(["box"], box=obj(["width", "height"], width={"type": "integer", "description": "width in cm"},
                           height={"type": "integer", "description": "height in cm"})),
     "Ship a box with width 30 and height 20", {"box": {"width": 30, "height": 20}}),
    # optionals with a default are left out when not mentioned
    (obj(["city"], city={"type": "string", "description": "City"},
         days={"type": "integer", "default": 1, "description": "Forecast days"}),
     "Forecast for Lisbon", {"city": "Lisbon"}),
    # places: from/to roles, "City, ST" when the description asks for it
    (obj(["origin", "destination"], origin={"type": "string", "description": "Departure city"},
         destination={"type": "string", "description": "Arrival city"}),
     "Train from Vienna to Prague", {"origin": "Vienna", "destination": "Prague"}),
    (obj(["location"], location={"type": "string", "description": "The city and state, e.g. Austin, TX"}),
     "Coffee shops in Seattle", {"location": "Seattle, WA"}),
    # frequency words, the state of a named city, a date with the year first, possessives, ranges to pairs
    (obj(["principal", "n"], principal={"type": "number", "description": "Amount invested"},
         n={"type": "integer", "description": "Times interest is compounded per year"}),
     "Grow $900 compounded monthly", {"principal": 900, "n": 12}),
    (obj(["city", "state"], city={"type": "string", "description": "City"},
         state={"type": "string", "description": "Two-letter state code, e.g. NY"}),
     "Parking fines in Denver", {"city": "Denver", "state": "CO"}),
    (obj(["start", "end"], start={"type": "string", "description": "First night, YYYY-MM-DD"},
         end={"type": "string", "description": "Last night, YYYY-MM-DD"}),
     "A cabin from 2027 June 2nd to June 9th", {"start": "2027-06-02", "end": "2027-06-09"}),
    (obj(["player"], player={"type": "string", "description": "Player name"}),
     "Show Maradona's goals", {"player": "Maradona"}),
    (obj(["first_year", "last_year"], first_year=INT, last_year=INT),
     "Count the floods between 1990 and 2005", {"first_year": 1990, "last_year": 2005}),
    # currencies by name, code or sign, from/to
    (obj(["amount", "from_currency", "to_currency"], amount=NUM, from_currency={"type": "string", "description": "Currency to convert from"},
         to_currency={"type": "string", "description": "Currency to convert to"}),
     "Change 80 pounds into Japanese yen", {"amount": 80, "from_currency": "GBP", "to_currency": "JPY"}),
    (obj(["amount", "from_currency", "to_currency"], amount=NUM, from_currency={"type": "string", "description": "源货币"},
         to_currency={"type": "string", "description": "目标货币"}),
     "把100美元换成人民币", {"amount": 100, "from_currency": "USD", "to_currency": "CNY"}),
    # Chinese: numerals, cities, quoted text, mixed language
    (obj(["city", "days"], city={"type": "string", "description": "城市"}, days={"type": "integer"}),
     "查一下北京未来三天的天气", {"city": "北京", "days": 3}),
    (obj(["amount"], amount={"type": "integer", "description": "金额"}), "转账两千五百元", {"amount": 2500}),
    (obj(["title"], title={"type": "string", "description": "书名"}), "帮我找《三体》这本书", {"title": "三体"}),
    (obj(["city"], city={"type": "string", "description": "City name"}), "What's the weather in 上海 today?",
     {"city": "上海"}),
])
def test_each_kind_of_phrase_fills_the_right_value(schema, text, expected):
    assert fill_arguments(schema, text).arguments == expected


def test_required_missing_is_reported_optional_missing_is_omitted():
    filled = fill_arguments(obj(["city"], city={"type": "string", "description": "City"},
                                unit={"type": "string", "enum": ["celsius", "fahrenheit"]}), "What's the weather like?")
    assert filled.arguments == {} and filled.missing == ["city"]


def test_reading_lists_typed_mentions_with_spans():
    r = read("Fly from Oslo to Rome on 2026-05-01 for $300")
    kinds = [(m.kind, m.value) for m in r.mentions]
    assert kinds == [("place", "Oslo"), ("place", "Rome"), ("date", (2026, 5, 1)), ("number", 300)]
    assert r.text[r.mentions[0].start:r.mentions[0].end] == "Oslo"


WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "Get the current weather for a city",
    "parameters": obj(["city"], city={"type": "string", "description": "City name"})}}


def _ask(client, messages):
    return client.chat.completions.create(model="m", messages=messages, tools=[WEATHER]).choices[0].message


def test_follow_up_reuses_the_tool_with_the_new_city(client):
    msgs = [{"role": "user", "content": "What's the weather in Paris?"}]
    first = _ask(client, msgs)
    msgs += [first.model_dump(exclude_none=True),
             {"role": "tool", "tool_call_id": first.tool_calls[0].id, "content": '{"temp": 18}'}]
    msgs.append({"role": "assistant", "content": _ask(client, msgs).content})
    msgs.append({"role": "user", "content": "And in Tokyo?"})
    follow = _ask(client, msgs)
    assert [(c.function.name, json.loads(c.function.arguments)) for c in follow.tool_calls] == [
        ("get_weather", {"city": "Tokyo"})]
    msgs[-1] = {"role": "user", "content": "那东京呢？"}
    assert json.loads(_ask(client, msgs).tool_calls[0].function.arguments) == {"city": "东京"}


def test_parallel_calls_from_a_list_and_from_pairs():
    power = {"type": "function", "function": {"name": "power", "description": "Raise a base to an exponent",
                                              "parameters": obj(["base", "exponent"], base=INT, exponent=INT)}}
    fact = {"type": "function", "function": {"name": "factorial", "description": "Factorial of a number",
                                             "parameters": obj(["n"], n=INT)}}
    mock = MockLLM()
    d = mock.explain([{"role": "user", "content": "Factorial of 4, 6 and 9 please"}], [fact])
    assert [c.arguments for c in d.tool_calls] == [{"n": 4}, {"n": 6}, {"n": 9}]
    d = mock.explain([{"role": "user", "content": "Compute the power of (2, 10) and (3, 4)"}], [power])
    assert [c.arguments for c in d.tool_calls] == [{"base": 2, "exponent": 10}, {"base": 3, "exponent": 4}]


def test_explain_shows_scores_and_the_words_behind_each_argument():
    time_tool = {"type": "function", "function": {"name": "get_time", "description": "Current local time in a city",
                                                  "parameters": obj(["city"], city={"type": "string"})}}
    e = MockLLM().explain([{"role": "user", "content": "What's the weather in Oslo?"}], [WEATHER, time_tool])
    assert e.chosen == ["get_weather"]
    assert e.scores["get_weather"] > e.scores["get_time"]
    assert ("get_weather", "city", "'Oslo'", "place", "Oslo") in e.arguments_table()
    text = str(e)
    assert "get_weather" in text and "<- chosen" in text and "city = 'Oslo'" in text


def test_same_request_same_answer_and_ids():
    mock = MockLLM()
    a = mock.client().chat.completions.create(model="m", messages=[{"role": "user", "content": "Weather in Oslo and Rome"}],
                                              tools=[WEATHER])
    b = MockLLM().client().chat.completions.create(model="m", messages=[{"role": "user", "content": "Weather in Oslo and Rome"}],
                                                   tools=[WEATHER])
    assert [(c.id, c.function.arguments) for c in a.choices[0].message.tool_calls] == \
        [(c.id, c.function.arguments) for c in b.choices[0].message.tool_calls]
