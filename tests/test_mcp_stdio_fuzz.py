"""Fuzz every stdio MCP server of the kit: a few hundred generated bad messages each (issue 14).

Each message is followed by a ``ping`` (the sentinel). Every message gets a well-formed JSON-RPC
answer, or none when it is a notification; the answer carries the request's id when that id was
valid; the process is still alive and answers ``tools/list`` at the end. The generator is seeded
(``tests/fuzz_messages.py``), so a failure replays exactly.
"""
from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading

import pytest

from fuzz_messages import Fuzzed, MessageFuzzer, check_reply

MESSAGES = 300
SERVERS = {
    "project-manager": ([sys.executable, "-m", "course_lib.mcp_servers", "project-manager"],
                        {"create_task": {"title": "fuzz", "priority": "high"}, "list_tasks": {},
                         "update_task_status": {"task_id": 1, "status": "done"}},
                        {"code_review": {"code": "x = 1"}}),
    "wiki": ([sys.executable, "-m", "course_lib.mcp_servers", "wiki"],
             {"search_wiki": {"query": "onboarding", "limit": 2}}, {}),
    # crash and big_text are left out on purpose: they exist to kill the server and to send 1 MB.
    "demo": ([sys.executable, "-m", "course_lib.mcp_servers", "demo"],
             {"echo": {"text": "hi"}, "add": {"a": 1, "b": 2}, "where": {}}, {}),
    "course mcp serve": ([sys.executable, "-c", "from course_lib.cli import main; main(['mcp', 'serve'])"],
                         {"get_weather": {"city": "Shanghai"}, "search_wiki": {"query": "vacation", "limit": 3}}, {}),
}
INIT = {"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}}}


class Peer:
    """The client side of a stdio server; a thread reads its stdout (a full pipe must never block the server)."""

    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read_all, daemon=True).start()

    def _read_all(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(b"")

    def send(self, raw: bytes) -> None:
        self.proc.stdin.write(raw + b"\n")
        self.proc.stdin.flush()

    def read(self, timeout: float = 60.0) -> dict:  # generous: CI machines are shared; a hang still fails
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("no reply in time (the server hangs?)") from None
        assert line, f"the server died (exit code {self.proc.poll()})"
        assert line.endswith(b"\n") and b"\n" not in line[:-1]
        return json.loads(line)

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def exchange(peer: Peer, fuzzed: Fuzzed, index: int) -> list[dict]:
    """Send one message and a sentinel ping; the replies that belong to the message."""
    sentinel = f"sentinel-{index}"
    peer.send(fuzzed.raw)
    peer.send(json.dumps({"jsonrpc": "2.0", "id": sentinel, "method": "ping"}).encode())
    replies, seen_sentinel = [], False
    wanted = fuzzed.request_id if 1 in fuzzed.replies and 0 not in fuzzed.replies else None
    while not seen_sentinel or (wanted is not None and not any(r.get("id") == wanted for r in replies)):
        reply = peer.read()
        if reply.get("id") == sentinel:
            assert reply == {"jsonrpc": "2.0", "id": sentinel, "result": {}}, reply
            seen_sentinel = True
        else:
            replies.append(reply)
    return replies


@pytest.mark.parametrize("name", list(SERVERS))
def test_stdio_server_answers_every_bad_message_and_survives(name):
    command, tools, prompts = SERVERS[name]
    fuzzer = MessageFuzzer(seed=sum(map(ord, name)), tools=tools, prompts=prompts,
                           methods=["resources/list", "prompts/list", "resources/templates/list", "initialize"])
    messages = fuzzer.generate(MESSAGES)
    assert len(messages) >= MESSAGES * 0.9
    peer = Peer(command)
    try:
        peer.send(json.dumps(INIT).encode())
        assert peer.read()["id"] == "init"
        peer.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        answered = silent = 0
        for i, fuzzed in enumerate(messages):
            try:
                replies = exchange(peer, fuzzed, i)
            except AssertionError as e:
                raise AssertionError(f"message {i} ({fuzzed.label}) {fuzzed.raw[:300]!r}: {e}") from None
            assert len(replies) in fuzzed.replies, (
                f"{fuzzed.label}: {len(replies)} replies for {fuzzed.raw[:300]!r}: {replies!r:.300}")
            for reply in replies:
                check_reply(reply, fuzzed)
            answered += bool(replies)
            silent += not replies
        assert answered > MESSAGES / 2 and silent > 5  # the mix has both kinds
        peer.send(b'{"jsonrpc":"2.0","id":"last","method":"tools/list"}')
        last = peer.read()
        assert last["id"] == "last" and {t["name"] for t in last["result"]["tools"]} >= set(tools)
        assert peer.proc.poll() is None
    finally:
        peer.close()
