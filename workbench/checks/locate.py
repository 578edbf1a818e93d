"""Locating the value a mutation attacks: the expected answer's box by evidence search, or a box
the user gives (`--at PAGE:x0,y0,x1,y1`), with the text the page holds there."""

from __future__ import annotations

import re
from dataclasses import dataclass

from workbench.checks.search import find_evidence
from workbench.core.errors import UserError
from workbench.pdf.pages import PdfPages
from workbench.pdf.visibility import analyze_document


@dataclass(frozen=True)
class Located:
    page: int                                   # 0-based
    box: tuple[float, float, float, float]      # PDF points, top-left origin (as evidence boxes)
    text: str                                   # what the text layer holds there
    visible: bool = True


_AT = re.compile(r"\s*(\d+)\s*:\s*([-\d.]+)\s*,\s*([-\d.]+)\s*,\s*([-\d.]+)\s*,\s*([-\d.]+)\s*\Z")


def parse_at(text: str) -> tuple[int, tuple[float, float, float, float]]:
    """`2:72,140,180,156` -> (1, (72.0, 140.0, 180.0, 156.0)): page number (1-based) and a box in points."""
    m = _AT.match(text)
    if not m:
        raise UserError(f"--at {text!r}: write it as PAGE:x0,y0,x1,y1 (points from the top-left corner)")
    x0, y0, x1, y1 = (float(v) for v in m.groups()[1:])
    if x1 <= x0 or y1 <= y0:
        raise UserError(f"--at {text!r}: x1 must exceed x0 and y1 exceed y0")
    return int(m.group(1)) - 1, (x0, y0, x1, y1)


def _union(boxes) -> tuple[float, float, float, float]:
    first = boxes[0]
    line = [b for b in boxes if abs(b[1] - first[1]) < 0.5 * (first[3] - first[1]) + 0.5]
    return (min(b[0] for b in line), min(b[1] for b in line), max(b[2] for b in line), max(b[3] for b in line))


def _analysed(data: bytes, name: str, page: int | None = None) -> list:
    """The PDF's analysed pages (cached: `analyze_document`); a `page` (0-based) it does not have
    is a UserError saying how many it has."""
    pages = analyze_document(data, name=name).pages
    if page is not None and not 0 <= page < len(pages):
        raise UserError(f"{name} has no page {page + 1} (it has {len(pages)})")
    return pages


def locate_all(data: bytes, needle: str, name: str = "PDF") -> list[Located]:
    """Every place `needle` is printed, visible ones first, in page order."""
    hits = sorted(find_evidence(data, needle, name=name), key=lambda h: (not h.visible, h.page))
    return [Located(h.page, _union(h.boxes), h.text.strip(), h.visible) for h in hits]


def page_spans(data: bytes, page: int, name: str = "PDF") -> list[Located]:
    """Every text span of page `page` (0-based) with its box and visibility, in reading order:
    what a person can pick as the value a mutation attacks. Only that page is analysed."""
    spans = PdfPages(data, name=name).page(page, layers=False).analysis.spans
    out = [Located(page, tuple(s.bbox), s.text.strip(), s.visible) for s in spans if s.text.strip()]
    return sorted(out, key=lambda loc: (round(loc.box[1]), loc.box[0]))


def locate_value(data: bytes, needle: str, name: str = "PDF", page: int | None = None) -> Located:
    """Where `needle` is printed (a visible hit first; the first page it is on, or `page`)."""
    if not needle.strip():
        raise UserError(f"{name}: the case has no expected answer to locate")
    if not any(pa.spans for pa in _analysed(data, name, page)):
        raise UserError(f"{name}: an image-only PDF (no text layer), so the value cannot be located")
    hits = [h for h in find_evidence(data, needle, name=name) if page is None or h.page == page]
    hits.sort(key=lambda h: (not h.visible, h.page))
    if not hits:
        where = f"page {page + 1}" if page is not None else "the pages"
        raise UserError(f"{name}: {needle!r} is nowhere on {where}")
    hit = hits[0]
    return Located(hit.page, _union(hit.boxes), hit.text.strip(), hit.visible)


def locate_box(data: bytes, page: int, box: tuple[float, float, float, float], name: str = "PDF") -> Located:
    """The text under a box the user gave (the rendered page's coordinates)."""
    pages = analyze_document(data, name=name).pages
    if not 0 <= page < len(pages):
        raise UserError(f"--at: {name} has no page {page + 1} (it has {len(pages)})")
    x0, y0, x1, y1 = box
    chars = []
    for span in pages[page].spans:
        for ch, cb in zip(span.text, span.char_boxes, strict=False):
            cx, cy = (cb[0] + cb[2]) / 2, (cb[1] + cb[3]) / 2
            if x0 <= cx <= x1 and y0 <= cy <= y1:
                chars.append((round(cb[1] / 3), cb[0], ch))
    text = "".join(ch for _, _, ch in sorted(chars)).strip()
    if not text:
        raise UserError(f"--at: page {page + 1} has no text at {x0:g},{y0:g},{x1:g},{y1:g}; move the box "
                        "onto the value (inspect --json lists the spans with their boxes)")
    return Located(page, box, text, True)


def located_answer(case, pdf: bytes) -> tuple[Located | None, list[str]]:
    """Where a hand-written key's answer is printed (its first token without an answer), and one
    line per answer or token the evidence search cannot find: what adopting a PDF requires."""
    first, problems = None, []
    for needle in [case.expected_answer] if case.expected_answer.strip() else case.expected_tokens:
        try:
            hit = locate_value(pdf, needle, case.id)
        except UserError as exc:
            problems.append(f"expected-not-located: {exc}")
            continue
        first = first or hit
    return first, problems


def locate_for(case, pdf: bytes, at: str | None = None, page: int | None = None) -> Located:
    """The value a mutation of `case` attacks: `at` (PAGE:x0,y0,x1,y1), else the expected answer
    located on `pdf` (on page `page`, 1-based, when given), else the box the case's last mutation
    attacked (a value a mutation turned into pixels is found no more)."""
    if at is not None:
        page0, box = parse_at(at)
        return locate_box(pdf, page0, box, case.id)
    needle = case.expected_answer or (case.expected_tokens[0] if case.expected_tokens else "")
    if page is not None:
        _analysed(pdf, case.id, page - 1)   # (no such page: said as it is, not as a value not found)
    try:
        return locate_value(pdf, needle, case.id, page=None if page is None else page - 1)
    except UserError as exc:
        earlier = [s.target for s in case.mutations or () if s.target is not None]
        if not earlier:
            raise UserError(f"{exc}; give the value's box with --at PAGE:x0,y0,x1,y1") from None
        t = earlier[-1]
        return Located(t.page, t.box, t.text)
