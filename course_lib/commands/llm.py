"""``course llm serve``: the mock LLM over HTTP on 127.0.0.1 (an OpenAI-compatible base URL)."""
from __future__ import annotations

import argparse
import sys

from ..i18n import _


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("llm", help=_("the mock LLM (serve it over HTTP)"))
    llm_sub = p.add_subparsers(dest="llm_command", metavar="ACTION", required=True)
    serve = llm_sub.add_parser("serve", help=_("serve /v1/chat/completions, /v1/responses and /v1/models"))
    serve.add_argument("--host", default="127.0.0.1", help=_("interface to bind (default 127.0.0.1, loopback only)"))
    serve.add_argument("--port", type=int, default=8765, help=_("TCP port (default 8765; 0 = any free port)"))
    serve.add_argument("--model", default="mock-llm", help=_("model id listed by /v1/models"))
    serve.add_argument("--max-request-bytes", type=int, default=None, metavar="N",
                       help=_("largest request body accepted, in bytes (default 4 MiB; larger ones get a 413)"))
    serve.add_argument("--max-context-tokens", type=int, default=None, metavar="N",
                       help=_("longest prompt, in tokens of 4 characters (default 128000; longer ones get OpenAI's "
                              "400 context_length_exceeded)"))
    serve.set_defaults(func=_serve)


#: Seconds a stopping server (Ctrl+C, SIGTERM) waits for the replies in flight before it cancels them.
GRACEFUL_SHUTDOWN = 2.0


def mock_from_args(args: argparse.Namespace):
    """The :class:`~course_lib.mock_llm.MockLLM` the flags describe (model name, request and context limits).

    Raises:
        SystemExit: 2 with a one-line message for a limit that is not a positive integer.
    """
    from ..mock_llm import MockLLM
    from ..mock_llm.limits import Limits

    given = {name: getattr(args, name, None) for name in ("max_request_bytes", "max_context_tokens")}
    try:
        limits = Limits(**{k: v for k, v in given.items() if v is not None})
    except ValueError as e:
        print(f"course llm serve: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    return MockLLM(model=args.model, limits=limits)


def _serve(args: argparse.Namespace) -> int:
    from ..servers import busy_port_hint, serve_forever, tcp_listener

    if hint := busy_port_hint(args.port, args.host):
        print(hint, file=sys.stderr)
        return 2
    app = mock_from_args(args).asgi_app()  # a bad limit exits with its message before anything is bound
    sock = tcp_listener(args.host, args.port)  # TCP_NODELAY set (course_lib.servers)
    port = sock.getsockname()[1]
    print(_("Mock LLM at {url}  (any API key and model name are accepted; Ctrl+C stops)").format(
        url=f"http://{args.host}:{port}/v1"))
    print(f"  export OPENAI_BASE_URL=http://{args.host}:{port}/v1 OPENAI_API_KEY=anything")
    serve_forever("course-llm-serve", app, sock, graceful_shutdown=GRACEFUL_SHUTDOWN)
    return 0
