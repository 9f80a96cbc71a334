"""Helpers the mock's reading tests share: a function tool in one line, what the mock called, and one client
a module (a test module takes the fixture with ``from mock_support import client``)."""
from __future__ import annotations

import json

import pytest

from course_lib.mock_llm import MockLLM


@pytest.fixture(scope="module")
def client():
    """One mock's openai client for a whole test module (conftest's ``client`` is a fresh one a test): the reading
    tests send one-off requests that leave nothing behind for the next test."""
    return MockLLM().client()


def tool(name: str, description: str, props: dict, required: list | None = None) -> dict:
    """A Chat Completions function tool; every property required unless ``required`` says otherwise."""
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": props, "required": list(props) if required is None else required}}}


def calls(client, text: str, tools: list[dict], **options) -> list[tuple[str, dict]] | str:
    """``[(name, arguments), ...]`` of the mock's tool calls for one user message, or its text when it calls none;
    ``options`` go to ``chat.completions.create`` as they are (``tool_choice``, ``parallel_tool_calls``...)."""
    msg = client.chat.completions.create(model="mock", messages=[{"role": "user", "content": text}],
                                         tools=tools, **options).choices[0].message
    if msg.tool_calls:
        return [(c.function.name, json.loads(c.function.arguments)) for c in msg.tool_calls]
    return msg.content
