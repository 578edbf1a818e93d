"""Commands that start the workbench: open (the default) and serve."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.cli.output import port_number

if TYPE_CHECKING:
    from workbench.core.source import Source


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("open", help="open the workbench on a suite, a case JSON, a PDF or a run (default)")
    p.add_argument("path", nargs="?", type=Path, help="default: the shipped sample suite")
    p.add_argument("--graphics", choices=["halfblock", "hires"], default=None,
                   help="page images: half-block characters (any terminal; the default) or hires "
                        "(Sixel or Kitty graphics through textual-image, where the terminal has them)")
    p.add_argument("--who", help="your name on dispute decisions (default: $PDFWORKBENCH_USER, the "
                                 "config's user, or your login)")
    p.add_argument("--password", help="password of encrypted PDFs (without it, the workbench asks)")
    p.set_defaults(handler=cmd_open)

    p = sub.add_parser("serve", help="serve the workbench to a web browser (textual-serve), behind a token")
    p.add_argument("path", nargs="?", type=Path, help="default: the shipped sample suite")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=port_number, default=8000, help="port to bind (default 8000; 0: a free one, printed)")
    p.add_argument("--allow-remote", action="store_true",
                   help="let --host be an address other machines reach (the workbench reads and "
                        "writes files as you)")
    p.add_argument("--token", help="the secret browsers must present, at least 16 characters "
                                   "(default: a new one each launch, in the printed URL)")
    p.set_defaults(handler=cmd_serve)


def sample_suite_path() -> Path:
    """The shipped sample suite, as the user's own copy in the data folder (made on first use)."""
    from workbench.core.shipped import working_sample

    return working_sample()


def open_checked(path: Path, password: str | None = None) -> Source:
    """What `path` opens as, with a clear error now (not on the screen) for a file that is not a PDF
    or a password that does not open it. Without a password, an encrypted PDF opens: the workbench
    asks for it."""
    from workbench.core.source import open_source

    source = open_source(path)
    check_pdf(source, password)
    return source


def check_pdf(source: Source, password: str | None = None, first=None) -> None:
    """For a bare PDF, `read_pdf_bytes`'s error (an encrypted PDF without a password is no error),
    from the `first` page's child when it checked this file, else by reading it here."""
    from workbench.core.errors import UserError
    from workbench.pdf.document import PdfEncrypted, read_pdf_bytes

    if source.kind != "pdf":
        return
    verdict = first.verdict() if first is not None else None
    if verdict is not None and verdict.path == source.path:
        if verdict.error and not (verdict.encrypted and not password):
            raise UserError(verdict.error)
        return
    try:
        read_pdf_bytes(source.path, password)
    except PdfEncrypted:
        if password:
            raise


def cmd_open(args: argparse.Namespace) -> int:
    from workbench.core.config import load_settings
    from workbench.core.errors import UserError
    from workbench.core.source import open_source
    from workbench.tui import firstpage

    path = args.path or sample_suite_path()
    # A second process opens the path and draws the first page while Textual loads here.
    first = firstpage.start(path, args.password)
    settings = load_settings()
    graphics = args.graphics or getattr(settings, "graphics", "halfblock")
    if graphics == "hires":
        try:
            # textual-image asks the terminal what it supports: that must happen before Textual starts.
            import textual_image.widget  # noqa: F401
        except ImportError:
            raise UserError("--graphics hires needs textual-image: pip install 'pdfworkbench[hires]'") from None
    from workbench.tui.app import WorkbenchApp

    try:
        source = (first.source() if first is not None else None) or open_source(path)
        check_pdf(source, args.password, first)  # errors out before the screen takes over
        app = WorkbenchApp(source, settings, graphics=graphics, who=getattr(args, "who", None),
                           password=args.password)
        app.run()
    finally:
        from workbench.core.pool import end_children

        firstpage.stop()
        end_children()  # a worker process busy with a page would hold the exit back
    return app.return_code or 0


def cmd_serve(args: argparse.Namespace) -> int:
    import shlex
    import sys

    from workbench.core.errors import UserError
    from workbench.core.httpguard import MIN_TOKEN_CHARS, is_loopback, new_token
    from workbench.tui.serve import served_url, token_server

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
        import textual_serve.server  # noqa: F401
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
