"""Span visibility: every text span on a page, and whether a person looking at the page sees it.

API (the TUI calls these from a worker; all take the PDF bytes):

- `analyze_page(data, page=0, dpi=150) -> list[Span]`: the spans of page `page` (0-based).
- `analyze_document(data, dpi=150) -> DocumentAnalysis`: every page (cached for the last few PDFs,
  so `inspect`, `lint` and evidence search on one case share the work).
- `clear_cache()`: forget cached analyses (benchmarks use it to measure cold runs).

A `Span` has its text as the text layer holds it, `seen` (what its glyphs read as: zero-width
characters dropped, look-alike letters folded), a box in PDF points (top-left origin, y down, the
rendered page's orientation; multiply by dpi/72 for pixels), font, size, colour, render mode, and
a verdict: `visible`, or hidden with `reasons`:

    invisible-render-mode  text render mode 3 (nothing drawn)
    transparent            fill opacity 0
    off-page               the box lies (mostly) outside the page
    too-small              the glyphs are under MIN_EM_PX pixels tall at the DPI inspected
    covered                something drawn later hides it
    no-contrast            its colour does not differ from what is under it (white on white)
    clipped                a clip path removes it
    no-ink                 the pixels show nothing, cause unknown
    not-in-scan            a word of a scan's invisible text layer that the scan's picture does
                           not show (OCR of the page does not read it there; `pdf.scanned`)

and the reasons `workbench.pdf.structure` finds in the file's structure rather than its drawing
(optional content off, annotation or form field text, an earlier revision, a ToUnicode remap,
ActualText): it marks spans and adds the text the drawing does not hold.

`layer_issues` say where the text layer differs from the glyphs even when the span is visible:
`zero-width` (invisible format characters such as U+200B inside the text), `confusable` (letters
from another script that look like Latin ones, or O/l between digits), `drawn-format-char` (a
format character drawn as a visible box).

The verdict is checked against the pixels: the page is rendered once as is and once with all text
removed; a span is visible only if pixels of its colour appear where the text changed the page,
with enough contrast. What the drawing operators say (render mode, opacity, position, size) can
hide a span, but can never make visible a span whose box shows no ink of its own. The one
exception is a scan (a picture of the whole page under invisible text, `workbench.pdf.scanned`):
there a word of the invisible layer is visible when OCR of the rendered page reads it near its box.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from workbench.core import limits
from workbench.core.errors import UserError
from workbench.pdf import ocr, scanned, structure
from workbench.pdf.budget import PageClock, page_size, too_complex
from workbench.pdf.document import open_fitz
from workbench.text.search import is_format_char, read_glyphs

# Glyphs whose em is shorter than this many pixels cannot be read at the DPI inspected.
MIN_EM_PX = 6.0
# A pixel is ink of a span if the text changed its luminance by at least this much (0..255)...
MIN_CONTRAST = 32.0
# A span needs this many ink pixels (and this fraction of its box) to count as visible.
MIN_INK_PIXELS = 3
MIN_INK_FRACTION = 0.004
# The pen moving on by this many ems beyond a span's usual letter gap is a word space (pypdf,
# pymupdf and pdftotext all space a 0.15 em TJ offset and none a 0.12 em one).
WORD_GAP_EM = 0.135
# Share of the box that must lie on the page.
MIN_ON_PAGE = 0.5
# Share of the box a later opaque drawing must cover to be named as the cause.
COVER_SHARE = 0.6
# Bounds per page (workbench.core.limits, "Work per PDF page"), so any input finishes: a page over
# a count of work (`budget.too_complex`) is skipped whole; one whose render would exceed
# `page_pixels` or whose analysis runs past `page_seconds` keeps the verdicts its drawing
# operators give, and says its pixels were not (all) checked.

HIDDEN_REASONS = (
    "invisible-render-mode", "transparent", "off-page", "too-small", "covered", "no-contrast",
    "clipped", "no-ink", scanned.NOT_IN_SCAN,
)

# Dashes and points from other blocks read the same as ASCII ones: not worth flagging.
_NOT_CONFUSING = set("\u2010\u2011\u2012\u2013\u2014\u2212\u2024\u201a")


@lru_cache(maxsize=4096)
def seen_text(text: str) -> str:
    """`text` as its glyphs read: zero-width characters dropped, look-alikes folded to ASCII.
    (Cached: a span's is asked by its layer issues, the layer diff and its JSON.)"""
    return read_glyphs(text)[0]


def layer_issues(text: str, char_widths: list[float] | None = None, size: float = 0.0) -> list[str]:
    """Ways the text layer of a span differs from what its glyphs show."""
    if text.isascii():  # no format characters; only O and l between digits read otherwise
        return ["confusable"] if seen_text(text) != text else []
    issues: list[str] = []
    fmt = [i for i, c in enumerate(text) if is_format_char(c)]
    if fmt:
        drawn = char_widths is not None and size > 0 and any(
            i < len(char_widths) and char_widths[i] > 0.2 * size for i in fmt)
        issues.append("drawn-format-char" if drawn else "zero-width")
    if _has_confusable(text):
        issues.append("confusable")
    return issues


def _has_confusable(text: str) -> bool:
    """Look-alike letters where the glyphs read as ASCII (dashes and minus signs don't count)."""
    plain = "".join(c for c in text if not is_format_char(c))
    folded = seen_text(text)
    if folded == plain:
        return False
    return any(a != b and not (a in "-.," and b in _NOT_CONFUSING)
               for a, b in zip(folded, plain, strict=False)) or len(folded) != len(plain)


@dataclass
class Span:
    """One text span and its visibility verdict (see the module docstring for the reasons)."""

    page: int                                   # 0-based
    seqno: int                                  # position in the page's drawing order
    text: str                                   # as the text layer holds it
    bbox: tuple[float, float, float, float]     # PDF points, top-left origin
    font: str
    size: float                                 # effective size in points (after scaling)
    color: tuple[float, float, float]           # sRGB, 0..1
    render_mode: int                            # 0 fill, 1 stroke, 2 fill+stroke, 3 invisible
    opacity: float
    visible: bool = True
    reasons: list[str] = field(default_factory=list)
    layer_issues: list[str] = field(default_factory=list)
    ink: int = 0                                # ink pixels of its own measured in its box
    direction: tuple[float, float] = (1.0, 0.0)  # the baseline's unit vector (y down)
    mirrored: bool = False                      # drawn as in a mirror (a flipped matrix)
    char_boxes: list[tuple[float, float, float, float]] = field(default_factory=list, repr=False)

    @property
    def seen(self) -> str:
        return seen_text(self.text)

    @property
    def verdict(self) -> str:
        """`hidden`, `differs` (visible, but the text layer says something else) or `visible`."""
        if not self.visible:
            return "hidden"
        return "differs" if self.layer_issues else "visible"

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "seen": self.seen,
            "bbox": [round(v, 2) for v in self.bbox],
            "font": self.font,
            "size": round(self.size, 2),
            "color": "#" + "".join(f"{round(c * 255):02x}" for c in self.color),
            "render_mode": self.render_mode,
            "opacity": round(self.opacity, 3),
            "visible": self.visible,
            "verdict": self.verdict,
            "reasons": list(self.reasons),
            "layer_issues": list(self.layer_issues),
        }


