"""Structure forensics: text that a PDF's structure, not its drawing, keeps from a person's view.

The span analysis (`workbench.pdf.spans`) judges what is drawn. Some text never reaches the
drawing at all, or reaches it as something else, and this module finds it:

    optional content off                    in an optional content group (layer) that is off
    annotation, not drawn                   an annotation's text (hidden, no-view, a note's popup)
    form field value, not its appearance    a field's value where its appearance shows another
    superseded by a later revision          text an incremental update replaced or painted over
    ToUnicode differs from the drawn glyphs the font's map gives other characters than the glyphs show
    ActualText replaces the drawn text      marked content whose /ActualText replaces the glyphs

API:

- `apply_to_page(doc, index, data, spans, Span)`: the hook the span analysis calls for each page: marks
  spans hidden with the reasons above and appends spans for text the drawing lacks (hidden ones
  for the structure's text, visible ones for what drawn glyphs really show).
- `structure_report(data) -> StructureReport`: the revisions (with what each changed) and the form
  fields (value beside appearance), for `inspect` and the lint.

The ToUnicode check does not trust the file: it renders each digit the suspect font draws and
compares it with digits 0-9 drawn in reference fonts (Helvetica, Times, Courier and Bitstream
Vera, plain and bold). A glyph that looks clearly like another digit than the one its map names is
a remap. Only digits are judged (letters vary too much between typefaces to call from shape
alone), only in fonts that carry a ToUnicode map, and not on rotated pages.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from workbench.pdf.budget import too_complex
from workbench.pdf.document import mupdf, mupdf_switches_kept, open_fitz

OCG_OFF = "optional content off"
ANNOTATION = "annotation, not drawn"
FIELD_VALUE = "form field value, not its appearance"
SUPERSEDED = "superseded by a later revision"
TOUNICODE = "ToUnicode differs from the drawn glyphs"
ACTUALTEXT = "ActualText replaces the drawn text"
STRUCTURE_REASONS = (OCG_OFF, ANNOTATION, FIELD_VALUE, SUPERSEDED, TOUNICODE, ACTUALTEXT)

# Annotation flags (PDF 32000-1, 12.5.3): Hidden and NoView keep an annotation off the screen.
_HIDDEN_FLAGS = 2 | 32
# Annotation types whose text is never drawn on the page itself (a note's text is in its popup).
_UNDRAWN_TYPES = {"Text", "FileAttachment", "Sound"}
# Glyph check: the reference grid, and how much better another digit must match than the mapped one.
_GRID_H, _GRID_W = 32, 32
_GLYPH_MARGIN = 0.05
_GLYPH_MIN_SCORE = 0.80
_GLYPH_EM_PX = 48


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _same_box(a, b, tol: float = 1.5) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def _inside(inner, outer, slack: float = 2.0) -> bool:
    cx, cy = (inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2
    return outer[0] - slack <= cx <= outer[2] + slack and outer[1] - slack <= cy <= outer[3] + slack


def _structure_span(like, page: int, text: str, bbox, reasons: list[str], visible: bool = False,
                    size: float = 0.0, font: str = ""):
    """A span the drawing does not hold as such (`like` is the span analysis's Span class)."""
    span = like(page=page, seqno=10**6, text=text, bbox=tuple(bbox), font=font, size=size,
                color=(0.0, 0.0, 0.0), render_mode=0, opacity=1.0)
    span.visible = visible
    span.reasons = [] if visible else list(reasons)
    return span


def _trace_spans(page) -> list[tuple[str, tuple[float, float, float, float], float, str]]:
    """(text, bbox in rendered page coordinates, size, font) of every text run pymupdf draws."""
    import pymupdf

    rot = page.rotation_matrix
    out = []
    for raw in page.get_texttrace():
        text = "".join(chr(c[0]) for c in raw.get("chars") or ())
        if not text.strip():
            continue
        box = tuple(pymupdf.Rect(raw["bbox"]) * rot) if page.rotation else tuple(raw["bbox"])
        out.append((text, box, float(raw.get("size") or 0.0), str(raw.get("font", ""))))
    return out


# ---- optional content ------------------------------------------------------------------------

def _ocg_spans(data: bytes, index: int, drawn) -> list[tuple[str, tuple, float, str]]:
    """Text runs that appear only when every optional content group is switched on."""
    import pymupdf

    facts = _facts(data)
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
        everything = _trace_spans(doc[index])
    finally:
        doc.close()
    shown = [(t, b) for t, b, _s, _f in drawn]
    return [s for s in everything if not any(t == s[0] and _same_box(b, s[1]) for t, b in shown)]


# ---- annotations and form fields ---------------------------------------------------------------

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

    def to_json(self) -> dict[str, Any]:
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
    import numpy as np
    import pymupdf

    rects = [tuple(a.rect) for a in _annots(page) if a.type[1] not in ("Popup", "Link")] + \
        [tuple(w.rect) for w in page.widgets() or ()]
    todo = [s for s in spans if s.reasons == ["no-ink"] and any(_inside(s.bbox, r) for r in rects)]
    if not todo:
        return

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


# ---- ActualText -------------------------------------------------------------------------------

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
    import pymupdf

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
    import unicodedata

    glue = {"\u200d", "\ufe0e", "\ufe0f", "\u20e3"}
    chars = [c for c in text if not c.isspace() and c not in glue]
    return bool(chars) and all(unicodedata.category(c) in ("So", "Sk", "Cs", "Co") or
                               0x1F3FB <= ord(c) <= 0x1F3FF for c in chars)


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# ---- ToUnicode: compare glyph shapes with reference digits ----------------------------------------

_REFERENCE: dict[str, Any] | None = None
# The base-14 faces, and Bitstream Vera (shipped with reportlab; the parent of DejaVu, the most
# common free sans): (name, font file or None for a base-14 face).
_REFERENCE_FONTS: tuple[tuple[str, str | None], ...] = (
    ("helv", None), ("hebo", None), ("tiro", None), ("tibo", None), ("cour", None), ("cobo", None),
    ("vera", "Vera.ttf"), ("verabd", "VeraBd.ttf"),
)


def _normalise(ink):
    """An ink array (1 = ink) scaled to the grid height, centred in the grid's width."""
    import numpy as np

    ys, xs = np.nonzero(ink > 0.25)
    if len(ys) == 0:
        return None
    ink = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    h, w = ink.shape
    new_w = max(1, min(_GRID_W, round(w * _GRID_H / h)))
    rows = (np.arange(_GRID_H) * h / _GRID_H).astype(int)
    cols = (np.arange(new_w) * w / new_w).astype(int)
    scaled = ink[rows][:, cols]
    out = np.zeros((_GRID_H, _GRID_W))
    left = (_GRID_W - new_w) // 2
    out[:, left:left + new_w] = scaled
    return out


def _ink(pix):
    import numpy as np

    arr = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, 0]
    return (255.0 - arr.astype(float)) / 255.0


