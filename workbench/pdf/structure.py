"""Structure forensics: text that a PDF's structure, not its drawing, keeps from a person's view.

The span analysis (`workbench.pdf.visibility`) judges what is drawn. Some text never reaches the
drawing at all, or reaches it as something else, and this module finds it (the reasons are named
in `workbench.pdf.spans`):

    optional content off                    in an optional content group (layer) that is off
    annotation, not drawn                   an annotation's text (hidden, no-view, a note's popup)
    form field value, not its appearance    a field's value where its appearance shows another
    superseded by a later revision          text an incremental update replaced or painted over
                                            (`workbench.pdf.revisions`)
    ToUnicode differs from the drawn glyphs the font's map gives other characters than the glyphs
                                            show (`workbench.pdf.glyphs`)
    ActualText replaces the drawn text      marked content whose /ActualText replaces the glyphs

API:

- `apply_to_page(doc, index, data, spans, edited, page, trace)`: the hook the span analysis calls for each page: marks
  spans hidden with the reasons above and appends spans for text the drawing lacks (hidden ones
  for the structure's text, visible ones for what drawn glyphs really show).
- `structure_report(data) -> StructureReport`: the revisions (with what each changed), the form
  fields (value beside appearance), and whether the file is damaged (MuPDF had to rebuild its
  cross-reference table to read it: `REPAIRED`), for `inspect` and the lint.
"""

from __future__ import annotations

import math
import threading
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pymupdf

from workbench.core.schema import JSONObject
from workbench.pdf.budget import too_complex
from workbench.pdf.document import broken_pdf_errors, file_facts, open_fitz
from workbench.pdf.glyphs import glyph_readings
from workbench.pdf.revisions import Revision, revision_traces, revisions
from workbench.pdf.spans import (
    ACTUALTEXT,
    ANNOTATION,
    FIELD_VALUE,
    OCG_OFF,
    SUPERSEDED,
    TOUNICODE,
    Span,
)
from workbench.pdf.trace import text_runs

# Annotation flags (PDF 32000-1, 12.5.3): Hidden and NoView keep an annotation off the screen.
_HIDDEN_FLAGS = 2 | 32
# Annotation types whose text is never drawn on the page itself (a note's text is in its popup).
_UNDRAWN_TYPES = {"Text", "FileAttachment", "Sound"}


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _same_box(a, b, tol: float = 1.5) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


class _Near:
    """Things with a text and a box, found by text and place: `same(text, box)` is every one of
    that text whose box is `_same_box` as `box`, in the order given, looked for in the grid cells
    around the box's corner only (a page of thousands of runs of one text: no pass over all)."""

    CELL = 3.0   # at least the tolerance of `_same_box`: a match is in a neighbouring cell

    def __init__(self, items) -> None:
        self._cells: dict[tuple, list[tuple[int, Any, Any]]] = {}
        for n, (text, box, thing) in enumerate(items):
            cell = self._cell(box)
            if cell is not None:   # (a box not on any plane is the same as none)
                self._cells.setdefault((text, *cell), []).append((n, box, thing))

    def _cell(self, box) -> tuple[int, int] | None:
        x, y = box[0] / self.CELL, box[1] / self.CELL
        return (math.floor(x), math.floor(y)) if math.isfinite(x) and math.isfinite(y) else None

    def same(self, text: str, box) -> list:
        cell = self._cell(box)
        if cell is None:
            return []
        cx, cy = cell
        found = [(n, thing) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                 for n, b, thing in self._cells.get((text, cx + dx, cy + dy), ()) if _same_box(b, box)]
        return [thing for _, thing in sorted(found, key=lambda e: e[0])]


