"""Helpers the mock's reading tests share: a function tool in one line, and what the mock called."""
from __future__ import annotations

import json


def tool(name: str, description: str, props: dict, required: list | None = None) -> dict:
    """A Chat Completions function tool; every property required unless ``required`` says otherwise."""
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": props, "required": list(props) if required is None else required}}}


def calls(client, text: str, tools: list[dict]):
    """``[(name, arguments), ...]`` of the mock's tool calls for one user message, or its text when it calls none."""
    msg = client.chat.completions.create(model="mock", messages=[{"role": "user", "content": text}],
                                         tools=tools).choices[0].message
    if msg.tool_calls:
        return [(c.function.name, json.loads(c.function.arguments)) for c in msg.tool_calls]
    return msg.content
