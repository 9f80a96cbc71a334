"""Runnable demonstrations behind the interview answers: explain from something you saw run.

Each demo is a short function built on the course's own modules (the mock LLM through the
real ``openai`` client, ``function_calling``, ``strict_mode``, ``tracing``...). It prints
what a candidate should be able to describe in an interview and returns the key values,
which ``tests/test_interview_demos.py`` asserts. :func:`run_demo` shows a demo's code
(highlighted in Jupyter) and then runs it; that is what the Q&A notebooks call.

Every demo uses its own :class:`~course_lib.mock_llm.MockLLM`, never a real endpoint:
the point is the mechanics, and faults are injected on purpose.

Demos that need a module another lesson has not delivered yet are listed in
:data:`PENDING` with that module; :func:`run_demo` refuses them with a clear message
instead of showing something fake. Taught in ``notebooks/interview/``.
"""
from __future__ import annotations

import ast
import inspect
import json
import textwrap
from dataclasses import dataclass
from typing import Any, Callable

import jsonschema
import openai

from ..examples import WEATHER_TOOL, get_weather
from ..function_calling import as_dict, assemble_stream, parse_arguments, run_tool_call, tool_loop
from ..keyword_router import route
from ..message_flow import show_messages
from ..mock_llm import MockLLM
from ..strict_mode import restore_defaults, strict_violations, to_strict
from ..tracing import Trace

MODEL = "mock-llm"

#: Demos whose building blocks are not in the course yet: ``{demo: "module (lesson)"}``.
PENDING: dict[str, str] = {
    "openapi_vs_tool": "course_lib.tool_schemas (lesson 02)",
    "schema_from_code": "course_lib.tool_schemas (lesson 02)",
    "registry_q1": "course_lib.tool_registry (lesson 03)",
    "registry_availability": "course_lib.tool_registry (lesson 03)",
    "five_layers": "course_lib.resilience (lesson 04)",
    "backoff_jitter": "course_lib.resilience (lesson 04)",
    "idempotency_keys": "course_lib.resilience (lesson 04)",
    "sandbox_permissions": "course_lib.security (lesson 05)",
    "prompt_injection": "course_lib.security (lesson 05)",
    "orchestration": "course_lib.orchestration (lesson 06)",
    "json_rpc_messages": "course_lib.json_rpc (lesson 07)",
    "rpc_styles": "course_lib.json_rpc (lesson 07)",
    "two_wires": "course_lib.mcp_servers (lesson 08)",
    "mcp_capabilities": "course_lib.mcp_servers (lesson 08)",
    "mcp_handshake": "course_lib.mcp_servers (lesson 08)",
    "mcp_errors": "course_lib.mcp_servers (lesson 08)",
    "transports": "course_lib.mcp_transports (lesson 09)",
    "three_layers": "course_lib.a2a_agents (lesson 11)",
    "a2a_task": "course_lib.a2a_agents (lesson 11)",
    "capstone_run": "course_lib.capstone (lesson 12)",
}


@dataclass(frozen=True)
class Demo:
    """A registered demonstration: its name, function and one-line purpose."""

    name: str
    func: Callable[[], Any]
    summary: str

    def __repr__(self) -> str:
        return f"Demo({self.name!r}: {self.summary})"


DEMOS: dict[str, Demo] = {}


def demo(func: Callable[[], Any]) -> Callable[[], Any]:
    """Register ``func`` as the demo named after it (first docstring line = summary)."""
    summary = (inspect.getdoc(func) or "").split("\n")[0]
    DEMOS[func.__name__] = Demo(func.__name__, func, summary)
    return func


class DemoPending(LookupError):
    """The demo needs a course module that is not there yet."""


def demo_source(name: str) -> str:
    """The body of demo ``name`` (no decorator, signature or docstring), dedented."""
    func = _get(name).func
    src = textwrap.dedent(inspect.getsource(func))
    body = ast.parse(src).body[0].body  # type: ignore[attr-defined]
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant):
        body = body[1:]
    lines = src.splitlines()
    first, last = body[0].lineno - 1, body[-1].end_lineno
    return textwrap.dedent("\n".join(lines[first:last]))


