"""Tool definitions and their JSON Schemas: write them, generate them, check them, convert them.

A tool is ``name`` (unique; the model calls it by this name) + ``description`` (the model
decides *when* to call it from this text) + ``parameters`` (a JSON Schema of the arguments),
seed 000 §2.2. This module holds what a program needs around that triple:

* **generation from code**: :func:`function_schema` reads a Python signature and docstring
  with :mod:`inspect` and type hints (``str``, ``int`` vs ``float``, ``bool``, ``Literal`` /
  ``Enum`` -> ``enum``, ``Optional``, lists, dicts, dataclasses, ``Annotated``, defaults);
  :func:`pydantic_function_schema` / :func:`pydantic_tool` do the same the professional way;
* **validation**: :func:`check_schema` (the schema against its metaschema),
  :func:`validate_arguments` (arguments against the schema, with a ``FormatChecker``) and
  :func:`validation_error_content` (errors as a tool message the model can act on; values are
  not echoed);
* **provider shapes**: the same tool as a Chat Completions tool, a Responses API function
  tool and an MCP tool (``inputSchema``), one converter each (:func:`to_chat_tool`,
  :func:`to_responses_tool`, :func:`to_mcp_tool`), lossless: ``$defs``/``$ref`` are kept, and a
  tool that is not strict stays non-strict on the Responses API (which makes an omitted ``strict``
  strict); Anthropic and Gemini shapes live in :mod:`course_lib.provider_shapes`;
* **REST vs function calling** (seed 000 §2.3): :func:`openapi_to_tool` turns an OpenAPI
  operation (path/query/header parameters and a JSON body) into a tool, and
  :func:`openapi_request` turns the model's call back into the HTTP request.

Deliberate shortcuts: the hand-written generator covers the types tools really use and
refuses the rest with a clear :class:`TypeError` (use pydantic for anything richer);
docstrings are read in Google style (``Args:``) or reST (``:param x:``); OpenAPI support
covers 3.0/3.1 operations with ``$ref`` into ``components`` (no external files, no
``allOf`` merging). Strict mode lives in :mod:`course_lib.strict_mode`. Taught in lesson 02.
"""
from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import enum
import inspect
import json
import re
import types
import typing
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Mapping
from urllib.parse import quote

# jsonschema (with its format checkers: arrow, isoduration, webcolors... ~0.13 s of CPU) is imported by the
# functions that validate, not here: a first cell that only builds schemas does not pay for it.

#: What OpenAI (and the mock) accept as a tool name.
NAME_PATTERN = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
#: The JSON Schema dialect tools use (OpenAI, MCP 2025-11-25+ and the mock all read 2020-12).
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
_EMPTY_PARAMETERS: dict = {"type": "object", "properties": {}}

ToolShape = Literal["chat", "responses", "mcp"]


# =========================================================================== anatomy
def make_tool(name: str, description: str, parameters: dict | None = None, *, strict: bool | None = None) -> dict:
    """A Chat Completions tool definition from its three parts.

    Args:
        name: unique tool name matching ``^[a-zA-Z0-9_-]{1,64}$``.
        description: when and why the model should use the tool (the most important field).
        parameters: the JSON Schema of the arguments (default: no arguments).
        strict: set ``"strict"`` on the function (omitted when None).

    Returns:
        ``{"type": "function", "function": {"name", "description", "parameters"[, "strict"]}}``.

    Raises:
        ValueError: the name does not match :data:`NAME_PATTERN`.

    Example:
        >>> make_tool("get_time", "Get the current local time in a city.")["function"]["parameters"]
        {'type': 'object', 'properties': {}}

    Taught in lesson 02.
    """
    if not NAME_PATTERN.match(name):
        raise ValueError(f"tool name {name!r} must match {NAME_PATTERN.pattern} (letters, digits, _ and -)")
    fn: dict[str, Any] = {"name": name, "description": description,
                          "parameters": copy.deepcopy(parameters) if parameters is not None else dict(_EMPTY_PARAMETERS)}
    if strict is not None:
        fn["strict"] = strict
    return {"type": "function", "function": fn}


