"""What the workbench opens, read by a second process while the workbench starts, and its first page
drawn there, so the page is on screen sooner.

Starting the workbench is CPU-bound: Python, Textual and the screen's first layout take most of a
second on one core, and reading the suite, pymupdf's import, the PDF's check (`read_pdf_bytes`)
and the first render used to follow them on the same core. `start` forks a process before Textual
is imported. On the machine's other core it:

1. opens the path as the workbench does (`open_source`) and sends the result back, or its error;
2. checks the first case's PDF as `read_pdf_bytes` does, and sends the verdict: the page count and
   the size of page 1, or the error (and whether the PDF needs a password);
3. renders page 1 as a page view fitted to its pane renders it (at `FIT_DPI`), and sends the pixels.

Only what the parent can prove is the same is used. The parent reads the PDF itself, and takes the
verdict only for the same path, with the same length and checksum. It uses the pixels only for
page 1 of those bytes, at the DPI the view asks for. A child that fails or is slow, or a platform
without `fork`, and the parent does the work itself, as it did before. So what is on screen is the
same either way, only sooner.

Nothing here imports Textual or pymupdf: the CLI calls `start` before either. What the child
does (open the suite, check and draw the PDF) is imported in the child, after the fork, so the
parent forks as soon as it can.
"""

from __future__ import annotations

import os
import pickle
import queue
import select
import signal
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.core import files
from workbench.core.errors import UserError
from workbench.core.process import only_thread
from workbench.core.source import open_source

# A page fitted to a pane is rendered at twice the pane's resolution, but never below this DPI
# (`page_look.render_dpi_for`). A Letter page fitted to a pane of fewer than about 150 columns asks for
# this DPI, so it is what the first page is rendered at ahead of time.
FIT_DPI = 36
# A first page larger than this at FIT_DPI (a Letter page is 0.13 Mpx) is not drawn ahead.
MAX_PICTURE_PIXELS = 4_000_000
# How long a caller waits for the child before it does the work itself.
WAIT_S = 5.0
# The child's niceness: its work must not slow the workbench's own start. Linux puts a terminal's
# processes in one scheduling group, so on a busy machine the child took half of the CPU the
# workbench got (its first frame 2.0x a bare Textual app's, 1.66x with this, load 12 on 2 cores);
# on an idle one it still runs on another core, as fast as before.
CHILD_NICE = 10
# The pipe's size asked for (the default, 64 KB, holds a thirtieth of a 1,276-case suite's Source).
PIPE_SIZE = 1 << 20


@dataclass(frozen=True)
class Verdict:
    """What the first page's process found of a PDF: its size and checksum, pages, page 1's size, an error."""

    path: Path
    size: int
    crc: int
    page_count: int = 0
    page_size: tuple[float, float] = (0.0, 0.0)   # page 1's width and height, in points
    error: str = ""          # read_pdf_bytes's message, '' when the PDF opened
    encrypted: bool = False  # the error is that it needs a password (or another one)
    decrypted: bool = False  # the password opened it: the parent decrypts it itself


@dataclass(frozen=True)
class Picture:
    """Page 1 at FIT_DPI (lowered by `render_dpi` for a huge page)."""

    width: int
    height: int
    samples: bytes           # RGB, no alpha, as `Page.get_pixmap(alpha=False)` gives them


