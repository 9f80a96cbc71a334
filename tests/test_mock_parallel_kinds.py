"""How the mock splits one request into several calls of one tool, kind by kind.

Written for the course in its own words (no benchmark item), with small tools of its own:
each test names a kind of phrasing that asks for parallel calls ("A in X and B in Y",
"the first ... the second ...", "respectively", "what if ... instead") and asserts the
exact calls a tool-calling model would make.
"""
from __future__ import annotations

from course_lib.mock_llm import MockLLM


def obj(required=(), **props):
    return {"type": "object", "properties": props, "required": list(required)}


def tool(name, description, parameters):
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


def calls(text, *tools):
    decision = MockLLM().explain([{"role": "user", "content": text}], list(tools))
    return [(c.name, c.arguments) for c in decision.tool_calls]


def s(description):
    return {"type": "string", "description": description}


TAX = tool("income_tax", "Compute the income tax owed in a US state",
           obj(["salary", "bonus", "state"], salary={"type": "number", "description": "Yearly salary in dollars"},
               bonus={"type": "number", "description": "Yearly bonus in dollars"}, state=s("US state")))
ROOMS = tool("check_room", "Check whether a hotel has free rooms for some dates",
             obj(["hotel", "city", "arrive", "leave"], hotel=s("Hotel name"), city=s("City"),
                 arrive=s("Arrival date, YYYY-MM-DD"), leave=s("Departure date, YYYY-MM-DD")))
HOUSE = tool("house_value", "Estimate the market value of a house",
             obj(["size", "city"], size={"type": "integer", "description": "Size in square feet"},
                 city=s("City of the house")))


# ------------------------------------------------------------------ values that travel with each subject
def test_a_value_said_once_per_subject_goes_with_its_subject():
    # the amounts spread over two calls; the states, not coordinated, alternate with them
    got = calls("Compute the tax on a salary of $40000 and a bonus of $5000 in the state of Texas, "
                "and a salary of $52000 and a bonus of $8000 in Ohio.", TAX)
    assert got == [("income_tax", {"salary": 40000, "bonus": 5000, "state": "Texas"}),
                   ("income_tax", {"salary": 52000, "bonus": 8000, "state": "Ohio"})]


def test_several_dates_per_subject_are_taken_in_turn():
    got = calls("Check rooms at 'Harbor Inn' in Lisbon from June 3, 2025 to June 6, 2025 and at "
                "'Old Mill' in Porto from July 1, 2025 to July 4, 2025.", ROOMS)
    assert got == [
        ("check_room", {"hotel": "Harbor Inn", "city": "Lisbon", "arrive": "2025-06-03", "leave": "2025-06-06"}),
        ("check_room", {"hotel": "Old Mill", "city": "Porto", "arrive": "2025-07-01", "leave": "2025-07-04"})]


def test_an_abbreviation_dot_does_not_end_the_clause():
    # "sq ft. in Denver": the dot of an abbreviation followed by a lower-case word is no sentence end
    got = calls("Estimate the value of a house of 1200 sq ft. in Denver and 1500 sq ft. in Boston.", HOUSE)
    assert got == [("house_value", {"size": 1200, "city": "Denver"}),
                   ("house_value", {"size": 1500, "city": "Boston"})]


# ------------------------------------------------------------------ clauses that ask no new call
PACE = tool("running_pace", "Compute the average running pace of a run",
            obj(["distance", "minutes"], distance={"type": "number", "description": "Distance run in km"},
                minutes={"type": "integer", "description": "Time taken in minutes"},
                unit=s("Unit of the pace, e.g. min/km")))
ORDER = tool("order_details", "Look up an order of a shop",
             obj(["order_id", "shop"], order_id=s("The order id"), shop=s("The shop that took the order"),
                 with_invoice={"type": "boolean", "description": "Include the invoice"}))
FIT = tool("fit_tree", "Fit a decision tree on a data set",
           obj(["data", "depth"], data=s("Name of the data set"),
               depth={"type": "integer", "description": "Maximum depth"}))


def test_a_question_about_each_of_the_calls_so_far_only_adds_details():
    got = calls("On Monday I ran 10 km in 50 minutes. On Tuesday I ran 12 km in 66 minutes. "
                "What was my pace for each day in min/km?", PACE)
    assert got == [("running_pace", {"distance": 10, "minutes": 50, "unit": "min/km"}),
                   ("running_pace", {"distance": 12, "minutes": 66, "unit": "min/km"})]


def test_a_clause_that_corrects_an_inherited_detail_asks_no_new_call():
    # the second order inherits "with its invoice" from the first until the last clause says otherwise
    got = calls("Look up order 'A-100' from the 'North' shop with its invoice. The second is order 'B-200' "
                "from the 'South' shop. I don't need the invoice for this one.", ORDER)
    assert got == [("order_details", {"order_id": "A-100", "shop": "North", "with_invoice": True}),
                   ("order_details", {"order_id": "B-200", "shop": "South", "with_invoice": False})]


def test_a_what_if_clause_is_a_new_call_even_when_it_changes_an_inherited_value():
    payout = tool("dividend_per_share", "Compute the dividend per share",
                  obj(["total_payout", "shares"], total_payout={"type": "number", "description": "Total paid, dollars"},
                      shares={"type": "integer", "description": "Number of outstanding shares"}))
    got = calls("We paid $900,000 in dividends and have 300,000 outstanding shares. What if we raise the total "
                "payout to $1,200,000? And what if we also increase our shares to 400,000 while keeping the "
                "payout at $1,200,000?", payout)
    assert sorted(map(str, got)) == sorted(map(str, [
        ("dividend_per_share", {"total_payout": 900000, "shares": 300000}),
        ("dividend_per_share", {"total_payout": 1200000, "shares": 300000}),
        ("dividend_per_share", {"total_payout": 1200000, "shares": 400000})]))


