"""Rendering pages to pixels with pymupdf, at the DPI a vision reader would get."""

from __future__ import annotations

from dataclasses import dataclass

from workbench.pdf.document import open_fitz, render_dpi


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
        pix = doc[page].get_pixmap(dpi=render_dpi(doc[page], dpi), alpha=False)
        return PageImage(pix.width, pix.height, bytes(pix.samples))
    finally:
        doc.close()


def render_png(data: bytes, page: int = 0, dpi: int = 150) -> bytes:
    doc = open_fitz(data)
    try:
        return doc[page].get_pixmap(dpi=render_dpi(doc[page], dpi), alpha=False).tobytes("png")
    finally:
        doc.close()
