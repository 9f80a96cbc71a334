"""Fault tolerance for tool calls: the five layers of seed 000 Q3, plus a circuit breaker.

Seed 000 (Q3, "a tool call failed: how do you design fault tolerance?") names five layers;
each is a small wrapper around a plain handler (any callable, sync or async), so they
compose with any tool registry and can be read in one screen:

1. **Retry** with exponential backoff and jitter for transient errors (:func:`retry_call`,
   built by hand; :func:`tenacity_retrying`, the same policy with ``tenacity``), honouring a
   server's ``Retry-After``;
2. **Fallback** to a backup tool (:class:`Fallback`: ``web_search`` → ``bing_search``);
3. **Graceful degradation**: an unavailable tool becomes a tool message the model can act on
   (:func:`degrade`, :func:`unavailable_report`);
4. **Idempotency**: a side-effecting tool is made safe to retry with idempotency keys
   (:class:`IdempotencyStore`, :func:`idempotency_key`);
5. **Timeout** per tool, for async *and* sync handlers (:func:`call_with_timeout`,
   :func:`with_timeout`): a sync handler that hangs cannot hang the caller.

Beyond the seed: a :class:`CircuitBreaker` (stop calling a tool that keeps failing), the
:func:`harden` composition in the right order, :func:`simulate_herd` (why jitter matters)
and :func:`traced_client` (watch the ``openai`` SDK's own ``max_retries`` at work).

Time is injectable everywhere (:class:`FakeClock`), and randomness comes from an injected
``random.Random``, so tests and lessons are deterministic and never really sleep.

Deliberate shortcuts: a timed-out *sync* handler keeps running in its daemon thread (Python
cannot kill a thread; lesson 05's sandbox runs commands in a process, which can be killed);
the idempotency store lives in memory (a real service keeps keys in its database, with an
expiry). Taught in lesson 04.
"""
from __future__ import annotations

import asyncio
import functools
import hashlib
import heapq
import inspect
import json
import math
import random
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Iterable, Iterator

import tenacity

from .diagrams import figure
from .i18n import N_, _
from .tool_registry import ToolError
from .tracing import Trace

if TYPE_CHECKING:  # matplotlib is imported on the first figure, not with this module
    from .course_figure import CourseFigure

Handler = Callable[..., Any]

__all__ = [
    "Attempt", "Backoff", "CircuitBreaker", "CircuitOpen", "FakeClock", "Fallback", "FlakyTool", "HerdResult",
    "IdempotencyStore", "RetriesExhausted", "add_idempotency_keys", "is_tool_fault", "SYSTEM_CLOCK", "ServiceUnavailable", "SystemClock", "ToolTimeout",
    "TransientToolError", "WaitRetryAfter", "call_with_timeout", "degrade", "harden",
    "idempotency_key", "is_transient", "retry_after_seconds", "retry_call", "simulate_herd", "tenacity_retrying",
    "traced_client", "unavailable_report", "with_retry", "with_timeout",
]