def _get(name: str) -> Demo:
    if name in PENDING:
        raise DemoPending(f"demo {name!r} is pending: it will run on {PENDING[name]}, which is not in the course yet")
    if name not in DEMOS:
        raise KeyError(f"no demo {name!r}; demos: {', '.join(sorted(DEMOS))}")
    return DEMOS[name]


def run_demo(name: str, *, show_code: bool = True) -> None:
    """Show the code of demo ``name`` (highlighted in Jupyter), then run it (it prints its results).

    Raises:
        DemoPending: the demo needs a module that has not landed yet (see :data:`PENDING`).
        KeyError: no such demo.
    """
    d = _get(name)
    if show_code:
        _show_code(f"# demo: {name} · course_lib/interview/demos.py\n" + demo_source(name))
    d.func()


class DemoCode:
    """A demo's source: highlighted Markdown in Jupyter, the plain code as text elsewhere."""

    def __init__(self, code: str) -> None:
        self.code = code

    def _repr_markdown_(self) -> str:
        return f"```python\n{self.code}\n```"

    def __repr__(self) -> str:
        return self.code


def _show_code(code: str) -> None:
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # pragma: no cover - IPython comes with Jupyter
        get_ipython = None  # type: ignore[assignment]
    if get_ipython is not None and get_ipython() is not None:
        display(DemoCode(code))
        print("── output ──")
    else:
        print(code + "\n── output ──")


def _calls(message: Any) -> list[str]:
    """``name(arguments)`` for each tool call of an assistant message (SDK object or dict)."""
    m = as_dict(message)
    return [f"{c['function']['name']}({c['function']['arguments']})" for c in m.get("tool_calls") or []]


# A small, fixed tool set for the routing demos (the wiki and project-manager examples of the seeds).
SEARCH_WIKI_TOOL = {"type": "function", "function": {
    "name": "search_wiki", "description": "Search the company wiki (internal documentation pages) for a query.",
    "parameters": {"type": "object", "properties": {"query": {"type": "string", "description": "What to search for"}},
                   "required": ["query"]}}}
CREATE_TASK_TOOL = {"type": "function", "function": {
    "name": "create_task", "description": "Create a task (a to-do item) in the project manager.",
    "parameters": {"type": "object", "properties": {"title": {"type": "string", "description": "Task title"}},
                   "required": ["title"]}}}
