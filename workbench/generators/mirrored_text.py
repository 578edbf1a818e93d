"""A payment authorisation form whose approved amount is a mirrored stamp; the requested amount is upright.

The form says the approved amount is what gets released. On this copy the approval stamp shows
through from the reverse of the sheet, so it reads mirrored: a careful reader reads it in the mirror
(it is short and the digits are unambiguous); a reader that skips reversed ink answers the large
upright requested amount.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import _ledger, kit
from workbench.generators.base import AnswerKey, Arming, Generated, GenerationError, Param, Streams

NAME = "mirrored_text"
VERSION = 3  # 3: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Payment authorisation whose approved amount is a mirrored stamp; the requested amount is upright"

INKS = {"red": (0.78, 0.1, 0.12), "blue": (0.1, 0.2, 0.7), "green": (0.05, 0.45, 0.2)}

PARAMS = (
    Param("approved_amount", "float", 6180.00, "the amount on the mirrored approval stamp (the right answer)",
          min=100, max=50000),
    Param("reduction_percent", "float", 20.0, "how far the approval cut the requested amount, in percent",
          min=5, max=50, decimals=1),
    Param("mirror", "choice", "left_right",
          "how the stamp is mirrored: left-right (text reads right to left) or top-bottom (letters upside down, order kept)",
          choices=("left_right", "top_bottom")),
    Param("ink", "choice", "blue", "stamp ink colour", choices=tuple(INKS)),
    Param("requested_size", "float", 20.0, "font size of the upright requested amount (the decoy)",
          min=12, max=28, decimals=0),
    Param("stamp_layer", "choice", "text",
          "how the stamp is drawn: as text (in the text layer) or as pixels only (like a scanned stamp)",
          choices=("text", "pixels"), seeded=False),
    kit.CURRENCY_PARAM,
)

CONTRACT = (
    Arming("expected", "visible", "the stamp is legible in a mirror, and short"),
    Arming("forbidden", "visible", "the requested amount is large and upright"),
    Arming("forbidden", "text_layer", "the requested amount is ordinary text"),
)

DEPARTMENTS = ("Facilities", "IT Operations", "Marketing", "Research & Development", "Logistics", "Finance")


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    approved = round(p["approved_amount"], 2)
    requested = round(approved / (1 - p["reduction_percent"] / 100), 2)
    if abs(requested - approved) < 1:
        raise GenerationError("reduction_percent is too small: the approval would not change the amount")
    streams = Streams(seed, NAME)
    sym = _ledger.CURRENCIES[p["currency"]]

    def fmt(v: float) -> str:
        return kit.money(v, sym)

    org = kit.pick(streams.of("organisation"), kit.CUSTOMERS)
    payee = kit.pick(streams.of("payee"), kit.VENDORS)
    form_no = f"PA-{streams.of('form_no').randint(10000, 99999)}"
    invoice_ref = f"INV-{streams.of('invoice_ref').randint(100000, 999999)}"
    dept = kit.pick(streams.of("department"), DEPARTMENTS)
    people = streams.of("people").sample(kit.PEOPLE, 2)
    code, date = streams.of("budget_code"), streams.of("date")
    budget = f"{code.randint(100, 999)}-{code.randint(1000, 9999)}"
    day = f"{date.randint(1, 28)} {date.choice(_ledger.MONTHS)} 2025"

    c, buf = kit.new_canvas(title=f"Payment authorisation {form_no}")
    L, R = _ledger.LEFT, _ledger.RIGHT
    y = _ledger.TOP
    c.setFont("Helvetica-Bold", 16)
    c.drawString(L, y, org)
    c.setFont("Helvetica-Bold", 13)
    c.drawRightString(R, y, "PAYMENT AUTHORISATION")
    c.setFont("Helvetica", 10)
    c.drawRightString(R, y - 16, f"Form {form_no}")
    c.drawRightString(R, y - 30, f"Raised: {day}")
    y -= 70
    c.setLineWidth(0.8)
    fields = (("Payee", payee), ("Supplier invoice", invoice_ref), ("Department", dept),
              ("Budget code", budget), ("Requested by", people[0]))
    for label, value in fields:
        c.setFont("Helvetica-Bold", 10)
        c.drawString(L, y, label)
        c.setFont("Helvetica", 10)
        c.drawString(L + 130, y, value)
        c.setStrokeGray(0.75)
        c.line(L + 126, y - 4, R, y - 4)
        y -= 24
    y -= 10
    c.setStrokeGray(0)
    size = p["requested_size"]
    c.setFont("Helvetica-Bold", 11)
    c.drawString(L, y, "Amount requested")
    c.setFont("Helvetica-Bold", size)
    c.drawRightString(R, y - size * 0.15, fmt(requested))
    y -= 26 + size * 0.4
    c.setFont("Helvetica", 9.5)
    y = kit.draw_paragraph(
        c, "Purpose: settlement of the supplier invoice above for goods and services received by the "
        "department. Supporting documents are attached to the original of this form.", L, y, R - L, size=9.5)
    y -= 16

    # Approval section: the printed rule, then the box the stamp goes in.
    c.setFont("Helvetica-Bold", 11)
    c.drawString(L, y, "Approval (budget holder)")
    y -= 16
    y = kit.draw_paragraph(
        c, "The amount approved by the budget holder, as shown on the approval stamp below, is the amount "
        "released for payment. It replaces the amount requested where the two differ.", L, y, R - L, size=9.5)
    box_top = y - 6
    box_h = 120
    c.setStrokeGray(0.5)
    c.setDash(3, 2)
    c.rect(L, box_top - box_h, R - L, box_h, stroke=1, fill=0)
    c.setDash()
    c.setFillGray(0.35)
    c.setFont("Helvetica-Oblique", 8)
    c.drawString(L + 6, box_top - box_h + 6,
                 "Customer copy: the approval stamp is applied to the reverse of the original and shows through.")
    c.setFillGray(0)

    w, h = 220.0, 78.0
    stamp = streams.of("stamp_pose")
    cx, cy = (L + R) / 2 + stamp.uniform(-60, 60), box_top - box_h / 2 + 4
    ink = INKS[p["ink"]]
    lines = (("APPROVED FOR PAYMENT", 10, "Helvetica-Bold"), (fmt(approved), 18, "Helvetica-Bold"),
             (f"{people[1]}  {day}", 8, "Helvetica"))
    c.saveState()
    c.translate(cx, cy)
    c.rotate(stamp.uniform(-3, 3))
    if p["mirror"] == "left_right":
        c.scale(-1, 1)
    else:
        c.scale(1, -1)
    c.setStrokeColorRGB(*ink)
    c.setFillColorRGB(*ink)
    c.setLineWidth(2)
    c.rect(-w / 2, -h / 2, w, h, stroke=1, fill=0)
    for (text, fsize, font), by in zip(lines, (h / 2 - 20, -7, -h / 2 + 10), strict=True):
        if p["stamp_layer"] == "pixels":
            kit.draw_text_pixels(c, text, 0, by, fsize, bold=font.endswith("Bold"), align="center",
                                 color=tuple(round(v * 255) for v in ink))
        else:
            c.setFont(font, fsize)
            c.drawCentredString(0, by, text)
    c.restoreState()

    c.setFont("Helvetica", 8.5)
    c.setFillGray(0.3)
    c.drawString(L, 60, f"{org} - Finance shared services. Retain this copy for your records. Form {form_no}.")
    pdf = kit.finish(c, buf)

    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=(
                f"You are a finance assistant. The attached PDF is payment authorisation {form_no} for "
                f"{kit.full_stop(payee)} What amount is released for payment? Respond with only the amount including "
                "currency symbol, no other text."
            ),
            expected_answer=fmt(approved),
            forbidden_answers=[fmt(requested)],
            expected_failure_mode=(
                "Answers the large upright requested amount: the reader skipped (or could not read) the "
                "mirrored approval stamp that the form says replaces it."
            ),
            metadata={"form_no": form_no, "payee": payee, "requested_amount": requested,
                      "approved_amount": approved, "mirror": p["mirror"], "currency": p["currency"]},
        ),
    )
