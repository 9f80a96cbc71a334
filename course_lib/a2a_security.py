"""A2A security: who may call an agent, what it may ask for, and whether its card is really its own.

Three ideas of A2A 1.0 (specification §4.5 security schemes, §5.5 extended Agent Card, §8 signed
Agent Cards), each on the official ``a2a-sdk``:

* **The card declares how to authenticate.** ``securitySchemes`` names the schemes (here an API key in
  the ``X-API-Key`` header, OpenAPI-style) and ``securityRequirements`` says which ones a caller needs.
  The public card stays public; every other endpoint answers HTTP 401 to a caller without a valid
  key (:class:`ApiKeyBackend` under Starlette's ``AuthenticationMiddleware``, :class:`RequireAuth`).
  The client side is the SDK's own ``AuthInterceptor``: it reads the card's requirements and adds the
  header from a credential service (:class:`StaticCredentials`).
* **Authorisation inside a task: ``auth-required``.** A valid key is not every permission. The
  secured finance agent (:class:`ScopedFinanceExecutor`) answers a report to any key, but free SQL only
  to a key with the ``finance:sql`` scope: without it the task pauses in ``auth-required`` and
  resumes (``auth-required --authenticate--> working``) when the client continues the same task with a
  key that has it.
* **The extended card** (``GetExtendedAgentCard``, ``capabilities.extendedAgentCard``) shows an
  authenticated caller more than the public card (here the SQL skill, which the public card hides).
* **Signed cards.** A card fetched over the network could have been changed on the way or served by
  someone else. The agent signs it with a JWS (RFC 7515) over its canonical JSON (RFC 8785); the client
  verifies the signature with the agent's public key before trusting the card; one changed character
  and verification fails (:func:`signing_key`, :func:`sign_card`, :func:`card_verifier`).

The JOSE library is **PyJWT** (github.com/jpadilla/pyjwt, with ``cryptography`` for ES256): it is
the library ``a2a-sdk``'s own signing helpers (``a2a.utils.signing``, the ``a2a-sdk[signing]``
extra) are written on, so the bytes the kit signs are canonicalised by the same SDK code that
verifies them; it is widely used and actively maintained. (joserfc and jwcrypto are good too, but a
second JOSE stack beside the SDK's would only add a way for the two to disagree.)

Taught in lesson 11 (security and signed cards).
"""
from __future__ import annotations

import hmac
import json
from dataclasses import dataclass, field
from typing import Any, Callable

from a2a.client.auth import AuthInterceptor, CredentialService
from a2a.helpers import new_task_from_user_message
from a2a.server.agent_execution import RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import (AgentCard, APIKeySecurityScheme, SecurityRequirement, SecurityScheme, StringList)
from a2a.utils.errors import ExtendedAgentCardNotConfiguredError
from starlette.authentication import (AuthCredentials, AuthenticationBackend, AuthenticationError, BaseUser,
                                      SimpleUser)
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse

from .a2a_agents import (FinanceAgentExecutor, RunQuery, agent_message, finance_agent_card, plan_finance_request,
                         user_texts)
from .a2a_wire import CARD_PATH

API_KEY_HEADER = "X-API-Key"
SCHEME = "apiKey"
SQL_SCOPE = "finance:sql"
EXTENDED_CARD_PATH = "/extendedAgentCard"


# --------------------------------------------------------------------------- the card says how

def secure_card(card: AgentCard, *, scheme: str = SCHEME, header: str = API_KEY_HEADER) -> AgentCard:
    """``card`` with an API-key scheme in ``securitySchemes`` and a requirement for it in ``securityRequirements``.

    Also sets ``capabilities.extendedAgentCard`` (the authenticated caller can ask for more). Returns a
    copy; ``card`` is unchanged.
    """
    secured = AgentCard()
    secured.CopyFrom(card)
    secured.security_schemes[scheme].CopyFrom(SecurityScheme(api_key_security_scheme=APIKeySecurityScheme(
        location="header", name=header, description=f"An API key in the {header} header.")))
    secured.security_requirements.append(SecurityRequirement(schemes={scheme: StringList()}))
    secured.capabilities.extended_agent_card = True
    return secured


def public_finance_card(base_url: str) -> AgentCard:
    """The secured finance agent's public card: the report skill only, an API key required."""
    card = secure_card(finance_agent_card(base_url, name="Finance DB agent (secured)"))
    kept = [s for s in card.skills if s.id != "sql_query"]
    del card.skills[:]
    card.skills.extend(kept)
    return card


def extended_finance_card(base_url: str) -> AgentCard:
    """What an authenticated caller sees: every skill, the SQL one marked as needing ``finance:sql``."""
    card = secure_card(finance_agent_card(base_url, name="Finance DB agent (secured)"))
    for skill in card.skills:
        if skill.id == "sql_query":
            skill.description += f" Needs a key with the {SQL_SCOPE} scope."
    return card


