"""The kinds of request engine v2 reads like a real tool-calling model, each with its right value.

Written for the course in its own words (no benchmark item): small tools of its own, one
test per kind of phrase or decision, English and Chinese where the kind exists in both.
"""
from __future__ import annotations

import pytest

from course_lib.mock_llm import MockLLM
from course_lib.mock_llm.arguments import fill_arguments
from course_lib.mock_llm.reading import read


def obj(required=(), **props):
    return {"type": "object", "properties": props, "required": list(required)}


def tool(name, description, parameters):
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


S = {"type": "string"}
INT = {"type": "integer"}
NUM = {"type": "number"}


def calls(text, *tools):
    decision = MockLLM().explain([{"role": "user", "content": text}], list(tools))
    return [(c.name, c.arguments) for c in decision.tool_calls], decision


# ------------------------------------------------------------------ ask only when the value is absent
HARDNESS = tool("mineral_hardness", "Look up the Mohs hardness of a mineral",
                obj(["mineral"], mineral={"type": "string", "description": "The mineral to look up"}))


def test_a_required_value_nothing_names_is_read_from_the_request():
    got, _ = calls("How hard is quartz on the Mohs scale?", HARDNESS)
    assert got == [("mineral_hardness", {"mineral": "quartz"})]


def test_a_required_value_that_is_truly_absent_is_asked_for():
    got, decision = calls("How hard is it on the Mohs scale?", HARDNESS)
    assert got == [] and "mineral" in decision.content


def test_a_city_is_never_guessed_from_common_words():
    weather = tool("get_weather", "Get the current weather for a city", obj(["city"], city=S))
    got, decision = calls("What's the weather like today?", weather)
    assert got == [] and "city" in decision.content
    got, _ = calls("今天天气怎么样？", weather)
    assert got == []


def test_a_required_flag_takes_the_default_its_description_states():
    primes = tool("prime_factors", "Prime factors of a number",
                  obj(["number", "as_text"], number=INT,
                      as_text={"type": "boolean", "description": "Return a string if true. Default is true."}))
    got, _ = calls("Prime factors of 360", primes)
    assert got == [("prime_factors", {"number": 360, "as_text": True})]


# ------------------------------------------------------------------ free-text values: which words
def test_a_modifier_of_the_parameters_noun_is_the_value():
    trip = tool("fuel_cost", "Estimate the fuel cost of a trip",
                obj(["engine_type", "km"], engine_type={"type": "string",
                                                        "description": "Engine, e.g. 'petrol', 'diesel' or 'electric'"},
                    km=INT))
    got, _ = calls("Fuel cost of a 300 km trip in a diesel-powered van", trip)
    assert got == [("fuel_cost", {"engine_type": "diesel", "km": 300})]


@pytest.mark.parametrize("schema, text, expected", [
    (obj(["genre", "city"], genre={"type": "string", "description": "Music genre"},
         city={"type": "string", "description": "City"}),
     "Any jazz gigs in Lisbon this weekend?", {"genre": "jazz", "city": "Lisbon"}),
    (obj(["cuisine"], cuisine={"type": "string", "description": "Kind of food"}),
     "Book a table at a good thai place", {"cuisine": "thai"}),
    (obj(["color", "size"], color=S, size=S), "I want the large red umbrella", {"color": "red", "size": "large"}),
])
def test_a_member_of_the_kind_a_parameter_names(schema, text, expected):
    assert fill_arguments(schema, text).arguments == expected


def test_a_title_made_of_x_of_y_stays_whole():
    who = tool("get_proposer", "Who first proposed a scientific idea",
               obj(["idea"], idea={"type": "string", "description": "The idea or discovery"}))
    got, _ = calls("Who first proposed the theory of plate tectonics?", who)
    assert got == [("get_proposer", {"idea": "theory of plate tectonics"})]


def test_a_subject_is_the_words_after_about_not_the_request():
    news = tool("search_cases", "Search court cases", obj(["subject"], subject={"type": "string",
                                                                               "description": "What the case is about"}))
    got, _ = calls("Find a court case about tax evasion", news)
    assert got == [("search_cases", {"subject": "tax evasion"})]


def test_an_optional_value_needs_words_that_point_at_it():
    stats = tool("player_stats", "Career statistics of a player",
                 obj(["player"], player={"type": "string", "description": "Player name"},
                     team={"type": "string", "description": "Team (optional)"}))
    got, _ = calls("Career stats of the hockey player Wayne Gretzky", stats)
    assert got == [("player_stats", {"player": "Wayne Gretzky"})]


def test_the_thing_to_do_is_the_words_after_remind_me_to():
    todo = tool("add_task", "Add a task or a reminder to the to-do list", obj(["title"], title={"type": "string"}))
    got, _ = calls("Add a reminder to water the plants", todo)
    assert got == [("add_task", {"title": "water the plants"})]
    assert fill_arguments(todo["function"]["parameters"], "Remind me to call the bank.").arguments == {
        "title": "call the bank"}


# ------------------------------------------------------------------ names
def test_a_city_followed_by_more_capitalised_words_is_another_name():
    assert [(m.kind, m.value) for m in read("Tickets for Boston Celtics at home").mentions] == [
        ("name", "Boston Celtics")]
    standings = tool("standings", "League standings of a team",
                     obj(["team", "league"], team={"type": "string", "description": "Team name"},
                         league={"type": "string", "description": "League name"}))
    got, _ = calls("Where do Seattle Sounders stand in the Western Conference League?", standings)
    assert got == [("standings", {"team": "Seattle Sounders", "league": "Western Conference League"})]


