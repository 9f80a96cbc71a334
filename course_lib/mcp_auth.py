"""MCP authorization on 127.0.0.1: an OAuth 2.1 authorization server, the MCP server as a protected resource, the SDK's client.

MCP's authorization (spec 2025-11-25 and 2026-07-28, "Authorization") profiles OAuth 2.1 for
HTTP transports: the MCP server is an OAuth **resource server** that only checks tokens; a
separate **authorization server** (AS) issues them. Everything here is built from the
official ``mcp`` SDK's own auth pieces, chosen over a general OAuth library (authlib) because
they are the code every Python MCP server and client runs, already pinned, and they implement
exactly the MCP profile (PKCE S256 only, RFC 8707 resource indicators, RFC 9728 metadata,
SEP-2350 step-up); the course writes only the parts an operator writes:

* :class:`MemoryAuthProvider`: the SDK's ``OAuthAuthorizationServerProvider`` with clients,
  codes and tokens in memory, a simulated user who consents, tokens bound to the resource the
  client named (RFC 8707 ``resource``), and RFC 7662 introspection for resource servers.
* :func:`authorization_server_app`: the SDK's ``create_auth_routes`` (RFC 8414 metadata,
  ``/authorize``, ``/token`` with PKCE checked, RFC 7591 ``/register``) plus ``/introspect``.
* :func:`protected_mcp_app`: a course MCP server behind the SDK's ``BearerAuthBackend``
  (token audience = this server, RFC 8707) and ``RequireAuthMiddleware`` (401 with
  ``WWW-Authenticate: Bearer ... resource_metadata="..."``), RFC 9728 protected resource
  metadata at ``/.well-known/oauth-protected-resource/mcp``, and :class:`ToolScopeGate`:
  a tool that needs more scope answers **403 ``insufficient_scope``** naming the scope, so
  the client steps up.
* :func:`oauth_http_client`: the SDK's ``OAuthClientProvider`` (discovery, registration,
  PKCE, token request, refresh, step-up) on an ``httpx2`` client whose every HTTP exchange is
  recorded in a :class:`~course_lib.tracing.Trace`; :class:`HeadlessBrowser` plays the
  user's browser (it follows the authorization URL and hands the code back).
* :func:`start_auth_demo`: the whole cast on free ports (AS, project-manager MCP server,
  a downstream "reports" API), for lesson 10a, ``course mcp serve --auth`` and the tests.

Taught in lesson 10a (and exercise 10a).
"""
from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterable
from urllib.parse import parse_qs, urlencode, urlparse

from .asgi_replay import replaying
from .tracing import Trace

#: The project manager's scopes (the AS's ``scopes_supported``); ``tasks:read`` is needed for anything.
SCOPES: dict[str, str] = {"tasks:read": "list and read tasks", "tasks:write": "create and change tasks"}
#: Tools that need more than ``tasks:read``: calling one without it is a 403 step-up challenge.
TOOL_SCOPES: dict[str, list[str]] = {"create_task": ["tasks:write"], "update_task_status": ["tasks:write"],
                                     "publish_report": ["tasks:write"]}
ACCESS_TOKEN_SECONDS = 3600
CODE_SECONDS = 300


# -------------------------------------------------------------------------- the authorization server