@dataclass
class PageAnalysis:
    page: int                                   # 0-based
    width: float                                # points
    height: float
    dpi: int
    spans: list[Span]
    # Boxes (points) of non-text content that shows ink: images and filled drawings. Text drawn
    # as pixels hides in these; without OCR we cannot read it, only say where it could be.
    ink_boxes: list[tuple[float, float, float, float]]
    # Reading streams built by evidence search, kept with the analysis they come from.
    streams: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    # Why the spans' pixels were not (all) checked: a bound exceeded ('' when they were).
    skipped: str = ""
    # The page's text was removed from `doc` for the bare render (the document is edited).
    edited: bool = field(default=False, repr=False, compare=False)

    @property
    def hidden(self) -> list[Span]:
        return [s for s in self.spans if not s.visible]


@dataclass
class DocumentAnalysis:
    dpi: int
    pages: list[PageAnalysis]


def _rgb(color: Any, colorspace: int) -> tuple[float, float, float]:
    if color is None:
        return (0.0, 0.0, 0.0)
    if isinstance(color, int | float):
        color = (float(color),)
    vals = [float(v) for v in color]
    if len(vals) == 1:
        return (vals[0], vals[0], vals[0])
    if len(vals) == 4:
        c, m, y, k = vals
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    if len(vals) >= 3:
        return (vals[0], vals[1], vals[2])
    return (0.0, 0.0, 0.0)


def _area(r: tuple[float, float, float, float]) -> float:
    return max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1])


def _intersect(a, b) -> tuple[float, float, float, float]:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


_LUMA = (0.299, 0.587, 0.114)


def _luma(rgb: tuple[float, float, float]) -> float:
    return sum(c * 255 * w for c, w in zip(rgb, _LUMA, strict=True))


