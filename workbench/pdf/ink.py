"""Ink: a page's pixels with and without its text, which pixels of a box are a span's own ink,
and the opaque boxes drawn over text. The pixel tests of `workbench.pdf.visibility`.

Boxes are PDF points (top-left origin) until `px_boxes` or `to_px` turns them into pixels of the
rendered page; arrays are numpy luminance (0..255, HxW uint8).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pymupdf

from workbench.pdf.spans import Span

# A pixel is ink of a span if the text changed its luminance by at least this much (0..255)...
MIN_CONTRAST = 32.0
# A span needs this many ink pixels (and this fraction of its box) to count as visible.
MIN_INK_PIXELS = 3
MIN_INK_FRACTION = 0.004


def area(r: tuple[float, float, float, float]) -> float:
    return max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1])


def intersect(a, b) -> tuple[float, float, float, float]:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


_LUMA = (0.299, 0.587, 0.114)


def luma(rgb: tuple[float, float, float]) -> float:
    return sum(c * 255 * w for c, w in zip(rgb, _LUMA, strict=True))


def gray(page, dpi: int):
    """The page as an HxW uint8 luminance array (the pixmap is kept alive by the array's base)."""
    pix = page.get_pixmap(dpi=dpi, alpha=False, colorspace=pymupdf.csGRAY)
    arr = np.frombuffer(pix.samples_mv, dtype=np.uint8).reshape(pix.height, pix.stride)[:, : pix.width]
    return arr, pix


def page_arrays(page, dpi: int):
    """The page rendered as is and with every text object removed, as luminance arrays.

    Contrast is judged on luminance, as legibility guidelines do: text that differs from its
    background only in hue (red on green of the same lightness) counts as not contrasting.
    """
    full, keep1 = gray(page, dpi)
    page.add_redact_annot(pymupdf.Rect(-1e5, -1e5, 1e5, 1e5), fill=False)
    page.apply_redactions(images=pymupdf.PDF_REDACT_IMAGE_NONE,
                          graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
                          text=pymupdf.PDF_REDACT_TEXT_REMOVE)
    bare, keep2 = gray(page, dpi)
    if bare.shape != full.shape:  # a redaction never changes the page size; be safe anyway
        bare = full
    return full, bare, (keep1, keep2)


_OWN_LUTS: dict[float, Any] = {}


def _own_lut(target: float):
    """For an opaque span whose ink has luminance `target`: a 256 x 256 table, True at [a, b]
    when a pixel that is `a` with the text and `b` without it is this span's ink (the test in
    `measure_ink`, computed once for every pair of values)."""
    lut = _OWN_LUTS.get(target)
    if lut is None:
        a = np.arange(256, dtype=np.int16)[:, None]
        b = np.arange(256, dtype=np.int16)[None, :]
        lut = (np.abs(a - b) >= MIN_CONTRAST) & (np.abs(a - target) < np.abs(b - target) - MIN_CONTRAST / 2)
        if len(_OWN_LUTS) >= 256:
            _OWN_LUTS.clear()
        _OWN_LUTS[target] = lut
    return lut


_OWN_RANGES: dict[float, tuple[int, int] | None] = {}


def _own_range(target: float) -> tuple[int, int] | None:
    """The values `a` for which `_own_lut(target)[a, 255]` holds, as (lo, hi) (hi < lo: none):
    on white paper the pixels that moved toward `target` by a visible step form one range
    (None if they ever did not: then the table is used)."""
    if target not in _OWN_RANGES:
        hits = np.flatnonzero(_own_lut(target)[:, 255])
        found = (int(hits[0]), int(hits[-1])) if hits.size else (1, 0)
        if hits.size and hits.size != found[1] - found[0] + 1:
            found = None
        if len(_OWN_RANGES) >= 256:
            _OWN_RANGES.clear()
        _OWN_RANGES[target] = found
    return _OWN_RANGES[target]


def measure_ink(full, bare, box_px, rgb, opacity: float, holes=(), blank: bool = False) -> tuple[int, int, Any]:
    """(ink pixels of this span's lightness that the text added, pixels looked at, the pixels
    under it without text).

    `holes` are pixel boxes of other text overlapping this span's box: their ink is not this
    span's, so they are left out (unless they cover the whole box, when nothing else is left).
    `blank`: the page without its text is white paper (`bare` is 255 everywhere).
    """
    x0, y0, x1, y1 = box_px
    a = full[y0:y1, x0:x1]
    b = bare[y0:y1, x0:x1]
    if a.size == 0:
        return 0, 0, np.full((1, 1), 255, dtype=np.int16)
    target = luma(rgb)
    # The text moved the pixel by a visible step, toward its own colour (anti-aliased edges of
    # small glyphs never reach the colour itself, so "toward" is the test, not "equal").
    span_range = _own_range(target) if blank and opacity >= 0.999 else None
    if span_range is not None:  # on white paper the test is a range of values
        lo, hi = span_range
        own = (a <= hi) if lo == 0 else (a >= lo) & (a <= hi)
    elif opacity >= 0.999:  # the test depends only on the two pixel values: look it up
        own = _own_lut(target)[a, b]
    else:  # a translucent span's ink is its colour blended with what is under it
        a16, b16 = a.astype(np.int16), b.astype(np.int16)
        target = opacity * target + (1 - opacity) * b16
        own = (np.abs(a16 - b16) >= MIN_CONTRAST) & (np.abs(a16 - target) < np.abs(b16 - target) - MIN_CONTRAST / 2)
    n = a.size
    if holes:
        mask = np.ones(a.shape, dtype=bool)
        for hx0, hy0, hx1, hy1 in holes:
            mask[max(0, hy0 - y0):max(0, hy1 - y0), max(0, hx0 - x0):max(0, hx1 - x0)] = False
        left = int(np.count_nonzero(mask))
        if left >= max(MIN_INK_PIXELS * 4, 0.05 * n):
            own &= mask
            n = left
    return int(np.count_nonzero(own)), n, b  # the median of `b` only when it is needed


class Overlaps:
    """`overlaps[k]`: the indices of the other spans whose boxes overlap span k's box. Worked out
    for a block of spans at a time, as they are asked for in order: a page of 24,000 spans (a
    page's operators allow some 30,000) made four 24,000 x 24,000 matrices at once, 1.3 GB."""

    BLOCK = 512

    def __init__(self, spans: list[Span]) -> None:
        box = np.array([s.bbox for s in spans], dtype=np.float64).reshape(-1, 4)
        self._x0, self._y0, self._x1, self._y1 = (box[:, i] for i in range(4))
        self._base, self._hit = -1, None

    def __len__(self) -> int:
        return len(self._x0)

    def __getitem__(self, k: int) -> list[int]:
        if not 0 <= k < len(self):
            raise IndexError(k)
        base = k - k % self.BLOCK
        if base != self._base:
            x0, y0, x1, y1 = self._x0, self._y0, self._x1, self._y1
            r = slice(base, base + self.BLOCK)
            self._hit = ((x0[r, None] < x1[None, :] - 0.5) & (x0[None, :] < x1[r, None] - 0.5)
                         & (y0[r, None] < y1[None, :] - 0.5) & (y0[None, :] < y1[r, None] - 0.5))
            self._base = base
        found = np.flatnonzero(self._hit[k - base])
        return found[found != k].tolist()


def opaque_covers(drawings) -> list[tuple[int, tuple[float, float, float, float]]]:
    """(seqno, rect) of opaque filled rectangles: what can hide text drawn before them."""
    out = []
    for d in drawings:
        if "f" not in (d.get("type") or "") or (d.get("fill_opacity") or 0) < 0.99:
            continue
        items = d.get("items") or ()
        if items and all(it[0] in ("re", "qu") for it in items):
            out.extend((int(d.get("seqno", -1)), tuple(it[1])) for it in items if it[0] == "re")
    return out


def to_px(box, matrix, width: int, height: int) -> tuple[int, int, int, int]:
    r = pymupdf.Rect(box) * matrix
    x0, y0 = max(0, math.floor(r.x0)), max(0, math.floor(r.y0))
    x1, y1 = min(width, math.ceil(r.x1)), min(height, math.ceil(r.y1))
    return (x0, y0, max(x0, x1), max(y0, y1))


def px_boxes(boxes, scale: float, width: int, height: int) -> list[tuple[int, int, int, int]]:
    """`to_px` of many boxes at once (the scale `dpi / 72`): the same pixels, because mupdf
    transforms a rectangle in single precision and so does this."""
    if not boxes:
        return []
    r = np.asarray(boxes, dtype=np.float32).reshape(-1, 4) * np.float32(scale)
    if not np.isfinite(r).all():  # not from any real page; the slow path says what it does
        matrix = (scale, 0.0, 0.0, scale, 0.0, 0.0)
        return [to_px(b, matrix, width, height) for b in boxes]
    x0 = np.maximum(0, np.floor(r[:, 0])).astype(np.int64)
    y0 = np.maximum(0, np.floor(r[:, 1])).astype(np.int64)
    x1 = np.maximum(x0, np.minimum(width, np.ceil(r[:, 2])).astype(np.int64))
    y1 = np.maximum(y0, np.minimum(height, np.ceil(r[:, 3])).astype(np.int64))
    return list(zip(x0.tolist(), y0.tolist(), x1.tolist(), y1.tolist(), strict=True))


def share(box, rects) -> float:
    """The largest share of `box` that one of `rects` (an N x 4 array) covers."""
    w = np.minimum(rects[:, 2], box[2]) - np.maximum(rects[:, 0], box[0])
    h = np.minimum(rects[:, 3], box[3]) - np.maximum(rects[:, 1], box[1])
    return float((np.clip(w, 0, None) * np.clip(h, 0, None)).max()) / max(area(box), 1e-6)


class Covers:
    """The opaque boxes of a page (`opaque_covers`), asked about many spans: as arrays, since a
    page may draw thousands of each (3,375 of both took 110 s asked one pair at a time)."""

    def __init__(self, covers: list[tuple[int, tuple[float, float, float, float]]]) -> None:
        self.n = len(covers)
        if self.n:
            self.seq = np.array([q for q, _ in covers])
            self.box = np.array([r for _, r in covers], dtype=np.float64).reshape(-1, 4)

    def over(self, bbox, seqno: int):
        """The boxes drawn after `seqno` that overlap `bbox` (an N x 4 array), or None."""
        if not self.n:
            return None
        b = self.box
        hit = ((self.seq > seqno) & (b[:, 0] < bbox[2]) & (bbox[0] < b[:, 2])
               & (b[:, 1] < bbox[3]) & (bbox[1] < b[:, 3]))
        return b[hit] if hit.any() else None

    def hide(self, bbox, seqno: int, least: float) -> bool:
        """Whether a box drawn after `seqno` covers at least `least` square points of `bbox`."""
        if not self.n:
            return False
        b = self.box
        w = np.minimum(b[:, 2], bbox[2]) - np.maximum(b[:, 0], bbox[0])
        h = np.minimum(b[:, 3], bbox[3]) - np.maximum(b[:, 1], bbox[1])
        return bool(np.any((self.seq > seqno) & (np.clip(w, 0, None) * np.clip(h, 0, None) >= least)))

