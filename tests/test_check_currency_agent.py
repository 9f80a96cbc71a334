"""Exercise 11's check: the solution passes, and each typical mistake gets its own hint."""
from __future__ import annotations

import asyncio

import pytest
from a2a.helpers import new_data_part, new_task_from_user_message, new_text_message, new_text_part
from a2a.server.agent_execution import AgentExecutor
from a2a.server.tasks import TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Role

from course_lib.a2a_agents import agent_interfaces, agent_message, user_texts
from course_lib.checks import CheckFailed
from course_lib.checks.currency_agent import check_currency_agent
from course_lib.examples import UnknownCurrency, convert_currency, parse_conversion

SKILL = AgentSkill(id="currency_conversion", name="Currency conversion", description="Converts money.",
                   tags=["currency"], examples=["Convert 100 USD to EUR"])


def good_card(base_url, **changes):
    fields = dict(name="Currency agent", description="Converts money.", version="1.0.0",
                  supported_interfaces=agent_interfaces(base_url), capabilities=AgentCapabilities(streaming=True),
                  default_input_modes=["text/plain"], default_output_modes=["text/plain"], skills=[SKILL])
    fields.update(changes)
    return AgentCard(**fields)


class Good(AgentExecutor):
    texts = staticmethod(user_texts)

    async def execute(self, context, event_queue):
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        up = TaskUpdater(event_queue, task.id, task.context_id)
        amount, source, target = parse_conversion(" ".join(self.texts(context)))
        if target is None:
            await up.requires_input(agent_message("Which currency?", task))
            return
        await up.start_work()
        try:
            result = convert_currency(amount, source, target)
        except UnknownCurrency as e:
            await self.unknown(up, task, e)
            return
        await up.add_artifact([new_data_part({"result": result}), new_text_part(f"{result} {target}")])
        await self.finish(up, task)

    async def unknown(self, up, task, error):
        await up.failed(agent_message(str(error), task))

    async def finish(self, up, task):
        await up.complete()

    async def cancel(self, context, event_queue):
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


def results(card=good_card, executor=Good):
    try:
        report = asyncio.run(check_currency_agent(card, executor))
    except CheckFailed as failed:
        report = failed.report
    return {r.name: (r.passed, r.hint) for r in report.results}


def failing(card=good_card, executor=Good):
    return {name: hint for name, (passed, hint) in results(card, executor).items() if not passed}


def test_the_reference_agent_passes_every_check():
    outcome = results()
    assert len(outcome) == 13 and all(passed for passed, _ in outcome.values())


def test_stub_card():
    def stub(base_url):
        raise NotImplementedError("Your turn: replace this line with your code.")
    assert failing(card=stub) == {
        "currency_card(base_url) builds a card":
            "Write `currency_card` where the exercise says `# YOUR CODE HERE` (and remove the `raise`)."}


def test_stub_executor():
    class Stub(Good):
        async def execute(self, context, event_queue):
            raise NotImplementedError("Your turn: replace this line with your code.")
    hints = failing(executor=Stub)
    assert hints["'Convert 100 USD to EUR' completes"].startswith("Write your executor's code where")


def test_card_that_is_a_dict():
    hints = failing(card=lambda url: {"name": "Currency agent"})
    assert "Return `AgentCard(" in hints["it is an a2a.types.AgentCard"]


def test_card_without_skill_examples_or_version():
    hints = failing(card=lambda url: good_card(url, skills=[AgentSkill(id="c", name="C", description="d",
                                                                        tags=["currency"])], version=""))
    assert "version" in hints["the card has every field the spec requires"]
    assert "examples=[...]" in hints["a skill with tags and example requests"]


def test_card_without_streaming():
    hints = failing(card=lambda url: good_card(url, capabilities=AgentCapabilities()))
    assert "streaming=True" in hints["the card says it can stream"]


def test_card_with_a_wrong_url():
    wrong = [AgentInterface(url="http://127.0.0.1:8000/a2a/jsonrpc", protocol_binding="JSONRPC", protocol_version="1.0")]
    hints = failing(card=lambda url: good_card(url, supported_interfaces=wrong))
    assert "found: ['http://127.0.0.1:8000/a2a/jsonrpc']" in hints["a JSON-RPC interface at base_url + '/a2a/jsonrpc'"]


def test_executor_that_never_completes():
    class NoComplete(Good):
        async def finish(self, up, task):
            pass
    hints = failing(executor=NoComplete)
    assert hints["'Convert 100 USD to EUR' completes"] == "The task never finished: end with `await updater.complete()`."


