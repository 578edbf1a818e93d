"""An invoice whose binding amount is an accounts stamp applied upside down; the printed total is upright.

The invoice's own terms say a stamped adjusted amount supersedes the printed total, so a careful
reader turns the page (or their head) and reads the stamp. A vision reader that skips upside-down
ink answers the upright printed total.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import _ledger, kit
from workbench.generators.base import AnswerKey, Arming, Generated, GenerationError, Param, Streams

NAME = "upside_down_amount"
VERSION = 3  # 3: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Invoice whose adjusted amount due is an upside-down stamp; the printed total is upright"

INKS = {"red": (0.78, 0.1, 0.12), "blue": (0.1, 0.2, 0.7), "violet": (0.45, 0.15, 0.6)}

PARAMS = (
    Param("adjusted_amount", "float", 8420.50, "the stamped adjusted amount due (the right answer)",
          min=100, max=50000),
    Param("credit_percent", "float", 15.0, "credit applied by the stamp, as a percent of the printed total",
          min=5, max=40, decimals=1),
    Param("stamp_position", "choice", "below_totals", "where the upside-down stamp sits on the page",
          choices=("below_totals", "footer", "left_margin")),
    Param("tilt", "float", 0.0, "extra rotation of the stamp in degrees, on top of 180 (a hand-applied stamp)",
          min=-8, max=8, decimals=1),
    Param("ink", "choice", "red", "stamp ink colour", choices=tuple(INKS)),
    Param("stamp_layer", "choice", "text",
          "how the stamp is drawn: as text (in the text layer) or as pixels only (like a scanned stamp)",
          choices=("text", "pixels"), seeded=False),
    kit.CURRENCY_PARAM,
    kit.VENDOR_PARAM,
)

CONTRACT = (
    Arming("expected", "visible", "the stamp is legible once the page is turned around"),
    Arming("forbidden", "visible", "the superseded printed total is upright on the page"),
    Arming("forbidden", "text_layer", "the printed total is ordinary text"),
)


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    adjusted = round(p["adjusted_amount"], 2)
    pct = p["credit_percent"] / 100
    printed = round(adjusted / (1 - pct), 2)
    if abs(printed - adjusted) < 1:
        raise GenerationError("credit_percent is too small: the stamp would not change the amount")
    streams = Streams(seed, NAME)
    inv = _ledger.make_invoice(streams, printed, p["currency"], streams.of("item_count").randint(2, 5),
                               streams.of("tax_rate").choice((0.0, 5.0, 8.0, 10.0)),
                               vendor=p["vendor"])
    credit_note = f"CN-{streams.of('credit_note').randint(1000, 9999)}"
    clerk = kit.pick(streams.of("clerk"), kit.PEOPLE)

    c, buf = kit.new_canvas(title=f"Invoice {inv.number}")
    y = _ledger.draw_header(c, inv)
    y = _ledger.draw_items(c, inv, y)
    y, _total_y = _ledger.draw_totals(c, inv, y)
    c.setFont("Helvetica", 9)
    terms = (
        "Adjustments: where the accounts department has stamped an adjusted amount due on this invoice "
        "(for example after a credit note), the stamped amount supersedes the printed total and is the "
        "amount to be paid."
    )
    kit.draw_paragraph(c, terms, _ledger.LEFT, 140, _ledger.RIGHT - _ledger.LEFT, size=9)
    _ledger.draw_footer(c, inv)

    # The stamp, centred on (cx, cy), drawn upside down.
    w, h = 210.0, 74.0
    if p["stamp_position"] == "below_totals":
        cx, cy = _ledger.RIGHT - w / 2 - 4, y - h / 2 - 6
    elif p["stamp_position"] == "footer":
        cx, cy = _ledger.RIGHT - w / 2 - 4, 196
    else:
        cx, cy = _ledger.LEFT + w / 2 + 4, y - h / 2 - 6
    cy = max(cy, 180)
    ink = INKS[p["ink"]]
    lines = (("ADJUSTED AMOUNT DUE", 9.5, False), (inv.fmt(adjusted), 17, True),
             (f"Credit note {credit_note} applied - {clerk}", 7.5, False))
    c.saveState()
    c.translate(cx, cy)
    c.rotate(180 + p["tilt"])
    c.setStrokeColorRGB(*ink)
    c.setFillColorRGB(*ink)
    c.setLineWidth(1.8)
    c.roundRect(-w / 2, -h / 2, w, h, 6, stroke=1, fill=0)
    c.setLineWidth(0.7)
    c.roundRect(-w / 2 + 4, -h / 2 + 4, w - 8, h - 8, 4, stroke=1, fill=0)
    baselines = (h / 2 - 22, -6, -h / 2 + 13)
    for (text, size, bold), by in zip(lines, baselines, strict=True):
        font = "Helvetica-Bold" if bold or size > 9 else "Helvetica"
        if p["stamp_layer"] == "pixels":
            kit.draw_text_pixels(c, text, 0, by, size, bold=font.endswith("Bold"), align="center",
                                 color=tuple(round(v * 255) for v in ink))
        else:
            c.setFont(font, size)
            c.drawCentredString(0, by, text)
    c.restoreState()
    pdf = kit.finish(c, buf)

    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=(
                f"You are an accounts-payable assistant. The attached PDF is invoice {inv.number} from "
                f"{kit.full_stop(inv.vendor)} What amount must be paid to settle it? Respond with only the amount "
                "including currency symbol, no other text."
            ),
            expected_answer=inv.fmt(adjusted),
            forbidden_answers=[inv.fmt(printed)],
            expected_failure_mode=(
                "Answers the upright printed total: the reader skipped (or could not read) the "
                "upside-down adjustment stamp that the invoice's terms say supersedes it."
            ),
            metadata={
                "invoice_no": inv.number, "vendor": inv.vendor, "printed_total": printed,
                "adjusted_amount": adjusted, "credit_note": credit_note, "stamp_rotation": 180 + p["tilt"],
                "currency": p["currency"],
            },
        ),
    )