def test_an_honorific_stays_with_the_name():
    assert [m.value for m in read("Records of Dr. Watson in London").mentions] == ["Dr. Watson", "London"]


# ------------------------------------------------------------------ numbers
@pytest.mark.parametrize("text, values", [
    ("the chance of rolling a five", [5]),
    ("floors 2nd, 5th and 9th", [2, 5, 9]),
    ("she is 5ft 6in tall", [66]),
    ("water the lawn every day for 10 days", [1, 10]),
])
def test_numbers_said_in_words_and_shapes(text, values):
    assert [m.value for m in read(text).of_kind("number")] == values


def test_time_is_converted_to_the_unit_the_parameter_counts_in():
    forecast = obj(["days"], days={"type": "integer", "description": "How far ahead, in days"})
    assert fill_arguments(forecast, "Rain forecast for the next week").arguments == {"days": 7}
    timer = obj(["seconds"], seconds={"type": "integer", "description": "Length in seconds"})
    assert fill_arguments(timer, "Set a timer of 3 minutes").arguments == {"seconds": 180}
    assert fill_arguments(forecast, "未来两周的降雨预报").arguments == {"days": 14}


def test_a_number_named_after_another_variable_still_fills_a_value_slot():
    derivative = obj(["expression", "value"], expression={"type": "string", "description": "The function"},
                     value={"type": "number", "description": "Where to evaluate it"})
    assert fill_arguments(derivative, "Slope of 3x^2 at x = 2").arguments == {"expression": "3x^2", "value": 2}


# ------------------------------------------------------------------ the tool must give what is asked
@pytest.mark.parametrize("text, tools", [
    ("What is the melting point of lead at sea level?",
     [tool("boiling_point", "Boiling point of a substance at a pressure",
           obj(["substance"], substance=S, pressure=NUM))]),
    ("What is the volume of a square tank with a side of 3 m?",
     [tool("square_area", "Area of a square from its side", obj(["side"], side=NUM))]),
    ("Who pays the phone bill in a shared flat?",
     [tool("calculate_phone_bill", "Calculate a phone bill from minutes used", obj(["minutes"], minutes=INT))]),
])
def test_a_tool_that_only_shares_words_is_not_called(text, tools):
    got, decision = calls(text, *tools)
    assert got == [] and "asks" in decision.reason


# ------------------------------------------------------------------ several calls from one request
WEATHER = tool("get_weather", "Get the weather for a city on a date",
               obj(["city"], city={"type": "string", "description": "City"},
                   unit={"type": "string", "enum": ["celsius", "fahrenheit"]}))
PRICE = tool("ticket_price", "Price of a concert ticket",
             obj(["band", "city"], band={"type": "string", "description": "Band name"},
                 city={"type": "string", "description": "City"}))


def test_values_that_alternate_go_together_and_lists_multiply():
    got, _ = calls("Ticket prices for Muse in Paris and for Blur in Berlin", PRICE)
    assert got == [("ticket_price", {"band": "Muse", "city": "Paris"}), ("ticket_price", {"band": "Blur", "city": "Berlin"})]
    got, _ = calls("Ticket prices for Muse and Blur in Paris and Berlin", PRICE)
    assert sorted(map(str, got)) == sorted(map(str, [
        ("ticket_price", {"band": b, "city": c}) for b in ("Muse", "Blur") for c in ("Paris", "Berlin")]))


def test_respectively_pairs_the_lists():
    got, _ = calls("Ticket prices for Muse and Blur in Paris and Berlin respectively", PRICE)
    assert got == [("ticket_price", {"band": "Muse", "city": "Paris"}), ("ticket_price", {"band": "Blur", "city": "Berlin"})]


def test_each_sentence_its_own_call_with_shared_details_inherited():
    loan = tool("monthly_payment", "Monthly payment of a loan",
                obj(["amount", "years", "rate"], amount={"type": "number", "description": "Loan amount"},
                    years={"type": "integer", "description": "Term in years"},
                    rate={"type": "number", "description": "Annual interest rate as a decimal"}))
    got, _ = calls("What is the monthly payment on $200,000 over 30 years at 4%? Then do the same for 15 years.", loan)
    assert got == [("monthly_payment", {"amount": 200000, "years": 30, "rate": 0.04}),
                   ("monthly_payment", {"amount": 200000, "years": 15, "rate": 0.04})]


def test_options_named_side_by_side_each_get_a_call():
    sort = tool("sort_list", "Sort a list of numbers",
                obj(["items", "order"], items={"type": "array", "items": INT},
                    order={"type": "string", "enum": ["ascending", "descending"]}))
    got, _ = calls("Sort [3, 1, 2] in both ascending and descending order", sort)
    assert got == [("sort_list", {"items": [3, 1, 2], "order": "ascending"}),
                   ("sort_list", {"items": [3, 1, 2], "order": "descending"})]


def test_several_bracketed_lists_for_one_list_parameter():
    mean = tool("mean", "Mean of numbers", obj(["numbers"], numbers={"type": "array", "items": NUM}))
    got, _ = calls("Give me the mean of [1, 2, 3] and of [10, 20]", mean)
    assert got == [("mean", {"numbers": [1, 2, 3]}), ("mean", {"numbers": [10, 20]})]