# ---------------------------------------------------------------------------------------- clocks
class SystemClock:
    """The real clock: ``now()`` is ``time.monotonic`` (seconds), ``sleep`` really waits."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)

    async def asleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def __repr__(self) -> str:
        return "SystemClock()"


SYSTEM_CLOCK = SystemClock()


class FakeClock:
    """A clock for tests and simulations: ``sleep`` only moves time forward, instantly.

    Attributes:
        t: the current time in seconds (starts at ``start``).
        sleeps: every duration passed to :meth:`sleep` / :meth:`asleep`, in order (seconds).

    Example:
        >>> clock = FakeClock()
        >>> clock.sleep(1.5); clock.sleep(0.5)
        >>> clock.now(), clock.sleeps
        (2.0, [1.5, 0.5])
    """

    def __init__(self, start: float = 0.0) -> None:
        self.t = start
        self.sleeps: list[float] = []

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.t += seconds

    async def asleep(self, seconds: float) -> None:
        self.sleep(seconds)
        await asyncio.sleep(0)  # still let other tasks run, as a real sleep would

    def advance(self, seconds: float) -> None:
        """Move time forward without recording a sleep (time passing elsewhere)."""
        self.t += seconds

    def __repr__(self) -> str:
        return f"FakeClock(t={self.t:g}, sleeps={len(self.sleeps)})"


# ---------------------------------------------------------------------------------------- errors
class TransientToolError(ToolError):
    """A failure worth retrying: a network blip, a busy backend (HTTP 503), a lost connection.

    Args:
        message: what happened.
        retry_after: seconds the backend asked us to wait, if it said (``Retry-After``).
    """

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message, kind="handler_error", retryable=True)
        self.retry_after = retry_after


class ServiceUnavailable(ToolError):
    """The tool cannot serve now (down, circuit open, retries used up); do not retry at once.

    In a :class:`~course_lib.tool_registry.ToolRegistry` it becomes a tool message of kind
    ``"unavailable"``: the model reads that it should use another tool or explain.
    """

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message, kind="unavailable", **details)


class ToolTimeout(ToolError):
    """A tool call did not finish within its timeout (``seconds``); kind ``"timeout"``."""

    def __init__(self, name: str, seconds: float) -> None:
        super().__init__(f"{name} did not answer within {seconds:g} s", kind="timeout", timeout_s=seconds)
        self.name, self.seconds = name, seconds


class CircuitOpen(ServiceUnavailable):
    """The circuit breaker is open: the call was refused without reaching the tool."""


class RetriesExhausted(ServiceUnavailable):
    """Every attempt failed with a transient error; ``attempts`` says when and why.

    The last error is chained as ``__cause__``.
    """

    def __init__(self, name: str, attempts: list["Attempt"]) -> None:
        last = attempts[-1].error if attempts else "no attempt"
        super().__init__(_("{name} failed {n} times; last error: {last}").format(name=name, n=len(attempts), last=last),
                         attempts=len(attempts))
        self.name, self.attempts = name, attempts


_RETRY_STATUS = frozenset({408, 409, 429})  # plus every 5xx: the statuses the openai SDK retries too


def _status_of(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None) or getattr(exc, "status", None)
    response = getattr(exc, "response", None)
    if status is None and response is not None:
        status = getattr(response, "status_code", None)
    return status if isinstance(status, int) else None


def is_transient(exc: BaseException) -> bool:
    """True when ``exc`` is worth retrying: the call may well succeed a moment later.

    Transient: :class:`TransientToolError`, :class:`ToolTimeout`, ``ConnectionError``,
    ``TimeoutError``, any exception carrying an HTTP status 408, 409, 429 or 5xx
    (``openai.RateLimitError``, ``openai.InternalServerError``, ``httpx.HTTPStatusError``...),
    ``openai.APIConnectionError`` and ``httpx`` transport errors. Not transient: wrong
    arguments, unknown cities, permission errors, :class:`ServiceUnavailable`: retrying them
    only repeats the failure. Seed 000 Q3 layer 1. Taught in lesson 04.
    """
    if isinstance(exc, ServiceUnavailable):
        return False
    if isinstance(exc, (TransientToolError, ToolTimeout, ConnectionError, TimeoutError)):
        return True
    status = _status_of(exc)
    if status is not None:
        return status in _RETRY_STATUS or status >= 500
    names = {cls.__name__ for cls in type(exc).__mro__}
    return bool(names & {"APIConnectionError", "APITimeoutError", "TransportError", "TimeoutException"})


def is_tool_fault(exc: BaseException) -> bool:
    """True when ``exc`` says the *tool* is in trouble (what a circuit breaker counts):
    a transient error, or :class:`RetriesExhausted` (retries already ran and all failed)."""
    return isinstance(exc, RetriesExhausted) or is_transient(exc)


def retry_after_seconds(exc: BaseException) -> float | None:
    """The wait (seconds) the server asked for, from ``exc.retry_after`` or the response headers.

    Reads ``retry-after-ms`` (milliseconds) first, then ``retry-after`` (seconds), like the
    ``openai`` SDK; HTTP dates are not supported (None). Returns None when there is none.
    """
    value = getattr(exc, "retry_after", None)
    if isinstance(value, (int, float)):
        return float(value)
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None) or getattr(exc, "headers", None) or {}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        raw = headers.get(name) if hasattr(headers, "get") else None
        if raw is None:
            continue
        try:
            return float(raw) * scale
        except ValueError:
            continue
    return None


# ---------------------------------------------------------------------------------------- backoff
JITTERS = ("none", "full", "equal")


@dataclass(frozen=True)
class Backoff:
    """When to retry: exponential backoff with jitter, and when to give up.

    The ceiling of retry ``n`` (1 = the first retry) is ``min(max_delay, base * factor**(n-1))``
    seconds; the delay drawn under it depends on ``jitter``:

    * ``"none"``: exactly the ceiling (every client retries at the same instants);
    * ``"full"``: uniform in ``[0, ceiling]`` (AWS's "full jitter", tenacity's
      ``wait_random_exponential``);
    * ``"equal"``: ``ceiling/2`` plus uniform in ``[0, ceiling/2]``.

    A server's ``Retry-After`` wins when it asks for longer; one above ``max_retry_after``
    means "not soon": the retry loop gives up instead of waiting.

    Attributes:
        base: ceiling of the first retry, seconds.
        factor: growth per retry.
        max_delay: cap of any single delay, seconds.
        max_attempts: attempts in total, the first one included.
        jitter: ``"none"``, ``"full"`` or ``"equal"``.
        max_retry_after: the longest ``Retry-After`` worth waiting for, seconds.

    Example:
        >>> b = Backoff(base=0.5, max_delay=4, max_attempts=6, jitter="none")
        >>> b.schedule(random.Random(0))
        [0.5, 1.0, 2.0, 4.0, 4.0]
    """

    base: float = 0.5
    factor: float = 2.0
    max_delay: float = 8.0
    max_attempts: int = 5
    jitter: str = "full"
    max_retry_after: float = 60.0

    def __post_init__(self) -> None:
        if self.jitter not in JITTERS:
            raise ValueError(f"jitter must be one of {JITTERS}, not {self.jitter!r}")
        if self.max_attempts < 1:
            raise ValueError("max_attempts counts the first attempt too: it must be at least 1")

    def ceiling(self, retry: int) -> float:
        """The largest delay before retry number ``retry`` (1-based), seconds."""
        return float(min(self.max_delay, self.base * self.factor ** (retry - 1)))

    def delay(self, retry: int, rng: random.Random, retry_after: float | None = None) -> float:
        """The delay before retry ``retry`` (seconds), drawn with ``rng``; ``retry_after`` is a floor."""
        c = self.ceiling(retry)
        if self.jitter == "full":
            d = rng.uniform(0, c)
        elif self.jitter == "equal":
            d = c / 2 + rng.uniform(0, c / 2)
        else:
            d = c
        return max(d, retry_after) if retry_after is not None else d

    def schedule(self, rng: random.Random) -> list[float]:
        """The delays of every retry this policy allows (``max_attempts - 1`` of them), seconds."""
        return [self.delay(n, rng) for n in range(1, self.max_attempts)]


@dataclass
class Attempt:
    """One try of a call: when it started (seconds on the clock), its error, the wait after it."""

    number: int
    start: float
    error: str | None = None
    delay: float | None = None

    def __repr__(self) -> str:
        wait = "" if self.delay is None else f", then wait {self.delay:.3f} s"
        return f"Attempt({self.number} at {self.start:.3f} s: {self.error or 'ok'}{wait})"


def _wraps(handler: Handler) -> Callable[[Handler], Handler]:
    """``functools.wraps`` that copies name, docstring and signature but not the handler's
    attributes (a :class:`FlakyTool`'s counters must not be copied onto its wrapper)."""
    return functools.wraps(handler, updated=())


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _next_wait(backoff: Backoff, number: int, exc: BaseException, rng: random.Random) -> float | None:
    """Seconds to wait before attempt ``number + 1``, or None to give up."""
    if number >= backoff.max_attempts:
        return None
    after = retry_after_seconds(exc)
    if after is not None and after > backoff.max_retry_after:
        return None
    return backoff.delay(number, rng, after)


def retry_call(fn: Handler, *args: Any, backoff: Backoff = Backoff(), clock: Any = SYSTEM_CLOCK,
               rng: random.Random | None = None, retry_on: Callable[[BaseException], bool] = is_transient,
               name: str | None = None, trace: Trace | None = None, attempts: list[Attempt] | None = None,
               **kwargs: Any) -> Any:
    """Call ``fn(*args, **kwargs)``, retrying transient failures with backoff and jitter (by hand).

    Args:
        fn: a sync callable (use :func:`aretry_call` for coroutines).
        backoff: the :class:`Backoff` policy (attempts, delays, jitter).
        clock: ``now()`` and ``sleep(seconds)``; :class:`FakeClock` in tests (no real waiting).
        rng: the random source for jitter (``random.Random(seed)`` makes delays reproducible).
        retry_on: which exceptions to retry (default :func:`is_transient`); others are re-raised
            at once: retrying a wrong argument only repeats the error.
        name: shown in errors and the trace (default: ``fn``'s name).
        trace: if given, one span per attempt and one note per wait are recorded.
        attempts: if given, a list that receives every :class:`Attempt` (to draw or test them).

    Returns:
        ``fn``'s return value.

    Raises:
        RetriesExhausted: every allowed attempt failed transiently (or ``Retry-After`` was
            longer than ``backoff.max_retry_after``); the last error is its ``__cause__``.
        Exception: the first non-transient error, unchanged.

    Seed 000 Q3 layer 1. Taught in lesson 04.
    """
    rng = rng or random.Random()
    name = name or getattr(fn, "__name__", "tool")
    log = attempts if attempts is not None else []
    for number in range(1, backoff.max_attempts + 1):
        attempt = Attempt(number, clock.now())
        log.append(attempt)
        try:
            with _recorded(trace, f"{name} try {number}", _("attempt {n}").format(n=number)):
                return fn(*args, **kwargs)
        except Exception as e:
            attempt.error = _describe(e)
            if not retry_on(e):
                raise  # permanent: a retry would fail the same way
            wait = _next_wait(backoff, number, e, rng)  # None: out of attempts, or Retry-After too long
            if wait is None:
                raise RetriesExhausted(name, log) from e
            attempt.delay = wait
            _note(trace, f"{name} try {number}", _("wait {seconds:.2f} s").format(seconds=wait))
            clock.sleep(wait)
    raise AssertionError("unreachable")  # the loop always returns or raises


async def aretry_call(fn: Callable[..., Awaitable[Any]], *args: Any, backoff: Backoff = Backoff(),
                      clock: Any = SYSTEM_CLOCK, rng: random.Random | None = None,
                      retry_on: Callable[[BaseException], bool] = is_transient, name: str | None = None,
                      trace: Trace | None = None, attempts: list[Attempt] | None = None, **kwargs: Any) -> Any:
    """The async twin of :func:`retry_call` (awaits ``fn`` and ``clock.asleep``). Taught in lesson 04."""
    rng = rng or random.Random()
    name = name or getattr(fn, "__name__", "tool")
    log = attempts if attempts is not None else []
    for number in range(1, backoff.max_attempts + 1):
        attempt = Attempt(number, clock.now())
        log.append(attempt)
        try:
            with _recorded(trace, f"{name} try {number}", _("attempt {n}").format(n=number)):
                return await fn(*args, **kwargs)
        except Exception as e:
            attempt.error = _describe(e)
            if not retry_on(e):
                raise
            wait = _next_wait(backoff, number, e, rng)
            if wait is None:
                raise RetriesExhausted(name, log) from e
            attempt.delay = wait
            _note(trace, f"{name} try {number}", _("wait {seconds:.2f} s").format(seconds=wait))
            await clock.asleep(wait)
    raise AssertionError("unreachable")


@contextmanager
def _recorded(trace: Trace | None, lane: str, label: str) -> Iterator[None]:
    """A span on ``lane`` in ``trace`` (if any), marked ✗ with the error type when the block raises."""
    if trace is None:
        yield
        return
    with trace.span(lane, label, layer="tool") as event:
        try:
            yield
        except BaseException as e:
            event.label += f" ✗ {type(e).__name__}"
            event.kind = "error"
            raise


def _note(trace: Trace | None, lane: str, label: str, dst: str | None = None) -> None:
    if trace is not None:
        trace.add(lane, dst or lane, label, kind="notification", layer="tool")


def with_retry(handler: Handler, *, backoff: Backoff = Backoff(), clock: Any = SYSTEM_CLOCK,
               rng: random.Random | None = None, retry_on: Callable[[BaseException], bool] = is_transient,
               name: str | None = None, trace: Trace | None = None) -> Handler:
    """``handler`` wrapped by :func:`retry_call` (or :func:`aretry_call` for an async handler).

    The wrapper keeps the handler's name, signature and docstring (``functools.wraps``), so a
    registry derives the same schema from it. Every call's attempts are appended to the
    wrapper's ``.attempts`` list (a list of lists). Taught in lesson 04.
    """
    history: list[list[Attempt]] = []
    opts = dict(backoff=backoff, clock=clock, rng=rng or random.Random(), retry_on=retry_on,
                name=name or getattr(handler, "__name__", "tool"), trace=trace)

    if inspect.iscoroutinefunction(handler):
        @_wraps(handler)
        async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
            history.append([])
            return await aretry_call(handler, *args, attempts=history[-1], **opts, **kwargs)
        async_wrapper.attempts = history  # type: ignore[attr-defined]
        return async_wrapper

    @_wraps(handler)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        history.append([])
        return retry_call(handler, *args, attempts=history[-1], **opts, **kwargs)
    wrapper.attempts = history  # type: ignore[attr-defined]
    return wrapper


# ---------------------------------------------------------------------------------------- tenacity
class WaitRetryAfter(tenacity.wait.wait_base):
    """A tenacity wait that honours the server's ``Retry-After`` and falls back to ``fallback``.

    ``wait = WaitRetryAfter(wait_random_exponential(...))``: the delay is the larger of the two.
    """

    def __init__(self, fallback: tenacity.wait.wait_base) -> None:
        self.fallback = fallback

    def __call__(self, retry_state: tenacity.RetryCallState) -> float:
        delay = self.fallback(retry_state)
        outcome = retry_state.outcome
        after = retry_after_seconds(outcome.exception()) if outcome is not None and outcome.failed else None
        return max(delay, after) if after is not None else delay

    def __repr__(self) -> str:
        return f"WaitRetryAfter({self.fallback!r})"


def tenacity_retrying(backoff: Backoff = Backoff(), *, clock: Any = SYSTEM_CLOCK,
                      retry_on: Callable[[BaseException], bool] = is_transient,
                      asynchronous: bool = False, **options: Any) -> tenacity.BaseRetrying:
    """The same policy as :func:`retry_call`, built from ``tenacity`` parts (what a professional uses).

    ``"full"`` jitter maps to ``wait_random_exponential(multiplier=base, exp_base=factor,
    max=max_delay)``, ``"none"`` to ``wait_exponential``, ``"equal"`` to half of each plus half
    random; :class:`WaitRetryAfter` adds the server's ``Retry-After``. Note that tenacity draws
    its jitter from the global ``random`` module: ``random.seed(n)`` makes it reproducible
    (and, for the same seed, equal to ``retry_call(..., rng=random.Random(n))``).

    Args:
        backoff: the policy to translate.
        clock: its ``sleep`` (or ``asleep`` when ``asynchronous``) is what tenacity waits with.
        retry_on: which exceptions to retry.
        asynchronous: return a ``tenacity.AsyncRetrying`` (for ``async for attempt in ...``).
        **options: passed to tenacity (``before_sleep=...``).

    Returns:
        A ``tenacity.Retrying``: call ``r(fn, *args)`` or use ``for attempt in r: with attempt: ...``;
        it re-raises the last error when attempts run out (``reraise=True``).

    Taught in lesson 04.
    """
    w = tenacity.wait
    if backoff.jitter == "full":
        wait: Any = w.wait_random_exponential(multiplier=backoff.base, exp_base=backoff.factor, max=backoff.max_delay)
    elif backoff.jitter == "equal":
        half = w.wait_exponential(multiplier=backoff.base / 2, exp_base=backoff.factor, max=backoff.max_delay / 2)
        wait = half + w.wait_random_exponential(multiplier=backoff.base / 2, exp_base=backoff.factor,
                                                max=backoff.max_delay / 2)
    else:
        wait = w.wait_exponential(multiplier=backoff.base, exp_base=backoff.factor, max=backoff.max_delay)
    cls = tenacity.AsyncRetrying if asynchronous else tenacity.Retrying
    return cls(stop=tenacity.stop_after_attempt(backoff.max_attempts), wait=WaitRetryAfter(wait),
               retry=tenacity.retry_if_exception(retry_on), reraise=True,
               sleep=clock.asleep if asynchronous else clock.sleep, **options)


# ---------------------------------------------------------------------------------------- thundering herd
@dataclass
class HerdResult:
    """The outcome of :func:`simulate_herd` for one jitter mode.

    Attributes:
        jitter: the mode simulated.
        attempts: ``(time s, client, attempt number, accepted)`` for every request sent.
        done: seconds until the last client was served (``inf`` if some gave up).
        gave_up: clients that used all their attempts without being served.
    """

    jitter: str
    attempts: list[tuple[float, int, int, bool]]
    done: float
    gave_up: int
    capacity: int
    bucket: float

    @property
    def rejected(self) -> int:
        return sum(not ok for _, _, _, ok in self.attempts)

    def retry_peak(self) -> int:
        """The most *retries* that arrived in one bucket (the first burst is the same for all modes)."""
        counts: dict[int, int] = {}
        for t, _, number, _ in self.attempts:
            if number > 1:
                slot = int(t / self.bucket + 1e-9)
                counts[slot] = counts.get(slot, 0) + 1
        return max(counts.values(), default=0)

    def summary(self) -> str:
        """One line: jitter, requests, rejections, the retry peak per bucket, when all were served (learner's language)."""
        done = _("never (some gave up)") if self.gave_up else _("{seconds:.1f} s").format(seconds=self.done)
        return (_("jitter={jitter:<5} requests={requests:>4}  rejected={rejected:>4}  retry peak={peak:>3} per "
                  "{bucket:g} s  all served after {done}").format(
                    jitter=self.jitter, requests=len(self.attempts), rejected=self.rejected, peak=self.retry_peak(),
                    bucket=self.bucket, done=done)
                + (_("  gave up: {n}").format(n=self.gave_up) if self.gave_up else ""))

    def __repr__(self) -> str:
        return f"HerdResult({self.summary()})"


def simulate_herd(clients: int = 100, backoff: Backoff = Backoff(base=0.5, max_delay=8, max_attempts=12), *,
                  capacity: int = 10, bucket: float = 0.1, seed: int = 0) -> HerdResult:
    """Simulate ``clients`` hitting a recovering server at the same instant, all retrying with ``backoff``.

    The server accepts at most ``capacity`` requests per ``bucket`` seconds and rejects the
    rest (HTTP 429). A rejected client waits ``backoff.delay(...)`` and tries again. Virtual
    time: nothing sleeps, and ``seed`` makes it reproducible. Without jitter the retries
    arrive together again and again (a thundering herd); with jitter they spread out.

    Returns:
        A :class:`HerdResult` (draw several with :func:`draw_herd`). Taught in lesson 04.
    """
    rng = random.Random(seed)
    queue: list[tuple[float, int, int]] = [(0.0, c, 1) for c in range(clients)]  # (time, client, attempt)
    heapq.heapify(queue)
    load: dict[int, int] = {}
    attempts: list[tuple[float, int, int, bool]] = []
    done, gave_up = 0.0, 0
    while queue:
        t, client, number = heapq.heappop(queue)
        slot = int(t / bucket + 1e-9)
        ok = load.get(slot, 0) < capacity
        load[slot] = load.get(slot, 0) + 1
        attempts.append((t, client, number, ok))
        if ok:
            done = max(done, t)
        elif number < backoff.max_attempts:
            heapq.heappush(queue, (t + backoff.delay(number, rng), client, number + 1))
        else:
            gave_up += 1
    return HerdResult(backoff.jitter, attempts, float("inf") if gave_up else done, gave_up, capacity, bucket)


def draw_herd(results: Iterable[HerdResult], *, until: float | None = None) -> CourseFigure:
    """Requests per time bucket for each simulated jitter mode, accepted vs rejected, with the capacity line.

    One panel per mode, on the same axes (x: seconds after the outage ends; y: requests per bucket, e.g. per
    0.1 s), so the herd (a tall spike of 429s at each retry wave) and its absence are compared at a glance.
    By default the time axis runs to the last request of the slowest run, so every run is drawn whole and
    the dotted line "all served" of each panel stands where its title says. Each bucket is drawn its true
    width (a step outline: at 50 s on the axis a 0.1 s bucket is a thin spike). The legend sits under the
    panels, off the bars.

    Args:
        results: :func:`simulate_herd` outcomes, one panel each (top to bottom), all with the same bucket.
        until: the end of the time axis in seconds (default: the slowest run's last request, plus one bucket).

    Returns:
        A :class:`CourseFigure` whose text fallback is the runs' summaries.
    """
    from .diagrams import FONT_SMALL, FONT_TITLE, MAX_WIDTH, OKABE_ITO, wrap_to_width

    results = list(results)
    text = "\n".join(r.summary() for r in results)
    panel, legend_h, title_h = 2.1, 0.55, 0.55
    height = title_h + panel * len(results) + legend_h
    fig = figure(MAX_WIDTH, height, text=text)
    horizon = until or _nice_end(max(max(a[0] for a in r.attempts) for r in results) + results[0].bucket)
    peak = 1
    axes = []
    for i, r in enumerate(results):
        bottom = legend_h + panel * (len(results) - 1 - i) + 0.5
        ax = fig.add_axes((0.8 / MAX_WIDTH, bottom / height, (MAX_WIDTH - 1.0) / MAX_WIDTH, (panel - 1.0) / height))
        axes.append(ax)
        ok, bad = _herd_counts(r, horizon)
        peak = max(peak, max(a + b for a, b in zip(ok, bad)))
        edges = [k * r.bucket for k in range(len(ok) + 1)]
        ax.stairs(ok, edges, fill=True, color=OKABE_ITO["blue"], label=_("accepted"))
        ax.stairs([a + b for a, b in zip(ok, bad)], edges, baseline=ok, fill=True, color=OKABE_ITO["vermillion"],
                  label=_("rejected (429)"))
        ax.axhline(r.capacity, color="#222222", ls="--", lw=1.2, label=_("capacity ({capacity} per {bucket} s)").format(
            capacity=r.capacity, bucket=f"{r.bucket:g}"))
        ax.set_ylabel(_("requests per {bucket} s").format(bucket=f"{r.bucket:g}"))
        ax.set_xlim(-horizon / 100, horizon)  # a little room left of 0 s: the first burst is not hidden by the axis
        ax.set_title("\n".join(wrap_to_width(r.summary(), MAX_WIDTH - 1.2, FONT_SMALL, max_lines=2)),
                     fontsize=FONT_SMALL, loc="left")
    for ax, r in zip(axes, results):
        ax.set_ylim(0, peak * 1.15)
        _mark_served(ax, r, horizon, peak * 1.15, FONT_SMALL)
    axes[-1].set_xlabel(_("time after the outage ends (s)"))
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, frameon=False, fontsize=FONT_SMALL,
               bbox_to_anchor=(0.5, 0.02 / height))
    fig.suptitle(_("Retries of many clients: no jitter vs full jitter"), fontsize=FONT_TITLE, y=1 - 0.1 / height,
                 va="top")
    return fig


