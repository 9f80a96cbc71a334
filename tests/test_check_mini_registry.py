"""Exercise 03's checks: the reference registry passes; each typical mistake gets its own hint."""
from __future__ import annotations

import inspect
import json

import pytest
from jsonschema import Draft202012Validator, FormatChecker

from course_lib.checks import CheckFailed
from course_lib.checks.mini_registry import check_mini_registry


def tool_message(call_id, content):
    text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
    return {"role": "tool", "tool_call_id": call_id, "content": text}


def error(call_id, name, message):
    return tool_message(call_id, {"error": message, "tool": name})


class Reference:
    """The solution, written independently of the notebook (the notebook's copy is checked by test_exercises)."""

    def __init__(self):
        self.tools, self.disabled = {}, set()

    def register(self, name, toolset, schema, handler, check_fn=None):
        if name in self.tools:
            raise ValueError(name)
        self.tools[name] = {"toolset": toolset, "schema": schema, "handler": handler, "check_fn": check_fn}

    def enable(self, toolset):
        self.disabled.discard(toolset)

    def disable(self, toolset):
        self.disabled.add(toolset)

    def is_visible(self, name):
        entry = self.tools[name]
        if entry["toolset"] in self.disabled:
            return False
        try:
            return entry["check_fn"] is None or bool(entry["check_fn"]())
        except Exception:
            return False

    def definitions(self):
        return [{"type": "function", "function": e["schema"]} for n, e in self.tools.items() if self.is_visible(n)]

    async def dispatch(self, tool_call):
        call_id, name = tool_call["id"], tool_call["function"]["name"]
        if name not in self.tools or not self.is_visible(name):
            return error(call_id, name, f"no visible tool {name!r}")
        try:
            args = self.parse(tool_call["function"].get("arguments"))
        except ValueError as e:
            return error(call_id, name, str(e))
        problems = self.validate(name, args)
        if problems:
            return error(call_id, name, "invalid arguments: " + "; ".join(problems))
        try:
            result = self.tools[name]["handler"](**args)
            if inspect.isawaitable(result):
                result = await result
        except Exception as e:
            return error(call_id, name, f"{type(e).__name__}: {e}")
        return tool_message(call_id, result)

    def parse(self, raw):
        args = json.loads(raw or "{}")
        if not isinstance(args, dict):
            raise ValueError("arguments must be a JSON object")
        return args

    def validate(self, name, args):
        v = Draft202012Validator(self.tools[name]["schema"]["parameters"], format_checker=FormatChecker())
        return [f"{'/'.join(map(str, e.path))}: {e.message}" for e in v.iter_errors(args)]


def hints_of(cls):
    with pytest.raises(CheckFailed) as e:
        check_mini_registry(cls)
    # what the learner reads: the hint, and the one line of the exception their code raised, if it did
    return [(r.name, r.hint + (f" (your code raised {r.error.line})" if r.error else ""))
            for r in e.value.report.results if not r.passed]


def test_the_reference_passes():
    report = check_mini_registry(Reference)
    assert report.passed and len(report.results) == 17


def test_a_sync_dispatch_is_accepted_too():
    class SyncDispatch(Reference):
        def dispatch(self, tool_call):
            import asyncio
            return asyncio.run(Reference.dispatch(self, tool_call))

    assert check_mini_registry(SyncDispatch).passed


class IgnoresToolsets(Reference):
    def is_visible(self, name):
        check = self.tools[name]["check_fn"]
        try:
            return check is None or bool(check())
        except Exception:
            return False


class IgnoresCheckFn(Reference):
    def is_visible(self, name):
        return self.tools[name]["toolset"] not in self.disabled


class CheckFnCrashes(Reference):
    def is_visible(self, name):
        entry = self.tools[name]
        return entry["toolset"] not in self.disabled and (entry["check_fn"] is None or entry["check_fn"]())


class BareSchemas(Reference):
    def definitions(self):
        return [e["schema"] for n, e in self.tools.items() if self.is_visible(n)]


class RaisesOnUnknown(Reference):
    async def dispatch(self, tool_call):
        self.tools[tool_call["function"]["name"]]  # KeyError for an unknown tool
        return await super().dispatch(tool_call)


