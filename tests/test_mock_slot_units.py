"""A quantity stated in another unit than the one its slot names is converted: "3 miles" for ``distance_km`` is
4.828032, "70 °F" for ``temp_celsius`` 21.111111, "2 pounds" for ``weight_kg`` 0.907185, "90 minutes" for
``duration_hours`` 1.5, in English and Chinese; a slot that names no unit takes the figure as written.

Our own tools (a run planner, a thermostat, a parcel service, a room booking) through the real ``openai`` client.
"""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

from course_lib.mock_llm import slot_units

ROUTE = tool("plan_route", "Plan a running route.", {"distance_km": {"type": "number"}})
ROUTE_DESC = tool("plan_route", "Plan a running route.", {
    "distance": {"type": "number", "description": "Length of the route in kilometres"}})
ROUTE_ZH = tool("plan_route", "Plan a running route.", {"distance": {"type": "number", "description": "距离，单位：公里"}})
ROUTE_BARE = tool("plan_route", "Plan a running route.", {"distance": {"type": "number"}})
ROUTE_INT = tool("plan_route", "Plan a running route.", {"distance_km": {"type": "integer"}})
THERMO = tool("set_thermostat", "Set the thermostat temperature.", {"temp_celsius": {"type": "number"}})
THERMO_F = tool("set_thermostat", "Set the thermostat temperature.", {
    "temperature": {"type": "number", "description": "Target temperature in degrees Fahrenheit"}})
THERMO_BARE = tool("set_thermostat", "Set the thermostat temperature.", {"temperature": {"type": "number"}})
SHIP = tool("create_shipment", "Create a shipment for a package.", {"weight_kg": {"type": "number"}})
SHIP_LB = tool("create_shipment", "Create a shipment for a package.", {"weight_lb": {"type": "number"}})
SHIP_BARE = tool("create_shipment", "Create a shipment for a package.", {"weight": {"type": "number"}})
ROOM = tool("book_room", "Book a meeting room.", {"duration_hours": {"type": "number"}})


@pytest.mark.parametrize("text, tools, arguments", [
    ("Plan a route of 3 miles", [ROUTE], {"distance_km": 4.828032}),           # was 3
    ("Plan a route of 3 miles", [ROUTE_DESC], {"distance": 4.828032}),         # "in kilometres" in the description
    ("Plan a route of 10 miles", [ROUTE_INT], {"distance_km": 16}),            # 16.09 for an integer slot
    ("Set the thermostat to 70 °F", [THERMO], {"temp_celsius": 21.111111}),    # was 70
    ("Set the thermostat to 21 degrees Celsius", [THERMO_F], {"temperature": 69.8}),
    ("Ship a package weighing 2 pounds", [SHIP], {"weight_kg": 0.907185}),     # was a question: 2 pounds sterling
    ("Ship a 2 kg package", [SHIP_LB], {"weight_lb": 4.409245}),
    ("Book a room for 90 minutes", [ROOM], {"duration_hours": 1.5}),
])
def test_a_quantity_in_another_unit_is_converted_to_the_slots(client, text, tools, arguments):
    assert calls(client, text, tools) == [(tools[0]["function"]["name"], arguments)]


@pytest.mark.parametrize("text, tools, arguments", [
    ("帮我规划一条3英里的路线", [ROUTE], {"distance_km": 4.828032}),
    ("帮我规划一条3英里的路线", [ROUTE_ZH], {"distance": 4.828032}),           # 单位：公里 in the description
    ("把恒温器设为华氏70度", [THERMO], {"temp_celsius": 21.111111}),
    ("寄一个2磅的包裹", [SHIP], {"weight_kg": 0.907185}),                       # 寄/包裹: were declined
    ("预订会议室90分钟", [ROOM], {"duration_hours": 1.5}),
])
def test_chinese_quantities_are_converted_too(client, text, tools, arguments):
    assert calls(client, text, tools) == [(tools[0]["function"]["name"], arguments)]


@pytest.mark.parametrize("text, tools, arguments", [
    ("Plan a route of 3 miles", [ROUTE_BARE], {"distance": 3}),
    ("Set the thermostat to 70 °F", [THERMO_BARE], {"temperature": 70}),
    ("Ship a package weighing 2 pounds", [SHIP_BARE], {"weight": 2}),
    ("Plan a route of 5 km", [ROUTE], {"distance_km": 5}),                     # already in the slot's unit
])
def test_a_slot_that_names_no_other_unit_takes_the_figure_as_written(client, text, tools, arguments):
    assert calls(client, text, tools) == [(tools[0]["function"]["name"], arguments)]


