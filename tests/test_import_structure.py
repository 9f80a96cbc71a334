"""What importing the course's modules brings in (issue 15: first cells and stdio start-up).

Each probe runs in a fresh interpreter and reads ``sys.modules``: structure, not time. A lesson's first
cell imports names from these modules; what it does not use (matplotlib before a figure, the MCP SDK in a
function-calling lesson, the A2A SDK anywhere but lesson 11) must not be imported with them.
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

HEAVY = ("matplotlib", "numpy", "ipywidgets", "mcp", "a2a", "openai", "pydantic_ai", "uvicorn", "nbformat")


def loaded_after(code: str) -> dict[str, bool]:
    """Run ``code`` in a fresh interpreter; which of :data:`HEAVY` (and a few more) ended up imported."""
    probe = code + textwrap.dedent(f"""
        import json as _json, sys as _sys
        print(_json.dumps({{m: m in _sys.modules for m in {HEAVY!r}}}))
    """)
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                         env={"COURSE_LLM": "mock", "PATH": ""})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def imported(facts: dict[str, bool]) -> set[str]:
    return {name for name, yes in facts.items() if yes}


def test_import_course_lib_imports_no_sdk_and_no_plotting():
    assert imported(loaded_after("import course_lib; course_lib.__all__")) == set()


def test_diagram_and_trace_modules_import_matplotlib_only_when_a_figure_is_made():
    code = "from course_lib import diagrams, tracing, message_flow, orchestration, scale_guide, a2a_states\n"
    assert "matplotlib" not in imported(loaded_after(code))
    drawn = loaded_after(code + "diagrams.figure(2, 1, text='x')\n")
    assert drawn["matplotlib"]


def test_a_figure_gets_the_course_style_and_is_a_course_figure():
    code = textwrap.dedent("""
        import matplotlib
        from course_lib import diagrams
        fig = diagrams.figure(2, 1, text='fallback')
        cycle = [c['color'] for c in matplotlib.rcParams['axes.prop_cycle']]
        assert cycle[0] == diagrams.OKABE_ITO['blue'], cycle
        assert matplotlib.rcParams['axes.spines.top'] is False
        assert type(fig) is diagrams.CourseFigure and fig.fallback_text == 'fallback'
        assert repr(fig) == '[figure]\\nfallback'
    """)
    loaded_after(code)


def test_function_calling_lessons_first_imports_bring_neither_mcp_a2a_nor_matplotlib():
    # lessons 01-06's first cells, as they import
    code = textwrap.dedent("""
        from course_lib.agent import Agent
        from course_lib.examples import WEATHER_TOOL, get_weather
        from course_lib.function_calling import as_dict, tool_loop
        from course_lib.llm_client import backend, default_mock, default_model, get_client
        from course_lib.message_flow import draw_message_flow, show_messages
        from course_lib.orchestration import TaskGraph
        from course_lib.resilience import Backoff, harden
        from course_lib.security import CommandPolicy
        from course_lib.tool_registry import ToolRegistry
        from course_lib.tracing import Trace
        client = get_client()
        mock = default_mock()
    """)
    assert imported(loaded_after(code)) == {"openai"}


def test_mcp_lessons_first_imports_bring_no_llm_client_a2a_or_matplotlib():
    code = textwrap.dedent("""
        from course_lib.mcp_servers import CourseMCPServer, demo_server, project_manager_server
        from course_lib.mcp_trace import traced_client, wire_text
        from course_lib.mcp_transports import StdioMCP, course_server_params
        from course_lib.tracing import Trace
    """)
    assert imported(loaded_after(code)) <= {"mcp", "uvicorn"}


def test_course_mcp_serve_over_stdio_imports_neither_the_llm_client_nor_plotting():
    # the real command line path up to the point where it would start serving stdio
    code = textwrap.dedent("""
        import sys
        import course_lib.mcp_transports as transports
        served = {}
        transports.run_stdio_server = lambda server: served.update(server=server)  # stop where the loop would start
        from course_lib.cli import main
        assert main(["mcp", "serve"]) == 0
        assert type(served["server"]).__name__ == "RegistryMCPServer", served
        for name in ("course_lib.llm_client", "course_lib.mock_llm", "course_lib.mcp_auth", "course_lib.notebooks"):
            assert name not in sys.modules, name
    """)
    assert imported(loaded_after(code)) <= {"mcp", "uvicorn"}


def _a2a_tracing(env: dict[str, str], pythonpath: str = "") -> dict:
    """In a fresh interpreter: import the course first, then the A2A server SDK; whether its spans are on."""
    probe = textwrap.dedent("""
        import json, os
        import course_lib
        from course_lib import a2a_agents
        import a2a.utils.telemetry as t
        print(json.dumps({"enabled": t.otel_enabled, "var": os.environ.get("OTEL_INSTRUMENTATION_A2A_SDK_ENABLED")}))
    """)
    full = {"COURSE_LLM": "mock", "PATH": "", **env, **({"PYTHONPATH": pythonpath} if pythonpath else {})}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, env=full)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a2a_spans_are_off_when_no_opentelemetry_sdk_could_record_them():
    # the kit's environment has opentelemetry-api (mcp needs it) but not the SDK: every span would be a no-op
    assert _a2a_tracing({}) == {"enabled": False, "var": "false"}


def test_a2a_spans_stay_as_the_deployer_set_them(tmp_path):
    assert _a2a_tracing({"OTEL_INSTRUMENTATION_A2A_SDK_ENABLED": "true"}) == {"enabled": True, "var": "true"}
    # with the OpenTelemetry SDK importable (a stub package here; opentelemetry is a namespace package)
    # the SDK's default stays: spans on
    (tmp_path / "opentelemetry" / "sdk").mkdir(parents=True)
    (tmp_path / "opentelemetry" / "sdk" / "__init__.py").write_text("")
    assert _a2a_tracing({}, pythonpath=str(tmp_path)) == {"enabled": True, "var": None}