class MemoryAuthProvider:
    """An in-memory OAuth 2.1 authorization server for the SDK's auth routes (one simulated user).

    Args:
        issuer: the AS's URL (``http://127.0.0.1:P``).
        resources: the resource servers it issues tokens for: URL -> scopes they accept.
            A token is bound to exactly one of them (RFC 8707); an authorization or token
            request naming another gets ``invalid_target``.
        user: the signed-in user who consents in the browser.
        consent: ``(client_name, scopes) -> granted scopes``; default: grant what was asked.
        remember_consent: ``"client"`` (consent remembered per client) or ``"user"`` (per user
            only: the confused-deputy flaw, shown in lesson 10a).

    Attributes:
        consents: ``(user, client_id)`` -> the scopes the user approved for that client.
        issued: every access token issued, newest last (for the lesson's tables).
    """

    def __init__(self, issuer: str, resources: dict[str, Iterable[str]], *, user: str = "alice",
                 consent: Callable[[str, list[str]], list[str]] | None = None, remember_consent: str = "client") -> None:
        if remember_consent not in ("client", "user"):
            raise ValueError("remember_consent is 'client' (right) or 'user' (the confused-deputy flaw)")
        self.issuer = issuer.rstrip("/")
        self.resources = {r.rstrip("/"): list(s) for r, s in resources.items()}
        self.user = user
        self.consent = consent or (lambda client_name, scopes: scopes)
        self.remember_consent = remember_consent
        self.asked: list[str] = []  # client names the user was asked about (the consent screens shown)
        self.clients: dict[str, Any] = {}
        self.codes: dict[str, Any] = {}
        self.tokens: dict[str, Any] = {}
        self.refresh_tokens: dict[str, Any] = {}
        self.consents: dict[tuple[str, str], set[str]] = {}
        self.issued: list[Any] = []

    # -- clients (RFC 7591 dynamic registration, or pre-registered with register_client)
    async def get_client(self, client_id: str) -> Any:
        return self.clients.get(client_id)

    async def register_client(self, client_info: Any) -> None:
        # This AS's policy: a registered client may *ask* for any scope; the user decides at consent. (The
        # SDK's /authorize refuses scopes outside the registration, which would make step-up impossible.)
        client_info.scope = " ".join(sorted({s for accepted in self.resources.values() for s in accepted}))
        self.clients[client_info.client_id] = client_info

    # -- /authorize: the user consents, a one-time code bound to the PKCE challenge and the resource
    async def authorize(self, client: Any, params: Any) -> str:
        from mcp.server.auth.provider import AuthorizeError, AuthorizationCode, construct_redirect_uri

        resource = (params.resource or "").rstrip("/")
        if resource not in self.resources:
            raise AuthorizeError(error="invalid_target", error_description=f"unknown resource {params.resource!r}")
        asked = params.scopes or list(self.resources[resource])
        unknown = [s for s in asked if s not in self.resources[resource]]
        if unknown:
            raise AuthorizeError(error="invalid_scope", error_description=f"{resource} has no scope {unknown[0]!r}")
        if self._consented(client.client_id, asked):
            granted = asked  # consent remembered: no screen
        else:
            self.asked.append(client.client_name or client.client_id)
            granted = [s for s in self.consent(client.client_name or client.client_id, asked) if s in asked]
        if not granted:
            raise AuthorizeError(error="access_denied", error_description="the user did not approve this client")
        self.consents.setdefault((self.user, client.client_id), set()).update(granted)
        code = secrets.token_urlsafe(32)
        self.codes[code] = AuthorizationCode(
            code=code, scopes=granted, expires_at=time.time() + CODE_SECONDS, client_id=client.client_id,
            code_challenge=params.code_challenge, redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly, resource=resource,
            subject=self.user)
        # RFC 9207: the issuer as the AS metadata spells it (pydantic renders the bare origin with its "/")
        from pydantic import AnyHttpUrl

        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state,
                                      iss=str(AnyHttpUrl(self.issuer)))

    def _consented(self, client_id: str, scopes: list[str]) -> bool:
        # Per client (right): a new client, e.g. one an attacker registered a minute ago, gets its own consent
        # screen. Per user (the flaw an OAuth proxy in front of a third-party AS can have): any client rides
        # on an earlier approval, so the user's code goes to whatever redirect_uri the new client registered.
        if self.remember_consent == "user":
            return any(user == self.user and set(scopes) <= approved for (user, _), approved in self.consents.items())
        return set(scopes) <= self.consents.get((self.user, client_id), set())

    async def load_authorization_code(self, client: Any, authorization_code: str) -> Any:
        code = self.codes.get(authorization_code)
        return code if code is not None and code.client_id == client.client_id else None

    async def exchange_authorization_code(self, client: Any, authorization_code: Any) -> Any:
        self.codes.pop(authorization_code.code, None)  # one use only
        return self._issue(client.client_id, authorization_code.scopes, authorization_code.resource,
                           authorization_code.subject)

    async def load_refresh_token(self, client: Any, refresh_token: str) -> Any:
        token = self.refresh_tokens.get(refresh_token)
        return token if token is not None and token.client_id == client.client_id else None

    async def exchange_refresh_token(self, client: Any, refresh_token: Any, scopes: list[str]) -> Any:
        self.refresh_tokens.pop(refresh_token.token, None)  # rotated (OAuth 2.1 §4.3.1)
        return self._issue(client.client_id, scopes or refresh_token.scopes, refresh_token.resource,
                           refresh_token.subject)

    async def load_access_token(self, token: str) -> Any:
        access = self.tokens.get(token)
        if access is None or (access.expires_at and access.expires_at < time.time()):
            return None
        return access

    async def revoke_token(self, token: Any) -> None:
        self.tokens.pop(token.token, None)
        self.refresh_tokens.pop(token.token, None)

    async def exchange_identity_assertion(self, client: Any, params: Any) -> Any:
        from mcp.server.auth.provider import TokenError

        raise TokenError(error="unsupported_grant_type", error_description="not offered by the course AS")

    # -- the course's own additions
    def _issue(self, client_id: str, scopes: list[str], resource: str | None, subject: str | None) -> Any:
        from mcp.server.auth.provider import AccessToken, RefreshToken
        from mcp.shared.auth import OAuthToken

        access = AccessToken(token=secrets.token_urlsafe(32), client_id=client_id, scopes=list(scopes),
                             expires_at=int(time.time()) + ACCESS_TOKEN_SECONDS, resource=resource, subject=subject)
        refresh = RefreshToken(token=secrets.token_urlsafe(32), client_id=client_id, scopes=list(scopes),
                               resource=resource, subject=subject)
        self.tokens[access.token] = access
        self.refresh_tokens[refresh.token] = refresh
        self.issued.append(access)
        return OAuthToken(access_token=access.token, token_type="Bearer", expires_in=ACCESS_TOKEN_SECONDS,
                          scope=" ".join(scopes), refresh_token=refresh.token)

    def issue_service_token(self, client_id: str, resource: str, scopes: Iterable[str]) -> str:
        """A token for a *server's own* identity, for ``resource`` (what a client-credentials grant gives).

        What an MCP server uses to call a downstream API on its own behalf (never the
        client's token: MCP authorization, "Token Passthrough" is forbidden).
        """
        return self._issue(client_id, list(scopes), resource.rstrip("/"), None).access_token

    def introspect(self, token: str) -> dict[str, Any]:
        """RFC 7662 token introspection: ``{"active": False}`` or the token's claims (``aud`` = its resource)."""
        access = self.tokens.get(token)
        if access is None or (access.expires_at and access.expires_at < time.time()):
            return {"active": False}
        claims = {"active": True, "client_id": access.client_id, "scope": " ".join(access.scopes),
                  "exp": access.expires_at, "aud": access.resource, "iss": self.issuer, "token_type": "Bearer"}
        if access.subject:
            claims["sub"] = access.subject
        return claims


