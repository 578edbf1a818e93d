"""Span visibility: every text span on a page, and whether a person looking at the page sees it.

API (the TUI calls these from a worker; all take the PDF bytes):

- `analyze_page(data, page=0, dpi=150) -> list[Span]`: the spans of page `page` (0-based).
- `analyze_document(data, dpi=150) -> DocumentAnalysis`: every page (cached for the last few PDFs,
  so `inspect`, `lint` and evidence search on one case share the work); a document of more pages
  than the `forensic_pages` limit is refused (a PdfError saying how to raise it).
- `analyze_fitz_page(doc, index, dpi, data)`: one page of an open document (`pdf.forensics`
  analyses page by page with it).
- `trace_fitz_pages(doc, data)`: each page's spans with their positions, one page at a time,
  without the pixel checks (for drawing boxes).
- `clear_cache()`: forget cached analyses (benchmarks use it to measure cold runs).

The spans and the reasons that hide them are described in `workbench.pdf.spans`; the reasons in
the file's structure come from `workbench.pdf.structure`, which this analysis calls for each page.

The verdict is checked against the pixels: the page is rendered once as is and once with all text
removed; a span is visible only if pixels of its colour appear where the text changed the page,
with enough contrast (`workbench.pdf.ink`). What the drawing operators say (render mode, opacity,
position, size) can hide a span, but can never make visible a span whose box shows no ink of its
own. The one exception is a scan (a picture of the whole page under invisible text,
`workbench.pdf.scanned`): there a word of the invisible layer is visible when OCR of the rendered
page reads it near its box.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import pymupdf

from workbench.core import limits
from workbench.core.errors import UserError
from workbench.pdf import ink, ocr, scanned, structure
from workbench.pdf.budget import PageClock, page_size, too_complex
from workbench.pdf.document import broken_pdf_errors, check_page_budget, open_fitz
from workbench.pdf.spans import (
    NOT_IN_SCAN,
    DocumentAnalysis,
    PageAnalysis,
    Span,
    check_dpi,
    layer_issues,
)
from workbench.pdf.trace import box_mapper, trace_and_list, trace_spans

# Glyphs whose em is shorter than this many pixels cannot be read at the DPI inspected.
MIN_EM_PX = 6.0
# Share of the box that must lie on the page.
MIN_ON_PAGE = 0.5
# Share of the box a later opaque drawing must cover to be named as the cause.
COVER_SHARE = 0.6
# Bounds per page (workbench.core.limits, "Work per PDF page"), so any input finishes: a page over
# a count of work (`budget.too_complex`) is skipped whole; one whose render would exceed
# `page_pixels` or whose analysis runs past `page_seconds` keeps the verdicts its drawing
# operators give, and says its pixels were not (all) checked.

# Drawing operations that fill an area: drawn after text, they can hide it.
_FILL_KINDS = ("fill-image", "fill-imgmask", "fill-image-mask", "fill-shade", "fill-path")
# Drawing operations that put no ink on the page once its text is gone (text itself, clips).
_NO_INK_WITHOUT_TEXT = ("fill-text", "stroke-text", "ignore-text", "clip-text", "clip-stroke-text",
                        "clip-path", "clip-stroke-path", "pop-clip")


def analyze_fitz_page(doc, index: int, dpi: int, data: bytes, page=None) -> PageAnalysis:
    """Page `index` of the open pymupdf document `doc` (the bytes `data`), at `dpi`; `page` is
    that page if the caller has it loaded already (loading a page twice costs as much as its
    text trace).

    The page's text may be removed from `doc` for the bare render (`edited` says so): analyse a
    page once per opening of the document."""
    clock = PageClock()
    if page is None:
        why = too_complex(doc, index)
        if why:
            return skipped_page(doc, index, dpi, why)
        page = doc[index]
    page_rect = page.rect
    width, height = page_rect.width, page_rect.height
    to_page = box_mapper(page)
    trace = page.get_texttrace()   # (read once: the structure checks below look at it again)
    spans = trace_spans(page, index, to_page, trace=trace)

    log = [(kind, to_page(rect)) for kind, rect in page.get_bboxlog()] if spans else []
    # Read before the text is removed for the bare render: removing it renumbers the drawings.
    # (Only filled paths can cover: a page without one needs no look at its drawings.)
    covers = ink.Covers([(q, to_page(r)) for q, r in ink.opaque_covers(page.get_drawings())]
                     if spans and any(kind == "fill-path" for kind, _ in log) else [])
    ink_boxes: list[tuple[float, float, float, float]] = []
    skipped = ""
    # What is drawn after a span can hide part of it: per character, for spans it overlaps.
    fills = ink.Covers([(i, rect) for i, (kind, rect) in enumerate(log) if kind in _FILL_KINDS])
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
        # Nothing but text: without it the page is white paper, no need to remove it and redraw.
        white = page.first_annot is None and page.first_widget is None and all(
            kind in _NO_INK_WITHOUT_TEXT for kind, _ in log)
        pixels = ink.PagePixels(page, dpi, white)
        edited = not white
        w_px, h_px = pixels.width, pixels.height
        for kind, rect in log:
            if kind in _FILL_KINDS and pixels.dark_without_text(ink.to_px(rect, scale, w_px, h_px), 160):
                ink_boxes.append(rect)
        overlaps = ink.Overlaps(spans)
        spans_px = ink.px_boxes([s.bbox for s in spans], dpi / 72, w_px, h_px)
        for k, span in enumerate(spans):
            reasons = _operator_reasons(span, covers, width, height, dpi)
            if not reasons and k % 64 == 63 and not skipped and clock.over():
                skipped = "pixels not checked: " + clock.line(
                    f"over {clock.seconds:g} s, the pixels of {len(spans) - k} of its {len(spans)} "
                    "spans were not checked (visibility from the drawing operators)")
            if not reasons and not skipped:  # the operators draw it: do the pixels agree?
                holes = [spans_px[j] for j in overlaps[k]]
                if not pixels.shows_ink(spans_px[k], span.color, span.opacity, holes):
                    reasons.append(_why_no_ink(data, span, log, pixels.under(spans_px[k])))
            span.reasons = reasons
            span.visible = not reasons
            if span.visible and not skipped:
                partly[k] = _hidden_chars(span, fills, covers, (pixels, [spans_px[j] for j in overlaps[k]], dpi / 72))
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
            hidden_why[k] = [*span.reasons, NOT_IN_SCAN]
            if all(flags):
                span.reasons = hidden_why[k]
            else:
                span.visible, span.reasons = True, []
                partly[k] = flags if any(flags) else None
    # layers, annotations, fields, fonts, revisions
    structure.apply_to_page(doc, index, data, spans, edited=edited, page=page, trace=trace)
    if any(partly.values()):
        spans = _split_partly_hidden(spans, partly, hidden_why)
    return PageAnalysis(index, width, height, dpi, spans, ink_boxes, skipped=skipped, edited=edited)


def _hidden_chars(span: Span, fills: ink.Covers, covers: ink.Covers, pixels) -> list[bool] | None:
    """For a visible span that something drawn after it partly overlaps: per character, whether
    that character is hidden (None: none is, or the span has no boxes per character).

    A character is hidden where a later fill (a box, an image, a shading) covers COVER_SHARE of
    its box and the pixels show none of its own ink there (`pixels`: the page's `ink.PagePixels`,
    the pixel boxes of the text overlapping the span and the scale, or None when they were not
    checked: then only an opaque box over 0.9 of it hides it). Spaces go with
    their neighbours, so a value under a box is hidden whole and the label beside it is not."""
    if not span.char_boxes or len(span.char_boxes) != len(span.text):
        return None
    over = fills.over(span.bbox, span.seqno)
    if over is None:
        return None
    flags: list[bool | None] = []
    for ch, box in zip(span.text, span.char_boxes, strict=True):
        if ch.isspace() or ink.area(box) <= 0:
            flags.append(None)
            continue
        if pixels is None:
            flags.append(covers.hide(box, span.seqno, 0.9 * ink.area(box)))
            continue
        if ink.share(box, over) < COVER_SHARE:
            flags.append(False)
            continue
        page_pixels, holes, scale = pixels
        box_px = ink.px_boxes([box], scale, page_pixels.width, page_pixels.height)[0]
        flags.append(not page_pixels.shows_ink(box_px, span.color, span.opacity, holes))
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
                         direction=span.direction, char_boxes=boxes)
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


def _operator_reasons(span: Span, covers: ink.Covers, width: float, height: float, dpi: int) -> list[str]:
    """Why the drawing operators alone hide a span (before its pixels are looked at)."""
    reasons: list[str] = []
    if span.render_mode == 3:
        reasons.append("invisible-render-mode")
    if span.opacity <= 0.02:
        reasons.append("transparent")
    on_page = ink.area(ink.intersect(span.bbox, (0.0, 0.0, width, height)))
    if on_page < MIN_ON_PAGE * max(ink.area(span.bbox), 1e-6):
        reasons.append("off-page")
    if span.size * dpi / 72 < MIN_EM_PX:
        reasons.append("too-small")
    area = max(ink.area(span.bbox), 1e-6)
    if covers.hide(span.bbox, span.seqno, 0.9 * area):
        reasons.append("covered")  # an opaque box drawn later, whatever is drawn on it
    return reasons


def _why_no_ink(data: bytes, span: Span, log, under_luma: float) -> str:
    area = max(ink.area(span.bbox), 1e-6)
    for kind, rect in log[span.seqno + 1:]:
        if kind.startswith("fill-") and kind != "fill-text":
            if ink.area(ink.intersect(span.bbox, tuple(rect))) >= COVER_SHARE * area:
                return "covered"
    if abs(ink.luma(span.color) - under_luma) < ink.MIN_CONTRAST:
        return "no-contrast"
    if _clipped_out(data, span):
        return "clipped"
    return "no-ink"


def _clipped_out(data: bytes, span: Span) -> bool:
    """True if pymupdf's clip-aware extraction drops the span's characters (a rare, slow path)."""
    with open_fitz(data) as doc:
        return _clip_drops(doc[span.page], span)


def _clip_drops(page, span: Span) -> bool:
    probe = pymupdf.Rect(span.bbox) + (-1, -1, 1, 1)
    found = "".join(page.get_text("text", clip=probe).split())
    wanted = "".join(span.text.split())
    return bool(wanted) and wanted[: max(1, len(wanted) // 2)] not in found


_CACHE: OrderedDict[tuple[bytes, int], DocumentAnalysis] = OrderedDict()
_CACHE_SIZE = 6


def clear_cache() -> None:
    _CACHE.clear()


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
        # Counted before any page is analysed: a document over the limit is refused at once (the
        # text layers' reading refused it after this had analysed all 10,000 pages: lint, 12 s).
        check_page_budget(doc.page_count, name)
        pages = []
        for i in range(doc.page_count):
            with broken_pdf_errors(name, i):   # (a page the library cannot read: one line naming it)
                pages.append(analyze_fitz_page(doc, i, dpi, data))
    finally:
        doc.close()
    result = DocumentAnalysis(dpi, pages)
    _CACHE[key] = result
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return result


def trace_fitz_pages(doc, data: bytes, lists: dict[int, Any] | None = None) -> Iterator[PageAnalysis]:
    """Each page's spans of the open pymupdf `doc` (the bytes `data`), one page at a time (a
    caller may stop early), with their positions (`trace_spans`) and the structure's own text
    (annotations, fields, layers, ActualText, remapped glyphs, as `analyze_document` adds them),
    without the pixel checks: drawn text counts as shown. For drawing boxes where the verdicts
    are not needed. Not cached; a page over a per-page limit has no spans, as in
    `analyze_document`. (dpi 0: nothing was rendered.) `doc` is left as it was (nothing is
    removed for a bare render). With `lists`, a caller that renders a page too: each page's
    display list is put there as the page is read (`trace.trace_and_list`; None for a page that
    has none), for the render; the caller drops those it does not want."""
    for i in range(doc.page_count):
        why = too_complex(doc, i)
        if why:
            yield skipped_page(doc, i, 0, why)
            continue
        page = doc[i]
        rect = page.rect
        trace, drawn = (page.get_texttrace(), None) if lists is None else trace_and_list(page)
        if lists is not None:
            lists[i] = drawn
        spans = trace_spans(page, i, checks=False, trace=trace)
        structure.apply_to_page(doc, i, data, spans, edited=False, page=page, trace=trace, display_list=drawn)
        yield PageAnalysis(i, rect.width, rect.height, 0, spans, [])


def analyze_page(data: bytes, page: int = 0, dpi: int = 150, name: str = "PDF") -> list[Span]:
    """The spans of page `page` (0-based) with their visibility verdicts."""
    doc = analyze_document(data, dpi, name)
    if not 0 <= page < len(doc.pages):
        raise UserError(f"{name}: no page {page + 1} (it has {len(doc.pages)})")
    return doc.pages[page].spans