class FirstPage:
    """The child started by `start`, and what came back from it."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid = pid
        self._fd = fd
        # A bytearray grows in place: a large suite's Source comes in pieces of the pipe's size,
        # and joining bytes objects copied the whole message again for every piece.
        self._buf = bytearray()
        self._lock = threading.Lock()
        self._got: dict[str, Any] = {}   # the messages read so far, by kind
        self._done = False               # the pipe is at its end (or given up on)
        self.data: bytes | None = None   # the PDF's bytes the verdict holds for, once read here
        self._used = False               # read_checked answers once: for the first case's load

    # ---- the pipe ---------------------------------------------------------------------------

    def _read(self, kind: str, timeout: float = WAIT_S) -> Any:
        """The message of `kind`, or None if it has not come in `timeout` (with timeout 0: not yet;
        else: it will not come, and the child is given up on)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while kind not in self._got and not self._done:
                whole = self._message()
                if whole is not None:
                    self._got[whole[0]] = whole[1]
                    continue
                ready = select.select([self._fd], [], [], max(deadline - time.monotonic(), 0))[0]
                if not ready and timeout == 0:
                    return None  # not yet
                chunk = os.read(self._fd, 1 << 20) if ready else b""
                if not chunk:  # the child ended, or is too slow to wait for
                    self._finish()
                self._buf += chunk
            if "picture" in self._got and not self._done:
                self._finish()  # its last message: the child is exiting
            return self._got.get(kind)

    def _message(self) -> tuple[str, Any] | None:
        """The next whole message in the buffer (8-byte length, then a pickled (kind, value))."""
        if len(self._buf) < 8:
            return None
        size = int.from_bytes(self._buf[:8], "big")
        if len(self._buf) < 8 + size:
            return None
        try:
            with memoryview(self._buf) as view:   # unpickled where it lies, not copied out first
                kind, value = pickle.loads(view[8:8 + size])
        except Exception:  # noqa: BLE001 - a garbled message: as if the child had failed
            self._finish()
            return None
        del self._buf[:8 + size]
        return kind, value

    def _finish(self) -> None:
        """Stop reading, and reap the child (killed first, unless it sent everything)."""
        self._done = True
        os.close(self._fd)
        try:
            if "picture" not in self._got:
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ChildProcessError, ProcessLookupError):
            pass

    def close(self) -> None:
        with self._lock:
            if not self._done:
                self._finish()
        self.data = None

    # ---- what it found ----------------------------------------------------------------------

    def source(self) -> Any:
        """What the path opens as (a core `Source`), or None when the child did not say (the caller
        opens it itself). An error it met is raised here, as `open_source` raised it."""
        got = self._read("source")
        if isinstance(got, str):
            raise UserError(got)
        return got

    def verdict(self, timeout: float = WAIT_S) -> Verdict | None:
        return self._read("verdict", timeout)

    def read_checked(self, path: Path) -> tuple[bytes, int] | None:
        """`path`'s bytes and page count, when the child checked these very bytes and they opened
        as they are; None when the caller must check them itself (`read_pdf_bytes`)."""
        verdict = self.verdict()
        if (verdict is None or verdict.path != Path(path) or verdict.error or verdict.decrypted
                or self._used):
            return None
        self._used = True
        try:
            data = files.read_bytes(path, "PDF", "pdf_file_bytes")
        except UserError:
            return None
        if len(data) != verdict.size or zlib.crc32(data) != verdict.crc:
            return None  # the file changed since the child read it
        self.data = data
        return data, verdict.page_count

    def drawing(self, pdf: bytes | None = None) -> bool:
        """Whether the child may still send its picture: of `pdf`, the bytes it checked; with
        None, before the caller has taken them, whether it is still checking the file."""
        if pdf is None:
            return self.verdict(timeout=0) is None and not self._done
        return pdf is self.data and self._read("picture", timeout=0) is None and not self._done

    def ready(self, pdf: bytes, page: int, dpi_for: Callable[[float, float], int]) -> bool:
        """Whether `picture` has page `page` of `pdf` at the DPI asked for, without waiting."""
        return (page == 0 and pdf is self.data and dpi_for(*self._got["verdict"].page_size) == FIT_DPI
                and self._read("picture", timeout=0) is not None)

    def picture(self, pdf: bytes, page: int, dpi_for: Callable[[float, float], int]
                ) -> tuple[Picture, tuple[float, float]] | None:
        """Page 1 of `pdf` as the child drew it, with the page's size in points, when `dpi_for`
        (the page's width and height -> the DPI to render at) asks for the DPI it was drawn at."""
        if page != 0 or pdf is not self.data:
            return None
        size = self._got["verdict"].page_size
        if dpi_for(*size) != FIT_DPI:
            return None
        got = self._read("picture")
        self.data = None  # once: a later render of the page is an ordinary one
        return (got, size) if got is not None else None


_STARTED: FirstPage | None = None


def started() -> FirstPage | None:
    return _STARTED


def stop() -> None:
    """Forget the process `start` made, ending it if it still runs (the workbench has ended)."""
    global _STARTED
    first, _STARTED = _STARTED, None
    if first is not None:
        first.close()