class NoVisibilityInDispatch(Reference):
    async def dispatch(self, tool_call):
        name = tool_call["function"]["name"]
        if name in self.tools:
            saved, self.disabled = self.disabled, set()
            try:
                return await super().dispatch(tool_call)
            finally:
                self.disabled = saved
        return await super().dispatch(tool_call)


class NoValidation(Reference):
    def validate(self, name, args):
        return []


class CrashesOnBadJSON(Reference):
    async def dispatch(self, tool_call):
        json.loads(tool_call["function"].get("arguments") or "{}")  # raises on invalid JSON
        return await super().dispatch(tool_call)


class AcceptsLists(Reference):
    def parse(self, raw):
        return json.loads(raw or "{}")

    def validate(self, name, args):
        return [] if not isinstance(args, dict) else super().validate(name, args)

    async def dispatch(self, tool_call):
        args = self.parse(tool_call["function"].get("arguments"))
        if isinstance(args, list):
            return tool_message(tool_call["id"], "ok")  # happily "runs" the tool
        return await super().dispatch(tool_call)


class DoesNotAwait(Reference):
    async def dispatch(self, tool_call):
        name = tool_call["function"]["name"]
        if name == "search_docs":
            args = json.loads(tool_call["function"]["arguments"])
            if not self.validate(name, args):
                result = self.tools[name]["handler"](**args)
                result.close()  # the coroutine is never awaited (closed to avoid a warning)
                return tool_message(tool_call["id"], str(result))
        return await super().dispatch(tool_call)


class DictContent(Reference):
    async def dispatch(self, tool_call):
        message = await super().dispatch(tool_call)
        if "error" not in message["content"]:
            message["content"] = json.loads(message["content"])
        return message


class HandlerErrorsEscape(Reference):
    async def dispatch(self, tool_call):
        if tool_call["function"]["name"] == "explode":
            self.tools["explode"]["handler"]()
        return await super().dispatch(tool_call)


class VagueValidationError(Reference):
    def validate(self, name, args):
        return ["wrong"] if super().validate(name, args) else []


class Stub(Reference):
    def is_visible(self, name):
        raise NotImplementedError("Your turn")

    def definitions(self):
        raise NotImplementedError("Your turn")

    async def dispatch(self, tool_call):
        raise NotImplementedError("Your turn")


@pytest.mark.parametrize("cls, check, words", [
    (IgnoresToolsets, "disabled toolset is hidden", "`self.disabled`"),
    (IgnoresCheckFn, "unavailable tool is hidden", "check_fn()"),
    (CheckFnCrashes, "definitions() lists the visible tools", "RuntimeError"),
    (BareSchemas, "Chat Completions tool definitions", "{\"type\": \"function\", \"function\": entry[\"schema\"]}"),
    (RaisesOnUnknown, "unknown tool name", "KeyError"),
    (NoVisibilityInDispatch, "hidden tool is refused", "`self.is_visible(name)` in `dispatch`"),
    (NoValidation, "validation error is returned", "Validate before calling"),
    (NoValidation, "misspelled argument", "additionalProperties: false"),
    (CrashesOnBadJSON, "invalid JSON", "JSONDecodeError"),
    (AcceptsLists, "not an object", "isinstance(args, dict)"),
    (DoesNotAwait, "awaits an async handler", "inspect.isawaitable(result)"),
    (DictContent, "sync handler", "`content` must be a string"),
    (HandlerErrorsEscape, "exception in the handler", "ValueError: the disk is full"),
    (VagueValidationError, "names `limit`", "`e.path`"),
    (Stub, "definitions() lists the visible tools", "# YOUR CODE HERE"),
    (Stub, "sync handler", "# YOUR CODE HERE"),
])
def test_typical_mistakes_get_their_own_hint(cls, check, words):
    hints = hints_of(cls)
    assert any(check in name and words in hint for name, hint in hints), hints


def test_the_hint_names_the_method_that_is_still_a_stub():
    class OnlyDefinitions(Reference):
        def is_visible(self, name):
            raise NotImplementedError("Your turn")

    hints = dict(hints_of(OnlyDefinitions))
    assert hints["definitions() lists the visible tools"].startswith("Write `is_visible()`")


def test_a_broken_register_is_reported():
    class NoRegister(Reference):
        def register(self, *args, **kwargs):
            raise TypeError("register() takes 3 positional arguments")

    (name, hint), = hints_of(NoRegister)
    assert "Keep the given `__init__` and `register`" in hint
