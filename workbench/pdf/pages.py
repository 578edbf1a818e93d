"""Forensics page by page, computed when a page is looked at: cost grows with the pages looked at,
never with the document.

API:

- `PdfPages(data, name, dpi)`: a PDF opened for forensics. Opening reads the page count and
  nothing else; `page(i)` (0-based) computes that page's spans with their visibility, each
  extractor's text and the layer differences, keeps the last `cache_pages` pages (an LRU), and
  `prefetch(i)` computes a page ahead in a worker thread.
- `parse_pages(spec, page_count, cap)`: `--pages 1-5,12` / `all` / None -> 0-based page indices,
  and a line saying what was left out when the default cap applied.
- `Box`: a rectangle drawn on a page (a case's evidence and the hidden spans are found by
  `workbench.checks.inspect.page_boxes`, which makes them).
- `hidden_stretches(text, hidden)`: where a text layer holds hidden spans' text (the Inspect
  screen colours them, plain `inspect` marks them).
- `map_pages(fn, ...)`: `fn` of every selected page, in order, on `jobs` processes (the lint's
  findings; `inspect`'s page reports, with `layers`).
"""

from __future__ import annotations

import io
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from workbench.core import limits
from workbench.core.errors import UserError
from workbench.core.pool import DaemonExecutor, map_ordered
from workbench.pdf.budget import page_rotation, too_complex
from workbench.pdf.document import open_fitz, why_failed
from workbench.pdf.layers import LayerDiff, diff_page
from workbench.pdf.spans import PageAnalysis, analyze_fitz_page, check_dpi, skipped_page
from workbench.pdf.textlayer import EXTRACTORS, PageInfo

# `inspect` and `lint` of a bare PDF stop at the `inspect_pages` limit unless --pages says
# otherwise: a 10,000-page document is rarely what someone meant to lint whole, and the output
# says what was left out.
# Pages kept analysed. A page of dense text is ~1 MB of spans and character boxes; 32 keep a
# reader paging back and forth served from memory while the process stays small.
CACHE_PAGES = 32
# After this many pages whose text was removed for the bare render, the analysis document is
# opened afresh: mupdf keeps every edited object, so memory would grow with the pages analysed.
REOPEN_AFTER_EDITS = 64


@dataclass(frozen=True)
class Box:
    """A rectangle on a page, in PDF points from the top-left (pymupdf's coordinates)."""

    page: int  # 0-based
    rect: tuple[float, float, float, float]
    kind: str  # expected | forbidden | hidden | evidence
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.label, "bbox": [round(v, 2) for v in self.rect]}


