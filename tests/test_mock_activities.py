"""An activity slot takes the activity said, never the verb that carries it (issue 13): "I went running for 30
minutes" gave ``activity='went'``. "did some yoga", "45 minutes of cycling", "I swam for an hour" (swimming),
我跑步跑了30分钟 (跑步). Our own tools, through the openai SDK."""
from __future__ import annotations

import pytest

from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)

LOG = tool("log_activity", "Log an exercise activity.", {"activity": {"type": "string"}, "minutes": {"type": "integer"}})
WORKOUT = tool("log_workout", "Log a workout.", {
    "exercise": {"type": "string", "description": "Kind of exercise"}, "duration_minutes": {"type": "integer"}})
ZH_LOG = tool("log_exercise", "记录运动", {
    "activity": {"type": "string", "description": "运动项目"}, "minutes": {"type": "integer", "description": "时长（分钟）"}})


@pytest.mark.parametrize("text, tools, want", [
    ("Log that I went running for 30 minutes", [LOG], {"activity": "running", "minutes": 30}),
    ("Log 30 minutes of cycling", [LOG], {"activity": "cycling", "minutes": 30}),
    ("Log that I went for a swim for 40 minutes", [LOG], {"activity": "swim", "minutes": 40}),
    ("Log my workout: I did some yoga for 45 minutes", [WORKOUT], {"exercise": "yoga", "duration_minutes": 45}),
    ("Log a workout: I swam for an hour", [WORKOUT], {"exercise": "swimming", "duration_minutes": 60}),
    ("记录运动：我跑步跑了30分钟", [ZH_LOG], {"activity": "跑步", "minutes": 30}),
    ("我游泳游了一个小时，帮我记录一下运动", [ZH_LOG], {"activity": "游泳", "minutes": 60}),
])
def test_the_activity_not_its_verb(client, text, tools, want):
    (name, args), = calls(client, text, tools)
    assert args == want
