"""The official A2A TCK against the kit's agents: an agent built for it, and a runner.

The A2A Technology Compatibility Kit (github.com/a2aproject/a2a-tck, Apache-2.0) is a pytest suite
that drives an agent over the wire and says whether it is compliant. Its tests send generic text
("Hello from TCK!", "Task for cancel test") and expect a general-purpose agent, so the kit has two
profiles (``course a2a serve --profile ...``):

* ``finance`` (the default): lesson 11's database agent. It rightly rejects text that is not a
  finance question, so the TCK's tests that need an agent accepting any text fail on it by design;
  every other test passes (``docs/a2a-tck.md``).
* ``tck``: :class:`EchoExecutor`, an agent that accepts any text and goes through
  ``submitted`` → ``working`` → ``completed``, supports cancel, streaming, push notification
  configs and both HTTP bindings (JSON-RPC at ``POST /``, HTTP+JSON at the root: ``POST /message:send``...).

One deliberate behaviour, because of the TCK: the TCK creates tasks with a *blocking*
``SendMessage`` and then expects to cancel them, or to poll them in ``working``. A blocking call
that waits for the end (A2A 1.0 §3.1.1) could only return a finished task, which cannot be
canceled, so the echo agent acknowledges the task, returns while it is ``working`` and finishes it
in the background ``work_seconds`` later, as a long-running job would. Clients follow the rest with
``SubscribeToTask``, ``GetTask`` or push notifications.

:func:`run_tck` runs the TCK (its own virtual environment, a copy of its folder) and
:func:`read_results` turns its JSON reports into ``{test id: outcome}``.

Taught in lesson 11 (what a conformance suite checks); used by ``tests/test_a2a_tck.py``.
"""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from a2a.helpers import get_message_text, new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
from a2a.utils.constants import TransportProtocol
from starlette.applications import Starlette

from .a2a_agents import agent_message, build_agent_app
from .a2a_push import push_options

TCK_JSONRPC_PATH = "/"
TCK_REST_PATH = ""  # at the root: the TCK's REST client drops any path of the interface URL
#: The ``A2A-Version`` header, supplied through the TCK's auth settings (its JSON-RPC client sends none).
TCK_VERSION_ENV = {"A2A_AUTH_TYPE": "apikey", "A2A_AUTH_HEADER": "A2A-Version", "A2A_AUTH_TOKEN": "1.0"}


class EchoExecutor(AgentExecutor):
    """An agent for conformance suites: any text in, the same text back as an artifact.

    ``execute`` publishes the Task (``submitted``) and ``working``, then returns; a background job
    adds an artifact ``echo`` with the text and ``completed`` after ``work_seconds``. A follow-up
    message on a working task restarts the job with the new text; ``cancel`` stops the job and
    publishes ``canceled``.

    Args:
        work_seconds: how long a task stays ``working``.
    """

    def __init__(self, work_seconds: float = 3.0) -> None:
        self.work_seconds = work_seconds
        self._jobs: dict[str, asyncio.Task] = {}

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:  # noqa: D102
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        text = get_message_text(context.message) if context.message is not None else ""
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        self._stop(task.id)
        await updater.start_work(agent_message(f"Working on: {text[:200]}", task))
        job = asyncio.get_running_loop().create_task(self._finish(updater, task.id, text))
        self._jobs[task.id] = job

    async def _finish(self, updater: TaskUpdater, task_id: str, text: str) -> None:
        try:
            await asyncio.sleep(self.work_seconds)
            await updater.add_artifact([new_text_part(text)], name="echo")
            await updater.complete()
        except asyncio.CancelledError:
            pass
        except Exception:  # the server is stopping (its queues are closed): nothing left to tell
            pass
        finally:
            if self._jobs.get(task_id) is asyncio.current_task():
                del self._jobs[task_id]

    def _stop(self, task_id: str) -> None:
        job = self._jobs.pop(task_id, None)
        if job is not None:
            job.cancel()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:  # noqa: D102
        self._stop(context.task_id)
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel(
            agent_message("Canceled at the caller's request.", task_id=context.task_id,
                          context_id=context.context_id))

    def close(self) -> None:
        """Stop every background job (a stopping server)."""
        for task_id in list(self._jobs):
            self._stop(task_id)

    def __repr__(self) -> str:
        return f"EchoExecutor(work_seconds={self.work_seconds}, {len(self._jobs)} working)"