def test_chinese_lists_spread_into_calls():
    got, _ = calls("查一下北京、上海和东京的天气", WEATHER)
    assert got == [("get_weather", {"city": c}) for c in ("北京", "上海", "东京")]


# ------------------------------------------------------------------ the answer after a fallback
def _fallback_answer(question, query="tides"):
    from course_lib.mock_llm.wire import parse_chat_request
    from course_lib.mock_llm.engine import decide

    search = tool("web_search", "Search the web", obj(["query"], query=S))
    other = tool("news_search", "Search the web through the news index", obj(["query"], query=S))
    messages = [{"role": "user", "content": question},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "web_search", "arguments": f'{{"query": "{query}"}}'}}]},
                {"role": "tool", "tool_call_id": "c1", "content": '{"error": "backend unreachable"}'},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c2", "type": "function", "function": {"name": "news_search", "arguments": f'{{"query": "{query}"}}'}}]},
                {"role": "tool", "tool_call_id": "c2", "content": '["Spring tides explained"]'}]
    return decide(parse_chat_request({"model": "m", "messages": messages, "tools": [search, other]}))


def test_after_a_fallback_worked_the_answer_says_what_happened():
    d = _fallback_answer("Search the web for tides")
    assert d.tool_calls == []  # no third tool is tried once the fallback worked
    assert d.content == ("web_search did not work (backend unreachable), so I used news_search instead. "
                         "tides: 1 result: Spring tides explained.")
    d = _fallback_answer("在网上搜索潮汐", "潮汐")
    assert d.content == "web_search 调用失败（backend unreachable），我改用了 news_search：潮汐：共 1 条结果：Spring tides explained。"


# ------------------------------------------------------------------ engine-values: kinds fixed in this pass
KILN = tool("kiln_firing_time", "Estimate how long a kiln takes to reach a target temperature",
            obj(["start_temp", "target_temp"],
                start_temp={"type": "integer", "description": "Starting temperature in Kelvin"},
                target_temp={"type": "integer", "description": "Target temperature in Kelvin"}))


@pytest.mark.parametrize("text", ["How long does the kiln take to heat from 290K to 1500K?",
                                  "Kiln firing: start temperature 290 K, target temperature 1500 K"])
def test_a_capital_k_after_a_temperature_is_kelvin_not_thousands(text):
    got, _ = calls(text, KILN)
    assert got == [("kiln_firing_time", {"start_temp": 290, "target_temp": 1500})]


def test_a_capital_k_elsewhere_is_still_thousands():
    budget = tool("plan_budget", "Plan a yearly household budget", obj(["income"], income=INT))
    got, _ = calls("Plan a budget for an income of 85K", budget)
    assert got == [("plan_budget", {"income": 85000})]


def test_numbered_parameter_names_still_say_what_they_measure():
    mix = tool("mix_water", "Final temperature of two amounts of water poured together",
               obj(["volume1", "temperature1", "volume2", "temperature2"], volume1=NUM, temperature1=NUM,
                   volume2=NUM, temperature2=NUM))
    got, _ = calls("What is the final temperature when 2 liters of water at 20 degrees Celsius are poured into "
                   "3 liters at 80 degrees Celsius?", mix)
    assert got == [("mix_water", {"volume1": 2, "temperature1": 20, "volume2": 3, "temperature2": 80})]


def test_a_numbers_own_noun_names_its_argument():
    rent = tool("rent_quote", "Quote the rent of a flat for a stay", obj(
        ["nights", "guests"], nights={"type": "integer", "description": "The length of the stay in nights."},
        guests={"type": "integer", "description": "How many guests."}))
    for text in ("Quote the rent for 3 guests for 5 nights", "Quote the rent for 5 nights for 3 guests"):
        got, _ = calls(text, rent)
        assert got == [("rent_quote", {"nights": 5, "guests": 3})], text


def test_a_required_value_is_taken_back_from_an_optional_argument():
    savings = tool("savings", "Savings with interest over time", obj(
        ["deposit", "rate", "time"], deposit=INT, rate=NUM,
        time={"type": "integer", "description": "The time, in years, the money is saved for."},
        credits_per_year={"type": "integer", "description": "The number of times interest is credited per year. "
                                                           "Default is 1 (credited yearly)."}))
    got, _ = calls("Savings of $3,000 at a rate of 4% credited yearly for 6 years.", savings)
    assert got[0][1]["time"] == 6 and got[0][1]["deposit"] == 3000 and got[0][1]["rate"] == 0.04
    assert got[0][1].get("credits_per_year", 1) == 1


def test_a_quoted_sentence_keeps_its_apostrophes_and_goes_to_the_text_argument():
    tone = tool("detect_tone", "Detect the tone of a piece of writing", obj(
        ["text", "language"], text={"type": "string", "description": "The writing to look at"},
        language={"type": "string", "description": "The language the writing is in"}))
    got, _ = calls("Detect the tone of this tweet 'Can't wait for the weekend! It's going to be great.'", tone)
    assert got == [("detect_tone", {"text": "Can't wait for the weekend! It's going to be great.",
                                    "language": "English"})]
    got, _ = calls("Detect the tone of 'I am so tired of this' written in French", tone)
    assert got == [("detect_tone", {"text": "I am so tired of this", "language": "French"})]


