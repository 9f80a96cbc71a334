"""The five steps of function calling, as small functions a program really needs.

1. send the tools with the messages; 2. the model answers with structured ``tool_calls``;
3. the program parses ``arguments`` (a JSON *string*) and runs the function;
4. it appends one ``role: "tool"`` message per call, carrying the ``tool_call_id``;
5. the model writes the final answer from the results (seed 000 §2.1, seed 001 §19.1).

Parsing is defensive because OpenAI-compatible servers differ (vllm-project/vllm#19419: a
server crashed on the ``""`` of a tool without parameters): ``""`` or ``null``
arguments mean "no arguments"; JSON that is not an object, or not JSON at all, becomes a
tool message with an error the model can act on, never an uncaught exception.

The same loop on the Responses API (:func:`responses_tool_loop`): results go back as
``function_call_output`` items after **every** output item the model produced (reasoning
items included: :func:`responses_follow_up`, :func:`missing_reasoning`), or, with
``previous_response_id``, alone. Taught in lesson 01.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Iterable

Functions = dict[str, Callable[..., Any]]


def default_model() -> str:
    """The model name to send: :func:`course_lib.llm_client.default_model` (``COURSE_MODEL``, else the backend's).

    Imported on first call: the LLM client module imports the openai SDK and the mock LLM, which a
    tool registry served over MCP (``course mcp serve``) never needs.
    """
    from .llm_client import default_model as from_environment

    return from_environment()


class ToolArgumentsError(ValueError):
    """``arguments`` could not be turned into keyword arguments (the message says why)."""


def as_dict(message: Any) -> dict:
    """An SDK message object (or a dict) as the plain dict you append to ``messages``."""
    if isinstance(message, dict):
        return message
    return message.model_dump(exclude_none=True)


def parse_arguments(raw: Any) -> dict:
    """Decode a tool call's ``arguments`` into a dict.

    Args:
        raw: the ``function.arguments`` value: normally a JSON string such as ``'{"city": "Paris"}'``.

    Returns:
        The arguments as a dict (``{}`` for ``""`` or ``None``: a tool without parameters).

    Raises:
        ToolArgumentsError: invalid JSON (with the position), or JSON that is not an object.

    Example:
        >>> parse_arguments('{"city": "Paris"}')
        {'city': 'Paris'}
        >>> parse_arguments("")
        {}
        >>> parse_arguments('{"city": "Paris"}}')
        Traceback (most recent call last):
        ...
        course_lib.function_calling.ToolArgumentsError: invalid JSON: Extra data at char 17
    """
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}
    if isinstance(raw, dict):  # some servers send an object instead of a string
        return raw
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as e:
        where = f"char {e.pos}" if e.msg.endswith(" at") else f"at char {e.pos}"
        raise ToolArgumentsError(f"invalid JSON: {e.msg} {where}") from None
    if not isinstance(value, dict):
        raise ToolArgumentsError(f"arguments must be a JSON object, got {type(value).__name__}: {raw[:80]}")
    return value


def tool_result_content(result: Any) -> str:
    """A function's return value as ``tool`` message content (JSON unless it is already text)."""
    if isinstance(result, str):
        return result
    return json.dumps(result, ensure_ascii=False, default=str)


def _error(call_id: str, name: str, message: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id,
            "content": json.dumps({"error": message, "tool": name}, ensure_ascii=False)}


def run_tool_call(call: Any, functions: Functions) -> dict:
    """Execute one tool call and return its ``role: "tool"`` message (errors included).

    Args:
        call: one item of ``message.tool_calls`` (SDK object or dict).
        functions: ``{tool name: Python function}``.

    Returns:
        ``{"role": "tool", "tool_call_id": ..., "content": ...}``; on failure the content is
        ``{"error": ..., "tool": ...}`` so the model can correct itself.
    """
    call = as_dict(call)
    call_id, fn = call["id"], call["function"]
    name = fn.get("name", "")
    if name not in functions:
        return _error(call_id, name, f"unknown tool {name!r}; available: {', '.join(functions)}")
    try:
        args = parse_arguments(fn.get("arguments"))
    except ToolArgumentsError as e:
        return _error(call_id, name, str(e))
    try:
        result = functions[name](**args)
    except TypeError as e:  # wrong or missing keyword arguments
        return _error(call_id, name, f"bad arguments: {e}")
    except Exception as e:  # the tool itself failed: report, don't crash the loop
        return _error(call_id, name, f"{type(e).__name__}: {e}")
    return {"role": "tool", "tool_call_id": call_id, "content": tool_result_content(result)}


def run_tool_calls(message: Any, functions: Functions) -> list[dict]:
    """One ``tool`` message per call of an assistant message, in the same order."""
    return [run_tool_call(c, functions) for c in (as_dict(message).get("tool_calls") or [])]


def tool_loop(client: Any, messages: list[dict], tools: list[dict], functions: Functions, *,
              model: str | None = None, max_steps: int = 5, **options: Any) -> str:
    """Run the model and the tools until the model answers in text (or ``max_steps`` runs out).

    ``messages`` is extended in place with every assistant and tool message, so you can
    inspect or draw the whole exchange afterwards.

    Returns:
        The final answer text.

    Raises:
        RuntimeError: the model still wanted tools after ``max_steps`` requests.
    """
    for _ in range(max_steps):
        response = client.chat.completions.create(model=model or default_model(), messages=messages,
                                                  tools=tools, **options)
        message = response.choices[0].message
        messages.append(as_dict(message))
        if not message.tool_calls:
            return message.content or ""
        messages.extend(run_tool_calls(message, functions))
    raise RuntimeError(f"no final answer after {max_steps} model calls (the model kept calling tools)")


def assemble_stream(chunks: Iterable[Any]) -> dict:
    """Rebuild the assistant message from streamed ``chat.completion.chunk`` deltas.

    Tool-call deltas are grouped by their ``index``: the first carries ``id`` and the
    function ``name``, later ones carry fragments of ``arguments`` to concatenate.

    Returns:
        ``{"role": "assistant", "content": str | None, "tool_calls": [...]}`` (no
        ``tool_calls`` key when there were none), plus ``"finish_reason"``.
    """
    content: list[str] = []
    calls: dict[int, dict] = {}
    finish = None
    for chunk in chunks:
        if not chunk.choices:
            continue
        choice = chunk.choices[0]
        delta = choice.delta
        if delta.content:
            content.append(delta.content)
        for d in delta.tool_calls or []:
            slot = calls.setdefault(d.index, {"id": None, "type": "function", "function": {"name": "", "arguments": ""}})
            if d.id:
                slot["id"] = d.id
            if d.function and d.function.name:
                slot["function"]["name"] = d.function.name
            if d.function and d.function.arguments:
                slot["function"]["arguments"] += d.function.arguments
        finish = choice.finish_reason or finish
    message: dict[str, Any] = {"role": "assistant", "content": "".join(content) or None}
    if calls:
        message["tool_calls"] = [calls[i] for i in sorted(calls)]
    message["finish_reason"] = finish
    return message


# =========================================================================== the Responses API
def _item(obj: Any) -> dict:
    """An SDK output item (or a dict) as the plain dict you send back as an input item."""
    if isinstance(obj, dict):
        return obj
    return obj.model_dump(exclude_none=True)


def run_function_call(item: Any, functions: Functions) -> dict:
    """Execute one Responses ``function_call`` item; return its ``function_call_output`` input item.

    The same defensive rules as :func:`run_tool_call` (unknown tool, bad JSON, a failing
    function become an ``{"error": ...}`` output the model can read), in the Responses shape:
    ``{"type": "function_call_output", "call_id": ..., "output": "..."}``.
    """
    item = _item(item)
    message = run_tool_call({"id": item["call_id"], "function": {"name": item.get("name", ""),
                                                                  "arguments": item.get("arguments")}}, functions)
    return {"type": "function_call_output", "call_id": item["call_id"], "output": message["content"]}


def responses_follow_up(previous_input: Any, response: Any, functions: Functions) -> list[dict]:
    """The ``input`` of the next (stateless) Responses request: everything so far, then the results.

    * ``previous_input``: the ``input`` you sent (a string becomes a user message);
    * **every** item of ``response.output`` goes back, in order, not only the
      ``function_call`` items: a reasoning model's ``function_call`` must travel with the
      ``reasoning`` item the model produced before it, or the API answers 400 "Item 'fc_…' of
      type 'function_call' was provided without its required 'reasoning' item" (OpenAI
      Reasoning guide, "Keeping reasoning items in context"; reported in
      continuedev/continue#10018 and cline/cline#12242);
    * then one ``function_call_output`` per call (:func:`run_function_call`).

    With ``store=False`` (zero data retention) ask for ``include=["reasoning.encrypted_content"]``
    so the reasoning items you pass back carry their encrypted content. With
    ``previous_response_id`` you send only the outputs instead (:func:`responses_tool_loop`).
    """
    items = [{"role": "user", "content": previous_input}] if isinstance(previous_input, str) else list(previous_input)
    output = [_item(o) for o in response.output]
    items += output
    items += [run_function_call(o, functions) for o in output if o.get("type") == "function_call"]
    return items


def missing_reasoning(items: list[Any], previous_output: list[Any]) -> list[str]:
    """The API's 400 messages for ``function_call`` items sent without their ``reasoning`` item.

    ``previous_output`` is the model's output the items came from: a ``function_call`` that
    followed a ``reasoning`` item there needs that item (same ``id``) somewhere in ``items``.

    Returns:
        One message per orphaned call (empty list: the request is fine).

    Example:
        >>> out = [{"type": "reasoning", "id": "rs_1", "summary": []},
        ...        {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "f", "arguments": "{}"}]
        >>> missing_reasoning([out[1]], out)
        ["Item 'fc_1' of type 'function_call' was provided without its required 'reasoning' item: 'rs_1'."]
        >>> missing_reasoning(out, out)
        []
    """
    sent = {_item(i).get("id") for i in items}
    problems, reasoning = [], None
    for o in map(_item, previous_output):
        if o.get("type") == "reasoning":
            reasoning = o.get("id")
        elif o.get("type") == "function_call":
            if reasoning and o.get("id") in sent and reasoning not in sent:
                problems.append(f"Item '{o.get('id')}' of type 'function_call' was provided without its required "
                                f"'reasoning' item: '{reasoning}'.")
    return problems


def responses_tool_loop(client: Any, input: Any, tools: list[dict], functions: Functions, *,
                        model: str | None = None, instructions: str | None = None, stateful: bool = False,
                        max_steps: int = 5, **options: Any) -> tuple[str, list[Any]]:
    """Lesson 01's loop on the Responses API, stateless or with ``previous_response_id``.

    * stateless (default): every request carries the whole conversation
      (:func:`responses_follow_up`), like Chat Completions;
    * ``stateful=True``: the server keeps the conversation; each follow-up sends only the
      ``function_call_output`` items plus ``previous_response_id`` (OpenAI docs,
      "Conversation state"). ``instructions`` are sent on **every** request: they are not
      carried over from a previous response (API reference, ``instructions``).

    Returns:
        ``(answer text, the responses in order)``.

    Raises:
        RuntimeError: the model still wanted tools after ``max_steps`` requests.
    """
    responses: list[Any] = []
    kwargs = dict(options, model=model or default_model(), tools=tools)
    if instructions is not None:
        kwargs["instructions"] = instructions
    response = client.responses.create(input=input, **kwargs)
    for _ in range(max_steps):
        responses.append(response)
        calls = [o for o in response.output if o.type == "function_call"]
        if not calls:
            return response.output_text, responses
        if stateful:
            outputs = [run_function_call(c, functions) for c in calls]
            response = client.responses.create(input=outputs, previous_response_id=response.id, **kwargs)
        else:
            input = responses_follow_up(input, response, functions)
            response = client.responses.create(input=input, **kwargs)
    raise RuntimeError(f"no final answer after {max_steps} model calls (the model kept calling tools)")