def authorization_server_app(provider: MemoryAuthProvider) -> Any:
    """The AS as an ASGI app: the SDK's auth routes (RFC 8414, ``/authorize``, ``/token``, ``/register``) + ``/introspect``."""
    from mcp.server.auth.routes import create_auth_routes
    from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
    from pydantic import AnyHttpUrl
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    scopes = sorted({s for accepted in provider.resources.values() for s in accepted})
    routes = create_auth_routes(provider, AnyHttpUrl(provider.issuer),  # type: ignore[arg-type]
                                client_registration_options=ClientRegistrationOptions(
                                    enabled=True, valid_scopes=scopes,
                                    default_scopes=sorted({accepted[0] for accepted in provider.resources.values()})),
                                revocation_options=RevocationOptions(enabled=True))

    async def introspect(request: Request) -> JSONResponse:
        form = await request.form()
        return JSONResponse(provider.introspect(str(form.get("token", ""))), headers={"Cache-Control": "no-store"})

    return Starlette(routes=[*routes, Route("/introspect", introspect, methods=["POST"])])


# -------------------------------------------------------------------------- the resource server

class IntrospectionVerifier:
    """The SDK's ``TokenVerifier``: asks the AS (RFC 7662 ``/introspect``) what a bearer token is.

    Args:
        introspection_url: the AS's ``/introspect``.
        http_client: an ``httpx2.AsyncClient`` factory (a traced one in the lesson).
    """

    def __init__(self, introspection_url: str, http_client: Callable[[], Any] | None = None) -> None:
        self.introspection_url = introspection_url
        self.http_client = http_client

    async def verify_token(self, token: str) -> Any:
        import httpx2
        from mcp.server.auth.provider import AccessToken

        client = self.http_client() if self.http_client else httpx2.AsyncClient()
        async with client:
            response = await client.post(self.introspection_url, data={"token": token}, timeout=10)
        claims = response.json() if response.status_code == 200 else {"active": False}
        if not claims.get("active"):
            return None
        return AccessToken(token=token, client_id=claims["client_id"], scopes=claims.get("scope", "").split(),
                           expires_at=claims.get("exp"), resource=claims.get("aud"), subject=claims.get("sub"),
                           claims={"iss": claims.get("iss")})


def scope_challenge(status: int, error: str, description: str, *, resource_metadata: str,
                    scope: str | None = None) -> tuple[int, dict[str, str], bytes]:
    """An RFC 6750 bearer-token error: ``(status, headers, body)``.

    ``WWW-Authenticate`` carries ``error``, ``error_description``, ``resource_metadata``
    (RFC 9728 §5.1: where the client discovers the AS) and, for a step-up, ``scope``
    (MCP authorization, "Scope Challenge Handling").
    """
    parts = [f'error="{error}"', f'error_description="{description}"']
    if scope:
        parts.append(f'scope="{scope}"')
    parts.append(f'resource_metadata="{resource_metadata}"')
    body = json.dumps({"error": error, "error_description": description}).encode()
    return status, {"www-authenticate": "Bearer " + ", ".join(parts), "content-type": "application/json"}, body


class ToolScopeGate:
    """ASGI middleware: a ``tools/call`` of a tool that needs more scope than the token has gets 403.

    Runs after the SDK's ``RequireAuthMiddleware`` (so the token is valid and for this
    server). It reads the JSON-RPC body (the same in both protocol eras; 2026-07-28 also
    names the tool in the ``Mcp-Name`` header), and answers a missing scope with
    ``403 insufficient_scope`` whose ``scope`` lists the token's scopes plus the missing
    ones, which is what the SDK's client re-authorizes for (step-up). Anything else passes
    on unchanged, body included.

    Args:
        app: the MCP ASGI app.
        tool_scopes: tool name -> scopes it needs.
        resource_metadata: the RFC 9728 metadata URL to name in the challenge.
    """

    def __init__(self, app: Any, tool_scopes: dict[str, list[str]], resource_metadata: str) -> None:
        self.app = app
        self.tool_scopes = tool_scopes
        self.resource_metadata = resource_metadata

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        chunks, more = [], True
        while more:
            message = await receive()
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        needed = self.needed_scopes(body)
        have = set(getattr(scope.get("auth"), "scopes", []) or [])
        missing = [s for s in needed if s not in have]
        if missing:
            wanted = " ".join(sorted(have | set(needed)))
            status, headers, payload = scope_challenge(
                403, "insufficient_scope", f"{' '.join(missing)} is needed for this tool",
                resource_metadata=self.resource_metadata, scope=wanted)
            await send({"type": "http.response.start", "status": status,
                        "headers": [(k.encode(), v.encode()) for k, v in headers.items()]})
            await send({"type": "http.response.body", "body": payload})
            return
        await self.app(scope, replaying(body, receive), send)

    def needed_scopes(self, body: bytes) -> list[str]:
        """The scopes a JSON-RPC body needs (``[]`` unless it is a ``tools/call`` of a gated tool)."""
        try:
            message = json.loads(body)
        except ValueError:
            return []
        if not isinstance(message, dict) or message.get("method") != "tools/call":
            return []
        name = (message.get("params") or {}).get("name")
        return list(self.tool_scopes.get(name, [])) if isinstance(name, str) else []


