"""Forensics page by page, computed when a page is looked at: cost grows with the pages looked at,
never with the document.

API:

- `PdfPages(data, name, dpi)`: a PDF opened for forensics. Opening reads the page count and
  nothing else; `page(i)` (0-based) computes that page's spans with their visibility, each
  extractor's text and the layer differences, keeps the last `cache_pages` pages (an LRU), and
  `prefetch(i)` computes a page ahead in a worker thread.
- `PageForensics` (`workbench.pdf.pagedata`): everything known about one page.
- `parse_pages(spec, page_count, cap)`: `--pages 1-5,12` / `all` / None -> 0-based page indices,
  and a line saying what was left out when the default cap applied.
- `Box`: a rectangle drawn on a page (a case's evidence and the hidden spans are found by
  `workbench.checks.evidence.page_boxes`, which makes them).
- `hidden_stretches(text, hidden)`: where a text layer holds hidden spans' text (the Inspect
  screen colours them, plain `inspect` marks them).

This module imports no PDF library: the workbench opens a `PdfPages` before its first frame
(with the page count another process read), and the page engine that computes pages
(`workbench.pdf.forensics`: pymupdf, numpy, pypdf) is loaded when the first page is asked for.
Every selected page on worker processes: `forensics.map_pages`.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from workbench.core import limits
from workbench.core.errors import UserError
from workbench.core.schema import JSONObject
from workbench.core.threads import DaemonExecutor
from workbench.pdf.pagedata import PageForensics
from workbench.pdf.spans import check_dpi
from workbench.text.search import Apart

# Pages kept analysed. A page of dense text is ~1 MB of spans and character boxes; 32 keep a
# reader paging back and forth served from memory while the process stays small.
CACHE_PAGES = 32


@dataclass(frozen=True)
class Box:
    """A rectangle on a page, in PDF points from the top-left (pymupdf's coordinates)."""

    page: int  # 0-based
    rect: tuple[float, float, float, float]
    kind: str  # expected | forbidden | hidden | evidence
    label: str = ""

    def to_json(self) -> JSONObject:
        return {"kind": self.kind, "text": self.label, "bbox": [round(v, 2) for v in self.rect]}


class PdfPages:
    """One PDF opened for per-page forensics (see the module docstring). Thread-safe."""

    def __init__(self, data: bytes, name: str = "PDF", dpi: int = 150, cache_pages: int | None = None,
                 checked: bool = False, page_count: int | None = None):
        """`checked`: `data` came from `read_pdf_bytes` (its page tree was walked once already).
        `page_count`: checked, and its page count known, so the PDF is opened on first use (the
        workbench shows a first page drawn by another process before pymupdf is loaded here)."""
        check_dpi(dpi)
        self.data, self.name, self.dpi = data, name, dpi
        self.cache_pages = max(1, CACHE_PAGES if cache_pages is None else cache_pages)
        self._lock = threading.RLock()
        self._checked = checked or page_count is not None
        self._engine: Any = None
        self.page_count = page_count if page_count is not None else self._open().page_count
        self._cache: OrderedDict[int, PageForensics] = OrderedDict()
        self._ahead: DaemonExecutor | None = None
        self._pending: dict[int, Future] = {}

    def _open(self) -> Any:
        """The page engine (`forensics.PageEngine`: the PDF open in pymupdf and pypdf), made on
        first use."""
        if self._engine is None:
            # The one way into the engine, imported here rather than at the top: pymupdf, numpy
            # and pypdf load when a page is first computed, after the workbench's first frame.
            from workbench.pdf.forensics import PageEngine

            self._engine = PageEngine(self.data, self.name, self.dpi, self._checked)
        return self._engine

    # ---- pages ----------------------------------------------------------------------------

    def _check(self, index: int) -> None:
        if not 0 <= index < self.page_count:
            raise UserError(f"{self.name}: no page {index + 1} (it has {self.page_count})")

    def cached(self, index: int) -> PageForensics | None:
        with self._lock:
            return self._cache.get(index)

    def page(self, index: int, layers: bool = True) -> PageForensics:
        """Page `index` (0-based), computed now unless it is cached or being computed ahead.

        With `layers`, each extractor's text and the layer differences too (lint needs neither)."""
        self._check(index)
        with self._lock:
            hit = self._cache.get(index)
            if hit is not None:
                self._cache.move_to_end(index)
                if layers and hit.texts is None:
                    self._open().add_layers(hit)
                return hit
            pending = self._pending.get(index)
        if pending is not None:
            pending.result()
            return self.page(index, layers)
        return self._compute(index, layers)

    def prefetch(self, index: int) -> None:
        """Compute page `index` in a worker thread, if it exists and is not known yet."""
        if not 0 <= index < self.page_count:
            return
        with self._lock:
            if index in self._cache or index in self._pending:
                return
            if self._ahead is None:
                # (daemon threads: quitting never waits for a page being read ahead)
                self._ahead = DaemonExecutor(1, "pdf-prefetch")
            future = self._ahead.submit(self._compute, index)
            self._pending[index] = future
        future.add_done_callback(lambda _f, i=index: self._pending.pop(i, None))

    def read_text_ahead(self, indices: list[int], helper: Any) -> None:
        """Have `helper` (a `core.pool.HelperProcess`) read the pypdf text of these pages now, on
        another core, while this process analyses them; a page whose text it cannot give (not
        started yet, or its process gone) is read here, as it would be without a helper."""
        self._open().read_text_ahead(indices, helper)

    def close(self) -> None:
        if self._ahead is not None:
            self._ahead.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            self._cache.clear()
            if self._engine is not None:
                self._engine.close()

    def __enter__(self) -> PdfPages:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _compute(self, index: int, layers: bool = True) -> PageForensics:
        with self._lock:
            hit = self._cache.get(index)
            if hit is not None:
                return hit
            result = self._open().compute(index, layers)
            self._cache[result.index] = result
            while len(self._cache) > self.cache_pages:
                self._cache.popitem(last=False)
            return result


# ---- which pages ------------------------------------------------------------------------------

_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def parse_pages(spec: str | None, page_count: int, cap: int | None | str = "default") -> tuple[list[int], str]:
    """(0-based page indices, a line saying what was left out or ''). `spec` is `--pages`; with
    none, the first `cap` pages (default: the `inspect_pages` limit; None: every page)."""
    if cap == "default":
        cap = int(limits.get("inspect_pages"))
    if spec is None or spec.strip() == "":
        if cap is not None and page_count > cap:
            return list(range(cap)), (f"stopped at the first {cap} pages of {page_count}; "
                                      "--pages all (or --pages 1-5,12) chooses others, "
                                      f"{limits.flag('inspect_pages')} reads more")
        return list(range(page_count)), ""
    if spec.strip().lower() == "all":
        return list(range(page_count)), ""
    out: list[int] = []
    have: set[int] = set()
    for part in spec.split(","):
        m = _RANGE.match(part)
        if not m:
            raise UserError(f"--pages {spec}: write pages as 1-5,12 or all")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if lo < 1 or hi < lo:
            raise UserError(f"--pages {spec}: {part.strip()} is not a range of pages (they start at 1)")
        if lo > page_count:
            raise UserError(f"--pages {spec}: the PDF has {page_count} page(s)")
        for i in range(lo - 1, min(hi, page_count)):
            if i not in have:   # (a set: `--pages 1-10000` looked through the list for each page)
                have.add(i)
                out.append(i)
    return out, ""


# ---- what a page shows --------------------------------------------------------------------------

def hidden_stretches(text: str, hidden: list[tuple[str, str]]) -> list[tuple[int, int, str]]:
    """(start, end, why) of every place `text` holds a hidden span's text, in order and apart;
    `hidden` is (span text, why it is hidden) pairs."""
    found: list[tuple[int, int, str]] = []
    taken = Apart()   # (a page of 2,000 hidden spans of one text: 154 s compared each with each)
    looked: set[str] = set()
    for needle, why in hidden:
        needle = needle.strip()
        if not needle or needle in looked:
            continue   # (the same text again: every place of it is taken, with the first's why)
        looked.add(needle)
        start = text.find(needle)
        while start != -1:
            end = start + len(needle)
            if taken.take(start, end):
                found.append((start, end, why))
            start = text.find(needle, end)
    return sorted(found)


def skipped_line(name: str, page: PageForensics) -> str:
    return f"{name}: page {page.index + 1}: {page.skipped}"


def unread_lines(page: PageForensics) -> list[str]:
    """A line for each layer the page could not be read into (its text is shown empty)."""
    return [f"{why}; its {extractor} layer is left empty" for extractor, why in page.unread.items()]
