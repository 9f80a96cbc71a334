"""Exercise 10a's check runs the learner's token verifier in a protected wiki server and names each mistake."""
from __future__ import annotations

import httpx2
import pytest
from mcp.server.auth.provider import AccessToken

from course_lib.checks import CheckFailed
from course_lib.checks.token_verifier import check_token_verifier


class Good:
    def __init__(self, introspection_url, resource_url):
        self.introspection_url, self.resource_url = introspection_url, resource_url

    async def claims(self, token):
        async with httpx2.AsyncClient() as http:
            return (await http.post(self.introspection_url, data={"token": token})).json()

    async def verify_token(self, token):
        claims = await self.claims(token)
        if not claims.get("active") or claims.get("aud") != self.resource_url:
            return None
        return AccessToken(token=token, client_id=claims["client_id"], scopes=claims["scope"].split(),
                           resource=claims["aud"])


class NoAudience(Good):  # the classic: any active token from the right AS
    async def verify_token(self, token):
        claims = await self.claims(token)
        if not claims.get("active"):
            return None
        return AccessToken(token=token, client_id=claims["client_id"], scopes=claims["scope"].split())


class NoActive(Good):  # reads claims that an inactive answer does not have
    async def verify_token(self, token):
        claims = await self.claims(token)
        if claims.get("aud", self.resource_url) != self.resource_url:
            return None
        return AccessToken(token=token, client_id=claims.get("client_id", "?"), scopes=claims.get("scope", "").split())


class TrustsEverything(Good):  # never asks anyone
    async def verify_token(self, token):
        return AccessToken(token=token, client_id="checker", scopes=["wiki:read"])


@pytest.mark.parametrize("verifier, failing, words", [
    (NoAudience, "a token for another server is refused (RFC 8707 audience)", "claims['aud']"),
    (NoActive, "an unknown token is refused", "active"),
    (NoActive, "a revoked token is refused", "active"),
    (TrustsEverything, "it asks the authorization server (introspection)", "introspection_url"),
])
def test_typical_mistakes_get_their_own_hint(verifier, failing, words):
    with pytest.raises(CheckFailed) as e:
        check_token_verifier(verifier)
    failed = {r.name: r.hint for r in e.value.report.results if not r.passed}
    assert failing in failed and words in failed[failing], failed


def test_the_reference_solution_passes():
    assert check_token_verifier(Good).passed
