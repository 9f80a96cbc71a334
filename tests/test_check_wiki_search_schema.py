"""Exercise 02's checks: a good definition passes (in any reasonable wording); each typical mistake gets its hint."""
from __future__ import annotations

import copy

import pytest

from course_lib.checks import CheckFailed
from course_lib.checks.wiki_search_schema import check_wiki_search_tool
from course_lib.examples import WIKI_SPACES

GOOD = {
    "type": "function",
    "function": {
        "name": "search_wiki",
        "description": "Search the company's internal wiki for pages about a topic: processes, policies, "
                       "how-tos and product documentation. Use it for questions about how things work at the "
                       "company, not for the public web.",
        "parameters": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to search for, in the user's words"},
                "space": {"type": "string", "enum": list(WIKI_SPACES),
                          "description": "Only search this wiki space"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5,
                          "description": "Maximum number of pages to return"},
            },
            "required": ["query"],
        },
    },
}


def variant(change):
    tool = copy.deepcopy(GOOD)
    change(tool["function"])
    return tool


def failing_hints(tool):
    with pytest.raises(CheckFailed) as e:
        check_wiki_search_tool(tool)
    return [(r.name, r.hint) for r in e.value.report.results if not r.passed]


def test_the_model_solution_passes():
    report = check_wiki_search_tool(GOOD)
    assert report.passed and len(report.results) == 14


@pytest.mark.parametrize("change", [
    # other reasonable wordings and styles a learner may write
    lambda f: f.update(description="Searches our internal company wiki (Confluence) and returns the best "
                                   "matching pages. Use for internal documentation and policies."),
    lambda f: f["parameters"].update(additionalProperties=False),
    lambda f: f.update(description="在公司内部 Wiki 中搜索页面：流程、政策、操作指南和产品文档。"),  # in Chinese
    lambda f: f["parameters"]["properties"]["space"].pop("type"),  # enum alone is enough
    lambda f: f["parameters"]["properties"]["space"].update(type=["string", "null"],
                                                            enum=[*WIKI_SPACES, None]),
    lambda f: f["parameters"]["properties"]["query"].update(description="Search terms"),
    lambda f: f["parameters"]["properties"]["limit"].update(description="How many results to return at most"),
    lambda f: f["parameters"].update(properties=dict(reversed(list(f["parameters"]["properties"].items())))),
])
def test_any_reasonable_definition_passes(change):
    assert check_wiki_search_tool(variant(change)).passed


def test_a_function_returning_the_definition_is_accepted():
    assert check_wiki_search_tool(lambda: GOOD).passed


def test_the_stub_says_where_to_write():
    def stub():
        raise NotImplementedError("Your turn")

    (name, hint), = failing_hints(stub)
    assert "# YOUR CODE HERE" in hint


@pytest.mark.parametrize("tool, words", [
    ({"type": "function", **GOOD["function"]}, "Responses API's flat shape"),
    (GOOD["function"], "Wrap the seed-style definition"),
    ({"name": "search_wiki", "inputSchema": {}}, "MCP shape"),
])
def test_wrong_shapes(tool, words):
    (_, hint), = failing_hints(tool)
    assert words in hint


@pytest.mark.parametrize("change, check, words", [
    (lambda f: f.update(name="wiki_search"), "named `search_wiki`", "'wiki_search'"),
    (lambda f: f.update(description="Searches."), "description", "most important field"),
    (lambda f: f.update(description="Search for documents and pages about any topic you like, quickly."),
     "description", "searches the **wiki**"),
    (lambda f: f.update(description="Search the wiki for pages about a topic and return the best matches."),
     "description", "*whose* wiki"),
    (lambda f: f["parameters"]["properties"]["limit"].update(type="int"), "metaschema", "properties/limit/type"),
    (lambda f: f["parameters"].update(required=[]), "`query` is a required string", "\"required\": [\"query\"]"),
    (lambda f: f["parameters"]["properties"].pop("query"), "`query`", "Add a `query` property"),
    (lambda f: f["parameters"]["properties"]["space"].pop("enum"), "`space`", "needs an `enum`"),
    (lambda f: f["parameters"]["properties"]["space"].update(enum=["engineering", "product", "hr", "legal"]),
     "`space`", "add 'finance'; remove 'legal'"),
    (lambda f: f["parameters"].update(required=["query", "space"]), "`space`", "remove it from `required`"),
    (lambda f: f["parameters"]["properties"]["limit"].update(type="number"), "optional integer", "not `number`"),
    (lambda f: f["parameters"]["properties"]["limit"].pop("maximum"), "between 1 and 20", "10,000 results"),
    (lambda f: f["parameters"]["properties"]["limit"].update(maximum=100), "between 1 and 20", "yours: 100"),
    (lambda f: f["parameters"]["properties"]["limit"].pop("minimum"), "between 1 and 20", "\"minimum\": 1"),
    (lambda f: f["parameters"]["properties"]["limit"].pop("default"), "defaults to 5", "\"default\": 5"),
    (lambda f: f["parameters"].update(required=["query", "limit"]), "optional integer", "remove it from `required`"),
])
def test_typical_mistakes_get_their_own_hint(change, check, words):
    hints = failing_hints(variant(change))
    assert any(check in name and words in hint for name, hint in hints), hints


