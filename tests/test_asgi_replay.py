"""The replayed ASGI body the HTTP guards (A2A limits, MCP strict JSON-RPC, MCP tool scopes) hand to the SDK app."""
from __future__ import annotations

import asyncio

from course_lib.asgi_replay import replaying


def test_the_body_comes_once_whole_then_the_real_receive_speaks():
    heard = []

    async def receive() -> dict:
        heard.append("receive")
        return {"type": "http.disconnect"}

    async def read_three() -> list[dict]:
        replay = replaying(b'{"jsonrpc": "2.0"}', receive)
        return [await replay(), await replay(), await replay()]

    first, second, third = asyncio.run(read_three())
    assert first == {"type": "http.request", "body": b'{"jsonrpc": "2.0"}', "more_body": False}
    assert second == third == {"type": "http.disconnect"} and heard == ["receive", "receive"]
