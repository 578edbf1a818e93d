"""The PDF text extractors pipelines use: the registry.

One registry, `EXTRACTORS`: name -> `Extractor` (the distribution whose version is recorded, the
extra that installs it, its licence, what it reads and the documented call used). Reading a PDF
with one is `pagetexts.page_texts(name, pdf)`; `version(name)` says whether it is installed here
(None when not) and `missing(name)` what to install.

This module loads no PDF library: the reader names (`base.PROBES`), the shell's completion of
readers and the workbench's tab list read it.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache
from typing import Literal

from workbench.core.errors import UserError


@dataclass(frozen=True)
class Extractor:
    name: str
    dist: str            # the distribution whose version the record carries ("" : a system binary)
    module: str          # imported to tell whether it is installed
    extra: str           # pip install 'pdfworkbench[EXTRA]'
    licence: str
    modality: Literal["text", "pixels"]   # the text layer, or OCR of the rendered page
    call: str            # the documented call used, as a pipeline author writes it
    # Skips a page over the work budgets itself (pdf.textlayer, pdf.ocr); every other extractor is
    # given the document with such pages emptied (`pagetexts.page_texts`).
    budgeted: bool = False


EXTRACTORS: dict[str, Extractor] = {e.name: e for e in (
    Extractor("pypdf", "pypdf", "pypdf", "", "BSD-3-Clause", "text",
              "PdfReader(f).pages[i].extract_text(), plus the filled form fields", budgeted=True),
    Extractor("pymupdf", "pymupdf", "pymupdf", "", "AGPL-3.0 (or commercial)", "text",
              'pymupdf.open(...)[i].get_text("text")', budgeted=True),
    Extractor("ocr", "rapidocr", "rapidocr", "ocr", "Apache-2.0", "pixels",
              "RapidOCR()(page image at 150 DPI)", budgeted=True),
    Extractor("pdfplumber", "pdfplumber", "pdfplumber", "extractors", "MIT", "text",
              "pdfplumber.open(f).pages[i].extract_text()"),
    Extractor("pdfminer", "pdfminer.six", "pdfminer", "extractors", "MIT", "text",
              "pdfminer.high_level.extract_text(f)"),
    Extractor("pypdfium2", "pypdfium2", "pypdfium2", "extractors", "Apache-2.0 or BSD-3-Clause", "text",
              "PdfDocument(f)[i].get_textpage().get_text_bounded()"),
    Extractor("markitdown", "markitdown", "markitdown", "extractors", "MIT", "text",
              "MarkItDown().convert_stream(f).text_content"),
    Extractor("pymupdf4llm", "pymupdf4llm", "pymupdf4llm", "pymupdf4llm", "AGPL-3.0 (or commercial)", "text",
              "pymupdf4llm.to_markdown(doc, page_chunks=True)"),
    Extractor("docling-parse", "docling-parse", "docling_parse", "docling-parse", "MIT", "text",
              "DoclingPdfParser().load(f).iterate_pages() -> iterate_cells(unit_type=LINE)"),
    Extractor("pdftext", "pdftext", "pdftext", "pdftext", "Apache-2.0", "text",
              "pdftext.extraction.paginated_plain_text_output(path)"),
    Extractor("tesseract", "", "", "", "Apache-2.0", "pixels",
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


def modality(name: str) -> str:
    """What the extractor reads, so what its probe (`probe:NAME`) is sent: "text" (the text
    layer) or "pixels" (the rendered pages, for OCR)."""
    return get(name).modality