def _require_auth(app: Any, required: list[str], metadata_url: str) -> Any:
    """The SDK's ``RequireAuthMiddleware``, whose 401 also says which ``scope`` a request needs.

    MCP authorization ("Protected Resource Metadata Discovery", "Scope Selection Strategy"):
    a 401 ``WWW-Authenticate`` SHOULD carry ``scope``; the SDK's client then asks for exactly
    that (least privilege) instead of everything the metadata lists, and steps up later.
    """
    from mcp.server.auth.middleware.bearer_auth import RequireAuthMiddleware
    from pydantic import AnyHttpUrl

    class ScopedRequireAuth(RequireAuthMiddleware):
        async def _send_auth_error(self, send: Any, status_code: int, error: str, description: str) -> None:
            status, headers, body = scope_challenge(status_code, error, description, resource_metadata=metadata_url,
                                                    scope=" ".join(required) or None)
            await send({"type": "http.response.start", "status": status,
                        "headers": [(k.encode(), v.encode()) for k, v in headers.items()]})
            await send({"type": "http.response.body", "body": body})

    return ScopedRequireAuth(app, required, AnyHttpUrl(metadata_url))


def protected_mcp_app(server: Any, *, resource_url: str, issuer_url: str, verifier: Any,
                      required_scopes: list[str] | None = None, tool_scopes: dict[str, list[str]] | None = None,
                      scopes_supported: list[str] | None = None, resource_name: str | None = None,
                      check_audience: bool = True) -> Any:
    """``server`` (an ``MCPServer``) served over streamable HTTP as an OAuth 2.1 protected resource.

    Args:
        resource_url: this server's canonical URL, ``http://127.0.0.1:P/mcp`` (the RFC 8707
            resource tokens must be bound to; the RFC 9728 ``resource``).
        issuer_url: the authorization server it trusts.
        verifier: an SDK ``TokenVerifier`` (:class:`IntrospectionVerifier`).
        required_scopes: needed for any request (default ``["tasks:read"]``).
        tool_scopes: per-tool scopes, checked by :class:`ToolScopeGate` (default :data:`TOOL_SCOPES`).
        scopes_supported: advertised in the RFC 9728 metadata (default: :data:`SCOPES`).
        check_audience: refuse tokens not bound to ``resource_url`` in the SDK's bearer backend;
            ``False`` when ``verifier`` checks the audience itself (exercise 10a).

    Returns:
        A Starlette app: ``/.well-known/oauth-protected-resource/mcp`` (public) and ``/mcp``
        (401 without a valid token for this resource, 403 without the scope).
    """
    from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
    from mcp.server.auth.middleware.bearer_auth import BearerAuthBackend
    from mcp.server.auth.routes import build_resource_metadata_url, create_protected_resource_routes
    from pydantic import AnyHttpUrl
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.authentication import AuthenticationMiddleware
    from starlette.routing import Mount

    required = list(required_scopes or ["tasks:read"])
    metadata_url = str(build_resource_metadata_url(AnyHttpUrl(resource_url)))
    inner = server.streamable_http_app()
    gated = _require_auth(ToolScopeGate(inner, dict(TOOL_SCOPES if tool_scopes is None else tool_scopes),
                                        metadata_url), required, metadata_url)
    routes = create_protected_resource_routes(AnyHttpUrl(resource_url), [AnyHttpUrl(issuer_url)],
                                              scopes_supported=list(scopes_supported or sorted(SCOPES)),
                                              resource_name=resource_name)
    backend = BearerAuthBackend(verifier, resource_server_url=AnyHttpUrl(resource_url) if check_audience else None)
    return Starlette(routes=[*routes, Mount("/", app=gated)],
                     middleware=[Middleware(AuthenticationMiddleware, backend=backend), Middleware(AuthContextMiddleware)],
                     lifespan=lambda app: server.session_manager.run())


# -------------------------------------------------------------------------- tracing HTTP

#: Lane names in the pictures.
CLIENT, BROWSER, MCP, AS, API = "MCP client", "Browser", "MCP server", "Auth server", "Reports API"


def redact(text: str) -> str:
    """Tokens, codes and secrets in ``text`` replaced by ``<…>`` placeholders (stable output, nothing leaked)."""
    import re

    text = re.sub(r"(Bearer )[A-Za-z0-9_\-\.~+/]{12,}", r"\1<token>", text)
    text = re.sub(r'("?(?:access_token|refresh_token|code|code_verifier|code_challenge|client_secret|token|state)"?'
                  r'\s*[=:]\s*"?)[A-Za-z0-9_\-\.~%]{12,}', r"\1<…>", text)
    return text


@dataclass
class HttpTracer:
    """``httpx2`` event hooks that record each request and its response in ``trace`` (layer ``http``).

    Args:
        trace: where to record.
        src: the lane of whoever sends (``MCP client``, ``Browser``, ``MCP server``).
        lanes: base URL (``http://127.0.0.1:P``) -> lane name of who answers there.
    """

    trace: Trace
    src: str
    lanes: dict[str, str] = field(default_factory=dict)

    def lane(self, url: Any) -> str:
        base = f"{url.scheme}://{url.host}:{url.port}"
        return self.lanes.get(base, base)

    async def on_request(self, request: Any) -> None:
        body = request.content.decode("utf-8", "replace") if request.content else ""
        label = f"{request.method} {request.url.path}"
        if body.startswith("{"):
            try:
                method = json.loads(body).get("method")
                if method:
                    label += f" {method}"
            except ValueError:
                pass
        auth = request.headers.get("authorization")
        payload = {"method": request.method, "url": redact(str(request.url)),
                   "headers": {k: redact(v) for k, v in request.headers.items()
                               if k.lower() in ("authorization", "content-type", "mcp-protocol-version")},
                   "body": redact(body[:600])}
        self.trace.add(self.src, self.lane(request.url), label + (" +Bearer" if auth else ""), kind="request",
                       layer="http", payload=payload)

    async def on_response(self, response: Any) -> None:
        request = response.request
        text = ""
        if "json" in response.headers.get("content-type", ""):  # never read an SSE stream here: it may not end
            await response.aread()
            text = response.text
        label = f"{response.status_code} {response.reason_phrase}"
        www = response.headers.get("www-authenticate")
        if www:
            label += " " + www.split(" ", 1)[0] + " " + _www_error(www)
        elif response.status_code in (301, 302, 303, 307):
            label += " → " + urlparse(response.headers.get("location", "")).path
        payload = {"status": response.status_code,
                   "headers": {k: redact(v) for k, v in response.headers.items()
                               if k.lower() in ("www-authenticate", "location", "content-type")},
                   "body": redact(text[:600])}
        kind = "error" if response.status_code >= 400 else "response"
        self.trace.add(self.lane(request.url), self.src, label.strip(), kind=kind, layer="http", payload=payload)

    def hooks(self) -> dict[str, list[Callable[[Any], Awaitable[None]]]]:
        """``event_hooks=`` for ``httpx2.AsyncClient``."""
        return {"request": [self.on_request], "response": [self.on_response]}