def _inside(inner, outer, slack: float = 2.0) -> bool:
    cx, cy = (inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2
    return outer[0] - slack <= cx <= outer[2] + slack and outer[1] - slack <= cy <= outer[3] + slack


def _structure_span(page: int, text: str, bbox, reasons: list[str], visible: bool = False,
                    size: float = 0.0, font: str = ""):
    """A span the drawing does not hold as such."""
    span = Span(page=page, seqno=10**6, text=text, bbox=tuple(bbox), font=font, size=size,
                color=(0.0, 0.0, 0.0), render_mode=0, opacity=1.0)
    span.visible = visible
    span.reasons = [] if visible else list(reasons)
    return span


# ---- optional content ----------------------------------------------------------------------------

def _ocg_spans(data: bytes, index: int, drawn) -> list[tuple[str, tuple, float, str]]:
    """Text runs that appear only when every optional content group is switched on."""
    facts = file_facts(data)
    if facts.get("no_ocg"):
        return []
    doc = pymupdf.open(stream=data, filetype="pdf")
    try:
        # Without /OCProperties a reader ignores optional content: every group is drawn, whatever
        # its default state, usage (print only) or auto-state events said. (Asked before the
        # change, pymupdf would keep the configuration it read: look at the key, not the groups.)
        if doc.xref_get_key(doc.pdf_catalog(), "OCProperties")[0] == "null":
            facts["no_ocg"] = True
            return []
        doc.xref_set_key(doc.pdf_catalog(), "OCProperties", "null")
        everything = text_runs(doc[index])
    finally:
        doc.close()
    shown = [(t, b) for t, b, _s, _f in drawn]
    return [s for s in everything if not any(t == s[0] and _same_box(b, s[1]) for t, b in shown)]


# ---- annotations and form fields -----------------------------------------------------------------

def _drawn_text_in(drawn, rect) -> str:
    return " ".join(t for t, b, _s, _f in drawn if _inside(b, rect))


def _annots(page):
    """The page's annotations (not its widgets), in order. (pymupdf's `page.annots()` looks each
    one up from the start of the list: 1,000 annotations took 14 s, 100,000 would take hours.)"""
    annot = page.first_annot
    while annot is not None:
        yield annot
        annot = annot.next


def _annotation_spans(page, drawn) -> list[tuple[str, tuple]]:
    out = []
    for annot in _annots(page):
        kind = annot.type[1]
        if kind in ("Widget", "Popup", "Link"):
            continue
        text = (annot.info or {}).get("content", "") or ""
        if not text.strip():
            continue
        rect = tuple(annot.rect)
        hidden = bool(annot.flags & _HIDDEN_FLAGS) or kind in _UNDRAWN_TYPES
        if not hidden and _norm(text) and _norm(text) in _norm(_drawn_text_in(drawn, rect)):
            continue  # drawn by its appearance: ordinary visible text
        out.append((text, rect))
    return out


@dataclass
class FormField:
    """A form field: its value, and the text its appearance draws."""

    page: int                                       # 0-based
    name: str
    kind: str
    value: str
    appearance: str
    bbox: tuple[float, float, float, float]

    @property
    def differs(self) -> bool:
        return bool(self.value.strip()) and _norm(self.value) != _norm(self.appearance)

    def to_json(self) -> JSONObject:
        return {"page_number": self.page + 1, "name": self.name, "kind": self.kind, "value": self.value,
                "appearance": self.appearance, "differs": self.differs,
                "bbox": [round(v, 2) for v in self.bbox]}


_TEXT_FIELDS = {"Text", "ComboBox", "ListBox"}

# A pixel is ink of an annotation's text if showing the annotations moves it this much (0..255).
_ANNOT_INK_STEP = 32
_ANNOT_INK_PIXELS = 3
_ANNOT_DPI = 100


def _rejudge_annotation_text(page, spans) -> None:
    """Text an annotation's appearance draws (a filled form field, a FreeText note) is not in the
    page's content, so removing the content's text leaves it and the span analysis sees no ink
    of its own. Judge such spans again: rendered with and without annotations."""
    rects = [tuple(a.rect) for a in _annots(page) if a.type[1] not in ("Popup", "Link")] + \
        [tuple(w.rect) for w in page.widgets() or ()]
    todo = [s for s in spans if s.reasons == ["no-ink"] and any(_inside(s.bbox, r) for r in rects)]
    if not todo:
        return

    import numpy as np

    def gray(annots: bool):
        pix = page.get_pixmap(dpi=_ANNOT_DPI, colorspace=pymupdf.csGRAY, alpha=False, annots=annots)
        return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width).astype(np.int16)

    with_annots, without = gray(True), gray(False)
    scale = _ANNOT_DPI / 72
    for s in todo:
        x0, y0 = max(0, int(s.bbox[0] * scale)), max(0, int(s.bbox[1] * scale))
        x1, y1 = int(s.bbox[2] * scale) + 1, int(s.bbox[3] * scale) + 1
        moved = np.abs(with_annots[y0:y1, x0:x1] - without[y0:y1, x0:x1]) >= _ANNOT_INK_STEP
        if int(np.count_nonzero(moved)) >= _ANNOT_INK_PIXELS:
            s.reasons, s.visible = [], True


