"""`llm-sizer mcp [--http]`: LLM Sizer as a Model Context Protocol server (tools estimate, plan,
fit and ask) over stdio, or over streamable HTTP at http://HOST:PORT/mcp."""

from __future__ import annotations

import argparse
from typing import Any

DEFAULT_PORT = 8765


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    p = subparsers.add_parser("mcp", help="serve the tools to MCP clients (stdio, or --http)")
    p.add_argument(
        "--http", action="store_true", help="streamable HTTP at http://HOST:PORT/mcp, not stdio"
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}")
    p.add_argument("--lang", help="en or nl, for this command's own messages")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..mcp.server import serve

    serve(args.http, args.host, args.port)
    return 0
