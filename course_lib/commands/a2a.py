"""``course a2a serve``: an A2A agent on 127.0.0.1 (the finance agent, or the agent built for the TCK)."""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from ..i18n import _

PROFILES = ("finance", "tck")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("a2a", help=_("serve an A2A agent (the finance agent, or one for the official TCK)"))
    a2a_sub = p.add_subparsers(dest="a2a_command", metavar="ACTION", required=True)
    serve = a2a_sub.add_parser("serve", help=_("serve an agent: its card at /.well-known/agent-card.json, "
                                               "JSON-RPC and HTTP+JSON"))
    serve.add_argument("--profile", choices=PROFILES, default="finance",
                       help=_("finance: lesson 11's database agent (default); tck: an agent that accepts any "
                              "text, built for the A2A TCK"))
    serve.add_argument("--port", type=int, default=9999, help=_("TCP port (default 9999; 0 = any free port)"))
    serve.add_argument("--card-host", default="localhost",
                       help=_("the host name the Agent Card advertises (default localhost; the server binds "
                              "127.0.0.1 only)"))
    serve.set_defaults(func=_serve)


def build(profile: str, base_url: str, *, db_dir: Path | None = None):
    """The ASGI app of ``profile`` whose card advertises ``base_url``; the JSON-RPC URL to test it with."""
    from .. import a2a_agents as ag

    from ..a2a_tck import TCK_JSONRPC_PATH, TCK_REST_PATH, build_tck_app

    if profile == "tck":
        return build_tck_app(base_url), base_url + TCK_JSONRPC_PATH
    from ..examples import create_finance_db

    # The command line serves both profiles with the root layout (JSON-RPC at POST /, HTTP+JSON at /message:send
    # ...): the layout the TCK's clients assume (its REST client drops the path of the interface URL).
    folder = db_dir or Path(tempfile.mkdtemp(prefix="course-a2a-"))
    executor = ag.FinanceAgentExecutor(create_finance_db(folder / "finance.db"), step_delay=0.0)
    card = ag.finance_agent_card(base_url, jsonrpc_path=TCK_JSONRPC_PATH, rest_path=TCK_REST_PATH)
    return (ag.build_agent_app(card, executor, jsonrpc_path=TCK_JSONRPC_PATH, rest_path=TCK_REST_PATH),
            base_url + TCK_JSONRPC_PATH)


def _serve(args: argparse.Namespace) -> int:
    from ..servers import busy_port_hint, serve_forever, tcp_listener

    host = "127.0.0.1"
    if hint := busy_port_hint(args.port, host):
        print(hint, file=sys.stderr)
        return 2
    sock = tcp_listener(host, args.port)  # bound before the card is written: it names the real port; TCP_NODELAY
    port = sock.getsockname()[1]
    base = f"http://{args.card_host}:{port}"
    app, rpc_url = build(args.profile, base)
    name = "Finance DB agent" if args.profile == "finance" else "Echo agent (TCK profile)"
    print(f"{name} at http://{host}:{port}  " + _("(Ctrl+C stops)"))
    print(f"  Agent Card: http://{host}:{port}/.well-known/agent-card.json")
    print(f"  JSON-RPC:   {rpc_url}   " + _("(send the header A2A-Version: 1.0)"))
    print(f"  TCK:        A2A_AUTH_TYPE=apikey A2A_AUTH_HEADER=A2A-Version A2A_AUTH_TOKEN=1.0 "
          f"./run_tck.py --sut-url {rpc_url} --category all --transports jsonrpc,rest", flush=True)
    serve_forever(f"course-a2a-serve-{args.profile}", app, sock, graceful_shutdown=2.0)
    return 0
