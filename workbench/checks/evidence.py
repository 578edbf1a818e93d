"""Evidence: where a string (an expected answer, a forbidden answer, a gold value) is on the pages.

API:

- `evidence_on_page(page, needle, find=None) -> list[Hit]`: every place the needle is drawn or
  hidden on one analysed page (`workbench.checks.search.find_evidence` looks on every page of a
  PDF). A `Hit` has `page` (0-based), `boxes` (PDF points, top-left origin, one per span it
  touches; multiply by dpi/72 for pixels of the rendered page), `visible` (every character it
  covers is visible), `text` (the matched text as the text layer holds it) and `exact` (the text
  layer spells it the same way the glyphs do: no zero-width or look-alike characters inside);
  `spans` are the spans it is read from. `turned(span)` says how a span is turned or mirrored
  away from the reading direction ("" when it is not).
- `find_in_texts(texts, needle, find=None) -> dict[str, list[int]]`: for each extractor (pypdf,
  pymupdf), the pages (0-based) whose text (read already) holds the needle (read as written: no
  glyph reading, since a text pipeline reads what the layer says; `search.find_in_layers` reads
  a PDF's layers for it).
- `evidence_needles(case)`: the (kind, text) pairs to find on a case's pages; `page_boxes(page,
  needles)`: the boxes shown on a page (hidden spans, and each needle's evidence), one `Box` each:
  the Inspect screen draws them and `inspect --json` prints them.
- `page_reading(spans) -> Reading`: a page's spans as the text a reader runs over, with every
  character's origin (the lint grades this text as an answer).

Matching is the grader's (`workbench.grading.matchers`): `find` is a finder from
`matchers.needle_finder(case)` (so a `keywords_all` key finds whole words, a `numeric` key finds
numbers within its tolerance), and defaults to `text.search.find_all` (a case-insensitive substring;
amounts compared as money however they are written: `$1,234.56`, `1234.56`, `USD 1,234.56`,
`1.234,56`, `1 234,56`; a currency that contradicts never matches, and an amount never matches
inside a larger number). On the page side: text is read as its glyphs show it (zero-width
characters dropped, look-alike letters read as ASCII), spans are joined into lines, and a word
hyphenated across a line break is also read joined. Text drawn only as pixels (an image) cannot be
found here: that needs OCR.

This module reads no PDF (it imports no PDF library): it looks at pages analysed already.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

from workbench.core.schema import JSONObject
from workbench.pdf.pagedata import PageForensics
from workbench.pdf.pages import Box
from workbench.pdf.spans import Span
from workbench.text.money import spaced_groups
from workbench.text.search import Apart, Part, find_all, read_glyphs

Finder = Callable[[str, str], list[Part]]


# A line break after a hyphen: the word may go on (indemni-/fication) or the hyphen is real (A-/77).
_HYPHEN_BREAK = re.compile(r"-[ \t]*\n[ \t]*")


@dataclass
class Hit:
    """A value found on a page: its boxes, whether it shows, and why not."""

    page: int                                           # 0-based
    boxes: list[tuple[float, float, float, float]]      # PDF points, top-left origin
    visible: bool
    text: str
    exact: bool = True
    reasons: list[str] = field(default_factory=list)    # why hidden, from the spans it covers
    spans: list[Span] = field(default_factory=list, repr=False, compare=False)  # the spans it is read from

    def to_json(self) -> JSONObject:
        return {
            "page_number": self.page + 1,
            "boxes": [[round(v, 2) for v in b] for b in self.boxes],
            "visible": self.visible,
            "text": self.text,
            "exact": self.exact,
            "reasons": list(self.reasons),
        }


def _lines(spans: list[Span]) -> list[list[Span]]:
    """Spans grouped into visual lines (top to bottom), each sorted left to right."""
    lines: list[tuple[float, float, list[Span]]] = []
    for s in sorted(spans, key=lambda s: ((s.bbox[1] + s.bbox[3]) / 2, s.bbox[0])):
        y0, y1 = s.bbox[1], s.bbox[3]
        if lines:
            ly0, ly1, members = lines[-1]
            overlap = min(y1, ly1) - max(y0, ly0)
            if overlap >= 0.5 * max(1e-3, min(y1 - y0, ly1 - ly0)):
                members.append(s)
                lines[-1] = (min(ly0, y0), max(ly1, y1), members)
                continue
        lines.append((y0, y1, [s]))
    return [sorted(m, key=lambda s: s.bbox[0]) for _, _, m in lines]


def _stream(spans: list[Span]) -> tuple[str, list[tuple[int, int] | None]]:
    """The page text as a reader would run over it, with each character's (span, char) origin."""
    chars: list[str] = []
    origin: list[tuple[int, int] | None] = []
    index = {id(s): i for i, s in enumerate(spans)}
    for n, line in enumerate(_lines(spans)):
        if n:
            chars.append("\n")
            origin.append(None)
        prev: Span | None = None
        for s in line:
            if prev is not None:
                gap = s.bbox[0] - prev.bbox[2]
                size = max(1.0, min(s.size, prev.size))
                if (gap > 0.2 * size or gap < -0.5 * size) and not prev.text.endswith(" "):
                    chars.append(" ")
                    origin.append(None)
            k = index[id(s)]
            chars.append(s.text)
            origin.extend(zip(repeat(k), range(len(s.text))))
            prev = s
    return "".join(chars), origin


