"""The mock decides the same way in every interpreter (issue 13 item 7: deterministic).

Python salts the hash of ``str`` per process (``PYTHONHASHSEED``), so iterating over a set of words
gives another order in another process. A decision that depends on that order changes between two
runs of the same notebook. These tests decide the same requests under several hash seeds and ask for
identical replies, and pin the kind of order dependence found: two forms of one word in a request
("reminder", "remind") that both match one word of a tool.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from course_lib.mock_llm import MockLLM
from course_lib.mock_llm.engine import score_tools
from course_lib.mock_llm.wire import parse_chat_request


def tool(name, description, **props):
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": props, "required": list(props)[:1]}}}


TIMER = tool("start_timer", "Start a countdown for a duration, such as a general reminder or a break",
             duration={"type": "string", "description": "How long, e.g. '25 minutes'"})
ALARM = tool("set_alarm", "Set an alarm for a clock time",
             alarm_time={"type": "string", "description": "The time, e.g. '07:30' or '9 PM'"},
             label={"type": "string", "description": "What the alarm is for"})


def _score(text, *tools):
    req = parse_chat_request({"model": "m", "messages": [{"role": "user", "content": text}], "tools": list(tools)})
    return {t.name: (s, m) for t, s, m in score_tools(text, req.tools)}


def test_two_forms_of_one_word_in_the_request_count_once_for_the_tool():
    one = _score("Reminder: start it", TIMER)["start_timer"]
    two = _score("Reminder: remind me, start it", TIMER)["start_timer"]
    assert one[0] == two[0], (one, two)
    assert len([w for w in two[1] if w.startswith("remind")]) == 1, two


def test_a_reminder_at_a_clock_time_is_an_alarm_not_a_countdown_named_reminder():
    d = MockLLM().explain([{"role": "user", "content": "Set a Reminder to water the plants at 9PM"}], [TIMER, ALARM])
    assert [c.name for c in d.tool_calls] == ["set_alarm"], d
    assert d.tool_calls[0].arguments["alarm_time"] in ("21:00", "9PM", "9 PM"), d


_SCRIPT = textwrap.dedent("""
    import json, sys
    from course_lib.mock_llm import MockLLM
    cases = json.loads(sys.stdin.read())
    out = []
    for messages, tools in cases:
        d = MockLLM().explain(messages, tools)
        out.append([[c.name, c.arguments] for c in d.tool_calls] + [d.content])
    print(json.dumps(out, ensure_ascii=False, sort_keys=True))
""")

_WEATHER = tool("get_weather", "Get the current weather for a city", city={"type": "string"},
                unit={"type": "string", "enum": ["celsius", "fahrenheit"]})
_CASES = [
    ([{"role": "user", "content": "Set a Reminder to text Sam at 11PM"}], [TIMER, ALARM]),
    ([{"role": "user", "content": "Remind me in 20 minutes to take a break"}], [TIMER, ALARM]),
    ([{"role": "user", "content": "What's the weather in Paris and in Tokyo, in celsius?"}], [_WEATHER, ALARM]),
    ([{"role": "user", "content": "上海和北京今天天气怎么样？"}], [_WEATHER, TIMER]),
    ([{"role": "user", "content": "晚上九点提醒我给妈妈打电话"}], [TIMER, ALARM]),
]


def test_the_same_requests_get_the_same_replies_under_every_hash_seed():
    replies = set()
    for seed in ("0", "1", "7"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run([sys.executable, "-c", _SCRIPT], input=json.dumps(_CASES), capture_output=True,
                             text=True, env=env, timeout=120, check=True)
        replies.add(run.stdout)
    assert len(replies) == 1, replies
    assert json.loads(replies.pop())[0][0][0] == "set_alarm"
