"""Kinds of wrong calls the mock turns into an honest reply instead (issue 13, items 1-2: precision).

Each test names a kind of wrong call seen on requests the mock reads badly, with tools and requests written for
this module: when the mock cannot make the calls a request needs, it says so rather than make some of them with
values that are only half right. The same request read right still gets its calls.
"""
from __future__ import annotations

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

RECIPE = tool("find_recipe", "Find a recipe by dish name.", {"dish": {"type": "string"}, "cuisine": {"type": "string"}},
              ["dish"])
RELEASE = tool("tag_release", "Tag a release of a repository with a version label.", {
    "repository": {"type": "string"}, "label": {"type": "string", "enum": ["stable", "beta", "nightly"]}})
WEATHER = tool("weather_lookup", "Current weather for a city.", {"city": {"type": "string"}})
BRANCH = tool("rename_branch", "Rename a git branch.", {"old_name": {"type": "string"}, "new_name": {"type": "string"}})


# -- a quoted value left out: the user quoted two values for calls of the same kind, the mock made one -------------
def test_a_second_quoted_dish_no_call_takes_is_no_single_call(client):
    # before: find_recipe(dish='Shepherd Pie', cuisine='British') alone, 'Pad Thai' dropped without a word
    got = calls(client, "Find the recipes named 'Shepherd Pie' in British cuisine and 'Pad Thai' in Thai cuisine",
                [RECIPE])
    assert isinstance(got, str), got
    assert "find_recipe" in got and "'Pad Thai'" in got


def test_a_quoted_repository_left_out_holds_the_call_back(client):
    # before: tag_release(repository='kit', label='stable'): the label of the other repository, and 'docs' dropped
    got = calls(client, "Tag the repository 'kit' as 'beta' and the repository 'docs' as 'stable'", [RELEASE])
    assert isinstance(got, str) and "'docs'" in got, got


def test_every_quoted_value_taken_still_calls(client):
    assert calls(client, "Tag the repositories 'kit' and 'docs' as 'beta'", [RELEASE]) == [
        ("tag_release", {"repository": "kit", "label": "beta"}), ("tag_release", {"repository": "docs", "label": "beta"})]
    assert calls(client, "Rename branch 'dev' to 'develop'", [BRANCH]) == [
        ("rename_branch", {"old_name": "dev", "new_name": "develop"})]


def test_the_tool_quoted_by_its_dotted_name_is_no_value_left_out(client):
    # 'weather.lookup' names the tool (weather_lookup) the way the user knows it: it is no value a call missed
    assert calls(client, "Call 'weather.lookup' with city 'Oslo'", [WEATHER]) == [("weather_lookup", {"city": "Oslo"})]


def test_the_tool_name_taken_as_the_city_is_held_back(client):
    # the city slot read the first quoted text, the tool's own name; 'Oslo' went nowhere
    got = calls(client, "Use 'weather.lookup' for 'Oslo'", [WEATHER])
    assert isinstance(got, str) and "'Oslo'" in got, got
