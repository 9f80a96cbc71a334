"""Checks of exercise 11: the Agent Card and executor of a currency-conversion A2A agent.

The learner writes ``currency_card(base_url) -> AgentCard`` and a ``CurrencyExecutor`` class
(an ``a2a-sdk`` ``AgentExecutor``). The check serves them in-process (``build_agent_app`` +
``httpx.ASGITransport``: no port, no thread) and talks to the agent through the official A2A
client, exactly like another agent would: it reads the card, converts 100 USD to EUR, asks
for a conversion without a target currency (the agent must pause in ``input-required`` and
resume on the same task), and sends an unknown currency (the task must end ``failed`` or
``rejected`` with a reason). Every move is checked against the lesson's state table. Each
typical mistake has its own hint (see ``tests/test_check_currency_agent.py``).

Call it with ``await`` from a notebook cell (a check runs the agent, which is async).
"""
from __future__ import annotations

import json
import logging
import re
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import httpx
from a2a.client import ClientConfig, create_client
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.types import AgentCard, SendMessageRequest, TaskState
from a2a.utils.errors import A2AError
from google.protobuf.json_format import MessageToDict

from ..a2a_agents import JSONRPC_PATH, TaskFold, artifact_text, build_agent_app, user_message
from ..a2a_states import InvalidTransition
from ..examples import convert_currency
from ..exercises import is_stub
from ..hints import Hints
from . import CheckReport, calm_check
from ..i18n import N_, _

BASE_URL = "http://currency-agent.local"

#: The hints of exercise 11, from a nudge to nearly the answer (``HINTS`` in the exercise, ``course hint 11``).
HINTS = Hints("11_currency_agent", [
    N_("Copy the shape of lesson 11's finance agent: `finance_agent_card(base_url)` for the card and "
    "`FinanceAgentExecutor.execute` for the executor (`inspect.getsource(...)` shows both). Your agent has one "
    "skill, and `parse_conversion` + `convert_currency` do the arithmetic."),
    N_("Card: `AgentCard(name=..., description=..., version=\"1.0.0\", supported_interfaces=agent_interfaces(base_url), "
    "capabilities=AgentCapabilities(streaming=True), default_input_modes=[\"text/plain\"], default_output_modes="
    "[\"text/plain\"], skills=[AgentSkill(id=..., name=..., description=..., tags=[...], examples=[...])])`. "
    "Executor: a Task first (`new_task_from_user_message`), then a `TaskUpdater(event_queue, task.id, "
    "task.context_id)`."),
    N_("In `execute`: `amount, source, target = parse_conversion(\" \".join(user_texts(context)))`; no target → "
    "`await updater.requires_input(agent_message(\"Which currency?\", task))` and `return`; otherwise "
    "`await updater.start_work()`, `result = convert_currency(amount, source, target)` (catch `UnknownCurrency` → "
    "`await updater.failed(agent_message(str(error), task))`), `await updater.add_artifact([new_data_part({...}), "
    "new_text_part(...)])`, `await updater.complete()`. In `cancel`: `await TaskUpdater(event_queue, "
    "context.task_id, context.context_id).cancel()`."),
], solution_section="Your code: the card and the executor")


