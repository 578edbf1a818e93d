"""The page engine: one PDF open in pymupdf and pypdf, computing each page's forensics (its spans
with their visibility, each extractor's text, where the layers differ) for `pages.PdfPages`, and
every selected page of a document on worker processes (`map_pages`: the lint's findings of a bare
PDF, `inspect`'s page reports).

API:

- `PageEngine(data, name, dpi, checked)`: what a `pages.PdfPages` computes its pages with.
- `map_pages(fn, data, pages, ...)`: `fn(name, page)` of every page in `pages`, in order, on
  `jobs` processes.
"""

from __future__ import annotations

import gc
import io
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from pypdf import PdfReader

from workbench.core import collector
from workbench.core.errors import UserError
from workbench.core.pool import map_ordered
from workbench.pdf.budget import page_rotation, too_complex
from workbench.pdf.document import broken_pdf_errors, open_fitz
from workbench.pdf.layers import diff_page
from workbench.pdf.pagedata import EXTRACTORS, PageForensics, PageInfo
from workbench.pdf.textlayer import pypdf_page_text, read_pypdf_page
from workbench.pdf.visibility import analyze_fitz_page, skipped_page

# After this many pages whose text was removed for the bare render, the analysis document is
# opened afresh: mupdf keeps every edited object, so memory would grow with the pages analysed.
REOPEN_AFTER_EDITS = 64


class PageEngine:
    """One PDF open for computing its pages (a `PdfPages` holds one, and its lock: one caller at a
    time). `checked`: the bytes came from `read_pdf_bytes`, so the page tree is not walked again."""

    def __init__(self, data: bytes, name: str, dpi: int, checked: bool) -> None:
        self.data, self.name, self.dpi = data, name, dpi
        self._doc = open_fitz(data, name, checked=checked)
        self.page_count = self._doc.page_count
        self._edits = 0
        self._edited: set[int] = set()
        self._reader: Any = None
        self._reader_failed: Exception | None = None
        self._text_ahead: dict[int, Any] = {}   # page -> its pypdf text, read by a helper process

    def _reopen(self) -> None:
        self._doc.close()
        self._doc = open_fitz(self.data, self.name, checked=True)
        self._edits, self._edited = 0, set()

    def close(self) -> None:
        self._doc.close()

    def compute(self, index: int, layers: bool = True) -> PageForensics:
        """Page `index` (0-based); with `layers`, each extractor's text and the layer differences
        too. A page the PDF library cannot read is a `PdfError` naming the file and the page."""
        with broken_pdf_errors(self.name, index):
            return self._compute(index, layers)

    def _compute(self, index: int, layers: bool) -> PageForensics:
        t0 = time.perf_counter()
        if index in self._edited or self._edits >= REOPEN_AFTER_EDITS:
            self._reopen()
        why = too_complex(self._doc, index)
        if why:  # not loaded at all: loading such a page is itself the cost avoided
            return self._skipped(index, why, t0)
        page = self._doc[index]
        rect = page.rect
        info = PageInfo(index + 1, rect.width, rect.height, page.rotation)
        # The text layer is read before the analysis, which may remove the text from `doc`.
        mupdf_text = page.get_text("text") if layers else None
        analysis = analyze_fitz_page(self._doc, index, self.dpi, self.data, page)
        del page
        if analysis.edited:
            self._edits += 1
            self._edited.add(index)
        result = PageForensics(index, info, analysis, time.perf_counter() - t0)
        if layers:
            self.add_layers(result, mupdf_text)
        return result

    def _skipped(self, index: int, why: str, t0: float) -> PageForensics:
        """A page over a count of work: its size, no spans and no text in any layer."""
        analysis = skipped_page(self._doc, index, self.dpi, why)
        info = PageInfo(index + 1, analysis.width, analysis.height, page_rotation(self._doc, index))
        texts = dict.fromkeys(EXTRACTORS, "")
        return PageForensics(index, info, analysis, time.perf_counter() - t0, texts,
                             diff_page([], texts, index), too_complex=True)

    def add_layers(self, page: PageForensics, mupdf_text: str | None = None) -> None:
        """Each extractor's text of `page` and where the layers differ (`mupdf_text`: its pymupdf
        text, read already)."""
        if mupdf_text is None:
            if page.index in self._edited:  # its text was removed for the bare render
                self._reopen()
            mupdf_text = self._doc[page.index].get_text("text")
        try:
            pypdf_text = self._pypdf_text(page.index)
        except UserError as exc:
            pypdf_text, page.unread = "", {"pypdf": str(exc)}
        page.texts = {"pypdf": pypdf_text, "pymupdf": mupdf_text}
        page.diff = diff_page(page.analysis.spans, page.texts, page.index)

    def read_text_ahead(self, indices: list[int], helper: Any) -> None:
        """`PdfPages.read_text_ahead`."""
        for index in indices:
            if 0 <= index < self.page_count and index not in self._text_ahead:
                future = helper.submit(pypdf_page_text, self.data, index, self.name, self._xref(index))
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
            # One reader for the document: a page tree other than the usual one costs a walk of
            # the whole tree on the first page (about 1.5 s for 10,000 pages). What the reader
            # has parsed it keeps (fonts, pages: 2.4 MB a 1,000 pages), until PARSED_KEPT objects.
            if self._reader is not None and len(getattr(self._reader, "resolved_objects", ())) > PARSED_KEPT:
                self._reader.resolved_objects.clear()
            if self._reader is None:
                if self._reader_failed is not None:  # (a truncated file: not parsed again a page)
                    raise self._reader_failed
                try:
                    self._reader = PdfReader(io.BytesIO(self.data))
                except Exception as exc:
                    self._reader_failed = exc
                    raise
            return self._reader

        return read_pypdf_page(reader, index, self.name, self._xref(index))

    def _xref(self, index: int) -> int | None:
        """Page `index`'s object number, as MuPDF finds it (`textlayer.flat_tree_page`)."""
        try:
            return self._doc.page_xref(index) or None
        except Exception:  # (a page MuPDF cannot find: pypdf's own page list decides)
            return None