def test_the_tool_s_own_name_in_quotes_is_no_argument_value():
    got = calls("Fit a tree on 'sales_2024' with a depth of 3. Then fit another with a depth of 5. "
                "Use the 'fit_tree' function for this.", FIT)
    assert got == [("fit_tree", {"data": "sales_2024", "depth": 3}),
                   ("fit_tree", {"data": "sales_2024", "depth": 5})]


# ------------------------------------------------------------------ "what if ...", "instead", "how does it compare"
LOAN = tool("loan_payment", "Compute the monthly payment of a loan",
            obj(["amount", "years"], amount={"type": "number", "description": "Loan amount in dollars"},
                years={"type": "integer", "description": "Duration in years"},
                method=s("Amortization method, options: 'annuity', 'linear'. Default is 'annuity'.")))
COMMUTE = tool("commute_time", "Estimate the commute time between two cities",
               obj(["origin", "destination"], origin=s("Start city"), destination=s("End city"),
                   rush_hour={"type": "boolean", "description": "Whether to travel at rush hour. Default is false"}))
RAIN = tool("rainfall_total", "Total rainfall in a city over some days",
            obj(["city", "days"], city=s("The city"), days={"type": "integer", "description": "Number of past days"},
                unit=s("Unit: mm or inches")))


def test_an_option_used_instead_is_a_second_call_with_everything_else_kept():
    got = calls("What is the monthly payment on a $200000 loan over 20 years with the annuity method, and how "
                "would it change if we use the linear method instead?", LOAN)
    assert got == [("loan_payment", {"amount": 200000, "years": 20, "method": "annuity"}),
                   ("loan_payment", {"amount": 200000, "years": 20, "method": "linear"})]


def test_a_what_if_sentence_is_a_second_call():
    got = calls("The loan is $150000 over 15 years. The method is linear. What is the monthly payment? "
                "What if the method is not linear but annuity?", LOAN)
    assert got == [("loan_payment", {"amount": 150000, "years": 15, "method": "linear"}),
                   ("loan_payment", {"amount": 150000, "years": 15, "method": "annuity"})]


def test_a_what_if_that_only_adds_a_detail_is_the_same_call_once_more():
    got = calls("How long is the commute from Boston to Providence, and then what if we travel at rush hour?", COMMUTE)
    assert got == [("commute_time", {"origin": "Boston", "destination": "Providence"}),
                   ("commute_time", {"origin": "Boston", "destination": "Providence", "rush_hour": True})]


def test_how_does_it_compare_asks_the_same_tool_for_the_other_subject():
    got = calls("What was the total rainfall in Seattle over the past 10 days in mm and how does it compare to the "
                "rainfall in Denver for the same period in inches?", RAIN)
    assert got == [("rainfall_total", {"city": "Seattle", "days": 10, "unit": "mm"}),
                   ("rainfall_total", {"city": "Denver", "days": 10, "unit": "inches"})]


# ------------------------------------------------------------------ the same kind of value in two clauses
LCM = tool("math_lcm", "Least common multiple of two integers",
           obj(["a", "b"], a={"type": "integer", "description": "First integer"},
               b={"type": "integer", "description": "Second integer"}))
POW = tool("int_power", "Raise an integer to a power",
           obj(["base", "exponent"], base={"type": "integer", "description": "The base"},
               exponent={"type": "integer", "description": "The exponent"}))


def test_each_clause_with_its_own_pair_of_numbers_is_a_call():
    got = calls("Ana picked the numbers 4 and 6, while Ben picked the numbers 10 and 15. "
                "What is the least common multiple of each pair?", LCM)
    assert got == [("math_lcm", {"a": 4, "b": 6}), ("math_lcm", {"a": 10, "b": 15})]
    got = calls("Please work this out: first, raise the number 7 to the power of 2, then raise the number 4 "
                "to the power of 3.", POW)
    assert got == [("int_power", {"base": 7, "exponent": 2}), ("int_power", {"base": 4, "exponent": 3})]


def test_one_clause_with_values_of_one_kind_stays_one_call():
    # the place and the numbers sit in different sentences, but no kind recurs: one call
    weather = tool("get_weather", "Get the current weather for a city",
                   obj(["city"], city=s("The city"), unit=s("celsius or fahrenheit")))
    got = calls("What's the weather in Lisbon today, in celsius? I leave at 7 o'clock, trip 12.", weather)
    assert got == [("get_weather", {"city": "Lisbon", "unit": "celsius"})]


def test_a_clause_about_every_call_that_names_several_ways_asks_each_call_in_each_way():
    sim = tool("word_similarity", "Compute how similar two words are",
               obj(["word1", "word2"], word1=s("First word"), word2=s("Second word"),
                   format=s("Output format of the score, e.g. decimal")))
    got = calls("Could you compute the similarity between 'river' and 'stream', and then between 'river' and "
                "'ocean'? Please give each score in both decimal and percent formats.", sim)
    assert got == [("word_similarity", {"word1": "river", "word2": "stream", "format": "decimal"}),
                   ("word_similarity", {"word1": "river", "word2": "stream", "format": "percent"}),
                   ("word_similarity", {"word1": "river", "word2": "ocean", "format": "decimal"}),
                   ("word_similarity", {"word1": "river", "word2": "ocean", "format": "percent"})]


# ------------------------------------------------------------------ zipped or crossed
RUN = tool("distance_covered", "Distance covered at a constant speed",
           obj(["speed", "time"], speed={"type": "number", "description": "Speed in m/s"},
               time={"type": "number", "description": "Time in seconds"}))


