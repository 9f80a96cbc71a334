"""The mock LLM's decision: answer in text, call one tool, or call several.

The pipeline, one module a stage, each a pure function of the request (the same request always
yields the same decision):

1. **read** (:mod:`.reading`): the user's last message, once (up to :data:`~.reading.READ_LIMIT`),
   into typed mentions: numbers with units, dates, times, places, names, quoted text, codes, lists;
2. **choose** (:mod:`.choosing`): every tool scored by the words it shares with the request (name
   words weigh most, then the description, parameter names, enum values; Chinese words, related words,
   tickers and arithmetic add concepts); none above :data:`~.choosing.THRESHOLD`: a text answer;
3. **fill** (:mod:`.arguments`): each argument of a chosen tool from the mentions, guided by its
   JSON Schema, each value with its :class:`~.arguments.Evidence`; a required value nowhere in the
   text is *missing*;
4. **plan** (:mod:`.planning`): clauses, parallel calls of one tool, calls that wait for results;
   then **rate** (:mod:`.confidence`): below the threshold no call, an honest reply instead;
5. **answer** (:mod:`.answer`): after ``role: "tool"`` results, what is still missing is called (the
   next city when ``parallel_tool_calls`` is false, an alternative when a tool failed), else the final
   answer is written from the results.

Around them :mod:`.conversation` reads the turns before the last one: the user's answer to a
clarifying question completes the call it asked about, a follow-up ("and in Tokyo?") reuses the
previous tool, a question a result already answers gets its answer without a new call. This module
puts the stages together (:func:`decide`) and handles ``tool_choice``. :class:`Decision` keeps the
scores, the evidence and the confidence so a lesson can show *why* (``MockLLM.explain``).
"""
from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from . import accounts
from . import arithmetic
from . import bounds
from . import conditions
from . import confidence
from . import followups
from . import gazetteer as gz
from . import language as lang
from . import purpose
from .answer import compose_answer, error_of, join_sentences
from .arguments import Evidence
from .choosing import THRESHOLD, score_tools
from .choosing import _profile
from .conversation import (_WITHDRAWN, _Turn, _answered_question, _args_of, _clarify, _earlier_results,
                           _follow_up, _from_earlier_results,
                           _no_tool_answer, _read_turn, _unsupported_units, courtesy_reply)
from .decision import Decision, PlannedCall
from .planning import _calls_for, plan_calls, set_aside
from .reading import READ_LIMIT, read, read_limited
from .wire import ChatRequest, ToolSpec

from .planning import resolve_own_places, split_clauses, without_negated  # noqa: F401  (public names of the stages)

__all__ = ["Decision", "PlannedCall", "READ_LIMIT", "courtesy_reply", "decide", "invented_value", "plan_calls",
           "read_limited", "resolve_own_places", "score_tools", "split_clauses", "without_negated"]

MAX_TOOL_ROUNDS = 6


def decide(req: ChatRequest) -> Decision:
    """Decide the assistant's next message for a validated request.

    Args:
        req: the request (messages, tools, ``tool_choice``, ``parallel_tool_calls``).

    Returns:
        A :class:`Decision`: tool calls to emit, or a text answer, with the reason.

    Example:
        >>> from course_lib.mock_llm.wire import parse_chat_request
        >>> weather = {"type": "function", "function": {"name": "get_weather",
        ...     "description": "Get the current weather for a city",
        ...     "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
        ...                    "required": ["city"]}}}
        >>> decide(parse_chat_request({"model": "m", "tools": [weather],
        ...     "messages": [{"role": "user", "content": "帮我查一下上海的天气"}]})).tool_calls
        [get_weather({"city": "上海"})]
    """
    turn = _read_turn(req.messages)
    plan, scores, matched, why_not = plan_calls(turn.question, req.tools)
    decision = Decision(scores=scores, matched=matched)
    if turn.done:
        return _after_results(req, turn, plan, decision)
    early = _before_planning(req, turn, plan, decision)
    if early is not None:
        return early
    plan = _plan_from_the_turn(req, turn, plan, decision)
    if req.tool_choice == "none" or not req.tools:
        return _without_tools(req, turn, plan, decision)
    if not plan:
        return _without_plan(req, turn, decision, why_not)
    return _ask_or_call(req, turn, plan, decision, scores)


