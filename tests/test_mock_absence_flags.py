"""Flags that mean the absence of something (issue 13, kind 'absence flags'): a flag described as "only places
with no parking fee" is true when the request says there is none ("with no parking fee", "without tolls"), false
when it says there is one, and its no-preference option when the request does not mind. The 'no' of "no parking
fee" was read as the flag's no. Words: course_lib/data/flag_words.json. Our own tools, through the openai SDK."""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

DINERS = [tool("Diners_Find", "Find restaurants in a city",
               {"city": {"type": "string", "description": "City name"},
                "free_parking": {"type": "string", "enum": ["True", "False", "dontcare"], "default": "dontcare",
                                 "description": "Only restaurants with no parking fee. 'True' for free parking, "
                                                "'False' for paid, 'dontcare' for either"}},
               required=["city"])]
ROUTES = [tool("plan_route", "Plan a driving route between two towns",
               {"start": {"type": "string", "description": "Where the drive starts"},
                "end": {"type": "string", "description": "Where it ends"},
                "toll_free": {"type": "boolean", "description": "True to keep to roads without tolls",
                              "default": False}}, required=["start", "end"])]
CLEANERS = [tool("find_cleaners", "Find house cleaners available in a district",
                 {"district": {"type": "string", "description": "District name"},
                  "has_complaints": {"type": "boolean", "default": False,
                                     "description": "Whether the cleaner has complaints on file (false for no "
                                                    "complaints, true for some)"}}, required=["district"])]


@pytest.mark.parametrize("text, want", [
    ("Find restaurants in Austin with no parking fee", "True"),
    ("Find restaurants in Austin without a parking fee", "True"),
    ("Find restaurants in Austin, I'm happy to pay the parking fee", "False"),
    ("Find restaurants in Austin with free parking", "True"),
    ("Find restaurants in Austin, I don't mind if there's a parking fee", "dontcare"),
])
def test_an_option_flag_for_an_absence(client, text, want):
    """'with no parking fee' is the flag's 'True' (it was 'False': the 'no' read as the flag's); a fee said
    without a negation is 'False'; 'free parking' keeps the ordinary reading; 'don't mind' is 'dontcare'."""
    assert calls(client, text, DINERS) == [("Diners_Find", {"city": "Austin", "free_parking": want})]


@pytest.mark.parametrize("text, want", [
    ("Plan a route from Leeds to York with no tolls", True),
    ("Plan a route from Leeds to York without any tolls", True),
])
def test_a_boolean_for_an_absence(client, text, want):
    name, args = calls(client, text, ROUTES)[0]
    assert name == "plan_route" and args.get("toll_free") is want


def test_the_false_side_said_as_an_absence(client):
    """'false for no complaints': no complaints is false, not true."""
    name, args = calls(client, "Find cleaners in Northside with no complaints", CLEANERS)[0]
    assert name == "find_cleaners" and args.get("has_complaints", False) is False