@pytest.mark.parametrize("text, tools, arguments", [
    ("Plan a route of 1 mile 200 yards", [ROUTE], {"distance_km": 1.792224}),
    ("规划一条1英里200码的路线", [ROUTE], {"distance_km": 1.792224}),
    ("Ship a 5 pounds 3 ounces package", [SHIP], {"weight_kg": 2.35301}),
    ("Book a room for 2 hours 30 minutes", [ROOM], {"duration_hours": 2.5}),
    ("预订会议室1小时15分钟", [ROOM], {"duration_hours": 1.25}),
])
def test_a_compound_quantity_is_converted_whole(client, text, tools, arguments):
    assert calls(client, text, tools) == [(tools[0]["function"]["name"], arguments)]


OVEN = tool("preheat_oven", "Preheat the oven.", {"temp_c": {"type": "integer"}})


@pytest.mark.parametrize("text, tools, arguments", [
    ("Set the thermostat to 70 F", [THERMO], {"temp_celsius": 21.111111}),    # was 70 farads, taken as 70
    ("Set the heating to 20 C", [THERMO_F], {"temperature": 68}),
    ("Preheat the oven to 350F", [OVEN], {"temp_c": 177}),                     # 176.67 for an integer slot
])
def test_a_bare_scale_letter_in_a_temperature_setting(client, text, tools, arguments):
    assert calls(client, text, tools) == [(tools[0]["function"]["name"], arguments)]


def test_a_bare_letter_beside_a_circuit_stays_farads():
    from course_lib.mock_llm.reading import read

    units = [m.unit for m in read("The temperature of a 2 F capacitor").mentions if m.kind == "number"]
    assert units == ["F"]


ROOM_MIN = tool("book_room", "Book a meeting room.", {"duration_minutes": {"type": "integer"}})


@pytest.mark.parametrize("text, tools, arguments", [
    ("帮我规划一条三英里的路线", [ROUTE], {"distance_km": 4.828032}),         # was 1 (一条): 英里 was no unit
    ("寄一个两磅的包裹", [SHIP], {"weight_kg": 0.907185}),                     # was 1 (一个)
    ("预订会议室一个半小时", [ROOM_MIN], {"duration_minutes": 90}),            # was 1
    ("预订会议室两个半小时", [ROOM_MIN], {"duration_minutes": 150}),           # was 2
    ("预订会议室2个小时30分钟", [ROOM_MIN], {"duration_minutes": 150}),        # 个 before 小时 after digits
])
def test_chinese_numerals_and_measure_words_before_a_unit(client, text, tools, arguments):
    assert calls(client, text, tools) == [(tools[0]["function"]["name"], arguments)]


def test_a_price_in_pounds_is_no_weight(client):
    """"costs 2 pounds" is money: the weight is asked for, never 0.907185 kg."""
    out = calls(client, "Ship a package that costs 2 pounds", [SHIP])
    assert isinstance(out, str) and "weight" in out.lower()


@pytest.mark.parametrize("name, description, dim, unit", [
    ("distance_km", "", "length", "km"), ("temp_c", "", "temperature", "°C"), ("height_in", "", "length", "in"),
    ("distance_in_m", "", "length", "m"),                       # "in" inside a name is the preposition
    ("weightLbs", "", "mass", "lb"), ("t", "", "mass", None),   # a lone letter is a name, not tonnes
    ("temperature", "Target (°F)", "temperature", "°F"), ("weight", "以公斤为单位", "mass", "kg"),
    ("weight", "Weight in kg or in pounds", "mass", None),      # two units: which one is unknown
    ("distance_km", "", "mass", None),                          # the slot's unit is of another dimension
])
def test_slot_unit_from_name_and_description(name, description, dim, unit):
    assert slot_units.slot_unit(name, description, dim) == unit


@pytest.mark.parametrize("value, unit, want, out", [
    (3, "mi", "km", 4.828032), (70, "°F", "°C", 21.111111), (100, "°C", "°F", 212), (0, "°C", "K", 273.15),
    (2, "lb", "kg", 0.907185), (1, "ft", "in", 12), (5, "kg", "°C", None), (3, "mi", "parsec", None),
])
def test_convert_uses_the_exact_factors(value, unit, want, out):
    assert slot_units.convert(value, unit, want) == out


def test_docstring_examples():
    import doctest

    result = doctest.testmod(slot_units)
    assert result.attempted > 0 and result.failed == 0
