"""`pdfworkbench open` (the default command): the workbench on a suite, a case, a PDF or a run.

Start-up is ordered: a second process starts on the first page (`tui.firstpage`) before Textual
and the screens are imported, so those imports stay in `cmd_open`, after it. The PDF layer (which
loads pymupdf) is imported only where a bare PDF is checked here: on the way to the first frame
that child checks it, and the screens load pymupdf after that frame.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.core import collector
from workbench.core.config import load_settings
from workbench.core.errors import UserError
from workbench.core.shipped import working_sample
from workbench.core.source import Source, open_source
from workbench.core.threads import end_process
from workbench.tui import firstpage


def sample_suite_path() -> Path:
    """The shipped sample suite, as the user's own copy in the data folder (made on first use)."""
    return working_sample()


def open_checked(path: Path, password: str | None = None) -> Source:
    """What `path` opens as, with a clear error now (not on the screen) for a file that is not a PDF
    or a password that does not open it. Without a password, an encrypted PDF opens: the workbench
    asks for it."""
    source = open_source(path)
    check_pdf(source, password)
    return source


def check_pdf(source: Source, password: str | None = None, first=None) -> None:
    """For a bare PDF, `read_pdf_bytes`'s error (an encrypted PDF without a password is no error),
    from the `first` page's child when it checked this file, else by reading it here."""
    if source.kind != "pdf":
        return
    verdict = first.verdict() if first is not None else None
    if verdict is not None and verdict.path == source.path:
        if verdict.error and not (verdict.encrypted and not password):
            raise UserError(verdict.error)
        return
    # pymupdf, for a bare PDF the child did not check (no `fork`, or the child too slow)
    from workbench.pdf.document import PdfEncrypted, read_pdf_bytes

    try:
        read_pdf_bytes(source.path, password)
    except PdfEncrypted:
        if password:
            raise


def cmd_open(args: argparse.Namespace) -> int:
    collector.pause()  # until the first frame: start-up makes many objects, little garbage
    try:
        return _open(args)
    finally:
        collector.resume()  # (a start that failed: the Inspect screen resumes it at its first frame)


def _open(args: argparse.Namespace) -> int:
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
    from workbench.tui.app import WorkbenchApp  # Textual: once the first page's process has started

    try:
        source = (first.source() if first is not None else None) or open_source(path)
        check_pdf(source, args.password, first)  # errors out before the screen takes over
        app = WorkbenchApp(source, settings, graphics=graphics, who=getattr(args, "who", None),
                           password=args.password)
        app.run()
    finally:
        from workbench.core.pool import end_children  # the worker pool, loaded by then if it ran

        firstpage.stop()
        end_children()  # a worker process busy with a page would hold the exit back
    end_process(app.return_code or 0, app.executor)  # (a worker still busy: ends here)
    return app.return_code or 0
