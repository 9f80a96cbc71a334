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