@dataclass
class PageForensics:
    """Everything known about one page."""

    index: int                      # 0-based
    info: PageInfo
    analysis: PageAnalysis
    seconds: float                  # what computing it took
    texts: dict[str, str] | None = None     # extractor -> this page's text (None: not read yet)
    diff: LayerDiff | None = None           # where the layers differ (None: not compared yet)
    # extractor -> why it could not read this page (its text is then ''): pypdf refuses a stream
    # that MuPDF reads, and the page, its spans and the other layer are still worth showing.
    unread: dict[str, str] = field(default_factory=dict)
    too_complex: bool = False       # over a count of work: not analysed, `skipped` says why

    @property
    def skipped(self) -> str:
        """Why the page's spans were not checked against its pixels ('' when they were)."""
        return self.analysis.skipped


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
        self._fitz = None if page_count is not None else open_fitz(data, name, checked=checked)
        self.page_count = page_count if page_count is not None else self._fitz.page_count
        self._edits = 0
        self._edited: set[int] = set()
        self._reader = None
        self._reader_failed: Exception | None = None
        self._cache: OrderedDict[int, PageForensics] = OrderedDict()
        self._ahead: DaemonExecutor | None = None
        self._pending: dict[int, Future] = {}
        self._text_ahead: dict[int, Future] = {}   # page -> its pypdf text, read by a helper process

    @property
    def _doc(self) -> Any:
        if self._fitz is None:  # opened on first use (see `page_count` in __init__)
            self._fitz = open_fitz(self.data, self.name, checked=True)
        return self._fitz

    @_doc.setter
    def _doc(self, doc: Any) -> None:
        self._fitz = doc

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
                    self._add_layers(hit)
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

    def close(self) -> None:
        if self._ahead is not None:
            self._ahead.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            self._cache.clear()
            if self._fitz is not None:
                self._fitz.close()

    def __enter__(self) -> PdfPages:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _compute(self, index: int, layers: bool = True) -> PageForensics:
        with self._lock:
            hit = self._cache.get(index)
            if hit is not None:
                return hit
            t0 = time.perf_counter()
            if index in self._edited or self._edits >= REOPEN_AFTER_EDITS:
                self._doc.close()
                self._doc = open_fitz(self.data, self.name, checked=True)
                self._edits, self._edited = 0, set()
            why = too_complex(self._doc, index)
            if why:  # not loaded at all: loading such a page is itself the cost avoided
                return self._keep(self._skipped(index, why, t0), layers)
            page = self._doc[index]
            info = PageInfo(index + 1, page.rect.width, page.rect.height, page.rotation)
            # The text layer is read before the analysis, which may remove the text from `doc`.
            mupdf_text = page.get_text("text") if layers else None
            analysis = analyze_fitz_page(self._doc, index, self.dpi, self.data, page)
            del page
            if analysis.edited:
                self._edits += 1
                self._edited.add(index)
            result = PageForensics(index, info, analysis, time.perf_counter() - t0)
            if layers:
                self._add_layers(result, mupdf_text)
            return self._keep(result, layers)

    def _keep(self, result: PageForensics, layers: bool) -> PageForensics:
        self._cache[result.index] = result
        while len(self._cache) > self.cache_pages:
            self._cache.popitem(last=False)
        return result

    def _skipped(self, index: int, why: str, t0: float) -> PageForensics:
        """A page over a count of work: its size, no spans and no text in any layer."""
        analysis = skipped_page(self._doc, index, self.dpi, why)
        info = PageInfo(index + 1, analysis.width, analysis.height, page_rotation(self._doc, index))
        texts = dict.fromkeys(EXTRACTORS, "")
        return PageForensics(index, info, analysis, time.perf_counter() - t0, texts,
                             diff_page([], texts, index), too_complex=True)

    def _add_layers(self, page: PageForensics, mupdf_text: str | None = None) -> None:
        if mupdf_text is None:
            if page.index in self._edited:  # its text was removed for the bare render
                self._doc.close()
                self._doc = open_fitz(self.data, self.name, checked=True)
                self._edits, self._edited = 0, set()
            mupdf_text = self._doc[page.index].get_text("text")
        try:
            pypdf_text = self._pypdf_text(page.index)
        except UserError as exc:
            pypdf_text, page.unread = "", {"pypdf": str(exc)}
        page.texts = {"pypdf": pypdf_text, "pymupdf": mupdf_text}
        page.diff = diff_page(page.analysis.spans, page.texts, page.index)

    def read_text_ahead(self, indices: list[int], helper: Any) -> None:
        """Have `helper` (a `core.pool.HelperProcess`) read the pypdf text of these pages now, on
        another core, while this process analyses them; a page whose text it cannot give (not
        started yet, or its process gone) is read here, as it would be without a helper."""
        for index in indices:
            if 0 <= index < self.page_count and index not in self._text_ahead:
                future = helper.submit(pypdf_page_text, self.data, index, self.name)
                if future is None:
                    return
                self._text_ahead[index] = future

    def _pypdf_text(self, index: int) -> str:
        ahead = self._text_ahead.pop(index, None)
        if ahead is not None:
            try:
                return ahead.result()
            except UserError:
                raise
            except Exception:  # the helper's process went away (or the call never ran there)
                pass

        def reader() -> Any:
            # One reader for the document: its first page costs a walk of the whole page tree
            # (about 1.5 s for 10,000 pages), and what it keeps per page read is small.
            if self._reader is None:
                from pypdf import PdfReader

                if self._reader_failed is not None:  # (a truncated file: not parsed again a page)
                    raise self._reader_failed
                try:
                    self._reader = PdfReader(io.BytesIO(self.data))
                except Exception as exc:
                    self._reader_failed = exc
                    raise
            return self._reader

        return _pypdf_page_text(reader, index, self.name)


def _pypdf_page_text(reader: Callable[[], Any], index: int, name: str) -> str:
    from pypdf.errors import PdfReadError

    plain = (PdfReadError, ValueError, KeyError, IndexError)  # (their messages say enough)
    try:
        pdf = reader()
    except Exception as exc:
        raise UserError(f"{name}: pypdf cannot read this PDF ({why_failed(exc, *plain)})") from None
    try:
        return pdf.pages[index].extract_text() or ""
    except Exception as exc:  # pypdf on a hostile page raises anything (NotImplementedError, ...)
        raise UserError(f"{name}: pypdf cannot read page {index + 1} ({why_failed(exc, *plain)})") from None


