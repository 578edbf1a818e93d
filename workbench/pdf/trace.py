"""The text a page draws, as pymupdf's text trace gives it: each span with its text (word spaces
where the pen moves on), its box and each character's box in the rendered page's coordinates,
font, size, colour, render mode, opacity, direction and whether it is mirrored; no verdict yet
(`workbench.pdf.visibility` judges it).

API:

- `trace_spans(page, index)`: the spans of a loaded pymupdf page.
- `box_mapper(page)`: a box of the trace (unrotated coordinates) as the page is rendered.
- `text_runs(page)`: (text, box, size, font) of every text run, as drawn (the structure checks
  compare these, not spans).
- `trace_and_list(page)`: the text trace and the page's display list, from one run of the page,
  for a caller that renders it too (the report's crops).
"""

from __future__ import annotations

from typing import Any

import pymupdf

from workbench.pdf.spans import CharBoxes, Span, layer_issues
from workbench.text.search import is_format_char

# The pen moving on by this many ems beyond a span's usual letter gap is a word space (pypdf,
# pymupdf and pdftotext all space a 0.15 em TJ offset and none a 0.12 em one).
WORD_GAP_EM = 0.135


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


def _no_word_gap(chars, forward: bool, wide: float) -> bool:
    """Whether no pen move between two glyphs of the span is wider than `wide` beyond the first
    glyph's width (one pass, stopping at the first: the span then needs the full look)."""
    it = iter(chars)
    _u, _g, (px, _y), (x0, _t, x1, _b) = next(it)
    for _u, _g, (ox, _y), (a0, _t, a1, _b) in it:
        if ((ox - px) if forward else (px - ox)) - abs(x1 - x0) > wide:
            return False
        px, x0, x1 = ox, a0, a1
    return True


def _spaced(chars, direction: tuple[float, float], size: float) -> tuple[str, list[tuple]]:
    """A span's text with the word spaces its glyph positions show, and a box per character.

    Typesetters such as pdfLaTeX separate words by moving the pen (a TJ offset, a new text
    object) instead of drawing a space; extractors (pypdf, pymupdf, pdftotext) put a space where
    the pen moves on by more than about 0.15 em beyond the span's usual letter gap. So do we,
    on horizontal text, with a box over the gap for the space."""
    if len(chars) >= 2 and size > 0 and abs(direction[0]) >= 0.99 and \
            _no_word_gap(chars, direction[0] > 0, WORD_GAP_EM * size):
        # The usual case first: no gap is wider than a word space (the text draws its spaces, or
        # has none to draw), so nothing is cut; the boxes then go as the trace gives them.
        boxes = [c[3] for c in chars]
        if set(map(type, boxes)) != {tuple}:
            boxes = [b if type(b) is tuple else tuple(b) for b in boxes]
        return "".join([chr(c[0]) for c in chars]), boxes
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


def _is_mirrored(chars, direction: tuple[float, float]) -> bool:
    """Whether the glyphs stand below their baseline as the text runs (a mirrored matrix,
    left-right or top-bottom), not above it as in any rotation: most glyphs vote (the count stops
    once more than half of the span's glyphs agree: the rest cannot turn it)."""
    ux, uy = direction[1], -direction[0]  # the way glyph tops point, for unflipped text (y down)
    votes, half = 0, len(chars) // 2
    for _u, _g, (ox, oy), (x0, y0, x1, y1) in chars:
        if x1 > x0 and y1 > y0:
            if ((x0 + x1) / 2 - ox) * ux + ((y0 + y1) / 2 - oy) * uy > 0:
                votes += 1
                if votes > half:
                    return False
            else:
                votes -= 1
                if votes < -half:
                    return True
    return votes < 0


def box_mapper(page):
    """Boxes of the text trace (unrotated coordinates) as the page is rendered."""
    if not page.rotation:  # a property that asks mupdf each time: read it once
        return lambda r: tuple(r)
    rot = page.rotation_matrix
    return lambda r: tuple(pymupdf.Rect(r) * rot)


def trace_spans(page, index: int, to_page=None, checks: bool = True, trace: list | None = None) -> list[Span]:
    """The text spans of the loaded pymupdf `page` (number `index`), with their positions, as
    the page is rendered; no visibility verdict (every span is `visible` until analysed).
    `checks=False` leaves out what only the verdicts use (layer issues, mirroring): positions
    for drawing boxes, kept as the trace gives them (a list: such spans are not kept; an
    analysis's are, and hold theirs compactly, `spans.CharBoxes`). `trace`: the page's
    `get_texttrace()`, read already by the caller (who hands it on to the structure checks:
    reading it costs as much as the rest of this)."""
    to_page = to_page or box_mapper(page)
    rotated = bool(page.rotation)
    spans: list[Span] = []
    for raw in page.get_texttrace() if trace is None else trace:
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
            char_boxes=CharBoxes(boxes) if checks else boxes, direction=direction,
            mirrored=checks and _is_mirrored(chars, direction),
        )
        if checks:
            # (the glyph widths matter only where a format character could be drawn: not in ASCII)
            widths = None if text.isascii() else [b[2] - b[0] for b in boxes]
            span.layer_issues = layer_issues(text, widths, size)
        spans.append(span)
    return spans


def trace_and_list(page) -> tuple[list, Any]:
    """(the page's text trace, as `page.get_texttrace()` gives it; its display list, or None):
    the page is run once into the list, and the trace read off the list, so a render that follows
    (`list.get_pixmap(...)`, what `page.get_pixmap` does) does not run the page again: 7% of a
    report crop's time. A rotated page (its trace is read upright), or a pymupdf without the
    trace device: the trace as pymupdf reads it, and no list."""
    device = getattr(pymupdf.extra, "JM_new_texttrace_device", None)
    if page.rotation or device is None:
        return page.get_texttrace(), None
    mupdf = pymupdf.mupdf
    drawn = page.get_displaylist()
    trace: list = []
    dev = device(trace)
    dev.ptm = mupdf.FzMatrix(1, 0, 0, -1, 0, mupdf.fz_bound_page(page.this).y1)   # (as get_texttrace)
    mupdf.fz_run_display_list(drawn.this, dev, mupdf.FzMatrix(), mupdf.FzRect(mupdf.FzRect.Fixed_INFINITE),
                              mupdf.FzCookie())
    mupdf.fz_close_device(dev)
    return trace, drawn


def text_runs(page) -> list[tuple[str, tuple[float, float, float, float], float, str]]:
    """(text, bbox in rendered page coordinates, size, font) of every text run pymupdf draws."""
    rot = page.rotation_matrix
    out = []
    for raw in page.get_texttrace():
        text = "".join(chr(c[0]) for c in raw.get("chars") or ())
        if not text.strip():
            continue
        box = tuple(pymupdf.Rect(raw["bbox"]) * rot) if page.rotation else tuple(raw["bbox"])
        out.append((text, box, float(raw.get("size") or 0.0), str(raw.get("font", ""))))
    return out
