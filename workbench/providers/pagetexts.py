"""Each page's text as an extractor reads it, each library called the way its documentation's
default does: the extractors of the registry (`extractors.EXTRACTORS`) at work.

The probes (`probe:NAME`), `pdfworkbench exposure`, the workbench's text-layer tabs and the agents'
page tools all read a page through `page_texts(name, pdf)` or `page_text(name, pdf, page)`. The
PDF layer is imported at the top; inside a function, only when that extractor is used: the library
of an optional extra (`extractors`, `pymupdf4llm`, `docling-parse`, `pdftext`), and the OCR
module (`pdf.ocr` loads numpy, which no text-layer reader needs).
"""

from __future__ import annotations

import contextlib
import io
import logging
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable
from itertools import zip_longest
from types import ModuleType
from typing import Any

import pymupdf

from workbench.core.errors import UserError
from workbench.pdf import textlayer
from workbench.pdf.document import PdfError, mupdf, mupdf_switches_kept
from workbench.providers.extractors import get, missing, version

# Pages rendered for OCR at this resolution (the probes' DPI; tesseract's docs ask for 300).
OCR_DPI = 150
TESSERACT_DPI = 300
TESSERACT_TIMEOUT_S = 120  # one page; a hostile page must not hang a suite


def _ocr_module() -> ModuleType:
    """`workbench.pdf.ocr`, imported when OCR is asked for: it loads numpy (about 0.2 s), which no
    text-layer reader needs."""
    from workbench.pdf import ocr

    return ocr


def ocr_engine() -> Any:
    """The OCR engine (loaded once per process); `probe:ocr` says what to install without it."""
    try:
        return _ocr_module().engine()
    except UserError:
        raise UserError(missing("ocr")) from None


def ocr_pages(pdf: bytes, dpi: int) -> list[str]:
    """Every page's OCR text at `dpi`."""
    ocr_engine()
    return _ocr_module().ocr_pages(pdf, dpi)


# ---- the extractors ---------------------------------------------------------------------------

def _pypdf(pdf: bytes) -> list[str]:
    texts = textlayer.text_pypdf(pdf)
    return [text.rstrip("\n") + "".join(f"\n{f}" for f in found)
            for text, found in zip_longest(texts, textlayer.form_fields_pypdf(pdf)[:len(texts)], fillvalue=[])]


def _pymupdf(pdf: bytes) -> list[str]:
    return textlayer.text_pymupdf(pdf)


def _ocr(pdf: bytes) -> list[str]:
    return ocr_pages(pdf, OCR_DPI)


def _pdfplumber(pdf: bytes) -> list[str]:
    import pdfplumber

    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return [page.extract_text() or "" for page in doc.pages]


def _pdfminer(pdf: bytes) -> list[str]:
    from pdfminer.high_level import extract_text

    # extract_text ends every page with a form feed; the last one ends the document
    return _split_pages(extract_text(io.BytesIO(pdf)))


def _pypdfium2(pdf: bytes) -> list[str]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        out = []
        for page in doc:
            textpage = page.get_textpage()
            out.append(textpage.get_text_bounded().replace("\r\n", "\n"))
            textpage.close()
            page.close()
        return out
    finally:
        doc.close()


def _markitdown(pdf: bytes) -> list[str]:
    from markitdown import MarkItDown, StreamInfo

    result = MarkItDown().convert_stream(io.BytesIO(pdf), stream_info=StreamInfo(extension=".pdf"))
    return _split_pages(result.text_content)


_QUIET_LOCK = threading.Lock()


def _import_pymupdf4llm() -> Any:
    """pymupdf4llm, imported without its side effects: its import turns MuPDF's error messages off
    for the whole process (`TOOLS.mupdf_display_errors(False)`), so every PDF read after the first
    pymupdf4llm probe lost the "MuPDF error: ..." lines the CLI and the workbench show; and it
    turns off the ascender/descender corrections of text boxes (`TOOLS.unset_quad_corrections
    (True)`), so every box read after it was another height: a mutation made in a process that
    had shown a pymupdf4llm tab placed its value elsewhere, and evidence boxes moved. The
    corrections are off only while pymupdf4llm reads (`_pymupdf4llm`), as its authors made it."""
    with mupdf_switches_kept():
        import pymupdf4llm
    return pymupdf4llm


