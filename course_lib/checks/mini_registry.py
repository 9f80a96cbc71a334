"""Checks of exercise 03: toolset filtering and validated dispatch on a skeleton registry.

The learner completes a ``MiniRegistry`` class: ``is_visible(name)`` (toolset enabled and
``check_fn`` passing), ``definitions()`` (the visible tools in the Chat Completions shape) and
``async dispatch(tool_call)`` (unknown tool, hidden tool, invalid JSON and invalid arguments all
become error tool messages; sync and async handlers; results as JSON text). The check builds
fresh registries from the learner's class with tools of its own, calls them the way a model
would, and finally lets the mock LLM use one. Each typical mistake has its own hint.
"""
from __future__ import annotations

import asyncio
import inspect
import json
from typing import Any, Callable

from ..examples import WEATHER_TOOL, get_weather
from ..function_calling import as_dict
from ..hints import Hints
from ..mock_llm import MockLLM
from ..tool_registry import run_sync
from . import CheckReport, calm_check
from ..i18n import N_, _

#: The hints of exercise 03 (``HINTS`` in the exercise, ``course hint 03``).
HINTS = Hints("03_tool_registry", [
    N_("This is lesson 03, sections 4 and 6, in miniature. `is_visible` answers \"may the model see this tool now?\"; "
    "`definitions` keeps the visible tools; `dispatch` never raises: every problem becomes "
    "`error(call_id, name, message)`."),
    N_("`is_visible`: `False` when `entry[\"toolset\"] in self.disabled`; otherwise call `entry[\"check_fn\"]()` (if "
    "there is one) inside `try/except Exception`: a check that fails means unavailable. `definitions`: "
    "`[{\"type\": \"function\", \"function\": e[\"schema\"]} for name, e in self.tools.items() if self.is_visible(name)]`."),
    N_("`dispatch`, in order: unknown name or not visible → error; `json.loads(arguments or \"{}\")` in `try` "
    "(and it must be a dict); `errors = list(Draft202012Validator(schema[\"parameters\"], "
    "format_checker=FormatChecker()).iter_errors(args))` → error naming them; `result = handler(**args)` in `try`, "
    "then `if inspect.isawaitable(result): result = await result`; `return tool_message(call_id, result)`."),
], solution_section="Your code: is_visible, definitions, dispatch")