def _gray(page, dpi: int):
    """The page as an HxW uint8 luminance array (the pixmap is kept alive by the array's base)."""
    import numpy as np
    import pymupdf

    pix = page.get_pixmap(dpi=dpi, alpha=False, colorspace=pymupdf.csGRAY)
    arr = np.frombuffer(pix.samples_mv, dtype=np.uint8).reshape(pix.height, pix.stride)[:, : pix.width]
    return arr, pix


def _page_arrays(page, dpi: int):
    """The page rendered as is and with every text object removed, as luminance arrays.

    Contrast is judged on luminance, as legibility guidelines do: text that differs from its
    background only in hue (red on green of the same lightness) counts as not contrasting.
    """
    import pymupdf

    full, keep1 = _gray(page, dpi)
    page.add_redact_annot(pymupdf.Rect(-1e5, -1e5, 1e5, 1e5), fill=False)
    page.apply_redactions(images=pymupdf.PDF_REDACT_IMAGE_NONE,
                          graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
                          text=pymupdf.PDF_REDACT_TEXT_REMOVE)
    bare, keep2 = _gray(page, dpi)
    if bare.shape != full.shape:  # a redaction never changes the page size; be safe anyway
        bare = full
    return full, bare, (keep1, keep2)


_OWN_LUTS: dict[float, Any] = {}


def _own_lut(target: float):
    """For an opaque span whose ink has luminance `target`: a 256 x 256 table, True at [a, b]
    when a pixel that is `a` with the text and `b` without it is this span's ink (the test in
    `_measure_ink`, computed once for every pair of values)."""
    lut = _OWN_LUTS.get(target)
    if lut is None:
        import numpy as np

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
        import numpy as np

        hits = np.flatnonzero(_own_lut(target)[:, 255])
        found = (int(hits[0]), int(hits[-1])) if hits.size else (1, 0)
        if hits.size and hits.size != found[1] - found[0] + 1:
            found = None
        if len(_OWN_RANGES) >= 256:
            _OWN_RANGES.clear()
        _OWN_RANGES[target] = found
    return _OWN_RANGES[target]