@dataclass
class Reading:
    """A page's text as a reader runs over it, with each character's (span, char) origin."""

    text: str
    origin: list[tuple[int, int] | None]
    variants: list[tuple[str, list[int]]]   # (text as the glyphs read, index into `text`)


def _variants(text: str, origin: list[tuple[int, int] | None]) -> list[tuple[str, list[int]]]:
    """The text as the glyphs read it; where a line ends in a hyphen, also read with the word
    joined (hyphen dropped) and with the hyphen kept but the break dropped; and after those, where
    digit groups printed with plain spaces can only be one amount (`13 537,01 €`, `12 159,24 kr`,
    as French and Nordic invoices print them), each read again with them as one: a value the
    strict readings found keeps its place, and `€13,537.01` is found where the page prints it so."""
    out = _hyphen_variants(*read_glyphs(text))
    return out + [(spaced, where) for seen, where in out if (spaced := _one_amount(seen, where, origin)) is not None]


def _one_amount(seen: str, where: list[int], origin: list[tuple[int, int] | None]) -> str | None:
    """`seen` with the plain spaces between one amount's digit groups read as no-break spaces
    (`money.spaced_groups`), or None where it has none. Only spaces the page prints: the space
    put between two spans (`_stream`: two table cells, `12` and `500,00 €`) stays two numbers."""
    spaced = spaced_groups(seen)
    if spaced is seen:
        return None
    chars = list(spaced)
    for i, (a, b) in enumerate(zip(seen, spaced, strict=True)):
        if a != b and origin[where[i]] is None:
            chars[i] = a
    read = "".join(chars)
    return None if read == seen else read


def _hyphen_variants(seen: str, where: list[int]) -> list[tuple[str, list[int]]]:
    out = [(seen, where)]
    if not _HYPHEN_BREAK.search(seen):
        return out
    for keep in ("", "-"):
        chars: list[str] = []
        idx: list[int] = []
        pos = 0
        for m in _HYPHEN_BREAK.finditer(seen):
            chars.extend(seen[pos:m.start()])
            idx.extend(where[pos:m.start()])
            if keep:
                chars.append("-")
                idx.append(where[m.start()])
            pos = m.end()
        chars.extend(seen[pos:])
        idx.extend(where[pos:])
        out.append(("".join(chars), idx))
    return out


def page_reading(spans: list[Span], memo: dict | None = None, kind: str = "") -> Reading:
    """The spans' text as a reader runs over it (cached in the page's `memo` under `kind`)."""
    if memo is not None and kind in memo:
        return memo[kind]
    text, origin = _stream(spans)
    reading = Reading(text, origin, _variants(text, origin))
    if memo is not None:
        memo[kind] = reading
    return reading


def locate(reading: Reading, needle: str, find: Finder) -> list[tuple[int, int]]:
    """(start, end) indices into `reading.text` of every place `find` finds the needle."""
    out = Apart()
    for variant, where in reading.variants:
        for part in find(variant, needle):
            if part.span is None or part.span[1] <= part.span[0]:
                continue
            out.take(where[part.span[0]], where[part.span[1] - 1] + 1)
    return list(out)


def _hits_in(spans: list[Span], needle: str, find: Finder, page: int,
             memo: dict | None = None, kind: str = "") -> list[Hit]:
    if not spans:
        return []
    reading = page_reading(spans, memo, kind)
    text, origin = reading.text, reading.origin
    out: list[Hit] = []
    for a, b in locate(reading, needle, find):
        cells = [origin[i] for i in range(a, b) if origin[i] is not None]
        if not cells:
            continue
        groups: dict[int, list[int]] = {}
        for k, j in cells:
            groups.setdefault(k, []).append(j)
        boxes = []
        own: list[Span] = []
        visible = True
        reasons: list[str] = []
        exact = True
        for k, js in groups.items():
            span = spans[k]
            own.append(span)
            cb = [span.char_boxes[j] for j in js if j < len(span.char_boxes)] or [span.bbox]
            boxes.append((min(c[0] for c in cb), min(c[1] for c in cb),
                          max(c[2] for c in cb), max(c[3] for c in cb)))
            visible = visible and span.visible
            reasons.extend(r for r in span.reasons if r not in reasons)
            raw = "".join(span.text[j] for j in js)
            if read_glyphs(raw)[0] != raw:
                exact = False
        out.append(Hit(page, boxes, visible, text[a:b], exact, reasons, own))
    return out


