"""A one-line invoice and its hand-written answer key: the lint's tests' smallest case (the total
printed, a decoy in invisible text), with the codes of the findings it gets."""

from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from workbench.core.case import Case
from workbench.core.contract import parse_contract


def invoice_pdf(total: str, hidden: str, total_mode: int = 0) -> bytes:
    """A one-line invoice: the total in render mode `total_mode`, and an invisible decoy."""
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1)
    c.setFont("Helvetica", 12)
    c.drawString(72, 700, "INVOICE 42")
    t = c.beginText(72, 660)
    t.setFont("Helvetica", 12)
    t.textOut("TOTAL DUE ")
    t.setTextRenderMode(total_mode)
    t.textOut(total)
    t.setTextRenderMode(3)
    t.textOut("   " + hidden)
    t.setTextRenderMode(0)
    c.drawText(t)
    c.save()
    return buf.getvalue()


def handmade_case(cid: str = "inv-1", expected: str = "$4,711.00", forbidden=("$9,999.00",),
                  question: str = "What is the total due?", **kw) -> Case:
    return Case(id=cid, trap_family="handmade", seed=1, question=question,
                expected_answer=expected, forbidden_answers=list(forbidden),
                **{k: parse_contract(v) if k == "contract" else v for k, v in kw.items()})


def codes(findings, severity=None):
    return sorted(f.code for f in findings if severity is None or f.severity == severity)
