"""SQL statements in a request: "Run SELECT * FROM orders LIMIT 5" -> ``read_query(query="SELECT * FROM orders LIMIT 5")``.

A model passes the statement a user typed to a tool's SQL argument as written, without the words
around it ("Run", "please"). This module finds statements (:func:`find`) and fills the argument of a
tool that takes SQL (:func:`calls`): a parameter named ``query``, ``sql``, ``statement`` whose tool or
description speaks of SQL, or named ``sql``.

Source: the MCP reference ``sqlite`` server's ``read_query``/``write_query`` tools, seed 000's finance
database agent.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from . import language as lang

_STATEMENT = re.compile(
    r"(?<![\w'\"])(?:SELECT\s+.+?\s+FROM\s+\S+|INSERT\s+INTO\s+\S+|UPDATE\s+\S+\s+SET\s+|DELETE\s+FROM\s+\S+|"
    r"CREATE\s+(?:TABLE|INDEX|VIEW)\s+\S+|DROP\s+(?:TABLE|INDEX|VIEW)\s+\S+|ALTER\s+TABLE\s+\S+|WITH\s+\w+\s+AS\s*\()"
    r"[^\n;]*;?", re.I | re.S)
_SQL_TOKENS = re.compile(r"[*=;<>]|\b(?:where|limit|values|join|group by|order by|having|distinct|count\(|"
                         r"primary key|not null|varchar|integer)\b", re.I)
_SLOT_WORDS = frozenset({"query", "sql", "statement", "stmt"})


@lru_cache(maxsize=1024)
def find(text: str) -> tuple[str, ...]:
    """The SQL statements ``text`` holds, as written (a trailing sentence stop dropped).

    Example:
        >>> find("Run SELECT * FROM orders LIMIT 5")
        ('SELECT * FROM orders LIMIT 5',)
    """
    if not re.search(r"\b(?:select|insert|update|delete|create|drop|alter|with)\b", text, re.I):
        return ()
    out = []
    for m in _STATEMENT.finditer(text):
        stmt = m.group(0).strip()
        stmt = re.sub(r"(?<=\w)[.?!]+$", "", stmt).rstrip("'\"”’`")
        if stmt.split()[0].isupper() or _SQL_TOKENS.search(stmt):  # SQL in capitals, or SQL's own tokens
            out.append(stmt)
    return tuple(out)


def sql_slot(name: str, description: str, parameters: dict) -> str | None:
    """The string argument of a tool that takes a SQL statement, else None."""
    tool_talks_sql = bool(re.search(r"\bsql|sqlite|postgres|mysql|database\b|\bselect\b", f"{name} {description}", re.I))
    for key, spec in (parameters.get("properties") or {}).items():
        if not isinstance(spec, dict) or spec.get("type", "string") != "string" or spec.get("enum"):
            continue
        words = set(lang.split_identifier(key))
        desc = str(spec.get("description", ""))
        if "sql" in words or words & _SLOT_WORDS and (tool_talks_sql or re.search(r"\bsql\b|\bselect\b", desc, re.I)):
            return key
    return None


def calls(tool: Any, text: str, filled: Any) -> list[tuple[dict, dict, list]] | None:
    """``[(arguments, evidence, missing)]`` with the statement in the tool's SQL argument, or None (nothing to do)."""
    found = find(text)
    slot = sql_slot(tool.name, tool.description, tool.parameters) if found else None
    if slot is None:
        return None
    from .arguments import Evidence

    args = {**filled.arguments, slot: found[0]}
    evidence = {**filled.evidence, slot: Evidence("sql statement", found[0])}
    return [(args, evidence, [m for m in filled.missing if m != slot])]