# --------------------------------------------------------------------------- the server checks it

@dataclass(frozen=True)
class ApiKey:
    """One key the agent accepts: who holds it and the scopes it grants."""

    holder: str
    scopes: frozenset[str] = frozenset()


class ApiKeyBackend(AuthenticationBackend):
    """Starlette authentication from the ``X-API-Key`` header (constant-time comparison).

    Args:
        keys: ``{key: ApiKey(holder, scopes)}``.

    A request without the header is anonymous (the public card needs no key); a wrong key is an
    authentication error (401). An accepted request carries ``request.user`` (its holder's name) and
    ``request.auth.scopes`` (``["authenticated", "finance:sql", ...]``), which the SDK passes to the
    agent as ``context.call_context.user`` and ``call_context.state["auth"]``.
    """

    def __init__(self, keys: dict[str, ApiKey], header: str = API_KEY_HEADER) -> None:
        self.keys, self.header = dict(keys), header

    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser] | None:  # noqa: D102
        sent = conn.headers.get(self.header)
        if sent is None:
            return None
        for key, grant in self.keys.items():
            if hmac.compare_digest(sent.encode(), key.encode()):
                return AuthCredentials(["authenticated", *sorted(grant.scopes)]), SimpleUser(grant.holder)
        raise AuthenticationError(f"unknown API key in {self.header}")


def _unauthorized(conn: HTTPConnection, error: Exception) -> JSONResponse:
    return JSONResponse({"error": {"code": 401, "status": "UNAUTHENTICATED", "message": str(error)}},
                        status_code=401, headers={"WWW-Authenticate": f'ApiKey header="{API_KEY_HEADER}"'})


class RequireAuth:
    """ASGI middleware: every path but the public card needs an authenticated caller (else HTTP 401).

    A2A 1.0 §7: credentials travel in HTTP headers, outside the A2A messages, and a server answers a
    missing or invalid credential with 401 (403 when the caller is known but not allowed).
    """

    def __init__(self, app: Any, *, public: tuple[str, ...] = (CARD_PATH,)) -> None:
        self.app, self.public = app, public

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        user = scope.get("user")
        if scope["type"] == "http" and scope.get("path") not in self.public and not (user and user.is_authenticated):
            response = _unauthorized(HTTPConnection(scope), AuthenticationError(
                f"this agent needs an API key in the {API_KEY_HEADER} header (see securitySchemes in its card)"))
            return await response(scope, receive, send)
        await self.app(scope, receive, send)


def auth_middleware(keys: dict[str, ApiKey]) -> list[Middleware]:
    """Starlette's ``AuthenticationMiddleware`` with :class:`ApiKeyBackend`, then :class:`RequireAuth`."""
    return [Middleware(AuthenticationMiddleware, backend=ApiKeyBackend(keys), on_error=_unauthorized),
            Middleware(RequireAuth)]


def caller_scopes(context: RequestContext) -> frozenset[str]:
    """The scopes of the caller of this request (empty when unauthenticated or in-process)."""
    call = context.call_context
    auth = call.state.get("auth") if call is not None else None
    return frozenset(getattr(auth, "scopes", ()) or ())


class ScopedFinanceExecutor(FinanceAgentExecutor):
    """The finance agent with authorisation inside the task: free SQL needs the ``finance:sql`` scope.

    A caller without it gets the task in ``auth-required`` ("this needs a key with the finance:sql
    scope"); continuing the same task (same ``taskId``) with such a key resumes it: ``working``, then
    the result. Reports need only a valid key. Same arguments as :class:`FinanceAgentExecutor`.
    """

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:  # noqa: D102
        plan = plan_finance_request(user_texts(context))
        wants_sql = isinstance(plan, RunQuery) and not plan.metrics
        if not wants_sql or SQL_SCOPE in caller_scopes(context):
            return await super().execute(context, event_queue)
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        await TaskUpdater(event_queue, task.id, task.context_id).requires_auth(agent_message(
            f"Free SQL needs an API key with the {SQL_SCOPE} scope. Continue this task (same taskId) with "
            f"such a key in {API_KEY_HEADER}.", task))


async def _only_authenticated(card: AgentCard, context: Any) -> AgentCard:
    # Defence in depth: RequireAuth already refused anonymous callers before the SDK saw the request.
    user = getattr(context, "user", None)
    if user is None or not user.is_authenticated:
        raise ExtendedAgentCardNotConfiguredError(message="the extended card is for authenticated callers")
    return card


def secured_agent_options(base_url: str, keys: dict[str, ApiKey]) -> dict[str, Any]:
    """``build_agent_app`` options for the secured finance agent: auth middleware and the extended card."""
    return {"middleware": auth_middleware(keys), "extended_agent_card": extended_finance_card(base_url),
            "extended_card_modifier": _only_authenticated}


