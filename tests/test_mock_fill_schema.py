"""``fill_schema``: a response_format schema filled from the conversation by the argument readers.

It reads what the user said (newest message first, then earlier user messages), never the
system prompt, and reports a required property nothing gives as missing instead of inventing it.
"""
from __future__ import annotations

from course_lib.mock_llm import fill_schema

TRIP = {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
        "required": ["city", "days"]}


def test_values_come_from_the_user_message():
    assert fill_schema(TRIP, [{"role": "user", "content": "Plan 3 days in Paris"}]) == ({"city": "Paris", "days": 3}, [])


def test_chinese_request():
    values, missing = fill_schema(TRIP, [{"role": "user", "content": "帮我规划上海3天的行程"}])
    assert values == {"city": "上海", "days": 3} and missing == []


def test_a_required_value_nobody_says_is_missing_not_invented():
    values, missing = fill_schema(TRIP, [{"role": "user", "content": "Plan a trip to Rome"}])
    assert values == {"city": "Rome"} and missing == ["days"]


def test_earlier_user_turn_completes_and_system_prompt_is_no_value():
    messages = [{"role": "system", "content": "You plan trips to London for 5 days."},
                {"role": "user", "content": "I want to see Lisbon."},
                {"role": "assistant", "content": "For how many days?"},
                {"role": "user", "content": "4 days"}]
    assert fill_schema(TRIP, messages) == ({"city": "Lisbon", "days": 4}, [])


def test_nullable_required_property_is_null_and_content_parts_are_read():
    schema = {"type": "object", "properties": {"city": {"type": "string"},
                                               "unit": {"type": ["string", "null"], "enum": ["celsius", "fahrenheit", None]}},
              "required": ["city", "unit"], "additionalProperties": False}
    messages = [{"role": "user", "content": [{"type": "text", "text": "weather in Rome"}]}]
    assert fill_schema(schema, messages) == ({"city": "Rome", "unit": None}, [])