def test_values_labelled_first_and_second_pair_up():
    got = calls("Two runners set off. The first runner keeps a speed of 3 m/s and the second runner a speed of 4 m/s. "
                "The first runner runs for 100 seconds and the second runner runs for 80 seconds. "
                "How far does each get?", RUN)
    assert got == [("distance_covered", {"speed": 3, "time": 100}), ("distance_covered", {"speed": 4, "time": 80})]


def test_unlabelled_lists_of_two_arguments_cross():
    got = calls("How far do I get at speeds of 3 m/s and 4 m/s for 100 seconds and 80 seconds?", RUN)
    assert got == [("distance_covered", {"speed": 3, "time": 100}), ("distance_covered", {"speed": 3, "time": 80}),
                   ("distance_covered", {"speed": 4, "time": 100}), ("distance_covered", {"speed": 4, "time": 80})]


# ------------------------------------------------------------------ one list per call
def test_each_bracketed_list_is_a_call_and_its_numbers_are_no_other_argument():
    hist = tool("make_histogram", "Draw a histogram of some data",
                obj(["data", "bins"], data={"type": "array", "items": {"type": "integer"},
                                            "description": "The data to plot"},
                    bins={"type": "integer", "description": "Number of bins"}))
    got = calls("Here is some data in two sets: the first set is [3, 8, 8, 9, 12] and the second set is [40, 42, 47]. "
                "Make a histogram of each set with 6 bins.", hist)
    assert got == [("make_histogram", {"data": [3, 8, 8, 9, 12], "bins": 6}),
                   ("make_histogram", {"data": [40, 42, 47], "bins": 6})]


def test_a_clause_that_only_announces_how_many_is_no_call():
    # "two orders" says how many calls follow; it is no order id
    got = calls("Look up two orders for me. The first is order 'A-100' from the 'North' shop; I also want its "
                "invoice. The second is order 'B-200' from the 'South' shop. I don't need the invoice for this one.",
                ORDER)
    assert got == [("order_details", {"order_id": "A-100", "shop": "North", "with_invoice": True}),
                   ("order_details", {"order_id": "B-200", "shop": "South", "with_invoice": False})]


def test_a_clause_about_both_calls_with_a_new_value_asks_both_again():
    sales = tool("estimate_sales", "Estimate yearly sales of a product in a country",
                 obj(["product", "country"], product=s("The product"), country=s("The country"),
                     year={"type": "integer", "description": "The year"}))
    got = calls("Can you estimate the sales of 'Vespa' in Italy for the year 2021, compare it with the sales of "
                "'Brompton' in Spain for the same year, and then estimate the sales of both these products in their "
                "countries for year 2024?", sales)
    assert got == [("estimate_sales", {"product": "Vespa", "country": "Italy", "year": 2021}),
                   ("estimate_sales", {"product": "Brompton", "country": "Spain", "year": 2021}),
                   ("estimate_sales", {"product": "Vespa", "country": "Italy", "year": 2024}),
                   ("estimate_sales", {"product": "Brompton", "country": "Spain", "year": 2024})]


def test_repeat_these_calculations_for_a_new_subject_asks_every_call_again():
    area = tool("area_under_curve", "Numerically integrate a function between two x values",
                obj(["function", "start_x", "end_x"], function=s("The function of x"),
                    start_x={"type": "number", "description": "Start x"}, end_x={"type": "number", "description": "End x"},
                    method=s("Rule to use: 'midpoint' or 'simpson'. Default 'midpoint'")))
    got = calls("Could you compute the area under the function 'x^2' between x values of 0 and 2 using the 'midpoint' "
                "rule, and then do the same but using the 'simpson' rule? After that, could you repeat these "
                "calculations but for the function 'x+1' between x values of 1 and 4?", area)
    assert got == [
        ("area_under_curve", {"function": "x^2", "start_x": 0, "end_x": 2, "method": "midpoint"}),
        ("area_under_curve", {"function": "x^2", "start_x": 0, "end_x": 2, "method": "simpson"}),
        ("area_under_curve", {"function": "x+1", "start_x": 1, "end_x": 4, "method": "midpoint"}),
        ("area_under_curve", {"function": "x+1", "start_x": 1, "end_x": 4, "method": "simpson"})]


def test_a_clause_that_says_there_is_none_does_not_inherit_the_value_before():
    loan = tool("loan_cost", "Total cost of a loan",
                obj(["amount", "rate", "fee"], amount={"type": "number", "description": "Amount borrowed in dollars"},
                    rate={"type": "number", "description": "Yearly interest rate"},
                    fee={"type": "number", "description": "Opening fee in dollars"}))
    first = ("loan_cost", {"amount": 1000, "rate": 0.05, "fee": 50})
    for second in ("but without any fee.", "and the bank did not charge any fee."):
        got = calls("Can you compare two loans? The first loan is $1000 at a rate of 5% with an opening fee of $50. "
                    "The second loan is $2000 at a rate of 4% " + second, loan)
        assert got == [first, ("loan_cost", {"amount": 2000, "rate": 0.04, "fee": 0})]


def test_an_option_named_once_per_subject_goes_with_its_subject():
    washer = tool("run_washer", "Run the washing machine",
                  obj(["minutes", "mode"], minutes={"type": "integer", "description": "How long to run, in minutes"},
                      mode={"type": "string", "enum": ["gentle", "strong"], "description": "Washing mode"}))
    got = calls("Run the washer for 30 minutes in gentle mode and 60 minutes in strong mode.", washer)
    assert got == [("run_washer", {"minutes": 30, "mode": "gentle"}), ("run_washer", {"minutes": 60, "mode": "strong"})]


