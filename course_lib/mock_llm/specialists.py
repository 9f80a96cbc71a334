"""Values that need knowledge of their own kind, filled after the general argument filler.

The general filler (:mod:`.arguments`) reads any schema from the request's words. Some values are
of a kind a model recognises whole and passes in its own form: a computation for a calculator or an
operation tool (:mod:`.arithmetic`), stock tickers (:mod:`.tickers`), a SQL statement (:mod:`.sql_text`),
a file or folder named inside a directory (:mod:`.paths`), a time zone (:mod:`.timezones`). Each
specialist answers for one tool and one request: the calls it asks for (their arguments, the evidence,
what is still missing), or None when its kind is not there. The first that answers wins.
"""
from __future__ import annotations

from typing import Any

from . import arithmetic, paths, sql_text, tickers, timezones

SPECIALISTS = (arithmetic.calls, tickers.calls, sql_text.calls, paths.calls, timezones.calls)


def calls(tool: Any, text: str, filled: Any) -> list[tuple[dict, dict, list]] | None:
    """The calls the first specialist that knows this request's kind makes with ``tool``, or None."""
    for specialist in SPECIALISTS:
        got = specialist(tool, text, filled)
        if got is not None:
            return got
    return None