def _before_planning(req: ChatRequest, turn, plan: list[PlannedCall], decision: Decision) -> Decision | None:
    """The replies that need no planning of their own: a forced tool's calls, an answer from a tool
    result already in the conversation, thanks or goodbye, a withdrawn request. None otherwise."""
    if req.tool_choice == "function":
        tool = req.tool(req.forced_tool)
        calls = [c for c in plan if c.name == tool.name] or _unfit_guesses_dropped(_calls_for(tool, turn.question))
        return _emit(req, decision, calls, f"tool_choice forces {tool.name}")
    if req.tool_choice == "auto" and (said := _from_earlier_results(req.messages, turn, plan)):
        decision.content, decision.reason = said, "answered from a tool result already in the conversation"
        return decision
    courtesy = courtesy_reply(turn.question) if not plan and req.tool_choice != "required" else None
    if not courtesy and not plan and turn.asked and req.tool_choice != "required" and _WITHDRAWN.search(turn.question):
        # "never mind" after its own question: the request is dropped, which needs no tool and no apology
        courtesy = ("好的，那就不办了。还有别的需要吗？" if lang.is_chinese(turn.question) else
                    "All right, I'll leave it. Anything else I can do?")
    if courtesy:
        decision.content, decision.reason = courtesy, "thanks or goodbye: nothing to do, no tool"
        return decision
    return None


def _plan_from_the_turn(req: ChatRequest, turn, plan: list[PlannedCall], decision: Decision) -> list[PlannedCall]:
    """The plan, or the calls the conversation asks for instead: the answer to the assistant's own
    question (values from both messages), or a follow-up with the previous turn's tool."""
    answered = _answered_question(turn, req.tools, plan) if req.tools else []
    if answered:
        plan = answered
        decision.reason = f"the reply answers the question about {plan[0].name}: values from both messages"
    if not plan and req.tools:
        plan = _follow_up(turn, req.tools)
        if plan:
            decision.reason = "follow-up: the same tool as the previous turn, with the new details"
    if req.tools and all(c.missing for c in plan) and (again := _asked_again(req, turn)):
        plan = again
        decision.reason = "a question about the earlier result, which does not hold it: its tool names it, call again"
    return plan


def _asked_again(req: ChatRequest, turn) -> list[PlannedCall]:
    """The earlier call once more, for a question about its result that the result does not answer but the
    tool's own words (name, description, parameters) say it gives ("What's its tracking number?" of an order
    tool described "with its tracking number"); else ``[]``."""
    earlier = _earlier_results(req.messages, turn.last_user) if not turn.done and turn.last_user >= 1 else []
    if not earlier or not followups.refers_back(turn.question):
        return []
    name, args, _ = earlier[0]
    tool = req.tool(name)
    topic = followups.asked_topic(turn.question, args)
    if tool is None or not topic:
        return []
    vocab = (_profile(tool).vocab | frozenset(_profile(tool).weights)) - {lang.stem(w) for w in lang.split_identifier(name)}
    if not any(lang.matches_any(t, vocab) for t in topic):
        return []
    return [PlannedCall(name, dict(args), {k: Evidence("the earlier call's value", str(v)) for k, v in args.items()})]