def test_a_trailing_considering_both_asks_every_leg_both_ways():
    drive = tool("drive_time", "Driving time between two cities",
                 obj(["start", "end"], start=s("Start city"), end=s("End city"),
                     route={"type": "string", "enum": ["fastest", "scenic"], "description": "Route preference"}))
    got = calls("What is the driving time from Boston to Albany, and then from Albany to Buffalo, considering both "
                "the fastest and scenic routes?", drive)
    assert got == [("drive_time", {"start": "Boston", "end": "Albany", "route": "fastest"}),
                   ("drive_time", {"start": "Boston", "end": "Albany", "route": "scenic"}),
                   ("drive_time", {"start": "Albany", "end": "Buffalo", "route": "fastest"}),
                   ("drive_time", {"start": "Albany", "end": "Buffalo", "route": "scenic"})]


# ------------------------------------------------------------------ values misread inside one clause
SQUARE = tool("square_area", "Area of a square from the length of its side",
              obj(["side"], side={"type": "number", "description": "Length of the side in the given unit"},
                  unit=s("Unit of the side. Default is m.")))


def test_a_count_of_things_does_not_hide_the_unit_of_each_value():
    # "two squares" counts things; it measures nothing, so "3 ft" still says the unit of each call
    got = calls("What are the areas of two squares, one with a side of 3 ft and the other with a side of 7 ft?",
                SQUARE)
    assert got == [("square_area", {"side": 3, "unit": "ft"}), ("square_area", {"side": 7, "unit": "ft"})]
    got = calls("Give me the area of four squares: the first has a side of 2cm, the second a side of 4cm, "
                "the third a side of 6cm and the fourth a side of 8cm.", SQUARE)
    assert got == [("square_area", {"side": v, "unit": "cm"}) for v in (2, 4, 6, 8)]


def test_a_count_of_things_does_not_hide_the_unit_in_chinese():
    # a Chinese count takes a classifier (三个), never a unit, so the list keeps the unit of its values
    square = tool("square_area", "正方形的面积 (area of a square from its side)",
                  obj(["side"], side={"type": "number", "description": "边长 (length of the side)"},
                      unit=s("单位 (unit of the side), default m")))
    got = calls("三个正方形，边长3 cm、5 cm和7 cm，面积分别是多少？", square)
    assert got == [("square_area", {"side": v, "unit": "cm"}) for v in (3, 5, 7)]


FALL = tool("fall_speed", "Speed of a falling body after some time",
            obj(["start_speed", "seconds"], start_speed={"type": "number", "description": "Initial speed in m/s"},
                seconds={"type": "number", "description": "Time of the fall in seconds"}))


def test_a_start_at_rest_yields_to_the_speeds_said_in_figures():
    # "dropped" alone means a start speed of 0; here each stone's speed is said in figures,
    # so the idiom neither opens a call of its own nor crosses the stones' values
    got = calls("Two stones are dropped off a bridge. The first stone is dropped with a speed of 0 m/s and "
                "falls for 3 seconds, and the second stone is dropped with a speed of 4 m/s and falls for "
                "2 seconds. How fast is each stone at the end?", FALL)
    assert got == [("fall_speed", {"start_speed": 0, "seconds": 3}), ("fall_speed", {"start_speed": 4, "seconds": 2})]
    got = calls("Two stones were released from a tower. The first had a speed of 0 m/s and fell for 3 seconds. "
                "The second had a speed of 4 m/s and was released to fall for 2 seconds.", FALL)
    assert got == [("fall_speed", {"start_speed": 0, "seconds": 3}), ("fall_speed", {"start_speed": 4, "seconds": 2})]
    # with no figure, the idiom still gives the start speed
    assert calls("A stone is dropped and falls for 3 seconds. How fast is it then?", FALL) == [
        ("fall_speed", {"start_speed": 0, "seconds": 3})]


def test_a_variation_of_one_setting_starts_again_from_the_first_setting():
    oven = tool("bake_time", "Estimate the baking time of a loaf",
                obj(["temperature", "weight"], temperature={"type": "number", "description": "Oven temperature in degrees Celsius"},
                    weight={"type": "number", "description": "Weight of the loaf in grams"}))
    # "a lower weight" changes the weight of the first setting; the temperature is the first one again
    got = calls("How long should I bake a loaf of 800 grams at 200°C? I will also try a higher temperature "
                "of 220°C and then a lower weight of 500 grams.", oven)
    assert got == [("bake_time", {"temperature": 200, "weight": 800}),
                   ("bake_time", {"temperature": 220, "weight": 800}),
                   ("bake_time", {"temperature": 200, "weight": 500})]


def test_a_variation_of_one_setting_in_chinese():
    oven = tool("bake_time", "估计烤面包的时间 (estimate the baking time of a loaf)",
                obj(["temperature", "weight"],
                    temperature={"type": "number", "description": "烤箱温度 (oven temperature in degrees Celsius)"},
                    weight={"type": "number", "description": "面包重量 (weight of the loaf in grams)"}))
    # sentences end at "？" without a space; "更低的重量" varies the first setting
    got = calls("一个800克的面包在200°C要烤多久？我还想试一下更高的温度220°C，然后试一下更低的重量500克。", oven)
    assert got == [("bake_time", {"temperature": 200, "weight": 800}),
                   ("bake_time", {"temperature": 220, "weight": 800}),
                   ("bake_time", {"temperature": 200, "weight": 500})]


ALARM = tool("set_alarm", "Set an alarm on the clock",
             obj(["hour", "minute"], hour={"type": "integer", "description": "Hour of the alarm on the clock"},
                 minute={"type": "integer", "description": "Minutes past the hour"}))


