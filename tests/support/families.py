"""The trap families' tests' helpers (tests/generators): a family's case made with some parameters
pinned, and its PDF read back (page texts, word boxes, spans with their characters)."""

from __future__ import annotations

from workbench.generators.base import Family
from workbench.generators.registry import registry
from workbench.pdf.textlayer import text_pymupdf

SEEDS = range(1, 6)


def fam(name: str) -> Family:
    return registry().get(name)


def make(name: str, seed: int, **pinned):
    f = fam(name)
    params = f.resolve(pinned, seed)
    return params, f.generate(params, seed)


def page_texts(pdf: bytes) -> list[str]:
    return [" ".join(t.split()) for t in text_pymupdf(pdf)]


def words_at(pdf: bytes, page: int, text: str) -> list[tuple[float, float, float, float]]:
    """Boxes (x0, y0, x1, y1, top-left origin) of every occurrence of `text` on `page`."""
    import pymupdf

    doc = pymupdf.open(stream=pdf, filetype="pdf")
    try:
        return [tuple(r) for r in doc[page].search_for(text)]
    finally:
        doc.close()


def open_pdf(pdf: bytes):
    import pymupdf

    return pymupdf.open(stream=pdf, filetype="pdf")


def spans(pdf: bytes):
    """(text, span, line direction) of every span on the first page, as pymupdf's rawdict has them."""
    doc = open_pdf(pdf)
    out = []
    for block in doc[0].get_text("rawdict")["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                text = "".join(ch["c"] for ch in span["chars"])
                out.append((text, span, line["dir"]))
    return out


def find_span(pdf: bytes, needle: str):
    for text, span, direction in spans(pdf):
        if needle in text:
            return span, direction
    raise AssertionError(f"no span holds {needle!r}")


def lint_errors(case, pdf: bytes) -> list[str]:
    """The lint's errors on a case's PDF, each as `code: message`."""
    from workbench.checks.lint import lint_case

    return [f"{f.code}: {f.message}" for f in lint_case(case, pdf) if f.severity == "error"]


def found_in(amount: str, text: str) -> bool:
    """Whether an amount is in a text as the evidence search finds it."""
    from workbench.text.search import find_all

    return bool(find_all(text, amount))


def mad(a, b) -> float:
    """Mean absolute difference of two pages in grey levels."""
    import numpy as np

    a = np.asarray(a, dtype=np.float32).mean(axis=2)
    b = np.asarray(b, dtype=np.float32).mean(axis=2)
    return float(np.abs(a - b).mean())