def test_a_required_language_nobody_names_is_the_language_of_the_request():
    tone = tool("detect_tone", "分析一段文字的语气 (detect the tone of a piece of writing)", obj(
        ["text", "language"], text=S, language={"type": "string", "description": "The language of the text"}))
    got, _ = calls("帮我分析这句话的语气：“今天真是太好了”", tone)
    assert got == [("detect_tone", {"text": "今天真是太好了", "language": "Chinese"})]


CONVERT_MONEY = tool("money_convert", "Convert an amount between two currencies at today's rate", obj(
    ["amount", "source", "target"], amount=NUM,
    source={"type": "string", "description": "Currency code converted from"},
    target={"type": "string", "description": "Currency code converted to"}))
KITCHEN = tool("kitchen_units_convert", "Convert kitchen measures from one unit to another", obj(
    ["amount", "from_unit", "to_unit"], amount=NUM,
    from_unit={"type": "string", "description": "Unit converted from, e.g. 'cup', 'gram', 'ounce'"},
    to_unit={"type": "string", "description": "Unit converted to, e.g. 'cup', 'gram', 'ounce'"}))


@pytest.mark.parametrize("text", ["How many euros would I get for 250 Swiss francs?",
                                  "How much is 250 CHF in euros?", "I have 250 Swiss francs. How much is that in EUR?"])
def test_a_conversion_asked_without_the_word_convert(text):
    got, _ = calls(text, CONVERT_MONEY)
    assert got == [("money_convert", {"amount": 250, "source": "CHF", "target": "EUR"})]


def test_a_unit_conversion_asked_as_how_many_in():
    got, _ = calls("How many grams are in 3 cups of flour?", KITCHEN)
    assert got == [("kitchen_units_convert", {"amount": 3, "from_unit": "cup", "to_unit": "gram"})]
    got, _ = calls("How many ounces in 4 pounds of sugar?", KITCHEN)
    assert got == [("kitchen_units_convert", {"amount": 4, "from_unit": "pounds", "to_unit": "ounce"})]


def test_pounds_that_weigh_are_not_sterling():
    mentions = [(m.kind, m.value, m.dim) for m in read("a ten pound bag of flour and 2 pounds of butter").mentions
                if m.kind in ("number", "currency")]
    assert mentions == [("number", 10, "mass"), ("number", 2, "mass")]
    assert [(m.kind, m.value) for m in read("I paid 20 pounds for it").mentions] == [
        ("number", 20), ("currency", "GBP")]


def test_no_conversion_is_read_into_a_plain_how_many_question():
    got, decision = calls("How many miles did I run in 2 hours?", KITCHEN)
    assert got == [] and decision.content


def test_a_value_is_written_the_way_the_description_writes_its_examples():
    route = tool("route_length", "Length of a driving route", obj(
        ["origin", "destination"], origin=S, destination=S,
        units={"type": "string", "description": "Units of the result: 'miles' or 'kilometers'"}))
    got, _ = calls("How long is the drive from Boston to Chicago in mile?", route)
    assert got == [("route_length", {"origin": "Boston", "destination": "Chicago", "units": "miles"})]


def test_how_many_things_to_return_fills_a_count_argument():
    trails = tool("trail_finder", "Find hiking trails in a region", obj(
        ["region", "num_results"], region=S,
        num_results={"type": "integer", "description": "How many trails to return. Default is 5."},
        ))
    got, _ = calls("What are the top four trails in Yosemite?", trails)
    assert got == [("trail_finder", {"region": "Yosemite", "num_results": 4})]
    events = tool("festival_search", "Search music festivals by country", obj(
        ["country"], country=S, count={"type": "integer", "description": "Number of festivals to return."}))
    got, _ = calls("Find seven big summer festivals in Spain", events)
    assert got == [("festival_search", {"country": "Spain", "count": 7})]


def test_choices_a_description_quotes_side_by_side_are_options():
    clock = tool("world_clock", "Current time in a city", obj(
        ["city"], city=S, display_format={"type": "string", "description": "'12h' or '24h'. Default is '12h'."}))
    got, _ = calls("What time is it in Paris in 24 hour format?", clock)
    assert got == [("world_clock", {"city": "Paris", "display_format": "24h"})]
    roots = tool("polynomial_roots", "Roots of a cubic polynomial", obj(
        ["a", "b", "c", "d"], a=INT, b=INT, c=INT, d=INT,
        kind={"type": "string", "description": "Which roots: 'real' for real roots only, 'all' for complex ones too."}))
    got, _ = calls("Give me all roots of the cubic with a = 1, b = 0, c = -2 and d = 5", roots)
    assert got == [("polynomial_roots", {"a": 1, "b": 0, "c": -2, "d": 5, "kind": "all"})]


def test_examples_in_a_description_are_not_a_closed_list():
    court = tool("court_case_search", "Search court cases by topic and place", obj(
        ["topic", "location"], topic=S, location=S,
        level={"type": "string", "description": "The level of court (e.g. 'federal', 'state')."}))
    got, _ = calls("Find state court cases about water rights in Texas", court)
    assert got[0][1]["topic"] == "water rights" and got[0][1]["location"] == "Texas"


def test_an_enum_of_several_words_matches_their_singular_or_plural():
    archive = tool("archive_lookup", "Look up a person in an archive", obj(
        ["name"], name=S, source={"type": "string", "enum": ["church registers", "census records"]}))
    got, _ = calls("Look up Ada Lovelace in the census record", archive)
    assert got == [("archive_lookup", {"name": "Ada Lovelace", "source": "census records"})]


