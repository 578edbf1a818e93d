"""Searching a PDF for a needle (an expected or forbidden answer, a gold value), the way the grader
matches (`workbench.checks.evidence`): every place it is drawn or hidden on the pages, and the
text layers that hold it.

API:

- `find_evidence(data, needle, dpi=150, find=None) -> list[Hit]`: every place the needle is drawn
  or hidden (each page analysed by `workbench.pdf.visibility`, cached).
- `find_evidence_of(data, needles, dpi=150, find=None) -> dict[str, list[Hit]]`: the same for
  many needles, page by page (each page's text is read once for all of them).
- `find_in_layers(data, needle, find=None) -> dict[str, list[int]]`: for each extractor (pypdf,
  pymupdf), the pages (0-based) whose extracted text holds the needle; `find_in_layers_of` for
  many needles.
"""

from __future__ import annotations

from workbench.checks.evidence import Finder, Hit, evidence_on_page, find_in_texts_of
from workbench.pdf.visibility import analyze_document
from workbench.text.search import find_all


def find_evidence(data: bytes, needle: str, dpi: int = 150, name: str = "PDF",
                  find: Finder | None = None) -> list[Hit]:
    """Every place `needle` is on the pages, visible or hidden (see the module docstring)."""
    return find_evidence_of(data, [needle], dpi, name, find)[needle]


def find_evidence_of(data: bytes, needles: list[str], dpi: int = 150, name: str = "PDF",
                     find: Finder | None = None) -> dict[str, list[Hit]]:
    """`find_evidence` of each needle, the pages in the outer loop: the amounts a page's text
    holds are read once for all the needles (`money.find_money` keeps the last texts it read;
    needle by needle over a long document, each page's were read again for each needle: `grade
    --explain` of a 300-page PDF's text, 55 values, took 35 s)."""
    out: dict[str, list[Hit]] = {needle: [] for needle in needles}
    wanted = [needle for needle in out if needle and needle.strip()]
    if not wanted:
        return out
    find = find or find_all
    for pa in analyze_document(data, dpi, name).pages:
        for needle in wanted:
            out[needle].extend(evidence_on_page(pa, needle, find))
    return out


def find_in_layers(data: bytes, needle: str, name: str = "PDF",
                   find: Finder | None = None) -> dict[str, list[int]]:
    """For each extractor, the pages (0-based) whose text layer holds `needle` (read as written)."""
    return find_in_layers_of(data, [needle], name, find)[needle]


def find_in_layers_of(data: bytes, needles: list[str], name: str = "PDF",
                      find: Finder | None = None) -> dict[str, dict[str, list[int]]]:
    """`find_in_layers` of each needle, each page's text read once for all of them."""
    # The text layers' module loads pypdf (with Pillow and its crypto: about a third of `grade
    # --explain`'s start): attribution reads a layer only for a value found on no page, drawn or hidden.
    from workbench.pdf.textlayer import page_texts

    return find_in_texts_of(page_texts(data, name), needles, find)
