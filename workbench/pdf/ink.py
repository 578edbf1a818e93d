"""Ink: a page's pixels with and without its text, which pixels of a box are a span's own ink,
and the opaque boxes drawn over text. The pixel tests of `workbench.pdf.visibility`.

Boxes are PDF points (top-left origin) until `px_boxes` or `to_px` turns them into pixels of the
rendered page. A page's pixels are asked about through `PagePixels`. Most text lies where the page
without its text is one shade (white paper, the inside of a filled box): there whether a pixel is
a span's ink depends on its value alone, and the bytes of MuPDF's render in the box are counted
through a table of those values, with no array made and numpy not loaded (its import was a third
of `grade --explain`'s CPU beyond pymupdf's). Elsewhere (text over a picture or across a fill's
edge) the box is read from numpy luminance arrays (0..255, HxW uint8, `measure_ink`), numpy
imported there; so are a page's opaque boxes when it draws many (`Covers`) and its spans when
many are piled in one place (`Overlaps`).
"""

from __future__ import annotations

import math
from array import array
from itertools import pairwise
from typing import Any

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


def _luminance(pix):
    """A grey pixmap's samples as an HxW uint8 array (a view: the pixmap must be kept alive)."""
    import numpy as np

    return np.frombuffer(pix.samples_mv, dtype=np.uint8).reshape(pix.height, pix.stride)[:, : pix.width]


def _is_own(a: float, b: float, target: float) -> bool:
    """Whether a pixel that is `a` with the text and `b` without it is ink of luminance `target`:
    the text moved it by a visible step, toward its own colour (anti-aliased edges of small
    glyphs never reach the colour itself, so "toward" is the test, not "equal")."""
    return abs(a - b) >= MIN_CONTRAST and abs(a - target) < abs(b - target) - MIN_CONTRAST / 2


_OWN_LUTS: dict[float, Any] = {}


def _own_lut(target: float):
    """For an opaque span whose ink has luminance `target`: a 256 x 256 table, True at [a, b]
    when a pixel that is `a` with the text and `b` without it is this span's ink (`_is_own`,
    computed once for every pair of values)."""
    import numpy as np

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
    """The values of a pixel that is an opaque span's ink on white paper (those `_not_own` leaves),
    as (lo, hi) (hi < lo: none): the pixels that moved toward `target` by a visible step form one
    range (None if they ever did not: then the arrays' table is used)."""
    if target not in _OWN_RANGES:
        hits = sorted(set(range(256)).difference(_not_own(target, 1.0, 255)))
        found = (hits[0], hits[-1]) if hits else (1, 0)
        if hits and len(hits) != found[1] - found[0] + 1:
            found = None
        if len(_OWN_RANGES) >= 256:
            _OWN_RANGES.clear()
        _OWN_RANGES[target] = found
    return _OWN_RANGES[target]


def measure_ink(full, bare, box_px, rgb, opacity: float, holes=(), blank: bool = False) -> tuple[int, int, Any]:
    """(ink pixels of this span's lightness that the text added, pixels looked at, the pixels
    under it without text), from the page's luminance arrays.

    `holes` are pixel boxes of other text overlapping this span's box: their ink is not this
    span's, so they are left out (unless they cover the whole box, when nothing else is left).
    `blank`: the page without its text is white paper (`bare` is 255 everywhere).
    """
    import numpy as np

    x0, y0, x1, y1 = box_px
    a = full[y0:y1, x0:x1]
    b = bare[y0:y1, x0:x1]
    if a.size == 0:
        return 0, 0, np.full((1, 1), 255, dtype=np.int16)
    target = luma(rgb)
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
        if left >= _least_left(n):
            own &= mask
            n = left
    return int(np.count_nonzero(own)), n, b  # the median of `b` only when it is needed


def enough_ink(own: int, n: int) -> bool:
    """Whether `own` ink pixels of a span's own in a box of `n` pixels make it visible."""
    return n > 0 and own >= max(MIN_INK_PIXELS, MIN_INK_FRACTION * n)


def _least_left(n: int) -> float:
    """Pixels of a box of `n` that must be left outside the holes for them to be left out."""
    return max(MIN_INK_PIXELS * 4, 0.05 * n)


# A box that other text overlaps in more places than this is measured on the arrays.
_MOST_HOLES = 8


