"""The course's embedded mock LLM: the OpenAI Chat Completions wire, no network, no key.

``MockLLM`` is the object; ``MockLLM().client()`` gives an ``openai.OpenAI`` client that
talks to it in-process; ``course llm serve`` serves it over HTTP. See
:mod:`course_lib.mock_llm.engine` for how it decides.

``fill_schema(schema, messages) -> (values, missing)`` fills a JSON Schema object from a conversation
with the same readers that fill tool arguments (for ``response_format`` structured outputs); its name
and shape stay stable whatever module it lives in.
"""
from __future__ import annotations

from ..lazy_exports import lazy_exports

#: Where each exported name lives. They are imported on first use (PEP 562): ``MockLLM`` alone (the
#: object a notebook's first cell creates) does not load the engine, whose readers compile hundreds of
#: regular expressions and whose wire checks import jsonschema (~0.35 s of CPU together); the engine
#: loads with the first request the mock answers.
_EXPORTS = {
    "fill_schema": "arguments", "Decision": "engine", "PlannedCall": "engine", "decide": "engine",
    "score_tools": "engine", "MockAPIError": "errors", "FAULT_KINDS": "faults", "Fault": "faults",
    "FaultPlan": "faults", "DEFAULT_MODEL": "server", "Exchange": "server", "HTTPReply": "server",
    "MockLLM": "server", "ChatRequest": "wire", "ToolSpec": "wire", "parse_chat_request": "wire",
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