def start(path: Path, password: str | None = None) -> FirstPage | None:
    """Fork a process that opens `path` and draws its first page (see the module docstring). None
    where that cannot be done safely: no `fork`, or threads already running (a fork copies only the
    thread that made it)."""
    global _STARTED
    if not hasattr(os, "fork") or not only_thread():
        return None
    path = Path(path)
    read_fd, write_fd = os.pipe()
    try:  # fewer, larger pieces of a large suite's Source (Linux; 1 MB is an unprivileged limit)
        import fcntl

        fcntl.fcntl(write_fd, fcntl.F_SETPIPE_SZ, PIPE_SIZE)
    except (ImportError, AttributeError, OSError):
        pass
    try:
        pid = os.fork()
    except OSError:
        os.close(read_fd)
        os.close(write_fd)
        return None
    if pid == 0:  # the child: never returns
        os.close(read_fd)
        _child(path, password, write_fd)
    os.close(write_fd)
    stop()
    _STARTED = FirstPage(pid, read_fd)
    return _STARTED


def _child(path: Path, password: str | None, fd: int) -> None:
    try:
        os.nice(CHILD_NICE)   # (in the try: where it cannot be done, the child still runs)
        # Nothing from here may reach the terminal the workbench is drawing on.
        devnull = os.open(os.devnull, os.O_RDWR)
        for std in (0, 1, 2):
            os.dup2(devnull, std)
        with os.fdopen(fd, "wb") as out:
            # The pipe holds 64 KB and the parent reads it only once its own imports are done:
            # a large suite's Source (2 MB for 1,276 cases) written here would stop this process
            # until then. A thread writes the messages, in order, while this one goes on to
            # check and draw the first page.
            outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()

            def write() -> None:
                while (body := outbox.get()) is not None:
                    out.write(len(body).to_bytes(8, "big") + body)
                    out.flush()

            writer = threading.Thread(target=write, daemon=True)
            writer.start()

            def send(kind: str, value: Any) -> None:
                outbox.put(pickle.dumps((kind, value), pickle.HIGHEST_PROTOCOL))

            try:
                _open_and_draw(path, password, send)
            finally:
                outbox.put(None)
                writer.join()
    except BaseException:  # noqa: BLE001 - whatever happens, the parent does the work itself
        pass
    finally:
        os._exit(0)


def _open_and_draw(path: Path, password: str | None, send: Callable[[str, Any], None]) -> None:
    try:
        source = open_source(path)
    except UserError as exc:
        send("source", str(exc))
        return
    send("source", source)
    if source.cases:
        case = source.cases[0]
        try:
            pdf = case.pdf_file  # a link in the suite is refused here
        except UserError as exc:
            send("verdict", Verdict(Path(case.pdf_path or case.id), 0, 0, error=str(exc)))
            return
        _check_and_draw(pdf, password, send)


def _check_and_draw(path: Path, password: str | None, send: Callable[[str, Any], None]) -> None:
    # (in the child)
    from workbench.pdf.budget import page_size, too_complex
    from workbench.pdf.document import PdfEncrypted, open_fitz, readable_pdf_bytes, render_dpi

    try:
        raw = files.read_bytes(path, "PDF", "pdf_file_bytes")  # never a FIFO, never past its cap
    except UserError as exc:
        send("verdict", Verdict(path, 0, 0, error=str(exc)))
        return
    base = {"path": path, "size": len(raw), "crc": zlib.crc32(raw)}
    try:
        data = readable_pdf_bytes(raw, str(path), password)  # what read_pdf_bytes(path) does
    except UserError as exc:
        send("verdict", Verdict(**base, error=str(exc), encrypted=isinstance(exc, PdfEncrypted)))
        return
    if data is not raw:  # decrypted by the password: the parent's own bytes will differ
        send("verdict", Verdict(**base, decrypted=True))
        return
    doc = open_fitz(data, path.name, checked=True)
    if too_complex(doc, 0):  # not loaded, not drawn: the workbench says why where it shows it
        send("verdict", Verdict(**base, page_count=doc.page_count, page_size=page_size(doc, 0)))
        send("picture", None)
        return
    page = doc[0]
    # The verdict before the pixels: the parent may be waiting for it to start the screen.
    send("verdict", Verdict(**base, page_count=doc.page_count, page_size=(page.rect.width, page.rect.height)))
    dpi = render_dpi(page, FIT_DPI)
    if page.rect.width * page.rect.height * (dpi / 72) ** 2 > MAX_PICTURE_PIXELS:
        send("picture", None)  # a huge page: rendered where it is shown, not copied through the pipe
        return
    pix = page.get_pixmap(dpi=dpi, alpha=False)
    send("picture", Picture(pix.width, pix.height, bytes(pix.samples)))
