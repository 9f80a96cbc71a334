"""The course's tools in the agent frameworks learners meet next, with what each sends on the wire.

Three frameworks, one job: run the tool loop of lesson 01 (send tools, get ``tool_calls``,
run them, send results, get the answer) for you.

* **OpenAI Agents SDK** (``openai-agents``; docs: "Agents", "Tools", "Running agents"):
  ``Agent(tools=[function_tool(fn)])`` + ``Runner.run``; the model is
  ``OpenAIChatCompletionsModel`` or ``OpenAIResponsesModel`` over any ``AsyncOpenAI`` client.
* **pydantic-ai** (``pydantic-ai-slim[openai]``; docs: "Agents", "Function Tools"):
  ``Agent(model, tools=[fn])`` + ``agent.run``; ``OpenAIChatModel`` with an ``OpenAIProvider``
  that takes an ``AsyncOpenAI`` client.
* **LangChain / LangGraph** (``langchain-openai``, ``langgraph``; docs: "Tools", "ToolNode",
  "Graph API"): ``ChatOpenAI(...).bind_tools(tools)`` in a ``StateGraph`` whose nodes are the
  model call and a ``ToolNode``, joined by ``tools_condition``.

All three talk to the offline mock through the real ``openai`` client (the Agents SDK and
pydantic-ai take an ``AsyncOpenAI`` object; LangChain takes the ``httpx`` clients the
``openai`` client is built on). :class:`Recorder` sits in that HTTP path and records every
request and reply, plus every tool run, as one :class:`course_lib.tracing.Trace`: the same
trace pictures as lessons 01 and 03, so the frameworks can be compared on what they really
send. :func:`agents_sdk_tools`, :func:`pydantic_ai_tools` and :func:`langchain_tools` give
the course's own :class:`~course_lib.tool_registry.ToolRegistry` to each framework, with the
registry's schemas and its validated dispatch. Taught in lesson 06b.
"""
from __future__ import annotations

import functools
import inspect
import json
from typing import Any, Callable

import httpx2

from .llm_client import MOCK_BASE_URL, AsyncInProcessTransport, InProcessTransport
from .mock_llm import MockLLM
from .tracing import Trace

MODEL = "mock-llm"


# ============================================================================ the recorder
def _short(value: Any, width: int = 70) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 1] + "…"


def request_summary(path: str, body: dict) -> str:
    """One line for a request body the mock received (Chat Completions or Responses).

    Example:
        >>> request_summary("/v1/chat/completions", {"messages": [{"role": "user", "content": "hi"}],
        ...     "tools": [{"type": "function", "function": {"name": "get_weather"}}], "stream": True})
        'chat.completions · user · tools: get_weather · stream'
    """
    api = "responses" if path.endswith("/responses") else "chat.completions"
    if api == "responses":
        items = body.get("input")
        turns = "input: text" if isinstance(items, str) else "input: " + ", ".join(
            i.get("type", i.get("role", "message")) if isinstance(i, dict) else "?" for i in items or [])
        if body.get("instructions"):
            turns = "instructions, " + turns
        names = [t.get("name") for t in body.get("tools") or []]
    else:
        turns = ", ".join(m.get("role", "?") for m in body.get("messages") or [])
        names = [(t.get("function") or {}).get("name") for t in body.get("tools") or []]
    parts = [api, turns]
    if names:
        parts.append("tools: " + ", ".join(str(n) for n in names))
    for key in ("tool_choice", "parallel_tool_calls", "response_format"):
        if key in body:
            parts.append(f"{key}={_short(body[key], 30)}")
    if body.get("stream"):
        parts.append("stream")
    return " · ".join(parts)


def reply_summary(path: str, response: Any) -> str:
    """One line for the mock's reply: the calls it asked for, or the start of its text."""
    if not isinstance(response, dict):
        return "reply"
    if path.endswith("/responses"):
        calls = [f"{o['name']}({o.get('arguments', '')})" for o in response.get("output") or []
                 if o.get("type") == "function_call"]
        if calls:
            return "function_call: " + ", ".join(calls)
        text = "".join(p.get("text", "") for o in response.get("output") or [] if o.get("type") == "message"
                       for p in o.get("content") or [])
        return "text: " + _short(text, 60)
    if "error" in response:
        return "error: " + _short((response.get("error") or {}).get("message", ""), 60)
    message = ((response.get("choices") or [{}])[0]).get("message") or {}
    calls = [f"{c['function']['name']}({c['function'].get('arguments', '')})" for c in message.get("tool_calls") or []]
    if calls:
        return "tool_calls: " + ", ".join(calls)
    return "text: " + _short(message.get("content") or "", 60)


