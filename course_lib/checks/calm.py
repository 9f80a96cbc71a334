"""Errors shown the way a good teacher would: one line naming your cell, the full traceback one click away.

Three pieces every exercise uses:

* :func:`learner_error` turns an exception raised inside a learner's code into one line ("your code
  raised KeyError: 'city' in ``answer_with_tools``, line 7 of cell In[3]") and the full traceback;
* :func:`quiet_sdk_logs` keeps the SDKs' own log records (the MCP server's "Tool 'x' raised an
  unexpected exception" with two chained tracebacks, uvicorn's, httpx's) out of a check cell: the
  check reports what went wrong in words, so these logs would only repeat it as a wall of text;
* :func:`try_it`, the context manager of every exercise's "Try it" cell: the untouched stub's
  ``NotImplementedError`` becomes one line saying what to do, any other error one line plus the
  collapsed traceback, and the cell does not stop *Run All*, so the check cell below still runs
  and gives its specific hint.

Seed idea: "a learner's wrong answer gets a specific, kind hint, never a traceback wall" (developers' guide).
"""
from __future__ import annotations

import contextlib
import html
import logging
import re
import traceback
from dataclasses import dataclass
from typing import Any, Iterator

from ..i18n import _

#: Loggers of the libraries checks drive (MCP and A2A SDKs, their HTTP stacks, asyncio's "never retrieved").
SDK_LOGGERS = ("mcp", "a2a", "httpx", "httpcore", "uvicorn", "uvicorn.error", "uvicorn.access", "starlette",
               "sse_starlette", "asyncio", "anyio")
# A cell's code as the kernel compiles it: ipykernel's /tmp/ipykernel_<pid>/<hash>.py, IPython's <ipython-input-...>
_CELL_FILE = re.compile(r"(ipykernel_\d+[/\\]\d+\.py$)|(^<ipython-input-)")


@dataclass(frozen=True)
class LearnerError:
    """An exception from a learner's code, told in one line and in full.

    Attributes:
        line: e.g. ``"KeyError: 'city' (in answer_with_tools, line 7 of cell In[3])"``.
        traceback: the whole traceback as text (cell files named ``Cell In[3]`` as IPython does).
        function: the innermost function of the learner's cells the error went through ("" when none).
        stub: True when it is the exercise's untouched ``raise NotImplementedError(...)``.
    """

    line: str
    traceback: str
    function: str = ""
    stub: bool = False

    def html(self, *, summary: str | None = None) -> str:
        """The one line, then the traceback in a collapsed ``<details>`` (one click to open)."""
        return (f"<div>{html.escape(self.line)}</div><details><summary style='cursor:pointer;color:#555'>"
                f"{html.escape(summary or _('full traceback'))}</summary><pre style='font-size:11px;margin:2px 0'>"
                f"{html.escape(self.traceback)}</pre></details>")


def _cell_name(filename: str) -> str | None:
    """``"In[3]"`` for a file that holds a notebook cell's code, else None."""
    try:
        from IPython import get_ipython

        ip = get_ipython()
        named = ip.compile.format_code_name(filename) if ip is not None else None
        if named:
            return named[1]
    except Exception:  # no IPython, or an IPython without the name map: fall back on the file name
        pass
    return _("a notebook cell") if _CELL_FILE.search(filename) else None


