"""The course's embedded mock LLM: the OpenAI Chat Completions wire, no network, no key.

``MockLLM`` is the object; ``MockLLM().client()`` gives an ``openai.OpenAI`` client that
talks to it in-process; ``course llm serve`` serves it over HTTP. See
:mod:`course_lib.mock_llm.engine` for how it decides.

``fill_schema(schema, messages) -> (values, missing)`` fills a JSON Schema object from a conversation
with the same readers that fill tool arguments (for ``response_format`` structured outputs); its name
and shape stay stable whatever module it lives in.
"""
from .arguments import fill_schema
from .engine import Decision, PlannedCall, decide, score_tools
from .errors import MockAPIError
from .faults import FAULT_KINDS, Fault, FaultPlan
from .server import DEFAULT_MODEL, Exchange, HTTPReply, MockLLM
from .wire import ChatRequest, ToolSpec, parse_chat_request

__all__ = [
    "ChatRequest", "DEFAULT_MODEL", "Decision", "Exchange", "FAULT_KINDS", "Fault", "FaultPlan", "HTTPReply",
    "MockAPIError", "MockLLM", "PlannedCall", "ToolSpec", "decide", "fill_schema", "parse_chat_request",
    "score_tools",
]