def _without_tools(req: ChatRequest, turn, plan: list[PlannedCall], decision: Decision) -> Decision:
    """The text reply when no tool may be called (none given, or ``tool_choice='none'``): what it would
    call, or the answer without a tool."""
    if plan and req.tool_choice == "none":
        what = ", ".join(map(repr, plan))
        # in the request's language, like the engine's other fixed replies (no tool fits, clarifying questions)
        decision.content = (f"这次请求关闭了工具调用（tool_choice='none'）；要回答，我会调用 {what}。"
                            if lang.is_chinese(turn.question) else
                            f"Tool use is switched off for this request (tool_choice='none'); "
                            f"to answer I would call {what}.")
        decision.reason = "tool_choice='none'"
        return decision
    decision.content, decision.reason = _no_tool_answer(turn.question, req.tools if req.tool_choice != "none" else [])
    return decision


def _without_plan(req: ChatRequest, turn, decision: Decision, why_not: str) -> Decision:
    """No call fits: ``tool_choice='required'`` still calls the best-scoring tool; otherwise an honest
    text answer, with why no tool fitted."""
    if req.tool_choice == "required":
        best = score_tools(turn.question, req.tools)[0][0]
        return _emit(req, decision, _unfit_guesses_dropped(_calls_for(best, turn.question)),
                     "tool_choice='required': best-scoring tool")
    decision.content, decision.reason = _no_tool_answer(turn.question, req.tools)
    kept, aside = set_aside(turn.question, req.tools)
    if aside and req.tool_choice == "auto":  # each clause set aside says why; the rest, that no tool helps
        said = accounts.sentences(aside, [kept] if kept.strip(" .。!！") else [], req.tools, turn.question)
        decision.content = join_sentences(said, lang.is_chinese(turn.question))
        decision.reason = f"no request to act on: {', '.join(k for _, k in aside)}"
        return decision
    earlier = _earlier_results(req.messages, turn.last_user) if not turn.done and turn.last_user >= 1 else []
    if earlier and not why_not and req.tool_choice == "auto" and followups.refers_back(turn.question):
        decision.content = followups.not_in_result(earlier[0][0], earlier[0][1], turn.question)
        decision.reason = "a question about the earlier result, which does not hold the answer: say so"
        return decision
    if why_not:
        decision.reason += f" ({why_not})"
        decision.content = purpose.object_reply(turn.question, req.tools) or decision.content
    elif turn.asked and req.tool_choice == "auto" and (outside := _outside_bounds(
            plan_calls(turn.asked_after, req.tools)[0], req)):
        # "150" again after "level must be between 0 and 100": the range again, not "none of my tools"
        decision.content = bounds.range_reply(outside[0], outside[1], turn.question)
        decision.reason = f"{outside[0]}: the reply keeps {outside[1][0].name} outside its schema's bounds: say so again"
    return decision


def _ask_or_call(req: ChatRequest, turn, plan: list[PlannedCall], decision: Decision, scores: dict) -> Decision:
    """Emit the planned calls, first those whose results others wait for; or ask for a missing
    required value, say an enum lacks the unit, or hold back a call the engine is unsure of."""
    waiting = [c for c in plan if c.condition or
               c.from_results and any(p.clause < c.clause for p in plan if not p.from_results)]
    if waiting:  # first the calls whose results they need (a conditional's consequence: its condition's)
        plan = [c for c in plan if c not in waiting]
    incomplete = [c for c in plan if c.missing]
    if incomplete and req.tool_choice == "auto":
        unsupported = _unsupported_units(incomplete[0], req.tools, turn.question)
        if unsupported:
            decision.content = unsupported
            decision.reason = f"{incomplete[0].name} has no such unit in its enum: say so, no call"
            return decision
        decision.content = _clarify(incomplete[0], turn.question, req.tools)
        decision.reason = f"required argument(s) {incomplete[0].missing} not in the request: ask"
        return decision
    if req.tool_choice == "auto" and (outside := _outside_bounds(plan, req)):
        decision.content = bounds.range_reply(outside[0], outside[1], turn.question)
        decision.reason = f"{outside[0]}: {outside[1][0].name}={outside[1][0].value} is outside its schema's bounds: say so, no call"
        return decision
    if req.tool_choice == "auto":
        plan = confidence.without_doubtful_options(plan, turn.question, req.tools)
    gate = conditions.split(turn.question) if any(c.condition for c in waiting) else None
    rated = conditions.checked_text(gate) if gate else turn.question  # the compared number is for the result
    if req.tool_choice == "auto" and _held_back(decision, plan, rated, req.tools):
        return decision
    reason = decision.reason or f"best match: {plan[0].name} (score {scores[plan[0].name]})"
    if waiting:
        reason += f"; {', '.join(dict.fromkeys(c.name for c in waiting))} waits for these results"
    return _emit(req, decision, plan, reason)