def test_executor_that_answers_with_a_message():
    class Chatty(Good):
        async def execute(self, context, event_queue):
            await event_queue.enqueue_event(new_text_message("92.0 EUR", context_id=context.context_id))
    hints = failing(executor=Chatty)
    assert "answered with a Message, not a Task" in hints["'Convert 100 USD to EUR' completes"]


def test_executor_that_crashes():
    class Crash(Good):
        async def finish(self, up, task):
            raise TypeError("complete() got an unexpected keyword argument 'text'")
    hints = failing(executor=Crash)
    assert hints["'Convert 100 USD to EUR' completes"] == (
        "Your executor raised TypeError: complete() got an unexpected keyword argument 'text'")


def test_executor_that_updates_after_the_end():
    class Twice(Good):
        async def finish(self, up, task):
            await up.complete()
            await up.complete()
    hints = failing(executor=Twice)
    assert "after the task had ended" in hints["'Convert 100 USD to EUR' completes"]


def test_executor_that_skips_working_and_gets_the_sum_wrong():
    class Sloppy(AgentExecutor):
        async def execute(self, context, event_queue):
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
            up = TaskUpdater(event_queue, task.id, task.context_id)
            await up.add_artifact([new_text_part("100 USD is 108.7 EUR")])
            await up.complete()

        async def cancel(self, context, event_queue):
            pass
    hints = failing(executor=Sloppy)
    assert "start_work" in hints["it reported progress: working before completed"]
    assert "does not contain 92.0" in hints["the result is an artifact holding 92.0 (EUR)"]


def test_executor_that_rejects_instead_of_asking():
    class NoQuestion(Good):
        async def execute(self, context, event_queue):
            amount, source, target = parse_conversion(context.get_user_input())
            if target is None:
                task = new_task_from_user_message(context.message)
                await event_queue.enqueue_event(task)
                await TaskUpdater(event_queue, task.id, task.context_id).reject()
                return
            await super().execute(context, event_queue)
    hints = failing(executor=NoQuestion)
    hint = hints["'Convert 250 CNY' asks which currency (input-required)"]
    assert "requires_input" in hint and "'rejected'" in hint


def test_executor_that_forgets_the_first_message_on_resume():
    class Forgetful(Good):
        texts = staticmethod(lambda context: [context.get_user_input()])
    hints = failing(executor=Forgetful)
    hint = hints["the answer 'JPY' resumes the same task to completed"]
    assert "user_texts(context)" in hint and "'input-required'" in hint


def test_executor_that_lets_unknown_currency_escape():
    class Raises(Good):
        async def unknown(self, up, task, error):
            raise error
    hints = failing(executor=Raises)
    hint = hints["an unknown currency ends failed or rejected, with a reason"]
    assert hint.startswith("Your executor raised UnknownCurrency: unknown currency 'XYZ'")


@pytest.mark.parametrize("role", [Role.ROLE_AGENT])
def test_agent_message_role(role):
    assert agent_message("x", task_id="t", context_id="c").role == role


def test_executor_that_forgets_return_after_requires_input():
    """Without `return` the code runs on with target None: the hint names the missing `return`."""
    class NoReturn(Good):
        async def execute(self, context, event_queue):
            task = context.current_task
            if task is None:
                task = new_task_from_user_message(context.message)
                await event_queue.enqueue_event(task)
            up = TaskUpdater(event_queue, task.id, task.context_id)
            amount, source, target = parse_conversion(" ".join(user_texts(context)))
            if target is None:
                await up.requires_input(agent_message("Which currency?", task))
            await up.start_work()
            result = convert_currency(amount, source, target)
            await up.add_artifact([new_data_part({"result": result}), new_text_part(f"{result} {target}")])
            await up.complete()
    hints = failing(executor=NoReturn)
    assert list(hints) == ["'Convert 250 CNY' asks which currency (input-required)"]
    hint = hints["'Convert 250 CNY' asks which currency (input-required)"]
    assert hint.startswith("Your executor asked for the target currency (`requires_input`) and then carried on: "
                           "add `return` right after `await updater.requires_input(...)`")
    assert "AttributeError: 'NoneType' object has no attribute 'upper'" in hint


def test_executor_without_a_task_is_told_to_create_one():
    """No Task enqueued: the SDK's 'Agent should enqueue Task ...' becomes a hint naming the helper to use."""
    class NoTask(Good):
        async def execute(self, context, event_queue):
            up = TaskUpdater(event_queue, context.task_id, context.context_id)
            await up.start_work()
            await up.complete()
    hint = failing(executor=NoTask)["'Convert 100 USD to EUR' completes"]
    assert "task = new_task_from_user_message(context.message)" in hint
    assert "await event_queue.enqueue_event(task)" in hint
    assert "Agent should enqueue Task before TaskStatusUpdateEvent event" in hint