def tck_agent_card(base_url: str) -> AgentCard:
    """The echo agent's card: JSON-RPC at ``base_url/``, HTTP+JSON at ``base_url``, streaming and push.

    The card avoids what the TCK's card check flags as sensitive (the words it searches for,
    ``127.0.0.1`` in URLs: serve it with ``localhost`` as the host name).
    """
    return AgentCard(
        name="Echo agent",
        description="Answers any text: acknowledges it, works on it for a moment, returns it as an artifact.",
        version="1.0.0",
        supported_interfaces=[
            AgentInterface(url=base_url + TCK_JSONRPC_PATH, protocol_binding=TransportProtocol.JSONRPC,
                           protocol_version="1.0"),
            AgentInterface(url=base_url + TCK_REST_PATH, protocol_binding=TransportProtocol.HTTP_JSON,
                           protocol_version="1.0")],
        capabilities=AgentCapabilities(streaming=True, push_notifications=True),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[AgentSkill(id="echo", name="Echo", description="Returns the text it is sent.",
                           tags=["echo", "conformance"], examples=["hello", "Hello from TCK!"])],
    )


def build_tck_app(base_url: str, *, work_seconds: float = 3.0) -> Starlette:
    """The ``tck`` profile as a Starlette app (card, JSON-RPC at ``POST /``, HTTP+JSON at the root, push configs)."""
    return build_agent_app(tck_agent_card(base_url), EchoExecutor(work_seconds), jsonrpc_path=TCK_JSONRPC_PATH,
                           rest_path=TCK_REST_PATH, **push_options())


# --------------------------------------------------------------------------- what the TCK reports, and why

#: TCK tests (function names) that send generic text ("Hello from TCK!", "Task for cancel test") and need an
#: agent that accepts it: the finance agent rightly rejects such text, so it fails them by design.
NEEDS_ANY_TEXT: frozenset[str] = frozenset("""
    test_message_send_valid_text test_message_send_continue_task test_message_send_continue_with_contextid
    test_task_history_length test_tasks_cancel_valid test_core_method_mapping_compliance
    test_list_all_tasks test_list_tasks_validates_required_fields test_list_tasks_sorted_by_timestamp_descending
    test_filter_by_context_id test_filter_by_status test_filter_by_last_updated_after test_combined_filters
    test_custom_page_size test_page_token_navigation test_last_page_detection test_total_size_accuracy
    test_history_length_zero test_history_length_custom test_history_length_exceeds_actual
    test_artifacts_excluded_by_default test_artifacts_included_when_requested test_default_page_size_is_50
    test_partial_update_recovery test_task_state_transitions
""".split())

#: Failures that are the TCK's own bugs, with their cause (docs/a2a-tck.md gives each in full).
TCK_BUGS: dict[str, str] = {
    "test_consistent_behavior_tasks_cancel":
        "compares the 1.0 state name TASK_STATE_CANCELED with the 0.3 names ['cancelled', 'canceled', ...]",
    "test_push_notification_not_supported_error_32003_enhanced":
        "calls transport_create_task_push_notification_config with 4 arguments (it takes 2 or 3): TypeError; "
        "it only runs against an agent that does not declare push notifications",
    "test_public_agent_card_access_control":
        "builds the card URL as sut_url + '/.well-known/agent-card.json', under the JSON-RPC path when that "
        "has one (404); passes with the root layout of `course a2a serve`",
}

#: Failures the kit chooses, with the reason.
DELIBERATE: dict[str, str] = {
    "test_task_cancel_state_handling":
        "a second CancelTask on a canceled task returns the same canceled task (a retried cancel is not a "
        "failure, a2aproject/a2a-js#539); this optional quality test wants TaskNotCancelableError",
}


def tck_test_name(node_id: str) -> str:
    """The test function of a pytest node id (``...py::TestX::test_y[param]`` -> ``test_y``)."""
    return node_id.rsplit("::", 1)[-1].split("[", 1)[0]


def unexplained(run: "TckRun", *, expected: frozenset[str] | set[str] = frozenset()) -> dict[str, str]:
    """Failed tests that are neither a known TCK bug, a deliberate choice nor in ``expected``: ``{node id: category}``."""
    known = set(TCK_BUGS) | set(DELIBERATE) | set(expected)
    return {node: category for node, category in run.failed().items() if tck_test_name(node) not in known}


# --------------------------------------------------------------------------- running the TCK

@dataclass
class TckRun:
    """One run of the TCK.

    Attributes:
        returncode: ``run_tck.py``'s exit status (1 when it judges the agent not compliant).
        results: ``{report: {test id: outcome}}`` (reports ``mandatory_jsonrpc``, ``mandatory_rest``...;
            outcomes ``passed``, ``failed``, ``skipped``, ``xfailed``...).
        output: the runner's printed output (its summary table at the end).
    """

    returncode: int
    results: dict[str, dict[str, str]] = field(default_factory=dict)
    output: str = ""

    def outcomes(self, category: str) -> dict[str, int]:
        """``{outcome: count}`` for one category (``"mandatory"``: every binding; ``"mandatory_rest"``: one)."""
        counts: dict[str, int] = {}
        for key, tests in self.results.items():
            if key == category or key.startswith(category + "_"):
                for outcome in tests.values():
                    counts[outcome] = counts.get(outcome, 0) + 1
        return counts

    def failed(self) -> dict[str, str]:
        """``{"report test id": report}`` of every test that failed or errored, once per report (binding)."""
        return {f"{key} {test}": key for key, tests in self.results.items() for test, outcome in tests.items()
                if outcome in ("failed", "error")}


