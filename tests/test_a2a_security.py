"""A2A security: the card's security schemes, 401 without a key, auth-required for real, the extended card only for
an authenticated caller, and signed Agent Cards (a tampered card, another key, an unsigned card refused)."""
from __future__ import annotations

import asyncio

import httpx
import pytest
from a2a.types import AgentCard
from a2a.utils.signing import InvalidSignaturesError, NoSignatureError

from course_lib import a2a_agents as ag
from course_lib import a2a_security as sec
from course_lib.a2a_wire import A2A_HEADERS, text_message
from course_lib.examples import create_finance_db
from course_lib.servers import free_port, start_server, stop_server

KEYS = {"analyst-key": sec.ApiKey("analyst"),
        "analyst-sql-key": sec.ApiKey("analyst", frozenset({sec.SQL_SCOPE})),
        "bob-key": sec.ApiKey("bob")}
SQL = "SELECT year, SUM(revenue) AS revenue FROM finance GROUP BY year"


@pytest.fixture(scope="module")
def secured(tmp_path_factory):
    db = create_finance_db(tmp_path_factory.mktemp("sec") / "finance.db")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    app = ag.build_agent_app(sec.public_finance_card(base), sec.ScopedFinanceExecutor(db, step_delay=0),
                             **sec.secured_agent_options(base, KEYS))
    start_server("test-secured-agent", app, port=port)
    yield base
    stop_server("test-secured-agent")


def _post(base, body, key=None):
    headers = {**A2A_HEADERS, **({sec.API_KEY_HEADER: key} if key else {})}
    return httpx.post(base + ag.JSONRPC_PATH, json=body, headers=headers, timeout=30)


def test_the_public_card_declares_the_scheme_and_hides_the_sql_skill(secured):
    card = httpx.get(secured + "/.well-known/agent-card.json").json()
    assert card["securitySchemes"] == {"apiKey": {"apiKeySecurityScheme": {
        "description": "An API key in the X-API-Key header.", "location": "header", "name": "X-API-Key"}}}
    assert card["securityRequirements"] == [{"schemes": {"apiKey": {}}}]
    assert card["capabilities"]["extendedAgentCard"] is True
    assert [s["id"] for s in card["skills"]] == ["finance_report"]


@pytest.mark.parametrize("key", [None, "wrong-key", ""])
def test_every_other_endpoint_needs_a_valid_key(secured, key):
    reply = _post(secured, {"jsonrpc": "2.0", "id": 1, "method": "ListTasks", "params": {}}, key)
    assert reply.status_code == 401 and reply.json()["error"]["status"] == "UNAUTHENTICATED"
    assert reply.headers["www-authenticate"] == 'ApiKey header="X-API-Key"'
    rest = httpx.get(secured + ag.REST_PATH + "/tasks", headers=A2A_HEADERS)
    assert rest.status_code == 401


def test_the_extended_card_only_for_an_authenticated_caller(secured):
    body = {"jsonrpc": "2.0", "id": 2, "method": "GetExtendedAgentCard", "params": {}}
    assert _post(secured, body).status_code == 401
    card = _post(secured, body, "analyst-key").json()["result"]
    assert [s["id"] for s in card["skills"]] == ["finance_report", "sql_query"]
    assert sec.SQL_SCOPE in card["skills"][1]["description"]


def test_the_sdk_client_authenticates_from_the_card_and_a_report_needs_no_scope(secured):
    orch = ag.Orchestrator(credentials={"apiKey": "analyst-key"})

    async def go():
        await orch.discover(secured)
        return await orch.delegate("revenue 2024")
    delegation = asyncio.run(go())
    assert delegation.state == "completed"
    sent = [e.payload for e in orch.trace.events if e.kind == "request" and isinstance(e.payload, dict)
            and e.payload.get("method") == "SendStreamingMessage"]
    assert sent  # the key itself travels in a header, never in the A2A message
    assert "analyst-key" not in str(sent)


def test_auth_required_for_real_then_the_same_task_resumes_with_a_stronger_key(secured):
    orch = ag.Orchestrator(credentials={"apiKey": "analyst-key"})
    asked = []

    async def go():
        await orch.discover(secured)
        skill = ag.SkillRef(orch.cards[secured].name, secured, sec.extended_finance_card(secured).skills[1])
        without = await orch.delegate(SQL, skill=skill)
        with_key = await orch.delegate(SQL, skill=skill,
                                       authenticate=lambda q: asked.append(q) or {"apiKey": "analyst-sql-key"})
        return without, with_key
    without, with_key = asyncio.run(go())
    assert without.fold.states == ["submitted", "auth-required"]
    assert sec.SQL_SCOPE in without.fold.status_text
    assert with_key.fold.states == ["submitted", "auth-required", "working", "completed"]
    assert asked and sec.SQL_SCOPE in asked[0]
    assert with_key.data[0]["rows"] == [{"revenue": 915.5, "year": 2022}, {"revenue": 1078.7, "year": 2023},
                                        {"revenue": 1279.9, "year": 2024}]


