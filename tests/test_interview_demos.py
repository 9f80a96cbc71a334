"""Each interview demonstration prints (and returns) what its answer claims; asserted here, not just run."""
from __future__ import annotations

import asyncio
import sys
import types

import pytest

from course_lib.interview.bank import load_bank
from course_lib.interview.demos import DEMOS, PENDING, DemoPending, demo_source, run_demo, tool_catalogue


def _run(name, capsys):
    result = DEMOS[name].func()
    if asyncio.iscoroutine(result):  # MCP and orchestration demos are async (awaited in notebooks)
        result = asyncio.run(result)
    return result, capsys.readouterr().out


def test_five_steps(capsys):
    r, out = _run("five_steps", capsys)
    assert r["finish_reason"] == "tool_calls" and r["call"] == "get_weather"
    assert r["arguments"] == {"city": "Shanghai"} and r["result"] == {"temp": 28, "humidity": 65}
    assert r["roles"] == ["user", "assistant", "tool", "assistant"]
    assert "28" in r["answer"] and "65" in r["answer"]
    assert "2. finish_reason: tool_calls | content: None | call: get_weather" in out
    assert "3. get_weather -> {'temp': 28, 'humidity': 65}" in out


def test_malformed_arguments(capsys):
    r, out = _run("malformed_arguments", capsys)
    assert r["'{\"city\": \"Paris\"}'"] == '{"temp": 18, "humidity": 72}'
    assert "missing 1 required positional argument: 'city'" in r["''"] and r["''"] == r["None"]
    assert "arguments must be a JSON object, got list" in r["'[\"Paris\"]'"]
    assert "invalid JSON: Extra data at char 17" in r["'{\"city\": \"Paris\"}}'"]
    assert "Unterminated string" in r["'{\"city\": \"Par'"]
    assert out.count("-> tool message:") == 6


def test_unanswered_call(capsys):
    r, out = _run("unanswered_call", capsys)
    assert r["error"]["type"] == "invalid_request_error"
    assert "did not have response messages" in r["error"]["message"]
    assert "without the tool message -> 400 invalid_request_error" in out
    assert "28" in r["answer"]


def test_tool_choice(capsys):
    r, out = _run("tool_choice", capsys)
    assert r['"auto"'] == ['get_weather({"city": "Tokyo"})'] == r['"required"']
    assert isinstance(r['"none"'], str) and "tool_choice='none'" in r['"none"']
    assert r['{"type": "function", "function": {"name": "get_time"}}'] == ['get_time({"city": "Tokyo"})']
    assert out.count("->") == 4


def test_parallel_calls(capsys):
    r, out = _run("parallel_calls", capsys)
    assert (r["requests_parallel"], r["requests_sequential"]) == (2, 3)
    assert 'get_weather({"city": "Beijing"}), get_weather({"city": "Shanghai"})' in out
    assert "parallel calls saved 1 model round trip(s)" in out
    assert "22" in r["answer"] and "28" in r["answer"]


def test_streaming_tool_calls(capsys):
    r, out = _run("streaming_tool_calls", capsys)
    assert r["same"] and r["finish_reason"] == "tool_calls"
    assert r["calls"] == ['get_weather({"city": "Paris"})', 'get_weather({"city": "Tokyo"})']
    assert "index=0 id=call_… name=get_weather arguments+=''" in out and "index=1" in out


def test_keyword_router(capsys):
    r, out = _run("keyword_router", capsys)
    assert r["What's the temperature in Beijing?"] == ("get_weather", ['get_weather{"city": "Beijing"}'])
    assert r["东京的气温是多少？"] == (None, ['get_weather{"city": "东京"}'])
    rules, model = r["Not the weather: search the wiki for onboarding"]
    assert rules == "get_weather" and model[0].startswith("search_wiki")
    rules, model = r["What's the weather like?"]
    assert rules == "get_weather" and isinstance(model, str) and "city" in model  # asks instead of guessing
    assert out.count("(no arguments)") == 4


def test_responses_vs_chat(capsys):
    r, out = _run("responses_vs_chat", capsys)
    assert r["chat_call"] == "get_weather" and r["responses_item"] == "function_call"
    assert "28" in r["answer"]
    assert '"type": "function", "name": "get_weather"' in out  # the flat Responses tool


