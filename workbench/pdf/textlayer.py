"""The text layer of a PDF as each extractor reads it, page by page.

API:

- `page_texts(data) -> dict[str, list[str]]`: each extractor's text, page by page (cached).
- `text_pypdf(data)`, `text_pymupdf(data)`, `extract(data, extractor)`: one extractor's pages.
- `form_fields_pypdf(data)`: each page's filled text fields as pypdf reads a form.
- `open_pypdf(data)`: a pypdf reader, or one line saying why the PDF cannot be read.
- `pypdf_page_text(data, index)`: one page's pypdf text, from a reader of its own (a helper
  process runs it: `warm_pypdf` is the helper's start).
- `layer_diff(data, page=0, dpi=150)`, `document_diffs(data, dpi=150)`: where the text layers
  differ (`workbench.pdf.layers`), for one page or every page. (Here, not with the visibility
  analysis they read, so that the analysis loads no pypdf: `grade --explain` reads a text layer
  only for a value found on no page.)
"""

from __future__ import annotations

import hashlib
import io
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from pypdf import PageObject, PdfReader
from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, NameObject

from workbench.core.errors import UserError
from workbench.pdf.budget import too_complex
from workbench.pdf.document import (
    PdfError,
    check_page_budget,
    check_pdf_bytes,
    encrypted_error,
    open_fitz,
    why_failed,
)
from workbench.pdf.layers import LayerDiff, diff_page
from workbench.pdf.pagedata import EXTRACTORS, PageInfo
from workbench.pdf.visibility import analyze_document


def open_pypdf(data: bytes, name: str = "PDF", password: str | None = None) -> Any:
    """A pypdf PdfReader for `data` (owner-only encryption decrypted), or a PdfError."""
    check_pdf_bytes(data, name)
    try:
        reader = PdfReader(io.BytesIO(data), password=password)
        if reader.is_encrypted and not password:
            reader.decrypt("")
        len(reader.pages)
    except FileNotDecryptedError:
        raise encrypted_error(name, password) from None
    except DependencyError as exc:
        raise PdfError(f"{name}: pypdf cannot decrypt this PDF ({exc})") from None
    except Exception as exc:  # pypdf on a hostile file raises anything (KeyError, IndexError, ...)
        raise PdfError(f"{name}: pypdf cannot read this PDF ({why_failed(exc, PdfReadError)})") from None
    return reader


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
        return _over_budget(doc)
    finally:
        doc.close()


def _over_budget(doc) -> set[int]:
    return {i for i in range(doc.page_count) if too_complex(doc, i)}


def within_budget(data: bytes, name: str = "PDF") -> bytes:
    """The document as a library without budgets of its own is given it (pdfminer, pdfplumber,
    markitdown, ... read a document whole, their own way): `data` itself, or where pages are over a
    count of work (`too_complex_pages`), a copy with those pages emptied in their places (no
    content, resources or annotations), which such a library reads as blank pages, as pypdf's and
    pymupdf's layers read them here. (An XObject fan-out page kept pdfminer drawing for hours.)
    A document MuPDF cannot open is handed over as it is: the library's own reading says why."""
    try:
        doc = open_fitz(data, name)
    except PdfError:
        return data
    try:
        skip = [i for i in range(doc.page_count) if too_complex(doc, i)]
        if not skip:
            return data
        for i in skip:
            xref = doc.page_xref(i)
            for key, value in (("Contents", "null"), ("Resources", "<<>>"), ("Annots", "null")):
                doc.xref_set_key(xref, key, value)
        return doc.tobytes(garbage=1)   # (the forms no page draws now are left out)
    finally:
        doc.close()


def text_pymupdf(data: bytes, name: str = "PDF") -> list[str]:
    """Each page's text as pymupdf reads it; '' for a page over a count of work."""
    doc = open_fitz(data, name)
    try:
        return _pymupdf_pages(doc, _over_budget(doc))
    finally:
        doc.close()


def _pymupdf_pages(doc, skip: set[int]) -> list[str]:
    return ["" if i in skip else doc[i].get_text("text") for i in range(doc.page_count)]


def text_pypdf(data: bytes, name: str = "PDF", skip: set[int] | None = None) -> list[str]:
    """Each page's text as pypdf reads it; '' for a page over a count of work (`skip`, the
    caller's `too_complex_pages`, else found here)."""
    skip = too_complex_pages(data, name) if skip is None else skip
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


_TEXT_CACHE: OrderedDict[bytes, dict[str, list[str]]] = OrderedDict()


