"""`pdfworkbench mcp`: the restricted reader's four tools over MCP, for an external agent."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.cli.output import note
from workbench.core.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("mcp", help="serve a case's four agent tools over MCP (stdio); record the "
                                   "client's submission in a run file")
    p.add_argument("suite", type=Path)
    p.add_argument("--case", metavar="ID", help="serve this case (default: the suite's first case with "
                                                "no record of this client in the run file, one per session)")
    p.add_argument("--out", type=Path, metavar="RUN.jsonl",
                   help="run file; default SUITE/runs/<suite>-mcp-<client>-tools.jsonl")
    p.add_argument("--deadline", type=float, metavar="S",
                   help="seconds of wall clock for the case, from the session's first request (default 600)")
    p.set_defaults(handler=cmd_mcp)


def cmd_mcp(args: argparse.Namespace) -> int:
    try:
        import mcp  # noqa: F401
    except ImportError:
        raise UserError("pdfworkbench mcp needs the MCP SDK: pip install 'pdfworkbench[agents]'") from None
    from workbench.providers.agent.loop import DEFAULT_DEADLINE_S
    from workbench.providers.agent.mcpserver import serve_stdio

    deadline = DEFAULT_DEADLINE_S if args.deadline is None else args.deadline
    if not deadline > 0:
        raise UserError("--deadline must be above 0 seconds")
    rec = serve_stdio(args.suite, args.case, args.out, deadline)
    if rec is None:
        note("mcp: session ended; nothing recorded")
        return 0
    note(f"mcp: {rec.case_id} {rec.status} for {rec.reader}")
    return 0
