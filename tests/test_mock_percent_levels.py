"""A percent said for a level in another range is that share of the range (issue 13): "Set the lights to 40%" on a
1-254 brightness is 102, on a 0-255 one 102, "50%" on a 0-10 volume 5; a per cent slot keeps 40 and a 0..1 one
0.4. Our own tools, through the openai SDK."""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)


def light(spec: dict) -> dict:
    return tool("set_light", "Set the brightness of a light.", {"brightness": spec})


@pytest.mark.parametrize("text, spec, want", [
    ("Set the lights to 40%", {"type": "integer", "minimum": 0, "maximum": 255}, 102),
    ("Set the lights to 40%", {"type": "integer", "description": "Brightness 1-254"}, 102),
    ("Dim the lights to 25 percent", {"type": "integer", "minimum": 0, "maximum": 1000}, 250),
    ("把灯的亮度调到40%", {"type": "integer", "minimum": 0, "maximum": 255}, 102),
    ("Set the lights to 40%", {"type": "integer", "minimum": 0, "maximum": 100}, 40),
    ("Set the lights to 40%", {"type": "integer", "description": "Brightness percentage"}, 40),
    ("Set the lights to 40%", {"type": "number", "description": "Brightness from 0.0 to 1.0"}, 0.4),
])
def test_a_percent_in_the_slots_range(client, text, spec, want):
    assert calls(client, text, [light(spec)]) == [("set_light", {"brightness": want})]


def test_a_volume_out_of_ten(client):
    volume = tool("set_volume", "Set the speaker volume.", {"level": {"type": "integer", "minimum": 0, "maximum": 10}})
    assert calls(client, "Set the volume to 50%", [volume]) == [("set_volume", {"level": 5})]