def _measure_ink(full, bare, box_px, rgb, opacity: float, holes=(), blank: bool = False) -> tuple[int, int, Any]:
    """(ink pixels of this span's lightness that the text added, pixels looked at, the pixels
    under it without text).

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
    target = _luma(rgb)
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


def _overlaps(spans: list[Span]):
    """For each span, the indices of the other spans whose boxes overlap its box."""
    import numpy as np

    if not spans:
        return []
    box = np.array([s.bbox for s in spans], dtype=np.float64)
    x0, y0, x1, y1 = (box[:, i] for i in range(4))
    hit = ((x0[:, None] < x1[None, :] - 0.5) & (x0[None, :] < x1[:, None] - 0.5)
           & (y0[:, None] < y1[None, :] - 0.5) & (y0[None, :] < y1[:, None] - 0.5))
    np.fill_diagonal(hit, False)
    return [np.flatnonzero(row).tolist() for row in hit]


def _opaque_covers(drawings) -> list[tuple[int, tuple[float, float, float, float]]]:
    """(seqno, rect) of opaque filled rectangles: what can hide text drawn before them."""
    out = []
    for d in drawings:
        if "f" not in (d.get("type") or "") or (d.get("fill_opacity") or 0) < 0.99:
            continue
        items = d.get("items") or ()
        if items and all(it[0] in ("re", "qu") for it in items):
            out.extend((int(d.get("seqno", -1)), tuple(it[1])) for it in items if it[0] == "re")
    return out


def _to_px(box, matrix, width: int, height: int) -> tuple[int, int, int, int]:
    import math

    import pymupdf

    r = pymupdf.Rect(box) * matrix
    x0, y0 = max(0, math.floor(r.x0)), max(0, math.floor(r.y0))
    x1, y1 = min(width, math.ceil(r.x1)), min(height, math.ceil(r.y1))
    return (x0, y0, max(x0, x1), max(y0, y1))


def _px_boxes(boxes, scale: float, width: int, height: int) -> list[tuple[int, int, int, int]]:
    """`_to_px` of many boxes at once (the scale `dpi / 72`): the same pixels, because mupdf
    transforms a rectangle in single precision and so does this."""
    import numpy as np

    if not boxes:
        return []
    r = np.asarray(boxes, dtype=np.float32).reshape(-1, 4) * np.float32(scale)
    if not np.isfinite(r).all():  # not from any real page; the slow path says what it does
        matrix = (scale, 0.0, 0.0, scale, 0.0, 0.0)
        return [_to_px(b, matrix, width, height) for b in boxes]
    x0 = np.maximum(0, np.floor(r[:, 0])).astype(np.int64)
    y0 = np.maximum(0, np.floor(r[:, 1])).astype(np.int64)
    x1 = np.maximum(x0, np.minimum(width, np.ceil(r[:, 2])).astype(np.int64))
    y1 = np.maximum(y0, np.minimum(height, np.ceil(r[:, 3])).astype(np.int64))
    return list(zip(x0.tolist(), y0.tolist(), x1.tolist(), y1.tolist(), strict=True))


def _clipped_out(data: bytes, span: Span) -> bool:
    """True if pymupdf's clip-aware extraction drops the span's characters (a rare, slow path)."""
    with open_fitz(data) as doc:
        return _clip_drops(doc[span.page], span)


def _clip_drops(page, span: Span) -> bool:
    import pymupdf

    probe = pymupdf.Rect(span.bbox) + (-1, -1, 1, 1)
    found = "".join(page.get_text("text", clip=probe).split())
    wanted = "".join(span.text.split())
    return bool(wanted) and wanted[: max(1, len(wanted) // 2)] not in found


def _spaced(chars, direction: tuple[float, float], size: float) -> tuple[str, list[tuple]]:
    """A span's text with the word spaces its glyph positions show, and a box per character.

    Typesetters such as pdfLaTeX separate words by moving the pen (a TJ offset, a new text
    object) instead of drawing a space; extractors (pypdf, pymupdf, pdftotext) put a space where
    the pen moves on by more than about 0.15 em beyond the span's usual letter gap. So do we,
    on horizontal text, with a box over the gap for the space."""
    text = [chr(c[0]) for c in chars]
    boxes = [b if type(b) is tuple else tuple(b) for _u, _g, _o, b in chars]
    if len(chars) < 2 or size <= 0 or abs(direction[0]) < 0.99:
        return "".join(text), boxes
    sign = 1.0 if direction[0] > 0 else -1.0
    gaps = [(b[2][0] - a[2][0]) * sign - abs(a[3][2] - a[3][0]) for a, b in zip(chars[:-1], chars[1:], strict=True)]
    base = sorted(gaps)[len(gaps) // 4] if len(gaps) >= 3 else 0.0
    base = max(0.0, min(base, 0.5 * size))
    wide = WORD_GAP_EM * size
    cuts = [i for i, gap in enumerate(gaps)
            if gap - base > wide and not text[i].isspace() and not text[i + 1].isspace()]
    if not cuts:  # the usual case: the text draws its spaces (or has none to draw)
        return "".join(text), boxes
    out_text: list[str] = []
    out_boxes: list[tuple] = []
    start = 0
    for i in cuts:
        out_text += text[start:i + 1]
        out_boxes += boxes[start:i + 1]
        a, b = boxes[i], boxes[i + 1]
        x0, x1 = (a[2], b[0]) if sign > 0 else (b[2], a[0])
        out_text.append(" ")
        out_boxes.append((x0, min(a[1], b[1]), x1, max(a[3], b[3])))
        start = i + 1
    out_text += text[start:]
    out_boxes += boxes[start:]
    return "".join(out_text), out_boxes


# Drawing operations that fill an area: drawn after text, they can hide it.
_FILL_KINDS = ("fill-image", "fill-imgmask", "fill-image-mask", "fill-shade", "fill-path")

# Drawing operations that put no ink on the page once its text is gone (text itself, clips).
_NO_INK_WITHOUT_TEXT = ("fill-text", "stroke-text", "ignore-text", "clip-text", "clip-stroke-text",
                        "clip-path", "clip-stroke-path", "pop-clip")


def _is_mirrored(chars, direction: tuple[float, float]) -> bool:
    """Whether the glyphs stand below their baseline as the text runs (a mirrored matrix,
    left-right or top-bottom), not above it as in any rotation: most glyphs vote."""
    up = (direction[1], -direction[0])  # the way glyph tops point, for unflipped text (y down)
    votes = 0
    for ch in chars:
        (ox, oy), (x0, y0, x1, y1) = ch[2], ch[3]
        if x1 > x0 and y1 > y0:
            votes += 1 if ((x0 + x1) / 2 - ox) * up[0] + ((y0 + y1) / 2 - oy) * up[1] > 0 else -1
    return votes < 0


def _to_page(page):
    """Boxes of the text trace (unrotated coordinates) as the page is rendered."""
    import pymupdf

    if not page.rotation:  # a property that asks mupdf each time: read it once
        return lambda r: tuple(r)
    rot = page.rotation_matrix
    return lambda r: tuple(pymupdf.Rect(r) * rot)


def trace_spans(page, index: int, to_page=None, checks: bool = True) -> list[Span]:
    """The text spans of the loaded pymupdf `page` (number `index`), with their positions, as
    the page is rendered; no visibility verdict (every span is `visible` until analysed).
    `checks=False` leaves out what only the verdicts use (layer issues, mirroring): positions
    for drawing boxes."""
    to_page = to_page or _to_page(page)
    rotated = bool(page.rotation)
    spans: list[Span] = []
    for raw in page.get_texttrace():
        chars = raw.get("chars") or ()
        direction = tuple(raw.get("dir") or (1.0, 0.0))
        text, raw_boxes = _spaced(chars, direction, float(raw.get("size") or 0.0))
        if not text.strip() and not any(is_format_char(c) for c in text):
            continue
        bbox = to_page(raw["bbox"])
        boxes = [to_page(b) for b in raw_boxes] if rotated else raw_boxes
        size = float(raw.get("size") or 0.0)
        span = Span(
            page=index, seqno=int(raw.get("seqno", len(spans))), text=text, bbox=bbox,
            font=str(raw.get("font", "")), size=size,
            color=_rgb(raw.get("color"), int(raw.get("colorspace") or 3)),
            render_mode=int(raw.get("type", 0)), opacity=float(raw.get("opacity", 1.0) or 0.0),
            char_boxes=boxes, direction=direction,
            mirrored=checks and _is_mirrored(chars, direction),
        )
        if checks:
            # (the glyph widths matter only where a format character could be drawn: not in ASCII)
            widths = None if text.isascii() else [b[2] - b[0] for b in boxes]
            span.layer_issues = layer_issues(text, widths, size)
        spans.append(span)
    return spans


def analyze_fitz_page(doc, index: int, dpi: int, data: bytes, page=None) -> PageAnalysis:
    """Page `index` of the open pymupdf document `doc` (the bytes `data`), at `dpi`; `page` is
    that page if the caller has it loaded already (loading a page twice costs as much as its
    text trace).

    The page's text may be removed from `doc` for the bare render (`edited` says so): analyse a
    page once per opening of the document."""
    import numpy as np
    import pymupdf

    clock = PageClock()
    if page is None:
        why = too_complex(doc, index)
        if why:
            return skipped_page(doc, index, dpi, why)
        page = doc[index]
    page_rect = page.rect
    width, height = page_rect.width, page_rect.height
    to_page = _to_page(page)
    spans = trace_spans(page, index, to_page)

    log = [(kind, to_page(rect)) for kind, rect in page.get_bboxlog()] if spans else []
    # Read before the text is removed for the bare render: removing it renumbers the drawings.
    # (Only filled paths can cover: a page without one needs no look at its drawings.)
    covers = _Covers([(q, to_page(r)) for q, r in _opaque_covers(page.get_drawings())]
                     if spans and any(kind == "fill-path" for kind, _ in log) else [])
    ink_boxes: list[tuple[float, float, float, float]] = []
    skipped = ""
    # What is drawn after a span can hide part of it: per character, for spans it overlaps.
    fills = _Covers([(i, rect) for i, (kind, rect) in enumerate(log) if kind in _FILL_KINDS])
    partly: dict[int, list[bool] | None] = {}
    pixels = (width * dpi / 72) * (height * dpi / 72)
    if spans and pixels > limits.get("page_pixels"):
        skipped = "pixels not checked: " + limits.exceeded(
            "page_pixels", f"{width / 72:.0f} x {height / 72:.0f} in at {dpi} DPI is {pixels / 1e6:.0f} million "
            "pixels; visibility from the drawing operators only (a lower --dpi checks the pixels)")
    elif spans and clock.over():
        skipped = "pixels not checked: " + clock.line(
            f"reading its {len(spans)} spans took over {clock.seconds:g} s; visibility from the "
            "drawing operators only")
    edited = False
    if skipped:
        for span in spans:
            span.reasons = _operator_reasons(span, covers, width, height, dpi)
            span.visible = not span.reasons
    elif spans or log:
        scale = pymupdf.Matrix(dpi / 72, dpi / 72)
        if page.first_annot is None and page.first_widget is None and all(
                kind in _NO_INK_WITHOUT_TEXT for kind, _ in log):
            # Nothing but text: without it the page is blank paper, no need to remove and redraw.
            full, keep = _gray(page, dpi)
            # (white paper as a read-only view of one value: no page-sized array to fill per page)
            bare, _keep, blank = np.broadcast_to(np.uint8(255), full.shape), (keep,), True
        else:
            full, bare, _keep = _page_arrays(page, dpi)
            edited, blank = True, False
        h_px, w_px = full.shape[0], full.shape[1]
        for kind, rect in log:
            if kind in ("fill-image", "fill-imgmask", "fill-image-mask", "fill-shade", "fill-path"):
                x0, y0, x1, y1 = _to_px(rect, scale, w_px, h_px)
                if x1 > x0 and y1 > y0 and (bare[y0:y1, x0:x1].min() < 160):
                    ink_boxes.append(rect)
        overlaps = _overlaps(spans)
        spans_px = _px_boxes([s.bbox for s in spans], dpi / 72, w_px, h_px)
        for k, span in enumerate(spans):
            reasons = _operator_reasons(span, covers, width, height, dpi)
            if not reasons and k % 64 == 63 and not skipped and clock.over():
                skipped = "pixels not checked: " + clock.line(
                    f"over {clock.seconds:g} s, the pixels of {len(spans) - k} of its {len(spans)} "
                    "spans were not checked (visibility from the drawing operators)")
            if not reasons and not skipped:  # the operators draw it: do the pixels agree?
                holes = [spans_px[j] for j in overlaps[k]]
                ink, n, under = _measure_ink(full, bare, spans_px[k], span.color, span.opacity, holes, blank)
                span.ink = ink
                if n == 0 or ink < max(MIN_INK_PIXELS, MIN_INK_FRACTION * n):
                    reasons.append(_why_no_ink(data, span, log, float(np.median(under))))
            span.reasons = reasons
            span.visible = not reasons
            if span.visible and not skipped:
                pixels = (full, bare, blank, [spans_px[j] for j in overlaps[k]], dpi / 72)
                partly[k] = _hidden_chars(span, fills, covers, pixels)
    if skipped:
        for k, span in enumerate(spans):
            if span.visible:
                partly[k] = _hidden_chars(span, fills, covers, None)
    # A scan's invisible layer: hidden only where the picture does not show it.
    layer = scanned.layer_spans(spans, log, width, height) if spans and not skipped else []
    hidden_why: dict[int, list[str]] = {}
    if layer:
        skipped = _scan_unread(index, clock)
    if layer and not skipped:
        upright = all(spans[k].direction[0] > 0.7 for k in layer)  # (within 45 degrees of level)
        lines = scanned.ocr_lines(_scan_lines(page, edited, data, index, dpi, upright))
        for k in layer:
            span = spans[k]
            flags = scanned.hidden_chars(span, lines)
            hidden_why[k] = [*span.reasons, scanned.NOT_IN_SCAN]
            if all(flags):
                span.reasons = hidden_why[k]
            else:
                span.visible, span.reasons = True, []
                partly[k] = flags if any(flags) else None
    # layers, annotations, fields, fonts, revisions
    structure.apply_to_page(doc, index, data, spans, Span, edited=edited)
    if any(partly.values()):
        spans = _split_partly_hidden(spans, partly, hidden_why)
    return PageAnalysis(index, width, height, dpi, spans, ink_boxes, skipped=skipped, edited=edited)


def _hidden_chars(span: Span, fills: _Covers, covers: _Covers, pixels) -> list[bool] | None:
    """For a visible span that something drawn after it partly overlaps: per character, whether
    that character is hidden (None: none is, or the span has no boxes per character).

    A character is hidden where a later fill (a box, an image, a shading) covers COVER_SHARE of
    its box and the pixels show none of its own ink there (`pixels`: the page's arrays, or None
    when they were not checked: then only an opaque box over 0.9 of it hides it). Spaces go with
    their neighbours, so a value under a box is hidden whole and the label beside it is not."""
    if not span.char_boxes or len(span.char_boxes) != len(span.text):
        return None
    over = fills.over(span.bbox, span.seqno)
    if over is None:
        return None
    flags: list[bool | None] = []
    for ch, box in zip(span.text, span.char_boxes, strict=True):
        if ch.isspace() or _area(box) <= 0:
            flags.append(None)
            continue
        if pixels is None:
            flags.append(covers.hide(box, span.seqno, 0.9 * _area(box)))
            continue
        if _share(box, over) < COVER_SHARE:
            flags.append(False)
            continue
        full, bare, blank, holes, scale = pixels
        box_px = _px_boxes([box], scale, full.shape[1], full.shape[0])[0]
        ink, n, _under = _measure_ink(full, bare, box_px, span.color, span.opacity, holes, blank)
        flags.append(n == 0 or ink < max(MIN_INK_PIXELS, MIN_INK_FRACTION * n))
    known = [f for f in flags if f is not None]
    if not any(known):
        return None
    out: list[bool] = []
    for i, f in enumerate(flags):
        if f is None:  # a space: hidden only between hidden characters
            before = next((g for g in reversed(flags[:i]) if g is not None), None)
            after = next((g for g in flags[i + 1:] if g is not None), None)
            f = bool(before) and bool(after) if before is not None and after is not None else bool(before or after)
        out.append(f)
    return out


def _share(box, rects) -> float:
    """The largest share of `box` that one of `rects` (an N x 4 array) covers."""
    import numpy as np

    w = np.minimum(rects[:, 2], box[2]) - np.maximum(rects[:, 0], box[0])
    h = np.minimum(rects[:, 3], box[3]) - np.maximum(rects[:, 1], box[1])
    return float((np.clip(w, 0, None) * np.clip(h, 0, None)).max()) / max(_area(box), 1e-6)


def _split_partly_hidden(spans: list[Span], partly: dict[int, list[bool] | None],
                         hidden_why: dict[int, list[str]] | None = None) -> list[Span]:
    """Each span with hidden and visible characters as runs of one kind: a span per run, each
    with its own text, boxes and verdict (the hidden ones `covered`, or the reasons `hidden_why`
    gives for the span), so what reads spans (the evidence, the lint, the attribution, the
    layers) sees which characters a person sees."""
    out: list[Span] = []
    for k, span in enumerate(spans):
        flags = partly.get(k)
        if not flags or not span.visible:
            out.append(span)
            continue
        why = (hidden_why or {}).get(k, ["covered"])
        if all(flags):
            span.visible, span.reasons = False, list(why)
            out.append(span)
            continue
        start = 0
        for end in range(1, len(flags) + 1):
            if end < len(flags) and flags[end] == flags[start]:
                continue
            boxes = span.char_boxes[start:end]
            text = span.text[start:end]
            piece = Span(page=span.page, seqno=span.seqno, text=text,
                         bbox=(min(b[0] for b in boxes), min(b[1] for b in boxes),
                               max(b[2] for b in boxes), max(b[3] for b in boxes)),
                         font=span.font, size=span.size, color=span.color, render_mode=span.render_mode,
                         opacity=span.opacity, visible=not flags[start],
                         reasons=list(why) if flags[start] else list(span.reasons),
                         layer_issues=layer_issues(text, [b[2] - b[0] for b in boxes], span.size),
                         ink=0 if flags[start] else span.ink, direction=span.direction, char_boxes=boxes)
            if text.strip() or piece.layer_issues:
                out.append(piece)
            start = end
    return out


def _scan_lines(page, edited: bool, data: bytes, index: int, dpi: int, upright: bool) -> list:
    """What OCR reads on the scanned page (`ocr.scan_page_lines`), rendered as it is drawn: from
    the bytes again when its text was removed from `page` for the bare render."""
    if not edited:
        return ocr.scan_page_lines(page, dpi, upright)
    doc = open_fitz(data)
    try:
        return ocr.scan_page_lines(doc[index], dpi, upright)
    finally:
        doc.close()


def _scan_unread(index: int, clock: PageClock) -> str:
    """Why a scan's invisible layer cannot be compared with OCR of its picture ('' when it can):
    then its words keep the drawing operators' verdict, hidden."""
    keeps = "its invisible text layer is called hidden, not compared with the picture"
    if index >= limits.get("scan_ocr_pages"):
        return "scan not read: " + limits.exceeded("scan_ocr_pages", f"page {index + 1} is a scan; {keeps}")
    if clock.over():
        return "scan not read: " + clock.line(f"no time left to read the scan (OCR); {keeps}")
    if not ocr.available():
        return f"scan not read: {keeps} (OCR needs pip install 'pdfworkbench[ocr]')"
    return ""