def _nice_end(seconds: float) -> float:
    """``seconds`` rounded up to a whole second under 10 s, else to a multiple of 5 s (47.6 -> 50.0)."""
    step = 1 if seconds < 10 else 5
    return float(math.ceil(seconds / step - 1e-9) * step)


def _herd_counts(result: HerdResult, horizon: float) -> tuple[list[int], list[int]]:
    """(accepted, rejected) requests per bucket of ``result`` from 0 to ``horizon`` seconds."""
    n = int(horizon / result.bucket + 1e-9) + 1
    ok, bad = [0] * n, [0] * n
    for t, _client, _try, accepted in result.attempts:
        if t <= horizon:
            (ok if accepted else bad)[min(n - 1, int(t / result.bucket + 1e-9))] += 1
    return ok, bad


def _mark_served(ax, result: HerdResult, horizon: float, top: float, size: float) -> None:
    """A dotted line at the moment the last client was served, labelled with it (on the side with room)."""
    if result.gave_up or result.done > horizon:
        return
    ax.axvline(result.done, color="#555555", ls=":", lw=1.2)
    right = result.done < horizon * 0.6
    ax.text(result.done + (0.008 if right else -0.008) * horizon, top * 0.93,
            _("all served at {seconds:.1f} s").format(seconds=result.done), fontsize=size,
            ha="left" if right else "right", va="top", color="#333333")


