"""An invoice whose visible total differs from an invisible text-layer total at the same spot.

The printed total is what a person (and a vision model) reads; a text pipeline reads the hidden
layer, as it would on a scanned invoice whose OCR layer went wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import _ledger, kit
from workbench.generators.base import AnswerKey, Arming, Disarm, Generated, Param, Streams

NAME = "hidden_ocr_mismatch"
VERSION = 6  # 6: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Invoice whose printed total differs from an invisible text-layer total at the same spot"

PARAMS = (
    Param("visible_total", "float", 12345.67, "the printed TOTAL DUE (the right answer)", min=100, max=99999.99),
    Param("hidden_change_pct", "float", 81.0,
          "how far the hidden total is from the printed one, in percent", min=5, max=400, decimals=1),
    Param("hidden_direction", "choice", "higher", "whether the hidden total is higher or lower",
          choices=("higher", "lower")),
    kit.VENDOR_PARAM,
    Param("invoice_number", "int", 250785, "invoice number, printed as INV-NNNNNN", min=100000, max=999999),
    Param("line_items", "int", 4, "number of line items (they add up to the subtotal)", min=1, max=8),
    Param("tax_rate", "float", 8.0, "sales tax in percent", min=0, max=25, decimals=1),
    kit.CURRENCY_PARAM,
    Param("font_size", "float", 10.0, "body font size in points", min=8, max=13, seeded=False, decimals=1),
    Param("hidden_position", "choice", "on_total",
          "where the hidden total sits: over the printed total, in the page margin, or in the header",
          choices=("on_total", "margin", "header"), seeded=False),
    Param("hidden_style", "choice", "invisible",
          "how the hidden total is hidden: render mode 3 (invisible) or white fill",
          choices=("invisible", "white")),
    Param("visible_total_layer", "choice", "pixels",
          "how the printed total is drawn: as pixels only (a scan-like image, no text) or as text too",
          choices=("pixels", "text"), seeded=False),
)

CONTRACT = (
    Arming("expected", "visible", "the printed total is on the page"),
    Arming("forbidden", "hidden", "the wrong total is only in the text layer"),
    Arming("forbidden", "not_visible", "the wrong total never shows on the page"),
)

DISARMED = (
    Disarm("a scan without a text layer drops the hidden total: nothing is left to fall for",
           degrade={"tier": "heavy", "text_layer": "none"}),
)


def contract_for(p: Mapping[str, Any]) -> tuple[Arming, ...]:
    """Printed as pixels (the default, like a scan), the total is in no text layer at all."""
    if p["visible_total_layer"] == "pixels":
        return (Arming("expected", "pixels_only", "the printed total is an image, as on a scan"),
                *CONTRACT[1:])
    return CONTRACT


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    visible = round(p["visible_total"], 2)
    # A ratio, not a difference: the hidden total is always positive and always differs.
    factor = 1 + p["hidden_change_pct"] / 100
    hidden = round(visible * factor if p["hidden_direction"] == "higher" else visible / factor, 2)
    size = p["font_size"]
    inv = _ledger.make_invoice(Streams(seed, NAME), visible, p["currency"], p["line_items"], p["tax_rate"],
                               vendor=p["vendor"], number=f"INV-{p['invoice_number']}")
    fmt = inv.fmt

    c, buf = kit.new_canvas(title=f"Invoice {inv.number}")
    y = _ledger.draw_header(c, inv, size=size)
    y = _ledger.draw_items(c, inv, y, size=size)
    _, y = _ledger.draw_totals(c, inv, y, size=size, draw_total=False)
    total_size = size + 3

    # The hidden total goes down first, so the printed total lies over it, as a scan's image lies
    # over its OCR layer: white text then never paints over the printed digits.
    if p["hidden_position"] == "on_total":
        hx, hy = _ledger.RIGHT - kit.text_width(fmt(visible), "Helvetica-Bold", total_size), y
    elif p["hidden_position"] == "margin":
        hx, hy = _ledger.LEFT, 40
    else:
        hx, hy = _ledger.RIGHT - 150, kit.LETTER[1] - 30
    t = c.beginText(hx, hy)
    t.setFont("Helvetica-Bold", total_size)
    if p["hidden_style"] == "invisible":
        t.setTextRenderMode(3)
    else:
        t.setFillColorRGB(1, 1, 1)
    t.textOut(fmt(hidden))
    c.saveState()
    c.drawText(t)
    c.restoreState()

    if p["visible_total_layer"] == "pixels":
        kit.draw_text_pixels(c, fmt(visible), _ledger.RIGHT, y, total_size, bold=True, align="right")
    else:
        c.drawRightString(_ledger.RIGHT, y, fmt(visible))
    _ledger.draw_footer(c, inv, size, note=f"Please quote {inv.number} with your payment. Payment due "
                                           "within 30 days of the invoice date.")
    pdf = kit.finish(c, buf)

    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=kit.total_due_question(inv.number, inv.vendor),
            expected_answer=fmt(visible),
            forbidden_answers=[fmt(hidden)],
            expected_failure_mode=(
                "Answers the hidden text-layer total instead of the printed one: the reader trusted a "
                "text-extraction layer over the rendered page."
            ),
            matcher={"type": "contains"},
            metadata={
                "vendor": inv.vendor, "invoice_no": inv.number, "visible_amount": visible,
                "hidden_amount": hidden, "currency": p["currency"],
            },
        ),
    )