def _references() -> dict[str, Any]:
    """Digits 0-9 in each reference font, normalised: {digit: [grid, ...]}."""
    global _REFERENCE
    if _REFERENCE is None:
        import os

        import pymupdf
        import reportlab

        fonts_dir = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
        refs: dict[str, Any] = {d: [] for d in "0123456789"}
        doc = pymupdf.open()
        page = doc.new_page(width=80 * len(_REFERENCE_FONTS), height=80 * 10)
        for i, (font, file) in enumerate(_REFERENCE_FONTS):
            path = os.path.join(fonts_dir, file) if file else None
            if path and not os.path.exists(path):
                continue
            for j, d in enumerate("0123456789"):
                page.insert_text((i * 80 + 10, j * 80 + 60), d, fontname=font, fontfile=path,
                                 fontsize=_GLYPH_EM_PX)
        for i, _font in enumerate(_REFERENCE_FONTS):
            for j, d in enumerate("0123456789"):
                pix = page.get_pixmap(clip=pymupdf.Rect(i * 80, j * 80, i * 80 + 80, j * 80 + 80),
                                      colorspace=pymupdf.csGRAY, alpha=False)
                grid = _normalise(_ink(pix))
                if grid is not None:
                    refs[d].append(grid)
        doc.close()
        _REFERENCE = refs
    return _REFERENCE


def _reference_matrix():
    """Every reference grid as a unit row vector, and the digit each row draws."""
    import numpy as np

    global _MATRIX
    if _MATRIX is None:
        rows, labels = [], []
        for d, grids in _references().items():
            for g in grids:
                v = g.ravel()
                rows.append(v / (np.linalg.norm(v) or 1.0))
                labels.append(d)
        _MATRIX = (np.array(rows), labels)
    return _MATRIX