# ---------------------------------------------------------------------------------------- fallback
class Fallback:
    """Try the primary tool; when it fails, the backups in order (seed 000 Q3 layer 2).

    Args:
        *handlers: ``(name, callable)`` pairs or plain callables, primary first.
        failover_on: which errors move on to the next handler (default: any ``Exception``).
        trace: if given, each try is a span on its tool's lane, the switch a note.

    Calling the object calls the first handler that succeeds, with the same arguments.
    ``last_used`` names it; ``log`` keeps ``(name, error or None)`` for every try.

    Raises:
        ServiceUnavailable: every handler failed (the message lists each error).

    Example:
        >>> def web_search(query): raise ConnectionError("web_search is down")
        >>> def bing_search(query): return ["result for " + query]
        >>> search = Fallback(web_search, bing_search)
        >>> search(query="MCP"), search.last_used
        (['result for MCP'], 'bing_search')

    Taught in lesson 04.
    """

    def __init__(self, *handlers: Handler | tuple[str, Handler],
                 failover_on: Callable[[BaseException], bool] = lambda e: True, trace: Trace | None = None) -> None:
        if not handlers:
            raise ValueError("Fallback needs at least one handler")
        self.handlers = [h if isinstance(h, tuple) else (getattr(h, "__name__", f"tool{i}"), h)
                         for i, h in enumerate(handlers)]
        self.failover_on, self.trace = failover_on, trace
        self.last_used: str | None = None
        self.log: list[tuple[str, str | None]] = []
        functools.update_wrapper(self, self.handlers[0][1], updated=())  # name, signature, docs of the primary

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        errors = []
        for i, (name, handler) in enumerate(self.handlers):
            try:
                with _recorded(self.trace, name, f"{name}(...)"):
                    result = handler(*args, **kwargs)
            except Exception as e:
                self.log.append((name, _describe(e)))
                errors.append(f"{name}: {_describe(e)}")
                if not self.failover_on(e):
                    raise
                if i + 1 < len(self.handlers):
                    backup = self.handlers[i + 1][0]
                    _note(self.trace, name, _("fall back to {backup}").format(backup=backup), dst=backup)
                continue
            self.log.append((name, None))
            self.last_used = name
            return result
        self.last_used = None
        raise ServiceUnavailable("every option failed: " + "; ".join(errors))

    def __repr__(self) -> str:
        return f"Fallback({' -> '.join(n for n, _ in self.handlers)}, last_used={self.last_used!r})"