class _RecordingQueue:
    """The event queue the learner's ``execute()`` gets: forwards every event, remembers what it published."""

    def __init__(self, inner: EventQueue, log: list[Any]) -> None:
        self._inner = inner
        self._log = log

    async def enqueue_event(self, event: Any, *args: Any, **kwargs: Any) -> Any:
        self._log.append(event)
        return await self._inner.enqueue_event(event, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def __repr__(self) -> str:
        return f"_RecordingQueue({len(self._log)} events)"


def _state(event: Any) -> str:
    """``"input-required"`` for a TaskStatusUpdateEvent of that state, ``""`` for any other event."""
    if type(event).__name__ != "TaskStatusUpdateEvent":
        return ""
    return TaskState.Name(event.status.state).removeprefix("TASK_STATE_").lower().replace("_", "-")


class _Recorder(AgentExecutor):
    """Wraps the learner's executor to remember the exception its ``execute()`` raised, if any, and what
    that call had published before it raised (the hint for a missing ``return`` needs it)."""

    def __init__(self, inner: AgentExecutor) -> None:
        self.inner = inner
        self.errors: list[BaseException] = []
        #: the events the last ``execute()`` call published, in order
        self.events: list[Any] = []

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        self.events = []
        try:
            await self.inner.execute(context, _RecordingQueue(event_queue, self.events))
        except Exception as e:
            self.errors.append(e)
            raise

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await self.inner.cancel(context, event_queue)

    @property
    def asked_for_input(self) -> bool:
        """The last ``execute()`` call published ``input-required``."""
        return any(_state(e) == "input-required" for e in self.events)

    def __repr__(self) -> str:
        return f"_Recorder({type(self.inner).__name__}, {len(self.errors)} errors)"


@contextmanager
def _quiet_sdk() -> Iterator[None]:
    # An exception in the learner's execute() makes the SDK log a traceback; the hint says it better.
    # Child loggers may have their own level (build_agent_app sets some), so each one is silenced.
    names = ["a2a"] + [n for n in logging.Logger.manager.loggerDict if n.startswith("a2a.")]
    loggers = [logging.getLogger(n) for n in names]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


def _numbers(artifacts: list[Any]) -> list[float]:
    found: list[float] = []
    for artifact in artifacts:
        text = artifact_text(artifact) + " " + json.dumps([MessageToDict(p.data) for p in artifact.parts
                                                          if p.HasField("data")])
        found += [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", text.replace(",", ""))]
    return found


def _card_problems(card: AgentCard) -> list[str]:
    try:
        from a2a.utils.proto_utils import _validate_proto_required_fields_internal as missing
    except ImportError:  # a future SDK: the sub-checks below still cover the essentials
        return []
    return [f"{e['field']} ({e['message'].lower().rstrip('.')})" for e in missing(card)]


async def _send(client: Any, text: str, **ids: str) -> TaskFold:
    fold = TaskFold()
    async for event in client.send_message(SendMessageRequest(message=user_message(text, **ids))):
        fold.apply(event)
    return fold


def _error_hint(error: BaseException, recorder: _Recorder) -> str:
    cause = recorder.errors[-1] if recorder.errors else error
    if is_stub(cause) or isinstance(cause, NotImplementedError):  # the stub, in either edition's words
        return _("Write your executor's code where the exercise says `# YOUR CODE HERE` (and remove the `raise`).")
    if "enqueue Task before" in str(cause):
        return (_("Your executor published a status update before any Task existed (the SDK "
                   "said: \"{cause}\"). On a new request `context.current_task` is None: create "
                   "the Task first with `task = new_task_from_user_message(context.message)` "
                   "and `await event_queue.enqueue_event(task)`, then `updater = "
                   "TaskUpdater(event_queue, task.id, task.context_id)`.").format(cause=cause))
    if recorder.asked_for_input and recorder.errors and cause is recorder.errors[-1]:
        return (_("Your executor asked for the target currency (`requires_input`) and then "
                   "carried on: add `return` right after `await updater.requires_input(...)`, "
                   "so nothing runs until the user answers (the code after it raised "
                   "{error_type}: {cause}).").format(error_type=type(cause).__name__, cause=cause))
    if isinstance(cause, InvalidTransition):
        return (_("Your agent published states in an order A2A does not allow: {cause}. "
                   "Publish `working` (`start_work`) before the result and nothing after "
                   "`complete()`.").format(cause=cause))
    if "terminal state" in str(cause):
        return (_("Your executor published an update after the task had ended: call `complete()` (or `failed`, "
                "`reject`) once, as the very last thing, and `return` right after `requires_input(...)`."))
    return _("Your executor raised {error_type}: {cause}").format(error_type=type(cause).__name__, cause=cause)


@calm_check
async def check_currency_agent(currency_card: Callable[[str], AgentCard],
                               executor_class: Callable[[], AgentExecutor]) -> CheckReport:
    """Serve the learner's agent in-process and check it through the A2A client.

    Args:
        currency_card: ``base_url -> AgentCard``.
        executor_class: the executor class (or any callable returning a fresh executor).

    Raises:
        CheckFailed: when any sub-check fails (the report lists hints).
    """
    report = CheckReport(_("Exercise 11 · a currency-conversion A2A agent"), more_help=HINTS.pointer())
    with _quiet_sdk():
        await _check(report, currency_card, executor_class)
    return report.finish()


async def _check(report: CheckReport, currency_card: Callable[[str], AgentCard],
                 executor_class: Callable[[], AgentExecutor]) -> None:
    card = report.run(_("currency_card(base_url) builds a card"), lambda: currency_card(BASE_URL),
                      lambda e: _("Write `currency_card` where the exercise says `# YOUR CODE HERE` (and remove the "
                                "`raise`).") if isinstance(e, NotImplementedError) else
                                f"`currency_card` raised {type(e).__name__}: {e}")
    if card is None:
        return
    if not report.check(_("it is an a2a.types.AgentCard"), isinstance(card, AgentCard),
                        _("Return `AgentCard(name=..., description=..., ...)` from "
                           "`a2a.types`, not a {error_type}.").format(error_type=type(card).__name__)):
        return
    problems = _card_problems(card)
    report.check(_("the card has every field the spec requires"), not problems,
                 _("Fill in: {problems}. (The lesson's `finance_agent_card` shows each field.)").format(
                     problems="; ".join(problems)))
    skill = next((s for s in card.skills), None)
    report.check(_("a skill with tags and example requests"), skill is not None and skill.examples and skill.tags,
                 _("Add `skills=[AgentSkill(id=..., name=..., description=..., tags=[...], examples=[...])]`: "
                 "other agents discover what you do from the tags and examples."))
    report.check(_("the card says it can stream"), card.capabilities.streaming,
                 _("Set `capabilities=AgentCapabilities(streaming=True)`: the client streams only when the card says so."))
    rpc_urls = [i.url for i in card.supported_interfaces if i.protocol_binding == "JSONRPC"]
    if not report.check(_("a JSON-RPC interface at base_url + '/a2a/jsonrpc'"), BASE_URL + JSONRPC_PATH in rpc_urls,
                        _("`supported_interfaces` must list `AgentInterface(url=base_url + "
                           "\"{JSONRPC_PATH}\", protocol_binding=\"JSONRPC\", "
                           "protocol_version=\"1.0\")` (found: {value}); "
                           "`agent_interfaces(base_url)` builds it for you.").format(JSONRPC_PATH=JSONRPC_PATH, value=rpc_urls or 'none')):
        return
    recorder = report.run(_("CurrencyExecutor() builds an executor"), lambda: _Recorder(executor_class()),
                          _("`CurrencyExecutor()` must work without arguments"))
    if recorder is None:
        return
    app = build_agent_app(card, recorder)
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), timeout=30) as http:
            config = ClientConfig(streaming=True, httpx_client=http)
            async with await create_client(card, client_config=config) as client:
                await _check_conversions(report, client, recorder)
    finally:  # no lifespan in-process: close the handler so no task waits in the kernel's loop
        await app.state.a2a_handler.aclose()