def test_clock_times_in_a_list_give_each_call_its_hour_and_minutes():
    # the hour and the minutes both read one time, so a list of times is a list of calls
    assert calls("Set alarms at 6:45 and 7:10.", ALARM) == [("set_alarm", {"hour": 6, "minute": 45}),
                                                          ("set_alarm", {"hour": 7, "minute": 10})]
    alarm_zh = tool("set_alarm", "设置闹钟 (set an alarm on the clock)", ALARM["function"]["parameters"])
    assert calls("请在6:45和7:10各设一个闹钟。", alarm_zh) == [("set_alarm", {"hour": 6, "minute": 45}),
                                                         ("set_alarm", {"hour": 7, "minute": 10})]


def test_a_share_said_in_percent_is_a_probability_not_a_count():
    odds = tool("binomial_odds", "Probability of k successes in n trials",
                obj(["trials", "successes", "success_chance"],
                    trials={"type": "integer", "description": "Number of trials"},
                    successes={"type": "integer", "description": "Number of successes"},
                    success_chance={"type": "number", "description": "Probability of success in one trial"}))
    # "the success rate drops to 40%" is the chance of one success, not a count of 40 successes
    got = calls("What is the probability of 3 successes in 8 trials with a success chance of 60%? "
                "Then suppose the success rate drops to 40%.", odds)
    assert got == [("binomial_odds", {"trials": 8, "successes": 3, "success_chance": 0.6}),
                   ("binomial_odds", {"trials": 8, "successes": 3, "success_chance": 0.4})]


# ------------------------------------------------------------------ lists inside an array argument
REPORT = tool("sales_report", "Sales report of some shops over a period",
              obj(["shops", "period"], shops={"type": "array", "items": {"type": "string"}, "description": "Shop names"},
                  period=s("Period to cover, e.g. '2 weeks'")))


def test_respectively_gives_each_call_one_member_of_a_list_argument():
    got = calls("Get the sales report for Oakwood, Riverside and Hilltop over 1 week, 2 weeks and 1 month "
                "respectively.", REPORT)
    assert got == [("sales_report", {"shops": ["Oakwood"], "period": "1 week"}),
                   ("sales_report", {"shops": ["Riverside"], "period": "2 weeks"}),
                   ("sales_report", {"shops": ["Hilltop"], "period": "1 month"})]
    # without "respectively" every call covers every shop
    got = calls("Get the sales report for Oakwood, Riverside and Hilltop over 1 week and over 2 weeks.", REPORT)
    assert got == [("sales_report", {"shops": ["Oakwood", "Riverside", "Hilltop"], "period": "1 week"}),
                   ("sales_report", {"shops": ["Oakwood", "Riverside", "Hilltop"], "period": "2 weeks"})]


def test_respectively_over_a_list_argument_in_chinese():
    report = tool("sales_report", "店铺销售报告 (sales report of some shops over a period)",
                  obj(["shops", "period"], shops={"type": "array", "items": {"type": "string"},
                                                  "description": "店铺名称 (shop names)"},
                      period=s("时间段 (period to cover)")))
    got = calls("查看“东门店”、“西门店”和“南门店”的销售报告，时间分别是1周、2周和1个月。", report)
    assert got == [("sales_report", {"shops": ["东门店"], "period": "1周"}),
                   ("sales_report", {"shops": ["西门店"], "period": "2周"}),
                   ("sales_report", {"shops": ["南门店"], "period": "1个月"})]


def test_respectively_pairs_lists_said_in_separate_sentences():
    trip = tool("trip_cost", "Cost of a road trip",
                obj(["distance", "fuel_price", "tolls"], distance={"type": "number", "description": "Distance in km"},
                    fuel_price={"type": "number", "description": "Fuel price per litre in dollars"},
                    tolls={"type": "number", "description": "Road tolls in dollars"}))
    got = calls("I am planning three trips. They are 120 km, 340 km and 560 km long. The fuel costs $1.5, $1.7 "
                "and $1.9 per litre respectively. The tolls are $5, $12 and $20. What does each trip cost?", trip)
    assert got == [("trip_cost", {"distance": 120, "fuel_price": 1.5, "tolls": 5}),
                   ("trip_cost", {"distance": 340, "fuel_price": 1.7, "tolls": 12}),
                   ("trip_cost", {"distance": 560, "fuel_price": 1.9, "tolls": 20})]


def test_a_clause_of_mere_words_keeps_the_value_the_request_says_outright():
    got = calls('You are given the data set "sales_q3". You want to try trees of different depths. First fit a '
                'tree with a maximum depth of 3. Then fit another tree with a maximum depth of 6.', FIT)
    assert got == [("fit_tree", {"data": "sales_q3", "depth": 3}), ("fit_tree", {"data": "sales_q3", "depth": 6})]
    fit = tool("fit_tree", "在数据集上训练决策树 (fit a decision tree on a data set)",
               obj(["data", "depth"], data=s("数据集名称 (name of the data set)"),
                   depth={"type": "integer", "description": "最大深度 (maximum depth)"}))
    got = calls("数据集是“sales_q3”。我想试试不同深度的树。先训练一棵最大深度为3的树，然后再训练一棵最大深度为6的树。", fit)
    assert got == [("fit_tree", {"data": "sales_q3", "depth": 3}), ("fit_tree", {"data": "sales_q3", "depth": 6})]



RATE = tool("fx_rate", "Exchange rate between two currencies (汇率)",
            obj(["source", "target"], source=s("Currency to convert from (源货币)"),
                target=s("Currency to convert to (目标货币)")))


def test_pairs_said_in_a_row_give_one_call_per_pair():
    # the first currency repeats: no coordination "A, B and C" would read it, the pairs do
    assert calls("What are the rates of EUR to JPY and EUR to GBP?", RATE) == [
        ("fx_rate", {"source": "EUR", "target": "JPY"}), ("fx_rate", {"source": "EUR", "target": "GBP"})]
    assert calls("查一下欧元到日元和欧元到英镑的汇率", RATE) == [
        ("fx_rate", {"source": "EUR", "target": "JPY"}), ("fx_rate", {"source": "EUR", "target": "GBP"})]