# ---------------------------------------------------------------------------------------- degradation
def unavailable_report(name: str, reason: str, *, alternatives: Iterable[str] = ()) -> dict:
    """The tool result that tells the model a tool is unavailable now (seed 000 Q3 layer 3).

    Returns:
        ``{"error": "the tool <name> is unavailable now (<reason>)", "status": "unavailable", "tool",
        "retryable": False, "advice"}`` plus ``"alternatives"`` when some are known: the model
        reads it and picks another tool or explains to the user. Taught in lesson 04.

    Example:
        >>> unavailable_report("web_search", "timeout", alternatives=["bing_search"])["advice"]
        'use bing_search instead, or tell the user that web_search is unavailable'
    """
    alternatives = list(alternatives)
    advice = (f"use {' or '.join(alternatives)} instead, or tell the user that {name} is unavailable" if alternatives
              else f"use another tool if one fits, or tell the user that {name} is unavailable")
    report = {"error": f"the tool {name} is unavailable now ({reason})", "status": "unavailable", "tool": name,
              "retryable": False, "advice": advice}
    if alternatives:
        report["alternatives"] = alternatives
    return report


def degrade(handler: Handler, *, name: str | None = None, alternatives: Iterable[str] = (),
            on: tuple[type[BaseException], ...] = (Exception,)) -> Handler:
    """``handler`` that never raises ``on`` errors: they become :func:`unavailable_report` results.

    Put it outermost: retries, breaker and fallback have done what they could; what is left
    is told to the model as data, not thrown at the agent loop. Sync and async handlers.
    Taught in lesson 04.
    """
    name = name or getattr(handler, "__name__", "tool")
    alternatives = list(alternatives)

    def report(e: BaseException) -> dict:
        return unavailable_report(name, _describe(e), alternatives=alternatives)

    if inspect.iscoroutinefunction(handler):
        @_wraps(handler)
        async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return await handler(*args, **kwargs)
            except on as e:
                return report(e)
        return async_wrapper

    @_wraps(handler)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return handler(*args, **kwargs)
        except on as e:
            return report(e)
    return wrapper


# ---------------------------------------------------------------------------------------- idempotency
def idempotency_key(*parts: Any) -> str:
    """A stable key from the parts that identify *one* intended action, e.g. ``(conversation, tool_call_id)``.

    Use the ``tool_call_id``: a framework retry of the same call reuses it (same key, no
    second order), while a new request from the user gets a new call id (a new order, as
    intended). Hashing only the arguments would wrongly merge two real orders of the same item.

    Example:
        >>> idempotency_key("conv-1", "call_abc")
        'idem-3b9e9b8e50ee7818'
    """
    raw = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return "idem-" + hashlib.sha256(raw.encode()).hexdigest()[:16]


class IdempotencyStore:
    """Remembers the result of each idempotency key, so a repeated request is answered, not redone.

    Server side of seed 000 Q3 layer 4: ``run(key, fn)`` runs ``fn`` once per key and returns
    the stored result to every later request with that key, even while the first is still
    running (concurrent duplicates wait for it). ``replays`` counts the requests answered from
    memory. Thread-safe. Errors are not stored: a failed action may be tried again.
    Taught in lesson 04.
    """

    def __init__(self) -> None:
        self._results: dict[str, Any] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self.replays = 0

    def run(self, key: str, fn: Callable[[], Any]) -> Any:
        """``fn()`` the first time ``key`` is seen; the same result afterwards."""
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key in self._results:
                self.replays += 1
                return self._results[key]
            result = fn()
            self._results[key] = result
            return result

    def __contains__(self, key: str) -> bool:
        return key in self._results

    def __len__(self) -> int:
        return len(self._results)

    def __repr__(self) -> str:
        return f"IdempotencyStore({len(self)} keys, {self.replays} replays)"


def add_idempotency_keys(scope: str, tools: Iterable[str], *, argument: str = "idempotency_key") -> Callable:
    """A registry ``before_call`` hook that gives each call of ``tools`` an idempotency key.

    The key is :func:`idempotency_key(scope, tool_call_id) <idempotency_key>`: the model never
    sees or sends it (it is not in the schema); the framework adds it, so every retry of the
    same call carries the same key. Install with ``registry.before_call(add_idempotency_keys(...))``.
    Taught in lesson 04.
    """
    names = set(tools)

    def hook(inv: Any) -> None:
        if inv.entry.name in names and inv.call_id:
            inv.arguments[argument] = idempotency_key(scope, inv.call_id)

    hook.__name__ = f"add_idempotency_keys({scope!r})"
    return hook


