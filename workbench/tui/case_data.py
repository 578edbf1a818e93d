"""Everything the Inspect and Author screens show for one case, page by page.

Opening a case reads its PDF's page count and analyses the first pages (`eager`); every other page
is analysed when it is shown (`load_page`, from a worker), kept in the document's bounded page
cache (`workbench.pdf.pages.PdfPages`), and the page after it is computed ahead. The boxes drawn
on a page come from the checks' `page_boxes`, the same function `inspect --json` prints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from workbench.checks.evidence import evidence_needles, page_boxes
from workbench.core.case import Case
from workbench.pdf.pagedata import EXTRACTORS
from workbench.pdf.pages import Box, PdfPages
from workbench.pdf.spans import Analysed, DocumentAnalysis

# A case's PDF of up to this many pages is analysed whole when it opens (the Author screen
# shows every page of a preview at once); longer documents page by page.
EAGER_PAGES = 8

__all__ = ["EXTRACTORS", "CaseData", "PageData", "analysed", "case_data_from_bytes", "finish_case_data",
           "load_case_data", "load_page", "open_case_data"]


@dataclass
class PageData:
    """One page's share of what is shown, computed in a worker."""

    page: int                   # 0-based
    texts: dict[str, str]       # extractor -> the page's text
    hidden: list[str]           # texts of the page's hidden spans
    boxes: list[Box]            # hidden spans and evidence on the page
    skipped: str = ""           # why its pixels were not checked ('' when they were)
    unread: dict[str, str] = field(default_factory=dict)  # extractor -> why it read no text here


@dataclass
class CaseData:
    """A case opened in the workbench: its PDF, its pages (loaded as they are looked at) and needles."""

    case: Case
    pdf: bytes
    page_count: int
    pages: PdfPages
    needles: list[tuple[str, str]]
    # Per page, None until that page is loaded (see `apply`).
    layers: dict[str, list[str | None]] = field(default_factory=dict)
    hidden_texts: list[list[str] | None] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    findings: list[Any] = field(default_factory=list)             # lint findings
    loaded: set[int] = field(default_factory=set)
    skipped: dict[int, str] = field(default_factory=dict)         # page -> why not checked
    # extractor -> page -> why that layer could not be read (it is shown empty)
    unread: dict[str, dict[int, str]] = field(default_factory=lambda: {n: {} for n in EXTRACTORS})

    def apply(self, page: PageData) -> None:
        """Record a loaded page (on the thread that owns this object: the UI's)."""
        if page.page in self.loaded:
            return
        for name in EXTRACTORS:
            self.layers[name][page.page] = page.texts.get(name, "")
        self.hidden_texts[page.page] = page.hidden
        self.boxes += page.boxes
        if page.skipped:
            self.skipped[page.page] = page.skipped
        for name, why in page.unread.items():
            self.unread[name][page.page] = why
        self.loaded.add(page.page)

    def __repr__(self) -> str:
        # Short: Textual's @work names each worker by the repr of its arguments, and the full
        # repr (the PDF's bytes, a list entry per page) cost the UI thread on every page turn.
        return f"CaseData({self.case.id!r}, {self.page_count} pages, {len(self.loaded)} loaded)"


def load_case_data(case: Case, dpi: int, eager: int = EAGER_PAGES) -> CaseData:
    # pymupdf: this module is loaded before the workbench's first frame, a case read after it
    from workbench.pdf.document import read_pdf_bytes

    return case_data_from_bytes(case, read_pdf_bytes(case.pdf_file), dpi, case.pdf_file.name, eager=eager)


def open_case_data(case: Case, pdf: bytes, dpi: int, name: str | None = None, checked: bool = False,
                   page_count: int | None = None) -> CaseData:
    """The case's PDF opened: its page count, nothing analysed yet (enough to show the page).
    `checked`: `pdf` came from `read_pdf_bytes`; `page_count`: and its page count is known (the PDF
    is then opened when its first page is analysed)."""
    pages = PdfPages(pdf, name or f"{case.id}.pdf", dpi, checked=checked, page_count=page_count)
    count = pages.page_count
    return CaseData(case, pdf, count, pages, evidence_needles(case) if case.question else [],
                    layers={n: [None] * count for n in EXTRACTORS}, hidden_texts=[None] * count)


def finish_case_data(data: CaseData, eager: int = EAGER_PAGES, lint: bool = True,
                     prefetch: bool = True, unscanned: Analysed | None = None) -> CaseData:
    """Analyse a PDF of up to `eager` pages whole, a longer one's first page (with `prefetch`, the
    next one ahead), and lint the case (on the pages analysed here when they are all of them;
    `unscanned` is a scan's unscanned generation, see `lint_case`). Called from a worker, before
    the screen is handed the data."""
    # The PDF opened already, so what follows raises only on a bug; a bug is reported by the
    # worker that called this (a notification), never hidden as a "problem".
    for i in _eager_pages(data, eager):
        data.apply(load_page(data, i, prefetch=False))
    if prefetch and len(data.loaded) < data.page_count:
        data.pages.prefetch(len(data.loaded))
    if lint and data.case.question:
        # (the lint's checks and their PDF libraries: in a worker, after the first frame)
        from workbench.checks.lint import lint_case

        data.findings = lint_case(data.case, data.pdf, analysed=analysed(data), unscanned=unscanned)
    return data


def _eager_pages(data: CaseData, eager: int) -> range:
    """The pages `finish_case_data` analyses: all of a PDF of up to `eager` pages, else the first."""
    return range(data.page_count if data.page_count <= eager else 1)


def analysed(data: CaseData) -> Analysed | None:
    """The case's PDF as analysed for the screen, when every page is (for the lint to reuse)."""
    pages = [data.pages.cached(i) for i in range(data.page_count)]
    # (a layer that could not be read is not there to lint: the lint reads the file itself and
    # says why it cannot)
    if not pages or any(p is None or p.texts is None or p.unread for p in pages):
        return None
    texts = {name: [p.texts.get(name, "") for p in pages] for name in EXTRACTORS}
    return Analysed(data.pdf, DocumentAnalysis(data.pages.dpi, [p.analysis for p in pages]), texts)


def case_data_from_bytes(case: Case, pdf: bytes, dpi: int, name: str | None = None,
                         lint: bool = True, eager: int = EAGER_PAGES,
                         unscanned: Analysed | None = None, helper: Any = None,
                         after_text: Callable[[], Any] | None = None) -> CaseData:
    """What is shown for a case whose PDF is in memory (a file's, or an authoring preview's): the
    page count and, for a PDF of up to `eager` pages, every page; else the first page only.
    `helper` (a `core.pool.HelperProcess`) reads the pypdf layer of those pages meanwhile;
    `after_text` is called once they are asked of it, to queue more work behind them."""
    data = open_case_data(case, pdf, dpi, name)
    if helper is not None:
        data.pages.read_text_ahead(list(_eager_pages(data, eager)), helper)
    if after_text is not None:
        after_text()
    return finish_case_data(data, eager, lint, unscanned=unscanned)


def load_page(data: CaseData, index: int, prefetch: bool = True) -> PageData:
    """Page `index` of the case (from a worker thread); the next page is computed ahead."""
    page = data.pages.page(index)
    if prefetch:
        data.pages.prefetch(index + 1)
    hidden = [s.text for s in page.analysis.hidden if s.text.strip()]
    return PageData(index, dict(page.texts or {}), hidden, page_boxes(page, data.needles), page.skipped,
                    dict(page.unread))