def test_a_number_joined_to_its_unit_by_a_hyphen_is_a_quantity():
    plan = tool("plan_trip", "Plan a trip",
                obj(["city", "days", "budget"], city=s("Destination city"),
                    days={"type": "integer", "description": "Number of days"},
                    budget={"type": "integer", "description": "Daily budget in dollars"}))
    # "7-day" is 7 days, no code; each trip keeps its own length and budget
    got = calls("Plan a 3-day trip to Lisbon with a daily budget of $90, then a 7-day trip to Porto with a daily "
                "budget of $120.", plan)
    assert got == [("plan_trip", {"city": "Lisbon", "days": 3, "budget": 90}),
                   ("plan_trip", {"city": "Porto", "days": 7, "budget": 120})]


def test_values_said_again_with_their_label_pair_with_it():
    yield_ = tool("crop_yield", "Crop yield per hectare of a farm in a year",
                  obj(["farm", "year", "harvest", "area"], farm=s("Farm name"), year=s("Harvest year"),
                      harvest={"type": "number", "description": "Harvest in tonnes"},
                      area={"type": "number", "description": "Farmed area in hectares"}))
    # the years said again after each harvest say which call each harvest belongs to
    got = calls("What was the yield of the farm 'Green Acre' in 2021 and 2023, given that the harvest was "
                "1.5 thousand tonnes in 2021 and 1.8 thousand tonnes in 2023, on a farmed area of 400 hectares?",
                yield_)
    assert got == [("crop_yield", {"farm": "Green Acre", "year": "2021", "harvest": 1500, "area": 400}),
                   ("crop_yield", {"farm": "Green Acre", "year": "2023", "harvest": 1800, "area": 400})]
    crop = tool("crop_yield", "农场某年每公顷的产量 (crop yield per hectare of a farm in a year)",
                obj(["farm", "year", "harvest", "area"], farm=s("农场名称 (farm name)"), year=s("收获年份 (harvest year)"),
                    harvest={"type": "number", "description": "收成，吨 (harvest in tonnes)"},
                    area={"type": "number", "description": "面积，公顷 (area in hectares)"}))
    # in Chinese the year comes before its harvest, in the same clause
    got = calls("“绿田”农场2021年和2023年的产量是多少？2021年收成1500吨，2023年收成1800吨，面积400公顷。", crop)
    assert got == [("crop_yield", {"farm": "绿田", "year": "2021", "harvest": 1500, "area": 400}),
                   ("crop_yield", {"farm": "绿田", "year": "2023", "harvest": 1800, "area": 400})]


def test_a_name_that_ends_in_a_number_keeps_it():
    radio = tool("play_band", "Play songs of a band",
                 obj(["band", "minutes"], band=s("The band to play"),
                     minutes={"type": "integer", "description": "How long to play, in minutes"}))
    # "Blink 182" is one name: its number is neither a value nor the end of the list
    got = calls("Play the bands Coldplay and Blink 182, for 10 minutes and 25 minutes respectively.", radio)
    assert got == [("play_band", {"band": "Coldplay", "minutes": 10}), ("play_band", {"band": "Blink 182", "minutes": 25})]
    assert calls("Compute the factorial of 5, and then of 7.", tool(
        "factorial", "Factorial of a number", obj(["n"], n={"type": "integer", "description": "The number"}))) == [
        ("factorial", {"n": 5}), ("factorial", {"n": 7})]


def test_a_single_thing_beside_a_count_is_a_count_of_one():
    tickets = tool("zoo_tickets", "Buy zoo tickets (买动物园门票)",
                   obj(["adults", "children"], adults={"type": "integer", "description": "Number of adults (成人)"},
                       children={"type": "integer", "description": "Number of children (儿童)"}))
    # "a child" beside "3 adults" counts one child; without it each booking would lack its children
    got = calls("Buy zoo tickets for 3 adults and a child. Also buy zoo tickets for 1 adult and 2 children.", tickets)
    assert got == [("zoo_tickets", {"adults": 3, "children": 1}), ("zoo_tickets", {"adults": 1, "children": 2})]
    assert calls("买动物园门票：3个成人和1个儿童", tickets) == [("zoo_tickets", {"adults": 3, "children": 1})]


def test_a_company_suffix_ends_no_sentence_and_names_no_second_company():
    invest = tool("holding_value", "Future value of a stock holding",
                  obj(["company", "amount", "years"], company=s("Company name"),
                      amount={"type": "number", "description": "Amount invested in dollars"},
                      years={"type": "integer", "description": "Years held"}))
    # "Corp. for" and "Globex, Inc. for": the dots end abbreviations, "Inc." belongs to Globex
    got = calls("I put $2000 into Acme Corp. for 3 years. I also put $5000 into Globex, Inc. for 4 years. "
                "What will each holding be worth?", invest)
    assert got == [("holding_value", {"company": "Acme Corp", "amount": 2000, "years": 3}),
                   ("holding_value", {"company": "Globex", "amount": 5000, "years": 4})]


def test_an_initial_or_a_unit_word_names_no_other_subject():
    heat = tool("heat_needed", "Heat needed to warm a sample",
                obj(["material", "mass", "start_temp", "end_temp"], material=s("Name of the material"),
                    mass={"type": "number", "description": "Mass in kg"},
                    start_temp={"type": "number", "description": "Starting temperature in degrees Celsius"},
                    end_temp={"type": "number", "description": "Final temperature in degrees Celsius"}))
    # "sample B. The ..." ends the name at B; "Celsius" after a figure is its unit, no second material
    got = calls("A lab warms 3 kg of material B. The starting temperature is 20 degrees Celsius and the final "
                "temperature is 60 degrees Celsius. The lab then repeats it with a starting temperature of 30 "
                "degrees Celsius and a final temperature of 90 degrees Celsius.", heat)
    assert got == [("heat_needed", {"material": "B", "mass": 3, "start_temp": 20, "end_temp": 60}),
                   ("heat_needed", {"material": "B", "mass": 3, "start_temp": 30, "end_temp": 90})]


