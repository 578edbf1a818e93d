"""Attribution: where in the document each value of an answer came from.

`attribute(case, data, answer) -> list[Attribution]` finds the values an answer states (amounts,
numbers, dates, identifiers, section references, quoted phrases; a short answer with none of
these is one phrase) and labels each with one source, the first of `sources.SOURCES` that
applies (what each means: `workbench.checks.sources`; values printed nowhere are traced by
`workbench.checks.unprinted`).

The search is the grader's: `search.find_evidence` and `search.find_in_layers` with the matchers'
folding and money rules, so "$1,234.56" in the answer is found as "1234.56 USD" on the page. The
page the question is about is the page where the expected answer is printed (none for derived answers).
How a value is printed is measured on the visible spans it is read from (`Hit.spans`), never on
whatever else overlaps it. A value in no text layer is looked for by OCR (the `ocr` extra) in the
page's pictures: a scanned page whole, else each group of images (a stamp), as drawn, then in a
mirror.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from functools import partial
from typing import TYPE_CHECKING

import pymupdf

from workbench.checks.evidence import Hit, turned
from workbench.checks.search import (
    find_evidence,
    find_evidence_of,
    find_in_layers,
    find_in_layers_of,
)
from workbench.checks.sources import Attribution, wrong_answer_source
from workbench.checks.unprinted import (
    arithmetic,
    in_another_currency,
    misread,
    printed_as_pixels,
)
from workbench.core import limits
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.grading.needles import contract_targets
from workbench.grading.outcome import WRONG_ANSWERS
from workbench.pdf import ocr
from workbench.pdf.document import open_fitz, read_pdf_bytes
from workbench.pdf.spans import Span
from workbench.pdf.visibility import analyze_page
from workbench.text.search import find_all
from workbench.text.values import answer_values, first_values

if TYPE_CHECKING:  # `grade --explain` attributes one answer: the report (and its price tables) is not loaded
    from workbench.grading.report import Report, Row

# Metadata keys under which the injection families record the instruction text they plant.
INJECTION_KEYS = ("injection", "hidden_text")
# Type this much smaller than the page's median span, and under this size, is small print.
SMALL_PRINT_RATIO = 0.75
SMALL_PRINT_MAX_PT = 8.0
# WCAG contrast ratio against white paper under which printed text is hard to read.
LOW_CONTRAST_RATIO = 3.0
# OCR (about a second a page) reads at most this many pages per answer.
OCR_MAX_PAGES = 4
# ... of the pages whose images cover at least this share of the page (read whole, as a scan);
OCR_MIN_PICTURE = 0.05
# ... else each group of images at most this far apart (points), the largest few, of images of
# at least this area (square points: a line of 6 pt type; a rule or a dot holds no value).
OCR_GROUP_GAP = 12.0
OCR_MAX_REGIONS = 4
OCR_MIN_REGION = 60.0


def _union(boxes: list[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def _overlap(a, b) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _luminance(rgb: tuple[float, float, float]) -> float:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_on_white(rgb: tuple[float, float, float]) -> float:
    """WCAG contrast ratio of a text colour against white paper (1 = none, 21 = black)."""
    return 1.05 / (_luminance(rgb) + 0.05)


class _Document:
    """What one case's PDF holds, looked up once per value and kept for the answer's values."""

    def __init__(self, case: Case, data: bytes, dpi: int) -> None:
        self.case, self.data, self.dpi = case, data, dpi
        self._spans: dict[int, list[Span]] = {}
        self._hits: dict[str, list[Hit]] = {}
        self._layers: dict[str, dict[str, list[int]]] = {}
        self.values: list[tuple[int, str]] | None = None
        self.keyed: dict[int, list[tuple[int, int, str, str]]] | None = None
        self.numbers: list[tuple[int | None, str, Decimal]] | None = None
        self._body: dict[int, float] = {}
        self._ocr: dict[int, list] = {}
        self.question_pages = self._question_pages()

    def page_count(self) -> int:
        return _page_count(self.data, self.case.id)

    def hits(self, value: str) -> list[Hit]:
        if value not in self._hits:
            self._hits[value] = find_evidence(self.data, value, self.dpi, self.case.id)
        return self._hits[value]

    def look_up(self, values: list[str]) -> None:
        """Find the places of all these values at once, for `hits` (`find_evidence_of`), and the
        text layers of those drawn and hidden nowhere, for `layers` (`find_in_layers_of`)."""
        wanted = [v for v in dict.fromkeys(values) if v not in self._hits]
        if len(wanted) > 1:
            self._hits.update(find_evidence_of(self.data, wanted, self.dpi, self.case.id))
        nowhere = [v for v in dict.fromkeys(values) if not self.hits(v) and v not in self._layers]
        if len(nowhere) > 1:
            self._layers.update(find_in_layers_of(self.data, nowhere, self.case.id))

    def layers(self, value: str) -> dict[str, list[int]]:
        if value not in self._layers:
            self._layers[value] = find_in_layers(self.data, value, self.case.id)
        return self._layers[value]

    def ocr(self, page: int, clip=None, flip: str = "") -> list:
        """What OCR reads on `page` (or in `clip` on it, read as drawn or mirrored: `flip`), as
        `pdf.ocr.OcrLine`s; empty without the OCR extra."""
        key = (page, clip, flip)
        if key not in self._ocr:
            self._ocr[key] = (ocr.ocr_page_lines(self.data, page, self.dpi, self.case.id, clip, flip)
                              if ocr.available() else [])
        return self._ocr[key]

    def ocr_hit(self, value: str) -> tuple[int, tuple[float, float, float, float], str] | None:
        """(page, box of the line, how it is drawn) of the first picture whose OCR reads `value`:
        a page that is mostly picture (a scan) whole, else each group of images on it (a stamp,
        a pasted figure), as drawn, then mirrored. The question's pages first, and only pages of a
        document that has few (OCR costs about a second a page)."""
        count = self.page_count()
        if count > OCR_MAX_PAGES and not self.question_pages:
            return None
        pages = sorted(self.question_pages) or list(range(count))
        pictures = [(p, self.pictures(p)) for p in pages]
        pictures = [(p, regions) for p, regions in pictures if regions][:OCR_MAX_PAGES]
        for flip in ocr.FLIPS:
            for page, regions in pictures:
                for clip in regions:
                    lines = self.ocr(page, clip, flip)
                    for line in lines + ocr.rows(lines):
                        if find_all(line.text, value):
                            return page, line.box, flip
        return None

    def pictures(self, page: int) -> list:
        """Where `page` holds pictures that may show printed text: the whole page (None) when
        images cover enough of it (a scan), else its groups of nearby images (at most
        OCR_MAX_REGIONS, largest first), each a clip in points."""
        fitz = open_fitz(self.data, self.case.id)
        try:
            p = fitz[page]
            area = abs(p.rect)
            rects = [p.rect & pymupdf.Rect(info["bbox"]) for info in p.get_image_info()]
        finally:
            fitz.close()
        rects = [r for r in rects if not r.is_empty and r.width * r.height >= OCR_MIN_REGION]
        if not rects or area <= 0:
            return []
        if sum(abs(r) for r in rects) / area >= OCR_MIN_PICTURE:
            return [None]
        groups: list = []
        for r in sorted(rects, key=lambda r: (r.y0, r.x0)):
            near = r + (-OCR_GROUP_GAP, -OCR_GROUP_GAP, OCR_GROUP_GAP, OCR_GROUP_GAP)
            for i, g in enumerate(groups):
                if near.intersects(g):
                    groups[i] = g | r
                    break
            else:
                groups.append(pymupdf.Rect(r))
        groups.sort(key=lambda g: -abs(g))
        return [tuple(g + (-6, -6, 6, 6)) for g in groups[:OCR_MAX_REGIONS]]

    def spans(self, page: int) -> list[Span]:
        if page not in self._spans:
            self._spans[page] = analyze_page(self.data, page, self.dpi, self.case.id)
        return self._spans[page]

    def body_size(self, page: int) -> float:
        """The page's median visible type size: what counts as body text there."""
        if page not in self._body:
            sizes = sorted(s.size for s in self.spans(page) if s.visible and s.size > 0)
            self._body[page] = sizes[len(sizes) // 2] if sizes else 0.0
        return self._body[page]

    def _question_pages(self) -> set[int]:
        expected = self.case.expected_answer.strip()
        if not expected or self.case.gold is not None:
            return set()
        return {h.page for h in self.hits(expected) if h.visible}

    def printed_oddly(self, hit: Hit) -> tuple[str, str] | None:
        """(source, measurement) when a visible hit is small, turned or faint: measured on the
        visible spans the value is read from (a hidden decoy drawn over it, or a tilted stamp's
        neighbouring line, says nothing about how the value itself is printed)."""
        spans = [s for s in hit.spans if s.visible] or [
            s for s in self.spans(hit.page) if s.visible and any(_overlap(s.bbox, b) for b in hit.boxes)]
        if not spans:
            return None
        median = self.body_size(hit.page)
        size = min((s.size for s in spans if s.size > 0), default=0.0)
        if 0 < size and median and size < SMALL_PRINT_RATIO * median and size < SMALL_PRINT_MAX_PT:
            return "small_print", f"{size:.1f} pt type (the page's body is {median:.1f} pt)"
        for s in spans:
            how = turned(s)
            if how:
                return "rotated", how
        ratio = min(contrast_on_white(s.color) for s in spans)
        if ratio < LOW_CONTRAST_RATIO:
            return "low_contrast", f"contrast {ratio:.1f}:1 against white paper"
        return None


def _injection_texts(case: Case) -> list[str]:
    """The instruction text a case plants: what its contract declares with role "instruction";
    for a case with no contract (imported), what its metadata records under INJECTION_KEYS. A
    planted line that is only a label and a figure ("TOTAL DUE $19,128.67") instructs no one: a
    value in it is hidden text (or printed), not an injection."""
    out: list[str] = []
    if case.contract is not None:
        for clause in case.contract:
            if clause.role == "instruction":
                resolved = contract_targets(case, clause.target)
                out.extend(resolved[1] or [] if resolved else [])
    else:
        for key in INJECTION_KEYS:
            value = case.metadata.get(key)
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, str) and v.strip():
                    out.append(v)
    return [text for text in out if _instructs(text)]


