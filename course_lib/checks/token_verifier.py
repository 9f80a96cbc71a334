"""Checks of exercise 10a: the token check of an OAuth-protected wiki MCP server.

The learner writes ``WikiTokenVerifier(introspection_url, resource_url)`` with an async
``verify_token(token) -> AccessToken | None`` (the SDK's ``TokenVerifier`` protocol): ask the
authorization server about the token (RFC 7662 introspection) and accept it only if it is
active and issued *for this server* (``aud``, RFC 8707). The check starts a real
authorization server and the wiki server protected with the learner's verifier (the SDK's
own audience check switched off, so the verifier alone decides), then tries a good token,
an unknown one, a revoked one, one for another server, and the SDK's OAuth client.
"""
from __future__ import annotations

from typing import Any

from ..hints import Hints
from . import CheckReport
from ..i18n import N_, _

#: Hints of exercise 10a, from a nudge to nearly the answer (``HINTS`` in the exercise, ``course hint 10a``).
HINTS = Hints('10a_token_verifier', [
    N_('Lesson 10a, section 4, step 7: after the 401 dance, the MCP server asks the authorization server about '
    'every token (`POST /introspect`, RFC 7662). Do the same: post the token, read the JSON answer.'),
    N_('The answer has `active` (False for unknown, revoked or expired tokens), `aud` (the resource the token was '
    'issued for), `scope` (space-separated) and `client_id`. Refuse with `return None`; accept with an `AccessToken`.'),
    N_('`async with httpx2.AsyncClient() as http: claims = (await http.post(self.introspection_url, data={"token": '
    'token})).json()`; `if not claims.get("active") or claims.get("aud") != self.resource_url: return None`; '
    '`return AccessToken(token=token, client_id=claims["client_id"], scopes=claims["scope"].split(), '
    'expires_at=claims.get("exp"), resource=claims["aud"])`.'),
], solution_section='Your code: WikiTokenVerifier')

WIKI_SCOPES = ["wiki:read"]


def check_token_verifier(verifier_class: Any) -> CheckReport:
    """Run the learner's verifier inside a protected wiki MCP server, with real tokens and the SDK's client.

    Raises:
        CheckFailed: when any sub-check fails (the report lists hints).
    """
    import httpx2

    from ..mcp_auth import (MemoryAuthProvider, anyio_run, authorization_server_app,
                            authorized_mcp_client, oauth_http_client, protected_mcp_app)
    from ..mcp_servers import wiki_server
    from ..servers import free_port, start_server, stop_server

    report = CheckReport(_("Exercise 10a · the wiki server's token check"), more_help=HINTS.pointer())
    as_port, wiki_port = free_port(), free_port()
    issuer, wiki_url = f"http://127.0.0.1:{as_port}", f"http://127.0.0.1:{wiki_port}/mcp"
    other_url = "http://127.0.0.1:1/finance"
    provider = MemoryAuthProvider(issuer, {wiki_url: WIKI_SCOPES, other_url: ["finance:read"]})
    asked: list[str] = []
    real_introspect = provider.introspect
    provider.introspect = lambda token: (asked.append(token), real_introspect(token))[1]  # count the questions
    try:
        verifier = verifier_class(issuer + "/introspect", wiki_url)
    except Exception as e:  # the learner's constructor failed
        report.check(_("WikiTokenVerifier(introspection_url, resource_url) can be built"), False,
                     _("Keep the constructor's two arguments (it raised {error_type}: {e}).").format(error_type=type(e).__name__, e=e))
        return report.finish()
    start_server("check-10a-as", authorization_server_app(provider), as_port)
    try:
        start_server("check-10a-wiki", protected_mcp_app(
            wiki_server(), resource_url=wiki_url, issuer_url=issuer, verifier=verifier, required_scopes=WIKI_SCOPES,
            tool_scopes={}, scopes_supported=WIKI_SCOPES, check_audience=False), wiki_port)
        good = provider.issue_service_token("checker", wiki_url, WIKI_SCOPES)

        def verify(token: str) -> Any:
            return anyio_run(verifier.verify_token, token)

        try:
            accepted = verify(good)
        except NotImplementedError:
            report.check(_("verify_token runs"), False,
                         _("Write your code where the exercise says `# YOUR CODE HERE` (and remove the `raise`)."))
            return report.finish()
        except Exception as e:  # the learner's code failed
            report.check(_("verify_token runs"), False, _("verify_token raised {error_type}: {e}").format(error_type=type(e).__name__, e=e))
            return report.finish()
        report.check(_("a valid wiki token is accepted, with its scopes"), accepted is not None
                     and list(getattr(accepted, "scopes", [])) == WIKI_SCOPES
                     and getattr(accepted, "client_id", None) == "checker",
                     _("For an active token for this server return `AccessToken(token=..., "
                        "client_id=claims['client_id'], scopes=claims['scope'].split(), ...)` "
                        "(got {accepted!r:.120}).").format(accepted=accepted))
        report.check(_("it asks the authorization server (introspection)"), good in asked,
                     _("Post the token to `self.introspection_url` (form field `token`): only the authorization "
                     "server knows whether a token is real, still valid and for whom."))
        report.check(_("an unknown token is refused"), verify("not-a-token-anyone-issued") is None,
                     _("Introspection answers `{\"active\": false}` for a token it never issued: return None then."))
        revoked = provider.issue_service_token("checker", wiki_url, WIKI_SCOPES)
        provider.tokens.pop(revoked, None)
        report.check(_("a revoked token is refused"), verify(revoked) is None,
                     _("A revoked (or expired) token is `active: false` too: check `active` before anything else."))
        foreign = provider.issue_service_token("checker", other_url, ["finance:read"])
        report.check(_("a token for another server is refused (RFC 8707 audience)"), verify(foreign) is None,
                     _("This token is real and active, but issued for another resource: compare `claims['aud']` with "
                     "`self.resource_url` and refuse it when they differ (lesson 10a, section 6)."))
        answer = httpx2.post(wiki_url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                             headers={"Authorization": f"Bearer {foreign}"}, timeout=30)
        report.check(_("over HTTP, that token gets 401"), answer.status_code == 401,
                     _("The server answered {status_code}: your verifier must return None for it.").format(status_code=answer.status_code))

        async def use_the_sdk() -> Any:
            http = oauth_http_client(wiki_url, client_name="exercise 10a")
            async with authorized_mcp_client(wiki_url, http) as client:
                return await client.call_tool("search_wiki", {"query": "vacation"})
        result = report.run(_("the SDK's OAuth client gets in and calls search_wiki"), lambda: anyio_run(use_the_sdk),
                            _("A token the authorization server just issued for this server must pass"))
        if result is not None:
            report.check(_("search_wiki answered through the protected server"), not result.is_error,
                         _("The call failed: {value!r:.160}").format(value=result.content[0].text if result.content else result))
    finally:
        stop_server("check-10a-wiki")
        stop_server("check-10a-as")
    return report.finish()


__all__ = ["HINTS", "check_token_verifier"]
