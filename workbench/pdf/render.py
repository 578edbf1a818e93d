"""Rendering pages to pixels with pymupdf, at the DPI a vision reader would get."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from workbench.pdf.budget import too_complex
from workbench.pdf.document import PdfError, open_fitz, render_dpi


@dataclass(frozen=True)
class PageImage:
    width: int
    height: int
    samples: bytes  # RGB, row-major

    def to_pil(self):
        from PIL import Image

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
        return doc[page].get_pixmap(dpi=render_dpi(doc[page], dpi), alpha=False).tobytes("png")
    finally:
        doc.close()


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
