"""Agent Tool Systems: the library behind the course notebooks.

The learner-facing names are re-exported here; each lives in a module named after the idea
it teaches (see ``docs/architecture.md`` for the map). They are imported lazily (PEP 562),
so a child process that needs one small module (an MCP server over stdio, lesson 09) does
not pay for importing the openai SDK and the mock LLM at start-up.
"""
from __future__ import annotations

from . import a2a_otel as _a2a_otel
from . import lazy_formats as _lazy_formats
from .lazy_exports import lazy_exports

_lazy_formats.install()  # jsonschema, when something imports it, skips a 0.85 s grammar (see lazy_formats)
_a2a_otel.install()  # a2a-sdk's spans off when no OpenTelemetry SDK could record them (see a2a_otel)

__version__ = "0.1.0"

_EXPORTS = {
    "as_dict": "function_calling", "parse_arguments": "function_calling", "run_tool_call": "function_calling",
    "run_tool_calls": "function_calling", "tool_loop": "function_calling",
    "backend": "llm_client", "default_model": "llm_client", "get_client": "llm_client",
    "MockLLM": "mock_llm",
    "ToolRegistry": "tool_registry", "Agent": "agent",
    "function_schema": "tool_schemas", "validate_arguments": "tool_schemas",
    "Backoff": "resilience", "CircuitBreaker": "resilience", "harden": "resilience", "retry_call": "resilience",
    "CommandPolicy": "security", "PathPolicy": "security", "run_sandboxed": "security",
    "TaskGraph": "orchestration", "arun_tool_calls": "orchestration",
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