def test_missing_maximum_is_also_caught_by_validation():
    hints = dict(failing_hints(variant(lambda f: f["parameters"]["properties"]["limit"].pop("maximum"))))
    validation = next(h for n, h in hints.items() if n.startswith("validation"))
    assert "limit=500" in validation and "`maximum`" in validation


def test_a_missing_maximum_is_caught_even_when_every_argument_is_required():
    # limit=500 must be rejected for its value, not because the stricter `required` misses another argument
    def change(f):
        f["parameters"]["properties"]["limit"].pop("maximum")
        f["parameters"]["required"] = ["query", "space", "limit"]
    hints = dict(failing_hints(variant(change)))
    validation = next(h for n, h in hints.items() if n.startswith("validation"))
    assert "limit=500" in validation and "space='legal'" not in validation


def test_the_wrong_tool_hint_quotes_the_scores():
    from types import SimpleNamespace as NS

    from course_lib.checks.wiki_search_schema import _why_not

    decision = NS(scores={"web_search": 3.0, "search_wiki": 1.0}, matched={"search_wiki": ["page"]})
    message = NS(tool_calls=[NS(function=NS(name="web_search", arguments="{}"))], content=None)
    assert _why_not(decision, message).startswith("The model called `web_search` (score 3.0) instead of "
                                                  "`search_wiki` (score 1.0)")
    silent = NS(tool_calls=None, content="Sorry, none of my tools can help")
    assert "called no tool (search_wiki scored 1.0, matched words ['page'])" in _why_not(decision, silent)


def test_a_required_space_makes_the_model_ask_instead_of_calling():
    hints = failing_hints(variant(lambda f: f["parameters"].update(required=["query", "space"])))
    assert any("“Find the top 3" in n and "asked instead of calling" in h for n, h in hints), hints


def test_a_missing_enum_means_the_model_cannot_fill_the_space():
    hints = failing_hints(variant(lambda f: f["parameters"]["properties"]["space"].pop("enum")))
    assert any("naming a space" in n and "no `space`" in h for n, h in hints), hints


def test_a_tuple_enum_gets_the_json_has_no_tuples_hint_not_a_missing_enum():
    """`"enum": WIKI_SPACES` (a tuple) is present but the wrong type: say so, never "needs an `enum`"."""
    hints = dict(failing_hints(variant(lambda f: f["parameters"]["properties"]["space"].update(enum=WIKI_SPACES))))
    schema_hint = hints["`parameters` is a valid JSON Schema (checked against the metaschema)"]
    assert schema_hint.startswith("`properties/space/enum` is a Python tuple ('engineering', 'product', 'hr', "
                                  "'finance'), and JSON has no tuples")
    assert "Write `list(WIKI_SPACES)`" in schema_hint
    space_hint = hints["`space` is optional and one of the wiki spaces (enum)"]
    assert "has its `enum` (good), but as a Python tuple" in space_hint and "list(WIKI_SPACES)" in space_hint
    assert not any("needs an `enum`" in h for h in hints.values())


def test_a_tuple_elsewhere_names_its_place():
    hints = dict(failing_hints(variant(lambda f: f["parameters"].update(required=("query",)))))
    hint = hints["`parameters` is a valid JSON Schema (checked against the metaschema)"]
    assert hint.startswith("`required` is a Python tuple ('query',)") and "['query']" in hint


def test_a_missing_enum_still_says_so():
    hints = dict(failing_hints(variant(lambda f: f["parameters"]["properties"]["space"].pop("enum"))))
    assert hints["`space` is optional and one of the wiki spaces (enum)"].startswith("`space` needs an `enum`")


def test_a_failed_check_points_to_the_hints_like_every_exercise():
    with pytest.raises(CheckFailed) as e:
        check_wiki_search_tool(lambda: (_ for _ in ()).throw(NotImplementedError("Your turn")))
    assert e.value.report.more_help.startswith("Need a nudge? Click “Show hint 1 of")
    assert "course hint 02" in e.value.report.text()