def _outside_bounds(plan: list[PlannedCall], req: ChatRequest) -> tuple[str, list] | None:
    """``(tool name, its out-of-range arguments)`` of the first planned call that sends a number its schema's
    ``minimum``/``maximum`` (or exclusive bounds) exclude (:mod:`.bounds`), else None."""
    for call in plan:
        tool = next((t for t in req.tools if t.name == call.name), None)
        bad = bounds.out_of_range(call.arguments, tool.parameters) if tool is not None else []
        if bad:
            return call.name, bad
    return None


def _held_back(decision: Decision, plan: list[PlannedCall], question: str, tools: list[ToolSpec]) -> bool:
    """Rate the planned calls (:mod:`.confidence`); when unsure, write the honest reply into ``decision``.

    The weakest value a guess and nothing else amiss: ask for it, as for a missing argument. Otherwise one
    sentence on the closest tool and what could not be read. Returns True when the calls are held back.
    """
    conf = confidence.rate(plan, decision.scores, read(question), question, tools)
    decision.confidence = conf
    if conf.sure:
        return False
    index, name = conf.weakest if conf.weakest is not None else (0, "")
    call = plan[index]
    if name and conf.arguments[conf.weakest][1] == "guess" and not conf.unused and not conf.tool_doubt:
        asked = PlannedCall(call.name, {k: v for k, v in call.arguments.items() if k != name},
                            {k: v for k, v in call.evidence.items() if k != name}, [name])
        decision.content = _clarify(asked, question, tools)
        decision.reason = f"{call.name}: the value of {name} would be a guess ({conf.summary()}): ask"
    else:
        decision.content = confidence.unsure_reply(call, conf, question, decision.matched.get(call.name, []))
        decision.reason = f"unsure of {call.name} ({conf.summary()}): no call"
    return True


#: What a model invents for a required string that nothing in the request gives, by the argument's role.
_INVENTED_STRINGS = (("city", "London"), ("location", "London"), ("place", "London"), ("country", "United Kingdom"),
                     ("email", "user@example.com"), ("url", "https://example.com"), ("date", ""))


def invented_value(name: str, spec: dict) -> Any:
    """A schema-valid value for a required argument the request does not give (forced ``tool_choice``).

    ``tool_choice="required"`` (or a named function) obliges the model to call even when the request
    gives no value: a real model then makes one up. The mock does so visibly and the same way every
    time: the schema's default or first enum value, its minimum (or 1), ``False``, an empty list, an
    object with its own required fields, the description's first example, or a common value for the
    argument's role ("London" for a city, today's date for a date). Lesson 01 shows why forcing a call
    on an unrelated request yields invented arguments.
    """
    import datetime as _dt

    from .arguments import _examples

    spec = spec if isinstance(spec, dict) else {}
    if "default" in spec:
        return spec["default"]
    if spec.get("enum"):
        return spec["enum"][0]
    kind = spec.get("type")
    kind = next((k for k in kind if k != "null"), "string") if isinstance(kind, list) else kind
    if kind in ("integer", "number"):
        low = spec.get("minimum", spec.get("exclusiveMinimum", 0) + 1 if "exclusiveMinimum" in spec else 1)
        return int(low) if kind == "integer" else low
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    if kind == "object" or "properties" in spec:
        props = spec.get("properties") or {}
        return {k: invented_value(k, props.get(k, {})) for k in spec.get("required") or []}
    desc = str(spec.get("description", ""))
    examples = _examples(desc)
    if examples:
        return examples[0]
    words = " ".join(lang.split_identifier(name)) + " " + desc.lower()
    for hint, value in _INVENTED_STRINGS:
        if re.search(rf"\b{hint}", words):
            return value or _dt.date.today().isoformat()
    return "unknown"


