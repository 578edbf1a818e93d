"""Offline probes: readers that need no key and no network and answer deterministically.

`probe:NAME` answers with the document's text as the extractor NAME reads it (the registry and
each one's documented call: `workbench.providers.extractors`): pypdf (with a page's filled form
fields as its form API gives them, as a pipeline reading a filled form with pypdf does), pymupdf,
pdfplumber, pdfminer, pypdfium2, markitdown, pymupdf4llm, docling-parse and pdftext read the text
layer; `probe:ocr` (rapidocr on onnxruntime, the `ocr` extra, with the models its wheel ships) and
`probe:tesseract` (the Debian binary) read the rendered pages. What a probe is sent is its
extractor's `extractors.modality`.
"""

from __future__ import annotations

from workbench.core.errors import UserError
from workbench.providers import extractors
from workbench.providers.pagetexts import ocr_engine, ocr_pages, page_texts


def check_probe(name: str) -> None:
    """Raise what to install when the probe cannot run here (before any case is read)."""
    if name == "ocr":
        ocr_engine()
    elif extractors.version(name) is None:
        raise UserError(extractors.missing(name))


def probe_answer(name: str, pdf: bytes, dpi: int | None) -> str:
    """The probe's answer: every page's text, pages separated by a form feed."""
    if name not in extractors.EXTRACTORS:
        raise UserError(f"unknown probe {name!r}; choose one of {', '.join(extractors.EXTRACTORS)}")
    pages = ocr_pages(pdf, dpi or 150) if name == "ocr" else page_texts(name, pdf)
    return "\f".join(p.rstrip("\n") for p in pages)
