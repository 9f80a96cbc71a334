"""Shared fixtures: a fresh mock LLM and its openai client per test."""
from __future__ import annotations

import pytest

from course_lib.mock_llm import MockLLM

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the current weather for a city",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name, e.g. Shanghai"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["city"],
        },
    },
}
GET_TIME = {
    "type": "function",
    "function": {
        "name": "get_time",
        "description": "Get the current local time in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}


@pytest.fixture
def mock() -> MockLLM:
    return MockLLM()


@pytest.fixture
def client(mock):
    return mock.client(max_retries=0)