# ---------------------------------------------------------------------------------------- timeouts
def _run_in_daemon_thread(fn: Handler, args: tuple, kwargs: dict,
                          done: Callable[[Any, BaseException | None], None], name: str) -> threading.Thread:
    """Run ``fn`` in a daemon thread and report through ``done(result, error)``.

    A *daemon* thread, not a ``ThreadPoolExecutor``: executor workers are joined when Python
    exits, so one hung handler would hang the kernel's shutdown too.
    """
    def target() -> None:
        try:
            result = fn(*args, **kwargs)
        except BaseException as e:  # handed to the caller, whatever it is
            done(None, e)
        else:
            done(result, None)

    thread = threading.Thread(target=target, name=f"tool:{name}", daemon=True)
    thread.start()
    return thread


_ABANDONED: list[threading.Thread] = []


def abandoned_threads() -> list[threading.Thread]:
    """Threads of timed-out sync handlers that are still running (they cannot be killed)."""
    _ABANDONED[:] = [t for t in _ABANDONED if t.is_alive()]
    return list(_ABANDONED)


def call_with_timeout(fn: Handler, *args: Any, timeout: float, name: str | None = None, **kwargs: Any) -> Any:
    """Call sync ``fn`` but stop waiting after ``timeout`` seconds (seed 000 Q3 layer 5).

    The call runs in a daemon thread; the caller waits on an event with a bound. If the
    handler hangs, the caller gets :class:`ToolTimeout` on time and goes on; the handler's
    thread is abandoned (listed by :func:`abandoned_threads`) because Python cannot kill a
    thread. For work that must be killed, run it in a process (lesson 05's sandbox).

    Args:
        fn: a sync callable.
        timeout: seconds to wait.
        name: shown in the error (default ``fn``'s name).

    Returns:
        ``fn``'s result.

    Raises:
        ToolTimeout: no result within ``timeout`` seconds.
        Exception: whatever ``fn`` raised, unchanged.

    Taught in lesson 04.
    """
    name = name or getattr(fn, "__name__", "tool")
    finished = threading.Event()
    box: dict[str, Any] = {}

    def done(result: Any, error: BaseException | None) -> None:
        box["result"], box["error"] = result, error
        finished.set()

    thread = _run_in_daemon_thread(fn, args, kwargs, done, name)
    if not finished.wait(timeout):
        _ABANDONED.append(thread)
        raise ToolTimeout(name, timeout)
    if box["error"] is not None:
        raise box["error"]
    return box["result"]


async def acall_with_timeout(fn: Handler, *args: Any, timeout: float, name: str | None = None,
                             **kwargs: Any) -> Any:
    """Await ``fn`` (async, or sync run in a daemon thread) for at most ``timeout`` seconds.

    An async handler is cancelled at the timeout (``asyncio.wait_for``); a sync one is run in
    a daemon thread so that it cannot block the event loop, and is abandoned at the timeout.

    Raises:
        ToolTimeout: no result within ``timeout`` seconds.

    Taught in lessons 04 and 06.
    """
    name = name or getattr(fn, "__name__", "tool")
    if inspect.iscoroutinefunction(fn):
        try:
            return await asyncio.wait_for(fn(*args, **kwargs), timeout)
        except asyncio.TimeoutError:
            raise ToolTimeout(name, timeout) from None
    loop = asyncio.get_running_loop()
    future: asyncio.Future = loop.create_future()

    def done(result: Any, error: BaseException | None) -> None:
        def settle() -> None:
            if future.done():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)
        try:
            loop.call_soon_threadsafe(settle)
        except RuntimeError:  # the loop closed meanwhile: nobody is waiting any more
            pass

    # A result that arrives after the timeout has no reader: retrieve it so asyncio does not warn.
    future.add_done_callback(lambda f: f.cancelled() or f.exception())
    thread = _run_in_daemon_thread(fn, args, kwargs, done, name)
    try:
        return await asyncio.wait_for(asyncio.shield(future), timeout)
    except asyncio.TimeoutError:
        _ABANDONED.append(thread)
        raise ToolTimeout(name, timeout) from None


def with_timeout(handler: Handler, seconds: float, *, name: str | None = None) -> Handler:
    """``handler`` with a per-tool timeout: a sync wrapper for a sync handler, async for async.

    Raises (from the wrapper):
        ToolTimeout: the handler took longer than ``seconds``.

    Taught in lesson 04.
    """
    name = name or getattr(handler, "__name__", "tool")
    if inspect.iscoroutinefunction(handler):
        @_wraps(handler)
        async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
            return await acall_with_timeout(handler, *args, timeout=seconds, name=name, **kwargs)
        async_wrapper.timeout = seconds  # type: ignore[attr-defined]
        return async_wrapper

    @_wraps(handler)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return call_with_timeout(handler, *args, timeout=seconds, name=name, **kwargs)
    wrapper.timeout = seconds  # type: ignore[attr-defined]
    return wrapper