_MATRIX: tuple[Any, list[str]] | None = None


def read_digit(ink) -> tuple[str | None, dict[str, float]]:
    """The digit a glyph's ink looks like (None if it looks like none) and each digit's score
    (the best cosine similarity with that digit in any reference font)."""
    import numpy as np

    grid = _normalise(ink)
    if grid is None:
        return None, {}
    v = grid.ravel()
    v = v / (np.linalg.norm(v) or 1.0)
    matrix, labels = _reference_matrix()
    sims = matrix @ v
    scores: dict[str, float] = {}
    for label, sim in zip(labels, sims.tolist(), strict=True):
        scores[label] = max(scores.get(label, 0.0), sim)
    best = max(scores, key=scores.get)
    return (best if scores[best] >= _GLYPH_MIN_SCORE else None), scores


def _fonts_with_tounicode(doc, page) -> set[str]:
    names = set()
    for xref, _ext, _type, basefont, _name, _enc, *_ in page.get_fonts(full=True):
        # A font dict written inline in the page's resources has no xref (0) to look its
        # ToUnicode up by: it is judged as one that may have a map (the glyph check decides).
        if not xref or doc.xref_get_key(xref, "ToUnicode")[0] == "xref":
            names.add(basefont.split("+", 1)[-1])
    return names


def _glyph_readings(doc, page, spans) -> list[tuple[Any, str]]:
    """(span, what its glyphs read) for spans whose font map disagrees with the drawn digits.

    Each glyph (font, glyph id) is judged once per page: it looks the same wherever it is drawn.
    """
    import pymupdf

    suspects = _fonts_with_tounicode(doc, page)
    if not suspects or page.rotation:  # (rotated pages: not judged; see the module docstring)
        return []
    wanted = {(s.text, tuple(round(v) for v in s.bbox)): s for s in spans
              if s.visible and s.size > 0 and any(c.isdigit() for c in s.text)}
    if not wanted:
        return []
    memo: dict[tuple[str, int], str | None] = {}
    out = []
    for raw in page.get_texttrace():
        font = str(raw.get("font", "")).split("+", 1)[-1]
        chars = raw.get("chars") or ()
        text = "".join(chr(c[0]) for c in chars)
        span = wanted.get((text, tuple(round(v) for v in raw["bbox"])))
        if span is None or font not in suspects:
            continue
        dpi = max(72, min(1200, round(_GLYPH_EM_PX * 72 / span.size)))
        read = list(text)
        for j, (code, gid, _origin, box) in enumerate(chars):
            ch = chr(code)
            if not ch.isdigit():
                continue
            if (font, gid) not in memo:
                memo[(font, gid)] = None
                clip = pymupdf.Rect(box)
                if not clip.is_empty:
                    pix = page.get_pixmap(clip=clip, dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
                    seen, scores = read_digit(_ink(pix))
                    if seen is not None and seen != ch and scores[seen] - scores.get(ch, 0.0) >= _GLYPH_MARGIN:
                        memo[(font, gid)] = seen
            if memo[(font, gid)] is not None:
                read[j] = memo[(font, gid)]
        if read != list(text):
            out.append((span, "".join(read)))
    return out


# ---- revisions ----------------------------------------------------------------------------------

@dataclass
class Revision:
    """One revision of the file: the bytes up to its %%EOF, and what it changed on the pages."""

    number: int                                     # 1 = the original
    end: int                                        # byte offset of the end of this revision
    objects: int                                    # objects its cross-reference section lists
    pages_changed: list[int] = field(default_factory=list)   # 0-based
    removed: list[str] = field(default_factory=list)          # text runs gone from the pages
    added: list[str] = field(default_factory=list)            # text runs (and "[N images]") new on them

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "end": self.end, "objects": self.objects,
                "pages_changed": [p + 1 for p in self.pages_changed],
                "removed": self.removed, "added": self.added}


_EOF = re.compile(rb"%%EOF[ \t]*(?:\r\n|\r|\n)?")
_XREF_ROW = re.compile(rb"^\d{10} \d{5} [nf]", re.MULTILINE)


