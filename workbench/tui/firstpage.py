"""The first page of what the workbench opens, read and drawn by a second process while the workbench
starts, so it is on screen sooner.

Starting the workbench is CPU-bound: Python, Textual and the screen's first layout take most of a
second on one core, and pymupdf's import, the PDF's check (`read_pdf_bytes`) and the first render
used to follow them on the same core. `start` forks a process before Textual is imported. On the
machine's other core it checks the first case's PDF as `read_pdf_bytes` does, and renders its first
page as a page view fitted to its pane renders it (`FIT_DPI`). Its results come back through a pipe,
in two messages:

1. the verdict: the PDF's page count and the size of its first page, or the error `read_pdf_bytes`
   raised (and whether the PDF is encrypted);
2. the first page's pixels.

Only what the parent can prove is the same is used: the parent reads the file itself, and takes the
verdict only for the same path, with the same length and checksum. The pixels are used only for
page 1 of those bytes, at the DPI the view asks for. Anything else, a child that fails or is slow,
or a platform without `fork`, goes the ordinary way (`read_pdf_bytes`, then a render by pymupdf).
So the result on screen is the same either way, only sooner.

Nothing here imports Textual or pymupdf: the CLI calls `start` before either.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# A page fitted to a pane is rendered at twice the pane's resolution, but never below this DPI
# (`page_view.render_view`). A Letter page fitted to a pane of fewer than about 150 columns asks for
# this DPI, so it is what the first page is rendered at ahead of time.
FIT_DPI = 36
# A first page larger than this at FIT_DPI (a Letter page is 0.13 Mpx) is not drawn ahead.
MAX_PICTURE_PIXELS = 4_000_000
# How long a caller waits for the child before it does the work itself.
WAIT_S = 5.0


@dataclass(frozen=True)
class Verdict:
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
    dpi: int                 # the DPI asked for (before `render_dpi` lowered it for a huge page)
    width: int
    height: int
    samples: bytes           # RGB, no alpha, as `Page.get_pixmap(alpha=False)` gives them


class FirstPage:
    """The child started by `start`, and what came back from it."""

    def __init__(self, pid: int, fd: int, path: Path) -> None:
        self.pid, self.path = pid, path
        self._fd = fd
        self._buf = b""
        self._lock = threading.Lock()
        self._got: list[Any] = []       # the messages read so far, in order
        self._done = False              # the pipe is at its end (or given up on)
        self.data: bytes | None = None  # the bytes the verdict was checked against, once read
        self._used = False              # read_checked answers once: for the first case's load

    def _read(self, n: int, timeout: float = WAIT_S) -> Any:
        """Message `n` (0: the verdict, 1: the picture), or None if it has not come in `timeout`
        (with timeout 0: not yet; else: it will not come, and the child is given up on)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while len(self._got) <= n and not self._done:
                whole, message = self._message()
                if whole:
                    self._got.append(message)
                    continue
                ready = select.select([self._fd], [], [], max(deadline - time.monotonic(), 0))[0]
                if not ready and timeout == 0:
                    return None  # not yet
                chunk = os.read(self._fd, 1 << 20) if ready else b""
                if not chunk:  # the child ended, or is too slow to wait for
                    self._finish()
                self._buf += chunk
            if len(self._got) > 1 and not self._done:
                self._finish()  # both messages in: the child is exiting
            return self._got[n] if len(self._got) > n else None

    def _message(self) -> tuple[bool, Any]:
        """(True, the next message) when the buffer holds a whole one (8-byte length, then a
        pickle); (False, None) when it does not."""
        if len(self._buf) < 8:
            return False, None
        size = int.from_bytes(self._buf[:8], "big")
        if len(self._buf) < 8 + size:
            return False, None
        body, self._buf = self._buf[8:8 + size], self._buf[8 + size:]
        try:
            return True, pickle.loads(body)
        except Exception:  # noqa: BLE001 - a garbled message: as if the child had failed
            self._finish()
            return False, None

    def _finish(self) -> None:
        """Stop reading, and reap the child (killed first, unless it sent everything)."""
        self._done = True
        os.close(self._fd)
        try:
            if len(self._got) < 2:
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ChildProcessError, ProcessLookupError):
            pass

    def close(self) -> None:
        with self._lock:
            if not self._done:
                self._finish()
        self.data = None

    def verdict(self, timeout: float = WAIT_S) -> Verdict | None:
        return self._read(0, timeout)

    def read_checked(self, path: Path) -> tuple[bytes, int] | None:
        """`path`'s bytes and page count, when the child checked these very bytes and they opened
        as they are; None when the caller must check them itself (`read_pdf_bytes`)."""
        if Path(path) != self.path:
            return None
        verdict = self.verdict()
        if verdict is None or verdict.error or verdict.decrypted or self._used:
            return None
        self._used = True
        try:
            data = Path(path).read_bytes()
        except OSError:
            return None
        if len(data) != verdict.size or zlib.crc32(data) != verdict.crc:
            return None  # the file changed since the child read it
        self.data = data
        return data, verdict.page_count

    def ready(self, pdf: bytes, page: int, dpi_for: Callable[[float, float], int]) -> bool:
        """Whether `picture` has page `page` of `pdf` at the DPI asked for, without waiting."""
        return (page == 0 and pdf is self.data and dpi_for(*self._got[0].page_size) == FIT_DPI
                and self._read(1, timeout=0) is not None)

    def picture(self, pdf: bytes, page: int, dpi_for: Callable[[float, float], int]
                ) -> tuple[Picture, tuple[float, float]] | None:
        """Page 1 of `pdf` as the child drew it, with the page's size in points, when `dpi_for`
        (the page's width and height -> the DPI to render at) asks for the DPI it was drawn at."""
        if page != 0 or pdf is not self.data:
            return None
        size = self._got[0].page_size
        if dpi_for(*size) != FIT_DPI:
            return None
        got = self._read(1)
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


