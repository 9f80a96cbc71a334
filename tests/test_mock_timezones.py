"""Places as IANA time zones for arguments that take a zone (the MCP reference time server's tools, in our own
words): "What time is it in Tokyo?" -> ``timezone="Asia/Tokyo"``, in English and Chinese, one call per place;
a city argument keeps the city.
"""
from __future__ import annotations

import pytest

from course_lib.mock_llm import timezones
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)


NOW = tool("current_time", "The current time in a time zone.",
           {"tz": {"type": "string", "description": "IANA time zone name, e.g. 'Europe/Paris'"}})
CONVERT = tool("convert_time", "Convert a clock time between time zones.", {
    "source_timezone": {"type": "string", "description": "IANA zone of the given time"},
    "time": {"type": "string", "description": "HH:MM, 24-hour"},
    "target_timezone": {"type": "string", "description": "IANA zone to convert to"}})
WEATHER = tool("get_weather", "Current weather.", {"city": {"type": "string"}})


@pytest.mark.parametrize("place, zone", [
    ("Tokyo", "Asia/Tokyo"), ("New York", "America/New_York"), ("Warsaw", "Europe/Warsaw"),   # zone names
    ("San Francisco", "America/Los_Angeles"), ("Beijing", "Asia/Shanghai"), ("Japan", "Asia/Tokyo"),  # the table
    ("东京", "Asia/Tokyo"), ("纽约", "America/New_York"), ("Europe/Paris", "Europe/Paris"), ("Atlantis", None),
])
def test_zone_of(place, zone):
    assert timezones.zone_of(place) == zone


@pytest.mark.parametrize("text, zone", [
    ("What time is it in Tokyo?", "Asia/Tokyo"), ("what time is it in san francisco", "America/Los_Angeles"),
    ("东京现在几点？", "Asia/Tokyo"), ("现在北京几点了", "Asia/Shanghai"),
])
def test_a_time_zone_argument_gets_the_zone(client, text, zone):
    assert calls(client, text, [NOW, WEATHER]) == [("current_time", {"tz": zone})]


def test_one_call_per_place_and_both_zones_of_a_conversion(client):
    assert calls(client, "what time is it in London and in Sydney?", [NOW]) == [
        ("current_time", {"tz": "Europe/London"}), ("current_time", {"tz": "Australia/Sydney"})]
    assert calls(client, "Convert 9:30 AM Tokyo time to New York time", [CONVERT]) == [("convert_time", {
        "source_timezone": "Asia/Tokyo", "time": "09:30", "target_timezone": "America/New_York"})]


def test_a_city_argument_keeps_the_city(client):
    assert calls(client, "What is the weather in Tokyo?", [WEATHER, NOW]) == [("get_weather", {"city": "Tokyo"})]
    assert not timezones.takes_zone("city", "City name, e.g. Paris")
    assert timezones.takes_zone("source_timezone", "") and timezones.takes_zone("tz", "IANA name")


def test_docstring_examples():
    import doctest

    result = doctest.testmod(timezones)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("text", ["Why do we have daylight saving time?", "what time is it in Atlantis"])
def test_no_zone_is_made_up(client, text):
    said = calls(client, text, [NOW])
    assert isinstance(said, str) and "tz" in said  # it asks for the zone instead of sending "daylight saving"


def test_a_path_with_a_slash_is_no_zone():
    assert not timezones.takes_zone("path", "where, e.g. notes/paris.md")
    assert timezones.takes_zone("location", "e.g. Europe/Paris")