def page_texts(data: bytes, name: str = "PDF") -> dict[str, list[str]]:
    """{"pypdf": [page text, ...], "pymupdf": [...]}, cached for the last few PDFs."""
    key = hashlib.sha1(data).digest()
    hit = _TEXT_CACHE.get(key)
    if hit is not None:
        _TEXT_CACHE.move_to_end(key)
        return hit
    with open_fitz(data, name) as doc:   # (one opening: the budget, counted once for both layers, and pymupdf's)
        check_page_budget(doc.page_count, name)
        skip = _over_budget(doc)
        mupdf = _pymupdf_pages(doc, skip)
    texts = {"pypdf": text_pypdf(data, name, skip), "pymupdf": mupdf}
    _TEXT_CACHE[key] = texts
    while len(_TEXT_CACHE) > 6:
        _TEXT_CACHE.popitem(last=False)
    return texts


def clear_cache() -> None:
    _TEXT_CACHE.clear()


# What a page takes from the /Pages node above it when it has none of its own (ISO 32000-1, 7.7.3.4).
INHERITED = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")


def flat_tree_page(pdf: PdfReader, index: int, xref: int) -> PageObject | None:
    """Page `index` as pypdf's page list gives it, without that list, for the usual page tree: one
    /Pages node whose kids are every page, in order (reportlab, pymupdf and qpdf write it so).
    pypdf builds its list by parsing every page's dictionary, 60 MB for 10,000 pages in each
    process that reads one; here only this page's. `xref` is the page's object number as MuPDF
    finds page `index`: None (use the list) unless kid `index` is that object and a page."""
    try:
        pages = pdf.root_object["/Pages"].get_object()
        kids = pages["/Kids"].get_object()
        if not isinstance(kids, ArrayObject) or pages.get("/Count") != len(kids) or not 0 <= index < len(kids):
            return None
        ref = kids[index]
        if not isinstance(ref, IndirectObject) or ref.idnum != xref:
            return None
        node = ref.get_object()
        if not isinstance(node, DictionaryObject) or node.get("/Type") != "/Page" or "/Kids" in node:
            return None
    except Exception:  # (a damaged tree: pypdf's own walk says what is wrong with it)
        return None
    page = PageObject(pdf, ref)
    for key in INHERITED:
        if key not in page and key in pages:
            page[NameObject(key)] = pages[key]
    return page


def read_pypdf_page(reader: Callable[[], Any], index: int, name: str, xref: int | None = None) -> str:
    """Page `index`'s pypdf text from the reader `reader()` gives, or one line saying why pypdf
    cannot read it. `xref`: the page's object number (MuPDF's `page_xref`), for `flat_tree_page`."""
    plain = (PdfReadError, ValueError, KeyError, IndexError)  # (their messages say enough)
    try:
        pdf = reader()
    except Exception as exc:
        raise UserError(f"{name}: pypdf cannot read this PDF ({why_failed(exc, *plain)})") from None
    try:
        page = flat_tree_page(pdf, index, xref) if xref else None
        return (page if page is not None else pdf.pages[index]).extract_text() or ""
    except Exception as exc:  # pypdf on a hostile page raises anything (NotImplementedError, ...)
        raise UserError(f"{name}: pypdf cannot read page {index + 1} ({why_failed(exc, *plain)})") from None


def pypdf_page_text(data: bytes, index: int, name: str = "PDF", xref: int | None = None) -> str:
    """Page `index`'s pypdf text layer, as `PdfPages` reads it, from a reader of its own (a
    module-level function: `PdfPages.read_text_ahead` runs it in a helper process)."""
    return read_pypdf_page(lambda: PdfReader(io.BytesIO(data)), index, name, xref)


def warm_pypdf() -> None:
    """A helper process's start (`core.pool.HelperProcess`): what `pypdf_page_text` needs, pypdf
    and its text extraction, was loaded with this module."""


def document_diffs(data: bytes, dpi: int = 150, name: str = "PDF") -> list[LayerDiff]:
    """Where the text layers differ on every page (`layers.diff_page`)."""
    analysis = analyze_document(data, dpi, name)
    texts = page_texts(data, name)
    return [
        diff_page(pa.spans, {k: v[pa.page] if pa.page < len(v) else "" for k, v in texts.items()}, pa.page)
        for pa in analysis.pages
    ]


def layer_diff(data: bytes, page: int = 0, dpi: int = 150, name: str = "PDF") -> LayerDiff:
    """Where the text layers differ on page `page` (0-based; `layers.diff_page`)."""
    analysis = analyze_document(data, dpi, name)
    if not 0 <= page < len(analysis.pages):
        raise UserError(f"{name}: no page {page + 1} (it has {len(analysis.pages)})")
    texts = page_texts(data, name)
    pa = analysis.pages[page]
    return diff_page(pa.spans, {k: v[page] if page < len(v) else "" for k, v in texts.items()}, page)