def _fields_of(page, index: int, drawn) -> list[FormField]:
    out = []
    for widget in page.widgets() or ():
        kind = widget.field_type_string
        if kind not in _TEXT_FIELDS:
            continue
        rect = tuple(widget.rect)
        value = widget.field_value if isinstance(widget.field_value, str) else str(widget.field_value or "")
        out.append(FormField(index, widget.field_name or "", kind, value, _drawn_text_in(drawn, rect), rect))
    return out


# ---- ActualText ----------------------------------------------------------------------------------

def _mentions(page, word: bytes) -> bool:
    """Whether the page's content, or a form XObject it draws, contains `word` (cheap: no
    text extraction, and images are never decompressed)."""
    if word in page.read_contents():
        return True
    doc = page.parent
    for xref, *_ in page.get_xobjects():
        if doc.xref_get_key(xref, "Subtype")[1] == "/Form" and word in (doc.xref_stream(xref) or b""):
            return True
    return False


def _actualtext_spans(page) -> list[tuple[str, tuple, float]]:
    """Runs whose extracted text (which honours /ActualText) is not what the glyphs draw."""
    if not _mentions(page, b"/ActualText"):
        return []
    flags = pymupdf.TEXTFLAGS_TEXT
    with_at = page.get_text("text", flags=flags)
    without = page.get_text("text", flags=flags | pymupdf.TEXT_IGNORE_ACTUALTEXT)
    if with_at == without:
        return []

    def spans(extra: int):
        d = page.get_text("dict", flags=flags | extra)
        return [(s["text"], tuple(s["bbox"]), float(s["size"]))
                for b in d["blocks"] for ln in b.get("lines", ()) for s in ln["spans"] if s["text"].strip()]

    drawn = spans(pymupdf.TEXT_IGNORE_ACTUALTEXT)
    out = []
    for text, box, size in spans(0):
        if any(t == text and _same_box(b, box, 3) for t, b, _ in drawn):
            continue
        if _pictographs_only(text) and not any(_overlap(b, box) and any(c.isalnum() for c in t)
                                               for t, b, _ in drawn):
            continue  # an emoji's picture or glyph, its ActualText the emoji: what a person sees
        out.append((text, box, size))
    return out


def _pictographs_only(text: str) -> bool:
    """Emoji and other symbols only (with their joiners and variation selectors): no letter,
    digit or punctuation a value could be made of."""
    glue = {"\u200d", "\ufe0e", "\ufe0f", "\u20e3"}
    chars = [c for c in text if not c.isspace() and c not in glue]
    return bool(chars) and all(unicodedata.category(c) in ("So", "Sk", "Cs", "Co") or
                               0x1F3FB <= ord(c) <= 0x1F3FF for c in chars)


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# ---- the hook ------------------------------------------------------------------------------------

def apply_to_page(doc, index: int, data: bytes, spans: list[Span], edited: bool = True, page=None,
                  trace: list | None = None, display_list=None) -> None:
    """Mark `spans` (one page's, visibility already judged) and append the structure's own text,
    as spans. `edited`: the analysis removed the page's text from `doc`; else `page` is the page,
    loaded already (or None: it is loaded here). `trace`: the page's text trace as the file has
    it (read before any edit), which the spans were made from; else it is read again here.
    `display_list`: the unedited page's, made already (`trace.trace_and_list`)."""
    if not edited:  # the page is as the file has it
        _apply(doc, doc[index] if page is None else page, index, data, spans, trace, display_list)
        return
    # The span analysis has removed the text from its copy of the page (and redaction drops
    # annotations): look at the page as the file has it, in a copy opened once per file.
    with _pristine(data) as fresh:
        _apply(fresh, fresh[index], index, data, spans, trace)


_PRISTINE_LOCK = threading.Lock()
_PRISTINE: list[tuple[bytes, Any]] = []


@contextmanager
def _pristine(data: bytes):
    """The file opened untouched, kept for the next page of the same bytes (opening a long file
    for each of its pages would cost more than analysing them). One caller at a time."""
    with _PRISTINE_LOCK:
        if not (_PRISTINE and _PRISTINE[0][0] is data):
            while _PRISTINE:
                _PRISTINE.pop()[1].close()
            _PRISTINE.append((data, pymupdf.open(stream=data, filetype="pdf")))
        yield _PRISTINE[0][1]


