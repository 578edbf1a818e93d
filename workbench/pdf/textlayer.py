"""The text layer of a PDF as each extractor reads it, page by page."""

from __future__ import annotations

import io
from dataclasses import dataclass

from workbench.core.errors import UserError
from workbench.pdf.document import check_pdf_bytes, open_fitz

EXTRACTORS = ("pypdf", "pymupdf")


@dataclass(frozen=True)
class PageInfo:
    number: int  # 1-based
    width_pt: float
    height_pt: float
    rotation: int


def page_info(data: bytes, name: str = "PDF") -> list[PageInfo]:
    doc = open_fitz(data, name)
    try:
        return [PageInfo(i + 1, p.rect.width, p.rect.height, p.rotation) for i, p in enumerate(doc)]
    finally:
        doc.close()


def text_pymupdf(data: bytes, name: str = "PDF") -> list[str]:
    doc = open_fitz(data, name)
    try:
        return [page.get_text("text") for page in doc]
    finally:
        doc.close()


def text_pypdf(data: bytes, name: str = "PDF") -> list[str]:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    check_pdf_bytes(data, name)
    try:
        reader = PdfReader(io.BytesIO(data))
        return [page.extract_text() or "" for page in reader.pages]
    except (PdfReadError, ValueError, KeyError) as exc:
        raise UserError(f"{name}: pypdf cannot read this PDF ({exc})") from None


def extract(data: bytes, extractor: str, name: str = "PDF") -> list[str]:
    if extractor == "pypdf":
        return text_pypdf(data, name)
    if extractor == "pymupdf":
        return text_pymupdf(data, name)
    raise UserError(f"unknown extractor {extractor!r}; choose one of {', '.join(EXTRACTORS)}")
