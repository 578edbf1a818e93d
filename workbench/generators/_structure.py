"""What the six structural families share: an invoice page whose TOTAL DUE the trap contests, and
a deterministic way to let pymupdf write PDF structure that reportlab cannot (layers, form
fields, annotations, font maps).

Private (the registry skips modules whose name starts with "_"). The page is drawn by reportlab
(`invariant`, so no clock and no random id); pymupdf edits it and writes it back without a new
document id, so the same inputs give the same bytes in every process.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from workbench.generators import _ledger, kit
from workbench.generators.base import AnswerKey, Arming, Disarm, Param, Streams

TOTAL_PARAM = Param("visible_total", "float", 4812.07, "the TOTAL DUE a person sees (the right answer)",
                    min=100, max=50000)
CHANGE_PARAM = Param("change_percent", "float", 18.0,
                     "the competing total relative to the visible one, in percent (negative: lower)",
                     min=-60, max=60, decimals=1)


def invoice_params(*own: Param, change: Param | None = CHANGE_PARAM) -> tuple[Param, ...]:
    """A structural family's parameters: the totals, its own, then currency and vendor."""
    return (TOTAL_PARAM, *((change,) if change is not None else ()), *own, kit.CURRENCY_PARAM, kit.VENDOR_PARAM)


# The printed total as ordinary page text, where the mechanism leaves it alone.
PRINTED_TOTAL = (
    Arming("expected", "visible", "the printed total is drawn"),
    Arming("expected", "text_layer", "the printed total is ordinary text"),
)


def scan_disarms(why: str) -> tuple[Disarm, ...]:
    """The setting that removes a structural trap (the lint must say so): a mild scan without a
    text layer keeps the page's pixels and nothing of its structure."""
    return (Disarm(why, degrade={"tier": "mild", "text_layer": "none"}),)


@dataclass
class InvoicePage:
    """The drawn invoice and where its total sits (PDF points, bottom-left origin)."""

    inv: _ledger.Invoice
    competing: float            # the amount the mechanism makes a pipeline read
    total_y: float              # baseline of the TOTAL DUE row
    below_totals: float         # a free baseline under the totals block


def amounts(p: Mapping[str, Any]) -> tuple[float, float]:
    """(visible total, competing total), kept apart by more than rounding."""
    visible = round(float(p["visible_total"]), 2)
    change = float(p["change_percent"])
    if abs(change) < 2:
        change = 2.0 if change >= 0 else -2.0
    return visible, round(visible * (1 + change / 100), 2)


def draw_invoice(c: Canvas, p: Mapping[str, Any], seed: int, family: str, *, draw_total: bool = True,
                 total: float | None = None, total_label: str = "TOTAL DUE",
                 tax_rates: tuple[float, ...] = (0.0, 5.0, 8.0, 10.0),
                 identity: _ledger.Invoice | None = None) -> InvoicePage:
    """Letterhead, items and totals (line items add up to `total`, by default the visible one).
    A tax rate of 0 prints the subtotal equal to the total: leave it out where that matters.
    `identity` keeps another invoice's vendor, customer, number and date (a corrected copy)."""
    visible, competing = amounts(p)
    streams = Streams(seed, family)
    inv = _ledger.make_invoice(streams, visible if total is None else total, p["currency"],
                               streams.of("item_count").randint(2, 5), streams.of("tax_rate").choice(tax_rates),
                               vendor=p["vendor"])
    if identity is not None:
        inv = replace(inv, vendor=identity.vendor, customer=identity.customer, number=identity.number,
                      issued=identity.issued, street=identity.street, city=identity.city,
                      tax_rate=identity.tax_rate,
                      items=[(name, amount) for (name, _), (_, amount) in zip(identity.items, inv.items, strict=True)])
    y = _ledger.draw_header(c, inv)
    y = _ledger.draw_items(c, inv, y)
    below, total_y = _ledger.draw_totals(c, inv, y, total_label=total_label, draw_total=draw_total)
    _ledger.draw_footer(c, inv)
    return InvoicePage(inv, competing, total_y, below - 6)


def new_invoice(p: Mapping[str, Any], seed: int, family: str, **draw: Any) -> tuple[Canvas, io.BytesIO, InvoicePage]:
    """A canvas with the invoice drawn on it (`draw`: `draw_invoice`'s options), for the trap to
    go on; `kit.finish(canvas, buffer)` gives the page's bytes."""
    c, buf = kit.new_canvas(title="Invoice")
    return c, buf, draw_invoice(c, p, seed, family, **draw)


def total_key(inv: _ledger.Invoice, expected: str, forbidden: str, failure: str, **metadata: Any) -> AnswerKey:
    """The key of a TOTAL DUE question on `inv`: the total a person sees, the one the mechanism
    makes a pipeline read, and the invoice's number and vendor before the family's `metadata`."""
    return AnswerKey(
        question=kit.total_due_question(inv.number, inv.vendor),
        expected_answer=expected,
        forbidden_answers=[forbidden],
        expected_failure_mode=failure,
        metadata={"invoice_no": inv.number, "vendor": inv.vendor, **metadata},
    )


def total_width(inv: _ledger.Invoice, amount: float, size: float = 13) -> float:
    return kit.text_width(inv.fmt(amount), "Helvetica-Bold", size)


def edit_with_pymupdf(pdf: bytes, edit: Callable[[Any, Any], None]) -> bytes:
    """`pdf` edited by `edit(document, pymupdf)` and written back deterministically (no new /ID).

    pymupdf is imported here and handed to `edit`, so a family module imports no PDF library: the
    registry imports every family to list them, and listing the families loads none."""
    import pymupdf

    doc = pymupdf.open(stream=pdf, filetype="pdf")
    try:
        edit(doc, pymupdf)
        return doc.tobytes(deflate=True, no_new_id=True)
    finally:
        doc.close()


def pdf_string(text: str) -> str:
    """`text` as a PDF string literal: plain when it is printable ASCII, else UTF-16BE hex."""
    if all(32 <= ord(ch) < 127 for ch in text):
        return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"
    return "<FEFF" + text.encode("utf-16-be").hex().upper() + ">"