def test_description_matters(capsys):
    r, out = _run("description_matters", capsys)
    assert r["vague"][0] == [] and set(r["vague"][1].values()) == {0}
    assert r["clear"][0] == ["get_weather"] and r["clear"][1]["get_weather"] > r["clear"][1]["get_time"]
    assert "matched {'get_weather': ['weather']" in out


def test_validate_arguments(capsys):
    r, out = _run("validate_arguments", capsys)
    assert r['{"query": "MCP transports"}'] == []
    assert r['{"query": "MCP", "limit": 500}'] == ["500 is greater than the maximum of 100"]
    assert r['{"limit": 3}'] == ["'query' is a required property"]
    assert r['{"query": "MCP", "limit": "5"}'] == ["'5' is not of type 'integer'"]
    assert r['{"query": "MCP", "limit": 2.5}'] == ["2.5 is not of type 'integer'"]
    assert out.count("invalid:") == 4


def test_strict_mode(capsys):
    r, out = _run("strict_mode", capsys)
    assert len(r["violations"]) == 3 and r["after"] == []
    assert "as written -> 400" in out
    assert r["arguments"]["limit"] == 3
    assert r["restored"] == {"query": "MCP transports", "limit": 5}


def test_dispatch_errors(capsys):
    r, out = _run("dispatch_errors", capsys)
    assert r["unknown tool"]["error"] == "unknown tool 'get_wether'; available: get_weather"
    assert r["invalid JSON"]["error"].startswith("invalid JSON")
    assert r["not an object"]["error"].startswith("arguments must be a JSON object")
    assert "missing 1 required positional argument" in r["missing argument"]["error"]
    assert r["the tool raises"]["error"].startswith("UnknownCity: no weather data for 'Atlantis'")
    assert r["fine"] == {"temp": 18, "humidity": 72}
    assert "Traceback" not in out


def test_llm_retries(capsys):
    r, out = _run("llm_retries", capsys)
    assert r["statuses"] == [429, 429, 200] and r["calls"] == ['get_weather({"city": "Shanghai"})']
    assert "max_retries=0: the error reaches your code -> RateLimitError 429 Retry-After: 0.01" in out


def test_model_mistakes(capsys):
    r, out = _run("model_mistakes", capsys)
    assert r["calls"][0].startswith("get_weather_v2(") and r["calls"][-1] == 'get_weather({"city": "Shanghai"})'
    assert "unknown tool 'get_weather_v2'; available: get_weather" in out
    assert "missing 1 required positional argument: 'city'" in r["missing"]["error"]
    assert "28" in r["answer"]


def test_openapi_vs_tool(capsys):
    r, out = _run("openapi_vs_tool", capsys)
    assert r["parameters"] == ["city", "unit"]  # the Authorization header is not for the model
    assert r["arguments"] == {"city": "Tokyo", "unit": "fahrenheit"}
    assert r["url"] == "https://weather.example/v1/weather/Tokyo?unit=fahrenheit"
    assert r["status"] == 200 and r["body"] == {"temp": 75, "humidity": 70}
    assert "'Authorization (header)'" in out


def test_schema_from_code(capsys):
    r, out = _run("schema_from_code", capsys)
    assert r["required"] == ["room", "day"] == r["pydantic_required"]
    assert r["size"]["enum"] == ["small", "large"] and r["size"]["default"] == "small"
    assert {"room", "size", "hours"} <= set(r["same"])
    assert '"format": "date"' in out


def test_registry_q1(capsys):
    r, out = _run("registry_q1", capsys)
    assert r["visible"] == ["get_weather", "web_search"]
    assert "🚫 terminal/run_container: missing environment variable DOCKER_HOST" in out
    assert r["scores"]["get_weather"] > r["scores"]["web_search"]
    assert [c["name"] for c in r["calls"]] == ["get_weather"] and "28" in r["answer"]
    assert r["bad"]["kind"] == "invalid_arguments" and "missing required argument 'city'" in r["bad"]["error"]


