"""`pdfworkbench mcp`: the restricted reader's four tools over MCP, for an external agent."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.cli.logs import note
from workbench.cli.parsers import port_number
from workbench.core import files
from workbench.core.errors import UserError


def options(p: argparse.ArgumentParser) -> None:
    """The options of `mcp` (its line in --help is the command table's)."""
    p.add_argument("suite", type=Path)
    p.add_argument("--case", metavar="ID", help="serve this case (default: the suite's first case with "
                                                "no record of this client in the run file, one per session)")
    p.add_argument("--out", type=Path, metavar="RUN.jsonl",
                   help="run file; default SUITE/runs/<suite>-mcp-<client>-tools.jsonl "
                        "(-tools-http.jsonl with --http)")
    p.add_argument("--deadline", type=float, metavar="S",
                   help="seconds of wall clock for the case, from the session's first request (default 600)")
    p.add_argument("--extractor", metavar="NAME", default="pypdf",
                   help="the extractor page_text reads the text layer with (default pypdf; `pdfworkbench "
                        "readers` lists those installed)")
    p.add_argument("--http", action="store_true",
                   help="serve streamable HTTP on 127.0.0.1 (a session per case, until Ctrl-C) behind a "
                        "new token, printed with the URL")
    p.add_argument("--port", type=port_number, metavar="N", help="with --http: the port (default 0: a free one, printed)")


def cmd_mcp(args: argparse.Namespace) -> int:
    try:
        import mcp  # noqa: F401
    except ImportError:
        raise UserError("pdfworkbench mcp needs the MCP SDK: pip install 'pdfworkbench[agents]'") from None
    from workbench.providers.agent.loop import DEFAULT_DEADLINE_S
    from workbench.providers.agent.mcpserver import http_url, serve_http, serve_stdio

    if args.out is not None:
        args.out = files.typed_path(args.out)
    deadline = DEFAULT_DEADLINE_S if args.deadline is None else args.deadline
    if not deadline > 0:
        raise UserError("--deadline must be above 0 seconds")
    if args.port is not None and not args.http:
        raise UserError("--port is for --http (stdio has no port)")
    if not args.http:
        rec = serve_stdio(args.suite, args.case, args.out, deadline, args.extractor)
        if rec is None:
            note("mcp: session ended; nothing recorded")
            return 0
        note(f"mcp: {rec.case_id} {rec.status} for {rec.reader}")
        return 0
    port = 0 if args.port is None else args.port
    if not 0 <= port <= 65535:
        raise UserError(f"--port {port}: give a port from 1 to 65535 (0: a free one)")

    def announce(bound: int, token: str) -> None:
        print(f"serving the agent tools over MCP on {http_url(bound, token)} (Ctrl-C stops)", flush=True)
        print(f"a client sends the token as a header: Authorization: Bearer {token}", flush=True)

    records = serve_http(args.suite, args.case, args.out, deadline, port, announce, args.extractor)
    statuses = ", ".join(f"{r.case_id} {r.status}" for r in records) or "nothing"
    note(f"mcp: server stopped; recorded {statuses}")
    return 0