def start_for(source, password: str | None = None) -> FirstPage | None:
    """`start` on the PDF of the first case the workbench shows for `source` (a core `Source`)."""
    try:
        path = source.cases[0].pdf_file if source.cases else None
    except Exception:  # noqa: BLE001 - a case that cannot name its PDF fails where it is opened
        return None
    return start(path, password) if path is not None else None


def start(path: Path, password: str | None = None) -> FirstPage | None:
    """Fork a process that checks the PDF at `path` and renders its first page (see the module
    docstring). None where that cannot be done safely: no `fork`, or threads already running
    (a fork copies only the thread that made it)."""
    global _STARTED
    if not hasattr(os, "fork") or threading.active_count() > 1:
        return None
    path = Path(path)
    read_fd, write_fd = os.pipe()
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
    _STARTED = FirstPage(pid, read_fd, path)
    return _STARTED


def _child(path: Path, password: str | None, fd: int) -> None:
    try:
        # Nothing from here may reach the terminal the workbench is drawing on.
        devnull = os.open(os.devnull, os.O_RDWR)
        for std in (0, 1, 2):
            os.dup2(devnull, std)
        with os.fdopen(fd, "wb") as out:
            def send(message: Any) -> None:
                body = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
                out.write(len(body).to_bytes(8, "big") + body)
                out.flush()

            _check_and_render(path, password, send)
    except BaseException:  # noqa: BLE001 - whatever happens, the parent does the work itself
        pass
    finally:
        os._exit(0)


def _check_and_render(path: Path, password: str | None, send: Callable[[Any], None]) -> None:
    from workbench.core.errors import UserError
    from workbench.pdf.document import PdfEncrypted, open_fitz, readable_pdf_bytes, render_dpi

    raw = path.read_bytes()
    base = {"path": path, "size": len(raw), "crc": zlib.crc32(raw)}
    try:
        data = readable_pdf_bytes(raw, str(path), password)  # what read_pdf_bytes(path) does
    except UserError as exc:
        send(Verdict(**base, error=str(exc), encrypted=isinstance(exc, PdfEncrypted)))
        return
    if data is not raw:  # decrypted by the password: the parent's own bytes will differ
        send(Verdict(**base, decrypted=True))
        return
    doc = open_fitz(data, path.name, checked=True)
    page = doc[0]
    # The verdict first: the parent may be waiting for it to start the screen.
    send(Verdict(**base, page_count=doc.page_count, page_size=(page.rect.width, page.rect.height)))
    dpi = render_dpi(page, FIT_DPI)
    if page.rect.width * page.rect.height * (dpi / 72) ** 2 > MAX_PICTURE_PIXELS:
        send(None)  # a huge page: rendered where it is shown, not copied through the pipe
        return
    pix = page.get_pixmap(dpi=dpi, alpha=False)
    send(Picture(FIT_DPI, pix.width, pix.height, bytes(pix.samples)))