def _www_error(value: str) -> str:
    import re

    found = re.search(r'error="([^"]+)"', value)
    return found.group(1) if found else ""


def exchanges_text(trace: Trace, *, layer: str = "http") -> str:
    """One line per HTTP message of ``trace``: ``src → dst label`` (``+Bearer``: the request carried a token)."""
    return "\n".join(f"{e.src:>11} → {e.dst:<11} {e.label}" for e in trace.events if e.layer == layer)


# -------------------------------------------------------------------------- the client side

class HeadlessBrowser:
    """The user's browser, headless: opens the authorization URL and catches the redirect with the code.

    A real client opens the system browser and runs a tiny callback server on
    ``redirect_uri``; here the AS approves at once (its simulated user consents), so the
    browser only needs to read the ``Location`` of the 302 it answers with. Its requests
    are traced on the ``Browser`` lane.

    Attributes:
        last_url: the authorization URL the client asked to open (with ``code_challenge``,
            ``resource``, ``scope``, ``state``).
    """

    def __init__(self, tracer: HttpTracer | None = None) -> None:
        self.tracer = tracer
        self.last_url: str | None = None
        self._result: Any = None

    async def open(self, url: str) -> None:
        """The SDK's ``redirect_handler``: visit the AS's ``/authorize`` and keep what it redirects to."""
        import httpx2
        from mcp.shared.auth import AuthorizationCodeResult

        self.last_url = url
        hooks = self.tracer.hooks() if self.tracer else {}
        async with httpx2.AsyncClient(follow_redirects=False, event_hooks=hooks) as client:
            response = await client.get(url, timeout=10)
        location = response.headers.get("location")
        if response.status_code not in (302, 303) or not location:
            raise PermissionError(f"the authorization server refused: {response.status_code} {response.text[:200]}")
        query = {k: v[0] for k, v in parse_qs(urlparse(location).query).items()}
        if "error" in query:
            raise PermissionError(f"authorization failed: {query['error']} ({query.get('error_description', '')})")
        self._result = AuthorizationCodeResult(code=query["code"], state=query.get("state"), iss=query.get("iss"))

    async def callback(self) -> Any:
        """The SDK's ``callback_handler``: the code and state the redirect carried."""
        result, self._result = self._result, None
        if result is None:
            raise RuntimeError("the browser has not been sent to the authorization server")
        return result


class MemoryTokenStorage:
    """The SDK's ``TokenStorage`` in memory (a real client keeps tokens in the OS keychain)."""

    def __init__(self) -> None:
        self.tokens: Any = None
        self.client_info: Any = None

    async def get_tokens(self) -> Any:
        return self.tokens

    async def set_tokens(self, tokens: Any) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> Any:
        return self.client_info

    async def set_client_info(self, client_info: Any) -> None:
        self.client_info = client_info


def oauth_http_client(server_url: str, *, trace: Trace | None = None, lanes: dict[str, str] | None = None,
                      scope: str | None = None, storage: MemoryTokenStorage | None = None,
                      client_name: str = "course notebook", browser: HeadlessBrowser | None = None) -> Any:
    """An ``httpx2.AsyncClient`` that authorizes itself to the MCP server at ``server_url`` (the SDK's OAuth client).

    On the first 401 the SDK's ``OAuthClientProvider`` discovers the protected resource
    metadata (RFC 9728), the AS metadata (RFC 8414), registers (RFC 7591), sends the
    browser to ``/authorize`` with a PKCE challenge and ``resource=server_url`` (RFC 8707),
    trades the code for tokens, retries; on a 403 ``insufficient_scope`` it asks again for
    the union of scopes (step-up). Pass the client to ``streamable_http_client(url, http_client=...)``.

    Args:
        trace: record every HTTP exchange (client and browser lanes).
        lanes: base URL -> lane name for the pictures.
        scope: the ``scope`` of the client's metadata (sent at registration). It is not what the
            first token asks for: the SDK follows MCP authorization's scope selection strategy (the
            401's ``scope``, else the resource metadata's ``scopes_supported``), then steps up on a 403.
        storage: token storage (default: a fresh :class:`MemoryTokenStorage`).
        browser: the browser to use (default: a :class:`HeadlessBrowser` traced on ``Browser``).

    Returns:
        The client; its ``.oauth`` is the provider, ``.browser`` the browser, ``.storage`` the tokens.
    """
    import httpx2
    from mcp.client.auth import OAuthClientProvider
    from mcp.shared.auth import OAuthClientMetadata

    storage = storage or MemoryTokenStorage()
    browser = browser or HeadlessBrowser(HttpTracer(trace, BROWSER, lanes or {}) if trace is not None else None)
    metadata = OAuthClientMetadata(client_name=client_name, redirect_uris=["http://127.0.0.1:33418/callback"],
                                   grant_types=["authorization_code", "refresh_token"], response_types=["code"],
                                   token_endpoint_auth_method="none", scope=scope)
    provider = OAuthClientProvider(server_url, metadata, storage, redirect_handler=browser.open,
                                   callback_handler=browser.callback)
    hooks = HttpTracer(trace, CLIENT, lanes or {}).hooks() if trace is not None else {}
    client = httpx2.AsyncClient(auth=provider, event_hooks=hooks, timeout=30)
    client.oauth, client.browser, client.storage = provider, browser, storage  # type: ignore[attr-defined]
    return client


