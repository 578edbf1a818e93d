"""OCR of rendered pages: rapidocr 3 on onnxruntime (the `ocr` extra), with the models its wheel
ships, so it runs offline. One engine per process, shared by the `probe:ocr` reader and
attribution (a value printed only in a page's pixels)."""

from __future__ import annotations

import importlib.util
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pymupdf

from workbench.core.cache import code_fingerprint, key_of, part_folder, read_entry, write_entry
from workbench.core.case import sha256_hex
from workbench.core.errors import UserError
from workbench.pdf.budget import too_complex
from workbench.pdf.document import open_fitz, render_dpi

_engines: dict[str, Any] = {}
_lock = threading.Lock()
# (digest of the PDF, page, dpi, region, flip, upright) -> lines: a page is read once however many
# answers ask about it; a scan's check by what was read: (SCAN, digest of the rendered pixels, ...).
# `ocr_page_lines` keeps what it read in the cache folder as well (`_kept`).
_CACHE: OrderedDict[tuple[Any, ...], list[OcrLine]] = OrderedDict()
CACHE_PAGES = 64


@dataclass(frozen=True)
class OcrLine:
    text: str
    box: tuple[float, float, float, float]  # PDF points, top-left origin


def available() -> bool:
    """Whether the OCR extra is installed (nothing is loaded)."""
    return all(importlib.util.find_spec(m) is not None for m in ("rapidocr", "onnxruntime"))


# How a scan's picture is read to judge its invisible text layer (`scan_page_lines`): text
# detection, 3.4 s of the 7-10 s of CPU a page took at 150 DPI, runs on the page scaled down to
# SCAN_DET_SIDE pixels on its long side (rapidocr's default scales it up to 736 on its short side,
# so an A4 page at 150 DPI was detected at 1240 x 1754); the lines it finds are then recognised on
# the full-resolution render, as before. And onnxruntime runs on one thread: on a 2-core machine
# shared by parallel workers its default pool spent 9.9 s of CPU where one thread spends 7.3 s.
# (At 736 the small footnote of footnote_override loses two printed words: hidden wrongly.)
SCAN = "scan"
SCAN_DET_SIDE = 960
_ENGINE_PARAMS = {
    "page": {},
    SCAN: {"Det.limit_type": "max", "Det.limit_side_len": SCAN_DET_SIDE,
           "EngineConfig.onnxruntime.intra_op_num_threads": 1,
           "EngineConfig.onnxruntime.inter_op_num_threads": 1},
}


def engine(kind: str = "page") -> Any:
    """The process's OCR engine of `kind`: "page" (the probe:ocr reader, attribution) or SCAN
    (the check of a scan's text layer, tuned for its cost: see SCAN_DET_SIDE)."""
    with _lock:
        if kind not in _engines:
            try:  # (the `ocr` extra, imported when an engine is first wanted)
                import onnxruntime  # noqa: F401  (rapidocr needs an inference runtime of its own)
                from rapidocr import RapidOCR
            except ImportError:
                raise UserError(
                    "OCR needs an engine: pip install 'pdfworkbench[ocr]' (rapidocr and onnxruntime)"
                ) from None
            # The models in rapidocr's wheel (nothing is downloaded); its INFO lines off, and its
            # warnings ("The text detection result is empty" on stderr for a page or clip with no
            # text: an empty result, which the caller sees).
            _engines[kind] = RapidOCR(params={"Global.log_level": "error", **_ENGINE_PARAMS[kind]})
        return _engines[kind]


FLIPS = ("", "left-right")  # how a region may be read: as drawn, or as in a mirror


def _read(page: Any, dpi: int, clip: tuple[float, float, float, float] | None = None,
          flip: str = "", upright: bool = False) -> list[OcrLine]:
    """OCR of the page (or of `clip` on it, PDF points, top-left origin), read as drawn or
    mirrored left-right (`flip`); boxes in the page's points either way. `upright`: every line
    is known to stand upright, so the engine's angle classifier is not asked (it turns some
    legible lines of a scan 180 degrees and reads them as noise: "Agre     t ( t t    .0o")."""
    used = render_dpi(page, dpi)
    pix = page.get_pixmap(dpi=used, alpha=False, clip=pymupdf.Rect(clip) if clip else None)
    return _read_pixmap(engine(), pix, used, clip, flip, upright)


def _read_pixmap(ocr: Any, pix: Any, used: int, clip: tuple[float, float, float, float] | None = None,
                 flip: str = "", upright: bool = False) -> list[OcrLine]:
    """`_read` of a page rendered (`pix`, at `used` DPI) by the engine `ocr`."""
    import numpy as np

    img = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3)
    if flip == "left-right":  # (a top-bottom mirror is this turned 180°, which the engine undoes)
        img = img[:, ::-1]
    with _lock:
        # (the engine wants BGR, as OpenCV reads)
        result = ocr(np.ascontiguousarray(img[:, :, ::-1]), use_cls=not upright)
    scale = 72.0 / used
    x0, y0 = (clip[0], clip[1]) if clip else (0.0, 0.0)
    lines = []
    for text, quad in zip(result.txts or (), result.boxes if result.boxes is not None else (), strict=False):
        xs = [float(p[0]) for p in quad]
        if flip == "left-right":
            xs = [pix.width - x for x in xs]
        xs = [x0 + x * scale for x in xs]
        ys = [y0 + float(p[1]) * scale for p in quad]
        lines.append(OcrLine(str(text), (min(xs), min(ys), max(xs), max(ys))))
    return lines


def _recall(key: tuple[Any, ...]) -> list[OcrLine] | None:
    """The lines this process read under `key` (`_CACHE`), or None."""
    with _lock:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    return None


