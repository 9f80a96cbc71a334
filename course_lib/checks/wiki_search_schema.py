"""Checks of exercise 02: the JSON Schema of the company wiki's ``search_wiki`` tool.

The learner writes ``search_wiki_tool() -> dict``, a Chat Completions tool definition (the
seed's "write the definition of a tool that queries the company's internal wiki", seed 000
§7). The check inspects the definition piece by piece (shape, name, description, metaschema,
``query``, ``space``, ``limit``), then puts it in front of a fresh mock LLM beside two
distractor tools (the seed's ``web_search`` and ``get_weather``) and asks four questions: one
naming a space, one asking for "top 3", one in Chinese, and an unrelated one. Finally it makes
sure validation rejects bad arguments. Every failure names the exact missing piece.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from ..examples import WEATHER_TOOL, WEB_SEARCH_TOOL, WIKI_SPACES
from ..hints import Hints
from ..mock_llm import MockLLM
from ..mock_llm.errors import MockAPIError
from ..tool_schemas import check_schema, validate_arguments
from . import CheckReport, calm_check
from ..i18n import N_, _

#: The hints of exercise 02 (``HINTS`` in the exercise, ``course hint 02``).
HINTS = Hints("02_wiki_search_schema", [
    N_("Start from lesson 02, section 1: a tool is `{\"type\": \"function\", \"function\": {\"name\", \"description\", "
    "\"parameters\"}}`, and `parameters` is a JSON Schema `{\"type\": \"object\", \"properties\": {...}, "
    "\"required\": [...]}`. Seed 000's `web_search` (printed in the lesson) is a good model."),
    N_("Three properties: `query` (a string, listed in `required`), `space` (a string whose `enum` is the list of "
    "wiki spaces; not required) and `limit` (an `integer` with `minimum`, `maximum` and `default`; not "
    "required). The description says *what* it searches (the company's internal wiki) and *when* to use it."),
    N_("`\"space\": {\"type\": \"string\", \"enum\": list(WIKI_SPACES), \"description\": ...}` and "
    "`\"limit\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 20, \"default\": 5, \"description\": "
    "\"Maximum number of pages to return\"}`; `\"required\": [\"query\"]`."),
], solution_section="Your code: search_wiki_tool")

#: The questions the mock LLM answers with the learner's tool beside the distractors.
QUESTION_SPACE = "Search the engineering wiki for the deployment checklist"
QUESTION_TOP3 = "Find the top 3 wiki pages about onboarding"
QUESTION_ZH = "在公司 Wiki 里搜索报销流程"
QUESTION_UNRELATED = "What's the weather in Paris?"
#: The seed's web_search and the weather tool: the learner's tool must win only where it should.
DISTRACTORS = (WEB_SEARCH_TOOL, WEATHER_TOOL)
_WHERE_WORDS = ("company", "internal", "our ", "organisation", "organization", "team", "employee", "公司", "内部")


def _definition(tool: Any) -> tuple[dict | None, str]:
    """(the Chat Completions tool, '') or (None, the hint)."""
    if callable(tool):
        try:
            tool = tool()
        except NotImplementedError:
            return None, (_("Write your tool definition in `search_wiki_tool()` where it says `# YOUR CODE HERE`, and "
                          "return the dict (remove the `raise NotImplementedError`)."))
        except Exception as e:  # any error in the learner's code becomes one kind hint
            from .calm import learner_error

            return None, _("`search_wiki_tool()` must return the definition; it raised {line}").format(line=learner_error(e).line)
    if not isinstance(tool, dict):
        return None, _("Return a dict (the tool definition), not {error_type}.").format(error_type=type(tool).__name__)
    if tool.get("type") == "function" and isinstance(tool.get("function"), dict):
        return tool, ""
    if tool.get("type") == "function" and "name" in tool:
        return None, (_("That is the Responses API's flat shape. For Chat Completions, nest the fields: "
                      "`{\"type\": \"function\", \"function\": {\"name\": ..., \"description\": ..., \"parameters\": ...}}`."))
    if "name" in tool and "parameters" in tool:
        return None, (_("Wrap the seed-style definition for the API: `{\"type\": \"function\", \"function\": "
                      "{\"name\", \"description\", \"parameters\"}}`."))
    if "inputSchema" in tool:
        return None, _("That is the MCP shape (`inputSchema`); this exercise wants the Chat Completions shape with `parameters`.")
    return None, (_("A tool definition looks like `{\"type\": \"function\", \"function\": {\"name\": \"search_wiki\", "
                  "\"description\": ..., \"parameters\": {...}}}`."))


def _tuples(value: Any, where: str = "") -> list[tuple[str, tuple]]:
    """Every Python tuple inside ``value``, with its path (``properties/space/enum``).

    JSON has no tuples: the metaschema wants an *array* (a Python list) for ``enum`` or ``required``,
    and rejects a tuple even though ``json.dumps`` would quietly turn it into one.
    """
    if isinstance(value, tuple):
        return [(where or "(root)", value)]
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in _tuples(v, f"{where}/{k}" if where else str(k))]
    if isinstance(value, list):
        return [t for i, v in enumerate(value) for t in _tuples(v, f"{where}/{i}" if where else str(i))]
    return []


def _tuple_hint(where: str, value: tuple) -> str:
    fix = "list(WIKI_SPACES)" if set(value) == set(WIKI_SPACES) else f"list(...) or [{', '.join(map(repr, value))}]"
    return (_("`{where}` is a Python tuple {value!r}, and JSON has no tuples: JSON Schema "
               "needs a list (an array) there. Write `{fix}`").format(where=where, value=value, fix=fix) + (_(" (`WIKI_SPACES` is a tuple, so `\"enum\": WIKI_SPACES` is not enough).")
                                       if "WIKI_SPACES" in fix else "."))


def _prop(params: dict, name: str) -> dict | None:
    prop = (params.get("properties") or {}).get(name)
    return prop if isinstance(prop, dict) else None


def _types(prop: dict) -> list[str]:
    t = prop.get("type")
    return [t] if isinstance(t, str) else [x for x in t if x != "null"] if isinstance(t, list) else []


def _check_parts(report: CheckReport, fn: dict) -> bool:
    """The static checks; True when the schema is sound enough to show to a model."""
    report.check(_("the tool is named `search_wiki`"), fn.get("name") == "search_wiki",
                 _("Set `\"name\": \"search_wiki\"` (yours is {value!r}): the model calls the "
                    "tool by this name.").format(value=fn.get('name')))
    description = fn.get("description") or ""
    # A Chinese character carries about as much as two Latin ones: count it twice.
    size = len(str(description).strip()) + sum(1 for ch in str(description) if "\u3400" <= ch <= "\u9fff")
    if not isinstance(description, str) or size < 40:
        hint = (_("The `description` is the most important field: in a full sentence or two, "
                   "say what it searches (the company's internal wiki) and when to use it "
                   "(questions about internal processes, policies, documentation). Yours has "
                   "{n_items} characters.").format(n_items=len(str(description).strip())))
    elif "wiki" not in description.lower() and "维基" not in description:
        hint = _("Say in the `description` that the tool searches the **wiki**: the model matches the user's words to it.")
    elif not any(w in description.lower() for w in _WHERE_WORDS):
        hint = (_("Say *whose* wiki: \"the company's internal wiki\". Otherwise the model cannot tell it from a web "
                "search, and it must know *when* to use it."))
    else:
        hint = ""
    report.check(_("the description says what it searches and when to use it"), not hint, hint)
    params = fn.get("parameters")
    problems = check_schema(params) if params is not None else ["`parameters` is missing"]
    tuples = _tuples(params)
    hint = _tuple_hint(*tuples[0]) if tuples else _("Fix the schema: {problem}").format(problem=problems[0] if problems else "")
    valid = report.check(_("`parameters` is a valid JSON Schema (checked against the metaschema)"), not problems,
                         hint + (_(" (and {n} more)").format(n=len(problems) - 1) if len(problems) > 1 else ""))
    if not isinstance(params, dict):
        return False
    required = params.get("required") or []
    required = required if isinstance(required, list) else []

    query = _prop(params, "query")
    if query is None:
        hint = _("Add a `query` property: `\"query\": {\"type\": \"string\", \"description\": \"What to search for\"}`.")
    elif "string" not in _types(query):
        hint = _("`query` holds the words to search for: give it `\"type\": \"string\"` (yours: "
                  "{value!r}).").format(value=query.get('type'))
    elif "query" not in required:
        hint = _("`query` is the one argument the tool cannot do without: list it in `\"required\": [\"query\"]`.")
    else:
        hint = ""
    query_ok = report.check(_("`query` is a required string"), not hint, hint)

    space = _prop(params, "space")
    if space is None:
        hint = _("Add a `space` property: `{\"type\": \"string\", \"enum\": [...the wiki spaces...]}`.")
    elif "enum" not in space:
        hint = (_("`space` needs an `enum` listing the wiki spaces ({value}): without it the "
                   "model may invent a space that does not exist.").format(value=', '.join(WIKI_SPACES)))
    elif isinstance(space["enum"], tuple):
        hint = (_("`space` has its `enum` (good), but as a Python tuple: JSON Schema needs a list, so write "
                "`\"enum\": list(WIKI_SPACES)` (the same fix as the schema check above)."))
    elif not isinstance(space["enum"], list):
        hint = (_("`space` has an `enum`, but it must be a list of the wiki spaces, not a "
                   "{error_type} ({enum!r}): `\"enum\": list(WIKI_SPACES)`.").format(error_type=type(space['enum']).__name__, enum=space['enum']))
    elif {v for v in space["enum"] if v is not None} != set(WIKI_SPACES):
        missing = [s for s in WIKI_SPACES if s not in space["enum"]]
        extra = [s for s in space["enum"] if s is not None and s not in WIKI_SPACES]
        hint = _("The `space` enum must be exactly the wiki's spaces: ") + "; ".join(
            x for x in (f"add {', '.join(map(repr, missing))}" if missing else "",
                        f"remove {', '.join(map(repr, extra))}" if extra else "") if x) + "."
    elif space.get("type") is not None and "string" not in _types(space):
        hint = _("The spaces are strings: `\"type\": \"string\"` (yours: {value!r}).").format(value=space.get('type'))
    elif "space" in required:
        hint = _("`space` is optional (no space = search the whole wiki): remove it from `required`.")
    else:
        hint = ""
    report.check(_("`space` is optional and one of the wiki spaces (enum)"), not hint, hint)

    limit = _prop(params, "limit")
    types = _types(limit) if limit is not None else []
    if limit is None:
        hint = "Add a `limit` property: `{\"type\": \"integer\", ...}`."
    elif "number" in types and "integer" not in types:
        hint = _("`limit` counts pages: use `\"type\": \"integer\"`, not `number` (a model could send 2.5).")
    elif "integer" not in types:
        hint = f"Give `limit` `\"type\": \"integer\"` (yours: {limit.get('type')!r})."
    elif "limit" in required:
        hint = _("`limit` is optional (it has a default): remove it from `required`.")
    else:
        hint = ""
    report.check(_("`limit` is an optional integer"), not hint, hint)
    if limit is not None and limit.get("minimum") != 1:
        hint = _("`limit` needs `\"minimum\": 1`: zero or negative page counts make no sense.")
    elif limit is not None and limit.get("maximum") != 20:
        hint = (_("`limit` needs `\"maximum\": 20`: without it the model may ask for 10,000 results.")
                if "maximum" not in limit else _("The largest allowed `limit` is 20 (yours: "
                                                  "{value!r}).").format(value=limit.get('maximum')))
    else:
        hint = "" if limit is not None else "Add `limit` first."
    report.check(_("`limit` is between 1 and 20"), not hint, hint)
    default = limit.get("default") if limit is not None else None
    report.check(_("`limit` defaults to 5"), limit is not None and default == 5 and not isinstance(default, bool),
                 _("Add `\"default\": 5` to `limit`, so the model knows it may leave `limit` out (and how many pages "
                 "it then gets).") if limit is None or "default" not in limit else
                 _("The default `limit` is 5 (yours: {default!r}).").format(default=default))
    return valid and query_ok


def _ask(tool: dict, question: str):
    """The mock's first reply to ``question`` with the learner's tool between the distractors."""
    mock = MockLLM()
    tools = [DISTRACTORS[0], tool, DISTRACTORS[1]]
    messages = [{"role": "user", "content": question}]
    decision = mock.explain(messages, tools)
    reply = mock.client(max_retries=0).chat.completions.create(model="mock-llm", messages=messages, tools=tools)
    return decision, reply.choices[0].message


def _why_not(decision: Any, message: Any) -> str:
    """Why the model did not call search_wiki, in the words of its scores."""
    scores = decision.scores
    ours = scores.get("search_wiki", 0)
    if message.tool_calls:
        other = message.tool_calls[0].function.name
        return (_("The model called `{other}` (score {value}) instead of `search_wiki` "
                   "(score {ours}). Make the description say it searches the company's "
                   "internal **wiki**, in the words users use (search, wiki, pages, "
                   "documentation).").format(other=other, value=scores.get(other, 0), ours=ours))
    content = message.content or ""
    if "need the" in content or "需要知道" in content:
        return (_("The model asked instead of calling: \"{content}\". Only `query` should be "
                   "required; the other arguments are optional.").format(content=content))
    return (_("The model called no tool (search_wiki scored {ours}, matched words {value}). "
               "A tool with this name and a description about the company wiki should match "
               "this question.").format(ours=ours, value=decision.matched.get('search_wiki')))


def _model_check(report: CheckReport, tool: dict, name: str, question: str,
                 expect: Callable[[dict], str]) -> None:
    """One question: search_wiki must be called with arguments ``expect`` approves ('' = fine)."""
    try:
        decision, message = _ask(tool, question)
    except MockAPIError as e:
        report.check(name, False, _("The model's API rejected your tool: {message}").format(message=e.message))
        return
    except Exception as e:  # the SDK's 400 for a schema the API refuses
        report.check(name, False, _("The model's API rejected your tool: {value}").format(value=getattr(e, 'message', e)))
        return
    calls = [c for c in message.tool_calls or [] if c.function.name == "search_wiki"]
    if not calls:
        report.check(name, False, _why_not(decision, message))
        return
    args = json.loads(calls[0].function.arguments)
    problem = expect(args)
    params = tool["function"].get("parameters") or {}
    invalid = validate_arguments(args, params)
    if not problem and invalid:
        problem = _("The model's arguments {args} do not pass your own schema: {value}.").format(args=args, value=invalid[0])
    report.check(name, not problem, problem)


def _expect_space(args: dict) -> str:
    if args.get("space") != "engineering":
        return (_("The model sent {args}: no `space`. The user said \"engineering wiki\": the "
                   "model fills `space` when its `enum` contains exactly the space names "
                   "(\"engineering\", ...).").format(args=args))
    if "deployment checklist" not in str(args.get("query", "")):
        return _("The model sent {args}: `query` should hold what to look for. Name the "
                  "property `query`.").format(args=args)
    if args.get("limit", 5) != 5:
        return _("The model sent {args}: the user asked for no number, so `limit` should be "
                  "left to its default.").format(args=args)
    return ""


def _expect_top3(args: dict) -> str:
    if args.get("limit") != 3:
        return (_("The model sent {args}: the user asked for the top 3, so `limit` should be "
                   "3. Name the integer property `limit` and describe it as the maximum "
                   "number of pages (results) to return.").format(args=args))
    if "onboarding" not in str(args.get("query", "")):
        return _("The model sent {args}: `query` should be about onboarding.").format(args=args)
    return ""


def _expect_zh(args: dict) -> str:
    if "报销" not in str(args.get("query", "")):
        return _("The model sent {args}: `query` should keep the user's words (报销流程).").format(args=args)
    return ""


@calm_check
def check_wiki_search_tool(search_wiki_tool: Any) -> CheckReport:
    """Check the learner's ``search_wiki`` tool definition (a dict, or a function returning it).

    Raises:
        CheckFailed: when any sub-check fails (the report lists a hint for each).
    """
    report = CheckReport(_("Exercise 02 · the wiki search tool"), more_help=HINTS.pointer())
    tool, hint = _definition(search_wiki_tool)
    if not report.check(_("`search_wiki_tool()` returns a Chat Completions tool definition"), tool is not None, hint):
        return report.finish()
    fn = tool["function"]
    sound = _check_parts(report, fn)
    if not sound or fn.get("name") != "search_wiki":
        report.check(_("the model calls your tool correctly"), False,
                     _("Fix the checks above first: the model can only use a valid `search_wiki` definition."))
        return report.finish()
    _model_check(report, tool, _("a question naming a space: “{QUESTION_SPACE}”").format(QUESTION_SPACE=QUESTION_SPACE), QUESTION_SPACE, _expect_space)
    _model_check(report, tool, _("a “top 3” question: “{QUESTION_TOP3}”").format(QUESTION_TOP3=QUESTION_TOP3), QUESTION_TOP3, _expect_top3)
    _model_check(report, tool, _("a question in Chinese: “{QUESTION_ZH}”").format(QUESTION_ZH=QUESTION_ZH), QUESTION_ZH, _expect_zh)
    try:
        _msgs, message = _ask(tool, QUESTION_UNRELATED)
        wrongly = [c.function.name for c in message.tool_calls or [] if c.function.name == "search_wiki"]
    except Exception as e:  # reported like the other model checks
        wrongly = [_("(the API refused the request: {e})").format(e=e)]
    report.check(_("no wiki search for an unrelated question: “{QUESTION_UNRELATED}”").format(QUESTION_UNRELATED=QUESTION_UNRELATED), not wrongly,
                 _("The model searched the wiki for a weather question: keep the description about the wiki's "
                 "content (policies, processes, documentation), not about everything."))
    params = fn["parameters"]
    rejected = {
        # each call is the accepted one with one thing wrong, so a stricter `required` cannot reject it instead
        "limit=500": validate_arguments({"query": "vpn", "space": "hr", "limit": 500}, params),
        "space='legal'": validate_arguments({"query": "vpn", "space": "legal", "limit": 3}, params),
        "no query": validate_arguments({"space": "hr", "limit": 3}, params),
    }
    accepted = validate_arguments({"query": "vpn", "space": "hr", "limit": 3}, params)
    slipped = [k for k, errors in rejected.items() if not errors]
    report.check(_("validation rejects limit=500, an unknown space and a missing query, and accepts a good call"),
                 not slipped and not accepted,
                 (_("These invalid arguments passed validation: {value}. A `maximum`, an "
                     "`enum` and `required` are what reject them.").format(value=', '.join(slipped)) if slipped else
                  _("A valid call {{'query': 'vpn', 'space': 'hr', 'limit': 3}} was rejected: {value}.").format(value=accepted[0] if accepted else '')))
    return report.finish()


__all__ = ["DISTRACTORS", "HINTS", "QUESTION_SPACE", "QUESTION_TOP3", "QUESTION_UNRELATED", "QUESTION_ZH",
           "check_wiki_search_tool"]
