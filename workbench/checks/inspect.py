"""What `inspect` reports for a PDF: pages, sizes, each extractor's text layer, every text span with
its visibility verdict (see `workbench.pdf.spans`), where the layers differ, the boxes the
Inspect screen draws (hidden spans and a case's evidence), and the file's structure: its
revisions and form fields (see `workbench.pdf.structure`). Computed page by page
(`workbench.pdf.pages`), so `inspect` streams and its memory does not grow with the document.

API:

- `page_report(page, needles)`: one page of `inspect --json` (its boxes are
  `workbench.checks.evidence.page_boxes`, the ones the Inspect screen draws).
- `inspect_stream(...)`: `page_report` of every selected page, in order, on `jobs` processes.
- `inspect_document(...)`: every page's report and the structure at once (small documents).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from workbench.checks.evidence import page_boxes
from workbench.core.schema import JSONObject
from workbench.pdf.forensics import map_pages
from workbench.pdf.pagedata import EXTRACTORS, PageForensics
from workbench.pdf.pages import PdfPages, unread_lines
from workbench.pdf.structure import structure_report


def page_report(page: PageForensics, needles: list[tuple[str, str]] = ()) -> JSONObject:
    """One page of `inspect --json`."""
    spans = page.analysis.spans
    diff = page.diff.to_json()
    diff.pop("page_number", None)
    diff.pop("hidden", None)  # the spans carry it
    report: JSONObject = {
        "number": page.info.number,
        "width_pt": round(page.info.width_pt, 2),
        "height_pt": round(page.info.height_pt, 2),
        "rotation": page.info.rotation,
        "text": {k: page.texts.get(k, "") for k in EXTRACTORS},
        "spans": [s.to_json() for s in spans],
        "hidden_spans": sum(not s.visible for s in spans),
        "layers": diff,
        "boxes": [b.to_json() for b in page_boxes(page, needles)],
    }
    if page.skipped:
        report["skipped"] = page.skipped
    if page.unread:
        report["unread"] = dict(page.unread)
    return report


def _report(encode: Callable[[JSONObject], Any] | None, needles: tuple[tuple[str, str], ...],
            _name: str, page: PageForensics) -> tuple[Any, list[str]]:
    """A page's report (or its encoding) and its `unread_lines`, in the worker that analysed it."""
    report = page_report(page, list(needles))
    return (report if encode is None else encode(report)), unread_lines(page)


def inspect_stream(data: bytes, pages: list[int], name: str = "PDF", dpi: int = 150,
                   needles: list[tuple[str, str]] = (), jobs: int | None = 1,
                   encode: Callable[[JSONObject], Any] | None = None,
                   warn: Callable[[str], None] | None = None) -> Iterator[Any]:
    """`page_report` of each page in `pages`, in order, computed on `jobs` processes; with
    `encode` (a module-level function), `encode(report)` instead, computed where the page was:
    `inspect --json` has each page's JSON text made in the worker, which is cheaper to send back
    than the report itself and leaves this process only the writing. `warn` is given each
    `unread_lines` line here, as its page is handed out."""
    work = partial(_report, encode, tuple(needles))
    for (report, lines), _skipped in map_pages(work, data, pages, name, dpi, jobs, layers=True, chunksize=4):
        if warn is not None:
            for line in lines:
                warn(line)
        yield report


def inspect_document(data: bytes, name: str = "PDF", dpi: int = 150,
                     needles: list[tuple[str, str]] = ()) -> JSONObject:
    """Every page's report at once (for small documents; `inspect_stream` for long ones)."""
    with PdfPages(data, name, dpi, cache_pages=1) as pages:
        count = pages.page_count
    return {"page_count": count, "dpi": dpi,
            "pages": list(inspect_stream(data, list(range(count)), name, dpi, needles)),
            "structure": structure_report(data, name).to_json()}
