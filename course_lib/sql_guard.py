"""What a database exposed as a tool (or as an agent's skill) needs: read-only, bounded, quiet.

An agent that runs SQL for other agents runs SQL written by strangers. Five guards, each one
SQLite's own mechanism rather than a regex over the statement:

* **read-only**: the file is opened with ``mode=ro`` and ``PRAGMA query_only``; no write can
  happen, whatever the text says;
* **an authorizer** (``sqlite3.Connection.set_authorizer``) allows only ``SELECT`` on the tables it
  is given, common-table expressions, and a list of harmless functions. ``pragma_database_list``
  (which tells where the file lives), ``sqlite_master``, ``ATTACH``, ``load_extension`` and
  ``randomblob``/``zeroblob`` are refused before the statement runs;
* **SQLite's limits** (``setlimit``): a string or blob is at most :data:`MAX_VALUE_BYTES`, a
  statement at most :data:`MAX_SQL_BYTES`, no attached databases;
* **a statement timeout**: a progress handler stops the statement after ``max_seconds`` or when a
  ``cancel`` event is set (a recursive CTE that never ends stops too);
* **result caps**: at most ``max_rows`` rows and ``max_bytes`` bytes come back; the rest is cut and
  the result says so.

Errors (:class:`SQLRefused`, :class:`QueryCancelled`) carry a short message that never holds data
or file paths: SQLite's own message, cut to :data:`MAX_ERROR_CHARS` characters, with the database's
path removed.

Taught in lesson 11 (the finance agent's SQL skill) and usable from lesson 05 (tool security).
Sources: SQLite's C API documentation (``sqlite3_set_authorizer``, ``sqlite3_limit``,
``sqlite3_progress_handler``); Python's ``sqlite3`` module.
"""
from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

MAX_VALUE_BYTES = 100_000  # the longest string or blob a statement may build (SQLITE_LIMIT_LENGTH)
MAX_SQL_BYTES = 10_000  # the longest statement accepted (SQLITE_LIMIT_SQL_LENGTH)
MAX_ROWS = 500  # rows returned at most
MAX_RESULT_BYTES = 256_000  # bytes of values returned at most (text as UTF-8)
MAX_ERROR_CHARS = 200  # characters of an error message shown to a caller
MAX_SECONDS = 5.0  # a statement runs at most this long
PROGRESS_STEPS = 1000  # SQLite virtual-machine steps between two timeout checks

#: Functions a read-only report may call; everything else (``randomblob``, ``zeroblob``,
#: ``load_extension``, ``sqlite_version``, ...) is refused.
SAFE_FUNCTIONS = frozenset("""
    count sum total avg min max abs round coalesce ifnull nullif iif typeof length lower upper
    substr substring trim ltrim rtrim instr replace like glob printf format group_concat
    date time datetime julianday strftime cast
""".split())


class QueryCancelled(RuntimeError):
    """A query was stopped: its caller cancelled it, or it ran longer than allowed."""


class SQLRefused(sqlite3.DatabaseError):
    """SQLite refused or failed the statement (not allowed, invalid, too big); the message is safe to show.

    A ``sqlite3.DatabaseError``, so code that catches ``sqlite3.Error`` keeps working.
    """


@dataclass
class QueryResult:
    """Rows of one read-only query, capped.

    Attributes:
        rows: one dict per row, keyed by column name.
        truncated: ``""`` when every row came back, else why it was cut (``"500 rows"``, ``"256000 bytes"``).
    """

    rows: list[dict[str, Any]] = field(default_factory=list)
    truncated: str = ""


def _value_bytes(value: Any) -> int:
    if isinstance(value, str):
        return len(value.encode("utf-8", "replace"))
    if isinstance(value, (bytes, bytearray, memoryview)):
        return len(value)
    return 8


def safe_message(error: BaseException, *, hide: Iterable[str] = ()) -> str:
    """A one-line message for ``error`` that is safe to send to a caller.

    SQLite's message is kept (``no such column: revnue``, ``not authorized``), any of ``hide``
    (the database path and its folder) is replaced by ``<database>``, and the result is cut to
    :data:`MAX_ERROR_CHARS` characters.

    Example:
        >>> safe_message(sqlite3.OperationalError("unable to open /srv/db/finance.db"), hide=["/srv/db/finance.db"])
        'unable to open <database>'
    """
    text = " ".join(str(error).split())
    for secret in sorted((h for h in hide if h), key=len, reverse=True):
        text = text.replace(secret, "<database>")
    return text if len(text) <= MAX_ERROR_CHARS else text[: MAX_ERROR_CHARS - 1] + "…"