def authorized_mcp_client(server_url: str, http_client: Any, *, mode: str = "legacy", **client_kwargs: Any) -> Any:
    """An ``mcp.Client`` over streamable HTTP using ``http_client`` (from :func:`oauth_http_client`)."""
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    return Client(streamable_http_client(server_url, http_client=http_client), mode=mode, **client_kwargs)


# -------------------------------------------------------------------------- the cast, on free ports

@dataclass
class AuthDemo:
    """The running cast of lesson 10a: the AS, the protected project-manager server, a downstream API.

    Attributes:
        provider: the AS's :class:`MemoryAuthProvider` (tokens, codes, consents).
        issuer, mcp_url, api_url: their URLs.
        trace: where the servers record their own HTTP calls (introspection, downstream calls).
        server: the project-manager ``MCPServer``.
        names: the :mod:`course_lib.servers` names (:meth:`stop` stops them).
        published: what the reports API accepted, with ``published_by`` (the token's client).
    """

    provider: MemoryAuthProvider
    issuer: str
    mcp_url: str
    api_url: str
    trace: Trace
    server: Any
    names: list[str]
    published: list[dict[str, Any]] = field(default_factory=list)

    @property
    def lanes(self) -> dict[str, str]:
        """Base URL -> lane name, for :class:`HttpTracer`."""
        def base(u: str) -> str:
            p = urlparse(u)
            return f"{p.scheme}://{p.hostname}:{p.port}"
        return {base(self.issuer): AS, base(self.mcp_url): MCP, base(self.api_url): API}

    def client(self, *, scope: str | None = None, trace: Trace | None = None, **kwargs: Any) -> Any:
        """:func:`oauth_http_client` for this demo's MCP server, traced into ``trace`` (default: the demo's)."""
        return oauth_http_client(self.mcp_url, trace=self.trace if trace is None else trace, lanes=self.lanes,
                                 scope=scope, **kwargs)

    def stop(self) -> None:
        from .servers import stop_server

        for name in self.names:
            stop_server(name)


def reports_api_app(verifier: Any, resource_url: str) -> Any:
    """A downstream API (``GET /reports``) that accepts only tokens issued for ``resource_url`` with ``reports:write``."""
    from mcp.server.auth.middleware.bearer_auth import BearerAuthBackend, RequireAuthMiddleware
    from pydantic import AnyHttpUrl
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.authentication import AuthenticationMiddleware
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Mount, Route

    published: list[dict] = []

    async def reports(request: Request) -> JSONResponse:
        if request.method == "POST":
            report = await request.json()
            published.append({**report, "published_by": request.user.display_name})
            return JSONResponse({"published": len(published)}, status_code=201)
        return JSONResponse(published)

    inner = Starlette(routes=[Route("/reports", reports, methods=["GET", "POST"])])
    gated = RequireAuthMiddleware(inner, ["reports:write"], None)
    backend = BearerAuthBackend(verifier, resource_server_url=AnyHttpUrl(resource_url))
    app = Starlette(routes=[Mount("/", app=gated)], middleware=[Middleware(AuthenticationMiddleware, backend=backend)])
    app.state.published = published
    return app


def add_report_tool(server: Any, store: Any, *, api_url: str, service_token: Callable[[], str],
                    passthrough: Callable[[], bool], http_client: Callable[[], Any] | None = None) -> None:
    """Tool ``publish_report``: posts a task summary to the downstream reports API.

    With ``passthrough()`` true it forwards the *client's* token (the forbidden pattern: the
    API refuses it, because that token's audience is the MCP server); otherwise it uses the
    server's own token for the API (``service_token()``). ``http_client`` makes the
    ``httpx2.AsyncClient`` for that call (default: a plain one; the demo's is traced, so the
    ``POST /reports`` and the API's answer are on the lesson's trace).
    """
    import httpx2
    from mcp.server.auth.middleware.auth_context import get_access_token
    from mcp.server.mcpserver.exceptions import ToolError

    @server.tool()
    async def publish_report(title: str = "Weekly tasks") -> str:
        """Publish a summary of the tasks to the reports API (needs tasks:write)."""
        tasks = store.list()
        token = get_access_token().token if passthrough() else service_token()
        async with (http_client() if http_client else httpx2.AsyncClient(timeout=10)) as client:
            response = await client.post(api_url + "/reports", json={"title": title, "tasks": len(tasks)},
                                         headers={"Authorization": f"Bearer {token}"})
        if response.status_code != 201:
            www = response.headers.get("www-authenticate", "")
            raise ToolError(f"the reports API answered {response.status_code} ({_www_error(www) or response.text})")
        return f"published {title!r} ({len(tasks)} tasks)"


