"""An invoice whose visible total differs from an invisible text-layer total at the same spot.

The printed total is what a person (and a vision model) reads; a text pipeline reads the hidden
layer, as it would on a scanned invoice whose OCR layer went wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generators import kit
from generators.base import AnswerKey, Arming, Disarm, Generated, Param, rng_for

NAME = "hidden_ocr_mismatch"
VERSION = 4
DESCRIPTION = "Invoice whose printed total differs from an invisible text-layer total at the same spot"

CURRENCIES = kit.CURRENCY_SYMBOLS

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
    code = p["currency"]
    sym = kit.money(0, CURRENCIES[code])[0]

    def fmt(v: float) -> str:
        return kit.money(v, sym)

    rng = rng_for(seed, NAME, "content")
    size = p["font_size"]
    rate = p["tax_rate"] / 100
    subtotal = round(visible / (1 + rate), 2)
    tax = round(visible - subtotal, 2)
    amounts = kit.split_total(rng, subtotal, p["line_items"])
    items = rng.sample(kit.ITEMS, len(amounts))
    customer = kit.pick(rng, kit.CUSTOMERS)
    inv_no = f"INV-{p['invoice_number']}"
    day, month = rng.randint(1, 28), rng.choice(["January", "February", "March", "April", "May", "June",
                                                 "July", "August", "September", "October", "November"])
    issued = f"{day} {month} 2025"

    c, buf = kit.new_canvas(title=f"Invoice {inv_no}")
    width, height = kit.LETTER
    left, right = 54, width - 54
    y = height - 64
    c.setFont("Helvetica-Bold", 18)
    c.drawString(left, y, p["vendor"])
    c.setFont("Helvetica", size - 1)
    street = f"{rng.randint(2, 480)} {kit.pick(rng, kit.STREETS)}"
    city = kit.pick(rng, kit.CITIES)
    c.drawString(left, y - 16, street)
    c.drawString(left, y - 16 - size * 1.3, city)
    c.setFont("Helvetica-Bold", 22)
    c.drawRightString(right, y, "INVOICE")
    c.setFont("Helvetica", size)
    c.drawRightString(right, y - 18, f"Invoice No.: {inv_no}")
    c.drawRightString(right, y - 18 - size * 1.4, f"Date: {issued}")
    c.drawRightString(right, y - 18 - size * 2.8, "Terms: Net 30")
    y -= 90
    c.setFont("Helvetica-Bold", size)
    c.drawString(left, y, "Bill to:")
    c.setFont("Helvetica", size)
    c.drawString(left + 50, y, customer)
    y -= 34

    # Line items
    cols = (left, right - 230, right - 140, right)
    c.setFillGray(0.92)
    c.rect(left - 4, y - 6, right - left + 8, size + 10, stroke=0, fill=1)
    c.setFillGray(0)
    c.setFont("Helvetica-Bold", size)
    c.drawString(cols[0], y, "Description")
    c.drawRightString(cols[1] + 30, y, "Qty")
    c.drawRightString(cols[2] + 40, y, "Unit price")
    c.drawRightString(cols[3], y, "Amount")
    y -= size * 2
    c.setFont("Helvetica", size)
    for name, amount in zip(items, amounts, strict=True):
        qty = 1
        c.drawString(cols[0], y, name)
        c.drawRightString(cols[1] + 30, y, str(qty))
        c.drawRightString(cols[2] + 40, y, fmt(amount))
        c.drawRightString(cols[3], y, fmt(amount))
        y -= size * 1.8
    c.setLineWidth(0.6)
    c.line(right - 230, y + size * 0.6, right, y + size * 0.6)
    y -= size * 0.8
    c.drawRightString(right - 110, y, "Subtotal")
    c.drawRightString(right, y, fmt(subtotal))
    y -= size * 1.6
    c.drawRightString(right - 110, y, f"Sales tax ({p['tax_rate']:g}%)")
    c.drawRightString(right, y, fmt(tax))
    y -= size * 2.2
    total_size = size + 3
    c.setFont("Helvetica-Bold", total_size)
    c.drawRightString(right - 110, y, "TOTAL DUE")

    # The hidden total goes down first, so the printed total lies over it, as a scan's image lies
    # over its OCR layer: white text then never paints over the printed digits.
    if p["hidden_position"] == "on_total":
        pixels_w = kit.text_width(fmt(visible), "Helvetica-Bold", total_size)
        hx, hy = right - pixels_w, y
    elif p["hidden_position"] == "margin":
        hx, hy = left, 40
    else:
        hx, hy = right - 150, height - 30
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
        kit.draw_text_pixels(c, fmt(visible), right, y, total_size, bold=True, align="right")
    else:
        c.drawRightString(right, y, fmt(visible))

    c.setFillGray(0)
    c.setFont("Helvetica", size - 1)
    c.drawString(left, 96, f"Please quote {inv_no} with your payment. Payment due within 30 days of the invoice date.")
    c.drawString(left, 96 - size * 1.4, f"Thank you for your business. {p['vendor']} - {city}")
    pdf = kit.finish(c, buf)

    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=kit.total_due_question(inv_no, p['vendor']),
            expected_answer=fmt(visible),
            forbidden_answers=[fmt(hidden)],
            expected_failure_mode=(
                "Answers the hidden text-layer total instead of the printed one: the reader trusted a "
                "text-extraction layer over the rendered page."
            ),
            matcher={"type": "contains"},
            metadata={
                "vendor": p["vendor"], "invoice_no": inv_no, "visible_amount": visible,
                "hidden_amount": hidden, "currency": code,
            },
        ),
    )