GET_TIME_TOOL = {"type": "function", "function": {
    "name": "get_time", "description": "Get the current local time in a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}

# The seed's own web_search schema (seed 000 §2.2), as a Chat Completions tool.
WEB_SEARCH_TOOL = {"type": "function", "function": {
    "name": "web_search", "description": "Search the web for information. Returns up to 5 results.",
    "parameters": {"type": "object", "properties": {
        "query": {"type": "string", "description": "The search query to look up on the web."},
        "limit": {"type": "integer", "description": "Maximum number of results.", "minimum": 1, "maximum": 100,
                  "default": 5}},
        "required": ["query"]}}}


# =========================================================================== function calling
@demo
def five_steps() -> dict:
    """The five steps of one tool call, on the seeds' Shanghai weather request."""
    client = MockLLM().client()
    messages = [{"role": "user", "content": "What's the weather in Shanghai?"}]
    # 1. the tools travel with the messages
    reply = client.chat.completions.create(model=MODEL, messages=messages, tools=[WEATHER_TOOL])
    # 2. the model answers with tool_calls, not text
    message, call = reply.choices[0].message, reply.choices[0].message.tool_calls[0]
    print("2. finish_reason:", reply.choices[0].finish_reason, "| content:", message.content,
          "| call:", call.function.name, call.function.arguments)
    # 3. the app parses arguments (a JSON string) and runs the function itself
    result = get_weather(**json.loads(call.function.arguments))
    print("3. get_weather ->", result)
    # 4. the assistant message, then one tool message with the same tool_call_id
    messages += [as_dict(message), {"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)}]
    # 5. the model writes the answer from the result
    final = client.chat.completions.create(model=MODEL, messages=messages, tools=[WEATHER_TOOL])
    messages.append(as_dict(final.choices[0].message))
    print("5. answer:", final.choices[0].message.content, "\n")
    show_messages(messages)
    return {"finish_reason": reply.choices[0].finish_reason, "call": call.function.name,
            "arguments": json.loads(call.function.arguments), "result": result,
            "answer": final.choices[0].message.content, "roles": [m["role"] for m in messages]}


@demo
def malformed_arguments() -> dict:
    """What `arguments` can look like, and what a robust loop does with each."""
    samples = ['{"city": "Paris"}', "", None, '["Paris"]', '{"city": "Paris"}}', '{"city": "Par']
    outcomes = {}
    for raw in samples:
        call = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": raw}}
        try:
            parsed = f"parsed {parse_arguments(raw)}"
        except ValueError as e:
            parsed = f"error: {e}"
        content = run_tool_call(call, {"get_weather": get_weather})["content"]
        outcomes[repr(raw)] = content
        print(f"{raw!r:<22} {parsed:<44} -> tool message: {content}")
    return outcomes


@demo
def unanswered_call() -> dict:
    """Forget the tool message and the API refuses the next request (HTTP 400)."""
    client = MockLLM().client(max_retries=0)
    messages = [{"role": "user", "content": "What's the weather in Shanghai?"}]
    message = as_dict(client.chat.completions.create(model=MODEL, messages=messages,
                                                     tools=[WEATHER_TOOL]).choices[0].message)
    messages.append(message)
    try:  # no role="tool" message for the call
        client.chat.completions.create(model=MODEL, messages=messages + [{"role": "user", "content": "Thanks!"}],
                                       tools=[WEATHER_TOOL])
    except openai.BadRequestError as e:
        error = e.body
        print("without the tool message ->", e.status_code, error["type"], "\n   ", error["message"])
    call_id = message["tool_calls"][0]["id"]
    messages.append({"role": "tool", "tool_call_id": call_id, "content": json.dumps(get_weather("Shanghai"))})
    answer = client.chat.completions.create(model=MODEL, messages=messages, tools=[WEATHER_TOOL])
    print("with it ->", answer.choices[0].message.content)
    return {"status": 400, "error": error, "answer": answer.choices[0].message.content}


@demo
def tool_choice() -> dict:
    """The four `tool_choice` settings on the same question."""
    client = MockLLM().client()
    question = [{"role": "user", "content": "What is the weather in Tokyo today?"}]
    results = {}
    for choice in ["auto", "none", "required", {"type": "function", "function": {"name": "get_time"}}]:
        message = client.chat.completions.create(model=MODEL, messages=question, tools=[WEATHER_TOOL, GET_TIME_TOOL],
                                                 tool_choice=choice).choices[0].message
        results[json.dumps(choice)] = _calls(message) or message.content
        print(f"{json.dumps(choice):<55} -> {results[json.dumps(choice)]}")
    return results


@demo
def parallel_calls() -> dict:
    """Two cities: one message with two calls, or one call per round trip."""
    functions = {"get_weather": get_weather}
    requests = {}
    for parallel in (True, False):
        mock = MockLLM()
        messages = [{"role": "user", "content": "What's the weather in Beijing and in Shanghai?"}]
        answer = tool_loop(mock.client(), messages, [WEATHER_TOOL], functions, parallel_tool_calls=parallel)
        requests[parallel] = len(mock.log)
        print(f"parallel_tool_calls={parallel}: {len(mock.log)} model requests")
        show_messages(messages)
        print()
    print(f"parallel calls saved {requests[False] - requests[True]} model round trip(s); answer: {answer}")
    return {"requests_parallel": requests[True], "requests_sequential": requests[False], "answer": answer}


@demo
def streaming_tool_calls() -> dict:
    """Streamed tool calls arrive as deltas grouped by `index`; assembled, they equal the normal answer."""
    client = MockLLM().client()
    request = dict(model=MODEL, messages=[{"role": "user", "content": "Weather in Paris and Tokyo?"}],
                   tools=[WEATHER_TOOL])
    chunks = list(client.chat.completions.create(**request, stream=True))
    for chunk in chunks:
        for d in chunk.choices[0].delta.tool_calls or [] if chunk.choices else []:
            print(f"index={d.index} id={'call_…' if d.id else None} name={d.function.name} "
                  f"arguments+={d.function.arguments!r}")
    assembled = assemble_stream(chunks)
    plain = as_dict(client.chat.completions.create(**request).choices[0].message)
    same = [c["function"] for c in assembled["tool_calls"]] == [c["function"] for c in plain["tool_calls"]]
    print("finish_reason:", assembled["finish_reason"], "| assembled == non-streamed:", same)
    return {"calls": _calls(assembled), "same": same, "finish_reason": assembled["finish_reason"]}


@demo
def keyword_router() -> dict:
    """If/else keyword routing vs the model's choice, on requests the rules get wrong."""
    mock = MockLLM()
    tools = [WEATHER_TOOL, SEARCH_WIKI_TOOL, CREATE_TASK_TOOL]
    rows = {}
    for text in ["What's the temperature in Beijing?", "东京的气温是多少？",
                 "Not the weather: search the wiki for onboarding", "What's the weather like?"]:
        decision = mock.explain([{"role": "user", "content": text}], tools)
        model = [c.name + json.dumps(c.arguments, ensure_ascii=False) for c in decision.tool_calls] or decision.content
        rows[text] = (route(text), model)
        print(f"{text}\n   keyword rules -> {route(text)} (no arguments)\n   model         -> {model}")
    return rows


@demo
def responses_vs_chat() -> dict:
    """The same tool call in the Chat Completions API and in the Responses API."""
    client = MockLLM().client()
    chat = client.chat.completions.create(model=MODEL, tools=[WEATHER_TOOL],
                                          messages=[{"role": "user", "content": "What's the weather in Shanghai?"}])
    call = chat.choices[0].message.tool_calls[0]
    print("Chat Completions tool:  ", json.dumps(WEATHER_TOOL)[:60], "…")
    print("  -> message.tool_calls[0]:", {"id": "call_…", "function": {"name": call.function.name,
                                                                      "arguments": call.function.arguments}})
    flat_tool = {"type": "function", **WEATHER_TOOL["function"]}  # Responses tools are flat
    resp = client.responses.create(model=MODEL, input="What's the weather in Shanghai?", tools=[flat_tool])
    item = resp.output[0]
    print("Responses API tool:     ", json.dumps(flat_tool)[:60], "…")
    print("  -> output[0]:", {"type": item.type, "call_id": "call_…", "name": item.name, "arguments": item.arguments})
    result = {"type": "function_call_output", "call_id": item.call_id, "output": json.dumps(get_weather("Shanghai"))}
    final = client.responses.create(model=MODEL, tools=[flat_tool], input=[
        {"role": "user", "content": "What's the weather in Shanghai?"}, item.model_dump(exclude_none=True), result])
    print("  answered with a function_call_output item ->", final.output_text)
    return {"chat_call": call.function.name, "responses_item": item.type, "answer": final.output_text}


# =========================================================================== schemas
@demo
def description_matters() -> dict:
    """The model picks tools by their descriptions: vague ones get no call, clear ones the right call."""
    mock = MockLLM()
    question = [{"role": "user", "content": "What's the weather in Shanghai?"}]
    params = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    vague = [{"type": "function", "function": {"name": "tool_a", "description": "Helper for data.", "parameters": params}},
             {"type": "function", "function": {"name": "tool_b", "description": "Does city things.",
                                               "parameters": params}}]
    clear = [GET_TIME_TOOL, WEATHER_TOOL]
    out = {}
    for label, tools in [("vague", vague), ("clear", clear)]:
        decision = mock.explain(question, tools)
        out[label] = decision
        print(f"{label} descriptions: scores {decision.scores} matched {decision.matched}")
        print(f"   -> {decision.tool_calls or decision.content}")
    return {k: ([c.name for c in d.tool_calls], d.scores) for k, d in out.items()}


@demo
def validate_arguments() -> dict:
    """Validate the model's arguments against the seed's web_search schema with jsonschema."""
    schema = WEB_SEARCH_TOOL["function"]["parameters"]
    jsonschema.Draft202012Validator.check_schema(schema)  # the schema itself is valid JSON Schema
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    verdicts = {}
    for args in [{"query": "MCP transports"}, {"query": "MCP", "limit": 500}, {"limit": 3},
                 {"query": "MCP", "limit": "5"}, {"query": "MCP", "limit": 2.5}]:
        errors = [e.message for e in validator.iter_errors(args)]
        verdicts[json.dumps(args)] = errors
        print(f"{json.dumps(args):<36} -> {'valid' if not errors else 'invalid: ' + '; '.join(errors)}")
    return verdicts


@demo
def strict_mode() -> dict:
    """Strict mode refuses the seed's schema as written; to_strict fixes it and the API accepts it."""
    schema = WEB_SEARCH_TOOL["function"]["parameters"]
    for problem in strict_violations(schema):
        print("✗", problem)
    client = MockLLM().client(max_retries=0)
    question = [{"role": "user", "content": "Search the web for MCP transports, top 3 results"}]
    tool = {"type": "function", "function": {**WEB_SEARCH_TOOL["function"], "strict": True}}
    try:
        client.chat.completions.create(model=MODEL, messages=question, tools=[tool])
    except openai.BadRequestError as e:
        print("as written ->", e.status_code)
    strict = to_strict(schema)
    print("to_strict ->", json.dumps(strict))
    tool["function"]["parameters"] = strict
    call = client.chat.completions.create(model=MODEL, messages=question, tools=[tool]).choices[0].message.tool_calls[0]
    print("converted -> accepted:", call.function.name, call.function.arguments)
    # A strict model must send every field: null when the user did not mention it. Map null back to the default.
    omitted = {"query": "MCP transports", "limit": None}
    print("restore_defaults", omitted, "->", restore_defaults(omitted, schema))
    return {"violations": strict_violations(schema), "after": strict_violations(strict),
            "arguments": json.loads(call.function.arguments), "restored": restore_defaults(omitted, schema)}


# =========================================================================== registries
@demo
def dispatch_errors() -> dict:
    """Every way a call can fail becomes a tool message the model can read, never an exception."""
    functions = {"get_weather": get_weather}
    cases = {"unknown tool": ("get_wether", '{"city": "Paris"}'), "invalid JSON": ("get_weather", '{"city": "Par'),
             "not an object": ("get_weather", '["Paris"]'), "missing argument": ("get_weather", "{}"),
             "the tool raises": ("get_weather", '{"city": "Atlantis"}'), "fine": ("get_weather", '{"city": "Paris"}')}
    out = {}
    for label, (name, arguments) in cases.items():
        call = {"id": f"call_{len(out)}", "type": "function", "function": {"name": name, "arguments": arguments}}
        message = run_tool_call(call, functions)
        out[label] = json.loads(message["content"])
        print(f"{label:<17} -> {message['content']}")
    return out


# =========================================================================== reliability
@demo
def llm_retries() -> dict:
    """The model API answers 429 twice: the openai SDK retries (honouring Retry-After) and succeeds."""
    mock = MockLLM()
    mock.inject("rate_limit", times=2, retry_after=0.01)  # 10 ms, so the demo stays fast
    reply = mock.client(max_retries=2).chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "What's the weather in Shanghai?"}], tools=[WEATHER_TOOL])
    statuses = [exchange.status for exchange in mock.log]
    print("max_retries=2: HTTP statuses", statuses, "->", _calls(reply.choices[0].message))
    mock.reset()
    mock.inject("rate_limit", times=1, retry_after=0.01)
    try:
        mock.client(max_retries=0).chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "Hello"}])
    except openai.RateLimitError as e:
        print("max_retries=0: the error reaches your code ->", type(e).__name__, e.status_code,
              "Retry-After:", e.response.headers.get("retry-after"))
    return {"statuses": statuses, "calls": _calls(reply.choices[0].message)}


