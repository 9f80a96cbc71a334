"""Compound quantities and unit names as written: "3 feet 6 inches" is one length (42 inches), and the unit a
conversion tool gets is the unit its value is in, never a piece of the phrase ("feet 6 inches", 华氏100度 → "度").

Our own conversion tool with free-string units, through the real ``openai`` client.
"""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

CONVERT = tool("convert", "Convert a value from one unit to another.", {
    "value": {"type": "number"}, "from_unit": {"type": "string"}, "to_unit": {"type": "string"}})


@pytest.mark.parametrize("text, value, from_unit, to_unit", [
    ("Convert 3 feet 6 inches to centimeters", 42, "inches", "centimeters"),
    ("How many cm is 6 feet 2 inches?", 74, "inches", "cm"),
    ("把5英尺10英寸换算成厘米", 70, "英寸", "厘米"),
    ("身高6英尺2英寸是多少厘米", 74, "英寸", "厘米"),
])
def test_compound_length_is_one_value_in_its_last_unit(client, text, value, from_unit, to_unit):
    assert calls(client, text, [CONVERT]) == [
        ("convert", {"value": value, "from_unit": from_unit, "to_unit": to_unit})]


@pytest.mark.parametrize("text, value, from_unit, to_unit", [
    ("把华氏100度换算成摄氏度", 100, "华氏度", "摄氏度"),
    ("华氏98.6度等于多少摄氏度", 98.6, "华氏度", "摄氏度"),
    ("摄氏20度是华氏多少度？", 20, "摄氏度", "华氏度"),      # 华氏多少度: the scale asked in
    ("5英尺10英寸是多少米", 70, "英寸", "米"),                # 多少米: a one-character unit asked in
])
def test_chinese_scale_before_the_figure_or_the_question(client, text, value, from_unit, to_unit):
    """华氏100度 is in 华氏度 (Fahrenheit), never the bare 度 that ends the figure (which reads as Celsius)."""
    assert calls(client, text, [CONVERT]) == [
        ("convert", {"value": value, "from_unit": from_unit, "to_unit": to_unit})]


@pytest.mark.parametrize("text", ["5 ft 10 in to cm", "Convert 3 feet 6 inches to centimeters",
                                  "把5英尺10英寸换算成厘米"])
def test_never_a_piece_of_the_phrase_as_unit(client, text):
    """Whatever the mock does, a call never carries 'feet 6 inches', 5 feet as 5, or 英尺 as the target."""
    out = calls(client, text, [CONVERT])
    if isinstance(out, list):
        args = out[0][1]
        assert not any(ch.isdigit() for ch in args["from_unit"]) and args["value"] not in (3, 5)
        assert args["to_unit"] in ("cm", "centimeters", "厘米")


@pytest.mark.parametrize("text, value, from_unit, to_unit", [
    ("Convert 20 degrees Celsius to Fahrenheit", 20, "degrees Celsius", "Fahrenheit"),
    ("72 F to C", 72, "F", "C"),                                  # bare scale letters, free-string units
    ("What is 98.6 F in C?", 98.6, "F", "C"),
    ("What is 300 K in C?", 300, "K", "C"),                       # 300 kelvin, never 300 thousand
    ("How hot is 100 degrees Fahrenheit in Celsius?", 100, "degrees Fahrenheit", "Celsius"),
])
def test_temperature_scales_with_free_string_units(client, text, value, from_unit, to_unit):
    assert calls(client, text, [CONVERT]) == [
        ("convert", {"value": value, "from_unit": from_unit, "to_unit": to_unit})]


def test_scale_letters_stay_other_units_outside_temperature_talk():
    """A bare C or F is coulombs or farads where no scale is in question ("a charge of 5 C")."""
    from course_lib.mock_llm.reading import read

    units = [m.unit for m in read("A charge of 5 C flows through a 2 F capacitor").mentions if m.kind == "number"]
    assert "°C" not in units and "°F" not in units


@pytest.mark.parametrize("text, value, from_unit, to_unit", [
    ("Convert 1 mile 200 yards to meters", 1960, "yards", "meters"),
    ("How many grams is 5 pounds 3 ounces?", 83, "ounces", "grams"),
    ("Convert 1 h 15 min to seconds", 75, "min", "seconds"),           # a bare "h" beside its minutes
    ("Convert 2 hours and 30 minutes to seconds", 150, "minutes", "seconds"),
    ("What is 1 m 80 cm in feet?", 180, "cm", "feet"),
    ("把5磅3盎司换算成克", 83, "盎司", "克"),                           # 换算成克: a one-character unit converted to
    ("2小时30分钟是多少秒", 150, "分钟", "秒"),
    ("3公斤200克是多少磅", 3200, "克", "磅"),
])
def test_compound_quantity_is_one_value_in_its_smallest_unit(client, text, value, from_unit, to_unit):
    assert calls(client, text, [CONVERT]) == [
        ("convert", {"value": value, "from_unit": from_unit, "to_unit": to_unit})]


TIMER = tool("set_timer", "Start a countdown timer.", {"minutes": {"type": "integer"}})
TIMER_HM = tool("set_timer", "Start a countdown timer.", {"hours": {"type": "integer"}, "minutes": {"type": "integer"}})
HEIGHT = tool("record_height", "Record a person's height.", {"feet": {"type": "integer"}, "inches": {"type": "integer"}})


@pytest.mark.parametrize("text, tools, arguments", [
    ("Set a timer for 1 hour 15 minutes", [TIMER], {"minutes": 75}),       # was minutes 15: the hour lost
    ("给我定一个1小时20分钟的计时器", [TIMER], {"minutes": 80}),
    ("Set a timer for 1 hour 15 minutes", [TIMER_HM], {"hours": 1, "minutes": 15}),   # a slot for each part
    ("Record my height: 5 ft 10 in", [HEIGHT], {"feet": 5, "inches": 10}),
])
def test_one_slot_takes_the_whole_quantity_slots_for_the_parts_take_the_parts(client, text, tools, arguments):
    assert calls(client, text, tools) == [(tools[0]["function"]["name"], arguments)]


@pytest.mark.parametrize("text", ["1 h 75 min", "5 km 300 miles", "1.5 hours 30 minutes", "35000 in 5 years"])
def test_no_compound_where_the_parts_do_not_make_one(text):
    """A part as large as the unit before it, units with no exact factor, or a fractional lead stay apart."""
    from course_lib.mock_llm.reading import read

    assert not [m for m in read(text).mentions if m.kind == "number" and m.get("parts")]
    assert [m.value for m in read("1 h 15 min").mentions if m.get("parts")] == [75]  # the check's own control
