"""`pdfworkbench serve`: the workbench in a web browser (textual-serve), behind a token."""

from __future__ import annotations

import argparse
import shlex
import sys

from workbench.cli.app import open_checked, sample_suite_path
from workbench.core.errors import UserError
from workbench.core.httpguard import MIN_TOKEN_CHARS, is_loopback, new_token
from workbench.tui.serve import served_url, token_server


def cmd_serve(args: argparse.Namespace) -> int:
    path = (args.path or sample_suite_path()).resolve()
    host = args.host.strip().strip("[]")
    remote = not is_loopback(host)
    if remote and not args.allow_remote:
        raise UserError(f"--host {args.host} serves the workbench, which reads and writes files, to "
                        "other machines; add --allow-remote to mean it (its token is then all that guards it)")
    if args.token is not None and len(args.token) < MIN_TOKEN_CHARS:
        raise UserError(f"--token must be at least {MIN_TOKEN_CHARS} characters (a short one can be "
                        "guessed); leave it out for a new random one")
    if not 0 <= args.port <= 65535:
        raise UserError(f"--port {args.port}: give a port from 1 to 65535 (0: a free one)")
    open_checked(path)  # a clear error now, not in the browser
    try:
        import textual_serve.server  # noqa: F401  (an optional extra: said in one line when missing)
    except ImportError:
        raise UserError("serving needs textual-serve: pip install 'pdfworkbench[serve]'") from None
    token = args.token or new_token()
    command = f"{shlex.quote(sys.executable)} -m workbench open {shlex.quote(str(path))}"

    def announce(port: int) -> None:
        if remote:
            print(f"pdfworkbench: warning: serving to the network on {args.host}; anyone with the token "
                  "can read and write files as you", file=sys.stderr, flush=True)
        print(f"serving the workbench on {served_url(host, port, token)} (Ctrl-C stops)", flush=True)

    token_server(command, host, token).run(args.port, announce)
    return 0