def test_another_holder_cannot_see_the_task(secured):
    keys_task = _post(secured, {"jsonrpc": "2.0", "id": 3, "method": "SendMessage",
                                "params": {"message": text_message("revenue 2023")}}, "analyst-key").json()
    task_id = keys_task["result"]["task"]["id"]
    get = {"jsonrpc": "2.0", "id": 4, "method": "GetTask", "params": {"id": task_id}}
    assert _post(secured, get, "analyst-key").json()["result"]["id"] == task_id
    # the SDK's task store is scoped per user: another holder's key does not find the task at all
    assert _post(secured, get, "bob-key").json()["error"]["code"] == -32001


# --------------------------------------------------------------------------- signed cards

@pytest.fixture(scope="module")
def keypair():
    return sec.signing_key()


def test_a_signed_card_verifies_and_its_header_says_how(keypair):
    private, jwk = keypair
    card = sec.sign_card(ag.finance_agent_card("http://127.0.0.1:1"), private)
    assert len(card.signatures) == 1
    assert sec.protected_header(card) == [{"alg": "ES256", "kid": "finance-agent-key-1", "typ": "JOSE"}]
    assert jwk["kty"] == "EC" and jwk["crv"] == "P-256" and "d" not in jwk  # only the public half is shared
    assert sec.card_verifier([jwk])(card) is None


@pytest.mark.parametrize("change", ["description", "url", "skill", "add_skill_tag"])
def test_any_change_to_a_signed_card_is_rejected(keypair, change):
    private, jwk = keypair
    card = sec.sign_card(ag.finance_agent_card("http://127.0.0.1:1"), private)
    tampered = AgentCard()
    tampered.CopyFrom(card)
    if change == "description":
        tampered.description += "."
    elif change == "url":
        tampered.supported_interfaces[0].url = "http://127.0.0.1:6666/a2a/jsonrpc"
    elif change == "skill":
        tampered.skills[0].description = "Also transfers money."
    else:
        tampered.skills[0].tags.append("payments")
    with pytest.raises(InvalidSignaturesError):
        sec.card_verifier([jwk])(tampered)


def test_another_key_an_unsigned_card_and_a_forged_alg_are_rejected(keypair):
    _, jwk = keypair
    other_private, _ = sec.signing_key()
    card = ag.finance_agent_card("http://127.0.0.1:1")
    with pytest.raises(InvalidSignaturesError):
        sec.card_verifier([jwk])(sec.sign_card(card, other_private))
    with pytest.raises(NoSignatureError):
        sec.card_verifier([jwk])(card)
    import jwt
    from a2a.utils.signing import create_agent_card_signer

    hs = create_agent_card_signer(b"x" * 32, {"alg": "HS256", "kid": "finance-agent-key-1", "typ": "JOSE"})
    hs_card = AgentCard()
    hs_card.CopyFrom(card)
    with pytest.raises(InvalidSignaturesError):  # algorithm confusion: only ES256 is accepted
        sec.card_verifier([jwk])(hs(hs_card))
    assert jwt.__version__


def test_the_orchestrator_refuses_a_card_whose_signature_fails(tmp_path, keypair):
    private, jwk = keypair
    db = create_finance_db(tmp_path / "finance.db")
    signed = ag.start_agent("test-signed-agent",
                            lambda url: sec.sign_card(ag.finance_agent_card(url), private),
                            ag.FinanceAgentExecutor(db, step_delay=0))
    other, _ = sec.signing_key()
    forged = ag.start_agent("test-forged-agent",
                            lambda url: sec.sign_card(ag.finance_agent_card(url), other),
                            ag.FinanceAgentExecutor(db, step_delay=0))
    try:
        orch = ag.Orchestrator(verify_card=sec.card_verifier([jwk]))
        [card] = asyncio.run(orch.discover(signed.url))
        assert card.signatures
        with pytest.raises(InvalidSignaturesError):
            asyncio.run(orch.discover(forged.url))
        assert forged.url not in orch.cards
    finally:
        stop_server("test-signed-agent")
        stop_server("test-forged-agent")