def test_a_bare_figure_names_no_place():
    from course_lib.mock_llm.arguments import fill_arguments

    census = obj(["species", "country"], species=s("The bird species to count."),
                 country=s("The country where the birds live."),
                 year={"type": "integer", "description": "The year of the count. Default is 2024."})
    # a clause about every call so far: 2030 is their new year, no country (which each call keeps)
    got = fill_arguments(census, "then count both these species in their respective countries for year 2030")
    assert got.arguments.get("year") == 2030 and "country" not in got.arguments


def test_the_option_said_before_the_arguments_noun_is_the_choice():
    photos = tool("show_photos", "Show the photos of a trip",
                  obj(["trip"], trip=s("City of the trip"),
                      photo_type=s("Which photos to show: 'recent' for recent photos, 'all' for recent and old "
                                   "photos. Default is 'all'.")))
    # "all photos, recent or old": "recent" only qualifies them; "all photos" names the choice
    got = calls("Show me all photos, recent or old, of my trip to Rome. Then show me only the recent photos of my "
                "trip to Oslo.", photos)
    assert got == [("show_photos", {"trip": "Rome", "photo_type": "all"}),
                   ("show_photos", {"trip": "Oslo", "photo_type": "recent"})]


def test_a_bracket_of_three_fills_an_optional_third_coordinate():
    norm = tool("vector_length", "Length of a vector (向量长度)",
                obj(["x", "y"], x={"type": "integer", "description": "The x value"},
                    y={"type": "integer", "description": "The y value"},
                    z={"type": "integer", "description": "Optional. The z value. Default is 0."}))
    got = calls("What is the length of the vector (2, 3)? Also, what is the length of the vector (1, 4, 8)?", norm)
    assert got == [("vector_length", {"x": 2, "y": 3}), ("vector_length", {"x": 1, "y": 4, "z": 8})]
    assert calls("求向量(1, 4, 8)的长度", norm) == [("vector_length", {"x": 1, "y": 4, "z": 8})]


def test_a_less_detailed_one_is_not_the_detailed_one():
    animal = tool("animal_info", "Describe an animal",
                  obj(["animal"], animal=s("The animal to describe"),
                      detailed={"type": "boolean", "description": "Give a detailed description", "default": False}))
    got = calls("Give me a detailed description of the animal 'lynx' and then compare it with a less detailed "
                "description of the animal 'otter'.", animal)
    assert got == [("animal_info", {"animal": "lynx", "detailed": True}),
                   ("animal_info", {"animal": "otter", "detailed": False})]


def test_a_listed_abbreviation_matches_its_word():
    from course_lib.mock_llm import language as lang

    # "info" is too short a prefix of "information" to match as one, but it is its listed abbreviation
    assert lang.word_matches(lang.stem("information"), lang.stem("info"))
    assert lang.word_matches(lang.stem("info"), lang.stem("information"))
    assert not lang.word_matches(lang.stem("infrastructure"), lang.stem("info"))


def test_a_kinds_member_keeps_the_brand_and_model_said_before_it():
    stock = tool("instrument_stock", "Check whether music stores in a city have a musical instrument",
                 obj(["instrument", "city"], instrument=s("The name of the musical instrument"),
                     city=s("City of the store")))
    got = calls("Check the stock of a Fender Stratocaster guitar in Oslo and Madrid.", stock)
    assert got == [("instrument_stock", {"instrument": "Fender Stratocaster guitar", "city": "Oslo"}),
                   ("instrument_stock", {"instrument": "Fender Stratocaster guitar", "city": "Madrid"})]


DRIVE = tool("drive_route", "Driving route between two places",
             obj(["origin", "destination"], origin=s("Start of the route"), destination=s("End of the route"),
                 avoid_highways={"type": "boolean", "description": "Avoid highways", "default": False}))


def test_my_home_said_again_is_the_place_it_was_said_to_be_in():
    got = calls("Find the route from my home in Lyon to my office in Grenoble, then from my office to my sister's "
                "house in Annecy, and finally from my sister's house back to my home.", DRIVE)
    assert got == [("drive_route", {"origin": "Lyon", "destination": "Grenoble"}),
                   ("drive_route", {"origin": "Grenoble", "destination": "Annecy"}),
                   ("drive_route", {"origin": "Annecy", "destination": "Lyon"})]


def test_a_closing_while_clause_is_about_every_call():
    got = calls("Find the route from Lyon to Grenoble, then from Grenoble to Annecy, while avoiding highways.", DRIVE)
    assert got == [("drive_route", {"origin": "Lyon", "destination": "Grenoble", "avoid_highways": True}),
                   ("drive_route", {"origin": "Grenoble", "destination": "Annecy", "avoid_highways": True})]


def test_list_members_said_per_subject_go_with_their_subject():
    eat = tool("find_restaurant", "Find a restaurant",
               obj(["city", "cuisine"], city=s("City"), cuisine=s("Type of cuisine, e.g. Thai"),
                   features={"type": "array", "items": {"type": "string", "enum": ["Takeout", "Vegan", "Outdoor"]},
                             "description": "Features the restaurant should have"}))
    got = calls("Find a Mexican restaurant in Denver that offers takeout and a Thai restaurant in Austin with vegan "
                "dishes and outdoor seating.", eat)
    assert got == [("find_restaurant", {"city": "Denver", "cuisine": "Mexican", "features": ["Takeout"]}),
                   ("find_restaurant", {"city": "Austin", "cuisine": "Thai", "features": ["Vegan", "Outdoor"]})]


