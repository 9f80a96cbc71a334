"""Flags named '<state> for <someone>' (issue 13, kind 'flag subjects'): ``good_for_kids``, ``open_for_dogs``,
``available_for_pet``. 'for' carries no meaning of its own: 'kid friendly' and 'with my kids' set ``good_for_kids``
(it needed two of 'good', 'for', 'kids'); and the words after 'for' are who the flag is about, so 'a cafe open this
afternoon' or 'available on Friday' says nothing of dogs or pets. Our own tools, through the openai SDK."""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

PARKS = [tool("Parks_Find", "Find parks and playgrounds in a city",
              {"city": {"type": "string", "description": "City name"},
               "good_for_kids": {"type": "string", "enum": ["True", "False", "dontcare"], "default": "dontcare",
                                 "description": "Whether the place suits children"}}, required=["city"])]
CAFES = [tool("find_cafes", "Find cafes in a city",
              {"city": {"type": "string", "description": "City name"},
               "open_for_dogs": {"type": "boolean", "description": "Only cafes that let dogs in", "default": False}},
              required=["city"])]


@pytest.mark.parametrize("text", ["Find parks in Leeds that are kid friendly", "Find kids friendly parks in Leeds",
                                  "Find parks in Leeds to visit with my kids"])
def test_a_flag_for_someone_is_set_by_its_subject(client, text):
    assert calls(client, text, PARKS) == [("Parks_Find", {"city": "Leeds", "good_for_kids": "True"})]


def test_a_flag_for_someone_unsaid_stays_out(client):
    assert calls(client, "Find good parks in Leeds", PARKS) == [("Parks_Find", {"city": "Leeds"})]


@pytest.mark.parametrize("text, want", [
    ("Find cafes in York that are open this afternoon", {"city": "York"}),
    ("Find cafes in York where I can bring my dogs", {"city": "York", "open_for_dogs": True}),
])
def test_the_state_word_alone_is_not_the_flag(client, text, want):
    """With 'for' no word of the flag's own, 'open' alone would set ``open_for_dogs``: the dogs are never said."""
    assert calls(client, text, CAFES) == [("find_cafes", want)]
