"""Parameter descriptions that live in a tool's docstring, not in its schema.

Many tools reach a model with bare properties and the meaning of each argument in the tool's
description, because the framework copied the function's docstring there: the ``mcp`` SDK's
``@mcp.tool()`` (the MCP quickstart's ``get_alerts``: ``"Args:\\n state: Two-letter US state code"``
beside ``{"state": {"title": "State", "type": "string"}}``), LangChain's ``@tool`` without
``parse_docstring``, hand-written tools. A model reads those lines as the parameters' descriptions;
so does the mock: :func:`with_parameter_docs` copies each documented argument's text into its
property when the property has no ``description`` of its own.

The three usual docstring styles (Google ``Args:``, reST ``:param x:``, NumPy ``Parameters``) are read
by ``docstring_parser`` (a well-kept package, already installed with the ``anthropic`` SDK), imported
only when a description has one of their section markers (its import costs ~30 ms).
"""
from __future__ import annotations

import copy
import re
from typing import Any

#: A description that may document its parameters: a section header or a reST field.
_SECTION = re.compile(r"^\s*(?:Args|Arguments|Parameters|Params|Keyword Args)\s*:?\s*$|:param\s+\w", re.M)


def parameter_docs(description: str) -> dict[str, str]:
    """``{argument name: its one-line description}`` documented in ``description`` (a docstring).

    Args:
        description: a tool's description, e.g. ``"Get alerts.\\n\\n Args:\\n  state: US state code"``.

    Returns:
        ``{"state": "US state code"}``; empty when the text has no parameter section or cannot be parsed
        (a description is free text: a parse failure is no error).
    """
    if not description or not _SECTION.search(description):
        return {}
    import docstring_parser

    try:
        parsed = docstring_parser.parse(description)
    except docstring_parser.ParseError:
        return {}
    return {p.arg_name: " ".join(p.description.split()) for p in parsed.params
            if p.arg_name and p.description and p.arg_name.isidentifier()}


def with_parameter_docs(parameters: dict, description: str) -> dict:
    """``parameters`` (a JSON Schema object) with its docstring's argument texts as property descriptions.

    A property's own ``description`` always wins; the schema given is never modified (a copy is
    returned when something is added, the same object otherwise).

    Args:
        parameters: the tool's ``parameters`` schema (``{"type": "object", "properties": {...}}``).
        description: the tool's description, which may hold a Google, reST or NumPy parameter section.

    Returns:
        The schema the engine reads.
    """
    props = parameters.get("properties")
    docs = parameter_docs(description) if isinstance(props, dict) else {}
    missing = {name: docs[name] for name, spec in (props or {}).items()
               if name in docs and isinstance(spec, dict) and not spec.get("description")}
    if not missing:
        return parameters
    out: dict[str, Any] = copy.deepcopy(parameters)
    for name, text in missing.items():
        out["properties"][name]["description"] = text
    return out