def _pymupdf4llm(pdf: bytes) -> list[str]:
    engine = mupdf()
    pymupdf4llm = _import_pymupdf4llm()

    # its layout engine tells every page "Using RapidOCR for OCR processing" through pymupdf's
    # message log, which this project shows as warnings: progress, not a problem with the PDF
    # It also prints its parser's messages: sys.stdout is swapped for the call, under a lock,
    # because a swap is process-wide (two threads swapping at once left sys.stdout a StringIO, and
    # every later line of the command went into it).
    # Its OCR plugin clears RapidOCR's log handlers, and RapidOCR's engine then sets its logger to
    # INFO: a warning ("The text detection result is empty", for a page its OCR finds no text on)
    # fell through to Python's last-resort handler and landed bare on stderr, in the middle of
    # `exposure`'s output. Its warnings are filtered out for the call (errors still show).
    log = logging.getLogger("pymupdf")
    rapid = logging.getLogger("RapidOCR")
    with _QUIET_LOCK, contextlib.redirect_stdout(io.StringIO()), mupdf_switches_kept() as tools:
        tools.unset_quad_corrections(True)  # how pymupdf4llm reads, for its call only
        level = log.level
        log.setLevel(logging.ERROR)
        rapid.addFilter(_errors_only)
        doc = engine.open(stream=pdf, filetype="pdf")
        try:
            return [chunk["text"] for chunk in pymupdf4llm.to_markdown(doc, page_chunks=True, show_progress=False)]
        finally:
            doc.close()
            log.setLevel(level)
            rapid.removeFilter(_errors_only)


def _errors_only(record: logging.LogRecord) -> bool:
    return record.levelno >= logging.ERROR


def _docling_parse(pdf: bytes) -> list[str]:
    from docling_core.types.doc.page import TextCellUnit
    from docling_parse.pdf_parser import DoclingPdfParser

    doc = DoclingPdfParser().load(path_or_stream=io.BytesIO(pdf))
    try:
        return ["\n".join(line.text for line in page.iterate_cells(unit_type=TextCellUnit.LINE))
                for _, page in doc.iterate_pages()]
    finally:
        doc.unload()


def _pdftext(pdf: bytes) -> list[str]:
    from pdftext.extraction import paginated_plain_text_output

    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:  # it takes a path
        f.write(pdf)
        f.flush()
        return paginated_plain_text_output(f.name)


def _tesseract(pdf: bytes) -> list[str]:
    binary = shutil.which("tesseract")
    if binary is None:
        raise UserError(missing("tesseract"))
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    try:
        out = []
        for page in doc:
            png = page.get_pixmap(dpi=TESSERACT_DPI).tobytes("png")
            done = subprocess.run([binary, "stdin", "stdout"], input=png, capture_output=True,
                                  timeout=TESSERACT_TIMEOUT_S, check=False)
            if done.returncode != 0:
                raise UserError(f"tesseract failed on page {page.number + 1}: "
                                f"{done.stderr.decode(errors='replace').strip()[:200]}")
            out.append(done.stdout.decode("utf-8", errors="replace"))
        return out
    finally:
        doc.close()


def _split_pages(text: str) -> list[str]:
    pages = text.split("\f")
    if len(pages) > 1 and not pages[-1].strip():
        pages.pop()
    return pages


# Each extractor of the registry (`extractors.EXTRACTORS`, the same names): the function giving
# each page's text.
PAGES: dict[str, Callable[[bytes], list[str]]] = {
    "pypdf": _pypdf, "pymupdf": _pymupdf, "ocr": _ocr, "pdfplumber": _pdfplumber, "pdfminer": _pdfminer,
    "pypdfium2": _pypdfium2, "markitdown": _markitdown, "pymupdf4llm": _pymupdf4llm,
    "docling-parse": _docling_parse, "pdftext": _pdftext, "tesseract": _tesseract,
}


def page_texts(name: str, pdf: bytes) -> list[str]:
    """Every page's text as the extractor reads it. A library that is absent is a UserError
    naming what to install; a PDF it cannot read is a UserError naming the extractor."""
    budgeted = get(name).budgeted
    if version(name) is None:
        raise UserError(missing(name))
    try:
        return PAGES[name](pdf if budgeted else textlayer.within_budget(pdf))   # (see Extractor.budgeted)
    except (UserError, PdfError):
        raise
    except Exception as exc:  # a library on a hostile file raises anything
        said = " ".join(str(exc).split())[:160]   # (one line: markitdown's own message has several)
        raise UserError(f"{name} cannot read this PDF ({type(exc).__name__}: {said})") from None


def page_text(name: str, pdf: bytes, page: int) -> str:
    """One page's text (1-based page number), as `name` reads the document."""
    pages = page_texts(name, pdf)
    if not 1 <= page <= len(pages):
        raise UserError(f"page {page}: {name} read {len(pages)} page(s)")
    return pages[page - 1]
