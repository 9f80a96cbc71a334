"""Quantities by name in both languages: currencies (names, slang, signs, Chinese names) reach ISO-code enums
and free code arguments with their from/to roles; Chinese unit names after numbers reach unit enums.

Tools are our own (a currency converter with a code enum, one with lower-case codes, one with free ISO
strings; a unit converter), driven through the real ``openai`` client.
"""
from __future__ import annotations

import pytest

from course_lib.mock_llm import gazetteer as gz
from course_lib.mock_llm import unit_enums
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)


CODES = ["USD", "CNY", "EUR", "GBP", "JPY", "KRW", "HKD", "RUB"]
FX_ENUM = tool("convert_currency", "Convert an amount between currencies.", {
    "amount": {"type": "number"}, "from_currency": {"type": "string", "enum": CODES},
    "to_currency": {"type": "string", "enum": CODES}})
FX_LOWER = tool("fx", "Currency exchange.", {
    "amount": {"type": "number"}, "from": {"type": "string", "enum": [c.lower() for c in CODES]},
    "to": {"type": "string", "enum": [c.lower() for c in CODES]}})
FX_FREE = tool("convert_money", "Convert money from one currency to another.", {
    "amount": {"type": "number"}, "base": {"type": "string", "description": "ISO 4217 code, e.g. USD"},
    "target": {"type": "string", "description": "ISO 4217 code, e.g. EUR"}})
UNITS = ["C", "F", "K", "km", "m", "cm", "mm", "mi", "in", "ft", "kg", "g", "mg", "lb", "oz"]
CONVERT = tool("convert_units", "Convert a quantity from one unit of measurement to another.", {
    "value": {"type": "number"}, "from_unit": {"type": "string", "enum": UNITS},
    "to_unit": {"type": "string", "enum": UNITS}})


@pytest.mark.parametrize("text, amount, src, dst", [
    ("convert 100 yuan to dollars", 100, "CNY", "USD"),      # names, not codes
    ("convert 100 dollars to euros", 100, "USD", "EUR"),
    ("how many euros is 50 quid", 50, "GBP", "EUR"),          # slang; "how many Y is X" turns the roles
    ("50 bucks in yen", 50, "USD", "JPY"),
    ("convert $100 to euros", 100, "USD", "EUR"),              # a sign before the amount
    ("How much is 1000 yen in pounds?", 1000, "JPY", "GBP"),
    ("convert 100 yuan to korean won", 100, "CNY", "KRW"),
    ("100美元换成人民币", 100, "USD", "CNY"),                    # Chinese names
    ("把200欧元换成日元", 200, "EUR", "JPY"),
    ("500人民币是多少美金", 500, "CNY", "USD"),
    ("1000港币能换多少卢布", 1000, "HKD", "RUB"),
])
def test_currency_names_reach_code_enums(client, text, amount, src, dst):
    assert calls(client, text, [FX_ENUM]) == [("convert_currency", {"amount": amount, "from_currency": src,
                                                                     "to_currency": dst})]


def test_lower_case_code_enums_and_free_code_strings(client):
    assert calls(client, "convert 100 usd to eur", [FX_LOWER]) == [("fx", {"amount": 100, "from": "usd", "to": "eur"})]
    assert calls(client, "I won 100 dollars, how much is it in euros?", [FX_LOWER]) == [
        ("fx", {"amount": 100, "from": "usd", "to": "eur"})]  # "won" is a verb here, not the currency
    assert calls(client, "convert 300 quid to yuan", [FX_FREE]) == [
        ("convert_money", {"amount": 300, "base": "GBP", "target": "CNY"})]


def test_a_unit_the_currency_tool_does_not_take_is_said(client):
    said = calls(client, "convert 20 pounds of flour to kg", [FX_ENUM])
    assert isinstance(said, str) and "kg" in said


@pytest.mark.parametrize("text, value, src, dst", [
    ("把30毫米换成厘米", 30, "mm", "cm"), ("100毫克是多少克", 100, "mg", "g"), ("300开尔文是多少摄氏度", 300, "K", "C"),
    ("把3厘米换算成英寸", 3, "cm", "in"), ("5公斤等于多少磅", 5, "kg", "lb"), ("convert 5 kilos to pounds", 5, "kg", "lb"),
    ("how many millimetres in 2 inches", 2, "in", "mm"),
])
def test_unit_names_after_numbers_in_both_languages(client, text, value, src, dst):
    assert calls(client, text, [CONVERT]) == [("convert_units", {"value": value, "from_unit": src, "to_unit": dst})]


def test_currency_enums_are_unit_enums_of_money():
    assert unit_enums.is_unit_enum(("USD", "CNY", "EUR"))
    assert unit_enums.is_unit_enum(("usd", "cny"))
    assert not unit_enums.is_unit_enum(("won", "lost", "draw"))  # a word that names a currency is not a code
    assert {"yuan", "人民币", "rmb", "¥"} <= set(unit_enums.forms("CNY"))
    assert {"quid", "英镑", "£"} <= set(unit_enums.forms("GBP"))


def test_every_currency_name_maps_to_a_three_letter_code():
    assert all(len(code) == 3 and code.isupper() for code in gz.CURRENCIES.values())
    assert {gz.currency_code(n) for n in ("美金", "港币", "卢布", "quid", "greenbacks")} == {"USD", "HKD", "RUB", "GBP"}
