"""Agent Tool Systems: the library behind the course notebooks.

The learner-facing names are re-exported here; each lives in a module named after the idea
it teaches (see ``docs/architecture.md`` for the map).
"""
from .function_calling import as_dict, parse_arguments, run_tool_call, run_tool_calls, tool_loop
from .llm_client import backend, default_model, get_client
from .mock_llm import MockLLM

__version__ = "0.1.0"

__all__ = [
    "MockLLM", "as_dict", "backend", "default_model", "get_client", "parse_arguments", "run_tool_call",
    "run_tool_calls", "tool_loop",
]
