"""Offline probes: readers that need no key and no network and answer deterministically.

`probe:pypdf` and `probe:pymupdf` answer with the text layer as each extractor reads it; pypdf,
which reads no annotation appearances, adds a page's filled form fields as its form API gives
them (`name: value`), as a pipeline reading a filled form with pypdf does (pymupdf's text has
the fields' appearances already);
`probe:ocr` with OCR of the rendered pages: rapidocr 3 on onnxruntime (the `ocr` extra), with
the models its wheel ships, so it runs offline.
"""

from __future__ import annotations

from typing import Any

from workbench.core.errors import UserError

PROBE_MODALITY = {"pypdf": "text", "pymupdf": "text", "ocr": "pixels"}


def probe_modality(name: str) -> str:
    return PROBE_MODALITY[name]


def _engine() -> Any:
    """The OCR engine (loaded once per process); `probe:ocr` says what to install without it."""
    from workbench.pdf.ocr import engine

    try:
        return engine()
    except UserError:
        raise UserError(
            "probe:ocr needs an OCR engine: pip install 'pdfworkbench[ocr]' (rapidocr and onnxruntime)"
        ) from None


def ocr_pages(pdf: bytes, dpi: int) -> list[str]:
    from workbench.pdf import ocr

    _engine()
    return ocr.ocr_pages(pdf, dpi)


def probe_answer(name: str, pdf: bytes, dpi: int | None) -> str:
    """The probe's answer: every page's text, pages separated by a form feed."""
    from workbench.pdf import textlayer

    if name == "pypdf":
        from itertools import zip_longest

        texts = textlayer.text_pypdf(pdf)
        pages = [text.rstrip("\n") + "".join(f"\n{f}" for f in found)
                 for text, found in zip_longest(texts, textlayer.form_fields_pypdf(pdf)[:len(texts)], fillvalue=[])]
    elif name == "pymupdf":
        pages = textlayer.text_pymupdf(pdf)
    elif name == "ocr":
        pages = ocr_pages(pdf, dpi or 150)
    else:
        raise UserError(f"unknown probe {name!r}; choose one of {', '.join(PROBE_MODALITY)}")
    return "\f".join(p.rstrip("\n") for p in pages)