# =========================================================================== from Python code
@dataclass
class DocInfo:
    """What a docstring says: the description (text before the sections) and per-argument text."""

    description: str = ""
    params: dict[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"DocInfo({self.description[:40]!r}, params={list(self.params)})"


_SECTION = re.compile(r"^\s*(Args|Arguments|Parameters|Params|Returns|Return|Raises|Yields|Example|Examples|"
                      r"Note|Notes|Attributes|See Also|Warning|Warnings)\s*:?\s*$")
_ARG_LINE = re.compile(r"^\s*\*{0,2}(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
_REST_PARAM = re.compile(r":param\s+(?:[\w\[\], |.]+\s+)?(\w+)\s*:\s*(.*)")


def parse_docstring(doc: str | None) -> DocInfo:
    """Split a docstring into the tool description and the argument descriptions.

    Reads Google style (``Args:`` then ``name: text`` lines, continuation lines indented
    deeper) and reST (``:param name: text``). Paragraphs of the description are kept;
    lines inside a paragraph are joined.

    Args:
        doc: the docstring (``inspect.getdoc(fn)``) or None.

    Returns:
        A :class:`DocInfo`.

    Example:
        >>> parse_docstring('''Search the wiki.
        ...
        ... Args:
        ...     query: what to look for.
        ...     limit: how many pages
        ...         to return.
        ... ''').params
        {'query': 'what to look for.', 'limit': 'how many pages to return.'}

    Taught in lesson 02.
    """
    if not doc:
        return DocInfo()
    lines = inspect.cleandoc(doc).splitlines()
    desc: list[str] = []
    params: dict[str, str] = {}
    section: str | None = None
    current: str | None = None
    indent = 0
    for line in lines:
        rest = _REST_PARAM.match(line.strip())
        if rest:
            current, section = rest.group(1), "rest"
            params[current] = rest.group(2).strip()
            continue
        head = _SECTION.match(line)
        if head:
            section = head.group(1).lower()
            current = None
            continue
        if section is None:
            desc.append(line)
        elif section in ("args", "arguments", "parameters", "params"):
            m = _ARG_LINE.match(line)
            this_indent = len(line) - len(line.lstrip())
            if m and (current is None or this_indent <= indent):
                current, indent = m.group(1), this_indent
                params[current] = m.group(2).strip()
            elif current and line.strip():
                params[current] = (params[current] + " " + line.strip()).strip()
        elif section == "rest" and current and line.strip() and not line.lstrip().startswith(":"):
            params[current] = (params[current] + " " + line.strip()).strip()
    paragraphs = " ".join(desc).strip()
    # Keep paragraph breaks: re-split on the blank lines of the original description.
    text = "\n".join(desc).strip()
    description = "\n\n".join(" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip()) if paragraphs else ""
    return DocInfo(description, params)


_NONE_TYPE = type(None)
_SIMPLE: dict[Any, dict] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
    _NONE_TYPE: {"type": "null"},
    dt.date: {"type": "string", "format": "date"},
    dt.datetime: {"type": "string", "format": "date-time"},
    dt.time: {"type": "string", "format": "time"},
    uuid.UUID: {"type": "string", "format": "uuid"},
}


def _json_type_of(value: Any) -> str | None:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    return None


def _enum_schema(values: list[Any]) -> dict:
    kinds = sorted({_json_type_of(v) for v in values}, key=str)
    schema: dict[str, Any] = {}
    if len(kinds) == 1 and kinds[0] is not None:
        schema["type"] = kinds[0]
    elif kinds and None not in kinds:
        schema["type"] = kinds
    schema["enum"] = list(values)
    return schema


def _nullable(schema: dict) -> dict:
    """``schema`` widened to accept ``null`` (``type: [t, "null"]``, or ``anyOf`` when untyped)."""
    t = schema.get("type")
    if isinstance(t, str):
        out = dict(schema, type=[t, "null"])
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return out
    if isinstance(t, list):
        return schema if "null" in t else dict(schema, type=[*t, "null"])
    if not schema:  # "any" already accepts null
        return schema
    return {"anyOf": [schema, {"type": "null"}]}


#: ``annotated_types`` constraint class -> (its attribute, the JSON Schema keyword).
_CONSTRAINTS = {"Ge": ("ge", "minimum"), "Le": ("le", "maximum"), "Gt": ("gt", "exclusiveMinimum"),
                "Lt": ("lt", "exclusiveMaximum"), "MultipleOf": ("multiple_of", "multipleOf")}


def _apply_metadata(schema: dict, extra: Any) -> None:
    """Fold one ``Annotated`` metadata item into ``schema``.

    A string is the description; ``annotated_types`` constraints (``Ge(1)``, ``Le(20)``,
    ``MinLen(2)``, ``Interval(ge=1, le=20)``...) and a pydantic ``Field(description=..., ge=...)``
    become the matching keywords.
    """
    if isinstance(extra, str):
        schema["description"] = extra
        return
    kind = type(extra).__name__
    if kind in _CONSTRAINTS:
        attr, keyword = _CONSTRAINTS[kind]
        schema[keyword] = getattr(extra, attr)
    elif kind in ("MinLen", "MaxLen", "Len"):
        lo, hi = getattr(extra, "min_length", None), getattr(extra, "max_length", None)
        array = schema.get("type") == "array"
        if lo is not None and (kind != "Len" or lo):
            schema["minItems" if array else "minLength"] = lo
        if hi is not None:
            schema["maxItems" if array else "maxLength"] = hi
    elif kind == "Interval":
        for attr, keyword in (v for v in _CONSTRAINTS.values() if v[0] != "multiple_of"):
            if getattr(extra, attr, None) is not None:
                schema[keyword] = getattr(extra, attr)
    elif kind == "FieldInfo":  # pydantic.Field(...): its description, examples and constraints
        if extra.description:
            schema["description"] = extra.description
        if extra.examples:
            schema["examples"] = list(extra.examples)
        for item in extra.metadata:
            _apply_metadata(schema, item)
    elif hasattr(extra, "pattern") and kind.endswith("Pattern"):
        schema["pattern"] = extra.pattern


def _is_typeddict(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__annotations__") and hasattr(tp, "__total__")


def type_schema(annotation: Any) -> dict:
    """The JSON Schema of a Python type hint, by hand (no pydantic).

    Supported: ``str``, ``int``, ``float``, ``bool``, ``None``, ``date``/``datetime``/``time``/
    ``UUID`` (string + ``format``), ``Literal[...]`` and ``Enum`` subclasses (``enum``),
    ``Optional[X]`` / ``X | None`` (nullable), other unions (``anyOf``), ``list[X]``,
    ``tuple[X, ...]``, ``set[X]`` (``uniqueItems``), ``dict[str, X]``, dataclasses and
    ``TypedDict`` (nested objects), ``Annotated[X, "description", Ge(1), Field(le=20)...]``, and
    ``Any`` / no annotation (``{}``: any JSON value).

    Args:
        annotation: a type hint (already evaluated; see :func:`typing.get_type_hints`).

    Returns:
        A JSON Schema dict.

    Raises:
        TypeError: for a type with no JSON form (a class, a callable...), naming it.

    Example:
        >>> type_schema(list[int])
        {'type': 'array', 'items': {'type': 'integer'}}
        >>> type_schema(typing.Optional[Literal["eng", "hr"]])
        {'type': ['string', 'null'], 'enum': ['eng', 'hr', None]}

    Taught in lesson 02.
    """
    if annotation is inspect.Parameter.empty or annotation is Any:
        return {}
    if annotation in _SIMPLE:
        return dict(_SIMPLE[annotation])
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        schema = type_schema(args[0])
        for extra in args[1:]:
            _apply_metadata(schema, extra)
        return schema
    if origin is Literal:
        return _enum_schema(list(args))
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return _enum_schema([m.value for m in annotation])
    if origin in (typing.Union, types.UnionType):
        members = [a for a in args if a is not _NONE_TYPE]
        inner = type_schema(members[0]) if len(members) == 1 else {"anyOf": [type_schema(a) for a in members]}
        return _nullable(inner) if len(members) < len(args) else inner
    if origin in (list, set, frozenset, tuple) or annotation in (list, set, frozenset, tuple):
        schema: dict[str, Any] = {"type": "array"}
        if origin is tuple and args and (len(args) != 2 or args[1] is not Ellipsis):
            schema["prefixItems"] = [type_schema(a) for a in args]
            schema["minItems"] = schema["maxItems"] = len(args)
            return schema
        if args:
            schema["items"] = type_schema(args[0])
        if origin in (set, frozenset) or annotation in (set, frozenset):
            schema["uniqueItems"] = True
        return schema
    if origin in (dict, Mapping) or annotation is dict:
        schema = {"type": "object"}
        if len(args) == 2:
            if args[0] is not str:
                raise TypeError(f"{annotation!r}: JSON object keys are strings; use dict[str, ...]")
            schema["additionalProperties"] = type_schema(args[1])
        return schema
    if dataclasses.is_dataclass(annotation) and isinstance(annotation, type):
        return _object_schema(annotation, [(f.name, f.default if f.default is not dataclasses.MISSING else
                                            (f.default_factory() if f.default_factory is not dataclasses.MISSING
                                             else inspect.Parameter.empty)) for f in dataclasses.fields(annotation)])
    if _is_typeddict(annotation):
        required = getattr(annotation, "__required_keys__", set(annotation.__annotations__))
        return _object_schema(annotation, [(k, inspect.Parameter.empty if k in required else None)
                                           for k in typing.get_type_hints(annotation)], omit_none_defaults=True)
    raise TypeError(f"no JSON Schema for type {annotation!r}: use str, int, float, bool, Literal, Enum, "
                    "list, dict, a dataclass or TypedDict, or describe it with pydantic")


def _object_schema(cls: type, fields_: list[tuple[str, Any]], *, omit_none_defaults: bool = False) -> dict:
    hints = typing.get_type_hints(cls, include_extras=True)
    doc = parse_docstring(inspect.getdoc(cls) if cls.__doc__ else None)
    props: dict[str, Any] = {}
    required: list[str] = []
    for name, default in fields_:
        prop = type_schema(hints.get(name, Any))
        if name in doc.params and "description" not in prop:
            prop["description"] = doc.params[name]
        if default is inspect.Parameter.empty:
            required.append(name)
        elif not (omit_none_defaults and default is None):
            _set_default(prop, default)
        props[name] = prop
    schema: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema


def _set_default(prop: dict, default: Any) -> None:
    if isinstance(default, enum.Enum):
        default = default.value
    try:
        prop["default"] = json.loads(json.dumps(default))  # tuples become lists, as on the wire
    except (TypeError, ValueError):
        return  # a default with no JSON form stays a Python-side default only


def function_schema(fn: Callable[..., Any], *, name: str | None = None, description: str | None = None,
                    strict: bool | None = None, additional_properties: bool = False) -> dict:
    """A Chat Completions tool for ``fn``, generated from its signature and docstring by hand.

    Parameters become properties (type from the hint via :func:`type_schema`, description
    from the docstring's ``Args:``); parameters without a default are ``required``; JSON-able
    defaults become ``default``. ``*args``/``**kwargs`` are skipped. The object gets
    ``additionalProperties: false`` so a misspelled argument is an error, not silently
    dropped (modelcontextprotocol/python-sdk#3067).

    Args:
        fn: a function or bound method (``self`` is not a parameter).
        name: tool name (default ``fn.__name__``).
        description: tool description (default: the docstring text before its sections).
        strict: passed to :func:`make_tool` (the schema itself is not made strict here:
            see :func:`course_lib.strict_mode.to_strict`).
        additional_properties: allow unknown keys (default False).

    Returns:
        ``{"type": "function", "function": {"name", "description", "parameters"}}``.

    Raises:
        TypeError: a parameter's type has no JSON form (the message names the parameter).

    Example:
        >>> def get_weather(city: str, unit: Literal["celsius", "fahrenheit"] = "celsius") -> dict:
        ...     '''Get the current weather for a city.
        ...
        ...     Args:
        ...         city: City name, e.g. Shanghai.
        ...     '''
        >>> function_schema(get_weather)["function"]["parameters"]["properties"]["unit"]
        {'type': 'string', 'enum': ['celsius', 'fahrenheit'], 'default': 'celsius'}

    Taught in lesson 02.
    """
    doc = parse_docstring(inspect.getdoc(fn))
    sig = inspect.signature(fn)
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception:  # unresolvable forward references: fall back to the raw annotations
        hints = {}
    props: dict[str, Any] = {}
    required: list[str] = []
    for pname, param in sig.parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        annotation = hints.get(pname, param.annotation)
        try:
            prop = type_schema(annotation)
        except TypeError as e:
            raise TypeError(f"{fn.__name__}({pname}): {e}") from None
        if pname in doc.params and "description" not in prop:
            prop = {**prop, "description": doc.params[pname]}
        if param.default is param.empty:
            required.append(pname)
        else:
            _set_default(prop, param.default)
        props[pname] = prop
    parameters: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        parameters["required"] = required
    parameters["additionalProperties"] = additional_properties
    return make_tool(name or fn.__name__, description if description is not None else doc.description,
                     parameters, strict=strict)


# --------------------------------------------------------------------------- the pydantic way
def _drop_titles(schema: Any) -> Any:
    """Remove pydantic's auto-generated ``title`` keys (noise for a model), keep real ones."""
    if isinstance(schema, dict):
        out = {}
        for k, v in schema.items():
            if k == "title" and isinstance(v, str):
                continue
            if k in ("properties", "$defs") and isinstance(v, dict):
                out[k] = {name: _drop_titles(sub) for name, sub in v.items()}
            else:
                out[k] = _drop_titles(v)
        return out
    if isinstance(schema, list):
        return [_drop_titles(x) for x in schema]
    return schema


def pydantic_function_schema(fn: Callable[..., Any], *, name: str | None = None, description: str | None = None,
                             titles: bool = False) -> dict:
    """A Chat Completions tool for ``fn`` with the schema pydantic generates for its arguments.

    pydantic (``TypeAdapter(fn).json_schema()``) understands far more types than
    :func:`function_schema` (models, constrained types via ``Annotated[int, Field(ge=1)]``,
    unions...) and is what MCP's SDK uses for ``inputSchema``. Nested models land in
    ``$defs`` and are referenced with ``$ref``; ``Optional`` becomes ``anyOf [..., null]``.

    Args:
        fn: the function.
        name / description: as in :func:`function_schema`.
        titles: keep pydantic's auto-generated ``title`` keys (default: dropped).

    Returns:
        A Chat Completions tool dict.

    Taught in lesson 02.
    """
    from pydantic import TypeAdapter

    schema = TypeAdapter(fn).json_schema()
    schema = schema if titles else _drop_titles(schema)
    doc = parse_docstring(inspect.getdoc(fn))
    for pname, text in doc.params.items():
        prop = schema.get("properties", {}).get(pname)
        if isinstance(prop, dict) and "description" not in prop:
            prop["description"] = text
    return make_tool(name or fn.__name__, description if description is not None else doc.description, schema)


def pydantic_tool(model: type, *, name: str | None = None, description: str | None = None,
                  titles: bool = False) -> dict:
    """A Chat Completions tool whose arguments are the fields of a pydantic model.

    The professional way: declare the arguments once as a model with ``Field`` constraints
    and descriptions; ``model.model_json_schema()`` gives the schema and
    ``model.model_validate(arguments)`` parses a call into a typed object.

    Args:
        model: a ``pydantic.BaseModel`` subclass.
        name: tool name (default: the class name in snake_case).
        description: default: the class docstring.
        titles: keep pydantic's ``title`` keys (default: dropped).

    Returns:
        A Chat Completions tool dict; ``$defs`` of nested models are kept at the root.

    Taught in lesson 02.
    """
    schema = model.model_json_schema()
    schema = schema if titles else _drop_titles(schema)
    doc = schema.pop("description", "") or ""
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", model.__name__).lower()
    return make_tool(name or snake, description if description is not None else doc, schema)


def side_by_side(left: Any, right: Any, *, titles: tuple[str, str] = ("by hand (inspect)", "pydantic"),
                 width: int = 52, sort_keys: bool = True) -> str:
    """Two JSON documents printed in two columns, lines that differ marked with ``|``.

    Args:
        left, right: JSON-able values (two schemas to compare).
        titles: the column headings.
        width: characters per column (longer lines are cut with ``…``).
        sort_keys: sort object keys in both, so that the same key lands on the same line.

    Returns:
        The text (print it).

    Taught in lesson 02.
    """
    def lines(value: Any) -> list[str]:
        return json.dumps(value, indent=1, ensure_ascii=False, sort_keys=sort_keys).splitlines()

    from .text_table import cut as cut_to, pad  # display columns: Chinese strings in a schema take two each

    def cut(text: str) -> str:
        return cut_to(text, width)

    import difflib

    a, b = lines(left), lines(right)
    out = [f"{pad(titles[0], width)}   {titles[1]}", f"{'-' * width}   {'-' * width}"]
    # Align equal lines (difflib), so one extra key does not shift everything below it.
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        left_part, right_part = a[i1:i2], b[j1:j2]
        for k in range(max(len(left_part), len(right_part))):
            la = left_part[k] if k < len(left_part) else ""
            lb = right_part[k] if k < len(right_part) else ""
            out.append(f"{pad(cut(la), width)} {' ' if tag == 'equal' else '|'} {cut(lb)}")
    return "\n".join(out)


# =========================================================================== validation
@dataclass
class ArgumentError:
    """One reason the arguments do not match the schema.

    Attributes:
        path: where, as a JSON-pointer-like string (``"limit"``, ``"filters/tags/0"``; ``""`` = root).
        message: what is wrong, phrased for the model (no argument values echoed).
        keyword: the JSON Schema keyword that failed (``required``, ``enum``, ``maximum``...).
    """

    path: str
    message: str
    keyword: str

    def as_dict(self) -> dict:
        return {"path": self.path, "message": self.message, "keyword": self.keyword}

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message

    def __repr__(self) -> str:
        return f"ArgumentError({str(self)!r})"


def check_schema(schema: Any) -> list[str]:
    """Check a ``parameters`` schema against the JSON Schema 2020-12 metaschema and the tool rules.

    Beyond the metaschema (``"type": "text"`` or ``"required": "query"`` are invalid), a
    tool's parameters must be an object schema, ``required`` may only name declared
    properties, and every ``$ref`` must resolve inside the schema.

    Args:
        schema: the ``parameters`` (or MCP ``inputSchema``) dict.

    Returns:
        The problems found, each naming where; ``[]`` when the schema is fine.

    Example:
        >>> check_schema({"type": "object", "properties": {"q": {"type": "text"}}})
        ["properties/q/type: 'text' is not valid under any of the given schemas"]

    Taught in lesson 02.
    """
    if not isinstance(schema, dict):
        return [f"parameters must be a JSON object (a dict), not {type(schema).__name__}"]
    from jsonschema import Draft202012Validator

    problems = []
    validator = Draft202012Validator(Draft202012Validator.META_SCHEMA)
    for err in sorted(validator.iter_errors(schema), key=lambda e: list(map(str, e.absolute_path))):
        where = "/".join(str(p) for p in err.absolute_path) or "(root)"
        problems.append(f"{where}: {err.message}")
    if problems:
        return problems
    if schema.get("type", "object") != "object":
        problems.append(f"(root): tool parameters must be {{\"type\": \"object\"}}, got {schema.get('type')!r}")
    props = schema.get("properties") or {}
    for name in schema.get("required") or []:
        if name not in props:
            problems.append(f"required: {name!r} is required but not declared in properties")
    for ref in _refs(schema):
        if not _resolves(schema, ref):
            problems.append(f"$ref {ref!r} does not resolve inside the schema (keep $defs with their $ref)")
    return problems


def _refs(schema: Any) -> list[str]:
    out: list[str] = []
    if isinstance(schema, dict):
        if isinstance(schema.get("$ref"), str):
            out.append(schema["$ref"])
        for v in schema.values():
            out.extend(_refs(v))
    elif isinstance(schema, list):
        for v in schema:
            out.extend(_refs(v))
    return out


def _resolves(schema: dict, ref: str) -> bool:
    if not ref.startswith("#"):
        return False  # external references are not resolvable offline: treat as a problem
    node: Any = schema
    for part in [p for p in ref[1:].split("/") if p]:
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


_FORMAT_CHECKER: Any = None  # one jsonschema FormatChecker for every validator, made on first use


def _message(err: Any) -> str:
    """A message for the model: names the rule, not the rejected value."""
    kw, v = err.validator, err.validator_value
    if kw == "required":
        missing = [m for m in v if isinstance(err.instance, dict) and m not in err.instance]
        return f"missing required argument {missing[0]!r}" if missing else "missing required argument"
    if kw == "additionalProperties":
        extra = sorted(k for k in (err.instance or {}) if k not in (err.schema.get("properties") or {}))
        allowed = ", ".join(err.schema.get("properties") or {}) or "none"
        return f"unexpected argument {extra[0]!r} (allowed: {allowed})" if extra else "unexpected argument"
    if kw == "enum":
        return f"must be one of {json.dumps(v, ensure_ascii=False)}"
    if kw == "const":
        return f"must be {json.dumps(v, ensure_ascii=False)}"
    if kw == "type":
        return f"must be of type {' or '.join(v) if isinstance(v, list) else v}"
    if kw in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        op = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}[kw]
        return f"must be {op} {v}"
    if kw in ("minLength", "maxLength"):
        return f"must have {'at least' if kw == 'minLength' else 'at most'} {v} characters"
    if kw in ("minItems", "maxItems"):
        return f"must have {'at least' if kw == 'minItems' else 'at most'} {v} items"
    if kw == "pattern":
        return f"must match the pattern {v}"
    if kw == "format":
        return f"must be a valid {v}"
    if kw == "multipleOf":
        return f"must be a multiple of {v}"
    if kw == "uniqueItems":
        return "items must be unique"
    if kw in ("anyOf", "oneOf"):
        return f"must match {'one' if kw == 'oneOf' else 'at least one'} of the allowed forms"
    return f"fails the {kw!r} rule"


def argument_validator(schema: dict) -> Any:
    """The validator :func:`validate_arguments` uses for ``schema`` (build it once, reuse it per call).

    A ``Draft202012Validator`` with the format checker; building one costs more than using it, so
    a registry keeps one per tool (``ToolRegistry`` caches it, invalidated when the tool changes).
    """
    global _FORMAT_CHECKER
    from jsonschema import Draft202012Validator, FormatChecker

    if _FORMAT_CHECKER is None:
        _FORMAT_CHECKER = FormatChecker()
    return Draft202012Validator(schema, format_checker=_FORMAT_CHECKER)


def validate_arguments(arguments: Any, schema: dict, *, validator: Any = None) -> list[ArgumentError]:
    """Every way ``arguments`` break ``schema`` (JSON Schema 2020-12, formats checked).

    ``format`` is checked (``date``, ``date-time``, ``email``, ``uri``, ``uuid``...), which
    JSON Schema leaves off by default; ``$ref`` into ``$defs`` resolves.

    Args:
        arguments: the decoded arguments (normally a dict).
        schema: the tool's ``parameters``.
        validator: ``argument_validator(schema)`` built earlier (optional; saves building one per call).

    Returns:
        :class:`ArgumentError` items sorted by path (``[]`` = valid).

    Example:
        >>> schema = {"type": "object", "properties": {"limit": {"type": "integer", "maximum": 20}},
        ...           "additionalProperties": False}
        >>> [str(e) for e in validate_arguments({"limit": 500, "lang": "en"}, schema)]
        ["unexpected argument 'lang' (allowed: limit)", 'limit: must be <= 20']

    Taught in lesson 02.
    """
    validator = validator if validator is not None else argument_validator(schema)
    errors = [ArgumentError("/".join(str(p) for p in e.absolute_path), _message(e), str(e.validator))
              for e in validator.iter_errors(arguments)]
    return sorted(errors, key=lambda e: (e.path, e.message))


def validation_error_content(tool: str, errors: list[ArgumentError], schema: dict | None = None) -> str:
    """The ``content`` of a tool message telling the model how its arguments were wrong.

    The model reads this and can call again with corrected arguments, so it lists every
    problem, where it is, and (when given) the valid properties and required ones.

    Args:
        tool: the tool name.
        errors: from :func:`validate_arguments`.
        schema: the tool's parameters, to remind the model of the allowed arguments.

    Returns:
        A JSON string ``{"error": ..., "tool": ..., "kind": "invalid_arguments", "details": [...],
        "hint": ...}``.

    Taught in lesson 02.
    """
    body: dict[str, Any] = {
        "error": "invalid arguments: " + "; ".join(str(e) for e in errors),
        "tool": tool,
        "kind": "invalid_arguments",
        "details": [e.as_dict() for e in errors],
    }
    if schema is not None:
        body["hint"] = ("fix the arguments and call the tool again; expected properties: "
                        + ", ".join(schema.get("properties") or {}) + "; required: "
                        + (", ".join(schema.get("required") or []) or "none"))
    return json.dumps(body, ensure_ascii=False)


def inline_refs(schema: dict) -> dict:
    """``schema`` with every local ``$ref`` replaced by its target and ``$defs`` removed.

    For providers or clients that do not follow ``$ref``. Recursive definitions cannot be
    inlined and raise.

    Raises:
        ValueError: a ``$ref`` does not resolve, or a definition refers to itself.

    Taught in lesson 02.
    """
    def resolve(node: Any, seen: tuple[str, ...]) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                if ref in seen:
                    raise ValueError(f"recursive $ref {ref!r} cannot be inlined")
                if not _resolves(schema, ref):
                    raise ValueError(f"$ref {ref!r} does not resolve")
                target: Any = schema
                for part in [p for p in ref[1:].split("/") if p]:
                    target = target[part.replace("~1", "/").replace("~0", "~")]
                merged = {**resolve(target, seen + (ref,)), **{k: v for k, v in node.items() if k != "$ref"}}
                return merged
            return {k: resolve(v, seen) for k, v in node.items() if k not in ("$defs", "definitions")}
        if isinstance(node, list):
            return [resolve(x, seen) for x in node]
        return node

    return resolve(copy.deepcopy(schema), ())


# =========================================================================== provider shapes
def tool_shape(tool: Any) -> ToolShape:
    """Which wire shape ``tool`` has.

    * ``"chat"``: ``{"type": "function", "function": {"name", "description", "parameters"}}``
    * ``"responses"``: ``{"type": "function", "name", "description", "parameters"}`` (flat)
    * ``"mcp"``: ``{"name", "description", "inputSchema", ...}``

    Raises:
        ValueError: none of the three.
    """
    if isinstance(tool, dict):
        if tool.get("type") == "function" and isinstance(tool.get("function"), dict):
            return "chat"
        if tool.get("type") == "function" and "name" in tool:
            return "responses"
        if "inputSchema" in tool and "name" in tool:
            return "mcp"
    raise ValueError("not a tool definition: expected the Chat Completions shape {'type': 'function', "
                     "'function': {...}}, the Responses shape {'type': 'function', 'name': ...} or an MCP "
                     "tool {'name': ..., 'inputSchema': ...}")


_MCP_STRICT = "openai/strict"  # where an OpenAI `strict` flag travels in an MCP tool's _meta


def _parts(tool: Any) -> tuple[str, str | None, dict, bool | None, dict]:
    """(name, description, parameters, strict, MCP extras) of a tool in any shape."""
    if hasattr(tool, "model_dump") and not isinstance(tool, dict):  # an SDK object (mcp.types.Tool...)
        tool = tool.model_dump(by_alias=True, exclude_none=True)
    shape = tool_shape(tool)
    if shape == "chat":
        fn = tool["function"]
        return fn["name"], fn.get("description"), fn.get("parameters", dict(_EMPTY_PARAMETERS)), fn.get("strict"), {}
    if shape == "responses":
        return tool["name"], tool.get("description"), tool.get("parameters") or dict(_EMPTY_PARAMETERS), \
            tool.get("strict"), {}
    extras = {k: v for k, v in tool.items() if k not in ("name", "description", "inputSchema")}
    meta = dict(extras.get("_meta") or {})
    strict = meta.pop(_MCP_STRICT, None)
    if meta:
        extras["_meta"] = meta
    else:
        extras.pop("_meta", None)
    return tool["name"], tool.get("description"), tool["inputSchema"], strict, extras


def to_chat_tool(tool: Any) -> dict:
    """The tool in the Chat Completions shape (from any of the three shapes).

    Lossless for name, description, parameters (``$defs``/``$ref`` untouched) and ``strict``;
    MCP-only fields (``title``, ``outputSchema``, ``annotations``, ``icons``) have no place in
    an OpenAI tool and are dropped (a registry keeps them on its entry).

    Example:
        >>> to_chat_tool({"name": "ping", "description": "Ping.", "inputSchema": {"type": "object"}})
        {'type': 'function', 'function': {'name': 'ping', 'description': 'Ping.', 'parameters': {'type': 'object'}}}

    Taught in lesson 02.
    """
    name, description, parameters, strict, _ = _parts(tool)
    fn: dict[str, Any] = {"name": name}
    if description is not None:
        fn["description"] = description
    fn["parameters"] = copy.deepcopy(parameters)
    if strict:  # `strict: false` is Chat Completions' default: saying it changes nothing
        fn["strict"] = strict
    return {"type": "function", "function": fn}


def to_responses_tool(tool: Any) -> dict:
    """The tool in the Responses API shape: flat, ``{"type": "function", "name", ...}``.

    The schema is copied as is, but the *meaning* of a missing ``strict`` differs between
    the two APIs (OpenAI function-calling guide, "Strict mode"): Chat Completions stays
    non-strict, while the Responses API "will normalize your schema into strict mode",
    making optional fields required. So a tool that is not strict gets an explicit
    ``"strict": false`` here, and means on Responses what it meant on Chat; a strict tool
    stays ``"strict": true``. :func:`to_chat_tool` drops the redundant ``false`` again, so
    round trips are exact. Taught in lessons 01 and 02.

    Example:
        >>> to_responses_tool({"type": "function", "function": {"name": "ping", "parameters": {"type": "object"}}})
        {'type': 'function', 'name': 'ping', 'parameters': {'type': 'object'}, 'strict': False}
    """
    chat = to_chat_tool(tool)["function"]
    return {"type": "function", **chat, "strict": bool(chat.get("strict"))}


def to_mcp_tool(tool: Any, **extras: Any) -> dict:
    """The tool as an MCP tool definition (what ``tools/list`` returns): ``inputSchema``.

    ``strict`` (an OpenAI request option) travels in ``_meta["openai/strict"]`` so that
    converting back gives the same tool. MCP-only fields already on an MCP tool are kept.

    Args:
        tool: a tool in any shape (or an ``mcp.types.Tool``).
        **extras: MCP fields to set, e.g. ``title="Search the wiki"``,
            ``annotations={"readOnlyHint": True}``, ``outputSchema={...}``.

    Returns:
        ``{"name", "description", "inputSchema", ...}`` (valid for ``mcp.types.Tool``).

    Taught in lesson 02.
    """
    name, description, parameters, strict, kept = _parts(tool)
    out: dict[str, Any] = {"name": name}
    if description is not None:
        out["description"] = description
    out["inputSchema"] = copy.deepcopy(parameters)
    out.update(copy.deepcopy(kept))
    out.update(copy.deepcopy(extras))
    if strict:  # only a strict tool needs to say so (non-strict is the default on Chat and in MCP)
        out["_meta"] = {**(out.get("_meta") or {}), _MCP_STRICT: strict}
    return out


def tool_name(tool: Any) -> str:
    """The name of a tool in any shape."""
    return _parts(tool)[0]


def tool_parameters(tool: Any) -> dict:
    """The arguments schema (``parameters`` / ``inputSchema``) of a tool in any shape."""
    return _parts(tool)[2]


# =========================================================================== OpenAPI
_HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


@dataclass
class OpenAPIOperation:
    """One operation of an OpenAPI document, and how tool arguments map back onto HTTP.

    Attributes:
        method, path: e.g. ``"get"``, ``"/weather/{city}"``.
        operation_id: the ``operationId`` (or one derived from method + path).
        locations: argument name -> ``"path"``, ``"query"``, ``"header"``, ``"cookie"`` or ``"body"``
            (``"body"`` = the whole JSON body; ``"body:<prop>"`` = one property of it).
        tool: the Chat Completions tool definition.
    """

    method: str
    path: str
    operation_id: str
    locations: dict[str, str]
    tool: dict

    def __repr__(self) -> str:
        return f"OpenAPIOperation({self.method.upper()} {self.path} -> {self.operation_id})"


def _tool_name_from(text: str) -> str:
    name = re.sub(r"[^a-zA-Z0-9_-]+", "_", text).strip("_")
    return name[:64] or "operation"


def openapi_operations(spec: dict) -> list[OpenAPIOperation]:
    """Every operation of an OpenAPI 3.0/3.1 document, each with its tool (see :func:`openapi_to_tool`)."""
    out = []
    for path, item in (spec.get("paths") or {}).items():
        for method in _HTTP_METHODS:
            if method in (item or {}):
                out.append(_operation(spec, path, method))
    return out


def openapi_to_tool(spec: dict, operation: str | tuple[str, str]) -> dict:
    """A Chat Completions tool for one operation of an OpenAPI document (seed 000 §2.3).

    The tool name is the ``operationId``; the description is ``summary`` + ``description``.
    Path, query, header and cookie parameters become properties (``required`` kept; path
    parameters are always required). A JSON request body's object properties are added
    beside them (or as one ``body`` property when names clash or it is not an object).
    ``$ref`` into ``#/components/schemas`` becomes ``#/$defs``, and the referenced schemas
    are copied into ``$defs``; OpenAPI 3.0 ``nullable: true`` becomes a ``null`` type.
    Security headers (``Authorization``) are not arguments: the program adds them, the model
    never sees them.

    Args:
        spec: the OpenAPI document as a dict.
        operation: an ``operationId``, or ``(method, path)``.

    Returns:
        A Chat Completions tool dict.

    Raises:
        KeyError: no such operation.

    Taught in lesson 02.
    """
    return find_operation(spec, operation).tool


def find_operation(spec: dict, operation: str | tuple[str, str]) -> OpenAPIOperation:
    """The :class:`OpenAPIOperation` for an ``operationId`` or ``(method, path)``.

    Raises:
        KeyError: no such operation (the message lists the ones there are).
    """
    ops = openapi_operations(spec)
    for op in ops:
        if op.operation_id == operation or (isinstance(operation, tuple)
                                            and (op.method, op.path) == (operation[0].lower(), operation[1])):
            return op
    raise KeyError(f"no operation {operation!r}; the document has: {', '.join(o.operation_id for o in ops)}")


def _fix_openapi_schema(schema: Any, defs: dict, spec: dict) -> Any:
    """OpenAPI schema -> JSON Schema 2020-12: refs to $defs, ``nullable``, ``example``."""
    if isinstance(schema, list):
        return [_fix_openapi_schema(x, defs, spec) for x in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for k, v in schema.items():
        if k == "$ref" and isinstance(v, str) and v.startswith("#/components/schemas/"):
            def_name = v.rsplit("/", 1)[1]
            out["$ref"] = f"#/$defs/{def_name}"
            if def_name not in defs:
                defs[def_name] = {}  # placeholder first: recursive schemas terminate
                target = spec.get("components", {}).get("schemas", {}).get(def_name)
                if target is None:
                    raise KeyError(f"$ref {v!r} not found in components/schemas")
                defs[def_name] = _fix_openapi_schema(target, defs, spec)
        elif k == "nullable":
            continue
        elif k == "example":
            out["examples"] = [v]
        elif k in ("properties", "patternProperties", "$defs") and isinstance(v, dict):
            out[k] = {n: _fix_openapi_schema(s, defs, spec) for n, s in v.items()}
        else:
            out[k] = _fix_openapi_schema(v, defs, spec)
    if schema.get("nullable") is True:
        out = _nullable(out)
    return out


def _resolve_component(spec: dict, obj: dict) -> dict:
    ref = obj.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/"):
        node: Any = spec
        for part in ref[2:].split("/"):
            node = node[part]
        return node
    return obj


_SECURITY_HEADERS = {"authorization", "cookie", "x-api-key", "api-key", "proxy-authorization"}


def _operation(spec: dict, path: str, method: str) -> OpenAPIOperation:
    item = spec["paths"][path]
    op = item[method]
    op_id = op.get("operationId") or _tool_name_from(f"{method}_{path}")
    defs: dict[str, Any] = {}
    props: dict[str, Any] = {}
    required: list[str] = []
    locations: dict[str, str] = {}
    params = [_resolve_component(spec, p) for p in [*(item.get("parameters") or []), *(op.get("parameters") or [])]]
    for p in params:
        if p.get("in") == "header" and p["name"].lower() in _SECURITY_HEADERS:
            continue
        prop = _fix_openapi_schema(p.get("schema") or {}, defs, spec)
        if p.get("description") and "description" not in prop:
            prop = {**prop, "description": p["description"]}
        arg = _tool_name_from(p["name"]) if not re.match(r"^[A-Za-z_][\w-]*$", p["name"]) else p["name"]
        props[arg] = prop
        locations[arg] = f"{p['in']}:{p['name']}"
        if p.get("required") or p.get("in") == "path":
            required.append(arg)
    body = _resolve_component(spec, op.get("requestBody") or {})
    content = (body.get("content") or {}).get("application/json")
    if content and "schema" in content:
        body_schema = _fix_openapi_schema(content["schema"], defs, spec)
        target = body_schema
        if "$ref" in target and set(target) == {"$ref"}:
            target = defs.get(target["$ref"].rsplit("/", 1)[1], {})
        body_props = target.get("properties") if target.get("type", "object") == "object" else None
        if body_props and not set(body_props) & set(props):
            for name, sub in body_props.items():
                props[name] = copy.deepcopy(sub)
                locations[name] = f"body:{name}"
            required.extend(r for r in target.get("required") or [] if r in body_props)
        else:
            props["body"] = body_schema
            locations["body"] = "body"
            if body.get("required"):
                required.append("body")
    parameters: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        parameters["required"] = list(dict.fromkeys(required))
    parameters["additionalProperties"] = False
    if defs:
        parameters["$defs"] = defs
    description = "\n\n".join(x for x in (op.get("summary"), op.get("description")) if x)
    tool = make_tool(_tool_name_from(op_id), description, parameters)
    return OpenAPIOperation(method, path, op_id, locations, tool)


def openapi_request(spec: dict, operation: str | tuple[str, str], arguments: dict, *,
                    base_url: str | None = None, headers: dict[str, str] | None = None) -> Any:
    """The HTTP request a tool call on an OpenAPI operation stands for (an ``httpx.Request``).

    This is the "framework executes" half of seed 000 §2.3: the model produced arguments by
    meaning; the program maps them back onto the path, query string, headers and JSON body,
    and adds what the model must never see (credentials, via ``headers``).

    Args:
        spec: the OpenAPI document.
        operation: ``operationId`` or ``(method, path)``.
        arguments: the decoded tool arguments.
        base_url: default: the first ``servers[].url``.
        headers: extra headers (e.g. ``{"Authorization": "Bearer ..."}``).

    Returns:
        An ``httpx.Request`` (send it with any ``httpx.Client``).

    Raises:
        KeyError: unknown operation; ValueError: a path parameter is missing.

    Taught in lesson 02.
    """
    import httpx

    op = find_operation(spec, operation)
    base = base_url or ((spec.get("servers") or [{}])[0].get("url") or "http://localhost")
    path = op.path
    query: dict[str, Any] = {}
    hdrs: dict[str, str] = dict(headers or {})
    cookies: dict[str, str] = {}
    body: Any = None
    for arg, value in arguments.items():
        where = op.locations.get(arg)
        if where is None:
            continue
        kind, _, real = where.partition(":")
        if kind == "path":
            path = path.replace("{" + real + "}", quote(str(value), safe=""))
        elif kind == "query":
            query[real] = json.dumps(value) if isinstance(value, (dict, list)) else value
        elif kind == "header":
            hdrs[real] = str(value)
        elif kind == "cookie":
            cookies[real] = str(value)
        elif kind == "body" and real:
            body = {**(body or {}), real: value}
        elif kind == "body":
            body = value
    if "{" in path:
        raise ValueError(f"missing path parameter(s) in {path}")
    if cookies:
        hdrs["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    return httpx.Request(op.method.upper(), base.rstrip("/") + path, params=query or None, headers=hdrs,
                         json=body)


__all__ = [
    "ArgumentError", "DocInfo", "NAME_PATTERN", "OpenAPIOperation", "check_schema", "find_operation",
    "function_schema", "inline_refs", "make_tool", "openapi_operations", "openapi_request", "openapi_to_tool",
    "parse_docstring", "pydantic_function_schema", "pydantic_tool", "side_by_side", "to_chat_tool", "to_mcp_tool",
    "to_responses_tool", "tool_name", "tool_parameters", "tool_shape", "type_schema", "validate_arguments",
    "validation_error_content",
]