# ---------------------------------------------------------------------------------------- circuit breaker
class CircuitBreaker:
    """Stop calling a tool that keeps failing; try again after a pause (beyond seed 000 Q3).

    Theory of operation: **closed** (normal) counts consecutive failures; at
    ``failure_threshold`` it **opens**: calls fail fast with :class:`CircuitOpen` without
    touching the tool, which gives it time to recover and gives the model an immediate
    answer. After ``reset_timeout`` seconds one trial call is let through (**half_open**):
    success closes the circuit, failure opens it again. The table below is the whole
    machine; tests and the lesson's diagram read it.

    Args:
        name: the tool's name (messages, trace).
        failure_threshold: consecutive failures that open the circuit.
        reset_timeout: seconds to stay open before a trial call.
        clock: ``now()`` in seconds (:class:`FakeClock` in tests).
        counts: which exceptions count as failures (default :func:`is_tool_fault`: transient
            errors, timeouts and exhausted retries; a wrong argument is the caller's fault).

    Taught in lesson 04.
    """

    TRANSITIONS: dict[str, dict[str, str]] = {
        "closed": {"success": "closed", "failure": "closed", "threshold": "open"},
        "open": {"reset_timeout": "half_open", "call": "open"},
        "half_open": {"success": "closed", "failure": "open"},
    }

    def __init__(self, name: str = "tool", *, failure_threshold: int = 3, reset_timeout: float = 30.0,
                 clock: Any = SYSTEM_CLOCK, counts: Callable[[BaseException], bool] | None = None) -> None:
        self.name, self.failure_threshold, self.reset_timeout = name, failure_threshold, reset_timeout
        self.clock, self.counts = clock, counts or is_tool_fault
        self._state, self.failures, self.opened_at = "closed", 0, 0.0
        self.history: list[tuple[float, str, str, str]] = []  # (time, from, to, event)
        self._lock = threading.Lock()

    def _move(self, event: str) -> None:
        new = self.TRANSITIONS[self._state][event]
        if new != self._state:
            self.history.append((self.clock.now(), self._state, new, event))
        self._state = new

    @property
    def state(self) -> str:
        """``closed``, ``open`` or ``half_open`` (an open circuit turns half-open when its time is up)."""
        with self._lock:
            if self._state == "open" and self.clock.now() - self.opened_at >= self.reset_timeout:
                self._move("reset_timeout")
            return self._state

    def before_call(self) -> None:
        """Raise :class:`CircuitOpen` if the call must not reach the tool now."""
        if self.state == "open":
            wait = self.reset_timeout - (self.clock.now() - self.opened_at)
            raise CircuitOpen(f"circuit open for {self.name}: {self.failures} failures in a row; "
                              f"next trial in {wait:.1f} s")

    def record(self, error: BaseException | None) -> None:
        """Record the outcome of a call that reached the tool (None = success)."""
        with self._lock:
            if error is None or not self.counts(error):
                self.failures = 0
                self._move("success")
                return
            self.failures += 1
            if self._state == "half_open":
                self._move("failure")
            elif self.failures >= self.failure_threshold:
                self._move("threshold")
            else:
                self._move("failure")
            if self._state == "open":
                self.opened_at = self.clock.now()

    def call(self, fn: Handler, *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` through the breaker (sync)."""
        self.before_call()
        try:
            result = fn(*args, **kwargs)
        except Exception as e:
            self.record(e)
            raise
        self.record(None)
        return result

    async def acall(self, fn: Callable[..., Awaitable[Any]], *args: Any, **kwargs: Any) -> Any:
        """``await fn(*args, **kwargs)`` through the breaker."""
        self.before_call()
        try:
            result = await fn(*args, **kwargs)
        except Exception as e:
            self.record(e)
            raise
        self.record(None)
        return result

    def wrap(self, handler: Handler) -> Handler:
        """``handler`` with every call going through this breaker (sync or async)."""
        if inspect.iscoroutinefunction(handler):
            @_wraps(handler)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                return await self.acall(handler, *args, **kwargs)
            return async_wrapper

        @_wraps(handler)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            return self.call(handler, *args, **kwargs)
        return wrapper

    def __repr__(self) -> str:
        return (f"CircuitBreaker({self.name!r}, state={self.state}, failures={self.failures}/"
                f"{self.failure_threshold}, reset_timeout={self.reset_timeout:g} s)")


# ---------------------------------------------------------------------------------------- composition
def harden(handler: Handler, *, name: str | None = None, timeout: float | None = None,
           backoff: Backoff | None = None, idempotent: bool = True, breaker: CircuitBreaker | None = None,
           fallbacks: Iterable[Handler | tuple[str, Handler]] = (), degrade_to_report: bool = False,
           alternatives: Iterable[str] = (), clock: Any = SYSTEM_CLOCK, rng: random.Random | None = None, trace: Trace | None = None) -> Handler:
    """Compose the layers around a sync handler in the order that works, innermost first.

    1. ``timeout`` bounds *each attempt* (a retry gets a fresh timeout);
    2. ``backoff`` retries transient failures, **only if** ``idempotent``: retrying a
       non-idempotent tool after a timeout or a lost response may do the action twice
       (give it an idempotency key first, then declare it idempotent);
    3. ``breaker`` sees the outcome after retries (one failure per exhausted call), and fails
       fast while open;
    4. ``fallbacks`` take over when all of that failed;
    5. with ``degrade_to_report``, what is left becomes an :func:`unavailable_report` naming
       ``alternatives``; otherwise it raises (:class:`ServiceUnavailable` and friends), which a
       :class:`~course_lib.tool_registry.ToolRegistry` turns into a tool message of kind
       ``"unavailable"`` or ``"timeout"`` by itself.

    Register the result like any handler:
    ``registry.register(handler=harden(fn, timeout=1, backoff=Backoff()), schema=..., idempotent=True)``.

    Returns:
        A sync handler with the same name and signature. Taught in lesson 04.
    """
    name = name or getattr(handler, "__name__", "tool")
    h = handler
    if timeout is not None:
        h = with_timeout(h, timeout, name=name)
    if backoff is not None and idempotent:
        h = with_retry(h, backoff=backoff, clock=clock, rng=rng, name=name, trace=trace)
    if breaker is not None:
        h = breaker.wrap(h)
    fallbacks = list(fallbacks)
    if fallbacks:
        h = Fallback((name, h), *fallbacks, trace=trace)
    if degrade_to_report:
        h = degrade(h, name=name, alternatives=alternatives)
    return h


# ---------------------------------------------------------------------------------------- LLM-side retries
def traced_client(mock: Any, trace: Trace, *, async_client: bool = False, lane: str = "App", **kwargs: Any) -> Any:
    """An ``openai`` client for ``mock`` that records every HTTP attempt in ``trace``.

    The SDK retries 408/409/429/5xx and connection errors by itself (``max_retries``,
    default 2), honouring ``Retry-After`` (up to 120 s) or else waiting 0.5 s × 2ⁿ (capped at
    8 s) minus up to 25 % jitter. Those retries are invisible from your code; this client
    shows them: one ``App -> LLM`` request per attempt (with the SDK's
    ``x-stainless-retry-count`` header) and its status. Taught in lesson 04.

    Args:
        mock: a :class:`~course_lib.mock_llm.MockLLM`.
        trace: where attempts are recorded.
        async_client: return ``openai.AsyncOpenAI``.
        lane: the caller's lane in the trace (``"Agent"`` to match an :class:`~course_lib.agent.Agent`).
        **kwargs: passed to the ``openai`` client (``max_retries=...``).
    """
    import httpx2
    import openai

    from .llm_client import MOCK_BASE_URL, AsyncInProcessTransport, InProcessTransport

    def on_request(request: Any) -> None:
        n = request.headers.get("x-stainless-retry-count", "0")
        trace.add(lane, "LLM", _("POST {path} (retry {n})").format(path=request.url.path, n=n), layer="llm")

    def on_response(response: Any) -> None:
        after = response.headers.get("retry-after")
        note = f" Retry-After: {after}" if after else ""
        trace.add("LLM", lane, f"HTTP {response.status_code}{note}",
                  kind="error" if response.status_code >= 400 else "response", layer="llm")

    async def a_on_request(request: Any) -> None:
        on_request(request)

    async def a_on_response(response: Any) -> None:
        on_response(response)

    kwargs.setdefault("api_key", "mock-key-not-secret")
    kwargs.setdefault("base_url", MOCK_BASE_URL)
    if async_client:
        http = httpx2.AsyncClient(transport=AsyncInProcessTransport(mock),
                                  event_hooks={"request": [a_on_request], "response": [a_on_response]})
        return openai.AsyncOpenAI(http_client=http, **kwargs)
    http = httpx2.Client(transport=InProcessTransport(mock),
                         event_hooks={"request": [on_request], "response": [on_response]})
    return openai.OpenAI(http_client=http, **kwargs)


# ---------------------------------------------------------------------------------------- fault injection for tools
TOOL_FAULTS = ("error", "down", "hang", "slow", "lost_response")


@dataclass
class _ToolFault:
    kind: str
    times: int | None
    seconds: float
    retry_after: float | None


class FlakyTool:
    """Make a sync tool misbehave on purpose, like ``MockLLM.inject`` does for the model.

    Faults apply to the next calls, oldest first. Kinds:

    ================= =====================================================================
    ``error``         raise :class:`TransientToolError` (a blip; ``retry_after`` optional)
    ``down``          raise ``ConnectionError`` (the backend is unreachable)
    ``hang``          block until :meth:`release` (or ``seconds``, if given), then answer
    ``slow``          wait ``seconds`` on the clock, then answer
    ``lost_response`` run the handler (its side effect happens!), then raise ``ConnectionError``
    ================= =====================================================================

    Args:
        handler: the real tool.
        name: its name (default: the handler's).
        clock: what ``slow`` sleeps on (:class:`FakeClock` in tests).

    Attributes:
        calls: how many times the tool was called; ``log``: ``(call number, fault or "ok")``.

    Example:
        >>> tool = FlakyTool(lambda city: {"temp": 28}, name="get_weather").inject("error", times=2)
        >>> for _ in range(3):
        ...     try:
        ...         print(tool("Shanghai"))
        ...     except TransientToolError as e:
        ...         print("error:", e)
        error: get_weather: injected transient error (call 1)
        error: get_weather: injected transient error (call 2)
        {'temp': 28}

    Taught in lesson 04.
    """

    def __init__(self, handler: Handler, *, name: str | None = None, clock: Any = SYSTEM_CLOCK) -> None:
        self.handler, self.clock = handler, clock
        self.name = name or getattr(handler, "__name__", "tool")
        functools.update_wrapper(self, handler, updated=())
        self.__name__ = self.name
        self._faults: list[_ToolFault] = []
        self._released = threading.Event()
        self.calls = 0
        self.log: list[tuple[int, str]] = []
        self._lock = threading.Lock()

    def inject(self, kind: str, times: int | None = 1, *, seconds: float = 0.0,
               retry_after: float | None = None) -> "FlakyTool":
        """Apply fault ``kind`` to the next ``times`` calls (``None``: every call until :meth:`clear`)."""
        if kind not in TOOL_FAULTS:
            raise ValueError(f"unknown tool fault {kind!r}; choose one of {', '.join(TOOL_FAULTS)}")
        self._faults.append(_ToolFault(kind, times, seconds, retry_after))
        return self

    def clear(self) -> None:
        """Forget pending faults and release hung calls."""
        self._faults.clear()
        self.release()

    def release(self) -> None:
        """Let every ``hang`` in progress (and to come) finish."""
        self._released.set()

    def _take(self) -> _ToolFault | None:
        with self._lock:
            self.calls += 1
            if not self._faults:
                return None
            fault = self._faults[0]
            if fault.times is not None:
                fault.times -= 1
                if fault.times <= 0:
                    self._faults.pop(0)
            return fault

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fault = self._take()
        number = self.calls
        self.log.append((number, fault.kind if fault else "ok"))
        if fault is None:
            return self.handler(*args, **kwargs)
        if fault.kind == "error":
            raise TransientToolError(f"{self.name}: injected transient error (call {number})",
                                     retry_after=fault.retry_after)
        if fault.kind == "down":
            raise ConnectionError(_("{name}: backend unreachable (injected, call {number})").format(
                name=self.name, number=number))
        if fault.kind == "hang":
            self._released.wait(fault.seconds or None)
        elif fault.kind == "slow":
            self.clock.sleep(fault.seconds)
        result = self.handler(*args, **kwargs)
        if fault.kind == "lost_response":
            raise ConnectionError(f"{self.name}: response lost after the work was done (injected, call {number})")
        return result

    def __repr__(self) -> str:
        pending = ", ".join(f"{f.kind}×{'∞' if f.times is None else f.times}" for f in self._faults) or "none"
        return f"FlakyTool({self.name!r}, calls={self.calls}, pending faults: {pending})"


# ---------------------------------------------------------------------------------------- pictures
#: (layer, what it does), outermost first, numbered as in seed 000 Q3.
LAYERS = [
    ("3 · graceful degradation", "what is left becomes a tool message: 'unavailable now, use another tool'"),
    ("2 · fallback", "the primary failed? try the backup (web_search -> bing_search)"),
    ("+ · circuit breaker", "after N failures in a row, fail fast for a while (beyond the seed)"),
    ("1 · retry with backoff + jitter", "transient errors only, and only for idempotent tools"),
    ("5 · timeout, per attempt", "a hung call cannot hold the agent"),
    ("4 · the tool, idempotent", "reads are; side effects get idempotency keys"),
]


#: :func:`layers_figure`'s default title (translated where it is drawn).
LAYERS_TITLE = N_("The layers around one tool call (outermost first)")


def layers_figure(*, title: str | None = None) -> CourseFigure:
    """The fault-tolerance layers as nested boxes, in the order :func:`harden` composes them.

    Each box says its layer's name, what it does, and which of seed 000 Q3's five layers it is (1 retry,
    2 fallback, 3 degradation, 4 idempotency, 5 timeout; the circuit breaker is beyond the seed), so the
    nesting order (the order that works) and the seed's numbering are both readable. Text fallback: one
    indented line per layer.
    """
    from matplotlib.patches import FancyBboxPatch

    from .diagrams import FONT, FONT_SMALL, FONT_TITLE, GREY, INK, MAX_WIDTH, text_width, wrap_to_width

    text = "\n".join(f"{'  ' * i}{name}: {why}" for i, (name, why) in enumerate(LAYERS))
    width, row, inset = MAX_WIDTH, 0.52, 0.2
    height = 0.75 + row * len(LAYERS) + 0.75
    fig = figure(width, height, text=text)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.axis("off")
    # light fills (Okabe-Ito hues, pale): black text keeps a contrast above 10:1 on each
    colours = ["#F9DCCB", "#FBEBC8", "#F3E0EC", "#DCEAF7", "#D5F0E6", "#FDF9CF"]
    top0, bottom = height - 0.75, 0.15
    for i, ((label, why), colour) in enumerate(zip(LAYERS, colours)):
        number, _sep, name = label.partition(" · ")
        x, top = 0.15 + inset * i, top0 - row * i
        ax.add_patch(FancyBboxPatch((x, bottom + 0.09 * i), width - 2 * x, top - bottom - 0.09 * i,
                                    boxstyle="round,pad=0,rounding_size=0.06", fc=colour, ec=GREY, lw=0.9))
        tag = "beyond the seed" if number == "+" else f"seed layer {number}"
        ax.text(width - x - 0.12, top - 0.25, tag, ha="right", va="center", fontsize=FONT_SMALL, color=INK)
        name_w = text_width(name, FONT, weight="bold")
        ax.text(x + 0.12, top - 0.25, name, ha="left", va="center", fontsize=FONT, weight="bold", color=INK)
        room = width - 2 * x - 0.24 - name_w - 0.3 - text_width(tag, FONT_SMALL) - 0.3
        ax.text(x + 0.12 + name_w + 0.3, top - 0.25, wrap_to_width(why, room, FONT_SMALL, max_lines=1)[0],
                ha="left", va="center", fontsize=FONT_SMALL, color=INK)
    fig.suptitle(title or _(LAYERS_TITLE), fontsize=FONT_TITLE, y=1 - 0.1 / height, va="top")
    return fig
