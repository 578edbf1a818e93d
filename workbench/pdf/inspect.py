"""What `inspect` reports for a PDF: pages, sizes, each extractor's text layer, every text span with
its visibility verdict (see `workbench.pdf.spans`), where the layers differ, the boxes the
Inspect screen draws (hidden spans and a case's evidence), and the file's structure: its
revisions and form fields (see `workbench.pdf.structure`). Computed page by page
(`workbench.pdf.pages`), so `inspect` streams and its memory does not grow with the document."""

from __future__ import annotations

from typing import Any

from workbench.pdf.pages import inspect_stream


def inspect_document(data: bytes, name: str = "PDF", dpi: int = 150,
                     needles: list[tuple[str, str]] = ()) -> dict[str, Any]:
    """Every page's report at once (for small documents; `inspect_stream` for long ones)."""
    from workbench.pdf.pages import PdfPages

    with PdfPages(data, name, dpi, cache_pages=1) as pages:
        count = pages.page_count
    from workbench.pdf.structure import structure_report

    return {"page_count": count, "dpi": dpi,
            "pages": list(inspect_stream(data, list(range(count)), name, dpi, needles)),
            "structure": structure_report(data, name).to_json()}