def _disjoint(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Pixel boxes that cover the union of `boxes`, each pixel once: the grid of their edges,
    each row's covered cells joined."""
    boxes = [b for b in boxes if b[2] > b[0] and b[3] > b[1]]
    xs = sorted({b[0] for b in boxes} | {b[2] for b in boxes})
    ys = sorted({b[1] for b in boxes} | {b[3] for b in boxes})
    out = []
    for ya, yb in pairwise(ys):
        start = None
        for xa, xb in pairwise(xs):
            if any(b[0] <= xa and xb <= b[2] and b[1] <= ya and yb <= b[3] for b in boxes):
                start = xa if start is None else start
            elif start is not None:
                out.append((start, ya, xa, yb))
                start = None
        if start is not None:
            out.append((start, ya, xs[-1], yb))
    return out


class PagePixels:
    """A page's pixels for the ink tests, rendered at `dpi`: as drawn, and without its text.

    `white`: the page is nothing but text (no drawing, image, annotation or field), so without its
    text it is white paper and only the page as drawn is rendered. Where the page without its text
    is one value all over a box (white paper, the inside of a filled box: most text), whether a
    pixel is a span's ink depends on its value alone, and the box's bytes are counted through a
    table of those values; elsewhere (text over a picture or across a fill's edge) the box is read
    from luminance arrays (`measure_ink`, numpy loaded then). The verdicts are the same either way."""

    def __init__(self, page, dpi: int, white: bool) -> None:
        self._arrays: tuple[Any, Any] | None = None
        self._full = page.get_pixmap(dpi=dpi, alpha=False, colorspace=pymupdf.csGRAY)
        self._bare = None if white else _without_text(page, dpi)
        if self._bare is not None and (self._bare.width, self._bare.height) != (self._full.width, self._full.height):
            self._bare = self._full  # a redaction never changes the page size; be safe anyway
        self.width, self.height = self._full.width, self._full.height

    def arrays(self) -> tuple[Any, Any]:
        """(the page as drawn, without its text) as luminance arrays (the view of one value, 255,
        for white paper): views of this object's pixmaps, so keep it while they are read.

        Contrast is judged on luminance, as legibility guidelines do: text that differs from its
        background only in hue (red on green of the same lightness) counts as not contrasting."""
        if self._arrays is None:
            import numpy as np

            full = _luminance(self._full)
            # (a read-only view of one value: no page-sized array to fill per page)
            bare = np.broadcast_to(np.uint8(255), full.shape) if self._bare is None else _luminance(self._bare)
            self._arrays = (full, bare)
        return self._arrays

    def _under(self, box_px) -> bytes:
        """The box's pixels without the text, row after row."""
        if self._bare is None:
            return b"\xff" * ((box_px[2] - box_px[0]) * (box_px[3] - box_px[1]))
        return _box_bytes(self._bare, box_px)

    def measure(self, box_px, rgb, opacity: float, holes=()) -> tuple[int, int]:
        """`measure_ink` of a box of this page: (ink pixels of the span's own, pixels looked at)."""
        x0, y0, x1, y1 = box_px
        if x1 <= x0 or y1 <= y0:
            return 0, 0
        n = (x1 - x0) * (y1 - y0)
        under = 255 if self._bare is None else _uniform(self._under(box_px))
        if under is None or len(holes) > _MOST_HOLES:
            return measure_ink(*self.arrays(), box_px, rgb, opacity, holes, self._bare is None)[:2]
        not_own = _not_own(luma(rgb), opacity, under)
        own = len(_box_bytes(self._full, box_px).translate(None, not_own))
        if holes:
            cut = _disjoint([intersect(h, box_px) for h in holes])
            left = n - sum((c[2] - c[0]) * (c[3] - c[1]) for c in cut)
            if left >= _least_left(n):
                own -= sum(len(_box_bytes(self._full, c).translate(None, not_own)) for c in cut)
                n = left
        return own, n

    def shows_ink(self, box_px, rgb, opacity: float, holes=()) -> bool:
        """Whether the box shows enough of a span's own ink to be seen (`enough_ink` of `measure`).

        Where nothing overlaps the box and the page without its text is one shade in it, a band
        across the box's middle fifth, where a line's letters all are, is counted first: its ink
        is part of the box's, so enough there is enough (a fifth of the bytes for most text); only
        otherwise is the whole box counted."""
        x0, y0, x1, y1 = box_px
        if not holes and x1 > x0 and y1 - y0 >= 5:
            under = 255 if self._bare is None else _uniform(self._under(box_px))
            if under is not None:
                top = y0 + 2 * (y1 - y0) // 5
                band = _box_bytes(self._full, (x0, top, x1, top + (y1 - y0) // 5))
                if enough_ink(len(band.translate(None, _not_own(luma(rgb), opacity, under))), (x1 - x0) * (y1 - y0)):
                    return True
        return enough_ink(*self.measure(box_px, rgb, opacity, holes))

    def under(self, box_px) -> float:
        """The median luminance of the box without the text (255 for an empty box): what a span's
        colour must differ from."""
        values = self._under(box_px)
        if not values:
            return 255.0
        values = sorted(values)
        # (as numpy's median: the middle value, or the mean of the two middle ones)
        return (values[(len(values) - 1) // 2] + values[len(values) // 2]) / 2

    def dark_without_text(self, box_px, below: int) -> bool:
        """Whether the page without its text has a pixel darker than `below` in the box."""
        return bool(self._under(box_px).translate(None, bytes(range(below, 256))))


def _box_bytes(pix, box_px) -> bytes:
    """The pixels of a box of a grey pixmap, row after row."""
    x0, y0, x1, y1 = box_px
    if x1 <= x0 or y1 <= y0:
        return b""
    samples, stride = pix.samples_mv, pix.stride
    return b"".join([samples[y * stride + x0:y * stride + x1] for y in range(y0, y1)])


def _uniform(values: bytes) -> int | None:
    """The one value of all the bytes, or None (none, or more than one)."""
    return values[0] if values and values == values[:1] * len(values) else None


def _without_text(page, dpi: int):
    """The page rendered with every text object removed (the text is removed from `page`)."""
    page.add_redact_annot(pymupdf.Rect(-1e5, -1e5, 1e5, 1e5), fill=False)
    page.apply_redactions(images=pymupdf.PDF_REDACT_IMAGE_NONE,
                          graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
                          text=pymupdf.PDF_REDACT_TEXT_REMOVE)
    return page.get_pixmap(dpi=dpi, alpha=False, colorspace=pymupdf.csGRAY)


_NOT_OWN: dict[tuple[float, float, int], bytes] = {}


def _not_own(target: float, opacity: float, under: int) -> bytes:
    """For a span of luminance `target` and `opacity` over a pixel that is `under` without the
    text: the values 0..255 of that pixel with the text that are not the span's ink (the test of
    `measure_ink`, where a translucent span's colour is blended with what is under it), to delete
    from a box's bytes: what is left is the ink."""
    key = (target, opacity, under)
    found = _NOT_OWN.get(key)
    if found is None:
        t = target if opacity >= 0.999 else opacity * target + (1 - opacity) * under
        found = bytes(a for a in range(256) if not _is_own(a, under, t))
        if len(_NOT_OWN) >= 4096:
            _NOT_OWN.clear()
        _NOT_OWN[key] = found
    return found


class Overlaps:
    """`overlaps[k]`: the indices of the other spans whose boxes overlap span k's box (boxes that
    only touch, within half a point, do not).

    Found by sweeping the page from top to bottom, each span against those whose rows it meets (on
    a page of text, the spans of its line). Where more than SWEEP_MOST meet at once (a pile of
    spans drawn in one place), by numpy for a block of spans at a time, as they are asked for in
    order: a page of 24,000 spans (a page's operators allow some 30,000) made four 24,000 x 24,000
    matrices at once, 1.3 GB."""

    BLOCK = 512
    SWEEP_MOST = 256

    def __init__(self, spans: list[Span]) -> None:
        boxes = [s.bbox for s in spans]
        self._n = len(boxes)
        self._found = _sweep(boxes, self.SWEEP_MOST)
        if self._found is None:
            import numpy as np

            box = np.array(boxes, dtype=np.float64).reshape(-1, 4)
            self._x0, self._y0, self._x1, self._y1 = (box[:, i] for i in range(4))
            self._base, self._hit = -1, None

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, k: int) -> list[int]:
        if not 0 <= k < len(self):
            raise IndexError(k)
        if self._found is not None:
            return list(self._found[k])
        import numpy as np

        base = k - k % self.BLOCK
        if base != self._base:
            x0, y0, x1, y1 = self._x0, self._y0, self._x1, self._y1
            r = slice(base, base + self.BLOCK)
            self._hit = ((x0[r, None] < x1[None, :] - 0.5) & (x0[None, :] < x1[r, None] - 0.5)
                         & (y0[r, None] < y1[None, :] - 0.5) & (y0[None, :] < y1[r, None] - 0.5))
            self._base = base
        found = np.flatnonzero(self._hit[k - base])
        return found[found != k].tolist()


def _sweep(boxes: list, most: int) -> list[list[int]] | None:
    """`Overlaps`' answer for every box, each list in order; None where more than `most` boxes
    meet one row, or a box is not finite (no page draws one: the arrays decide)."""
    if not all(math.isfinite(v) for box in boxes for v in box):
        return None
    found: list[list[int]] = [[] for _ in boxes]
    rows: list[int] = []   # the boxes seen whose bottom is below the top of the one at hand
    for k in sorted(range(len(boxes)), key=lambda i: boxes[i][1]):
        x0, y0, x1, y1 = boxes[k]
        # (tops only grow from here: a box that ends above this one's top meets none after it)
        rows = [j for j in rows if y0 < boxes[j][3] - 0.5]
        for j in rows:
            b = boxes[j]
            if x0 < b[2] - 0.5 and b[0] < x1 - 0.5 and b[1] < y1 - 0.5:
                found[k].append(j)
                found[j].append(k)
        rows.append(k)
        if len(rows) > most:
            return None
    for each in found:
        each.sort()
    return found


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
    transforms a rectangle in single precision and so does this (an array of C floats: a product
    of two floats is exact in Python's double, so rounding it once is the float product)."""
    if not boxes:
        return []
    s = array("f", [scale])[0]
    r = array("f", [v * s for v in array("f", [v for box in boxes for v in box])])
    if not all(math.isfinite(v) for v in r):  # not from any real page; the slow path says what it does
        matrix = (scale, 0.0, 0.0, scale, 0.0, 0.0)
        return [to_px(b, matrix, width, height) for b in boxes]
    out = []
    for i in range(0, len(r), 4):
        x0, y0 = max(0, math.floor(r[i])), max(0, math.floor(r[i + 1]))
        out.append((x0, y0, max(x0, min(width, math.ceil(r[i + 2]))), max(y0, min(height, math.ceil(r[i + 3])))))
    return out


def share(box, rects) -> float:
    """The largest share of `box` that one of `rects` (boxes, as `Covers.over` gives them) covers."""
    return max(area(intersect(box, r)) for r in rects) / max(area(box), 1e-6)


def _finite(box) -> bool:
    return all(math.isfinite(v) for v in box)


class Covers:
    """The opaque boxes of a page (`opaque_covers`), asked about many spans. A page that draws
    more than ARRAYS_FROM is asked as arrays (numpy): a page may draw thousands of each (3,375
    of both took 110 s asked one pair at a time); so is a box that is not finite (no page's)."""

    ARRAYS_FROM = 64

    def __init__(self, covers: list[tuple[int, tuple[float, float, float, float]]]) -> None:
        self.n = len(covers)
        self._covers = [(q, tuple(r)) for q, r in covers]
        self._arrays: tuple[Any, Any] | None = None
        if self.n > self.ARRAYS_FROM or not all(_finite(r) for _, r in self._covers):
            self._as_arrays()

    def _as_arrays(self) -> tuple[Any, Any]:
        if self._arrays is None:
            import numpy as np

            self._arrays = (np.array([q for q, _ in self._covers]),
                            np.array([r for _, r in self._covers], dtype=np.float64).reshape(-1, 4))
        return self._arrays

    def over(self, bbox, seqno: int) -> list | None:
        """The boxes drawn after `seqno` that overlap `bbox`, or None."""
        if not self.n:
            return None
        if self._arrays is None and _finite(bbox):
            found = [r for q, r in self._covers if q > seqno and r[0] < bbox[2] and bbox[0] < r[2]
                     and r[1] < bbox[3] and bbox[1] < r[3]]
            return found or None
        seq, b = self._as_arrays()
        hit = ((seq > seqno) & (b[:, 0] < bbox[2]) & (bbox[0] < b[:, 2])
               & (b[:, 1] < bbox[3]) & (bbox[1] < b[:, 3]))
        return [tuple(r) for r in b[hit].tolist()] if hit.any() else None

    def hide(self, bbox, seqno: int, least: float) -> bool:
        """Whether a box drawn after `seqno` covers at least `least` square points of `bbox`."""
        if not self.n:
            return False
        if self._arrays is None and _finite(bbox):
            bx0, by0, bx1, by1 = bbox
            for q, (x0, y0, x1, y1) in self._covers:   # (area(intersect(...)), written out: a hot loop)
                if q > seqno:
                    w = (x1 if x1 < bx1 else bx1) - (x0 if x0 > bx0 else bx0)
                    h = (y1 if y1 < by1 else by1) - (y0 if y0 > by0 else by0)
                    if (w if w > 0.0 else 0.0) * (h if h > 0.0 else 0.0) >= least:
                        return True
            return False
        import numpy as np

        seq, b = self._as_arrays()
        w = np.minimum(b[:, 2], bbox[2]) - np.maximum(b[:, 0], bbox[0])
        h = np.minimum(b[:, 3], bbox[3]) - np.maximum(b[:, 1], bbox[1])
        return bool(np.any((seq > seqno) & (np.clip(w, 0, None) * np.clip(h, 0, None) >= least)))