@demo
def model_mistakes() -> dict:
    """The model calls a tool that does not exist; the error goes back and the model corrects itself."""
    mock = MockLLM()
    mock.inject("hallucinated_tool")
    client = mock.client()
    messages = [{"role": "user", "content": "What's the weather in Shanghai?"}]
    answer = tool_loop(client, messages, [WEATHER_TOOL], {"get_weather": get_weather})
    show_messages(messages, width=150)
    mock.inject("missing_required")
    bad = client.chat.completions.create(model=MODEL, messages=messages[:1], tools=[WEATHER_TOOL]).choices[0].message
    reply = run_tool_call(bad.tool_calls[0], {"get_weather": get_weather})
    print("\nmissing required argument:", _calls(bad), "->", reply["content"])
    return {"calls": [c for m in messages for c in _calls(m)], "answer": answer,
            "missing": json.loads(reply["content"])}


# =========================================================================== system design
#: 40 teams and the five kinds of record each one's tools manage (invented, but overlapping like real ones).
TEAM_OBJECTS: dict[str, tuple[str, ...]] = {
    "finance": ("report", "budget", "forecast", "invoice", "ledger"), "hr": ("employee", "leave", "review", "policy", "report"),
    "sales": ("lead", "deal", "quote", "forecast", "report"), "marketing": ("campaign", "audience", "asset", "budget", "report"),
    "support": ("ticket", "customer", "macro", "survey", "report"), "legal": ("contract", "case", "policy", "review", "document"),
    "it": ("ticket", "device", "license", "account", "asset"), "security": ("incident", "alert", "policy", "scan", "report"),
    "data": ("dataset", "pipeline", "dashboard", "metric", "report"), "devops": ("deployment", "pipeline", "alert", "incident", "metric"),
    "billing": ("invoice", "payment", "refund", "plan", "report"), "payments": ("payment", "refund", "payout", "dispute", "report"),
    "search": ("index", "query", "ranking", "synonym", "report"), "ads": ("campaign", "creative", "bid", "budget", "report"),
    "crm": ("contact", "account", "deal", "note", "activity"), "inventory": ("item", "stock", "warehouse", "order", "report"),
    "shipping": ("shipment", "label", "carrier", "order", "tracking"), "procurement": ("vendor", "order", "quote", "contract", "invoice"),
    "facilities": ("room", "booking", "ticket", "asset", "badge"), "travel": ("trip", "booking", "expense", "policy", "visa"),
    "learning": ("course", "enrolment", "certificate", "quiz", "report"), "recruiting": ("candidate", "job", "interview", "offer", "report"),
    "payroll": ("payslip", "salary", "bonus", "tax", "report"), "compliance": ("control", "audit", "policy", "evidence", "report"),
    "risk": ("risk", "assessment", "control", "incident", "report"), "audit": ("audit", "finding", "evidence", "report", "plan"),
    "design": ("mockup", "asset", "review", "component", "note"), "mobile": ("build", "release", "crash", "device", "metric"),
    "web": ("page", "release", "experiment", "metric", "incident"), "growth": ("experiment", "funnel", "cohort", "metric", "report"),
    "partners": ("partner", "contract", "deal", "referral", "report"), "research": ("study", "participant", "note", "insight", "report"),
    "quality": ("test", "defect", "release", "checklist", "report"), "release": ("release", "changelog", "build", "approval", "note"),
    "infra": ("server", "cluster", "volume", "alert", "metric"), "network": ("vpn", "firewall", "route", "alert", "device"),
    "identity": ("user", "group", "role", "token", "audit"), "docs": ("page", "space", "template", "comment", "review"),
    "community": ("post", "member", "event", "badge", "report"), "events": ("event", "venue", "attendee", "ticket", "budget"),
}
VERBS = ("get", "list", "create", "update", "archive")
_ID_PARAMS = {"type": "object", "properties": {"id": {"type": "string", "description": "Record id"}}}
_CREATE_PARAMS = {"type": "object", "properties": {"title": {"type": "string", "description": "Short title"}},
                  "required": ["title"]}