def _remember(key: tuple[Any, ...], lines: list[OcrLine]) -> list[OcrLine]:
    """Keep `lines` under `key` in this process (the CACHE_PAGES last read), and give them back."""
    with _lock:
        _CACHE[key] = lines
        while len(_CACHE) > CACHE_PAGES:
            _CACHE.popitem(last=False)
    return lines


# ---- the OCR cache (`core.cache`) -------------------------------------------------------------

# What `ocr_page_lines` reads depends on the PDF's bytes and its arguments, the code that renders
# and reads the page (this package; core's limits: a page over the work budget reads as nothing),
# and the libraries that draw and read it: all are in the key. Kept in `ocr/` in the cache folder,
# so a page is read once across commands (a second or more a region, as drawn and mirrored):
# `grade --explain` once per answer, the Runs screen opened again, `report --by source`.
CACHE_FORMAT = 1
_CODE = ("pdf", "core")
_LIBRARIES = ("pymupdf", "rapidocr", "onnxruntime", "numpy", "opencv-python", "opencv-python-headless")


def ocr_cache() -> Path:
    """The OCR cache's folder: `ocr/` in the cache folder (`PDFWORKBENCH_CACHE_DIR`)."""
    return part_folder("ocr")


def _kept(key: str) -> list[OcrLine] | None:
    """The lines the cache holds under `key`, or None (missing, or not an entry of ours)."""
    entry = read_entry(ocr_cache(), key, "OCR cache entry")
    if entry is None:
        return None
    try:
        lines = [OcrLine(text, tuple(float(v) for v in box)) for text, box in entry["lines"]]
    except (KeyError, TypeError, ValueError):
        return None
    if any(not isinstance(ln.text, str) or len(ln.box) != 4 for ln in lines):
        return None
    return lines


def ocr_page_lines(pdf: bytes, page: int, dpi: int = 150, name: str = "PDF",
                   clip: tuple[float, float, float, float] | None = None, flip: str = "",
                   upright: bool = False) -> list[OcrLine]:
    """What OCR reads on page `page` (0-based), or in `clip` on it, as drawn or mirrored (`flip`,
    one of FLIPS), line by line with boxes in the page's points (kept per page and region, in
    this process and in the OCR cache). `upright`: the lines are known to stand upright (see
    `_read`)."""
    key = (sha256_hex(pdf), page, dpi, tuple(round(v, 1) for v in clip) if clip else None, flip, upright)
    recalled = _recall(key)
    if recalled is not None:
        return recalled
    kept = key_of(CACHE_FORMAT, code_fingerprint(_CODE, _LIBRARIES), *key)
    lines = _kept(kept)
    if lines is None:
        doc = open_fitz(pdf, name)
        try:
            lines = [] if too_complex(doc, page) else _read(doc[page], dpi, clip, flip, upright)
        finally:
            doc.close()
        write_entry(ocr_cache(), kept, {"lines": [[ln.text, list(ln.box)] for ln in lines]}, sync=False)
    return _remember(key, lines)


def scan_page_lines(page: Any, dpi: int = 150, upright: bool = False) -> list[OcrLine]:
    """What OCR reads on `page` (a pymupdf page) to judge a scan's invisible text layer, read by
    the SCAN engine, cached by what was read: the digest of the rendered pixels (so a page is
    read once wherever its bytes come from, and nothing hashes the whole PDF for each page)."""
    used = render_dpi(page, dpi)
    pix = page.get_pixmap(dpi=used, alpha=False)
    key = (SCAN, sha256_hex(pix.samples_mv), pix.width, pix.height, used, upright)
    recalled = _recall(key)
    if recalled is not None:
        return recalled
    lines = _read_pixmap(engine(SCAN), pix, used, upright=upright)
    return _remember(key, lines)


def rows(lines: list[OcrLine]) -> list[OcrLine]:
    """The lines that sit on one row (half their height overlapping), read left to right as one
    line: the engine splits a widely set value at its punctuation ("$41," + ",693.80"), reading
    the character it split at twice, which the join reads once."""
    out: list[list[OcrLine]] = []
    for line in sorted(lines, key=lambda ln: (ln.box[1] + ln.box[3]) / 2):
        y0, y1 = line.box[1], line.box[3]
        if out:
            last = out[-1][-1].box
            if min(y1, last[3]) - max(y0, last[1]) >= 0.5 * min(y1 - y0, last[3] - last[1]):
                out[-1].append(line)
                continue
        out.append([line])
    joined = []
    for row in out:
        if len(row) < 2:
            continue
        row.sort(key=lambda ln: ln.box[0])
        text = row[0].text
        for prev, ln in zip(row, row[1:], strict=False):
            gap = ln.box[0] - prev.box[2]
            nxt = ln.text[1:] if text and ln.text and text[-1] == ln.text[0] and not ln.text[0].isalnum() else ln.text
            text += ("" if gap < 0.5 * (ln.box[3] - ln.box[1]) else " ") + nxt
        joined.append(OcrLine(text, (min(ln.box[0] for ln in row), min(ln.box[1] for ln in row),
                                     max(ln.box[2] for ln in row), max(ln.box[3] for ln in row))))
    return joined


def ocr_pages(pdf: bytes, dpi: int) -> list[str]:
    """Every page's OCR text, one string per page."""
    engine()  # a missing extra says so before any page is rendered
    doc = open_fitz(pdf)
    try:
        return ["" if too_complex(doc, i) else "\n".join(line.text for line in _read(doc[i], dpi))
                for i in range(doc.page_count)]
    finally:
        doc.close()