def skipped_page(doc, index: int, dpi: int, why: str) -> PageAnalysis:
    """Page `index` left unanalysed (`why`: it is over a count of work): its size, no spans.
    (Read from its dictionary: loading such a page in MuPDF is itself the cost avoided.)"""
    width, height = page_size(doc, index)
    return PageAnalysis(index, width, height, dpi, [], [], skipped=why)


class _Covers:
    """The opaque boxes of a page (`_opaque_covers`), asked about many spans: as arrays, since a
    page may draw thousands of each (3,375 of both took 110 s asked one pair at a time)."""

    def __init__(self, covers: list[tuple[int, tuple[float, float, float, float]]]) -> None:
        import numpy as np

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
        import numpy as np

        b = self.box
        w = np.minimum(b[:, 2], bbox[2]) - np.maximum(b[:, 0], bbox[0])
        h = np.minimum(b[:, 3], bbox[3]) - np.maximum(b[:, 1], bbox[1])
        return bool(np.any((self.seq > seqno) & (np.clip(w, 0, None) * np.clip(h, 0, None) >= least)))


def _operator_reasons(span: Span, covers: _Covers, width: float, height: float, dpi: int) -> list[str]:
    """Why the drawing operators alone hide a span (before its pixels are looked at)."""
    reasons: list[str] = []
    if span.render_mode == 3:
        reasons.append("invisible-render-mode")
    if span.opacity <= 0.02:
        reasons.append("transparent")
    on_page = _area(_intersect(span.bbox, (0.0, 0.0, width, height)))
    if on_page < MIN_ON_PAGE * max(_area(span.bbox), 1e-6):
        reasons.append("off-page")
    if span.size * dpi / 72 < MIN_EM_PX:
        reasons.append("too-small")
    area = max(_area(span.bbox), 1e-6)
    if covers.hide(span.bbox, span.seqno, 0.9 * area):
        reasons.append("covered")  # an opaque box drawn later, whatever is drawn on it
    return reasons