def test_registry_availability(capsys):
    r, out = _run("registry_availability", capsys)
    assert r["visibility"] == [("delegate_task", True, ""), ("web_search", False, "toolset 'web' is disabled"),
                               ("run_container", False, "docker is not installed on this machine")]
    assert r["description"] == "Hand a task to one of these agents: researcher, coder, reviewer."
    assert "researcher, coder." in out
    assert r["hidden"]["kind"] == "unavailable"


def test_five_layers(capsys):
    r, out = _run("five_layers", capsys)
    assert "5 timeout + 1 retry: web_search after 3 calls" in out and len(r["waits"]) >= 2
    assert "2 fallback:          bing_search" in out
    assert "3 degradation:       the tool web_search is unavailable now" in out
    assert r["charges"] == 1
    assert "attempt 1 ✗ ToolTimeout" in r["trace"] and "fall back to bing_search" in r["trace"]


def test_backoff_jitter(capsys):
    r, out = _run("backoff_jitter", capsys)
    assert "jitter=none  delays (s): [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]" in out
    assert r["peaks"]["full"] < r["peaks"]["none"] and r["done"]["full"] < r["done"]["none"]
    assert r["attempts_on_bad_arguments"] == 1


def test_idempotency_keys(capsys):
    r, out = _run("idempotency_keys", capsys)
    assert (r["blind"], r["keyed"], r["replays"]) == (2, 1, 1)
    assert "a new request (new call id) is a new order: ord-0002" in out


def test_sandbox_permissions(capsys):
    r, out = _run("sandbox_permissions", capsys)
    assert r["paths"]["notes.txt"] == (True, "allowed")
    assert r["paths"]["../../etc/passwd"] == (True, "path_outside_allowed")  # naive allows, the policy refuses
    assert r["paths"]["shortcut/passwd"] == (True, "path_outside_allowed")   # the symlink escape
    assert r["commands"]["ls -l"] == (False, True, "")
    assert r["commands"]["r''m -rf /"][:2] == (False, False)               # the naive blacklist misses it
    assert r["commands"]["find . -delete"] == (False, False, "dangerous_option")
    assert r["limits"] == ("output", "wall") and r["truncated"]


def test_prompt_injection(capsys):
    r, out = _run("prompt_injection", capsys)
    assert r["warnings"] == ["ignore previous instructions", "asks for a dangerous tool"]
    assert r["result"]["violation"] == "approval_denied" and r["result"]["blocked"]
    assert r["deleted"] == [] and r["violations"] == ["approval_denied"]
    assert '{"untrusted_data": {"source": "fetch_page"' in out


def test_orchestration(capsys):
    r, out = _run("orchestration", capsys)
    assert r["speedup_ok"]
    assert r["ran"] == ["indoor", "weather"] and r["skipped"] == ["outdoor"]  # Tokyo's humidity is 70
    assert "plan levels: [['weather'], ['indoor', 'outdoor']]" in out


def test_json_rpc_messages(capsys):
    r, out = _run("json_rpc_messages", capsys)
    assert r["request"] == {"jsonrpc": "2.0", "result": 19, "id": 3}
    assert r["notification"] is None and "(no reply)" in out
    assert r["unknown method"]["error"]["code"] == -32601 and r["unknown method"]["id"] == "1"
    assert r["invalid JSON"]["error"]["code"] == -32700 and r["invalid JSON"]["id"] is None
    assert [m.get("result", m.get("error", {}).get("code")) for m in r["batch"]] == [7, -32600]


def test_rpc_styles(capsys):
    r, out = _run("rpc_styles", capsys)
    assert set(r) == {"REST", "JSON-RPC", "gRPC"}
    assert r["gRPC"][0] < r["REST"][0] < r["JSON-RPC"][0]  # binary < path + query < JSON envelope
    assert "GET /weather/Tokyo?unit=celsius" in out


def test_two_wires(capsys):
    r, out = _run("two_wires", capsys)
    assert r["fc_call"] == ("get_weather", {"city": "Shanghai"})
    assert r["mcp_request"]["method"] == "tools/call"
    assert r["mcp_request"]["params"] == {"name": "get_weather", "arguments": {"city": "Shanghai"}}
    assert r["structured"] == {"temp": 28, "humidity": 65}
    assert r["labels"][0] == "initialize 2025-11-25 (id 1)" and "tools/list (id 2)" in r["labels"]


