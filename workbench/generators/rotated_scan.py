"""A business document placed crooked on the page, like a sheet fed askew into a scanner.

The whole page content is turned a few degrees. A person follows each row along its slant; a
pipeline that pairs text by horizontal position (layout-sorted extraction, or a reader that tracks
rows straight across) pairs a line item's description with the amount of another row, which the
tilt has lifted or dropped to the same height. The table is also written column by column, as many
generators do, so stream-order text does not pair rows either. In `page_rotate` mode the sheet is
stored sideways with a /Rotate entry, so the text layer's own coordinates are turned 90 degrees too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from workbench.generators import _ledger, kit
from workbench.generators.base import AnswerKey, Arming, Generated, GenerationError, Param, Streams

NAME = "rotated_scan"
VERSION = 2  # 2: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Document scanned askew: a tilted table whose rows no longer line up horizontally"

DOCS = {
    "invoice": ("INVOICE", "Invoice No.", "INV", "Description", "Amount", "TOTAL DUE"),
    "purchase_order": ("PURCHASE ORDER", "PO No.", "PO", "Item", "Line total", "ORDER TOTAL"),
    "expense_report": ("EXPENSE REPORT", "Report No.", "EXP", "Expense", "Claimed", "TOTAL CLAIMED"),
}

PARAMS = (
    Param("angle", "float", 6.0, "how far the sheet is turned, in degrees", min=3, max=12, decimals=1),
    Param("direction", "choice", "counterclockwise", "which way the sheet is turned",
          choices=("counterclockwise", "clockwise")),
    Param("mode", "choice", "content",
          "content: the drawing is turned on an upright page; page_rotate: the page is stored sideways "
          "with /Rotate 90 and shown upright", choices=("content", "page_rotate")),
    Param("document", "choice", "invoice", "kind of document", choices=tuple(DOCS)),
    Param("rows", "int", 9, "number of line items in the table", min=6, max=12),
    kit.CURRENCY_PARAM,
)

CONTRACT = (
    Arming("expected", "visible", "the asked row's amount is legible along its slanted row"),
    Arming("expected", "text_layer", "all text is ordinary text; only its geometry is turned"),
    Arming("forbidden", "visible", "the amount level with the asked description belongs to another row"),
    Arming("forbidden", "text_layer", "the other row's amount is ordinary text"),
)

W, H = kit.LETTER
PITCH = 18.0


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    streams = Streams(seed, NAME)
    title, no_label, prefix, col_desc, col_amt, total_label = DOCS[p["document"]]
    n = p["rows"]
    if n > len(kit.ITEMS):
        raise GenerationError(f"rows must be at most {len(kit.ITEMS)}")
    sym = _ledger.CURRENCIES[p["currency"]]

    def fmt(v: float) -> str:
        return kit.money(v, sym)

    names = streams.of("item_names").sample(kit.ITEMS, n)
    amounts: list[float] = []
    while len(amounts) < n:
        a = kit.cents(streams.of("item_amounts"), 120, 9800)
        if all(abs(a - b) > 1 for b in amounts):
            amounts.append(a)
    total = round(sum(amounts), 2)
    vendor = kit.pick(streams.of("vendor"), kit.VENDORS)
    customer = kit.pick(streams.of("customer"), kit.CUSTOMERS)
    number = f"{prefix}-{streams.of('number').randint(100000, 999999)}"
    date = streams.of("date")
    issued = f"{date.randint(1, 28)} {date.choice(_ledger.MONTHS)} 2025"

    theta = p["angle"] * (1 if p["direction"] == "counterclockwise" else -1)
    L, R = _ledger.LEFT, _ledger.RIGHT
    table_top = H - 210
    row_y = [table_top - PITCH * (i + 1.3) for i in range(n)]

    # Where each label and amount lands on the displayed page (rotation about the page centre).
    s, co = math.sin(math.radians(theta)), math.cos(math.radians(theta))

    def shown_y(x: float, y: float) -> float:
        return H / 2 + (x - W / 2) * s + (y - H / 2) * co

    label_y = [shown_y(L + kit.text_width(nm, "Helvetica", 10) / 2, y) for nm, y in zip(names, row_y, strict=True)]
    amount_y = [shown_y(R - kit.text_width(fmt(a), "Helvetica", 10) / 2, y) for a, y in zip(amounts, row_y, strict=True)]
    candidates = []
    for i in range(n):
        own = abs(amount_y[i] - label_y[i])
        j = min((k for k in range(n) if k != i), key=lambda k: abs(amount_y[k] - label_y[i]))
        if abs(amount_y[j] - label_y[i]) < own - 4:
            candidates.append((i, j))
    if not candidates:
        raise GenerationError("the tilt is too small for any row to line up with another row's amount")
    asked, level = streams.of("asked_row").choice(candidates)

    if p["mode"] == "page_rotate":
        c, buf = kit.new_canvas(pagesize=(W, H), title=f"{title.title()} {number}")
        c.setPageRotation(90)
        # Shown turned 90 degrees clockwise, so draw in upright page coordinates through this map.
        c.transform(0, 1, -1, 0, H, 0)
    else:
        c, buf = kit.new_canvas(title=f"{title.title()} {number}")
    # A light grey scanner bed behind the sheet, then the sheet itself turned about the centre.
    c.setFillGray(0.86)
    c.rect(0, 0, W, H, stroke=0, fill=1)
    c.translate(W / 2, H / 2)
    c.rotate(theta)
    c.translate(-W / 2, -H / 2)
    c.setFillGray(1)
    c.rect(14, 10, W - 28, H - 20, stroke=0, fill=1)
    c.setFillGray(0)

    y = _ledger.TOP
    c.setFont("Helvetica-Bold", 17)
    c.drawString(L, y, vendor)
    c.setFont("Helvetica-Bold", 18)
    c.drawRightString(R, y, title)
    c.setFont("Helvetica", 10)
    c.drawRightString(R, y - 18, f"{no_label}: {number}")
    c.drawRightString(R, y - 32, f"Date: {issued}")
    c.drawString(L, y - 60, f"{'Employee' if p['document'] == 'expense_report' else 'Customer'}: "
                 f"{kit.pick(streams.of('employee'), kit.PEOPLE) if p['document'] == 'expense_report' else customer}")
    c.setFont("Helvetica-Bold", 10)
    c.drawString(L, table_top, col_desc)
    c.drawRightString(R, table_top, col_amt)
    c.setLineWidth(0.6)
    c.line(L, table_top - 6, R, table_top - 6)
    c.setStrokeGray(0.85)
    c.setLineWidth(0.4)
    for y in row_y:
        c.line(L, y - 6, R, y - 6)
    # Column by column: every description first, then every amount.
    c.setFont("Helvetica", 10)
    for name, y in zip(names, row_y, strict=True):
        c.drawString(L, y, name)
    for amount, y in zip(amounts, row_y, strict=True):
        c.drawRightString(R, y, fmt(amount))
    ty = row_y[-1] - PITCH * 1.6
    c.setStrokeGray(0)
    c.setLineWidth(0.8)
    c.line(R - 200, ty + 14, R, ty + 14)
    c.setFont("Helvetica-Bold", 11)
    c.drawRightString(R - 120, ty, total_label)
    c.drawRightString(R, ty, fmt(total))
    c.setFont("Helvetica", 9)
    c.drawString(L, 90, f"Please quote {number} on all correspondence.")
    pdf = kit.finish(c, buf)

    what = {"invoice": "billed", "purchase_order": "ordered", "expense_report": "claimed"}[p["document"]]
    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=(
                f"The attached PDF is a scanned {title.lower()} ({number}). What amount is {what} for "
                f"\"{names[asked]}\"? Respond with only the amount including currency symbol, no other text."
            ),
            expected_answer=fmt(amounts[asked]),
            forbidden_answers=[fmt(amounts[level])],
            expected_failure_mode=(
                "Answers the amount of another row, the one the tilt brings level with the asked "
                "description: the reader paired text by horizontal position instead of following the "
                "slanted row."
            ),
            metadata={"number": number, "asked_row": asked + 1, "level_row": level + 1,
                      "angle": theta, "mode": p["mode"], "currency": p["currency"]},
        ),
    )