SEARCH_SCHEMA = {
    "name": "search_docs",
    "description": "Search the team's documentation for pages about a topic.",
    "parameters": {"type": "object", "properties": {
        "query": {"type": "string"},
        "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5}},
        "required": ["query"], "additionalProperties": False},
}


def _schema(name: str, description: str, props: dict | None = None, required: tuple = ()) -> dict:
    return {"name": name, "description": description,
            "parameters": {"type": "object", "properties": props or {}, "required": list(required),
                           "additionalProperties": False}}


class _Probe:
    """The tools the check registers, recording which handlers ran."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    def weather(self, city: str, unit: str = "celsius") -> dict:
        self.ran.append("get_weather")
        return get_weather(city, unit)

    async def search(self, query: str = "", limit: int = 5, **extra: Any) -> list[dict]:
        # **extra: like many real handlers, it would silently drop a misspelled key
        self.ran.append("search_docs")
        await asyncio.sleep(0)
        return [{"title": f"{query} guide", "rank": i} for i in range(1, min(limit, 3) + 1)]

    def read(self, path: str) -> str:
        self.ran.append("read_file")
        return f"contents of {path}"

    def docker(self, image: str) -> str:
        self.ran.append("docker_run")
        return image

    def boom(self) -> str:
        self.ran.append("explode")
        raise ValueError("the disk is full")


def _no_docker() -> bool:
    return False


def _broken_check() -> bool:
    raise RuntimeError("cannot reach the license server")


def _build(cls: type) -> tuple[Any, _Probe]:
    """A fresh registry of the learner's class, with the check's tools registered."""
    probe = _Probe()
    reg = cls()
    reg.register("get_weather", "weather", WEATHER_TOOL["function"], probe.weather)
    reg.register("search_docs", "docs", SEARCH_SCHEMA, probe.search)
    reg.register("read_file", "file", _schema("read_file", "Read a text file.", {"path": {"type": "string"}},
                                              ("path",)), probe.read)
    reg.register("docker_run", "terminal", _schema("docker_run", "Run a Docker container.",
                                                   {"image": {"type": "string"}}, ("image",)), probe.docker,
                 check_fn=_no_docker)
    reg.register("gpu_train", "ml", _schema("gpu_train", "Train a model on the GPU."), probe.boom,
                 check_fn=_broken_check)
    reg.register("explode", "debug", _schema("explode", "A tool that always fails."), probe.boom)
    reg.disable("file")
    return reg, probe


def _call(name: str, arguments: Any, call_id: str = "call_check") -> dict:
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": raw}}


def _dispatch(reg: Any, call: dict) -> Any:
    out = reg.dispatch(call)
    return run_sync(out, timeout=10) if inspect.isawaitable(out) else out


def _content(message: Any) -> Any:
    if not isinstance(message, dict):
        return None
    try:
        return json.loads(message.get("content"))
    except (TypeError, ValueError):
        return message.get("content")


def _is_error_message(message: Any, call_id: str = "call_check") -> str:
    """'' when ``message`` is a tool message for ``call_id`` whose content reports an error; else what is wrong."""
    if not isinstance(message, dict):
        return _("`dispatch` must return the tool message dict, not {error_type}.").format(error_type=type(message).__name__)
    if message.get("role") != "tool" or message.get("tool_call_id") != call_id:
        return (_("Return `tool_message(call_id, ...)` / `error(call_id, name, message)`: a `role: \"tool\"` message "
                "with the call's `tool_call_id`."))
    if not isinstance(message.get("content"), str):
        return _("A tool message's `content` must be a string (use the `error(...)` helper).")
    body = _content(message)
    if not (isinstance(body, dict) and body.get("error")):
        return _("The content should report the problem as `{{\"error\": ...}}` (use "
                  "`error(...)`); got {value!r}.").format(value=message['content'][:80])
    return ""


def _guard(report: CheckReport, name: str, fn: Callable[[], Any], what: str) -> tuple[bool, Any]:
    """Run ``fn``; a NotImplementedError or crash fails sub-check ``name`` with a kind hint."""
    try:
        return True, fn()
    except NotImplementedError as e:
        tb = e.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        where = tb.tb_frame.f_code.co_name if tb is not None else ""
        # The stub that raised may be another method (definitions() calls is_visible()).
        method = f"{where}()" if where in ("is_visible", "definitions", "dispatch") else what
        report.check(name, False, _("Write `{method}` where it says `# YOUR CODE HERE` (and "
                                     "remove the `raise`).").format(method=method))
    except Exception as e:  # the learner's code raised: say where and what
        report.check(name, False, _("`{what}` raised. It must never raise: return an error "
                                     "tool message instead.").format(what=what),
                     error=e)
    return False, None


@calm_check
def check_mini_registry(registry_class: type) -> CheckReport:
    """Check the learner's ``MiniRegistry`` class.

    Raises:
        CheckFailed: when any sub-check fails (the report lists a hint for each).
    """
    report = CheckReport(_("Exercise 03 · toolsets and validated dispatch"), more_help=HINTS.pointer())
    try:
        reg, probe = _build(registry_class)
    except Exception as e:  # e.g. the learner changed register()
        report.check(_("the registry can be created and tools registered"), False,
                     _("`MiniRegistry()` / `register(...)` failed. Keep the given `__init__` and `register` as they "
                     "are."), error=e)
        return report.finish()

    # ---- visibility and definitions
    ok, defs = _guard(report, _("definitions() lists the visible tools"), reg.definitions, "definitions()")
    if ok:
        names = []
        shape_hint = ""
        if not isinstance(defs, list):
            shape_hint = _("`definitions()` must return a list, not {error_type}.").format(error_type=type(defs).__name__)
        else:
            for d in defs:
                if isinstance(d, dict) and d.get("type") == "function" and isinstance(d.get("function"), dict):
                    names.append(d["function"].get("name"))
                else:
                    shape_hint = (_("Wrap each schema in the Chat Completions shape: "
                                  "`{\"type\": \"function\", \"function\": entry[\"schema\"]}`."))
                    break
        report.check(_("definitions() returns Chat Completions tool definitions"), not shape_hint, shape_hint)
        visible_ok = {"get_weather", "search_docs", "explode"} <= set(names)
        report.check(_("definitions() lists the visible tools, in registration order"),
                     visible_ok and [n for n in names if n in ("get_weather", "search_docs", "explode")] == [
                         "get_weather", "search_docs", "explode"],
                     _("Expected get_weather, search_docs and explode (the tools whose "
                        "toolset is on and that have no failing check); got {names}.").format(names=names))
        report.check(_("a disabled toolset is hidden (read_file, toolset 'file')"), "read_file" not in names,
                     _("Skip tools whose toolset is in `self.disabled` (the check called `disable(\"file\")`)."))
        report.check(_("an unavailable tool is hidden (docker_run: check_fn returns False)"), "docker_run" not in names,
                     _("Call the tool's `check_fn()` when it has one, and hide the tool when it returns False."))
        report.check(_("a tool whose check_fn raises is hidden, not an exception"), "gpu_train" not in names,
                     _("A check that raises means \"unavailable\": wrap `check_fn()` in `try/except Exception`."))
        reg.enable("file")
        again = reg.definitions()
        report.check(_("enable() brings a toolset back"), any(
            isinstance(d, dict) and d.get("function", {}).get("name") == "read_file" for d in again or []),
            _("Visibility must be decided when `definitions()` is called (the check called `enable(\"file\")`), not "
            "remembered from before."))
        reg.disable("file")

    # ---- dispatch
    name = _("dispatch runs a sync handler and returns its result as JSON text")
    ok, msg = _guard(report, name, lambda: _dispatch(reg, _call("get_weather", {"city": "Paris"})), "dispatch()")
    if not ok and "YOUR CODE HERE" in report.results[-1].hint:
        # dispatch() is still the stub: one hint is enough, the model round trip needs it too.
        report.check(_("the mock model uses your registry to answer a question"), False,
                     _("Finish `definitions` and `dispatch` first."))
        return report.finish()
    if ok:
        hint = ""
        if not isinstance(msg, dict) or msg.get("role") != "tool" or msg.get("tool_call_id") != "call_check":
            hint = "Return `tool_message(call_id, result)`: `{\"role\": \"tool\", \"tool_call_id\": ..., \"content\": ...}`."
        elif not isinstance(msg.get("content"), str):
            hint = _("`content` must be a string: `json.dumps(result)` (the `tool_message` helper does it).")
        elif _content(msg) != {"temp": 18, "humidity": 72}:
            hint = _("Expected the weather of Paris as JSON, got {value!r}.").format(value=msg.get('content'))
        report.check(name, not hint, hint)

    name = _("dispatch awaits an async handler")
    ok, msg = _guard(report, name, lambda: _dispatch(reg, _call("search_docs", {"query": "vpn", "limit": 2})),
                     "dispatch()")
    if ok:
        body = _content(msg) if isinstance(msg, dict) else None
        report.check(name, isinstance(body, list) and len(body) == 2 and body[0].get("title") == "vpn guide",
                     _("The handler is `async def`: calling it returns a coroutine. "
                     "`result = handler(**args)`, then `if inspect.isawaitable(result): result = await result`.")
                     + (_(" (content was {content!r:.80})").format(content=msg.get("content")) if isinstance(msg, dict) else ""))

    for label, call, handler_name, extra in [
        (_("an unknown tool name becomes an error tool message"), _call("get_stock_price", {"symbol": "ACME"}), None,
         _("Look the name up in `self.tools`; if it is not there, `return error(call_id, name, f\"unknown tool {name!r}\")`.")),
        (_("a call to a hidden tool is refused (toolset 'file' is disabled)"), _call("read_file", {"path": "a.txt"}),
         "read_file", _("Check `self.is_visible(name)` in `dispatch` too: the model may call a tool it cannot see.")),
        (_("invalid JSON arguments become an error tool message"), _call("get_weather", '{"city": "Paris"}}'), "get_weather",
         _("`json.loads` raises on invalid JSON: catch `json.JSONDecodeError` (a `ValueError`) and return an error.")),
        (_("arguments that are not an object become an error tool message"), _call("get_weather", '["Paris"]'),
         "get_weather", _("Valid JSON can still be a list or a string: check `isinstance(args, dict)`.")),
        (_("a validation error is returned as a tool message (limit=500 > maximum 20)"),
         _call("search_docs", {"query": "vpn", "limit": 500}), "search_docs",
         _("Validate before calling: `Draft202012Validator(schema[\"parameters\"], format_checker=FormatChecker())"
         ".iter_errors(args)`; if there are errors, return them in an error message and do not run the handler.")),
        (_("a misspelled argument is rejected, not dropped (\"qurey\")"), _call("search_docs", {"qurey": "vpn"}),
         "search_docs", _("The schema says `additionalProperties: false`: validating against it rejects unknown keys.")),
        (_("an exception in the handler becomes an error tool message"), _call("explode", {}), None,
         _("Wrap the handler call in `try/except Exception as e` and return `error(call_id, name, f\"{type(e).__name__}: {e}\")`.")),
    ]:
        probe.ran.clear()
        ok, msg = _guard(report, label, lambda c=call: _dispatch(reg, c), "dispatch()")
        if not ok:
            continue
        problem = _is_error_message(msg)
        ran = not problem and handler_name and handler_name in probe.ran
        if ran:
            problem = _("The handler `{handler_name}` ran although the call should have been "
                         "refused first. ").format(handler_name=handler_name) + extra
        report.check(label, not problem, problem and (problem if ran else problem + " " + extra))
        if label == _("a validation error is returned as a tool message (limit=500 > maximum 20)") and not problem:
            text = msg.get("content", "")
            report.check(_("the validation error tells the model what to fix (it names `limit`)"), "limit" in text,
                         _("Put the validator's messages (`e.message`, and where: `e.path`) in the error, so the model "
                         "knows which argument to change."))

    # ---- the model uses the registry
    name = _("the mock model uses your registry to answer a question")
    try:
        answer = _model_round(registry_class)
        report.check(name, "Paris: 18 °C" in answer,
                     _("Expected an answer with the weather of Paris; got {answer!r}.").format(answer=answer))
    except NotImplementedError:
        report.check(name, False, _("Finish `definitions` and `dispatch` first."))
    except Exception as e:  # any failure in the learner's code: one kind hint
        report.check(name, False, _("The round trip failed: fix the line named below."), error=e)
    return report.finish()


def _model_round(registry_class: type) -> str:
    """Question -> model (tools from definitions()) -> dispatch -> model -> answer."""
    reg, _ = _build(registry_class)
    client = MockLLM().client(max_retries=0)
    messages: list[dict] = [{"role": "user", "content": "What's the weather in Paris?"}]
    for _ in range(3):
        msg = client.chat.completions.create(model="mock-llm", messages=messages,
                                             tools=reg.definitions()).choices[0].message
        messages.append(as_dict(msg))
        if not msg.tool_calls:
            return msg.content or ""
        for call in msg.tool_calls:
            messages.append(_dispatch(reg, as_dict(call)))
    return ""


__all__ = ["HINTS", "check_mini_registry"]
