"""What ``course mcp serve --profile NAME`` serves: the course's MCP servers by name.

* ``registry`` (default): the course's tool registry as MCP (seed 000 §3.4, ``hermes mcp-serve``):
  the registry's tools (``get_weather``, ``search_wiki``), plus a resource and a prompt so
  a host sees every server primitive: ``wiki://spaces`` and the template
  ``wiki://pages/{page_id}`` (completed by ``completion/complete``), and the prompt
  ``wiki_question`` (its ``space`` argument completed too).
* ``project-manager`` and ``wiki``: the servers of lessons 08-10 (:mod:`course_lib.mcp_servers`).
* ``conformance``: the official conformance suite's fixtures (:mod:`course_lib.mcp_conformance`).

Taught in lesson 10 (``course mcp serve``); the conformance test serves every profile.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Sequence

WIKI_QUESTION_PROMPT = """Answer this question from the company wiki: {question}

Call search_wiki{scope} first, read the best pages (resource wiki://pages/<id>) if the snippets
are not enough, and cite the page ids you used. If the wiki does not answer it, say so."""


def registry_server(toolsets: Sequence[str] | None = None) -> Any:
    """The course registry as an MCP server with the wiki as resources and a ``wiki_question`` prompt.

    Args:
        toolsets: serve only these toolsets of :func:`~course_lib.mcp_bridge.course_registry` (None: all).

    Returns:
        A :class:`~course_lib.mcp_bridge.RegistryMCPServer` named ``course-tools``.
    """
    from mcp.server.mcpserver.exceptions import ResourceNotFoundError

    from .examples import WIKI_PAGES, WIKI_SPACES
    from .mcp_bridge import RegistryMCPServer, course_registry
    from .mcp_features import add_completer

    server = RegistryMCPServer(course_registry(), toolsets=toolsets)

    @server.resource("wiki://spaces", name="wiki_spaces", mime_type="application/json",
                     description="The wiki's spaces and the ids of their pages.")
    def spaces() -> str:
        return json.dumps({s: [p["id"] for p in WIKI_PAGES if p["space"] == s] for s in WIKI_SPACES})

    @server.resource("wiki://pages/{page_id}", name="wiki_page", mime_type="text/markdown",
                     description="One wiki page as Markdown (ids from search_wiki or wiki://spaces).")
    def page(page_id: str) -> str:
        found = next((p for p in WIKI_PAGES if p["id"] == page_id), None)
        if found is None:
            raise ResourceNotFoundError(f"no wiki page {page_id!r}")
        return f"# {found['title']}\n\n_space: {found['space']}_\n\n{found['text']}"

    @server.prompt(name="wiki_question", description="Ask a question the company wiki should answer "
                                                      "(search, read, cite page ids).")
    def wiki_question(question: str, space: str = "") -> str:
        scope = f' with space="{space}"' if space else ""
        return WIKI_QUESTION_PROMPT.format(question=question, scope=scope)

    add_completer(server, "template", "wiki://pages/{page_id}", "page_id", [p["id"] for p in WIKI_PAGES])
    add_completer(server, "prompt", "wiki_question", "space", list(WIKI_SPACES))
    return server


def _project_manager(toolsets: Sequence[str] | None = None) -> Any:
    from .mcp_servers import project_manager_server

    return project_manager_server()


def _wiki(toolsets: Sequence[str] | None = None) -> Any:
    from .mcp_servers import wiki_server

    return wiki_server()


def _conformance(toolsets: Sequence[str] | None = None) -> Any:
    from .mcp_conformance import conformance_server

    return conformance_server()


#: Profile name -> factory ``(toolsets) -> server``.
PROFILES: dict[str, Callable[..., Any]] = {
    "registry": registry_server, "project-manager": _project_manager, "wiki": _wiki, "conformance": _conformance,
}


def build(profile: str = "registry", toolsets: Sequence[str] | None = None) -> Any:
    """The server of ``profile`` (see :data:`PROFILES`).

    Raises:
        ValueError: an unknown profile (the message lists the known ones).
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; choose one of: {', '.join(PROFILES)}")
    return PROFILES[profile](toolsets)
