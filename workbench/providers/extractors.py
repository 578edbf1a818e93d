"""The PDF text extractors pipelines use, each called the way its documentation's default does.

One registry, `EXTRACTORS`: name -> `Extractor` (the distribution whose version is recorded, the
extra that installs it, its licence, and the function giving each page's text). The probes
(`probe:NAME`), `pdfworkbench exposure`, the workbench's text-layer tabs and the agents' page
tools all read a page through `page_texts(name, pdf)` or `page_text(name, pdf, page)`.

A library is imported only when its extractor is used; `version(name)` says whether it is
installed here (None when not) and `missing(name)` what to install.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import importlib.util
import io
import shutil
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from workbench.core.errors import UserError
from workbench.pdf.document import PdfError, mupdf, mupdf_switches_kept


@dataclass(frozen=True)
class Extractor:
    name: str
    dist: str            # the distribution whose version the record carries ("" : a system binary)
    module: str          # imported to tell whether it is installed
    extra: str           # pip install 'pdfworkbench[EXTRA]'
    licence: str
    modality: str        # "text" (the text layer) or "pixels" (OCR of the rendered page)
    pages: Callable[[bytes], list[str]]
    call: str            # the documented call used, as a pipeline author writes it


def ocr_engine():
    """The OCR engine (loaded once per process); `probe:ocr` says what to install without it."""
    from workbench.pdf import ocr

    try:
        return ocr.engine()
    except UserError:
        raise UserError(missing("ocr")) from None


def ocr_pages(pdf: bytes, dpi: int) -> list[str]:
    from workbench.pdf import ocr

    ocr_engine()
    return ocr.ocr_pages(pdf, dpi)


# ---- the extractors (each imports its library when called) ----------------------------------

def _pypdf(pdf: bytes) -> list[str]:
    from itertools import zip_longest

    from workbench.pdf import textlayer

    texts = textlayer.text_pypdf(pdf)
    return [text.rstrip("\n") + "".join(f"\n{f}" for f in found)
            for text, found in zip_longest(texts, textlayer.form_fields_pypdf(pdf)[:len(texts)], fillvalue=[])]


def _pymupdf(pdf: bytes) -> list[str]:
    from workbench.pdf import textlayer

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
    """pymupdf4llm, imported without its side effect: its import turns MuPDF's error messages off
    for the whole process (`TOOLS.mupdf_display_errors(False)`), so every PDF read after the first
    pymupdf4llm probe lost the "MuPDF error: ..." lines the CLI and the workbench show."""
    with mupdf_switches_kept():
        import pymupdf4llm
    return pymupdf4llm


def _pymupdf4llm(pdf: bytes) -> list[str]:
    import logging

    pymupdf = mupdf()
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
    with _QUIET_LOCK, contextlib.redirect_stdout(io.StringIO()):
        level = log.level
        log.setLevel(logging.ERROR)
        rapid.addFilter(_errors_only)
        doc = pymupdf.open(stream=pdf, filetype="pdf")
        try:
            return [chunk["text"] for chunk in pymupdf4llm.to_markdown(doc, page_chunks=True, show_progress=False)]
        finally:
            doc.close()
            log.setLevel(level)
            rapid.removeFilter(_errors_only)


def _errors_only(record: Any) -> bool:
    import logging

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
    import tempfile

    from pdftext.extraction import paginated_plain_text_output

    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:  # it takes a path
        f.write(pdf)
        f.flush()
        return paginated_plain_text_output(f.name)


def _tesseract(pdf: bytes) -> list[str]:
    import pymupdf

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


# Pages rendered for OCR at this resolution (the probes' DPI; tesseract's docs ask for 300).
OCR_DPI = 150
TESSERACT_DPI = 300
TESSERACT_TIMEOUT_S = 120  # one page; a hostile page must not hang a suite

EXTRACTORS: dict[str, Extractor] = {e.name: e for e in (
    Extractor("pypdf", "pypdf", "pypdf", "", "BSD-3-Clause", "text", _pypdf,
              "PdfReader(f).pages[i].extract_text(), plus the filled form fields"),
    Extractor("pymupdf", "pymupdf", "pymupdf", "", "AGPL-3.0 (or commercial)", "text", _pymupdf,
              'pymupdf.open(...)[i].get_text("text")'),
    Extractor("ocr", "rapidocr", "rapidocr", "ocr", "Apache-2.0", "pixels", _ocr,
              "RapidOCR()(page image at 150 DPI)"),
    Extractor("pdfplumber", "pdfplumber", "pdfplumber", "extractors", "MIT", "text", _pdfplumber,
              "pdfplumber.open(f).pages[i].extract_text()"),
    Extractor("pdfminer", "pdfminer.six", "pdfminer", "extractors", "MIT", "text", _pdfminer,
              "pdfminer.high_level.extract_text(f)"),
    Extractor("pypdfium2", "pypdfium2", "pypdfium2", "extractors", "Apache-2.0 or BSD-3-Clause", "text",
              _pypdfium2, "PdfDocument(f)[i].get_textpage().get_text_bounded()"),
    Extractor("markitdown", "markitdown", "markitdown", "extractors", "MIT", "text", _markitdown,
              "MarkItDown().convert_stream(f).text_content"),
    Extractor("pymupdf4llm", "pymupdf4llm", "pymupdf4llm", "pymupdf4llm", "AGPL-3.0 (or commercial)", "text",
              _pymupdf4llm, "pymupdf4llm.to_markdown(doc, page_chunks=True)"),
    Extractor("docling-parse", "docling-parse", "docling_parse", "docling-parse", "MIT", "text", _docling_parse,
              "DoclingPdfParser().load(f).iterate_pages() -> iterate_cells(unit_type=LINE)"),
    Extractor("pdftext", "pdftext", "pdftext", "pdftext", "Apache-2.0", "text", _pdftext,
              "pdftext.extraction.paginated_plain_text_output(path)"),
    Extractor("tesseract", "", "", "", "Apache-2.0", "pixels", _tesseract,
              "tesseract stdin stdout (page image at 300 DPI); the Debian package tesseract-ocr"),
)}

# Seconds a page rather than milliseconds (OCR, a layout model, a converter's start-up): their
# answers are cached; the others are cheaper to rerun than to look up.
SLOW = frozenset({"ocr", "tesseract", "markitdown", "pymupdf4llm", "docling-parse"})


def get(name: str) -> Extractor:
    try:
        return EXTRACTORS[name]
    except KeyError:
        raise UserError(f"unknown extractor {name!r}; choose one of {', '.join(EXTRACTORS)}") from None


def available(name: str) -> bool:
    """Whether the extractor is installed, without importing it or asking its version (cheap
    enough for a screen's first frame)."""
    ex = get(name)
    return shutil.which("tesseract") is not None if not ex.dist else importlib.util.find_spec(ex.module) is not None


@cache
def version(name: str) -> str | None:
    """The installed version of the extractor's library (tesseract: its binary's), None when absent."""
    ex = get(name)
    if not ex.dist:
        binary = shutil.which("tesseract")
        if binary is None:
            return None
        try:
            done = subprocess.run([binary, "--version"], capture_output=True, timeout=10, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return None
        first = (done.stdout or done.stderr).decode(errors="replace").split("\n", 1)[0].split()
        return first[-1] if first else "unknown"
    if importlib.util.find_spec(ex.module) is None:
        return None
    try:
        return importlib.metadata.version(ex.dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def installed() -> list[str]:
    """The extractors that can run here, in the registry's order."""
    return [n for n in EXTRACTORS if version(n) is not None]


def missing(name: str) -> str:
    """What to install for an extractor that is absent here (one line)."""
    ex = get(name)
    if not ex.dist:
        return f"{name} is not installed: apt-get install tesseract-ocr (a system package, not a pip one)"
    return f"{name} is not installed: pip install 'pdfworkbench[{ex.extra}]' ({ex.dist})"


def page_texts(name: str, pdf: bytes) -> list[str]:
    """Every page's text as the extractor reads it. A library that is absent is a UserError
    naming what to install; a PDF it cannot read is a UserError naming the extractor."""
    ex = get(name)
    if version(name) is None:
        raise UserError(missing(name))
    try:
        return ex.pages(pdf)
    except (UserError, PdfError):
        raise
    except Exception as exc:  # a library on a hostile file raises anything
        raise UserError(f"{name} cannot read this PDF ({type(exc).__name__}: {str(exc)[:160]})") from None


def page_text(name: str, pdf: bytes, page: int) -> str:
    """One page's text (1-based page number), as `name` reads the document."""
    pages = page_texts(name, pdf)
    if not 1 <= page <= len(pages):
        raise UserError(f"page {page}: {name} read {len(pages)} page(s)")
    return pages[page - 1]
