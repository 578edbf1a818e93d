"""Everything the Inspect screen shows for one case, gathered in a worker thread."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from workbench.core.case import Case
from workbench.tui.widgets.page_view import Box

EXTRACTORS = ("pypdf", "pymupdf")


@dataclass
class CaseData:
    case: Case
    pdf: bytes
    page_count: int
    layers: dict[str, list[str]]
    hidden_texts: list[list[str]] = field(default_factory=list)   # per page: hidden span texts
    boxes: list[Box] = field(default_factory=list)
    findings: list[Any] = field(default_factory=list)             # lint findings


def evidence_needles(case: Case) -> list[tuple[str, str]]:
    """(kind, text) pairs to find on the page: the expected answer or tokens, and the forbidden ones."""
    needles: list[tuple[str, str]] = []
    if case.expected_tokens:
        needles += [("expected", t) for t in case.expected_tokens]
    elif case.expected_answer:
        needles.append(("expected", case.expected_answer))
    needles += [("forbidden", f) for f in case.forbidden_answers if f]
    return needles


def load_case_data(case: Case, dpi: int) -> CaseData:
    from workbench.pdf.document import read_pdf_bytes

    return case_data_from_bytes(case, read_pdf_bytes(case.pdf_file), dpi, case.pdf_file.name)


def case_data_from_bytes(case: Case, pdf: bytes, dpi: int, name: str | None = None,
                         lint: bool = True) -> CaseData:
    """Everything shown for a case whose PDF is in memory (a file's, or an authoring preview's)."""
    from workbench.pdf.document import check_page_budget, open_fitz
    from workbench.pdf.textlayer import extract

    with open_fitz(pdf, name or f"{case.id}.pdf") as doc:
        check_page_budget(doc.page_count, name or f"{case.id}.pdf")  # before minutes of extraction
    layers = {n: extract(pdf, n, name or f"{case.id}.pdf") for n in EXTRACTORS}
    data = CaseData(case, pdf, len(layers["pymupdf"]), layers)
    # The PDF already opened above, so what follows raises only on a bug; a bug is reported by the
    # worker that called this (a notification), never hidden as a "problem".
    from workbench.pdf.evidence import find_evidence
    from workbench.pdf.spans import analyze_document

    for pa in analyze_document(pdf, dpi=dpi).pages:
        hidden = [s for s in pa.hidden if s.text.strip()]
        data.hidden_texts.append([s.text for s in hidden])
        data.boxes += [Box(pa.page, tuple(s.bbox), "hidden", s.text) for s in hidden]
    for kind, needle in evidence_needles(case):
        for hit in find_evidence(pdf, needle, dpi=dpi):
            data.boxes += [Box(hit.page, tuple(rect), kind, needle) for rect in hit.boxes]
    if lint and case.question:
        from workbench.pdf.lint import lint_case

        data.findings = lint_case(case, pdf)
    return data
