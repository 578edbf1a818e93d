"""The commands' options: argparse calls only, one function per command (named in the command
table, `workbench.cli.commands`), grouped by area. Nothing here imports a command's code.
"""

from __future__ import annotations

import argparse


def port_number(text: str) -> int:
    """`--port`'s type: a TCP port to listen on, 0 (a free one, printed) to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0-65535)") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is out of range: a port is 0 (a free one) to 65535")
    return port


def add_jobs_option(p: argparse.ArgumentParser, what: str = "local work") -> None:
    """`--jobs N`: processes for a command's local work (default every core; output unchanged)."""
    p.add_argument("--jobs", type=int, default=0, metavar="N",
                   help=f"processes for {what} (default 0: every core); the output does not depend on it")


def add_suite_options(p: argparse.ArgumentParser) -> None:
    """The options of every command that adds a case to a suite or writes one."""
    p.add_argument("--overwrite", action="store_true", help="replace a case with the same id")
    p.add_argument("--allow-lint-errors", action="store_true",
                   help="with --into: save even when the lint finds errors (the trap may not be armed)")
