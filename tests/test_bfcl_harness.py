"""The BFCL harness scores what it should: a known-good fake gets 100 %, a known-bad one 0 %.

The items are synthetic (written here, in BFCL's file format), so the scorer is proven
without the BFCL data: dotted names, ``dict``/``float`` types, ``""`` for "may be left
out", string normalisation, int-for-float, parallel calls in any order, irrelevance.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks import bfcl  # noqa: E402

ALARM = {"name": "clock.set_alarm", "description": "Set an alarm at a given hour.",
         "parameters": {"type": "dict", "properties": {
             "hour": {"type": "integer", "description": "Hour of the day, 0-23."},
             "label": {"type": "string", "description": "A name for the alarm."},
             "volume": {"type": "float", "description": "Loudness between 0 and 1."}},
             "required": ["hour"]}}
CONVERT = {"name": "units.convert", "description": "Convert a length between units.",
           "parameters": {"type": "dict", "properties": {
               "value": {"type": "float", "description": "The length."},
               "to_unit": {"type": "string", "enum": ["m", "ft"], "description": "Target unit."},
               "box": {"type": "dict", "description": "A bounding box.", "properties": {
                   "w": {"type": "integer", "description": "width"}, "h": {"type": "integer", "description": "height"}}},
               "tags": {"type": "array", "items": {"type": "string"}, "description": "Labels."}},
               "required": ["value", "to_unit"]}}

# (category, id, question, functions, accepted calls, a good reply, a bad reply)
CASES = [
    ("simple_python", "simple_python_0", "Wake me at seven", [ALARM],
     [{"clock.set_alarm": {"hour": [7], "label": ["", "wake up"], "volume": ["", 0.5]}}],
     [("clock_set_alarm", {"hour": 7, "label": "Wake-Up"})],  # normalised string, optional present
     [("clock_set_alarm", {"hour": 7.0})]),  # a float where an integer is expected
    ("simple_python", "simple_python_1", "Quiet alarm at 6", [ALARM],
     [{"clock.set_alarm": {"hour": [6], "label": [""], "volume": [0.2, ""]}}],
     [("clock_set_alarm", {"hour": 6})],  # optional left out
     [("clock_set_alarm", {"hour": 6, "volume": 0.3})]),  # wrong value
    ("simple_python", "simple_python_2", "Convert 3 metres to feet, box 2 by 4, tags a and b", [CONVERT],
     [{"units.convert": {"value": [3.0], "to_unit": ["ft"], "box": [{"w": [2], "h": [4, ""]}],
                         "tags": [["a", "b"], ["b", "a"]]}}],
     [("units_convert", {"value": 3, "to_unit": "FT", "box": {"w": 2}, "tags": ["b", "a"]})],  # int for float
     [("units_convert", {"value": 3, "to_unit": "ft", "box": {"w": 2, "d": 1}, "tags": ["b", "a"]})]),
    ("multiple", "multiple_0", "Convert 10 ft to metres", [ALARM, CONVERT],
     [{"units.convert": {"value": [10.0], "to_unit": ["m"], "box": [""], "tags": [""]}}],
     [("units_convert", {"value": 10.0, "to_unit": "m"})],
     [("clock_set_alarm", {"hour": 10})]),  # wrong function
    ("multiple", "multiple_1", "Alarm at 9 called gym", [ALARM, CONVERT],
     [{"clock.set_alarm": {"hour": [9], "label": ["gym"], "volume": [""]}}],
     [("clock_set_alarm", {"hour": 9, "label": "gym"})],
     [("clock_set_alarm", {"hour": 9})]),  # a needed optional left out
    ("parallel", "parallel_0", "Alarms at 5 and at 8", [ALARM],
     [{"clock.set_alarm": {"hour": [5]}}, {"clock.set_alarm": {"hour": [8]}}],
     [("clock_set_alarm", {"hour": 8}), ("clock_set_alarm", {"hour": 5})],  # any order
     [("clock_set_alarm", {"hour": 5})]),  # one call short
    ("parallel", "parallel_1", "Alarms at 1 and 2", [ALARM],
     [{"clock.set_alarm": {"hour": [1]}}, {"clock.set_alarm": {"hour": [2]}}],
     [("clock_set_alarm", {"hour": 1}), ("clock_set_alarm", {"hour": 2})],
     [("clock_set_alarm", {"hour": 1}), ("clock_set_alarm", {"hour": 1})]),  # no one-to-one match
    ("irrelevance", "irrelevance_0", "Who painted the ceiling of the Sistine Chapel?", [ALARM], None,
     [], [("clock_set_alarm", {"hour": 1})]),
]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    by_cat: dict[str, list] = {}
    for cat, item_id, question, functions, answers, _, _ in CASES:
        by_cat.setdefault(cat, []).append((item_id, question, functions, answers))
    for cat, rows in by_cat.items():
        with open(tmp_path / f"BFCL_v4_{cat}.json", "w") as f:
            for item_id, question, functions, _ in rows:
                f.write(json.dumps({"id": item_id, "question": [[{"role": "user", "content": question}]],
                                    "function": functions}) + "\n")
        if cat != "irrelevance":
            with open(tmp_path / f"BFCL_v4_{cat}.answers.json", "w") as f:
                for item_id, _, _, answers in rows:
                    f.write(json.dumps({"id": item_id, "ground_truth": answers}) + "\n")
    return tmp_path


def fake(which: int):
    """A model that answers each question from the table (5: the good reply, 6: the bad one)."""
    table = {case[2]: case[which] for case in CASES}

    def ask(messages, tools):
        return bfcl.Reply(calls=list(table[messages[-1]["content"]]), content=None)

    return ask


def test_loading_maps_types_and_names(data_dir):
    item = bfcl.load_category(data_dir, "simple_python")[2]
    params = item.tools[0]["function"]["parameters"]
    assert item.tools[0]["function"]["name"] == "units_convert"
    assert params["type"] == "object" and params["properties"]["value"]["type"] == "number"
    assert params["properties"]["box"]["type"] == "object"
    assert list(item.answers[0]) == ["units_convert"]
    assert bfcl.load_category(data_dir, "irrelevance")[0].answers is None


def test_known_good_fake_scores_100_percent(data_dir):
    results = bfcl.run(data_dir, fake(5))
    assert {c: (r.passed, r.total) for c, r in results.items()} == {
        "simple_python": (3, 3), "multiple": (2, 2), "parallel": (2, 2), "irrelevance": (1, 1)}


def test_known_bad_fake_scores_0_percent_with_the_right_kinds(data_dir):
    results = bfcl.run(data_dir, fake(6))
    assert all(r.passed == 0 for r in results.values())
    kinds = {i: k for r in results.values() for i, k in r.failures}
    assert kinds == {
        "simple_python_0": "wrong_value:integer", "simple_python_1": "wrong_value:number",
        "simple_python_2": "wrong_value:object", "multiple_0": "wrong_function", "multiple_1": "missing:string",
        "parallel_0": "too_few_calls", "parallel_1": "wrong_value:integer", "irrelevance_0": "called_a_tool"}


def test_no_call_and_errors_are_failures(data_dir):
    item = bfcl.load_category(data_dir, "simple_python")[0]
    assert bfcl.score_item(item, bfcl.Reply(content="Which hour?")) == "no_call:asked"
    assert bfcl.score_item(item, bfcl.Reply(content="I can't.")) == "no_call:declined"
    assert bfcl.score_item(item, bfcl.Reply(error="http_400: bad")) == "error:http_400"
    assert bfcl.score_item(item, bfcl.Reply(calls=[("clock_set_alarm", {"hour": 7, "snooze": 1})])) == \
        "unexpected_param"


def test_the_sdk_path_scores_a_scripted_mock(data_dir):
    """Through the real openai SDK: the mock scripted with the good replies passes everything."""
    from course_lib.mock_llm import MockLLM

    mock = MockLLM()
    items = [i for c in bfcl.CATEGORIES if (data_dir / f"BFCL_v4_{c}.json").exists()
             for i in bfcl.load_category(data_dir, c)]
    good = {case[1]: case[5] for case in CASES}
    for item in items:
        calls = good[item.id]
        mock.script({"tool_calls": [{"name": n, "arguments": json.dumps(a)} for n, a in calls]} if calls else "No tool fits.")
    model = bfcl.sdk_model(mock.client(max_retries=0))
    assert [bfcl.score_item(i, model(i.messages, i.tools)) for i in items] == [None] * len(items)


def test_placeholder_baseline_calls_every_tool():
    tool = bfcl.to_openai_tool(CONVERT)
    args = bfcl.PlaceholderLLM.placeholder(tool["function"]["parameters"])
    assert args == {"value": 0.0, "to_unit": "m"}


def test_precision_counts_right_calls_among_replies_that_call(data_dir):
    """Precision: right replies among those that make a call; no-call replies are counted apart."""
    table = {case[2]: case[5] for case in CASES}
    table["Quiet alarm at 6"] = []  # one honest no-call reply instead of a right call
    table["Alarms at 5 and at 8"] = [("clock_set_alarm", {"hour": 5})]  # one wrong call

    def ask(messages, tools):
        return bfcl.Reply(calls=list(table[messages[-1]["content"]]), content="Which hour?")

    results = bfcl.run(data_dir, ask)
    simple, parallel, irrelevance = results["simple_python"], results["parallel"], results["irrelevance"]
    assert (simple.called, simple.called_right, simple.no_call, simple.wrong_calls) == (2, 2, 1, 0)
    assert simple.precision == 1.0 and simple.accuracy == 2 / 3
    assert (parallel.precision, parallel.wrong_calls) == (0.5, 1)
    assert irrelevance.precision is None and irrelevance.no_call == 1  # it made no call: nothing to be precise about
    assert "precision" in bfcl.table({"m": results}) and bfcl.to_json({"m": results})["m"]["parallel"]["precision"] == 0.5