def _unfit_guesses_dropped(calls: list[PlannedCall]) -> list[PlannedCall]:
    """A call forced on a request its tool does not fit ("Tell me a joke" -> book_table) keeps only the values
    the request really names (a place, a number, a date, quoted text): a free word read as a best guess
    ("joke" as the restaurant) is no value, so the argument is invented like any other missing one."""
    for call in calls:
        for k, e in list(call.evidence.items()):
            if isinstance(e, Evidence) and e.rule.startswith("best reading") and k in call.arguments:
                del call.arguments[k], call.evidence[k]
                call.missing.append(k)
    return calls


def _invent_missing(req: ChatRequest, calls: list[PlannedCall]) -> None:
    """A forced call never goes out without its required arguments: fill them as a model would."""
    for call in calls:
        if not call.missing:
            continue
        tool = req.tool(call.name)
        props = (tool.parameters.get("properties") or {}) if tool else {}
        for m in call.missing:
            call.arguments[m] = invented_value(m, props.get(m, {}))
            call.evidence[m] = Evidence("invented: tool_choice forces a call", "not in the request")
        call.missing = []
        order = list(props)  # in the schema's order, as a model writes them
        call.arguments = dict(sorted(call.arguments.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order
                                     else len(order)))


def _emit(req: ChatRequest, decision: Decision, calls: list[PlannedCall], reason: str) -> Decision:
    if req.tool_choice != "auto":
        _invent_missing(req, calls)
    decision.tool_calls = calls if req.parallel_tool_calls else calls[:1]
    decision.reason = reason + ("" if req.parallel_tool_calls or len(calls) <= 1 else
                                f"; parallel_tool_calls=false: 1 of {len(calls)} calls now")
    return decision


def _after_results(req: ChatRequest, turn: _Turn, plan: list[PlannedCall], decision: Decision) -> Decision:
    made = {c["function"]["name"] + json.dumps(_args_of(c), sort_keys=True, ensure_ascii=False) for c, _ in turn.done}
    tried = {c["function"]["name"] for c, _ in turn.done}
    remaining = [c for c in plan if not c.from_results and not c.condition and c.key() not in made
                 and not c.missing and not _made_alike(c, turn)]
    remaining += _written_from_results(plan, turn, remaining)
    gate = _condition_decided(plan, turn, remaining)
    if gate is not None and gate[0] and req.tool_choice != "none":
        return _consequence(req, turn, gate[0], decision)
    if not remaining:  # "(3+4)*2" with add and multiply: the next step, from the results so far
        remaining = [PlannedCall(t.name, args) for t, args in arithmetic.next_calls(
            req.tools, turn.question, [(c["function"]["name"], _args_of(c), _maybe_json(r)) for c, r in turn.done])]
    # A failure that a later call of the same tool repaired (a corrected retry) needs no fallback.
    succeeded = {c["function"]["name"] for c, r in turn.done if not error_of(_maybe_json(r))}
    # A refusal ("kind": "denied": a permission or approval policy said no) is final: looking for
    # another tool to do what was refused is what a security policy must prevent, so no fallback.
    failed = [(c, r) for c, r in turn.done if error_of(_maybe_json(r)) and c["function"]["name"] not in succeeded
              and not _refused(_maybe_json(r))]
    # A failure that a later call of another tool stood in for (a fallback that worked) is handled too.
    ok_rounds = [turn.round_of.get(c["id"], 0) for c, r in turn.done if not error_of(_maybe_json(r))]
    failed = [(c, r) for c, r in failed if not any(k > turn.round_of.get(c["id"], 0) for k in ok_rounds)]
    if req.tool_choice != "none" and turn.rounds < MAX_TOOL_ROUNDS:
        if failed and not remaining:
            # a step waiting for the failed results is part of the plan, not an alternative to it
            remaining = _fallbacks(req, turn, failed, tried | {c.name for c in plan if c.from_results})
            if remaining:
                return _emit(req, decision, remaining, f"{failed[0][0]['function']['name']} failed: trying an alternative")
        elif remaining:
            return _emit(req, decision, remaining, "calls still needed for the request")
    results = [(c["function"]["name"], _args_of(c), r) for c, r in turn.done]
    # A failed call that a later call of the same tool replaced is history, not news.
    later_ok = {name for name, _, r in results if not error_of(_maybe_json(r))}
    results = [x for x in results if x[0] not in later_ok or not error_of(_maybe_json(x[2]))]
    if gate is not None:  # the condition did not hold (or could not be told): say so, no consequence
        cond = conditions.split(turn.question)
        said = compose_answer(results, cond.condition) if results else ""  # (not the consequence's advice)
        decision.content = said if gate[2] else f"{said} {gate[1]}".strip()
        decision.reason = "a conditional request: the consequence depends on the condition's result"
        return decision
    decision.content = compose_answer(results, turn.question)
    decision.reason = "answer from the tool results"
    kept, aside = set_aside(turn.question, req.tools)
    said = accounts.sentences(aside, accounts.unserved(kept, req.tools), req.tools, turn.question)
    if said:  # the clauses not acted on, each with why
        decision.content = join_sentences([decision.content] + said, lang.is_chinese(turn.question))
        decision.reason += "; the clauses not acted on are said"
    return decision


