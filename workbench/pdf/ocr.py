"""OCR of rendered pages: rapidocr 3 on onnxruntime (the `ocr` extra), with the models its wheel
ships, so it runs offline. One engine per process, shared by the `probe:ocr` reader and
attribution (a value printed only in a page's pixels)."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from workbench.core.errors import UserError

_engine_obj: Any = None
_lock = threading.Lock()
# (sha1 of the PDF, page, dpi) -> lines: a page is read once however many answers ask about it.
_CACHE: OrderedDict[tuple[bytes, int, int], list[OcrLine]] = OrderedDict()
CACHE_PAGES = 64


@dataclass(frozen=True)
class OcrLine:
    text: str
    box: tuple[float, float, float, float]  # PDF points, top-left origin


def available() -> bool:
    """Whether the OCR extra is installed (nothing is loaded)."""
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("rapidocr", "onnxruntime"))


def engine() -> Any:
    global _engine_obj
    with _lock:
        if _engine_obj is None:
            try:
                import onnxruntime  # noqa: F401  (rapidocr needs an inference runtime of its own)
                from rapidocr import RapidOCR
            except ImportError:
                raise UserError(
                    "OCR needs an engine: pip install 'pdfworkbench[ocr]' (rapidocr and onnxruntime)"
                ) from None
            # The models in rapidocr's wheel (nothing is downloaded); its INFO lines off.
            _engine_obj = RapidOCR(params={"Global.log_level": "warning"})
        return _engine_obj


def _read(page: Any, dpi: int) -> list[OcrLine]:
    import numpy as np

    from workbench.pdf.document import render_dpi

    ocr = engine()
    used = render_dpi(page, dpi)
    pix = page.get_pixmap(dpi=used, alpha=False)
    img = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3)
    with _lock:
        result = ocr(img[:, :, ::-1].copy())  # the engine wants BGR, as OpenCV reads
    scale = 72.0 / used
    lines = []
    for text, quad in zip(result.txts or (), result.boxes if result.boxes is not None else (), strict=False):
        xs = [float(p[0]) * scale for p in quad]
        ys = [float(p[1]) * scale for p in quad]
        lines.append(OcrLine(str(text), (min(xs), min(ys), max(xs), max(ys))))
    return lines


def ocr_page_lines(pdf: bytes, page: int, dpi: int = 150, name: str = "PDF") -> list[OcrLine]:
    """What OCR reads on page `page` (0-based), line by line with boxes (cached per page)."""
    from workbench.pdf.document import open_fitz

    key = (hashlib.sha1(pdf).digest(), page, dpi)
    with _lock:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    doc = open_fitz(pdf, name)
    try:
        lines = _read(doc[page], dpi)
    finally:
        doc.close()
    with _lock:
        _CACHE[key] = lines
        while len(_CACHE) > CACHE_PAGES:
            _CACHE.popitem(last=False)
    return lines


def ocr_pages(pdf: bytes, dpi: int) -> list[str]:
    """Every page's OCR text, one string per page."""
    from workbench.pdf.document import open_fitz

    engine()  # a missing extra says so before any page is rendered
    doc = open_fitz(pdf)
    try:
        return ["\n".join(line.text for line in _read(page, dpi)) for page in doc]
    finally:
        doc.close()