def test_mcp_capabilities(capsys):
    r, out = _run("mcp_capabilities", capsys)
    assert r["task"] == "Write the interview notes" and r["prompt_role"] == "user"
    assert r["summary"].startswith("One open task: writing the interview notes.")
    for method in ("tools/call create_task", "resources/read tasks://all", "prompts/get code_review",
                   "sampling/createMessage"):
        assert method in r["methods"], method
    # sampling is the one request the *server* sends, in the middle of the client's tools/call
    assert r["methods"].index("sampling/createMessage") > r["methods"].index("tools/call summarize_tasks")


def test_mcp_handshake(capsys):
    r, out = _run("mcp_handshake", capsys)
    assert r["2025-11-25"][:3] == ["initialize 2025-11-25 (id 1)", "result 2025-11-25 (id 1)",
                                   "notifications/initialized"]
    assert r["2026-07-28"][0] == "server/discover (id 1)" and "initialize" not in " ".join(r["2026-07-28"])


def test_mcp_errors(capsys):
    r, out = _run("mcp_errors", capsys)
    assert r["unknown_tool"] == (-32602, "Unknown tool: no_such_tool")
    assert r["is_error"] and r["typo"] and r["unknown_method"] == -32601
    assert "unexpected argument 'titel'" in out


def test_mcp_authorization(capsys):
    r, out = _run("mcp_authorization", capsys)
    assert r["first"] == ["POST /mcp initialize", "GET /.well-known/oauth-protected-resource/mcp",
                          "GET /.well-known/oauth-authorization-server", "POST /register"]
    assert r["scopes"] == ["tasks:read", "tasks:write"] and r["stepped_up"] and r["foreign_token"] == 401


def test_mcp_threats(capsys):
    r, out = _run("mcp_threats", capsys)
    assert {"hidden-characters", "instructions", "secrets"} <= set(r["kinds"])
    assert r["changed"] == ["add_numbers"] and r["allowed"] is False


def test_mcp_roots(capsys):
    r, out = _run("mcp_roots", capsys)
    assert r["roots"] == ["project: file:///home/ada/project"] and r["modern"].startswith("Cannot send 'roots/list'")


def test_mcp_cancellation(capsys):
    r, out = _run("mcp_cancellation", capsys)
    assert "timed out" in r["error"] and r["cancelled"]["requestId"] == 2 and r["server"] == ["started", "cancelled"]


def test_mcp_subscriptions(capsys):
    r, out = _run("mcp_subscriptions", capsys)
    assert r["legacy"] == ["tasks://all"] and r["modern"] == ["ResourceUpdated", "tasks://all"]


def test_transports(capsys):
    r, out = _run("transports", capsys)
    for transport in ("in-memory", "stdio", "streamable HTTP"):
        assert r[transport] == ("2026-07-28", {"result": 5}), transport
    assert r["HTTP+SSE (legacy)"] == ("2025-11-25", {"result": 5})
    assert r["origin_status"] == 403
    from course_lib.servers import running_servers
    assert not [s for s in running_servers() if s.name.startswith("interview-")]  # nothing left running


def test_three_layers(capsys):
    r, out = _run("three_layers", capsys)
    assert r["fc"] == ("get_weather", {"city": "Shanghai"}) and r["mcp"] == "todo"
    assert r["a2a"][0] == "submitted" and r["a2a"][-1] == "completed"
    assert "1279.9" in r["a2a_text"]


def test_a2a_task(capsys):
    r, out = _run("a2a_task", capsys)
    assert r["skills"] == ["finance_report", "sql_query"]
    assert r["turns"] == [("Which year? The finance database has 2022–2024.", "2023")]
    assert r["states"][:2] == ["submitted", "input-required"] and r["states"][-1] == "completed"
    assert "1078.7" in r["text"] and r["agrees"]
    assert "GET /.well-known/agent-card.json" in out and "SendStreamingMessage" in out


def test_a2a_push(capsys):
    r, out = _run("a2a_push", capsys)
    assert r["states"] == ["TASK_STATE_WORKING", "TASK_STATE_COMPLETED"] and r["forged"] == 401
    assert 'artifactUpdate "finance-result"' in out