class Recorder:
    """Everything a framework sends to the mock and every tool it runs, in order, as one trace.

    Usage: give the framework :meth:`async_client` (or :meth:`http_clients` for LangChain)
    and tools wrapped by :meth:`tool`; afterwards :attr:`trace` holds
    ``framework -> LLM`` requests, ``LLM -> framework`` replies and ``Tools`` spans, and
    :attr:`requests` the request bodies exactly as the SDK wrote them.

    Args:
        framework: the lane name of the framework in pictures ("Agents SDK", ...).
        mock: the mock to talk to (default: a fresh :class:`~course_lib.mock_llm.MockLLM`).
    """

    def __init__(self, framework: str, mock: MockLLM | None = None) -> None:
        self.framework = framework
        self.mock = mock or MockLLM()
        self.trace = Trace(framework)
        self.requests: list[dict] = []

    # -- the HTTP path
    def _record(self) -> None:
        exchange = self.mock.log[-1]
        body = exchange.request if isinstance(exchange.request, dict) else {}
        self.requests.append(body)
        self.trace.add(self.framework, "LLM", request_summary(exchange.path, body), layer="llm", payload=body)
        self.trace.add("LLM", self.framework, reply_summary(exchange.path, exchange.response), kind="response",
                       layer="llm", payload=exchange.response)

    def _transports(self) -> tuple[httpx2.BaseTransport, httpx2.AsyncBaseTransport]:
        recorder = self

        class Sync(InProcessTransport):
            def handle_request(self, request: httpx2.Request) -> httpx2.Response:
                response = super().handle_request(request)
                recorder._record()
                return response

        class Async(AsyncInProcessTransport):
            async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
                response = await super().handle_async_request(request)
                recorder._record()
                return response

        return Sync(self.mock), Async(self.mock)

    def http_clients(self) -> tuple[httpx2.Client, httpx2.AsyncClient]:
        """The (sync, async) HTTP clients of the ``openai`` SDK, wired to the mock through this recorder."""
        sync, async_ = self._transports()
        return httpx2.Client(transport=sync), httpx2.AsyncClient(transport=async_)

    def async_client(self, **kwargs: Any):
        """An ``openai.AsyncOpenAI`` client that reaches the mock through this recorder (no network)."""
        import openai

        kwargs.setdefault("api_key", "mock-key-not-secret")
        kwargs.setdefault("base_url", MOCK_BASE_URL)
        kwargs.setdefault("max_retries", 0)
        return openai.AsyncOpenAI(http_client=self.http_clients()[1], **kwargs)

    # -- the tools
    def tool(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` with the same name, signature, type hints and docstring, recording each run as a span.

        Frameworks read all four to build the tool's schema, so the wrapped function gives the
        same schema as ``fn`` itself.
        """
        lane = "Tools"

        def label(args: tuple, kwargs: dict) -> str:
            bound = inspect.signature(fn).bind_partial(*args, **kwargs)
            return f"{fn.__name__}({_short(dict(bound.arguments), 50)})"

        if inspect.iscoroutinefunction(fn):
            @functools.wraps(fn)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                with self.trace.span(lane, label(args, kwargs), layer="tool", payload=kwargs):
                    return await fn(*args, **kwargs)
            return async_wrapper

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.trace.span(lane, label(args, kwargs), layer="tool", payload=kwargs):
                return fn(*args, **kwargs)
        return wrapper

    # -- reading it back
    def tools_sent(self, index: int = 0) -> list[dict]:
        """The ``tools`` of request ``index`` as the framework wrote them (name, strict, parameters)."""
        out = []
        for t in self.requests[index].get("tools") or []:
            fn = t.get("function") or t
            out.append({"name": fn.get("name"), "strict": fn.get("strict"), "parameters": fn.get("parameters")})
        return out


# ============================================================================ the course's registry in each framework
def _entries(registry: Any, toolsets: list[str] | None) -> list[dict]:
    return [d["function"] for d in registry.definitions(toolsets=toolsets)]


def agents_sdk_tools(registry: Any, toolsets: list[str] | None = None) -> list[Any]:
    """The registry's visible tools as OpenAI Agents SDK ``FunctionTool`` objects.

    Each keeps the registry's schema (``params_json_schema``) and runs through
    ``registry.arun`` (validation, timeouts, errors as messages the model can read); the tool
    is strict only if the registry entry is (``strict_json_schema``).
    """
    from agents import FunctionTool

    tools = []
    for fn in _entries(registry, toolsets):
        async def invoke(ctx: Any, arguments: str, _name: str = fn["name"]) -> str:
            call_id = getattr(ctx, "tool_call_id", None) or "call"
            result = await registry.arun({"id": call_id, "function": {"name": _name, "arguments": arguments}})
            return result.content
        tools.append(FunctionTool(name=fn["name"], description=fn.get("description", ""),
                                  params_json_schema=fn["parameters"], on_invoke_tool=invoke,
                                  strict_json_schema=bool(fn.get("strict"))))
    return tools


def pydantic_ai_tools(registry: Any, toolsets: list[str] | None = None) -> list[Any]:
    """The registry's visible tools as pydantic-ai ``Tool`` objects (``Tool.from_schema``), dispatched by the registry."""
    from pydantic_ai import Tool

    tools = []
    for fn in _entries(registry, toolsets):
        async def run(_name: str = fn["name"], **arguments: Any) -> str:
            return (await registry.acall(_name, arguments)).content
        tools.append(Tool.from_schema(run, name=fn["name"], description=fn.get("description"),
                                      json_schema=fn["parameters"]))
    return tools


def langchain_tools(registry: Any, toolsets: list[str] | None = None) -> list[Any]:
    """The registry's visible tools as LangChain ``StructuredTool`` objects (the JSON Schema as ``args_schema``)."""
    from langchain_core.tools import StructuredTool

    tools = []
    for fn in _entries(registry, toolsets):
        def run(_name: str = fn["name"], **arguments: Any) -> str:
            return registry.call(_name, arguments).content

        async def arun(_name: str = fn["name"], **arguments: Any) -> str:
            return (await registry.acall(_name, arguments)).content
        tools.append(StructuredTool.from_function(func=run, coroutine=arun, name=fn["name"],
                                                  description=fn.get("description", ""),
                                                  args_schema=fn["parameters"], infer_schema=False))
    return tools


# ============================================================================ one run in each framework
async def run_agents_sdk(recorder: Recorder, question: str, tools: list[Any], *, instructions: str,
                         api: str = "chat", stream: bool = False) -> str:
    """Run one question with the OpenAI Agents SDK against the mock; returns the final output.

    ``tools``: plain functions (wrapped with ``function_tool``) or ``FunctionTool`` objects.
    ``api``: ``"chat"`` (``OpenAIChatCompletionsModel``) or ``"responses"`` (``OpenAIResponsesModel``).
    """
    from agents import (Agent, OpenAIChatCompletionsModel, OpenAIResponsesModel, Runner, function_tool,
                        set_tracing_disabled)

    set_tracing_disabled(True)  # the SDK's own tracing uploads to OpenAI; the course records locally
    client = recorder.async_client()
    model = (OpenAIResponsesModel if api == "responses" else OpenAIChatCompletionsModel)(model=MODEL,
                                                                                          openai_client=client)
    agent = Agent(name="assistant", instructions=instructions, model=model,
                  tools=[t if not callable(t) or hasattr(t, "on_invoke_tool") else function_tool(t) for t in tools])
    if stream:
        result = Runner.run_streamed(agent, question)
        async for _ in result.stream_events():
            pass
        return str(result.final_output)
    return str((await Runner.run(agent, question)).final_output)


async def run_pydantic_ai(recorder: Recorder, question: str, tools: list[Any], *, instructions: str,
                          stream: bool = False) -> str:
    """Run one question with pydantic-ai against the mock; returns the output text."""
    from pydantic_ai import Agent
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    model = OpenAIChatModel(MODEL, provider=OpenAIProvider(openai_client=recorder.async_client()))
    agent = Agent(model, instructions=instructions, tools=tools)
    if stream:
        async with agent.run_stream(question) as result:
            return str(await result.get_output())
    return str((await agent.run(question)).output)


def langgraph_agent(recorder: Recorder, tools: list[Any]):
    """A LangGraph agent drawn by hand: ``model`` node -> (``tools_condition``) -> ``tools`` node -> ``model``.

    The same state machine as the course's :class:`~course_lib.agent.Agent` (thinking ->
    acting -> thinking ... -> done), as a compiled ``StateGraph`` over ``MessagesState``.
    """
    from langchain_openai import ChatOpenAI
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    sync, async_ = recorder.http_clients()
    llm = ChatOpenAI(model=MODEL, api_key="mock-key-not-secret", base_url=MOCK_BASE_URL, max_retries=0,
                     http_client=sync, http_async_client=async_).bind_tools(tools)

    async def model(state: MessagesState) -> dict:
        return {"messages": [await llm.ainvoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("model", model)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", tools_condition)
    graph.add_edge("tools", "model")
    return graph.compile()


async def run_langgraph(recorder: Recorder, question: str, tools: list[Any], *, instructions: str) -> str:
    """Run one question through :func:`langgraph_agent`; returns the last message's text.

    ``tools``: plain functions (wrapped with LangChain's ``@tool``) or LangChain tools.
    """
    from langchain_core.tools import BaseTool, tool as lc_tool

    tools = [t if isinstance(t, BaseTool) else lc_tool(t) for t in tools]
    agent = langgraph_agent(recorder, tools)
    state = await agent.ainvoke({"messages": [("system", instructions), ("user", question)]})
    return str(state["messages"][-1].content)
