"""Checks of exercise 07: make a JSON-RPC dispatcher pass the spec's batch examples.

The learner writes ``handle(text) -> str | None`` on top of a given ``handle_one(obj)``
(which already answers a single request or notification). The check sends every example
of JSON-RPC 2.0 §7 plus two edge cases libraries get wrong and names the rule behind each failure.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from ..json_rpc import SPEC_EXAMPLES, same_reply, spec_dispatcher
from ..hints import Hints
from . import CheckReport, calm_check
from ..i18n import N_, _

#: Extra edge cases (shogowada/json-rpc-2.0#60 is a library that got the empty batch wrong): a batch holding one notification, and a lone notification.
EXTRA_CASES = [
    (N_("a batch holding one notification"),
     '[{"jsonrpc": "2.0", "method": "notify_progress", "params": {}}]', None),
    (N_("a lone notification"), '{"jsonrpc": "2.0", "method": "log", "params": {"x": 1}}', None),
]

_HINTS = {
    "rpc call with an empty Array": (N_("An empty array is not an empty batch: return ONE Invalid Request error object "
                                     "(`{\"jsonrpc\": \"2.0\", \"error\": {\"code\": -32600, ...}, \"id\": null}`), "
                                     "not `[]`.")),
    "rpc call with an invalid Batch (but not empty)": (
        N_("Judge every entry of a batch on its own: `[1]` gives an ARRAY with one Invalid Request error, "
        "not one error for the whole batch. Call `handle_one` for each entry.")),
    "rpc call with invalid Batch": N_("`[1,2,3]` gives an array of THREE errors: one per entry."),
    "rpc call Batch": (N_("In a mixed batch, keep the replies of the requests (with an id), drop the `None` of the "
                       "notifications, and keep the order.")),
    "rpc call Batch (all notifications)": (N_("When every entry is a notification, send nothing at all: return "
                                           "`None`, never `\"[]\"`.")),
    "a batch holding one notification": N_("A batch of only notifications gets no reply: return `None`."),
    "rpc call with invalid JSON": (N_("Text that is not JSON gets a Parse error (-32700) with `\"id\": null`: catch "
                                   "`json.JSONDecodeError` (a `ValueError`) around `json.loads`.")),
    "rpc call Batch, invalid JSON": N_("Broken JSON is a Parse error even when it starts with `[`."),
}


#: Hints of exercise 07
#: from a nudge to nearly the answer (``HINTS`` in the exercise, ``course hint 07``).
HINTS = Hints('07_json_rpc_batch', [
    N_('Lesson 07, section 4: a batch is an array; every entry is judged on its own by `handle_one`, and only '
    'the replies of requests (entries with an `id`) come back.'),
    N_('Three cases after `json.loads`: not a list → pass it to `handle_one`; an empty list → one Invalid '
    'Request error object (not `[]`); a non-empty list → `handle_one` on each entry, keep the replies that '
    'are not `None`.'),
    N_('`parsed = json.loads(text)` inside `try/except ValueError` (there: `return '
    'json.dumps(error_response(PARSE_ERROR))`); for a list, `replies = [r for r in (handle_one(m) for m in '
    'parsed) if r is not None]`, then `return json.dumps(replies) if replies else None`.'),
], solution_section='Your code: handle')


@calm_check
def check_json_rpc_batch(handle: Callable[[str], Any]) -> CheckReport:
    """Send the spec's examples (§7) and the extra edge cases to ``handle``; one sub-check per rule.

    Args:
        handle: the learner's ``handle(text: str) -> str | None``.

    Raises:
        CheckFailed: when any sub-check fails (the report lists hints).
    """
    report = CheckReport(_("Exercise 07 · JSON-RPC batches"), more_help=HINTS.pointer())
    for title, sent, expected in SPEC_EXAMPLES + EXTRA_CASES:
        name = _(title)  # the spec's English title (the key of _HINTS), in the learner's language
        try:
            raw = handle(sent)
        except NotImplementedError:
            report.check(name, False, _("Write your code where the exercise says `# YOUR CODE HERE` "
                                       "(and remove the `raise`)."))
            continue
        except Exception as e:  # the learner's code crashed on this input
            report.check(name, False, _(_HINTS[title]) if title in _HINTS else (_("Your function must answer every input with a reply "
                                                          "or None, never raise.")), error=e)
            continue
        if raw is not None and not isinstance(raw, str):
            report.check(name, False, _("Return JSON **text** (`json.dumps(reply)`) or "
                                          "None, not a {error_type}.").format(error_type=type(raw).__name__))
            continue
        try:
            got = None if raw is None else json.loads(raw)
        except ValueError:
            report.check(name, False, _("Your reply is not valid JSON: {value!r}").format(value=raw[:80]))
            continue
        hint = _(_HINTS[title]) if title in _HINTS else (_("This single message is handled by `handle_one`: pass it through unchanged."))
        if (got == [] or raw == "") and title not in _HINTS:
            hint = _("Never send an empty array or an empty string: return `None` when there is nothing to send.")
        report.check(name, same_reply(got, expected), hint + _(" Expected {expected}, got {got}.").format(
            expected=_shown_reply(sent, expected), got=raw))
    return report.finish()


def _shown_reply(sent: str, expected: Any) -> str:
    """The right reply to ``sent`` as the exercise's given ``handle_one`` words it (JSON text).

    The spec's examples leave out the optional ``data`` of errors, but the given ``handle_one`` adds it
    (``"data": {"method": "foo.get"}``): showing the spec's text would make the expected and the learner's
    reply differ in more than the learner's mistake. So the reference dispatcher (the one ``handle_one``
    comes from) answers, and the spec's value is used only if the two ever disagree.
    """
    reference = spec_dispatcher().handle(sent)
    answer = None if reference is None else json.loads(reference)
    return json.dumps(answer if same_reply(answer, expected) else expected)
