"""Searching a PDF for a needle (an expected or forbidden answer, a gold value), the way the grader
matches (`workbench.checks.evidence`): every place it is drawn or hidden on the pages, and the
text layers that hold it.

API:

- `find_evidence(data, needle, dpi=150, find=None) -> list[Hit]`: every place the needle is drawn
  or hidden (each page analysed by `workbench.pdf.visibility`, cached).
- `find_in_layers(data, needle, find=None) -> dict[str, list[int]]`: for each extractor (pypdf,
  pymupdf), the pages (0-based) whose extracted text holds the needle.
"""

from __future__ import annotations

from workbench.checks.evidence import Finder, Hit, evidence_on_page, find_in_texts
from workbench.pdf.visibility import analyze_document
from workbench.text.search import find_all


def find_evidence(data: bytes, needle: str, dpi: int = 150, name: str = "PDF",
                  find: Finder | None = None) -> list[Hit]:
    """Every place `needle` is on the pages, visible or hidden (see the module docstring)."""
    if not needle or not needle.strip():
        return []
    find = find or find_all
    hits: list[Hit] = []
    for pa in analyze_document(data, dpi, name).pages:
        hits.extend(evidence_on_page(pa, needle, find))
    return hits


def find_in_layers(data: bytes, needle: str, name: str = "PDF",
                   find: Finder | None = None) -> dict[str, list[int]]:
    """For each extractor, the pages (0-based) whose text layer holds `needle` (read as written)."""
    # The text layers' module loads pypdf (with Pillow and its crypto: about a third of `grade
    # --explain`'s start): attribution reads a layer only for a value found on no page, drawn or hidden.
    from workbench.pdf.textlayer import page_texts

    return find_in_texts(page_texts(data, name), needle, find)