# A planted text with at least this many words besides its values says something to the reader.
INSTRUCTION_WORDS = 4


def _instructs(text: str) -> bool:
    rest, pos = [], 0
    for a, b, _ in answer_values(text):
        rest.append(text[pos:a])
        pos = b
    rest.append(text[pos:])
    return len(re.findall(r"[A-Za-z]{2,}", " ".join(rest))) >= INSTRUCTION_WORDS


def _derived(case: Case) -> list[tuple[list[str], str, str]]:
    """(values, how, parts) of each contract clause that declares a value derived."""
    out: list[tuple[list[str], str, str]] = []
    for clause in case.contract or []:
        if clause.where != "derived":
            continue
        resolved = contract_targets(case, clause.target)
        if resolved and resolved[1]:
            out.append((resolved[1], clause.how.strip(), ", ".join(clause.parts)))
    return out


def _computed_by_contract(case: Case) -> bool:
    """The contract says the expected answer is printed nowhere (it must be computed)."""
    return any(c.target == "expected" and c.where == "not_visible"
               for c in case.contract or [])


def _is_expected(case: Case, value: str) -> bool:
    expected = case.expected_answer.strip()
    return bool(expected) and bool(find_all(expected, value) or find_all(value, expected))


def attribute_value(doc: _Document, value: str, start: int, end: int, page: int | None = None) -> Attribution:
    """The source of one value (see the module docstring for the order). `page`: the page the
    answer states it for (a text probe's answer, each page's text after a form feed), where a
    value printed on it and on others is named: that page's place, not the first page's."""
    case = doc.case
    hits = doc.hits(value)
    if page is not None:
        hits = sorted(hits, key=lambda h: h.page != page)   # (stable: the others in their order)
    shown = [h for h in hits if h.visible]
    hidden = [h for h in hits if not h.visible]
    anywhere = (shown or hidden or [None])[0]
    found: list[Attribution] = []

    def note(source: str, detail: str, hit: Hit | None = None) -> None:
        page = hit.page if hit is not None else None
        box = _union(hit.boxes) if hit is not None else None
        found.append(Attribution(value, source, start, end, page, box, detail))

    if any(find_all(text, value) for text in _injection_texts(case)):
        note("injected", "in the instruction the document plants", anywhere)
    if find_all(case.question, value):
        note("question", "echoed from the question", anywhere)
    on_question_page = [h for h in shown if h.page == page] or [
        h for h in shown if not doc.question_pages or h.page in doc.question_pages]
    for h in on_question_page or shown:
        odd = doc.printed_oddly(h)
        if odd:
            note(odd[0], f"{odd[1]}, page {h.page + 1}", h)
            break
    if shown and not on_question_page:
        asked = ", ".join(str(p + 1) for p in sorted(doc.question_pages))
        note("other_page", f"printed on page {shown[0].page + 1}; the question is about page {asked}",
             shown[0])
    if on_question_page:
        note("visible", f"printed on page {on_question_page[0].page + 1}", on_question_page[0])
    elif not shown and printed_as_pixels(case) and _is_expected(case, value):
        note("visible", "printed in the page image (the key's answer; located by the key, not read)",
             hidden[0] if hidden else None)
    if hidden:
        h = hidden[0]
        note("hidden", f"hidden text on page {h.page + 1} ({', '.join(h.reasons) or 'hidden'})", h)
    elif not shown:
        layers = {name: pages for name, pages in doc.layers(value).items() if pages}
        if layers:
            where = "; ".join(f"{name} page {', '.join(str(p + 1) for p in pages)}"
                              for name, pages in layers.items())
            found.append(Attribution(value, "hidden", start, end, min(min(p) for p in layers.values()), None,
                                     f"only in the text layer ({where}), drawn nowhere"))
    if not found and not shown and not hidden:
        # Not in any text: perhaps printed as pixels (a scan, an image), which OCR reads.
        seen = doc.ocr_hit(value)
        if seen is not None:
            page, box, flip = seen
            near = misread(doc, value)
            if near:
                found.append(Attribution(value, "misread", start, end, near[2], None,
                                         f"{near[1]}; OCR of page {page + 1} misreads it the same way"))
            elif flip:
                found.append(Attribution(value, "rotated", start, end, page, box,
                                         f"in an image, mirrored (OCR): page {page + 1}'s image read "
                                         f"in a mirror ({flip}) shows it"))
            else:
                found.append(Attribution(value, "visible", start, end, page, box,
                                         f"in an image (OCR): OCR of page {page + 1} reads it"))
    if not found:
        other = in_another_currency(doc, value)
        if other is not None:
            page, printed = other
            found.append(Attribution(value, "visible", start, end, page, None,
                                     f"printed as {printed!r} on page {page + 1}: the answer gives the "
                                     "printed amount another currency"))
    if not found:
        for values, how, parts in _derived(case):
            if any(find_all(v, value) or find_all(value, v) for v in values):
                note("computed", f"derived{' as ' + how if how else ''} from printed {parts}")
                break
        else:
            if _computed_by_contract(case) and _is_expected(case, value):
                note("computed", "the key's answer, which the contract says is computed, not printed")
    if not found:
        near = misread(doc, value)
        if near:
            found.append(Attribution(value, "misread", start, end, near[2], None, near[1]))
    if not found:
        how = arithmetic(doc, value)
        if how:
            note("computed", f"printed nowhere, but it is {how}: computed from the page")
    if not found:
        note("absent", "nowhere in the document: not printed, hidden or in a text layer")
    first = found[0]
    if len(found) > 1:
        also = "; ".join(f"also {a.source}: {a.detail}" for a in found[1:])
        first = Attribution(first.value, first.source, start, end,
                            first.page if first.page is not None else found[1].page,
                            first.box if first.box is not None else found[1].box,
                            f"{first.detail}; {also}")
    return first