class TckUnavailable(RuntimeError):
    """The TCK or its dependencies could not be installed (no network, no registry)."""


def tck_requirements(tck_dir: Path) -> list[str]:
    """The TCK's Python dependencies, from its ``pyproject.toml`` (``requirements.txt`` misses some)."""
    text = (tck_dir / "pyproject.toml").read_text()
    try:
        import tomllib  # Python 3.11+
    except ImportError:  # Python 3.10: the dependencies array, read as quoted strings
        block = re.search(r"^dependencies\s*=\s*\[(.*?)^\]", text, re.S | re.M)
        return re.findall(r'"([^"]+)"', block.group(1)) if block else []
    return list(tomllib.loads(text)["project"]["dependencies"])


def tck_venv(tck_dir: Path, venv: Path, *, timeout: float = 600) -> Path:
    """A virtual environment with the TCK's dependencies at ``venv`` (created once); its Python.

    Raises:
        TckUnavailable: creating it or installing into it failed (the message says why).
    """
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    stamp = venv / ".tck-installed"
    wanted = "\n".join(tck_requirements(tck_dir))
    if stamp.exists() and stamp.read_text() == wanted:
        return python
    try:
        if not python.exists():
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=120)
        done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                               *tck_requirements(tck_dir)], capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.SubprocessError) as e:
        raise TckUnavailable(f"could not create the TCK's virtual environment: {e}") from None
    if done.returncode != 0:
        raise TckUnavailable("pip could not install the TCK's requirements: " + done.stderr.strip()[-500:])
    stamp.write_text(wanted)
    return python


def read_results(reports: Path) -> dict[str, dict[str, str]]:
    """``{report: {test id: outcome}}`` from the TCK's ``reports/*_results.json`` (pytest-json-report).

    A report is a category and a binding, as the TCK names its files: ``mandatory_jsonrpc``,
    ``capabilities_rest``, ``transport-equivalence``.
    """
    results: dict[str, dict[str, str]] = {}
    for path in sorted(reports.glob("*_results.json")):
        key = path.name[: -len("_results.json")]
        data = json.loads(path.read_text())
        tests = results.setdefault(key, {})
        for test in data.get("tests", []):
            tests[test["nodeid"]] = test["outcome"]
    return results


def run_tck(sut_url: str, *, tck_dir: Path, python: Path, transports: str = "jsonrpc,rest",
            category: str = "all", timeout: float = 1200) -> TckRun:
    """Run ``run_tck.py --sut-url URL --category all`` from a copy of ``tck_dir`` with the version header set.

    Args:
        sut_url: the agent's JSON-RPC URL (its card must be at ``/.well-known/agent-card.json`` of that host).
        tck_dir: the TCK's folder (read-only is fine: it runs from a temporary copy, where it writes its reports).
        python: the Python of :func:`tck_venv`.
        transports: the bindings to test.
        category: ``mandatory``, ``capabilities``, ... or ``all``.
        timeout: seconds before the run is stopped.

    Returns:
        A :class:`TckRun`.
    """
    with tempfile.TemporaryDirectory(prefix="a2a-tck-") as scratch:
        work = Path(scratch) / "tck"
        shutil.copytree(tck_dir, work, ignore=shutil.ignore_patterns("reports", "__pycache__", ".git"))
        env = {**os.environ, **TCK_VERSION_ENV, "PYTHONDONTWRITEBYTECODE": "1"}
        done = subprocess.run([str(python), "run_tck.py", "--sut-url", sut_url, "--category", category,
                               "--transports", transports], cwd=work, env=env, capture_output=True, text=True,
                              timeout=timeout)
        return TckRun(done.returncode, read_results(work / "reports"), done.stdout + done.stderr)


def _summary(run: TckRun) -> list[tuple[str, dict[str, int]]]:
    return [(key, run.outcomes(key)) for key in run.results]


def pass_table(runs: dict[str, TckRun]) -> str:
    """A Markdown table: one row per agent and report (category and binding), with outcome counts."""
    lines = ["| agent | category | passed | failed | skipped | xfailed |", "|---|---|---|---|---|---|"]
    for agent, run in runs.items():
        for category, counts in _summary(run):
            lines.append(f"| {agent} | {category} | {counts.get('passed', 0)} | "
                         f"{counts.get('failed', 0) + counts.get('error', 0)} | {counts.get('skipped', 0)} | "
                         f"{counts.get('xfailed', 0)} |")
    return "\n".join(lines)


__all__ = ["DELIBERATE", "EchoExecutor", "NEEDS_ANY_TEXT", "TCK_BUGS", "TCK_VERSION_ENV", "TckRun", "TckUnavailable", "build_tck_app", "pass_table",
           "read_results", "run_tck", "tck_agent_card", "tck_requirements", "tck_venv", "tck_test_name", "unexplained"]