def _revision_ends(data: bytes) -> list[int]:
    """Byte offsets where each revision ends (after its %%EOF), in file order."""
    ends = [m.end() for m in _EOF.finditer(data)]
    # A trailing %%EOF with nothing but whitespace after it ends the last revision.
    return [e for i, e in enumerate(ends) if i == len(ends) - 1 or data[e:ends[i + 1]].strip()]


def _quiet_open(data: bytes):
    with mupdf_switches_kept() as tools:
        tools.mupdf_display_errors(False)
        try:
            return mupdf().open(stream=data, filetype="pdf")
        except Exception:  # an earlier revision that does not stand alone: skip it
            return None


def _revision_traces(data: bytes) -> list[tuple[int, int, list[list[tuple]]]]:
    """(end, objects listed, texttrace per page) for each revision that opens on its own."""
    ends = _revision_ends(data)
    if len(ends) < 2:
        return []
    out = []
    start = 0
    for end in ends:
        doc = _quiet_open(data[:end])
        if doc is None or doc.is_repaired:
            # Not a revision that stands alone: a linearized file's first-page section, say,
            # which only opens by rebuilding the cross-reference table.
            if doc is not None:
                doc.close()
            continue
        try:  # (a page over a count of work is read as empty in every revision)
            drawn = [i for i in range(doc.page_count) if not too_complex(doc, i)]
            pages = [_trace_spans(doc[i]) if i in drawn else [] for i in range(doc.page_count)]
            images = [len(doc[i].get_image_info()) if i in drawn else 0 for i in range(doc.page_count)]
        finally:
            doc.close()
        out.append((end, len(_XREF_ROW.findall(data[start:end])), pages, images))
        start = end
    return out if len(out) > 1 else []


_REV_CACHE: OrderedDict[bytes, list] = OrderedDict()


def _revisions_cached(data: bytes) -> list[tuple[int, int, list[list[tuple]]]]:
    facts = _facts(data)
    if "revisions" not in facts:  # hashing a long file for each of its pages costs: once per bytes
        facts["revisions"] = _revisions_by_content(data)
    return facts["revisions"]


def _revisions_by_content(data: bytes) -> list[tuple[int, int, list[list[tuple]]]]:
    key = hashlib.sha1(data).digest()
    if key not in _REV_CACHE:
        _REV_CACHE[key] = _revision_traces(data)
        while len(_REV_CACHE) > 6:
            _REV_CACHE.popitem(last=False)
    return _REV_CACHE[key]


def revisions(data: bytes) -> list[Revision]:
    """Every revision of the file and what it changed (empty for a file written once)."""
    traces = _revisions_cached(data)
    out: list[Revision] = []
    prev: list[list[tuple]] | None = None
    prev_images: list[int] = []
    for n, (end, objects, pages, images) in enumerate(traces, 1):
        rev = Revision(n, end, objects)
        if prev is not None:
            for i in range(max(len(pages), len(prev))):
                old = [t.strip() for t, *_ in prev[i]] if i < len(prev) else []
                new = [t.strip() for t, *_ in pages[i]] if i < len(pages) else []
                gone = [w for w in old if w not in new]
                came = [w for w in new if w not in old]
                drawn = (images[i] if i < len(images) else 0) - (prev_images[i] if i < len(prev_images) else 0)
                if drawn > 0:  # an image the update stamps on the page is a change a person sees
                    came.append(f"[{drawn} image{'s' if drawn > 1 else ''}]")
                if gone or came:
                    rev.pages_changed.append(i)
                    rev.removed += gone
                    rev.added += came
        out.append(rev)
        prev, prev_images = pages, images
    return out


# ---- the hook -------------------------------------------------------------------------------------

def apply_to_page(doc, index: int, data: bytes, spans: list, like: type, edited: bool = True) -> None:
    """Mark `spans` (one page's, visibility already judged) and append the structure's own text,
    as spans of class `like`. `edited`: the analysis removed the page's text from `doc`."""
    if not edited:  # the page is as the file has it
        _apply(doc, doc[index], index, data, spans, like)
        return
    # The span analysis has removed the text from its copy of the page (and redaction drops
    # annotations): look at the page as the file has it, in a copy opened once per file.
    with _pristine(data) as fresh:
        _apply(fresh, fresh[index], index, data, spans, like)