def tool_catalogue(n: int = 1000) -> list[dict]:
    """``n`` namespaced tools (``team__verb_object``) from 40 teams, plus ``weather__get_weather``.

    Each team has five verbs for five kinds of record, and records overlap between teams
    (support and IT both have tickets), so retrieval meets real distractors. Names follow
    the providers' rule ``^[a-zA-Z0-9_-]{1,64}$``, which is why the namespace separator is
    ``__`` and not a dot.

    Raises:
        ValueError: ``n`` is larger than the 1,001 tools the catalogue has.
    """
    tools = [{"type": "function", "function": {**WEATHER_TOOL["function"], "name": "weather__get_weather"}}]
    for team, objects in TEAM_OBJECTS.items():
        for obj in objects:
            for verb in VERBS:
                tools.append({"type": "function", "function": {
                    "name": f"{team}__{verb}_{obj}",
                    "description": f"{verb.capitalize()} {'one ' + obj if verb != 'list' else obj + ' records'} "
                                   f"in the {team} team's system.",
                    "parameters": _CREATE_PARAMS if verb == "create" else _ID_PARAMS}})
    if n > len(tools):
        raise ValueError(f"the catalogue has {len(tools)} tools; asked for {n}")
    return tools[:n]


@demo
def tool_retrieval() -> dict:
    """1,000 tools: retrieve the (at most) 5 relevant ones for each request, send only those, and the model still calls the right one."""
    catalogue = tool_catalogue(1000)
    print(f"catalogue: {len(catalogue)} tools from {len(TEAM_OBJECTS)} teams, "
          f"{len(json.dumps(catalogue)):,} characters of definitions on every request if sent whole")
    mock, picked = MockLLM(), {}
    for text in ["What's the weather in Shanghai?", 'Create a support ticket titled "VPN is down"']:
        request = [{"role": "user", "content": text}]
        scores = mock.explain(request, catalogue).scores  # stand-in for an embedding index over descriptions
        top = [name for name in sorted(scores, key=lambda name: -scores[name]) if scores[name] > 0][:5]
        selected = [t for t in catalogue if t["function"]["name"] in top]
        message = mock.client().chat.completions.create(model=MODEL, messages=request, tools=selected)
        picked[text] = (top, _calls(message.choices[0].message))
        print(f"\n{text}\n   top 5: {[(name, scores[name]) for name in top]}")
        print(f"   sent {len(json.dumps(selected)):,} characters -> model calls {picked[text][1]}")
    return {"n": len(catalogue), "picked": picked, "chars_all": len(json.dumps(catalogue))}


