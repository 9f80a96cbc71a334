"""MCP authorization on 127.0.0.1: discovery, PKCE, tokens bound to a resource, step-up, and the attacks failing."""
from __future__ import annotations

import re
import subprocess
import sys
import time

import anyio
import httpx2
import pytest

from course_lib import mcp_auth as ma
from course_lib.tracing import Trace

pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")


@pytest.fixture
def demo():
    d = ma.start_auth_demo(prefix="test-auth")
    yield d
    d.stop()


def labels(trace: Trace) -> list[str]:
    return [f"{e.src}>{e.dst} {e.label}" for e in trace.events if e.layer == "http"]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_the_sdk_client_discovers_registers_and_calls_with_a_bound_token(demo, mode):
    trace = demo.trace

    async def main():
        http = demo.client(trace=trace)
        async with ma.authorized_mcp_client(demo.mcp_url, http, mode=mode) as c:
            r = await c.call_tool("list_tasks", {})
            return c.protocol_version, r, http
    version, result, http = anyio.run(main)
    assert version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
    assert result.is_error is False and result.structured_content == {"result": []}
    first = labels(trace)[:12]
    assert first[0].startswith("MCP client>MCP server POST /mcp") and "+Bearer" not in first[0]
    assert first[1] == "MCP server>MCP client 401 Unauthorized Bearer invalid_token"
    assert first[2] == "MCP client>MCP server GET /.well-known/oauth-protected-resource/mcp"
    assert first[4] == "MCP client>Auth server GET /.well-known/oauth-authorization-server"
    assert first[6] == "MCP client>Auth server POST /register"
    assert first[8] == "Browser>Auth server GET /authorize" and first[9] == "Auth server>Browser 302 Found → /callback"
    assert first[10] == "MCP client>Auth server POST /token"
    assert first[11] == "Auth server>MCP client 200 OK" and labels(trace)[12].endswith("+Bearer")
    url = http.browser.last_url
    assert "code_challenge_method=S256" in url and "code_challenge=" in url
    assert "resource=" + re.escape("http%3A%2F%2F127.0.0.1%3A") in url or "resource=http" in url
    token = demo.provider.issued[-1]
    assert token.resource == demo.mcp_url and token.scopes == ["tasks:read"] and token.subject == "alice"
    # the server asked the AS about the token (RFC 7662), it did not trust it blindly
    assert any(x == "MCP server>Auth server POST /introspect" for x in labels(trace))


def test_a_write_tool_answers_403_insufficient_scope_and_the_client_steps_up(demo):
    trace = demo.trace

    async def main():
        async with ma.authorized_mcp_client(demo.mcp_url, demo.client(trace=trace)) as c:
            await c.call_tool("list_tasks", {})
            start = len(trace.events)
            r = await c.call_tool("create_task", {"title": "Write the report"})
            return r, labels(Trace("x")) or [f"{e.src}>{e.dst} {e.label}" for e in trace.events[start:] if e.layer == "http"]
    result, after = anyio.run(main)
    assert result.is_error is False and result.structured_content["title"] == "Write the report"
    assert "MCP server>MCP client 403 Forbidden Bearer insufficient_scope" in after
    assert "Browser>Auth server GET /authorize" in after  # re-authorized for the union of scopes
    assert demo.provider.issued[-1].scopes == ["tasks:read", "tasks:write"]
    assert demo.provider.asked == ["course notebook", "course notebook"]  # consent asked again for the new scope


def test_the_403_challenge_names_the_scope_and_the_metadata(demo):
    token = demo.provider.issue_service_token("reader", demo.mcp_url, ["tasks:read"])
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "create_task", "arguments": {"title": "x"}}}
    r = httpx2.post(demo.mcp_url, json=body, headers={"Authorization": f"Bearer {token}",
                                                      "Accept": "application/json, text/event-stream"})
    assert r.status_code == 403 and r.json()["error"] == "insufficient_scope"
    www = r.headers["www-authenticate"]
    assert www.startswith('Bearer error="insufficient_scope"') and 'scope="tasks:read tasks:write"' in www
    assert 'resource_metadata="http://127.0.0.1:' in www and www.endswith('/.well-known/oauth-protected-resource/mcp"')