def _why_no_ink(data: bytes, span: Span, log, under_luma: float) -> str:
    area = max(_area(span.bbox), 1e-6)
    for kind, rect in log[span.seqno + 1:]:
        if kind.startswith("fill-") and kind != "fill-text":
            if _area(_intersect(span.bbox, tuple(rect))) >= COVER_SHARE * area:
                return "covered"
    if abs(_luma(span.color) - under_luma) < MIN_CONTRAST:
        return "no-contrast"
    if _clipped_out(data, span):
        return "clipped"
    return "no-ink"


_CACHE: OrderedDict[tuple[bytes, int], DocumentAnalysis] = OrderedDict()
_CACHE_SIZE = 6


def clear_cache() -> None:
    _CACHE.clear()


def check_dpi(dpi: int) -> None:
    if dpi < 18 or dpi > 1200:
        raise UserError(f"--dpi {dpi}: choose a DPI between 18 and 1200")


def analyze_document(data: bytes, dpi: int = 150, name: str = "PDF") -> DocumentAnalysis:
    """Every page's spans with their visibility, at `dpi`. Cached by content.

    For documents of many pages, `workbench.pdf.pages.PdfPages` analyses a page when it is needed."""
    check_dpi(dpi)
    key = (hashlib.sha1(data).digest(), int(dpi))
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    doc = open_fitz(data, name)
    try:
        pages = [analyze_fitz_page(doc, i, dpi, data) for i in range(doc.page_count)]
    finally:
        doc.close()
    result = DocumentAnalysis(dpi, pages)
    _CACHE[key] = result
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return result