@demo
def trace_run() -> dict:
    """One agent run recorded as a trace: every model request, tool call and error, in order."""
    mock = MockLLM()
    mock.inject("hallucinated_tool")  # the first call names a tool that does not exist
    client, trace = mock.client(), Trace("weather, two cities")
    messages = [{"role": "user", "content": "What's the weather in Beijing and in Shanghai?"}]
    for _ in range(5):
        trace.add("App", "LLM", f"POST /chat/completions (messages={len(messages)})", layer="llm")
        message = client.chat.completions.create(model=MODEL, messages=messages, tools=[WEATHER_TOOL]).choices[0].message
        messages.append(as_dict(message))
        if not message.tool_calls:
            trace.add("LLM", "App", f"answer: {message.content}", kind="response", layer="llm")
            break
        trace.add("LLM", "App", "tool_calls: " + ", ".join(_calls(message)), kind="response", layer="llm")
        for call in message.tool_calls:
            with trace.span("Tool", f"{call.function.name}({call.function.arguments})", layer="tool") as span:
                result = run_tool_call(call, {"get_weather": get_weather})
                span.payload = json.loads(result["content"])
            messages.append(result)
    print(trace.text())
    failed = [e.label for e in trace.events if isinstance(e.payload, dict) and "error" in e.payload]
    model_calls = sum(e.layer == "llm" and e.kind == "request" for e in trace.events)
    print(f"\nmodel requests: {model_calls} | tool calls: {len(trace.filter('tool'))} | failed: {failed}")
    return {"model_calls": model_calls, "tool_calls": len(trace.filter("tool")), "failed": failed,
            "events": len(trace)}
