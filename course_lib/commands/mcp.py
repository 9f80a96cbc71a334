"""``course mcp serve|tools``: the course's tool registry as an MCP server (seed 000 §3.4, ``hermes mcp-serve``).

``course mcp serve`` speaks MCP over stdio by default, so an MCP host can start it as a
child process (Claude Desktop, an IDE, the MCP Inspector:
``npx @modelcontextprotocol/inspector --cli course mcp serve --method tools/list``);
``--transport http`` serves streamable HTTP on 127.0.0.1 instead. ``--profile`` picks another
server (a lesson's, or the official conformance suite's fixtures: ``--profile conformance``). Lesson 10.
"""
from __future__ import annotations

import argparse
import sys

from ..i18n import _


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("mcp", help=_("serve the course's tools over MCP (stdio or streamable HTTP)"))
    mcp_sub = p.add_subparsers(dest="mcp_command", metavar="ACTION", required=True)
    serve = mcp_sub.add_parser("serve", help=_("run the course's tool registry as an MCP server"))
    serve.add_argument("--transport", choices=["stdio", "http"], default="stdio",
                       help=_("stdio (default: for a host that starts this process) or http (streamable HTTP)"))
    serve.add_argument("--port", type=int, default=0, help=_("HTTP port on 127.0.0.1 (default: a free one)"))
    serve.add_argument("--toolset", action="append", dest="toolsets", metavar="NAME",
                       help=_("serve only this toolset (repeatable; default: all)"))
    serve.add_argument("--profile", default="registry", choices=["registry", "project-manager", "wiki", "conformance"],
                       help=_("which server: the course registry (default), a lesson's server, or the official "
                              "conformance suite's fixtures (course_lib.mcp_profiles)"))
    serve.add_argument("--auth", action="store_true",
                       help=_("HTTP only: protect the server with OAuth 2.1 (MCP authorization), its own authorization "
                              "server included; prints the URLs and a token for curl (lesson 10a)"))
    serve.set_defaults(func=_serve)
    tools = mcp_sub.add_parser("tools", help=_("list the tools `course mcp serve` exposes"))
    tools.add_argument("--toolset", action="append", dest="toolsets", metavar="NAME")
    tools.set_defaults(func=_tools)


def _serve(args: argparse.Namespace) -> int:
    from ..mcp_bridge import serve
    from ..servers import busy_port_hint

    if args.transport != "stdio" and (hint := busy_port_hint(args.port)):
        print(hint, file=sys.stderr)
        return 2
    from ..mcp_profiles import build

    server = build(args.profile, args.toolsets)
    if args.auth:
        if args.transport != "http":
            print(_("--auth protects an HTTP server (stdio servers inherit the user's rights): add --transport http"),
                  file=sys.stderr)
            return 2
        from ..mcp_auth import SCOPES, TOOL_SCOPES, serve_with_auth

        if args.profile == "project-manager":  # the scopes of lesson 10a, with step-up for the writing tools
            serve_with_auth(server, port=args.port, scopes=list(SCOPES), tool_scopes=TOOL_SCOPES)
        else:
            serve_with_auth(server, port=args.port)
        return 0
    serve(transport=args.transport, port=args.port, server=server)
    return 0


def _tools(args: argparse.Namespace) -> int:
    from ..mcp_bridge import course_registry, describe_tools

    print(describe_tools(course_registry().definitions("mcp", toolsets=args.toolsets)))
    return 0