def trace_fitz_document(doc, data: bytes) -> DocumentAnalysis:
    """Every page's spans of the open pymupdf `doc` (the bytes `data`) with their positions
    (`trace_spans`) and the structure's own text (annotations, fields, layers, ActualText,
    remapped glyphs, as `analyze_document` adds them), without the pixel checks: drawn text
    counts as shown. For drawing boxes where the verdicts are not needed. Not cached; a page over
    a per-page limit has no spans, as in `analyze_document`. (dpi 0: nothing was rendered.)
    `doc` is left as it was (nothing is removed for a bare render)."""
    pages = []
    for i in range(doc.page_count):
        why = too_complex(doc, i)
        if why:
            pages.append(skipped_page(doc, i, 0, why))
            continue
        page = doc[i]
        rect = page.rect
        spans = trace_spans(page, i, checks=False)
        structure.apply_to_page(doc, i, data, spans, Span, edited=False)
        pages.append(PageAnalysis(i, rect.width, rect.height, 0, spans, []))
    return DocumentAnalysis(0, pages)


def analyze_page(data: bytes, page: int = 0, dpi: int = 150, name: str = "PDF") -> list[Span]:
    """The spans of page `page` (0-based) with their visibility verdicts."""
    doc = analyze_document(data, dpi, name)
    if not 0 <= page < len(doc.pages):
        raise UserError(f"{name}: no page {page + 1} (it has {len(doc.pages)})")
    return doc.pages[page].spans