def _condition_decided(plan: list[PlannedCall], turn: _Turn, remaining: list[PlannedCall]
                       ) -> tuple[list[PlannedCall], str, bool] | None:
    """What a conditional request's results decide: ``(consequence calls to make now, reply if none, done)``.

    None when the plan has no condition, or the condition's calls are not all made yet (``remaining``).
    The consequence calls come when the condition holds (:func:`.conditions.holds`) and they are not made
    yet; ``done`` is True when they were made (the answer then tells the results, condition and all).
    """
    gated = [c for c in plan if c.condition]
    cond = conditions.split(turn.question) if gated else None
    if cond is None or remaining:
        return None
    made_names = {c.name for c in gated}
    checked = [(c["function"]["name"], _args_of(c), r) for c, r in turn.done if c["function"]["name"] not in made_names]
    if any(_made_alike(c, turn) for c in gated):
        return [], "", True
    verdict = conditions.holds(cond, checked)
    if verdict is not None and (branch := [c for c in gated if c.clause == (1 if verdict else 2)]):
        return branch, "", False
    return [], conditions.not_done_reply(cond, verdict, [c.name for c in gated if c.clause == 1], turn.question), False


def _consequence(req: ChatRequest, turn: _Turn, calls: list[PlannedCall], decision: Decision) -> Decision:
    """The consequence of a condition that holds: its calls, or the question for a value they lack."""
    incomplete = [c for c in calls if c.missing]
    if incomplete and req.tool_choice == "auto":
        decision.content = _clarify(incomplete[0], turn.question, req.tools)
        decision.reason = f"the condition holds; {incomplete[0].name} needs {incomplete[0].missing}: ask"
        return decision
    return _emit(req, decision, [replace(c, condition="") for c in calls],
                 "the condition holds by its result: the consequence's calls")


