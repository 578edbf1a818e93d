"""The text layer of a PDF as each extractor reads it, page by page."""

from __future__ import annotations

from dataclasses import dataclass

from workbench.core.errors import UserError
from workbench.pdf.budget import too_complex
from workbench.pdf.document import PdfError, open_fitz, open_pypdf, why_failed

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


def too_complex_pages(data: bytes, name: str = "PDF") -> set[int]:
    """The pages (0-based) over a count of work (`budget.too_complex`): no layer reads them."""
    doc = open_fitz(data, name)
    try:
        return {i for i in range(doc.page_count) if too_complex(doc, i)}
    finally:
        doc.close()


def text_pymupdf(data: bytes, name: str = "PDF") -> list[str]:
    doc = open_fitz(data, name)
    try:
        return ["" if too_complex(doc, i) else doc[i].get_text("text") for i in range(doc.page_count)]
    finally:
        doc.close()


def text_pypdf(data: bytes, name: str = "PDF") -> list[str]:
    from pypdf.errors import PdfReadError

    skip = too_complex_pages(data, name)
    reader = open_pypdf(data, name)
    try:
        return ["" if i in skip else page.extract_text() or "" for i, page in enumerate(reader.pages)]
    except Exception as exc:  # pypdf on a hostile file raises anything (NotImplementedError, ...)
        raise PdfError(f"{name}: pypdf cannot read this PDF ({why_failed(exc, PdfReadError)})") from None


def form_fields_pypdf(data: bytes, name: str = "PDF") -> list[list[str]]:
    """Each page's filled text fields as pypdf reads a form: `name: value` from the `/V` of the
    page's widgets (or of the field they belong to), in the order the page lists them. This is a
    form's data, not its drawing: a field's appearance may show something else."""
    reader = open_pypdf(data, name)
    out: list[list[str]] = []
    try:
        pages = list(reader.pages)
    except Exception:  # a page tree pypdf cannot walk: text_pypdf says so; no fields to add
        return out
    skip = too_complex_pages(data, name)
    for i, page in enumerate(pages):
        found: list[str] = []
        if i in skip:
            out.append(found)
            continue
        try:
            annots = page.get("/Annots")
            for ref in (annots.get_object() if annots is not None else None) or ():
                widget = ref.get_object()
                if widget.get("/Subtype") != "/Widget":
                    continue
                parent = widget.get("/Parent")
                field = widget if "/T" in widget or parent is None else parent.get_object()
                value = widget.get("/V", field.get("/V"))
                if (widget.get("/FT") or field.get("/FT")) == "/Tx" and value:
                    found.append(f"{field.get('/T', '')}: {value}")
        except Exception:  # a hostile file's annotations: the page's fields are then unread, not fatal
            found = []
        out.append(found)
    return out


def extract(data: bytes, extractor: str, name: str = "PDF") -> list[str]:
    if extractor == "pypdf":
        return text_pypdf(data, name)
    if extractor == "pymupdf":
        return text_pymupdf(data, name)
    raise UserError(f"unknown extractor {extractor!r}; choose one of {', '.join(EXTRACTORS)}")