def _authorizer(tables: frozenset[str]):
    def decide(action: int, arg1: str | None, arg2: str | None, db: str | None, source: str | None) -> int:
        if action in (sqlite3.SQLITE_SELECT, sqlite3.SQLITE_RECURSIVE):
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_READ:
            # db is None for a common-table expression or subquery; a real table must be one of ours.
            return sqlite3.SQLITE_OK if db is None or (arg1 or "").lower() in tables else sqlite3.SQLITE_DENY
        if action == sqlite3.SQLITE_FUNCTION:
            return sqlite3.SQLITE_OK if (arg2 or "").lower() in SAFE_FUNCTIONS else sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_DENY

    return decide


def read_only_query(path: str | Path, sql: str, params: Sequence[Any] = (), *, tables: Iterable[str],
                    cancel: threading.Event | None = None, max_seconds: float = MAX_SECONDS,
                    max_rows: int = MAX_ROWS, max_bytes: int = MAX_RESULT_BYTES) -> QueryResult:
    """Run one statement on the SQLite file ``path`` under every guard of this module.

    Args:
        path: the database file (opened read-only; it must exist).
        sql: one SQL statement (SQLite refuses several at once), at most :data:`MAX_SQL_BYTES` bytes.
        params: values for the ``?`` placeholders.
        tables: the tables the statement may read (lower-case names).
        cancel: set this event (from any thread) to stop the statement.
        max_seconds: the statement timeout, in seconds.
        max_rows: rows returned at most.
        max_bytes: bytes of values returned at most.

    Returns:
        A :class:`QueryResult`; floats are rounded to 0.1 (money: ``301.2 + 315.7`` is
        ``616.9000000000001`` in binary floating point).

    Raises:
        QueryCancelled: ``cancel`` was set, or ``max_seconds`` passed.
        SQLRefused: the statement writes, reads something not allowed, is invalid or too big, or the
            file cannot be opened (the message names no path).
    """
    path = Path(path).resolve()
    hide = [str(path), str(path.parent), path.as_uri()]
    deadline = time.monotonic() + max_seconds
    stopped: list[str] = []

    def progress() -> int:  # a non-zero return makes SQLite abort the statement ("interrupted")
        if cancel is not None and cancel.is_set():
            stopped.append("cancelled")
        elif time.monotonic() > deadline:
            stopped.append(f"stopped after {max_seconds:g} s")
        return 1 if stopped else 0

    if len(sql.encode("utf-8", "replace")) > MAX_SQL_BYTES:
        raise SQLRefused(f"statement too long (at most {MAX_SQL_BYTES} bytes)")
    try:
        conn = sqlite3.connect(path.as_uri() + "?mode=ro", uri=True, check_same_thread=False)
    except sqlite3.Error as e:
        raise SQLRefused(safe_message(e, hide=hide)) from None
    result = QueryResult()
    with closing(conn):
        conn.row_factory = sqlite3.Row
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
        conn.setlimit(sqlite3.SQLITE_LIMIT_SQL_LENGTH, MAX_SQL_BYTES)
        conn.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
        try:
            conn.execute("PRAGMA query_only = ON")
            conn.set_authorizer(_authorizer(frozenset(t.lower() for t in tables)))
            conn.set_progress_handler(progress, PROGRESS_STEPS)
            cursor = conn.execute(sql, tuple(params))
            size = 0
            while True:
                batch = cursor.fetchmany(50)
                if not batch:
                    break
                for row in batch:
                    if len(result.rows) >= max_rows:
                        result.truncated = f"{max_rows} rows"
                        return result
                    record = {k: round(row[k], 1) if isinstance(row[k], float) else row[k] for k in row.keys()}
                    size += sum(_value_bytes(v) for v in record.values())
                    if size > max_bytes:
                        result.truncated = f"{max_bytes} bytes"
                        return result
                    result.rows.append(record)
        except sqlite3.Error as e:
            if stopped:
                raise QueryCancelled(f"query {stopped[0]}") from None
            raise SQLRefused(safe_message(e, hide=hide)) from None
        except (OverflowError, ValueError) as e:  # e.g. a parameter SQLite cannot bind
            raise SQLRefused(safe_message(e, hide=hide)) from None
    return result


__all__ = ["MAX_ERROR_CHARS", "MAX_RESULT_BYTES", "MAX_ROWS", "MAX_SECONDS", "MAX_SQL_BYTES", "MAX_VALUE_BYTES",
           "QueryCancelled", "QueryResult", "SAFE_FUNCTIONS", "SQLRefused", "read_only_query", "safe_message"]