def attribute(case: Case, data: bytes, answer: str, dpi: int = 150,
              max_values: int | None = None) -> list[Attribution]:
    """Each value of `answer` (its first `max_values`, when given), in the answer's order, with
    the source it came from."""
    return _attribute(_Document(case, data, dpi), answer, max_values)


def _attribute(doc: _Document, answer: str, max_values: int | None) -> list[Attribution]:
    """The first `max_values` values traced (None: the `traced_values` limit's, said in one
    line when the answer states more; a caller's own cap, the workbench pane's, says so itself)."""
    cap = int(limits.get("traced_values")) if max_values is None else max_values
    values, stated = first_values(answer, cap)
    if (stated is None or stated > cap) and max_values is None:
        said = f"more than {cap:,}" if stated is None else f"{stated:,}"
        logging.getLogger(__name__).warning("pdfworkbench: %s", limits.exceeded(
            "traced_values", f"{doc.case.id}: an answer states {said} values; the first {cap:,} are traced"))
    doc.look_up([text for _a, _b, text in values])
    if "\f" not in answer:
        return [attribute_value(doc, text, a, b) for a, b, text in values]
    # A text probe's answer: each value's page is the form feeds before it (values in order).
    out, page, at = [], 0, 0
    for a, b, text in values:
        page, at = page + answer.count("\f", at, a), a
        out.append(attribute_value(doc, text, a, b, page))
    return out