def start_auth_demo(*, trace: Trace | None = None, prefix: str = "auth-demo", passthrough: bool = False) -> AuthDemo:
    """Start the AS, the protected project-manager MCP server and the reports API on free 127.0.0.1 ports.

    Idempotent: starting again with the same ``prefix`` replaces the running cast.

    Args:
        trace: where the servers' own HTTP calls are recorded (introspection, the reports API).
        prefix: the :mod:`course_lib.servers` names are ``<prefix>-as``, ``-mcp``, ``-api``.
        passthrough: start with ``publish_report`` forwarding the client's token (the attack);
            switch later with ``demo.server.passthrough = True/False``.

    Returns:
        The :class:`AuthDemo`.
    """
    import httpx2

    from .mcp_servers import project_manager_server
    from .servers import free_port, start_server

    trace = trace if trace is not None else Trace("MCP authorization")
    as_port, mcp_port, api_port = free_port(), free_port(), free_port()
    issuer, mcp_url = f"http://127.0.0.1:{as_port}", f"http://127.0.0.1:{mcp_port}/mcp"
    api_url = f"http://127.0.0.1:{api_port}"
    provider = MemoryAuthProvider(issuer, {mcp_url: list(SCOPES), api_url: ["reports:write"]})
    lanes = {issuer: AS, f"http://127.0.0.1:{mcp_port}": MCP, api_url: API}

    def traced(src: str) -> Callable[[], Any]:
        return lambda: httpx2.AsyncClient(event_hooks=HttpTracer(trace, src, lanes).hooks())

    verifier = IntrospectionVerifier(issuer + "/introspect", traced(MCP))
    server = project_manager_server()
    server.passthrough = passthrough  # type: ignore[attr-defined]
    service: dict[str, str] = {}

    def service_token() -> str:
        if "token" not in service:
            service["token"] = provider.issue_service_token("project-manager-server", api_url, ["reports:write"])
        return service["token"]

    add_report_tool(server, server.store, api_url=api_url, service_token=service_token,
                    passthrough=lambda: bool(server.passthrough), http_client=traced(MCP))
    names = [f"{prefix}-as", f"{prefix}-mcp", f"{prefix}-api"]
    start_server(names[0], authorization_server_app(provider), as_port)
    start_server(names[1], protected_mcp_app(server, resource_url=mcp_url, issuer_url=issuer, verifier=verifier,
                                             resource_name="Project manager"), mcp_port)
    api = reports_api_app(IntrospectionVerifier(issuer + "/introspect", traced(API)), api_url)
    start_server(names[2], api, api_port)
    return AuthDemo(provider, issuer, mcp_url, api_url, trace, server, names, api.state.published)


def token_request_by_hand(demo: AuthDemo, **overrides: Any) -> Any:
    """Run the authorization-code flow with plain HTTP (no SDK), returning the token response.

    For the attacks: ``resource=`` another audience, a wrong ``code_verifier``, no PKCE.
    Registers a public client, opens ``/authorize`` like a browser, then POSTs ``/token``.

    Args:
        overrides: ``resource``, ``scope``, ``code_verifier`` (``None`` drops it), ``token_resource``.

    Returns:
        The ``httpx2.Response`` of the token request (or of ``/authorize`` if it refused).
    """
    import base64
    import hashlib

    import httpx2

    with httpx2.Client(timeout=10, follow_redirects=False) as http:
        reg = http.post(demo.issuer + "/register", json={"client_name": "by hand",
                                                         "redirect_uris": ["http://127.0.0.1:33418/callback"],
                                                         "scope": " ".join(sorted({*SCOPES, "reports:write"})),
                                                         "token_endpoint_auth_method": "none"}).json()
        verifier = secrets.token_urlsafe(48)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
        query = {"response_type": "code", "client_id": reg["client_id"], "redirect_uri": reg["redirect_uris"][0],
                 "state": "s1", "code_challenge": challenge, "code_challenge_method": "S256",
                 "scope": overrides.get("scope", "tasks:read"), "resource": overrides.get("resource", demo.mcp_url)}
        answer = http.get(demo.issuer + "/authorize?" + urlencode(query))
        location = answer.headers.get("location", "")
        code = parse_qs(urlparse(location).query).get("code", [None])[0]
        if code is None:
            return answer
        form = {"grant_type": "authorization_code", "code": code, "redirect_uri": reg["redirect_uris"][0],
                "client_id": reg["client_id"], "code_verifier": overrides.get("code_verifier", verifier),
                "resource": overrides.get("token_resource", query["resource"])}
        return http.post(demo.issuer + "/token", data={k: v for k, v in form.items() if v is not None})


# -------------------------------------------------------------------------- course mcp serve --auth

def auth_banner(mcp_url: str, issuer: str, scopes: list[str], token: str) -> str:
    """What ``course mcp serve --auth`` prints before serving, in the learner's language (``i18n``).

    Args:
        mcp_url: the protected MCP endpoint, ``http://127.0.0.1:PORT/mcp``.
        issuer: the authorization server's URL (its metadata is under ``/.well-known/``).
        scopes: the scopes the token carries, all the server accepts.
        token: a ready access token for ``curl``.

    Returns:
        Lines joined by ``\\n``: the two servers, the protected resource metadata URL, how an OAuth client
        connects, then ``export MCP_TOKEN=...`` and a ``curl`` command (shell, never translated).
    """
    from .i18n import _

    base = mcp_url.rsplit("/mcp", 1)[0]
    curl = (f"  curl -H \"Authorization: Bearer $MCP_TOKEN\" -H 'Content-Type: application/json' "
            f"-H 'Accept: application/json, text/event-stream' -d "
            "'{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":"
            "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            "\"io.modelcontextprotocol/clientCapabilities\":{}}}}' "
            f"-H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: server/discover' {mcp_url}")
    return "\n".join([
        _("MCP server (streamable HTTP, OAuth-protected) at {url}  (Ctrl+C stops)").format(url=mcp_url),
        _("Authorization server at {issuer}  (metadata: {metadata})").format(
            issuer=issuer, metadata=f"{issuer}/.well-known/oauth-authorization-server"),
        _("Protected resource metadata: {url}").format(url=f"{base}/.well-known/oauth-protected-resource/mcp"),
        _("An OAuth client (the MCP Inspector, the mcp SDK's OAuthClientProvider) needs only the URL: the 401\n"
          "names the metadata; it registers, the simulated user consents, PKCE, token, done."),
        _("For curl, a token for this server ({scopes}; 1 hour):").format(scopes=" ".join(scopes)),
        f"  export MCP_TOKEN={token}",
        curl,
    ])