def test_a_flag_whose_description_names_both_results_is_asked_both_ways():
    divisors = tool("list_divisors", "List the divisors of a number",
                    obj(["number", "as_text"], number={"type": "integer", "description": "The number"},
                        as_text={"type": "boolean", "description": "Return a text line if true, a list if false"}))
    got = calls("What are the divisors of 12 and 18, given as a text line as well as a list?", divisors)
    assert got == [("list_divisors", {"number": 12, "as_text": True}), ("list_divisors", {"number": 12, "as_text": False}),
                   ("list_divisors", {"number": 18, "as_text": True}), ("list_divisors", {"number": 18, "as_text": False})]
    # only the false side named: false
    assert calls("List the divisors of 12 as a list.", divisors) == [("list_divisors", {"number": 12, "as_text": False})]


def test_options_coordinated_with_a_qualifying_word_between_are_each_asked():
    order = tool("order_info", "Information about a shop order",
                 obj(["order_id"], order_id=s("The order id"),
                     field={"type": "string", "enum": ["status", "delivery_date"], "description": "What to get"}))
    # "the status and expected delivery date": both options, for both orders
    got = calls("What is the status and expected delivery date of order A100 and order B200?", order)
    assert got == [("order_info", {"order_id": "A100", "field": "status"}),
                   ("order_info", {"order_id": "B200", "field": "status"}),
                   ("order_info", {"order_id": "A100", "field": "delivery_date"}),
                   ("order_info", {"order_id": "B200", "field": "delivery_date"})]


def test_each_quadratic_equation_written_out_gives_a_b_and_c():
    roots = tool("quadratic_roots", "Roots of a quadratic equation (一元二次方程的根)",
                 obj(["a", "b", "c"], a={"type": "integer", "description": "Coefficient of x^2"},
                     b={"type": "integer", "description": "Coefficient of x"},
                     c={"type": "integer", "description": "Constant term"}))
    got = calls("Solve two quadratic equations: the first is 2x^2 + 5x - 3 = 0 and the second is x^2 - 4x + 4 = 0.",
                roots)
    assert got == [("quadratic_roots", {"a": 2, "b": 5, "c": -3}), ("quadratic_roots", {"a": 1, "b": -4, "c": 4})]
    assert calls("求一元二次方程 3x^2 - 7x + 2 = 0 的根", roots) == [("quadratic_roots", {"a": 3, "b": -7, "c": 2})]


FORECAST = tool("get_forecast", "Get the weather forecast for a city on a date",
                obj(["city", "date"], city=s("The name of the city"), date=s("The date, YYYY-MM-DD")))
METAL = tool("get_metal_price", "Get the current price per ounce of a metal", obj(["metal"], metal=s("The metal")))


def test_a_place_and_its_region_a_comma_apart_is_one_place_not_two_calls():
    assert calls("What is the forecast for Lagunitas, CA on 2031-04-15?", FORECAST) == [
        ("get_forecast", {"city": "Lagunitas, CA", "date": "2031-04-15"})]
    # a list a comma apart stays a list: every item its own call
    assert calls("What is the forecast for Lyon, Nice and Geneva on 2031-04-15?", FORECAST) == [
        ("get_forecast", {"city": c, "date": "2031-04-15"}) for c in ("Lyon", "Nice", "Geneva")]
    assert calls("What is the price per ounce of gold, silver, platinum, and palladium?", METAL) == [
        ("get_metal_price", {"metal": m}) for m in ("gold", "silver", "platinum", "palladium")]


SERVER = tool("add_db_server", "Add a database server configuration",
              obj(["host", "database", "password"], host=s("The host address"), database=s("The database name"),
                  password=s("The password")))
STATUS = tool("check_booking", "Check the status of a booking",
              obj(["person_name", "booking_code"], person_name=s("The full name of the traveller"),
                  booking_code=s("The booking code")))


def test_of_two_readings_of_one_value_the_weak_one_goes():
    from course_lib.mock_llm.decision import PlannedCall
    from course_lib.mock_llm.planning import without_competing_values
    from course_lib.mock_llm.wire import ToolSpec
    # the password read twice: once as the database's name again, once as said
    server = ToolSpec("add_db_server", "", SERVER["function"]["parameters"])
    echo, said = (PlannedCall("add_db_server", {"host": "db.example.org", "database": "maindb", "password": p})
                  for p in ("maindb", "hunter22"))
    assert without_competing_values([echo, said], [server]) == [said]
    # "Karan" beside "Karan Sharma": the part loses to the whole; a date "JFK" loses to one in the format asked
    status = ToolSpec(STATUS["function"]["name"], "", STATUS["function"]["parameters"])
    short, full = (PlannedCall("check_booking", {"person_name": n, "booking_code": "BK4567"})
                   for n in ("Karan", "Karan Sharma"))
    assert without_competing_values([short, full], [status]) == [full]
    flight = ToolSpec("search_flight", "", obj(["date"], date=s("Departure date, in the format 'YYYY-MM-DD'")))
    jfk, day = (PlannedCall("search_flight", {"date": d}) for d in ("JFK", "2031-04-15"))
    assert without_competing_values([jfk, day], [flight]) == [day]
    # two sound values both stay
    paris, tokyo = (PlannedCall("check_booking", {"person_name": n, "booking_code": "BK4567"}) for n in ("Ada", "Bo"))
    assert without_competing_values([paris, tokyo], [status]) == [paris, tokyo]
