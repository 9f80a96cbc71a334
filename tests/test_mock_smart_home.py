"""Smart-home requests (issue 13), as the Gemini function-calling guide's lighting and party tools invite them:
a switch turned on or off, a level said as "half", several devices in one request each with its own verb.
Our own device tools, through the openai SDK."""
from __future__ import annotations

import pytest

from course_lib.mock_llm.reading import read
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

FAN = tool("switch_fan", "Switches the ceiling fan.", {"on": {"type": "boolean", "description": "True for on"}})
HEATER = tool("power_heater", "Powers the bathroom heater.",
              {"enabled": {"type": "boolean", "description": "Whether to turn the heater on or off."}})
BLINDS = tool("set_blinds", "Opens or closes the blinds to a level.",
              {"level": {"type": "number", "description": "How open, 0.0 is closed and 1.0 fully open."}})
LAMP = tool("set_lamp", "Sets the desk lamp's brightness.",
            {"brightness": {"type": "integer", "description": "Brightness in percent, 0 to 100"}})
SPEAKER = tool("play_radio", "Plays a radio station on the kitchen speaker.", {"station": {"type": "string"}})
HOME = [FAN, HEATER, BLINDS, LAMP, SPEAKER]


@pytest.mark.parametrize("text, want", [
    ("Turn on the ceiling fan", [("switch_fan", {"on": True})]),
    ("switch the fan off", [("switch_fan", {"on": False})]),
    ("Turn the bathroom heater off please", [("power_heater", {"enabled": False})]),
])
def test_on_and_off_fill_a_switch(client, text, want):
    assert calls(client, text, HOME) == want


@pytest.mark.parametrize("text, want", [
    ("Set the blinds to half", [("set_blinds", {"level": 0.5})]),
    ("Put the desk lamp at half brightness", [("set_lamp", {"brightness": 50})]),
])
def test_half_is_fifty_percent_in_the_slot_scale(client, text, want):
    assert calls(client, text, HOME) == want


def test_half_past_is_no_level():
    """'half past seven' is a time: no 50 % in it (nor in 'half an hour', an amount of time)."""
    assert not [m for m in read("Set the lamp at half past seven").mentions if m.unit == "%"]
    assert [(m.value, m.unit) for m in read("in half an hour").of_kind("number")] == [(0.5, "h")]


@pytest.mark.parametrize("text, want", [
    ("Turn on the ceiling fan and open the blinds to half", [("switch_fan", {"on": True}), ("set_blinds", {"level": 0.5})]),
    ("Turn off the heater and dim the desk lamp to 30%",
     [("power_heater", {"enabled": False}), ("set_lamp", {"brightness": 30})]),
])
def test_each_device_its_own_verb_one_call_each(client, text, want):
    """The second verb ('open', 'dim': course_lib/data/tool_actions.json) before its own object starts a request
    of its own (the clause split knew only a fixed list of request verbs); two switches both true or false are
    each their own value."""
    assert calls(client, text, HOME) == want