def serve_with_auth(server: Any, *, port: int = 0, as_port: int = 0, scopes: list[str] | None = None,
                    tool_scopes: dict[str, list[str]] | None = None, out: Any = None) -> None:
    """Serve ``server`` over streamable HTTP as a protected resource, with its own AS, until stopped.

    The AS (:func:`authorization_server_app`) runs in a background thread on ``as_port``; the
    MCP server in the foreground on ``port`` (0: free ports). Before serving it prints the
    URLs, how an OAuth client connects (any MCP client that does MCP authorization: it
    discovers everything from the 401), and a ready token for ``curl`` (issued to the client
    id ``course-cli``, bound to this server, all scopes).

    Args:
        server: the ``MCPServer`` to protect (``course mcp serve --auth`` passes the profile's).
        scopes: the scopes the server accepts (default: ``["mcp:use"]``); the first one is
            required for every request.
        tool_scopes: per-tool scopes (403 step-up), e.g. :data:`TOOL_SCOPES` for the project manager.
        out: where to print (default ``sys.stderr``, so stdout stays clean).
    """
    import sys

    from .servers import free_port, serve_forever, start_server, stop_server, tcp_listener

    out = out or sys.stderr
    scopes = list(scopes or ["mcp:use"])
    sock = tcp_listener("127.0.0.1", port)  # bound before the URL is printed; TCP_NODELAY (course_lib.servers)
    mcp_port = sock.getsockname()[1]
    as_port = as_port or free_port()
    issuer, mcp_url = f"http://127.0.0.1:{as_port}", f"http://127.0.0.1:{mcp_port}/mcp"
    provider = MemoryAuthProvider(issuer, {mcp_url: scopes})
    start_server("course-mcp-auth-as", authorization_server_app(provider), as_port)
    token = provider.issue_service_token("course-cli", mcp_url, scopes)
    app = protected_mcp_app(server, resource_url=mcp_url, issuer_url=issuer,
                            verifier=IntrospectionVerifier(issuer + "/introspect"), required_scopes=scopes[:1],
                            tool_scopes=tool_scopes or {}, scopes_supported=scopes,
                            resource_name=getattr(server, "name", None))
    print(auth_banner(mcp_url, issuer, scopes, token), file=out, flush=True)
    try:
        serve_forever("course-mcp-serve-auth", app, sock)
    finally:
        stop_server("course-mcp-auth-as")


def confused_deputy_attack(demo: AuthDemo, *, trace: Trace | None = None, scope: str = "tasks:read") -> dict[str, Any]:
    """An attacker's client tries to obtain the user's token through the AS's remembered consent.

    The attacker registers a client of its own (open dynamic registration: anyone can) with
    a ``redirect_uri`` it controls, and sends the signed-in user a link to ``/authorize``
    for it. If the AS remembers consent per *user*, the user's browser is redirected at once
    with a code, to the attacker, who trades it (with its own PKCE verifier) for a token to
    the user's tasks. With consent per *client* the user sees a consent screen for a client
    she never used, and declines.

    Returns:
        ``{"asked": bool (a consent screen was shown), "code": bool (the attacker got a code),
        "token": str | None (the scope the attacker's token has), "error": str | None}``.
    """
    import base64
    import hashlib

    import httpx2

    asked_before = len(demo.provider.asked)
    with httpx2.Client(timeout=10) as http:
        attacker = http.post(demo.issuer + "/register", json={
            "client_name": "Totally Legit Tool", "redirect_uris": ["http://127.0.0.1:1/steal"],
            "token_endpoint_auth_method": "none", "scope": scope}).json()
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    link = demo.issuer + "/authorize?" + urlencode({
        "response_type": "code", "client_id": attacker["client_id"], "redirect_uri": "http://127.0.0.1:1/steal",
        "state": "x", "code_challenge": challenge, "code_challenge_method": "S256",
        "scope": scope, "resource": demo.mcp_url})
    browser = HeadlessBrowser(HttpTracer(trace, BROWSER, demo.lanes) if trace is not None else None)
    outcome: dict[str, Any] = {"asked": False, "code": False, "token": None, "error": None}
    try:
        anyio_run(browser.open, link)  # the victim clicks the link, signed in at the AS
    except PermissionError as refused:
        outcome["error"] = str(refused)
    outcome["asked"] = len(demo.provider.asked) > asked_before
    result = browser._result
    if result is not None:
        outcome["code"] = True
        with httpx2.Client(timeout=10) as http:
            token = http.post(demo.issuer + "/token", data={
                "grant_type": "authorization_code", "code": result.code, "redirect_uri": "http://127.0.0.1:1/steal",
                "client_id": attacker["client_id"], "code_verifier": verifier, "resource": demo.mcp_url}).json()
        outcome["token"] = token.get("scope")
    return outcome


def anyio_run(fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
    """Run a coroutine function to completion from sync code, also inside a running loop (a notebook cell).

    In a running loop it runs in a worker thread with its own loop (never ``asyncio.run``
    in the kernel's loop, which raises).
    """
    import asyncio
    import concurrent.futures

    import anyio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return anyio.run(fn, *args)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(anyio.run, fn, *args).result()