def test_a2a_security(capsys):
    r, out = _run("a2a_security", capsys)
    assert r["anonymous"] == 401
    assert r["states"] == ["submitted", "auth-required", "working", "completed"]
    assert "securitySchemes: ['apiKey']" in out and "finance:sql" in out


def test_a2a_signed_card(capsys):
    r, out = _run("a2a_signed_card", capsys)
    assert r == {"tampered": "InvalidSignaturesError", "other key": "InvalidSignaturesError"}
    assert "'alg': 'ES256'" in out and "verified" in out


def test_a2a_vs_mcp_tasks(capsys):
    r, out = _run("a2a_vs_mcp_tasks", capsys)
    assert set(r["mcp"]) == {"working", "input_required", "completed", "failed", "cancelled"}
    assert {"submitted", "rejected", "auth_required"} <= set(r["a2a"]) - set(r["mcp"])
    assert {"tasks/get", "tasks/result", "tasks/list", "tasks/cancel"} <= set(r["mcp_methods"])
    ext = r["extension"]
    assert (ext["resultType"], ext["status"]) == ("task", "working") and ext["polls"] >= 1
    assert ext["result"] == "report for Q3: revenue up 12%" and "task handle" in out


def test_capstone_run(capsys):
    r, out = _run("capstone_run", capsys)
    assert r["layers"][:3] == ["app", "llm", "tool"] and {"a2a", "mcp"} <= set(r["layers"])
    assert r["builtin"] == ["get_weather"] and sorted(r["mcp"]) == ["create_task", "save_note"]
    assert r["a2a"] == ["ask_finance_db_agent_finance_report"]
    assert "1279.9" in r["answer"] and "28 °C" in r["answer"]
    assert any("attempt 1 ✗" in label for label in r["retries"])         # the injected fault, retried
    assert sorted(r["approvals"]) == [("create_task", True), ("save_note", True)] and r["refusals"] == []
    assert "A2A               Finance DB agent" in out
    from course_lib.servers import running_servers
    assert not [s for s in running_servers() if s.name.startswith("interview-capstone")]


def test_tool_catalogue():
    tools = tool_catalogue()
    names = [t["function"]["name"] for t in tools]
    assert len(tools) == 1000 == len(set(names))
    assert all(len(n) <= 64 and n.replace("_", "").replace("-", "").isalnum() for n in names)
    assert names[0] == "weather__get_weather" and "support__create_ticket" in names and "it__create_ticket" in names
    with pytest.raises(ValueError, match="has 1001 tools"):
        tool_catalogue(5000)


def test_tool_retrieval(capsys):
    r, out = _run("tool_retrieval", capsys)
    assert r["n"] == 1000 and r["chars_all"] > 100_000
    top, calls = r["picked"]["What's the weather in Shanghai?"]
    assert top[0] == "weather__get_weather" and calls == ['weather__get_weather({"city": "Shanghai"})']
    top, calls = r["picked"]['Create a support ticket titled "VPN is down"']
    assert top[0] == "support__create_ticket" and len(top) == 5
    assert calls == ['support__create_ticket({"title": "VPN is down"})']
    assert "catalogue: 1000 tools from 40 teams" in out


def test_trace_run(capsys):
    r, out = _run("trace_run", capsys)
    assert (r["model_calls"], r["tool_calls"]) == (3, 3)
    assert r["failed"] == ['get_weather_v2({"city": "Beijing"})']
    assert "App -> LLM      POST /chat/completions (messages=1)" in out
    assert "model requests: 3 | tool calls: 3" in out


def test_every_written_demo_is_tested_here():
    tested = {name[5:] for name in globals() if name.startswith("test_")}
    assert set(DEMOS) <= tested, f"demos without a test: {sorted(set(DEMOS) - tested)}"


def test_run_demo_shows_code_then_output(capsys):
    run_demo("tool_choice")
    out = capsys.readouterr().out
    code, _, output = out.partition("── output ──")
    assert code.startswith("# demo: tool_choice") and "tool_choice=choice" in code and '"auto"' in output
    assert '"""' not in demo_source("tool_choice") and "@demo" not in demo_source("tool_choice")