async def _check_conversions(report: CheckReport, client: Any, recorder: _Recorder) -> None:
    # 1. a complete request
    try:
        fold = await _send(client, "Convert 100 USD to EUR")
    except (A2AError, InvalidTransition) as e:
        report.check(_("'Convert 100 USD to EUR' completes"), False, _error_hint(e, recorder))
        return
    if fold.message is not None and fold.task is None:
        report.check(_("'Convert 100 USD to EUR' completes"), False,
                     _("Your agent answered with a Message, not a Task. This skill needs a Task (an `input-required` "
                     "turn must be able to resume it): enqueue `new_task_from_user_message(context.message)` first."))
        return
    endings = {"submitted": _("Nothing happened after the Task: publish `await updater.start_work(...)`, the artifact, "
                            "then `await updater.complete()`."),
               "working": _("The task never finished: end with `await updater.complete()`."),
               "failed": _("The task failed: {status_text!r}.").format(status_text=fold.status_text)}
    report.check(_("'Convert 100 USD to EUR' completes"), fold.state == "completed",
                 endings.get(fold.state or "", _("The task ended in {state!r}, not 'completed'.").format(state=fold.state)))
    report.check(_("it reported progress: working before completed"), "working" in fold.states,
                 _("Call `await updater.start_work(...)` before the result: callers stream your progress."))
    artifacts = list(fold.task.artifacts) if fold.task else []
    report.check(_("the result is an artifact holding 92.0 (EUR)"),
                 any(abs(n - convert_currency(100, "USD", "EUR")) < 0.006 for n in _numbers(artifacts)),
                 _("Publish the result with `await updater.add_artifact([new_data_part({...}), new_text_part(...)])`, "
                 "using `convert_currency(amount, source, target)`.") if not artifacts else
                 _("The artifact does not contain 92.0; it says {value}. Use "
                    "`convert_currency(100, 'USD', 'EUR')`.").format(value=[artifact_text(a) for a in artifacts]))

    # 2. input-required, then resume on the same task
    try:
        first = await _send(client, "Convert 250 CNY")
    except (A2AError, InvalidTransition) as e:
        report.check(_("'Convert 250 CNY' asks which currency (input-required)"), False, _error_hint(e, recorder))
        return
    asked = report.check(_("'Convert 250 CNY' asks which currency (input-required)"),
                         first.state == "input-required" and first.status_text.strip(),
                         _("When the target currency is missing, call `await updater.requires_input(agent_message("
                           "'Which currency should I convert to?', task))` and `return`")
                         + (_(" (the task ended in {state!r}: {status_text!r}).").format(
                             state=first.state, status_text=first.status_text) if first.state else "."))
    if not asked:
        return
    try:
        second = await _send(client, "JPY", task_id=first.task.id, context_id=first.task.context_id)
    except (A2AError, InvalidTransition) as e:
        report.check(_("the answer 'JPY' resumes the same task to completed"), False, _error_hint(e, recorder))
        return
    expected = convert_currency(250, "CNY", "JPY")
    numbers = _numbers(list(second.task.artifacts) if second.task else [])
    report.check(_("the answer 'JPY' resumes the same task to completed"),
                 second.state == "completed" and any(abs(n - expected) < 0.006 for n in numbers),
                 _("On the second call `context.current_task` is the paused task: read *all* the user's texts "
                   "(`user_texts(context)` gives the request and the answer), parse them together, finish the task.")
                 + (_(" It ended in {state!r}: {status_text!r}.").format(state=second.state, status_text=second.status_text)
                    if second.state != "completed" else
                    _(" The artifact should hold {expected} (250 CNY in JPY).").format(expected=expected)))

    # 3. an unknown currency
    try:
        bad = await _send(client, "Convert 5 XYZ to EUR")
    except (A2AError, InvalidTransition) as e:
        cause = recorder.errors[-1] if recorder.errors else e
        report.check(_("an unknown currency ends failed or rejected, with a reason"), False,
                     _("Your executor raised {error_type}: {cause}. Catch `UnknownCurrency` and "
                        "end the task with `await updater.failed(agent_message(str(error), "
                        "task))` (or `reject`).").format(error_type=type(cause).__name__, cause=cause))
        return
    report.check(_("an unknown currency ends failed or rejected, with a reason"),
                 bad.state in ("failed", "rejected") and bad.status_text.strip(),
                 _("'Convert 5 XYZ to EUR' ended in {state!r}. Catch `UnknownCurrency` and "
                    "end the task with `await updater.failed(agent_message(str(error), "
                    "task))` so the caller learns why.").format(state=bad.state))


__all__ = ["BASE_URL", "HINTS", "check_currency_agent"]
