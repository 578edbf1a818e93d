"""Rendering pages to pixels with pymupdf, at the DPI a vision reader would get."""

from __future__ import annotations

import struct
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from PIL import Image

from workbench.pdf.budget import too_complex
from workbench.pdf.document import PdfError, open_fitz, render_dpi


@dataclass(frozen=True)
class PageImage:
    width: int
    height: int
    samples: bytes  # RGB, row-major

    def to_pil(self):
        return Image.frombytes("RGB", (self.width, self.height), self.samples)


def render_page(data: bytes, page: int = 0, dpi: int = 150, name: str = "PDF") -> PageImage:
    """Page `page` (0-based) of the PDF as RGB pixels at `dpi`."""
    doc = open_fitz(data, name)
    try:
        check_renderable(doc, page, name)
        pix = doc[page].get_pixmap(dpi=render_dpi(doc[page], dpi), alpha=False)
        return PageImage(pix.width, pix.height, bytes(pix.samples))
    finally:
        doc.close()


def render_png(data: bytes, page: int = 0, dpi: int = 150) -> bytes:
    doc = open_fitz(data)
    try:
        check_renderable(doc, page)
        return page_png(doc[page], dpi)
    finally:
        doc.close()


def page_png(page: Any, dpi: int) -> bytes:
    """An open pymupdf page rendered at `dpi` (lowered by `render_dpi`) as a lossless PNG."""
    return png_bytes(page.get_pixmap(dpi=render_dpi(page, dpi), alpha=False))


# zlib's fastest level. pymupdf's and Pillow's PNG (level 6) spend ~65 ms of CPU on an A4 text
# page at 150 dpi in RGB; zlib at level 1 takes ~21 ms on its 6.5 MB, and the rest buys a smaller
# file (500 kB against 540 kB), which no reader needs.
PNG_ZLIB_LEVEL = 1
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def _no_colour(rgb: bytes, row_bytes: int) -> bool:
    """Whether every pixel of RGB samples has red, green and blue equal, looked at a band of rows
    at a time: a page in colour is told at its first coloured band."""
    band = row_bytes * 64
    for top in range(0, len(rgb), band):
        part = rgb[top : top + band]
        red = part[0::3]
        if red != part[1::3] or red != part[2::3]:
            return False
    return True


def png_bytes(pix: Any) -> bytes:
    """A pymupdf Pixmap (RGB or gray, no alpha) as a lossless 8-bit PNG, made fast: a page with
    no colour in it (every pixel's red, green and blue equal, as on most text pages) goes as one
    gray channel, the same pixels in a third of the data, compressed at zlib's level 1. Rows are
    not filtered: on a page of text, a filter saves little and costs a pass in Python."""
    if pix.alpha or pix.n not in (1, 3):
        return pix.tobytes("png")
    w, h = pix.width, pix.height
    samples, row = pix.samples, pix.stride
    gray = pix.n == 1
    if not gray and row == 3 * w and _no_colour(samples, row):
        samples, row, gray = samples[0::3], w, True
    width = w if gray else 3 * w
    # each row is its filter type (0: none) and its bytes
    raw = b"".join([b"\0" + samples[top : top + width] for top in range(0, h * row, row)])
    header = struct.pack(">IIBBBBB", w, h, 8, 0 if gray else 2, 0, 0, 0)   # 8 bits, gray or RGB
    return (_PNG_SIGNATURE + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(raw, PNG_ZLIB_LEVEL)) + _png_chunk(b"IEND", b""))


def check_renderable(doc: Any, page: int, name: str = "PDF") -> None:
    """A PdfError when page `page` (0-based) of `doc` is over a count of work (`budget`): MuPDF
    would hold the process for minutes drawing it."""
    why = too_complex(doc, page)
    if why:
        raise PdfError(f"{name}: page {page + 1}: {why}")


_SHARED_LOCK = threading.Lock()
_SHARED: list[tuple[bytes, Any]] = []   # (the bytes, their open document), newest last


@contextmanager
def shared_document(data: bytes, name: str = "PDF") -> Iterator[Any]:
    """An open pymupdf document for `data`, kept open for the next call with the same bytes:
    opening a long PDF costs more than rendering one of its pages (a 10,000-page file: ~14 ms to
    open, ~100 ms to find page 5,000 the first time). One caller at a time (pymupdf is not
    thread-safe); the two most recent documents stay open."""
    with _SHARED_LOCK:
        known = [i for i, (d, _) in enumerate(_SHARED) if d is data]
        if known:
            _SHARED.append(_SHARED.pop(known[0]))
        else:
            _SHARED.append((data, open_fitz(data, name)))
            while len(_SHARED) > 2:
                _SHARED.pop(0)[1].close()
        yield _SHARED[-1][1]
