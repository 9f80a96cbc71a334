"""Structured outputs: ``response_format`` (Chat Completions) and ``text.format`` (Responses).

A client asks for an answer that is JSON, either any JSON object (``json_object``) or JSON
that validates against a schema (``json_schema``, usually a pydantic model turned into a
schema by ``client.chat.completions.parse(response_format=Model)``,
``client.responses.parse(text_format=Model)``, the OpenAI Agents SDK's ``output_type`` or
LangChain's ``with_structured_output``). The mock answers such a request as a model would,
within what it can read:

* the values come from the conversation: tool calls and their results first (a call's
  arguments and its result's fields form one record, :func:`tool_records`: a field named as the
  schema's property, ``{"temp": 28}`` for ``temp``; a list of objects takes one item per
  record), then what the user wrote, read by the same
  readers that fill tool arguments (:func:`~course_lib.mock_llm.arguments.fill_schema`), in the newest
  user messages up to the engine's reading cap (:data:`FORMAT_READ_MESSAGES`, :data:`~.reading.READ_LIMIT`);
* the content is JSON that validates against the schema, or, when a required value is
  nowhere in the conversation, a **refusal** (``message.refusal``, a ``refusal`` content part
  on Responses) that says which value it could not read, in the request's language: never
  invalid JSON, never an invented value;
* a strict schema is checked as strict tools are (:mod:`course_lib.strict_mode`), with a
  400 naming the first problem. ``default`` is tolerated there: the ``openai`` SDK keeps a
  pydantic field's non-null default in the strict schema it sends, and the API accepts it.

``json_object`` asks for the word "json" in the conversation, as the API does (400
otherwise); its object is a JSON example found in the prompt, filled, or else
``{"answer": <the mock's text answer>}``.

Sans-IO; the wire modules call :func:`read_format` while checking a request and
:func:`answer` when the engine answers in text. Spec: platform.openai.com/docs/guides/structured-outputs.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from ..strict_mode import strict_violations
from .arguments import fill_schema
from .errors import MockAPIError
from .language import is_chinese
from .reading import READ_LIMIT, read_limited

NAME_PATTERN = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
#: Strict-mode problems structured outputs tolerate (see the module docstring).
_TOLERATED = ("'default' is not permitted",)


@dataclass(frozen=True)
class OutputFormat:
    """A checked structured-output format.

    Attributes:
        kind: ``"json_object"`` or ``"json_schema"``.
        name: the schema's name (``json_schema`` only), e.g. a pydantic model's class name.
        schema: the JSON Schema the answer validates against (``{}`` for ``json_object``).
        strict: whether the schema was sent with ``strict: true``.
    """

    kind: str
    name: str = ""
    schema: dict | None = None
    strict: bool = False


def _bad(message: str, param: str, code: str | None = "invalid_value") -> MockAPIError:
    return MockAPIError(message, status=400, param=param, code=code)


def read_format(value: Any, *, where: str = "response_format", flat: bool = False) -> OutputFormat | None:
    """Check a ``response_format`` (Chat) or ``text.format`` (Responses, ``flat=True``).

    Args:
        value: the field as sent (``None`` or ``{"type": "text"}`` mean plain text).
        where: the parameter's name in error messages.
        flat: Responses' shape (``name``/``schema``/``strict`` beside ``type``) instead of
            Chat's (inside ``json_schema``).

    Returns:
        An :class:`OutputFormat`, or None for plain text.

    Raises:
        MockAPIError: 400 for an unknown type, a missing or invalid ``name``, a schema that is
            not valid JSON Schema, has an unresolvable ``$ref``, is not an object at the root,
            or breaks strict mode (``strict: true``).
    """
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _bad(f"Invalid type for '{where}': expected an object, but got {type(value).__name__} instead.", where,
                   "invalid_type")
    kind = value.get("type")
    if kind == "text":
        return None
    if kind == "json_object":
        return OutputFormat("json_object", schema={})
    if kind != "json_schema":
        raise _bad(f"Invalid value: '{kind}'. Supported values are: 'text', 'json_object' and 'json_schema'.",
                   f"{where}.type")
    spec = value if flat else value.get("json_schema")
    inner = where if flat else f"{where}.json_schema"
    if not isinstance(spec, dict):
        raise _bad(f"Missing required parameter: '{inner}'.", inner, "missing_required_parameter")
    name = spec.get("name")
    if name is None:
        raise _bad(f"Missing required parameter: '{inner}.name'.", f"{inner}.name", "missing_required_parameter")
    if not isinstance(name, str) or not NAME_PATTERN.match(name):
        raise _bad(f"Invalid '{inner}.name': string does not match pattern. Expected a string that matches the "
                   "pattern '^[a-zA-Z0-9_-]{1,64}$'.", f"{inner}.name")
    schema = spec.get("schema", {})
    strict = spec.get("strict") is True
    _check_schema(name, schema, strict, f"{inner}.schema")
    return OutputFormat("json_schema", name, schema, strict)


def _check_schema(name: str, schema: Any, strict: bool, where: str) -> None:
    from .limits import check_schema_size
    from .wire import unresolved_ref

    if not isinstance(schema, dict):
        raise _bad(f"Invalid schema for response_format '{name}': the schema must be a JSON Schema object.", where,
                   "invalid_type")
    check_schema_size([schema], where)
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as e:
        path = "/".join(str(p) for p in e.path) or "(root)"
        raise _bad(f"Invalid schema for response_format '{name}': {e.message} (at {path}).", where) from None
    ref = unresolved_ref(schema)
    if ref is not None:
        raise _bad(f"Invalid schema for response_format '{name}': reference '{ref}' can't be resolved.", where)
    if strict or "type" in schema:
        if schema.get("type") != "object":
            raise _bad(f"Invalid schema for response_format '{name}': schema must be a JSON Schema of 'type: "
                       f"\"object\"', got 'type: \"{schema.get('type')}\"'.", where)
    if strict:
        problems = [p for p in strict_violations(schema) if not any(t in p for t in _TOLERATED)]
        if problems:
            raise _bad(f"Invalid schema for response_format '{name}': {problems[0]}", where)


def require_json_word(fmt: OutputFormat | None, texts: list[str], where: str = "messages") -> None:
    """``json_object`` needs the word "json" in the conversation (the API's rule, so the model is told).

    Raises:
        MockAPIError: 400 naming ``where`` when no text says "json".
    """
    if fmt is None or fmt.kind != "json_object" or any("json" in t.lower() for t in texts):
        return
    raise _bad(f"'{where}' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
               where)


# ---------------------------------------------------------------------- answering
@dataclass(frozen=True)
class StructuredAnswer:
    """The answer to a structured-output request: ``content`` (JSON text) or a ``refusal``."""

    content: str | None
    refusal: str | None
    values: dict | None = None


def _text(message: dict) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return " ".join(p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return content if isinstance(content, str) else ""


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def tool_records(messages: list[dict]) -> list[dict]:
    """One record per answered tool call, in call order: the call's arguments, then its result's fields.

    ``get_weather({"city": "Paris"})`` answered ``{"temp": 21}`` is the record ``{"city": "Paris",
    "temp": 21}``: a tool call and its result describe one thing together. A result that is not a
    JSON object adds nothing (the arguments alone stay a record); a JSON array of objects gives a
    record per object.
    """
    args: dict[str, dict] = {}
    for m in messages:
        for call in (m.get("tool_calls") or []) if m.get("role") == "assistant" else []:
            try:
                parsed = json.loads((call.get("function") or {}).get("arguments") or "{}")
            except (ValueError, TypeError):
                parsed = {}
            args[str(call.get("id"))] = parsed if isinstance(parsed, dict) else {}
    records = []
    for m in messages:
        if m.get("role") != "tool":
            continue
        base = args.get(str(m.get("tool_call_id")), {})
        try:
            data = json.loads(_text(m))
        except ValueError:
            data = None
        rows = [data] if isinstance(data, dict) else [d for d in data if isinstance(d, dict)] \
            if isinstance(data, list) else []
        records.extend({**base, **row} for row in rows) if rows else records.append(dict(base))
    return [r for r in records if r]


def _resolve(spec: Any, root: dict) -> Any:
    ref = spec.get("$ref") if isinstance(spec, dict) else None
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return (root.get("$defs") or {}).get(ref[len("#/$defs/"):], spec)
    return spec


def _project(props: dict, required: list[str], record: dict, root: dict) -> dict | None:
    """The properties ``props`` read from ``record`` by name, or None when a required one is not there."""
    by_key = {_key(str(k)): v for k, v in record.items()}
    out: dict[str, Any] = {}
    for name, spec in props.items():
        value = by_key.get(_key(name), _MISSING)
        if value is not _MISSING and _fits(spec, value, root):
            out[name] = value
        elif name in required and _nullable(spec, root):
            out[name] = None
    return out if all(k in out for k in required) else None


_MISSING = object()

#: The newest user messages a format's values are read from, each up to the engine's
#: :data:`~.reading.READ_LIMIT` characters (the rest accepted, not read): the readers cost more
#: than linear time in the text they read, so a 100 kB message read whole took over a minute.
FORMAT_READ_MESSAGES = 8
#: JSON examples in the prompt a ``json_object`` answer tries to fill (newest message first).
JSON_EXAMPLES_TRIED = 4


def _readable(messages: list[dict]) -> list[dict]:
    """The user messages :func:`answer` reads: the newest :data:`FORMAT_READ_MESSAGES`, each cut by
    :func:`~.reading.read_limited` (the same cap as the engine's reading of a request)."""
    users = [m for m in messages if m.get("role") == "user"][-FORMAT_READ_MESSAGES:]
    return [{"role": "user", "content": read_limited(_text(m))} for m in users]


def _tool_result_values(schema: dict, messages: list[dict]) -> dict[str, Any]:
    """Values of the schema's properties found in the tool records (:func:`tool_records`).

    A property named as a record's field takes the newest record's value; an array of objects
    (``reports: list[WeatherReport]``) takes one item per record that has every required field.
    """
    props = schema.get("properties") or {}
    records = tool_records(messages)
    found: dict[str, Any] = {}
    for record in reversed(records):
        by_key = {_key(str(k)): v for k, v in record.items()}
        for name, spec in props.items():
            value = by_key.get(_key(name), _MISSING)
            if name not in found and value is not _MISSING and _fits(spec, value, schema):
                found[name] = value
    for name, spec in props.items():
        items = _resolve((_resolve(spec, schema) or {}).get("items"), schema) if isinstance(spec, dict) else None
        if name in found or not isinstance(items, dict) or not items.get("properties"):
            continue
        rows = [_project(items["properties"], list(items.get("required") or []), r, schema) for r in records]
        rows = [r for r in rows if r]
        if rows and _fits(spec, rows, schema):
            found[name] = rows
    return found


def _fits(spec: Any, value: Any, root: dict) -> bool:
    try:
        return Draft202012Validator({**spec, "$defs": root.get("$defs", {})} if isinstance(spec, dict) else spec
                                    ).is_valid(value)
    except Exception:  # an odd sub-schema: do not take a value we cannot check
        return False


def _nullable(spec: Any, root: dict) -> bool:
    if not isinstance(spec, dict):
        return False
    if "$ref" in spec and isinstance(spec["$ref"], str) and spec["$ref"].startswith("#/$defs/"):
        spec = (root.get("$defs") or {}).get(spec["$ref"][len("#/$defs/"):], spec)
    t = spec.get("type")
    if t == "null" or (isinstance(t, list) and "null" in t):
        return True
    return any(isinstance(b, dict) and b.get("type") == "null" for b in spec.get("anyOf") or [])


def _refusal(fmt: OutputFormat, missing: list[str], messages: list[dict], problem: str | None = None) -> str:
    """The refusal text, in the language of the newest user message (Chinese request -> Chinese refusal)."""
    name = fmt.name or "JSON"
    if is_chinese(_last_user_text(messages)):
        what = (f"对话里没有明确给出 {'、'.join(repr(m) for m in missing)}（必填值）" if missing else problem)
        return (f"无法根据这段对话填写 '{name}' 格式：{what}。课程的离线模拟模型只从用户写的内容和工具结果中读取值，"
                "从不编造；真实模型可能做得更好（设置 OPENAI_BASE_URL，见第 00 课）。")
    what = (f"it does not clearly say the {', '.join(repr(m) for m in missing)} "
            f"({'a required value' if len(missing) == 1 else 'required values'})" if missing else problem)
    return (f"I could not fill the '{name}' format from this conversation: {what}. The course's offline "
            "mock reads values only from what the user wrote and from tool results, and never invents one; a real "
            "model may do better (set OPENAI_BASE_URL, see lesson 00).")


def _last_user_text(messages: list[dict]) -> str:
    return next((_text(m) for m in reversed(messages) if m.get("role") == "user"), "")


def answer(fmt: OutputFormat, messages: list[dict], text_answer: str | None) -> StructuredAnswer:
    """The structured answer for ``fmt`` from the conversation ``messages``.

    Args:
        fmt: the checked format.
        messages: the Chat Completions conversation (Responses input is mapped onto it).
        text_answer: what the mock would have answered in plain text (for ``json_object``).

    Returns:
        A :class:`StructuredAnswer`: JSON ``content`` that validates against ``fmt.schema``,
        or a ``refusal`` naming the values the conversation does not give, worded in the language of
        the newest user message (English, or Chinese when it holds Chinese).
    """
    if fmt.kind == "json_object":
        return _json_object(messages, text_answer)
    schema = fmt.schema or {}
    props = schema.get("properties") or {}
    if not props:  # {"type": "object"} with nothing in it: an empty object is the whole answer
        return StructuredAnswer("{}", None, {})
    from_results = _tool_result_values(schema, messages)
    read, _ = fill_schema(schema, _readable(messages))
    read = _without_shared_words(read)
    required = list(schema.get("required") or [])
    values: dict[str, Any] = {}
    for name in props:
        if name in from_results:
            values[name] = from_results[name]
        elif name in read and (read[name] is not None or _nullable(props[name], schema)):
            values[name] = read[name]
        elif name in required and _nullable(props[name], schema):
            values[name] = None
    missing = [k for k in required if k not in values]
    if missing:
        return StructuredAnswer(None, _refusal(fmt, missing, messages))
    error = next(iter(Draft202012Validator(schema).iter_errors(values)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the answer"
        problem = (f"读到的 {where} 不符合 schema（{error.message}）" if is_chinese(_last_user_text(messages))
                   else f"what it read for {where} does not fit the schema ({error.message})")
        return StructuredAnswer(None, _refusal(fmt, [], messages, problem))
    return StructuredAnswer(json.dumps(values, ensure_ascii=False), None, values)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _without_shared_words(read: dict[str, Any]) -> dict[str, Any]:
    """The values read from the user's words, less those whose words another property also took.

    One phrase of the request says one thing: when the text read for one property is part of a
    different text read for another ("Bob" as the ``name`` and "Bob are going" among the
    ``participants``), the reading is confused and neither is kept. The property is then
    missing (a refusal, or null where allowed) rather than filled with a wrong value.
    """
    texts = {name: [t.lower() for t in _strings(v) if t.strip()] for name, v in read.items()}
    confused: set[str] = set()
    for a, mine in texts.items():
        for b, theirs in texts.items():
            if a == b:
                continue
            if any(x != y and re.search(rf"(?<!\w){re.escape(x)}(?!\w)", y) for x in mine for y in theirs):
                confused |= {a, b}
    return {k: v for k, v in read.items() if k not in confused}


_JSON_EXAMPLE = re.compile(r"\{[^{}]*\}")


def _json_object(messages: list[dict], text_answer: str | None) -> StructuredAnswer:
    """``json_object``: a JSON example in the prompt (its keys, filled), else ``{"answer": text}``.

    At most :data:`JSON_EXAMPLES_TRIED` examples are tried, each in the first :data:`~.reading.READ_LIMIT`
    characters of its message, so a prompt full of braces costs no more than a short one.
    """
    tried = 0
    for m in reversed(messages):
        if m.get("role") not in ("system", "developer", "user"):
            continue
        for match in _JSON_EXAMPLE.finditer(_text(m)[:READ_LIMIT]):
            if tried == JSON_EXAMPLES_TRIED:
                break
            tried += 1
            try:
                example = json.loads(match.group(0))
            except ValueError:
                continue
            if isinstance(example, dict) and example:
                schema = {"type": "object", "properties": {k: _type_of(v) for k, v in example.items()},
                          "required": list(example)}
                filled = answer(OutputFormat("json_schema", "JSON", schema), messages, text_answer)
                if filled.content is not None:
                    return filled
    value = {"answer": text_answer or ""}
    return StructuredAnswer(json.dumps(value, ensure_ascii=False), None, value)


def _type_of(value: Any) -> dict:
    if isinstance(value, bool):
        return {"type": "boolean"}
    if isinstance(value, int):
        return {"type": "integer"}
    if isinstance(value, float):
        return {"type": "number"}
    if isinstance(value, list):
        return {"type": "array"}
    if isinstance(value, dict):
        return {"type": "object"}
    return {"type": "string"}