def pypdf_page_text(data: bytes, index: int, name: str = "PDF") -> str:
    """Page `index`'s pypdf text layer, as `PdfPages` reads it, from a reader of its own (a
    module-level function: `read_text_ahead` runs it in a helper process)."""
    from pypdf import PdfReader

    return _pypdf_page_text(lambda: PdfReader(io.BytesIO(data)), index, name)


def warm_pypdf() -> None:
    """A helper process's start: the imports `pypdf_page_text` needs."""
    import pypdf  # noqa: F401
    import pypdf._text_extraction  # noqa: F401


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
        out.extend(i - 1 for i in range(lo, min(hi, page_count) + 1) if i - 1 not in out)
    return out, ""


# ---- what a page shows --------------------------------------------------------------------------

def hidden_stretches(text: str, hidden: list[tuple[str, str]]) -> list[tuple[int, int, str]]:
    """(start, end, why) of every place `text` holds a hidden span's text, in order and apart;
    `hidden` is (span text, why it is hidden) pairs."""
    found: list[tuple[int, int, str]] = []
    for needle, why in hidden:
        needle = needle.strip()
        if not needle:
            continue
        start = text.find(needle)
        while start != -1:
            end = start + len(needle)
            if not any(s < end and start < e for s, e, _ in found):
                found.append((start, end, why))
            start = text.find(needle, end)
    return sorted(found)


def skipped_line(name: str, page: PageForensics) -> str:
    return f"{name}: page {page.index + 1}: {page.skipped}"


def unread_lines(page: PageForensics) -> list[str]:
    """A line for each layer the page could not be read into (its text is shown empty)."""
    return [f"{why}; its {extractor} layer is left empty" for extractor, why in page.unread.items()]


# ---- streaming over pages, on one or more processes ---------------------------------------------

_WORKER: dict[str, Any] = {}
# The garbage collector's first threshold while pages are streamed (Python's default is 700). A
# page's text trace is some 50,000 tuples that live until the page is done: at 700 the collector
# walked them dozens of times a page, 6% of the instructions of `inspect` (counted).
STREAM_GC_THRESHOLD = 20_000


def _open_in_worker(data: bytes, name: str, dpi: int) -> None:
    import gc

    old = _WORKER.get("pages")
    if old is not None:
        old.close()
    _WORKER.setdefault("gc", gc.get_threshold())
    gc.set_threshold(STREAM_GC_THRESHOLD, *_WORKER["gc"][1:])
    # A worker reads pages in order and never goes back: two cached pages are plenty.
    _WORKER["pages"] = PdfPages(data, name, dpi, cache_pages=2)


def _apply_in_worker(fn: Callable[[str, PageForensics], Any], layers: bool, index: int) -> tuple[Any, str]:
    pages = _WORKER["pages"]
    page = pages.page(index, layers=layers)
    return fn(pages.name, page), page.skipped


def map_pages(fn: Callable[[str, PageForensics], Any], data: bytes, pages: list[int], name: str = "PDF",
              dpi: int = 150, jobs: int | None = 1, *, layers: bool = False,
              chunksize: int = 16) -> Iterator[tuple[Any, str]]:
    """(`fn(name, page)`, skipped reason) of each page in `pages`, in order, on `jobs` processes,
    `chunksize` pages a task; `fn` is a module-level function (it is sent to the workers), e.g.
    the lint's `page_findings`. Pages are analysed without their text layers unless `layers`
    (`inspect` reports them)."""
    _import_for_workers(text_layers=layers)
    try:
        yield from map_ordered(partial(_apply_in_worker, fn, layers), pages, jobs, chunksize=chunksize,
                               initializer=_open_in_worker, initargs=(data, name, dpi))
    finally:
        _close_worker()


def _import_for_workers(text_layers: bool) -> None:
    """What every page needs, imported before the workers are forked: once, not once a worker."""
    import numpy  # noqa: F401

    if text_layers:
        import pypdf  # noqa: F401


def _close_worker() -> None:
    import gc

    old = _WORKER.pop("pages", None)
    if old is not None:
        old.close()
    if "gc" in _WORKER:  # (when the pages were streamed in this process)
        gc.set_threshold(*_WORKER.pop("gc"))
