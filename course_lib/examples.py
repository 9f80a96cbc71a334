"""The course's running examples (from the seeds), as deterministic offline tools.

* ``get_weather`` (seed 000 §2.1, seed 001 §19.1): the weather of a city from a fixed
  table, in English or Chinese names, so every run prints the same numbers
  (Shanghai / 上海 -> ``{"temp": 28, "humidity": 65}``, the seed's own values).
* ``WEATHER_TOOL``: its Chat Completions tool definition (JSON Schema parameters).

Later lessons add theirs here (wiki search, project manager, finance database).
"""
from __future__ import annotations

from typing import Any

from .mock_llm.language import CITIES

#: Invented but fixed weather, keyed by English city name.
WEATHER_TABLE: dict[str, dict[str, Any]] = {
    "Shanghai": {"temp": 28, "humidity": 65}, "Beijing": {"temp": 22, "humidity": 40},
    "Tokyo": {"temp": 24, "humidity": 70}, "Paris": {"temp": 18, "humidity": 72},
    "London": {"temp": 15, "humidity": 80}, "New York": {"temp": 21, "humidity": 55},
    "Shenzhen": {"temp": 30, "humidity": 78}, "Singapore": {"temp": 31, "humidity": 84},
    "Berlin": {"temp": 16, "humidity": 60}, "Sydney": {"temp": 19, "humidity": 58},
}
_ZH_TO_EN = {zh: en for en, zh in CITIES.items()}

WEATHER_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the current weather (temperature, humidity) for a city.",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name, e.g. 'Shanghai' or '上海'"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Temperature unit"},
            },
            "required": ["city"],
        },
    },
}


class UnknownCity(LookupError):
    """The weather table has no such city."""


def get_weather(city: str, unit: str = "celsius") -> dict[str, Any]:
    """The (invented, fixed) current weather of ``city``.

    Args:
        city: an English or Chinese city name, any case ("shanghai", "上海").
        unit: ``"celsius"`` (default) or ``"fahrenheit"``.

    Returns:
        ``{"temp": int, "humidity": int}`` (temperature in the unit asked, humidity in %).

    Raises:
        UnknownCity: the city is not in :data:`WEATHER_TABLE`.

    Example:
        >>> get_weather("上海")
        {'temp': 28, 'humidity': 65}
    """
    key = _ZH_TO_EN.get(city.strip(), city.strip().title())
    if key not in WEATHER_TABLE:
        raise UnknownCity(f"no weather data for {city!r}; known cities: {', '.join(WEATHER_TABLE)}")
    data = dict(WEATHER_TABLE[key])
    if unit == "fahrenheit":
        data["temp"] = round(data["temp"] * 9 / 5 + 32)
    return data