def _apply(doc, page, index: int, data: bytes, spans: list[Span], trace: list | None = None,
           display_list=None) -> None:
    if page.first_annot is not None or page.first_widget is not None:
        _rejudge_annotation_text(page, spans)
    drawn = [(s.text, s.bbox, s.size, s.font) for s in spans]
    extra: list = []

    has_layers = doc.xref_get_key(doc.pdf_catalog(), "OCProperties")[0] != "null"
    for text, box, size, font in _ocg_spans(data, index, drawn) if has_layers else ():
        extra.append(_structure_span(index, text, box, [OCG_OFF], size=size, font=font))
    for text, rect in _annotation_spans(page, drawn):
        extra.append(_structure_span(index, text, rect, [ANNOTATION]))
    for f in _fields_of(page, index, drawn):
        if f.differs:
            extra.append(_structure_span(index, f.value, f.bbox, [FIELD_VALUE]))
    for text, box, size in _actualtext_spans(page):
        extra.append(_structure_span(index, text, box, [ACTUALTEXT], size=size))
    for span, seen in glyph_readings(doc, page, spans, trace, display_list):
        span.visible = False
        if TOUNICODE not in span.reasons:
            span.reasons.append(TOUNICODE)
        extra.append(_structure_span(index, seen, span.bbox, [], visible=True, size=span.size,
                                     font=span.font))
    _mark_superseded(data, index, spans, extra)
    spans.extend(extra)


def _mark_superseded(data: bytes, index: int, spans: list[Span], extra: list[Span]) -> None:
    traces = revision_traces(data)
    if not traces:
        return
    final = traces[-1][2][index] if index < len(traces[-1][2]) else []
    # Each old run is compared with the spans and runs of its text near its place only (a page
    # of 6,000 runs, updated once, compared each with each: a minute).
    spans_near = _Near((s.text, s.bbox, s) for s in spans)
    final_near = _Near((t, b, b) for t, b, *_ in final)
    seen_old: set[tuple] = set()
    for _end, _objects, pages in traces[:-1]:
        for text, box, size, font in pages[index] if index < len(pages) else ():
            if (text, tuple(round(v) for v in box)) in seen_old:
                continue
            seen_old.add((text, tuple(round(v) for v in box)))
            now = spans_near.same(text, box)
            if now:
                for s in now:
                    if not s.visible and SUPERSEDED not in s.reasons:
                        s.reasons.append(SUPERSEDED)
                continue
            if final_near.same(text, box):
                continue
            extra.append(_structure_span(index, text, box, [SUPERSEDED], size=size, font=font))


# ---- the report ----------------------------------------------------------------------------------

# What a damaged file is said to be, by `inspect` and the lint alike: a file cut short (a download
# that stopped) or written with a wrong cross-reference table opens in MuPDF, which rebuilds the
# table by scanning the bytes, while pypdf may refuse a page's stream or read none of it.
REPAIRED = ("the file is damaged (cut short, or its cross-reference table is wrong): MuPDF rebuilt "
            "the table to read it; other readers may read less of it, or nothing")


@dataclass
class StructureReport:
    revisions: list[Revision]
    fields: list[FormField]
    repaired: bool = False   # MuPDF rebuilt the cross-reference table to open the file (`REPAIRED`)

    def to_json(self) -> JSONObject:
        return {"revisions": [r.to_json() for r in self.revisions],
                "fields": [f.to_json() for f in self.fields], "repaired": self.repaired}


def structure_report(data: bytes, name: str = "PDF") -> StructureReport:
    """The file's revisions and form fields (see the module docstring)."""
    with broken_pdf_errors(name):
        return _structure_report(data, name)


def _structure_report(data: bytes, name: str) -> StructureReport:
    doc = open_fitz(data, name)
    try:
        repaired = bool(doc.is_repaired)
        fields: list[FormField] = []
        for i in range(doc.page_count if doc.is_form_pdf else 0):
            if too_complex(doc, i):
                continue
            page = doc[i]
            if page.first_widget is None:
                continue
            fields += _fields_of(page, i, text_runs(page))
    finally:
        doc.close()
    return StructureReport(revisions(data), fields, repaired)