SHOP = tool("shopping_order", "Order groceries from a shop", obj(
    ["items"], items={"type": "array", "items": {"type": "string"}, "description": "The products to order"}))


@pytest.mark.parametrize("text, items", [
    ("Order groceries: I want to buy bread, cheese, and 6 pack of sparkling water", ["bread", "cheese", "sparkling water"]),
    ("Order groceries: I need crisp, fresh and juicy apples", ["crisp", "fresh", "juicy apples"]),
    ("Order a basket that uses pears and plums", ["pears", "plums"]),
])
def test_list_members_lose_the_words_that_lead_into_them(text, items):
    got, _ = calls(text, SHOP)
    assert got == [("shopping_order", {"items": items})]


def test_a_list_after_a_measure_keeps_only_its_members():
    stores = tool("store_finder", "Find the best shop near a place", obj(
        ["near", "products"], near=S, rating=NUM,
        products={"type": "array", "items": {"type": "string"}, "description": "Products it must sell"}))
    got, _ = calls("Find the shop near Oakland that has at least a 4.5 star rating, selling lamps and also rugs.", stores)
    assert got == [("store_finder", {"near": "Oakland", "rating": 4.5, "products": ["lamps", "rugs"]})]


def test_a_date_is_written_in_the_order_the_description_spells_out():
    for desc, want in [("Day of the visit (month-day-year)", "03-14-2025"), ("Visit date, format DD/MM/YYYY", "14/03/2025"),
                       ("Visit date in the format of MM-DD-YYY", "03-14-2025"), ("Visit date", "2025-03-14")]:
        visit = tool("book_visit", "Book a visit to a garden", obj(["garden", "date"], garden=S,
                                                                  date={"type": "string", "description": desc}))
        got, _ = calls("Book a visit to the Rose Garden on March 14, 2025", visit)
        assert got[0][1]["date"] == want, desc


def test_a_company_is_given_as_its_ticker_when_the_description_asks_for_one():
    quote = tool("share_quote", "Latest share quote", obj(
        ["company"], company={"type": "string", "description": "The ticker symbol of the company"}))
    got, _ = calls("Latest share quote for Microsoft", quote)
    assert got == [("share_quote", {"company": "MSFT"})]


def test_a_city_leaves_its_country_to_the_country_argument():
    clock = tool("local_time", "Current local time", obj(
        ["location", "country"], location={"type": "string", "description": "The name of the city"},
        country={"type": "string", "description": "The name of the country"}))
    got, _ = calls("What's the local time in Madrid, Spain?", clock)
    assert got == [("local_time", {"location": "Madrid", "country": "Spain"})]


def test_an_option_is_chosen_by_the_meaning_its_description_gives():
    forecast = tool("forecast", "Weather forecast for a city", obj(
        ["city"], city=S, units={"type": "string", "description": "'m' for metric, 'i' for imperial. Default 'm'."}))
    got, _ = calls("Forecast for Denver in imperial units", forecast)
    assert got == [("forecast", {"city": "Denver", "units": "i"})]


def test_numbered_arguments_take_their_values_in_the_order_said():
    blend = tool("blend_tea", "Blend two teas", obj(["tea1", "tea2"], tea1={"type": "string", "description": "First tea"},
                                                    tea2={"type": "string", "description": "Second tea"}))
    got, _ = calls("Blend 'Assam' and 'Darjeeling' teas", blend)
    assert got == [("blend_tea", {"tea1": "Assam", "tea2": "Darjeeling"})]
    paint = tool("mix_paint", "Mix two paint colours", obj(["color1", "color2"], color1=S, color2=S))
    got, _ = calls("Mix red and white colors", paint)
    assert got == [("mix_paint", {"color1": "red", "color2": "white"})]


def test_words_an_enum_took_are_no_name_for_another_argument():
    hours = tool("library_hours", "Opening hours of a library", obj(
        ["library_name", "day"], library_name={"type": "string", "description": "The name of the library"},
        day={"type": "string", "enum": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]}))
    got, _ = calls("What are the opening hours of the Boston Public Library on Sunday?", hours)
    assert got == [("library_hours", {"library_name": "Boston Public Library", "day": "Sunday"})]


def test_when_asks_for_a_date_tool():
    dates = tool("historic_date", "Look up the date of a historical happening", obj(
        ["happening"], happening={"type": "string", "description": "What happened"}))
    got, _ = calls("When was the Peace of Westphalia signed?", dates)
    assert got == [("historic_date", {"happening": "Peace of Westphalia"})]
    got, decision = calls("Tell me about the Peace of Westphalia", dates)
    assert got == []


def test_a_name_joined_to_a_place_by_of_is_one_name():
    assert [(m.kind, m.text) for m in read("the signing of the Treaty of Paris").mentions] == [("name", "Treaty of Paris")]
    assert [(m.kind, m.text) for m in read("Weather of Paris today").mentions if m.kind != "date"] == [
        ("place", "Paris")]


def test_a_span_of_time_for_a_text_argument_is_kept_as_said():
    art = tool("painting_search", "Find paintings by place and period", obj(
        ["place", "period"], place=S, period={"type": "string", "description": "The period they were painted in"}))
    got, _ = calls("Find paintings near Vienna painted in the 18th century", art)
    assert got == [("painting_search", {"place": "Vienna", "period": "18th century"})]
    shows = tool("show_listing", "List shows in a city", obj(
        ["city", "date"], city=S, date={"type": "string", "description": "Time frame to list shows for"}))
    got, _ = calls("List the comedy shows in Chicago for next week", shows)
    assert got[0][1]["date"] == "next week"