def test_metadata_documents(demo):
    prm = httpx2.get(demo.mcp_url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp")).json()
    assert prm["resource"] == demo.mcp_url and prm["scopes_supported"] == ["tasks:read", "tasks:write"]
    assert [s.rstrip("/") for s in prm["authorization_servers"]] == [demo.issuer]
    asm = httpx2.get(demo.issuer + "/.well-known/oauth-authorization-server").json()
    assert asm["code_challenge_methods_supported"] == ["S256"] and asm["registration_endpoint"].endswith("/register")
    assert asm["token_endpoint"].endswith("/token") and "authorization_code" in asm["grant_types_supported"]
    r = httpx2.post(demo.mcp_url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert r.status_code == 401 and "resource_metadata=" in r.headers["www-authenticate"]


def test_a_token_for_another_audience_is_refused(demo):
    other = ma.token_request_by_hand(demo, resource=demo.api_url, scope="reports:write")
    assert other.status_code == 200 and other.json()["scope"] == "reports:write"
    r = httpx2.post(demo.mcp_url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                    headers={"Authorization": "Bearer " + other.json()["access_token"]})
    assert r.status_code == 401 and 'error="invalid_token"' in r.headers["www-authenticate"]
    mine = ma.token_request_by_hand(demo)
    assert mine.status_code == 200 and demo.provider.introspect(mine.json()["access_token"])["aud"] == demo.mcp_url


def test_pkce_and_resource_are_enforced_at_the_authorization_server(demo):
    wrong = ma.token_request_by_hand(demo, code_verifier="x" * 50)
    assert wrong.status_code == 400 and wrong.json()["error"] == "invalid_grant"
    missing = ma.token_request_by_hand(demo, code_verifier=None)
    assert missing.status_code == 400
    unknown = ma.token_request_by_hand(demo, resource="http://127.0.0.1:9/elsewhere")
    assert unknown.status_code in (302, 303) and "error=invalid_target" in unknown.headers["location"]


def test_token_passthrough_is_refused_downstream_and_the_servers_own_token_works(demo):
    async def main():
        async with ma.authorized_mcp_client(demo.mcp_url, demo.client(scope="tasks:read tasks:write")) as c:
            demo.server.passthrough = True
            forwarded = await c.call_tool("publish_report", {})
            demo.server.passthrough = False
            own = await c.call_tool("publish_report", {})
            return forwarded, own
    forwarded, own = anyio.run(main)
    assert forwarded.is_error and "reports API answered 401 (invalid_token)" in forwarded.content[0].text
    assert own.is_error is False and own.content[0].text.startswith("published 'Weekly tasks'")
    api_tokens = [t for t in demo.provider.issued if t.resource == demo.api_url]
    assert [t.client_id for t in api_tokens] == ["project-manager-server"]
    assert [r["published_by"] for r in demo.published] == ["project-manager-server"]
    downstream = [e for e in demo.trace.events if "Reports API" in (e.src, e.dst) and e.src != "Auth server"
                  and e.dst != "Auth server"]  # the MCP server's own HTTP calls are on the trace too
    assert [f"{e.src}>{e.dst} {e.label}" for e in downstream] == [
        "MCP server>Reports API POST /reports +Bearer", "Reports API>MCP server 401 Unauthorized Bearer invalid_token",
        "MCP server>Reports API POST /reports +Bearer", "Reports API>MCP server 201 Created"]


def test_consent_remembered_per_user_is_the_confused_deputy_and_per_client_stops_it(demo):
    async def sign_in():
        async with ma.authorized_mcp_client(demo.mcp_url, demo.client()) as c:
            await c.call_tool("list_tasks", {})
    demo.provider.consent = lambda client, scopes: scopes if client == "course notebook" else []
    anyio.run(sign_in)
    stopped = ma.confused_deputy_attack(demo)
    assert stopped == {"asked": True, "code": False, "token": None,
                       "error": "authorization failed: access_denied (the user did not approve this client)"}
    demo.provider.remember_consent = "user"
    stolen = ma.confused_deputy_attack(demo)
    assert stolen["asked"] is False and stolen["code"] is True and stolen["token"] == "tasks:read"
    with pytest.raises(ValueError):
        ma.MemoryAuthProvider("http://127.0.0.1:1", {}, remember_consent="never")


def test_scope_gate_reads_only_tools_call_and_redact_hides_secrets():
    gate = ma.ToolScopeGate(None, {"create_task": ["tasks:write"]}, "http://x/.well-known/oauth-protected-resource")
    assert gate.needed_scopes(b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_task"}}') == ["tasks:write"]
    assert gate.needed_scopes(b'{"method":"tools/list"}') == [] and gate.needed_scopes(b"not json") == []
    text = ma.redact('Authorization: Bearer abcdefghijklmnop123 code=abcdefghijklmnopq&state=xyzxyzxyzxyzxyz')
    assert "abcdefghijklmnop" not in text and "Bearer <token>" in text and "code=<…>" in text


def test_course_mcp_serve_auth_prints_a_working_token():
    proc = subprocess.Popen([sys.executable, "-m", "course_lib.cli", "mcp", "serve", "--transport", "http", "--auth",
                             "--port", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any("MCP_TOKEN=" in x for x in lines):
            lines.append(proc.stderr.readline())
        text = "".join(lines)
        url = re.search(r"at (http://127\.0\.0\.1:\d+/mcp)", text).group(1)
        token = re.search(r"MCP_TOKEN=(\S+)", text).group(1)
        assert "Authorization server at http://127.0.0.1:" in text
        meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
        headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28",
                   "Mcp-Method": "server/discover"}
        body = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}}
        assert httpx2.post(url, json=body, headers=headers).status_code == 401
        ok = httpx2.post(url, json=body, headers={**headers, "Authorization": f"Bearer {token}"})
        assert ok.status_code == 200 and ok.json()["result"]["supportedVersions"] == ["2026-07-28"]
    finally:
        proc.terminate()
        proc.wait(30)
    refused = subprocess.run([sys.executable, "-m", "course_lib.cli", "mcp", "serve", "--auth"],
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "--transport http" in refused.stderr
