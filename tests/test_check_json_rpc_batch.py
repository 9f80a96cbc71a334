"""Exercise 07's check names each typical batch mistake."""
from __future__ import annotations

import json

import pytest

from course_lib.checks import CheckFailed
from course_lib.checks.json_rpc_batch import check_json_rpc_batch
from course_lib.json_rpc import INVALID_REQUEST, PARSE_ERROR, error_response, spec_dispatcher

one = spec_dispatcher().handle_one


def _parse(text):
    try:
        return json.loads(text), None
    except ValueError:
        return None, json.dumps(error_response(PARSE_ERROR))


def empty_array_is_empty(text):
    msg, err = _parse(text)
    if err:
        return err
    if isinstance(msg, list):
        replies = [r for r in map(one, msg) if r is not None]
        return json.dumps(replies) if replies or not msg else None
    r = one(msg)
    return None if r is None else json.dumps(r)


def whole_batch_rejected(text):  # what the json-rpc library does
    msg, err = _parse(text)
    if err:
        return err
    if isinstance(msg, list):
        if not msg or not all(isinstance(m, dict) and m.get("jsonrpc") == "2.0" and "method" in m for m in msg):
            return json.dumps(error_response(INVALID_REQUEST))
        replies = [r for r in map(one, msg) if r is not None]
        return json.dumps(replies) if replies else None
    r = one(msg)
    return None if r is None else json.dumps(r)


def notifications_get_empty_array(text):
    msg, err = _parse(text)
    if err:
        return err
    if isinstance(msg, list):
        if not msg:
            return json.dumps(error_response(INVALID_REQUEST))
        return json.dumps([r for r in map(one, msg) if r is not None])
    r = one(msg)
    return None if r is None else json.dumps(r)


def no_parse_error(text):
    msg = json.loads(text)
    if isinstance(msg, list):
        if not msg:
            return json.dumps(error_response(INVALID_REQUEST))
        replies = [r for r in map(one, msg) if r is not None]
        return json.dumps(replies) if replies else None
    r = one(msg)
    return None if r is None else json.dumps(r)


def returns_objects(text):
    msg, err = _parse(text)
    return json.loads(err) if err else one(msg) if isinstance(msg, dict) else None


@pytest.mark.parametrize("attempt, failing, words", [
    (empty_array_is_empty, "rpc call with an empty Array", "ONE Invalid Request"),
    (whole_batch_rejected, "rpc call with an invalid Batch (but not empty)", "on its own"),
    (notifications_get_empty_array, "rpc call Batch (all notifications)", "return `None`"),
    (no_parse_error, "rpc call with invalid JSON", "json.JSONDecodeError"),
    (returns_objects, "rpc call with positional parameters", "JSON **text**"),
])
def test_typical_mistakes_get_their_own_hint(attempt, failing, words):
    with pytest.raises(CheckFailed) as e:
        check_json_rpc_batch(attempt)
    failed = {r.name: r.hint for r in e.value.report.results if not r.passed}
    assert failing in failed and words in failed[failing]


def test_the_dispatcher_itself_passes():
    assert check_json_rpc_batch(spec_dispatcher().handle).passed


def keeps_the_none_of_notifications(text):   # a typical mistake: no filtering of None
    msg, err = _parse(text)
    if err:
        return err
    if isinstance(msg, list):
        return json.dumps([one(m) for m in msg]) if msg else json.dumps(error_response(INVALID_REQUEST))
    r = one(msg)
    return None if r is None else json.dumps(r)


def test_expected_reply_is_worded_like_the_given_handle_one_so_only_the_mistake_differs():
    with pytest.raises(CheckFailed) as e:
        check_json_rpc_batch(keeps_the_none_of_notifications)
    hint = next(r.hint for r in e.value.report.results if r.name == "rpc call Batch")
    expected = json.loads(hint.split(" Expected ", 1)[1].split(", got ")[0])
    got = json.loads(hint.split(", got ", 1)[1].rstrip("."))
    assert {"code": -32601, "message": "Method not found", "data": {"method": "foo.get"}} in [
        r.get("error") for r in expected]
    assert [r for r in got if r is not None] == expected, "only the learner's None entries differ"


def test_the_stub_fails_every_case_with_one_hint_said_once():
    def stub(text):
        raise NotImplementedError("Your turn")

    with pytest.raises(CheckFailed) as e:
        check_json_rpc_batch(stub)
    text = e.value.report.text()
    assert text.count("hint: ") == 1 and "❌ 17 checks fail for one reason" in text


def test_hint_3_uses_only_names_the_stub_defines():
    from course_lib.checks.json_rpc_batch import HINTS

    last = HINTS.steps[-1]
    assert "message" not in last and "json.loads(text)" in last and "handle_one" in last