def _alike(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        if gz.state_code(a) and gz.state_code(a) == (gz.state_code(b) or b):
            return True  # "Texas" and "TX"
        x, y = re.sub(r"[\W_]+", "", a.lower()), re.sub(r"[\W_]+", "", b.lower())
        return bool(x and y) and (x in y or y in x)
    return a == b


def _made_alike(call: PlannedCall, turn: _Turn) -> bool:
    """Whether a call made in this turn already did what ``call`` would: the same tool with the same values
    for every argument ``call`` has, the made call possibly writing them fuller or adding others
    (``location="San Francisco, CA", unit="fahrenheit"`` answers ``location="San Francisco"``;
    ``timezone="Europe/Warsaw"`` answers ``"Warsaw"``). Its result is there: answer, do not call again."""
    for c, _ in turn.done:
        args = _args_of(c)
        if c["function"]["name"] == call.name and all(k in args and _alike(v, args[k]) for k, v in call.arguments.items()):
            return True
    return False


def _made(call: PlannedCall, turn: _Turn) -> bool:
    """Whether ``call`` was already made (arguments written from results are not compared)."""
    for c, _ in turn.done:
        args = {k: v for k, v in _args_of(c).items() if k not in call.from_results}
        if c["function"]["name"] == call.name and args == call.arguments:
            return True
    return False


def _written_from_results(plan: list[PlannedCall], turn: _Turn, pending: list[PlannedCall]) -> list[PlannedCall]:
    """The waiting calls whose earlier clauses have all answered, with their text written from those answers.

    A waiting call is dropped when an earlier result is an error: a summary of a failure is not
    what the user asked to save (the final answer reports the failure instead).
    """
    out = []
    for call in plan:
        if not call.from_results or call.missing or _made(call, turn):
            continue
        earlier = [p for p in plan if p.clause < call.clause and not p.from_results]
        if any(p in pending for p in earlier):
            continue  # an earlier call has not been made yet
        keys = {p.key() for p in earlier}
        inputs = [(c["function"]["name"], _args_of(c), r) for c, r in turn.done
                  if c["function"]["name"] + json.dumps(_args_of(c), sort_keys=True, ensure_ascii=False) in keys]
        if not inputs or any(error_of(_maybe_json(r)) for _, _, r in inputs):
            continue
        text = compose_answer(inputs, turn.question)
        ready = PlannedCall(call.name, {**call.arguments, **{slot: text for slot in call.from_results}},
                            dict(call.evidence), [], call.clause, call.from_results)
        out.append(ready)
    return out


def _refused(result: Any) -> bool:
    """Whether a tool result is a refusal by a policy (the registry's ``"kind": "denied"``)."""
    return isinstance(result, dict) and result.get("kind") == "denied"


def _maybe_json(content: str) -> Any:
    try:
        return json.loads(content)
    except (ValueError, TypeError):
        return content


def _fallbacks(req: ChatRequest, turn: _Turn, failed, tried: set[str]) -> list[PlannedCall]:
    """Another tool that fits the same request, when the one we used failed: one that does what the failed one
    does, never its opposite or a change the user did not ask for (after ``remove_from_cart`` failed with "not in the
    cart", ``add_to_cart`` is no alternative; after ``add_to_cart`` failed, ``remove_from_cart`` none): the error is
    then the answer, relayed in words."""
    did = {purpose.name_action(c["function"]["name"]) for c, _ in failed}
    ranked = [(t, s) for t, s, _ in score_tools(turn.question, req.tools) if t.name not in tried and s >= THRESHOLD
              and _same_effect(purpose.name_action(t.name), did) and not purpose.mismatch(turn.question, t.name,
                                                                                          t.description)]
    if not ranked:
        return []
    tool = ranked[0][0]
    call = _calls_for(tool, turn.question)[0]
    if call.missing:  # reuse what the failed call was given
        prev = _args_of(failed[0][0])
        props = tool.parameters.get("properties") or {}
        call.arguments.update({k: v for k, v in prev.items() if k in props and k not in call.arguments})
        call.missing = [m for m in call.missing if m not in call.arguments]
    return [] if call.missing else [call]


def _same_effect(action: str | None, did: set[str | None]) -> bool:
    """Whether a tool whose name's verb does ``action`` may stand in for failed tools that did ``did``: a tool
    that changes nothing stands in for anything that reads; one that adds or removes only for one doing the same."""
    if action is None:
        return not did - {None, "read"}
    return did <= {action} or (action == "read" and did <= {None, "read"})