def test_a_year_before_the_word_season_is_the_season():
    top = tool("top_scorer", "Top scorer of a league", obj(
        ["league", "season"], league=S, season={"type": "string", "description": "The season"}))
    got, _ = calls("Who was the top scorer of league 'Serie A' in 2019 season?", top)
    assert got == [("top_scorer", {"league": "Serie A", "season": "2019"})]


def test_a_hyphenated_word_sets_a_flag_spelled_without_the_hyphen():
    games = tool("board_games", "List board games", obj(["coop"], coop={"type": "boolean",
                                                                       "description": "Co-operative games only"},
                                                       players=INT))
    got, _ = calls("List co-op board games", games)
    assert got == [("board_games", {"coop": True})]


def test_a_clock_time_fills_hour_and_minute_arguments():
    angle = tool("hand_angle", "Angle between the hands of a clock", obj(
        ["hour", "minute"], hour={"type": "integer", "description": "The hour on the clock face"},
        minute={"type": "integer", "description": "The minute"}))
    got, _ = calls("What is the angle between the hands at 9:45 PM?", angle)
    assert got == [("hand_angle", {"hour": 9, "minute": 45})]


def test_a_count_of_what_the_tool_names_is_no_text_value_and_an_optional_with_a_default_yields():
    rhythm = tool("make_rhythm", "Make a rhythm pattern in a key with a number of bars", obj(
        ["key", "bars"], key={"type": "string", "description": "The key of the pattern"},
        bars={"type": "integer", "description": "Number of bars"},
        style={"type": "string", "description": "The style. Default is 'rock'."}))
    got, _ = calls("Make a rhythm pattern in D key with eight bars", rhythm)
    assert got == [("make_rhythm", {"key": "D", "bars": 8})]


def test_words_an_option_took_leave_the_free_text_phrase():
    cook = tool("recipe_finder", "Find a recipe", obj(
        ["dish"], dish={"type": "string", "description": "The dish"},
        diet={"type": "array", "items": {"type": "string", "enum": ["Dairy Free", "Nut Free", "Vegan"]}}))
    got, _ = calls("Find a dairy-free pancake recipe", cook)
    assert got == [("recipe_finder", {"dish": "pancake", "diet": ["Dairy Free"]})]


def test_a_format_pattern_the_request_spells_fills_a_format_argument():
    when = tool("founding_date", "Founding date of a city", obj(
        ["city"], city=S, format={"type": "string", "description": "Output format of the date"}))
    got, _ = calls("When was Rome founded? Give it as DD/MM/YYYY.", when)
    assert got == [("founding_date", {"city": "Rome", "format": "DD/MM/YYYY"})]


def test_a_phrase_keeps_serving_another_argument_after_a_member_of_a_kind_is_read_from_it():
    cook = tool("fetch_recipe", "Fetch the recipe for a dish", obj(
        ["dish_name"], dish_name={"type": "string", "description": "Name of the dish"},
        diet={"type": "string", "description": "Dietary preference, e.g. 'vegan', 'vegetarian'"}))
    got, _ = calls("Fetch the recipe for vegetarian lentil soup with the steps", cook)
    assert got[0][1]["diet"] == "vegetarian" and got[0][1]["dish_name"] in ("lentil soup", "vegetarian lentil soup")


def test_a_people_names_its_country():
    history = tool("history_events", "Key events in the history of a country", obj(
        ["country"], country={"type": "string", "description": "The country"}))
    got, _ = calls("Give me key events in Italian history", history)
    assert got == [("history_events", {"country": "Italy"})]


def test_a_value_the_description_shows_as_an_example_wins_over_stray_capitals():
    guitars = tool("find_guitar", "Find a guitar for sale", obj(
        ["brand"], brand={"type": "string", "description": "The brand of the guitar. Example, 'Gibson'"},
        features={"type": "array", "items": {"type": "string"}}))
    got, _ = calls("Find a Gibson guitar with a B string bender and P90 pickups for sale", guitars)
    assert got[0][1]["brand"] == "Gibson"


def test_a_maker_after_from_fills_a_manufacturer():
    prices = tool("instrument_prices", "Average price of an instrument from a manufacturer", obj(
        ["instrument", "manufacturer"], instrument=S, manufacturer={"type": "string", "description": "The maker"}))
    got, _ = calls("Average price of a cello from Stentor", prices)
    assert got == [("instrument_prices", {"instrument": "cello", "manufacturer": "Stentor"})]


def test_a_member_of_a_kind_keeps_its_version_number():
    games = tool("game_finder", "Find games for a platform", obj(["platform"], platform=S, rating=NUM))
    got, _ = calls("Find games with a rating above 4 compatible with Windows 11", games)
    assert got[0][1]["platform"] == "Windows 11"


def test_paths_and_websites_are_read_whole():
    assert [(m.kind, m.text) for m in read("Load ~/scans/brain_01.nii and compare with example.org data").mentions
            if m.kind == "code"] == [("code", "~/scans/brain_01.nii"), ("code", "example.org")]
    scan = tool("scan_analyze", "Analyze a brain scan", obj(
        ["source"], source={"type": "string", "description": "The path where the scan is stored."}, mode=S))
    got, _ = calls("Analyze the brain scan in ~/scans/brain_01.nii from a fast sequence", scan)
    assert got[0][1]["source"] == "~/scans/brain_01.nii"


