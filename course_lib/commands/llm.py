"""``course llm serve``: the mock LLM over HTTP on 127.0.0.1 (an OpenAI-compatible base URL)."""
from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("llm", help="the mock LLM (serve it over HTTP)")
    llm_sub = p.add_subparsers(dest="llm_command", metavar="ACTION", required=True)
    serve = llm_sub.add_parser("serve", help="serve /v1/chat/completions, /v1/responses and /v1/models")
    serve.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1, loopback only)")
    serve.add_argument("--port", type=int, default=8765, help="TCP port (default 8765; 0 = any free port)")
    serve.add_argument("--model", default="mock-llm", help="model id listed by /v1/models")
    serve.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from ..mock_llm import MockLLM
    from ..servers import busy_port_hint, free_port

    if hint := busy_port_hint(args.port, args.host):
        print(hint, file=sys.stderr)
        return 2
    port = args.port or free_port(args.host)
    print(f"Mock LLM at http://{args.host}:{port}/v1  (any API key and model name are accepted; Ctrl+C stops)")
    print(f"  export OPENAI_BASE_URL=http://{args.host}:{port}/v1 OPENAI_API_KEY=anything")
    uvicorn.run(MockLLM(model=args.model).asgi_app(), host=args.host, port=port, log_level="warning")
    return 0