_PRISTINE_LOCK = threading.Lock()
_PRISTINE: list[tuple[bytes, Any]] = []


@contextmanager
def _pristine(data: bytes):
    """The file opened untouched, kept for the next page of the same bytes (opening a long file
    for each of its pages would cost more than analysing them). One caller at a time."""
    import pymupdf

    with _PRISTINE_LOCK:
        if not (_PRISTINE and _PRISTINE[0][0] is data):
            while _PRISTINE:
                _PRISTINE.pop()[1].close()
            _PRISTINE.append((data, pymupdf.open(stream=data, filetype="pdf")))
        yield _PRISTINE[0][1]


_FACTS: list[tuple[bytes, dict[str, Any]]] = []


def _facts(data: bytes) -> dict[str, Any]:
    """What is known of a whole file, looked up once per bytes object rather than per page."""
    for known, facts in _FACTS:
        if known is data:
            return facts
    facts: dict[str, Any] = {}
    _FACTS.insert(0, (data, facts))
    del _FACTS[4:]
    return facts


def _apply(doc, page, index: int, data: bytes, spans: list, like: type) -> None:
    if page.first_annot is not None or page.first_widget is not None:
        _rejudge_annotation_text(page, spans)
    drawn = [(s.text, s.bbox, s.size, s.font) for s in spans]
    extra: list = []

    has_layers = doc.xref_get_key(doc.pdf_catalog(), "OCProperties")[0] != "null"
    for text, box, size, font in _ocg_spans(data, index, drawn) if has_layers else ():
        extra.append(_structure_span(like, index, text, box, [OCG_OFF], size=size, font=font))
    for text, rect in _annotation_spans(page, drawn):
        extra.append(_structure_span(like, index, text, rect, [ANNOTATION]))
    for f in _fields_of(page, index, drawn):
        if f.differs:
            extra.append(_structure_span(like, index, f.value, f.bbox, [FIELD_VALUE]))
    for text, box, size in _actualtext_spans(page):
        extra.append(_structure_span(like, index, text, box, [ACTUALTEXT], size=size))
    for span, seen in _glyph_readings(doc, page, spans):
        span.visible = False
        if TOUNICODE not in span.reasons:
            span.reasons.append(TOUNICODE)
        extra.append(_structure_span(like, index, seen, span.bbox, [], visible=True, size=span.size,
                                     font=span.font))
    _mark_superseded(data, index, spans, extra, like)
    spans.extend(extra)


def _mark_superseded(data: bytes, index: int, spans: list, extra: list, like) -> None:
    traces = _revisions_cached(data)
    if not traces:
        return
    final = traces[-1][2][index] if index < len(traces[-1][2]) else []
    seen_old: set[tuple] = set()
    for _end, _objects, pages, _images in traces[:-1]:
        for text, box, size, font in pages[index] if index < len(pages) else ():
            if (text, tuple(round(v) for v in box)) in seen_old:
                continue
            seen_old.add((text, tuple(round(v) for v in box)))
            now = [s for s in spans if s.text == text and _same_box(s.bbox, box)]
            if now:
                for s in now:
                    if not s.visible and SUPERSEDED not in s.reasons:
                        s.reasons.append(SUPERSEDED)
                continue
            if any(t == text and _same_box(b, box) for t, b, *_ in final):
                continue
            extra.append(_structure_span(like, index, text, box, [SUPERSEDED], size=size, font=font))


# ---- the report -----------------------------------------------------------------------------------

@dataclass
class StructureReport:
    revisions: list[Revision]
    fields: list[FormField]

    def to_json(self) -> dict[str, Any]:
        return {"revisions": [r.to_json() for r in self.revisions],
                "fields": [f.to_json() for f in self.fields]}


def structure_report(data: bytes, name: str = "PDF") -> StructureReport:
    """The file's revisions and form fields (see the module docstring)."""
    doc = open_fitz(data, name)
    try:
        fields: list[FormField] = []
        for i in range(doc.page_count if doc.is_form_pdf else 0):
            if too_complex(doc, i):
                continue
            page = doc[i]
            if page.first_widget is None:
                continue
            fields += _fields_of(page, i, _trace_spans(page))
    finally:
        doc.close()
    return StructureReport(revisions(data), fields)
