"""The text layer of a PDF as each extractor reads it, page by page."""

from __future__ import annotations

from dataclasses import dataclass

from workbench.core.errors import UserError
from workbench.pdf.document import PdfError, open_fitz, open_pypdf

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
    from pypdf.errors import PdfReadError

    reader = open_pypdf(data, name)
    try:
        return [page.extract_text() or "" for page in reader.pages]
    except PdfReadError as exc:
        raise PdfError(f"{name}: pypdf cannot read this PDF ({exc})") from None
    except Exception as exc:  # pypdf on a hostile file raises anything (NotImplementedError, ...)
        raise PdfError(f"{name}: pypdf cannot read this PDF ({type(exc).__name__}: {str(exc)[:120]})") from None


def extract(data: bytes, extractor: str, name: str = "PDF") -> list[str]:
    if extractor == "pypdf":
        return text_pypdf(data, name)
    if extractor == "pymupdf":
        return text_pymupdf(data, name)
    raise UserError(f"unknown extractor {extractor!r}; choose one of {', '.join(EXTRACTORS)}")
