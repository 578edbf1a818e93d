"""A page crop for the HTML report: the region of a case's page around its evidence (where the
expected and forbidden answers are), as a small greyscale PNG with the boxes to draw over it.

The evidence is found as the workbench draws it (`evidence.evidence_needles`, `evidence_on_page`,
the grader's matching) on the first page that prints the key's answer (the pages after it are
not read); a case whose answers are only pixels (a scan) gets the top of its first page, said
in the crop's note. Encoding is deterministic (pymupdf renders, Pillow writes the PNG
with fixed settings), so the same PDF gives the same bytes. `checks.crops` makes them for a report
(in worker processes, and from its cache), and loads this module only when one must be made.
"""

from __future__ import annotations

import io
from typing import Any

import pymupdf
from PIL import Image

from workbench.checks.evidence import evidence_needles, evidence_on_page
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.grading.html.crop import CropBox, PageCrop
from workbench.pdf.document import broken_pdf_errors, open_fitz
from workbench.pdf.visibility import trace_fitz_pages

# The crop's resolution: at 72 DPI text of 9 pt and up stays legible, and a report of a thousand
# wrong answers stays within a few megabytes (96 DPI: 1.5 times the bytes).
CROP_DPI = 72
# Points around the evidence, and the least height and width a crop shows (context to read).
PAD_PT = 20.0
MIN_H_PT = 90.0
MIN_W_PT = 300.0
MAX_H_PT = 240.0   # evidence spread taller than this: the crop centres on the expected answer
# Four grey levels (2 bits a pixel: black, two greys, white): glyphs and check marks stay legible
# at 72 DPI in a PNG of about 2 KB; 16 levels took 1.8 times the bytes.
_LEVELS = bytes(min(3, v // 64) for v in range(256))
_PALETTE = [0, 0, 0, 85, 85, 85, 170, 170, 170, 255, 255, 255]


def _union(rects: list[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    return (min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects), max(r[3] for r in rects))


def _clip(boxes: list[CropBox], page_w: float, page_h: float) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = _union([b.rect for b in boxes])
    if y1 - y0 + 2 * PAD_PT > MAX_H_PT:
        x0, y0, x1, y1 = _union([b.rect for b in boxes if b.kind == "expected"] or [boxes[0].rect])
    x0, y0, x1, y1 = x0 - PAD_PT, y0 - PAD_PT, x1 + PAD_PT, y1 + PAD_PT
    if x1 - x0 < MIN_W_PT:
        mid = (x0 + x1) / 2
        x0, x1 = mid - MIN_W_PT / 2, mid + MIN_W_PT / 2
    if y1 - y0 < MIN_H_PT:
        mid = (y0 + y1) / 2
        y0, y1 = mid - MIN_H_PT / 2, mid + MIN_H_PT / 2
    if y1 - y0 > MAX_H_PT:
        mid = (y0 + y1) / 2
        y0, y1 = mid - MAX_H_PT / 2, mid + MAX_H_PT / 2
    # Shift into the page rather than cut, so a box at the edge keeps its context.
    if x0 < 0:
        x0, x1 = 0.0, x1 - x0
    if y0 < 0:
        y0, y1 = 0.0, y1 - y0
    if x1 > page_w:
        x0, x1 = max(0.0, x0 - (x1 - page_w)), page_w
    if y1 > page_h:
        y0, y1 = max(0.0, y0 - (y1 - page_h)), page_h
    return (x0, y0, x1, y1)


def _png(pix) -> bytes:
    img = Image.frombytes("P", (pix.width, pix.height), bytes(pix.samples).translate(_LEVELS))
    img.putpalette(_PALETTE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", bits=2, compress_level=6)
    return buf.getvalue()


def evidence_crop(case: Case, data: bytes) -> PageCrop:
    """The crop of `case`'s page around its evidence (see the module docstring); a PDF the library
    cannot read past its opening (a file cut short) is a `PdfError`, as one it cannot open is."""
    with broken_pdf_errors(case.id):
        return _evidence_crop(case, data)


def _evidence_crop(case: Case, data: bytes) -> PageCrop:
    doc = open_fitz(data, case.id)
    try:
        # Positions only: the boxes need where the answers are drawn, not whether they show (the
        # visibility analysis was four fifths of a crop's time). One opening for both.
        needles = evidence_needles(case)
        found: dict[int, list[CropBox]] = {}
        drawn: dict[int, Any] = {}   # the display lists of the pages the crop may show
        for pa in trace_fitz_pages(doc, data, drawn):
            for kind, needle in needles:
                for hit in evidence_on_page(pa, needle):
                    found.setdefault(hit.page, []).extend(CropBox(kind, tuple(r)) for r in hit.boxes)
            if any(b.kind == "expected" for b in found.get(pa.page, ())):
                break   # the first page that prints the key's answer: the pages after it are not read
            if pa.page and pa.page not in found:
                drawn.pop(pa.page, None)
        # That page; where no page prints it, the page with the most boxes, then the first.
        page = min(found, key=lambda p: (-sum(b.kind == "expected" for b in found[p]), -len(found[p]), p)) \
            if found else 0
        boxes = found.get(page, [])
        if not doc.page_count:
            raise UserError(f"{case.id}: the PDF has no page")
        fz = doc[page]
        w, h = fz.rect.width, fz.rect.height
        note = ""
        if boxes:
            clip = _clip(boxes, w, h)
        else:
            clip = (0.0, 0.0, w, min(h, MAX_H_PT))
            note = "no answer of the key found in the text layer (drawn only as pixels?): the top of page 1"
        # (what fz.get_pixmap(dpi=...) does, off the display list the trace was read from)
        pix = (drawn.get(page) or fz.get_displaylist()).get_pixmap(
            matrix=pymupdf.Matrix(CROP_DPI / 72, CROP_DPI / 72), clip=pymupdf.Rect(*clip),
            colorspace=pymupdf.csGRAY, alpha=False)
        png = _png(pix)
    finally:
        doc.close()
    inside = tuple(b for b in boxes if b.rect[0] < clip[2] and b.rect[2] > clip[0]
                   and b.rect[1] < clip[3] and b.rect[3] > clip[1])
    return PageCrop(case.id, page, tuple(round(v, 2) for v in clip), pix.width, pix.height, png, inside, note)
