"""Places written the way a tool's description asks ("City, State", "City, Country"), in our own words.

A model knows that Gilroy is in California and Lagos in Nigeria, so a tool asking for 'City, State' gets
"Gilroy, CA". The mock reads that from ``course_lib/data/cities.json`` (GeoNames); a city it cannot place
(a name several towns share, or a made-up one) is a guess, so it asks instead of sending half a value.
"""
from __future__ import annotations

import pytest

from course_lib.mock_llm import gazetteer as gz
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

SALON = tool("find_barber", "Find a barber shop near a city.", {
    "city": {"type": "string", "description": "City to search in, in the format 'City, State' (e.g. 'Austin, TX')."}})
STAY = tool("search_stays", "Search holiday homes for rent.", {
    "destination": {"type": "string",
                    "description": "Where to stay, formatted as 'City, State' or 'City, Country', such as 'Reno, NV'."}})
PLAIN = tool("city_weather", "Weather for a city.", {"city": {"type": "string", "description": "The city."}})


@pytest.mark.parametrize("city, region", [
    ("Gilroy", ("state", "CA")), ("Boise", ("state", "ID")), ("Lagos", ("country", "Nigeria")),
    ("Glasgow", ("country", "UK")), ("Springfield", None), ("Zzyzxville", None),
])
def test_city_region(city, region):
    assert gz.city_region(city) == region


@pytest.mark.parametrize("text, value", [
    ("Is there a barber open in Gilroy?", "Gilroy, CA"),            # a small US town, from the table
    ("find me a barber in Boise idaho", "Boise, ID"),                  # the state said after the city, no comma
    ("any barbers in Tulsa OK?", "Tulsa, OK"),                         # the state's code after the city
    ("barber shops in Philly please", "Philadelphia, PA"),            # a city's everyday short name
])
def test_city_gets_its_state(client, text, value):
    assert calls(client, text, [SALON]) == [("find_barber", {"city": value})]


@pytest.mark.parametrize("text, value", [
    ("Find a holiday home in Lagos for next week", "Lagos, Nigeria"),
    ("Search holiday homes in Glasgow", "Glasgow, UK"),
])
def test_city_outside_the_us_gets_its_country(client, text, value):
    assert calls(client, text, [STAY]) == [("search_stays", {"destination": value})]


def test_city_it_cannot_place_is_asked_for(client):
    # "Springfield": a dozen US towns share the name; writing one state would be a guess
    reply = calls(client, "Find a barber in Springfield", [SALON])
    assert isinstance(reply, str) and "city" in reply and "?" in reply


def test_no_format_keeps_the_city_as_said(client):
    assert calls(client, "What's the weather in LA?", [PLAIN]) == [("city_weather", {"city": "LA"})]
    assert calls(client, "What's the weather in Springfield?", [PLAIN]) == [("city_weather", {"city": "Springfield"})]


# The description's examples decide how a region is written: "Oslo, NO" writes a country as its ISO code.
COTTAGE = tool("rent_cottage", "Rent a cottage for a holiday.", {
    "place": {"type": "string",
              "description": "Town of the cottage, as 'City, State' or 'City, Country'; for example 'Bergen, NO' or 'Aspen, CO'."}})
GALLERY = tool("find_gallery", "Find art galleries in a city.", {
    "city": {"type": "string", "description": "The city, in the format 'City, State' or 'City, Country', e.g. 'New York, NY'."}})
SHOP = tool("find_bakery", "Find bakeries in a city.", {
    "city": {"type": "string", "description": "The city and state, e.g. New York City, NY"}})


@pytest.mark.parametrize("text, value", [
    ("Rent me a cottage near Lagos", "Lagos, NG"),                  # the country found in GeoNames, as its code
    ("I want a cottage in Glasgow for June", "Glasgow, GB"),        # the United Kingdom's code is GB, not UK
    ("a cottage in Nairobi, Kenya please", "Nairobi, KE"),          # the country as the user wrote it
    ("rent a cottage in Gilroy", "Gilroy, CA"),                     # a US city keeps its state
])
def test_country_as_its_code_where_the_examples_write_one(client, text, value):
    assert calls(client, text, [COTTAGE]) == [("rent_cottage", {"place": value})]


def test_country_by_name_where_the_examples_write_no_code(client):
    assert calls(client, "Search holiday homes in Glasgow", [STAY]) == [("search_stays", {"destination": "Glasgow, UK"})]
    assert gz.country_code("UK") == "GB" and gz.country_code("Kenya") == "KE" and gz.country_code("Atlantis") is None


def test_new_york_city_as_the_examples_spell_it(client):
    assert calls(client, "Art galleries in New York City?", [GALLERY]) == [("find_gallery", {"city": "New York, NY"})]
    assert calls(client, "Bakeries in New York City?", [SHOP]) == [("find_bakery", {"city": "New York City, NY"})]
