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