def test_pending_demos_refuse_clearly(monkeypatch):
    monkeypatch.setitem(PENDING, "future_demo", "course_lib.future (lesson 99)")
    with pytest.raises(DemoPending, match="demo 'future_demo' is pending: it will run on course_lib.future"):
        run_demo("future_demo")
    with pytest.raises(KeyError, match="no demo 'nope'"):
        run_demo("nope")


def test_most_questions_are_backed_by_a_demo_today():
    bank = load_bank()
    written = [q for q in bank if q.demo in DEMOS]
    assert len(written) == len(bank)  # every question has its demonstration


@pytest.mark.parametrize("name", sorted(n for n in DEMOS if n not in PENDING))
def test_the_shown_code_runs_on_its_own(name, capsys):
    """What `run_demo` shows is what a candidate copies: it must run in a fresh namespace (no NameError for
    `MODEL` or `json`), top-level `await` included, and print what the demo itself prints."""
    import ast

    code = demo_source(name)
    assert "return " not in code.splitlines()[-1], "the test hook (the final return) is not shown"
    compiled = compile(code, f"<demo {name}>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    # a fresh module, as a notebook's namespace is its own `__main__` (pydantic resolves annotations there)
    module = types.ModuleType(f"fresh_cell_{name}")
    sys.modules[module.__name__] = module
    try:
        result = eval(compiled, module.__dict__)   # a coroutine when the code awaits at top level
        if asyncio.iscoroutine(result):
            asyncio.run(result)
    finally:
        del sys.modules[module.__name__]
    shown = capsys.readouterr().out
    _, out = _run(name, capsys)
    first = next((line for line in out.splitlines() if line.strip()), "")
    assert first and first.split()[0] in shown, (first, shown[:300])


def test_five_steps_shows_its_imports_and_model():
    code = demo_source("five_steps")
    assert code.startswith("import json\nMODEL = 'mock-llm'\n\n")
    assert "from course_lib.mock_llm import MockLLM" in code


def test_responses_rules(capsys):
    r, out = _run("responses_rules", capsys)
    assert r["strict"] is False and "optional fields ['unit'] become required" in out
    assert [s[0] for s in r["sent"]] == ["Be brief.", "Be brief."]
    assert r["sent"][1][1] == ["message", "function_call", "function_call_output"]
    assert r["only_calls"] and "'rs_1'" in r["only_calls"][0] and r["everything"] == []


def test_strict_limits(capsys):
    r, out = _run("strict_limits", capsys)
    assert r["openai"] == ["In context=('properties', 'tags'), 'uniqueItems' is not permitted."]
    assert len(r["portable"]) == 2 and "'default' is not permitted" in r["portable"][1]
    assert "parallel_tool_calls=False" in r["parallel"][0]


def test_provider_shapes(capsys):
    r, out = _run("provider_shapes", capsys)
    assert r["anthropic_call"]["input"] == {"city": "Paris"} and r["gemini_call"]["functionCall"]["args"] == {"city": "Paris"}
    assert "anthropic.types.ToolParam" in out and "google.genai.types.FunctionDeclaration" in out


def test_protocol_origins(capsys):
    r, out = _run("protocol_origins", capsys)
    assert r[0] == "2023-06-13" and r == sorted(r) and "Agentic AI Foundation" in out


def test_structured_vs_tool(capsys):
    r, out = _run("structured_vs_tool", capsys)
    assert r["tool"] == "get_weather" and r["parsed"] == {"city": "Shanghai", "temp": 28, "humidity": 65}
    assert r["strict"] is True and r["refusal"] is True


def test_frameworks_on_the_wire(capsys):
    import asyncio

    from course_lib.interview.demos import DEMOS
    r = asyncio.run(DEMOS["frameworks_on_the_wire"].func())
    assert {n: v["requests"] for n, v in r.items()} == {"Agents SDK": 2, "pydantic-ai": 2, "LangGraph": 2}
    assert r["Agents SDK"]["strict"] is True and r["pydantic-ai"]["strict"] is None
    assert r["Agents SDK"]["result"] == "{'temp': 28, 'humidity': 65}" and r["LangGraph"]["result"] == '{"temp": 28, "humidity": 65}'