def learner_error(error: BaseException) -> LearnerError:
    """Describe ``error``, raised somewhere inside a learner's code, for a check or a "Try it" cell.

    The place named is the innermost frame that runs code typed in a notebook cell (the learner's
    own line, not the SDK frame that re-raised it); chained causes (``raise ... from``) are searched too,
    since an SDK often wraps the learner's exception (the MCP SDK's ``UnexpectedToolError``).

    Returns:
        A :class:`LearnerError`.
    """
    place, function = "", ""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        for frame in traceback.extract_tb(current.__traceback__):
            cell = _cell_name(frame.filename)
            if cell:
                function = "" if frame.name == "<module>" else frame.name
                place = (_("in {function}, line {line} of cell {cell}") if function
                         else _("line {line} of cell {cell}")).format(function=function, line=frame.lineno, cell=cell)
        current = current.__cause__ or current.__context__
    message = " ".join(str(error).split())
    if len(message) > 200:
        message = message[:199] + "…"
    line = f"{type(error).__name__}: {message}" if message else type(error).__name__
    if place:
        line += f" ({place})"
    from ..exercises import is_stub  # the stub's message in every edition

    stub = is_stub(error)
    return LearnerError(line, _ANSI.sub("", "\n".join(ipython_traceback(error))), function, stub)


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def ipython_traceback(error: BaseException) -> list[str]:
    """``error``'s traceback as IPython prints it (``Cell In[3], line 7, in f`` frames with their lines).

    The same lines an error output of a notebook carries, so ``course check`` reads a caught error
    the way it reads a raised one. Outside IPython: Python's own format.
    """
    try:
        from IPython import get_ipython

        ip = get_ipython()
        if ip is not None:
            return list(ip.InteractiveTB.structured_traceback(type(error), error, error.__traceback__))
    except Exception:  # an IPython without InteractiveTB: Python's format is still a full traceback
        pass
    return "".join(traceback.format_exception(type(error), error, error.__traceback__)).splitlines()


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def quiet_sdk_logs(names: tuple[str, ...] = SDK_LOGGERS) -> Iterator[list[logging.LogRecord]]:
    """Collect the SDKs' log records instead of printing them, for the duration of a check.

    Yields the list the records are collected into (a check may read them). Every logger's
    ``propagate``, handlers and level are put back afterwards, also when the check raises.
    """
    collector = _Collector()
    saved = []
    for name in names:
        logger = logging.getLogger(name)
        saved.append((logger, logger.propagate, list(logger.handlers)))
        logger.propagate = False
        logger.handlers = [collector]
    try:
        yield collector.records
    finally:
        for logger, propagate, handlers in saved:
            logger.propagate = propagate
            logger.handlers = handlers


def _show(text: str, html_text: str, caught: BaseException | None = None) -> None:
    from ..i18n import tidy_spacing

    text, html_text = tidy_spacing(text), tidy_spacing(html_text)
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        print(text)
        return
    if get_ipython() is None:
        print(text)
        return
    bundle = {"text/plain": text, "text/html": html_text}
    if caught is not None:
        bundle[TRY_IT_MIME] = {"ename": type(caught).__name__, "evalue": str(caught),
                               "traceback": ipython_traceback(caught)}
    display(bundle, raw=True)


_STUB_SEEN = False  # a "Try it" cell met the stub: a later cell's NameError is explained by it
#: The error a "Try it" cell caught, for tools (``course check`` reports it like a raised one).
TRY_IT_MIME = "application/vnd.course.try-it+json"


class try_it(contextlib.AbstractContextManager):  # noqa: N801 (used like a function: `with try_it():`)
    """The context manager of an exercise's "Try it" cell: errors become one calm line, *Run All* goes on.

    Use::

        with try_it():
            answer, messages = answer_with_tools(client, QUESTION)
            print(answer)

    * the untouched stub (``NotImplementedError("Your turn...")``): "⏳ ``answer_with_tools`` is not
      written yet: write your code where it says ``# YOUR CODE HERE``..." and nothing else;
    * a ``NameError`` after that (this cell needs what an unfinished cell makes): one line saying so;
    * any other exception: "⚠️ your code raised ..." naming the function, line and cell, with the full
      traceback collapsed under it.

    The exception is not raised again, so *Run All* reaches the check cell, whose hint names the fix.
    ``KeyboardInterrupt`` (the ■ button) is never caught.
    """

    def __init__(self) -> None:
        self.error: LearnerError | None = None

    def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> bool:
        global _STUB_SEEN
        if exc is None:
            _STUB_SEEN = False  # the cells above run to the end now
            return False
        if not isinstance(exc, Exception):
            return False
        self.error = info = learner_error(exc)
        if info.stub:
            _STUB_SEEN = True
            what = f"`{info.function}`" if info.function else _("your code")
            text = _("⏳ {what} is not written yet: write your code where it says `# YOUR CODE HERE` (and remove "
                     "the `raise`), then run its cell and this one again. The check below says what it expects."
                     ).format(what=what)
            _show(text, f"<div>{_inline(text)}</div>", exc)
        elif isinstance(exc, NameError) and _STUB_SEEN:
            text = _("⏳ skipped: {error}. This cell needs what a cell above makes, and that cell has not run to "
                     "the end yet (your code is not written there yet).").format(error=exc)
            _show(text, f"<div>{_inline(text)}</div>", exc)
        else:
            text = _("⚠️ your code raised {line}").format(line=info.line)
            _show(text + "\n" + _("(the check below says what to change)"),
                  f"<div>{_('⚠️ your code raised')}</div>{info.html()}<div>{_('The check below says what to change.')}</div>",
                  exc)
        return True


def _inline(text: str) -> str:
    from ..text_table import inline_markdown_html

    return inline_markdown_html(text)


__all__ = ["LearnerError", "SDK_LOGGERS", "TRY_IT_MIME", "ipython_traceback", "learner_error", "quiet_sdk_logs",
           "try_it"]