# A span whose baseline turns more than this from left-to-right is turned away from the reader
# (scans slant by a few degrees; a stamp or a turned table more).
TURNED_DEGREES = 20.0


def turned(span: Span) -> str:
    """How a span is turned or mirrored away from the reading direction ("" when it is not):
    what a reader of the picture must undo to read it."""
    dx, dy = span.direction
    angle = math.degrees(math.atan2(dy, dx)) % 360.0
    turn = min(angle, 360.0 - angle)
    if span.mirrored:
        if turn <= TURNED_DEGREES:
            return "mirrored top-bottom (letters upside down, order kept)"
        if turn >= 180.0 - TURNED_DEGREES:
            return "mirrored left-right (read right to left)"
        return f"mirrored, and turned {angle:.0f}°"
    return f"turned {angle:.0f}° from the reading direction" if turn > TURNED_DEGREES else ""


def evidence_on_page(pa, needle: str, find: Finder | None = None) -> list[Hit]:
    """Every place `needle` is on one analysed page (a `spans.PageAnalysis`)."""
    if not needle or not needle.strip():
        return []
    find = find or find_all
    shown = [s for s in pa.spans if s.visible]
    hidden = [s for s in pa.spans if not s.visible]
    page_hits = _hits_in(shown, needle, find, pa.page, pa.streams, "shown")
    page_hits += _hits_in(hidden, needle, find, pa.page, pa.streams, "hidden")
    if not hidden:  # (all the spans are the shown ones: their hits are those found already)
        return page_hits
    # Spans of both kinds together: a needle that straddles visible and hidden text.
    seen_boxes = {tuple(b) for h in page_hits for b in h.boxes}
    for h in _hits_in(pa.spans, needle, find, pa.page, pa.streams, "all"):
        if not any(tuple(b) in seen_boxes for b in h.boxes):
            page_hits.append(h)
    return page_hits


def find_in_texts(texts: dict[str, list[str]], needle: str, find: Finder | None = None) -> dict[str, list[int]]:
    """`find_in_layers` over texts read already (extractor -> each page's text)."""
    return find_in_texts_of(texts, [needle], find)[needle]


def find_in_texts_of(texts: dict[str, list[str]], needles: list[str],
                     find: Finder | None = None) -> dict[str, dict[str, list[int]]]:
    """`find_in_texts` of each needle, the pages in the outer loop: each page's text is read
    for all the needles while its amounts are at hand (`money.find_money` keeps the last texts
    it read: needle by needle, a 300-page PDF's 600 layer texts were each read again for every
    needle, a second a value)."""
    find = find or find_all
    out = {needle: {extractor: [] for extractor in texts} for needle in needles}
    for extractor, pages in texts.items():
        for i, text in enumerate(pages):
            # A page's text holds a needle as written, or (as `_variants` reads a page) with the
            # plain-spaced digit groups of one amount read as one (an extractor's text says nothing
            # of where its spans meet: every space counts).
            spaced = spaced_groups(text)
            for needle in out:
                if find(text, needle) or (spaced is not text and find(spaced, needle)):
                    out[needle][extractor].append(i)
    return out


def evidence_needles(case: Any) -> list[tuple[str, str]]:
    """(kind, text) pairs to find on a case's pages: the expected answer or tokens, the forbidden ones."""
    needles: list[tuple[str, str]] = []
    if case.expected_tokens:
        needles += [("expected", t) for t in case.expected_tokens]
    elif case.expected_answer:
        needles.append(("expected", case.expected_answer))
    needles += [("forbidden", f) for f in case.forbidden_answers if f]
    return needles


def page_boxes(page: PageForensics, needles: list[tuple[str, str]] = ()) -> list[Box]:
    """The boxes drawn on a page: each hidden span, then each needle's evidence ((kind, text))."""
    i = page.index
    boxes = [Box(i, tuple(s.bbox), "hidden", s.text) for s in page.analysis.hidden if s.text.strip()]
    for kind, needle in needles:
        for hit in evidence_on_page(page.analysis, needle):
            boxes += [Box(i, tuple(rect), kind, needle) for rect in hit.boxes]
    return boxes