def test_a_numbers_unit_word_can_name_its_argument():
    meals = tool("meal_finder", "Find a meal by name and calories", obj(
        ["meal"], meal=S, maxCalories={"type": "integer", "description": "The highest calorie content"}))
    got, _ = calls("Find a meal for chicken curry with less than 700 calories", meals)
    assert got == [("meal_finder", {"meal": "chicken curry", "maxCalories": 700})]


def test_a_member_of_a_kind_is_read_even_where_it_looks_like_a_verb():
    trip = tool("trip_planner", "Plan a trip between two cities", obj(
        ["origin", "destination"], origin=S, destination=S,
        mode={"type": "string", "description": "Mode of transportation"}))
    got, _ = calls("Plan a trip from Lyon to Paris by train", trip)
    assert got == [("trip_planner", {"origin": "Lyon", "destination": "Paris", "mode": "train"})]


def test_a_misspelled_word_still_names_its_argument():
    motion = tool("motion_distance", "Distance covered by an object", obj(
        ["initial_velocity", "time"], initial_velocity=NUM, time=NUM, acceleration=NUM))
    got, _ = calls("Distance covered with an initial velocity of 3 and an accelaration of 2.5 over 4 seconds", motion)
    assert got == [("motion_distance", {"initial_velocity": 3, "acceleration": 2.5, "time": 4})]


def test_of_two_equal_tools_the_one_that_takes_the_date_given_is_chosen():
    latest = tool("fx_latest_rate", "Get the latest exchange rate between two currencies", obj(
        ["base", "quote"], base=S, quote=S))
    dated = tool("fx_rate", "Get the exchange rate between two currencies on a given date", obj(
        ["base", "quote", "date"], base=S, quote=S, date={"type": "string", "description": "The date, YYYY-MM-DD"}))
    got, _ = calls("What was the exchange rate from pounds to yen on March 3, 2021?", latest, dated)
    assert [name for name, _ in got] == ["fx_rate"] and got[0][1]["date"] == "2021-03-03"
    got, _ = calls("What is the exchange rate from pounds to yen?", latest, dated)
    assert [name for name, _ in got] == ["fx_latest_rate"]


def test_a_capitalised_word_that_starts_the_next_sentence_is_no_name():
    assert "Can" not in [m.text for m in read("Book a room in Hotel Rex Rome. Can you check the price?").mentions]


def test_find_out_is_a_verb_not_a_value():
    rewards = tool("game_rewards", "Rewards for playing a game", obj(["game"], game=S, platform=S))
    got, _ = calls("Find out the rewards for playing Minecraft", rewards)
    assert got == [("game_rewards", {"game": "Minecraft"})]


def test_a_travel_mode_is_written_the_way_the_description_lists_the_modes():
    route = tool("route_plan", "Plan a route", obj(["origin", "destination"], origin=S, destination=S, mode={
        "type": "string", "description": "The mode of travel (walk, bike, transit, drive)."}))
    got, _ = calls("Plan a route from Bern to Basel using public transportation", route)
    assert got == [("route_plan", {"origin": "Bern", "destination": "Basel", "mode": "transit"})]


def test_a_city_name_can_be_a_team():
    goals = tool("career_goals", "All-time goals of a player for a team", obj(
        ["player_name", "team_name"], player_name=S, team_name=S))
    got, _ = calls("How many goals has Karim Benzema scored for Madrid?", goals)
    assert got == [("career_goals", {"player_name": "Karim Benzema", "team_name": "Madrid"})]


def test_a_name_whose_head_names_the_argument_keeps_its_head():
    siege = tool("siege_details", "Details of a historical siege", obj(["siege"], siege=S))
    got, _ = calls("Who took part in the Siege of Vienna?", siege)
    assert got == [("siege_details", {"siege": "Siege of Vienna"})]


def test_a_city_and_state_format_keeps_what_the_user_wrote_or_adds_the_state():
    venue = tool("find_gig", "Find a gig in a city", obj(["location"], location={
        "type": "string", "description": "The city. In the format City, State."}))
    got, _ = calls("Find a gig in Denver", venue)
    assert got[0][1]["location"] in ("Denver, CO", "Denver, Colorado")
    got, _ = calls("Find a gig in Austin, TX", venue)
    assert got[0][1]["location"] == "Austin, TX"


def test_an_owners_name_before_the_arguments_noun_fills_it():
    rank = tool("squad_ranking", "World ranking of a national squad", obj(
        ["team_name", "year"], team_name={"type": "string", "description": "The name of the team"}, year=INT))
    got, _ = calls("What was the world ranking of Brazil's women football team in 2019?", rank)
    assert got == [("squad_ranking", {"team_name": "Brazil", "year": 2019})]
    art = tool("artwork_price", "Price of an artwork", obj(["artwork_name", "artist"], artwork_name=S, artist=S))
    got, _ = calls("Find the price of Monet's painting 'Water Lilies'", art)
    assert got == [("artwork_price", {"artwork_name": "Water Lilies", "artist": "Monet"})]


def test_options_named_as_identifiers_in_the_description():
    deck = tool("card_odds", "Odds of drawing a suit", obj(["suit", "deck_type"], suit=S, deck_type={
        "type": "string", "description": "Type of deck: standard deck has 52 cards, with_jokers deck has 54.",
        "default": "standard"}))
    # (the suit quoted: "drawing a spade" gave suit "drawing", a verb the confidence now holds back)
    got, _ = calls("What are the odds of drawing the suit 'spades' from a deck with jokers?", deck)
    assert got[0][1] == {"suit": "spades", "deck_type": "with_jokers"}