def start_secured_agent(name: str, db_path: Any, keys: dict[str, ApiKey], *, step_delay: float = 0.0) -> Any:
    """Serve the secured finance agent on 127.0.0.1 (a free port); re-running replaces it.

    Args:
        name: the server's registry name.
        db_path: the finance database.
        keys: ``{key: ApiKey(holder, scopes)}`` it accepts.
        step_delay: as for :class:`~course_lib.a2a_agents.FinanceAgentExecutor`.

    Returns:
        The :class:`~course_lib.servers.LocalServer`.
    """
    from .a2a_agents import build_agent_app
    from .servers import free_port, start_server

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    app = build_agent_app(public_finance_card(base), ScopedFinanceExecutor(db_path, step_delay=step_delay),
                          **secured_agent_options(base, keys))
    return start_server(name, app, port=port)


# --------------------------------------------------------------------------- the client sends it

@dataclass
class StaticCredentials(CredentialService):
    """A credential service with fixed credentials per security scheme (``{"apiKey": "the-key"}``)."""

    credentials: dict[str, str] = field(default_factory=dict)

    async def get_credentials(self, security_scheme_name: str, context: Any) -> str | None:  # noqa: D102
        return self.credentials.get(security_scheme_name)


def auth_interceptors(credentials: dict[str, str]) -> list[AuthInterceptor]:
    """The SDK's ``AuthInterceptor`` with :class:`StaticCredentials`: headers chosen from the card's schemes."""
    return [AuthInterceptor(StaticCredentials(dict(credentials)))]


# --------------------------------------------------------------------------- signed cards

def signing_key() -> tuple[Any, dict]:
    """A new ES256 (P-256) key pair: ``(private key, public JWK dict)``; the JWK's ``kid`` names it.

    Uses ``cryptography`` for the key and PyJWT for the JWK form.
    """
    import jwt
    from cryptography.hazmat.primitives.asymmetric import ec

    private = ec.generate_private_key(ec.SECP256R1())
    jwk = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(private.public_key()))
    jwk.update(kid="finance-agent-key-1", alg="ES256", use="sig")
    return private, jwk


def sign_card(card: AgentCard, private_key: Any, *, kid: str = "finance-agent-key-1") -> AgentCard:
    """A copy of ``card`` with one more JWS signature (ES256, protected header ``{alg, kid, typ: JOSE}``).

    The payload is the card's RFC 8785 canonical JSON without ``signatures`` (the SDK's
    ``a2a.utils.signing.create_agent_card_signer``); the signature travels detached in ``signatures[]``.
    """
    from a2a.utils.signing import create_agent_card_signer

    signed = AgentCard()
    signed.CopyFrom(card)
    return create_agent_card_signer(private_key, {"alg": "ES256", "kid": kid, "typ": "JOSE"})(signed)


def card_verifier(public_jwks: list[dict]) -> Callable[[AgentCard], None]:
    """A verifier for ``A2ACardResolver.get_agent_card(signature_verifier=...)`` / ``create_client``.

    Args:
        public_jwks: the agent's public keys (JWK dicts with ``kid``), obtained out of band (a key set
            the client trusts), never from the card being checked.

    Returns:
        A callable that returns None for a card with at least one valid signature by a known key and
        raises ``a2a.utils.signing.InvalidSignaturesError`` (any change to the card, an unknown key, or a
        forbidden algorithm such as ``none`` or HS256) or ``NoSignatureError``.
    """
    import jwt
    from a2a.utils.signing import create_signature_verifier

    keys = {k["kid"]: jwt.PyJWK(k) for k in public_jwks}

    def key_for(kid: str | None, jku: str | None) -> Any:
        if kid not in keys:
            raise jwt.exceptions.PyJWKError(f"unknown key id {kid!r}")
        return keys[kid]

    return create_signature_verifier(key_for, ["ES256"])


def protected_header(card: AgentCard) -> list[dict]:
    """The decoded protected headers of ``card``'s signatures (what a reader checks first: ``alg``, ``kid``)."""
    import base64

    headers = []
    for sig in card.signatures:
        padded = sig.protected + "=" * (-len(sig.protected) % 4)
        headers.append(json.loads(base64.urlsafe_b64decode(padded)))
    return headers


__all__ = ["API_KEY_HEADER", "ApiKey", "ApiKeyBackend", "RequireAuth", "SCHEME", "SQL_SCOPE",
           "ScopedFinanceExecutor", "StaticCredentials", "auth_interceptors", "auth_middleware", "caller_scopes",
           "card_verifier", "extended_finance_card", "protected_header", "public_finance_card", "secure_card",
           "secured_agent_options", "sign_card", "signing_key", "start_secured_agent"]