# Objects pypdf keeps parsed (its `resolved_objects`) before they are let go: a page takes two or
# three, so a 10,000-page document was read at a memory growing 2.4 MB a 1,000 pages.
PARSED_KEPT = 4096


# ---- streaming over pages, on one or more processes ---------------------------------------------

@dataclass
class _Worker:
    """A process's state while it streams pages: its open engine, and the collector's thresholds
    from before the stream (put back when it ends)."""

    engine: PageEngine | None = None
    gc: tuple[int, int, int] | None = None


_WORKER = _Worker()


def _open_in_worker(data: bytes, name: str, dpi: int) -> None:
    if _WORKER.engine is not None:
        _WORKER.engine.close()
    if _WORKER.gc is None:
        _WORKER.gc = gc.get_threshold()
    gc.set_threshold(collector.BATCH_THRESHOLD, *_WORKER.gc[1:])   # (a batch's: `core.collector`)
    # A worker reads each page once, in order: nothing to cache.
    _WORKER.engine = PageEngine(data, name, dpi, checked=False)


def _apply_in_worker(fn: Callable[[str, PageForensics], Any], layers: bool, index: int) -> tuple[Any, str]:
    engine = _WORKER.engine
    assert engine is not None, "map_pages opens the engine in every worker first"
    page = engine.compute(index, layers)
    return fn(engine.name, page), page.skipped


def map_pages(fn: Callable[[str, PageForensics], Any], data: bytes, pages: list[int], name: str = "PDF",
              dpi: int = 150, jobs: int | None = 1, *, layers: bool = False,
              chunksize: int = 16) -> Iterator[tuple[Any, str]]:
    """(`fn(name, page)`, skipped reason) of each page in `pages`, in order, on `jobs` processes,
    `chunksize` pages a task; `fn` is a module-level function (it is sent to the workers), e.g.
    the lint's `page_findings`. Pages are analysed without their text layers unless `layers`
    (`inspect` reports them). What every page needs is imported with this module, before the
    workers are forked: once, not once a worker."""
    try:
        yield from map_ordered(partial(_apply_in_worker, fn, layers), pages, jobs, chunksize=chunksize,
                               initializer=_open_in_worker, initargs=(data, name, dpi))
    finally:
        _close_worker()


def _close_worker() -> None:
    old, _WORKER.engine = _WORKER.engine, None
    if old is not None:
        old.close()
    if _WORKER.gc is not None:  # (when the pages were streamed in this process)
        gc.set_threshold(*_WORKER.gc)
        _WORKER.gc = None