def _page_count(data: bytes, name: str) -> int:
    fitz = open_fitz(data, name)
    try:
        return fitz.page_count
    finally:
        fitz.close()


# One case's wrong answers to trace: the case, its answers (cut to max_chars), dpi, max_pages,
# max_values.
_CaseJob = tuple[Case, list[str], int, int | None, int | None]


def _trace_case(job: _CaseJob) -> list[tuple[str | None, list]] | None:
    """(source, attribution as JSON) of each answer of a case (None: its PDF is not read): one
    _Document for all of them, whose look-ups (the pages' analysis, each value's hits) every
    reader's answer shares. A pool worker's job."""
    case, answers, dpi, max_pages, max_values = job
    try:
        data = read_pdf_bytes(case.pdf_file)
        if max_pages is not None and _page_count(data, case.id) > max_pages:
            return None
        doc = _Document(case, data, dpi)
        out = []
        for answer in answers:
            found = _attribute(doc, answer, max_values)
            out.append((wrong_answer_source(found), [a.to_json() for a in found]))
    except UserError:   # (or too long to analyse: the `forensic_pages` limit)
        return None
    return out


def attribute_rows(report: Report, cases_by_id: Mapping[str, Case], dpi: int = 150, *,
                   max_pages: int | None = None, max_values: int | None = None,
                   max_chars: int | None = None, jobs: int | None = 1,
                   mapper: Callable[[Callable, list], Iterable] | None = None) -> int:
    """Give every wrong answer in `report` its source and attribution; the count traced.

    Each case's PDF is read once, and analysed once for all the answers to it, on `jobs`
    processes (a case a job; the results the same whatever `jobs`), or by `mapper(fn, items)`
    (fn(item) for each item, in order: another pool's workers). A case whose PDF cannot be
    read, or (with `max_pages`) has more pages, is left untraced; `max_values` traces only each
    answer's first values, `max_chars` only its first characters."""
    # (Was: run after run, each case analysed again for each run's answer: 3 times with 3 readers.)
    rows_of: dict[str, list[Row]] = {}
    for run in report.runs:
        for row in run.rows:
            if row.outcome in WRONG_ANSWERS and row.answer and row.case_id in cases_by_id:
                rows_of.setdefault(row.case_id, []).append(row)
    work = [(cases_by_id[cid], [r.answer[:max_chars] if max_chars else r.answer for r in rows], dpi,
             max_pages, max_values) for cid, rows in rows_of.items()]
    if mapper is None:
        # The process pool (multiprocessing, with socket and pickle: about 4 ms of `grade
        # --explain`'s start, which attributes one answer in its own process) for a report's rows only.
        from workbench.core.pool import map_ordered

        mapper = partial(map_ordered, jobs=jobs)
    traced = 0
    for rows, found in zip(rows_of.values(), mapper(_trace_case, work), strict=True):
        if found is None:
            continue
        for row, (source, attribution) in zip(rows, found, strict=True):
            row.source = source
            row.attribution = attribution
            traced += 1
    return traced