def test_an_x_of_y_name_is_kept_whole_when_its_head_names_the_argument():
    who = tool("who_discovered", "The scientist credited for a discovery or law", obj(
        ["discovery"], discovery={"type": "string", "description": "The scientific discovery or law."}))
    got, _ = calls("Which scientist is credited for the law of universal gravitation?", who)
    assert got == [("who_discovered", {"discovery": "law of universal gravitation"})]


def test_a_flag_word_before_a_phrase_is_no_noun_of_the_tool():
    brands = tool("best_brands", "Top brands for a product", obj(
        ["product"], product=S, organic={"type": "boolean", "description": "Organic only"}))
    got, _ = calls("Find the best organic apples brands", brands)
    assert got == [("best_brands", {"product": "apples", "organic": True})]


def test_a_word_is_written_in_the_number_the_default_uses():
    top = tool("top_athlete", "Top ranked athlete of a sport", obj(
        ["sport"], sport=S, gender={"type": "string", "description": "Gender category", "default": "men"}))
    got, _ = calls("Who is the top ranked athlete in woman golf?", top)
    assert got == [("top_athlete", {"sport": "golf", "gender": "women"})]


def test_what_the_request_asks_for_fills_a_detail_argument():
    statue = tool("statue_details", "Details of a statue", obj(
        ["title"], title=S, detail={"type": "string", "description": "Which detail. Default is 'general'."}))
    got, _ = calls("Find the height of the statue with title 'The Thinker'", statue)
    assert got == [("statue_details", {"title": "The Thinker", "detail": "height"})]


def test_a_unit_the_description_names_points_at_its_argument():
    song = tool("compose_song", "Compose a song", obj(
        ["bars", "tempo"], bars={"type": "integer", "description": "The number of measures in the song."},
        tempo={"type": "integer", "description": "The tempo in beats per minute."}))
    got, _ = calls("Compose a song, 32 measures long, at 90 beats per minute.", song)
    assert got == [("compose_song", {"bars": 32, "tempo": 90})]


def test_a_measure_is_no_key_or_id():
    scale = tool("scale_builder", "Build a scale progression in a key with a tempo", obj(
        ["key", "tempo"], key={"type": "string", "description": "The musical key"},
        tempo={"type": "integer", "description": "The tempo in BPM."}))
    got, _ = calls("Build a scale progression in key of D with tempo 100 BPM", scale)
    assert got == [("scale_builder", {"key": "D", "tempo": 100})]


def test_values_said_in_the_order_their_names_were():
    box = tool("box_area", "Area of a rectangle", obj(["width", "length"], width=INT, length=INT))
    got, _ = calls("Area of a rectangle given its length and width as 9cm and 4cm", box)
    assert got == [("box_area", {"length": 9, "width": 4})]


def test_a_by_b_gives_the_first_extent_first():
    wall = tool("tiles_needed", "Tiles needed to cover a wall", obj(
        ["tile_area", "length", "height"], tile_area=INT, length=INT, height=INT))
    got, _ = calls("How many tiles for a wall of 14 feet by 8 feet with tiles covering 2 square feet each?", wall)
    assert got[0][1]["length"] == 14 and got[0][1]["height"] == 8


@pytest.mark.parametrize("text, key", [("What key signature does F# minor have?", "F#"),
                                       ("What is the key signature of B flat major?", "Bb"),
                                       ("Key signature for D sharp minor, please", "D#")])
def test_a_musical_key_keeps_its_accidental(text, key):
    sig = tool("key_signature", "Key signature of a musical key", obj(
        ["key"], key={"type": "string", "description": "The musical key, e.g. 'C'"},
        mode={"type": "string", "description": "major or minor. Default 'major'."}))
    got, _ = calls(text, sig)
    assert got[0][1]["key"] == key


def test_a_scale_argument_keeps_its_mode():
    mix = tool("mix_track", "Create a mix track from a scale", obj(
        ["scale"], scale={"type": "string", "description": "The musical scale"}))
    got, _ = calls("Create a mix track using notes of the G minor scale", mix)
    assert got == [("mix_track", {"scale": "G Minor"})]


def test_an_end_date_is_the_start_plus_the_stay():
    inn = tool("inn_booking", "Book a room at an inn", obj(
        ["inn", "start_date", "end_date"], inn=S, start_date={"type": "string", "description": "YYYY-MM-DD"},
        end_date={"type": "string", "description": "YYYY-MM-DD"}))
    got, _ = calls("Book a room at the Swan Inn for 4 nights starting from 28th February 2024", inn)
    assert got == [("inn_booking", {"inn": "Swan Inn", "start_date": "2024-02-28", "end_date": "2024-03-03"})]


def test_the_single_best_thing_asked_for_is_a_count_of_one():
    cafes = tool("top_cafes", "Find the top rated cafes in a city", obj(
        ["city"], city=S, top_n={"type": "integer", "description": "How many cafes. Default is 5"}))
    got, _ = calls("Find the best rated cafe in Lisbon", cafes)
    assert got == [("top_cafes", {"city": "Lisbon", "top_n": 1})]
    got, _ = calls("Find the best rated cafes in Lisbon", cafes)
    assert got == [("top_cafes", {"city": "Lisbon"})]
