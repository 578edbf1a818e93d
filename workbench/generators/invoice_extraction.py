"""Structured extraction: an invoice page to read into JSON, with decoys beside the real values.

The key holds structured gold: a JSON schema, the expected JSON object, and per-field evidence
(page, box, quote, alternative accepted readings), graded by the `fields` matcher:

    gold = {"schema": {...JSON Schema...}, "expected": {"invoice": {...}},
            "fields": {"invoice.vendor_phone": {"normalizer": "phone"}, ...},
            "evidence": {"invoice.vendor_phone": {"page": 1, "box": [x0, y0, x1, y1],
                                                  "quote": "Main office: ...", "alternatives": []}},
            "decoys": {"invoice.vendor_phone": ["<the direct line>"]}}

Boxes are PDF points from the page's top-left corner. The line-item table is drawn for context
but not asked for: the question is about the header fields. The traps:
- `direct_line`: the account manager's direct line is printed large in a contact box, while the
  vendor's main number sits small in the letterhead; the schema asks for the main number.
- `wrapped_vendor`: the vendor's legal name wraps onto two lines of the letterhead; a reader that
  keeps only one line gets the name wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from workbench.core.schema import JSONObject
from workbench.generators import kit
from workbench.generators.base import (
    AnswerKey,
    Arming,
    Evidence,
    ExtractionGold,
    FieldSpec,
    Generated,
    MatcherSpec,
    Param,
    Streams,
)

NAME = "invoice_extraction"
VERSION = 2  # 2: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Invoice to extract as JSON (structured gold with per-field evidence); decoy phone and wrapped name"

CURRENCIES = kit.CURRENCY_SYMBOLS
DIVISIONS = (
    "Regional Facilities and Maintenance Division", "Northern European Distribution Services",
    "Commercial Equipment Leasing Department", "Public Sector and Education Contracts Unit",
)
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November")
_SUFFIXES = (" Ltd.", " Inc.", " LLC", " GmbH", " Co.")

PARAMS = (
    Param("vendor", "str", kit.VENDORS[0], "vendor's trading name in the letterhead", pool=kit.VENDORS, max=60),
    Param("trap", "choice", "direct_line",
          "decoy: the account manager's direct line beside the main number, the vendor's legal name "
          "wrapped onto two lines, or both", choices=("direct_line", "wrapped_vendor", "both")),
    Param("line_items", "int", 3, "number of line items (they add up to the subtotal)", min=1, max=6),
    Param("tax_rate", "float", 8.0, "sales tax in percent", min=0, max=25, decimals=1),
    kit.CURRENCY_PARAM,
    Param("invoice_number", "int", 480112, "invoice number, printed as INV-NNNNNN", min=100000, max=999999),
    Param("font_size", "float", 10.0, "body font size in points", min=8, max=13, seeded=False, decimals=1),
)

CONTRACT = (
    Arming("meta:vendor_phone", "visible", "the main number is printed in the letterhead"),
    Arming("meta:vendor_phone", "text_layer", "a text pipeline can read the main number too"),
    Arming("meta:total", "visible", "the total is printed"),
    Arming("meta:decoy", "visible", "the decoy (direct line, or one line of the wrapped name) is printed"),
)

SCHEMA: JSONObject = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["invoice"],
    "properties": {
        "invoice": {
            "type": "object",
            "required": ["vendor_name", "vendor_phone", "invoice_number", "invoice_date", "due_date",
                         "customer_name", "currency", "subtotal", "tax", "total"],
            "properties": {
                "vendor_name": {"type": "string", "description": "Full legal name of the issuing company"},
                "vendor_phone": {"type": "string",
                                 "description": "The vendor's main telephone number as printed in the letterhead"},
                "invoice_number": {"type": "string", "description": "Invoice number as printed"},
                "invoice_date": {"type": "string", "format": "date", "description": "Issue date, ISO 8601"},
                "due_date": {"type": "string", "format": "date", "description": "Payment due date, ISO 8601"},
                "customer_name": {"type": "string", "description": "The billed customer"},
                "currency": {"type": "string", "description": "Three-letter ISO 4217 code of the amounts"},
                "subtotal": {"type": "number", "description": "Sum of the line amounts before tax"},
                "tax": {"type": "number", "description": "Sales tax amount"},
                "total": {"type": "number", "description": "Total amount due, tax included"},
            },
        },
    },
}

# How the `fields` matcher compares each field (see workbench/grading/fields.py).
FIELD_RULES: tuple[tuple[str, FieldSpec], ...] = (
    ("invoice.vendor_name", FieldSpec("punctuation", threshold=0.92)),
    ("invoice.vendor_phone", FieldSpec("phone")),
    ("invoice.invoice_number", FieldSpec("text")),
    ("invoice.invoice_date", FieldSpec("date")),
    ("invoice.due_date", FieldSpec("date")),
    ("invoice.customer_name", FieldSpec("punctuation", threshold=0.9)),
    ("invoice.currency", FieldSpec("text")),
    ("invoice.subtotal", FieldSpec("money")),
    ("invoice.tax", FieldSpec("money")),
    ("invoice.total", FieldSpec("money")),
)

PHONE_STYLE = {
    "USD": lambda a, b: f"+1 (555) {a:03d}-{b:04d}",
    "EUR": lambda a, b: f"+49 30 555{a:03d} {b:04d}",
    "GBP": lambda a, b: f"+44 20 7946 {b:04d}",
}


def _without_suffix(name: str) -> str | None:
    for s in _SUFFIXES:
        if name.endswith(s):
            return name[: -len(s)].rstrip(" ,")
    return None


@dataclass(frozen=True)
class _Item:
    """One line of the drawn table (drawn for context; the question asks for the header fields)."""

    description: str
    quantity: int
    unit_price: float
    amount: float


class _Layout:
    """Draws text and remembers each value's box (points, top-left origin) and printed line."""

    def __init__(self, c: Any, height: float) -> None:
        self.c, self.height = c, height
        self.evidence: dict[str, Evidence] = {}

    def text(self, x: float, y: float, text: str, font: str, size: float, align: str = "left") -> tuple[float, float]:
        self.c.setFont(font, size)
        w = kit.text_width(text, font, size)
        x0 = x - w if align == "right" else x
        if align == "right":
            self.c.drawRightString(x, y, text)
        else:
            self.c.drawString(x, y, text)
        return x0, w

    def box(self, x0: float, y: float, w: float, size: float) -> tuple[float, float, float, float]:
        return (round(x0, 2), round(self.height - y - size * 0.78, 2), round(x0 + w, 2),
                round(self.height - y + size * 0.24, 2))

    def mark(self, field: str, value_text: str, line_x0: float, y: float, line: str, font: str,
             size: float, alternatives: list[str] | None = None) -> None:
        """Record the evidence for `field`: the box of `value_text` within the drawn `line`."""
        at = line.find(value_text)
        x0 = line_x0 + (kit.text_width(line[:at], font, size) if at > 0 else 0)
        w = kit.text_width(value_text, font, size)
        self.evidence[field] = Evidence(1, self.box(x0, y, w, size), line, tuple(alternatives or ()))


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    streams = Streams(seed, NAME)
    size = p["font_size"]
    code = p["currency"]
    sym = CURRENCIES[code]
    rate = p["tax_rate"] / 100
    trap = p["trap"]
    direct = trap in ("direct_line", "both")
    wrapped = trap in ("wrapped_vendor", "both")

    def fmt(v: float) -> str:
        return kit.money(v, sym)

    # Content, one stream per item, so each stays put when a parameter changes another.
    vendor = p["vendor"]
    division = kit.pick(streams.of("division"), DIVISIONS)
    legal = vendor
    if wrapped:
        base = _without_suffix(vendor) or vendor
        legal = f"{base} {division}{vendor[len(base):]}"
    phone_style = PHONE_STYLE[code]
    main = streams.of("main_phone")
    main_phone = phone_style(main.randint(10, 199), main.randint(1000, 4999))
    direct_no = streams.of("direct_phone")
    direct_phone = phone_style(direct_no.randint(200, 399), direct_no.randint(5000, 9999))
    manager = kit.pick(streams.of("manager"), kit.PEOPLE)
    customer = kit.pick(streams.of("customer"), kit.CUSTOMERS)
    inv_no = f"INV-{p['invoice_number']}"
    date = streams.of("date")
    day, month_i = date.randint(1, 28), date.randrange(len(MONTHS))
    issued_iso = f"2025-{month_i + 1:02d}-{day:02d}"
    due_month = month_i + 2  # net 30, kept simple: same day next month
    due_iso = f"2025-{due_month:02d}-{day:02d}"
    issued_text = f"{day} {MONTHS[month_i]} 2025"
    due_text = f"{day} {(MONTHS + ('December',))[due_month - 1]} 2025"

    n_items = p["line_items"]
    names = streams.of("item_names").sample(kit.ITEMS, n_items)
    prices = streams.of("item_prices")
    items: list[_Item] = []
    for name in names:
        qty = prices.randint(1, 5)
        unit = kit.cents(prices, 40, 2400)
        items.append(_Item(name, qty, unit, round(qty * unit, 2)))
    subtotal = round(sum(i.amount for i in items), 2)
    tax = round(subtotal * rate, 2)
    total = round(subtotal + tax, 2)

    c, buf = kit.new_canvas(title=f"Invoice {inv_no}")
    width, height = kit.LETTER
    lay = _Layout(c, height)
    left, right = 54, width - 54
    y = height - 66

    # Letterhead: the legal name (wrapped when the trap says so), address, main number.
    name_size = 15
    if wrapped:
        # Narrow enough that the name takes exactly two lines.
        full_w = kit.text_width(legal, "Helvetica-Bold", name_size)
        lines = kit.wrap(legal, "Helvetica-Bold", name_size, full_w * 0.62)
        while len(lines) > 2:
            lines = kit.wrap(legal, "Helvetica-Bold", name_size, full_w * 0.62 + 20 * (len(lines) - 2))
    else:
        lines = [legal]
    name_boxes = []
    for line in lines:
        x0, w = lay.text(left, y, line, "Helvetica-Bold", name_size)
        name_boxes.append(lay.box(x0, y, w, name_size))
        y -= name_size * 1.2
    name_box = (min(b[0] for b in name_boxes), name_boxes[0][1], max(b[2] for b in name_boxes), name_boxes[-1][3])
    alt = _without_suffix(legal)
    lay.evidence["invoice.vendor_name"] = Evidence(1, name_box, " / ".join(lines), (alt,) if alt else ())
    small = size - 1.5
    address = streams.of("address")
    street = f"{address.randint(2, 480)} {kit.pick(address, kit.STREETS)}"
    city = kit.pick(address, kit.CITIES)
    y -= 2
    lay.text(left, y, street, "Helvetica", small)
    y -= small * 1.3
    lay.text(left, y, city, "Helvetica", small)
    y -= small * 1.3
    phone_line = f"Main office: {main_phone}"
    x0, _ = lay.text(left, y, phone_line, "Helvetica", small)
    lay.mark("invoice.vendor_phone", main_phone, x0, y, phone_line, "Helvetica", small)

    # Invoice block, top right.
    ty = height - 66
    lay.text(right, ty, "INVOICE", "Helvetica-Bold", 22, align="right")
    ty -= 22
    for field, label, value in (
        ("invoice.invoice_number", "Invoice No.:", inv_no),
        ("invoice.invoice_date", "Invoice date:", issued_text),
        ("invoice.due_date", "Due date:", due_text),
    ):
        line = f"{label} {value}"
        x0, _ = lay.text(right, ty, line, "Helvetica", size, align="right")
        alts = [inv_no.removeprefix("INV-")] if field == "invoice.invoice_number" else []
        lay.mark(field, value, x0, ty, line, "Helvetica", size, alts)
        ty -= size * 1.45
    cur_line = f"Currency: {code}"
    x0, _ = lay.text(right, ty, cur_line, "Helvetica", size, align="right")
    lay.mark("invoice.currency", code, x0, ty, cur_line, "Helvetica", size)

    # Account manager box: the decoy number, large, when the trap asks for it.
    y = min(y, ty) - 30
    box_h = 44
    c.setFillColorRGB(0.93, 0.95, 0.98)
    c.rect(right - 250, y - box_h + 14, 250, box_h, stroke=0, fill=1)
    c.setFillGray(0)
    lay.text(right - 240, y, f"Your account manager: {manager}", "Helvetica", size)
    contact = f"Direct line: {direct_phone}" if direct else f"Email: {manager.split()[0].lower()}@accounts.example"
    lay.text(right - 240, y - size * 1.7, contact, "Helvetica-Bold", size + 2.5)

    # Bill to.
    lay.text(left, y, "Bill to:", "Helvetica-Bold", size)
    x0, _ = lay.text(left, y - size * 1.4, customer, "Helvetica", size)
    cust_alt = _without_suffix(customer)
    lay.mark("invoice.customer_name", customer, x0, y - size * 1.4, customer, "Helvetica", size,
             [cust_alt] if cust_alt else [])
    y -= box_h + 24

    # Line items.
    cols = (left, right - 230, right - 120, right)
    c.setFillGray(0.92)
    c.rect(left - 4, y - 6, right - left + 8, size + 10, stroke=0, fill=1)
    c.setFillGray(0)
    lay.text(cols[0], y, "Description", "Helvetica-Bold", size)
    lay.text(cols[1], y, "Qty", "Helvetica-Bold", size, align="right")
    lay.text(cols[2], y, "Unit price", "Helvetica-Bold", size, align="right")
    lay.text(cols[3], y, "Amount", "Helvetica-Bold", size, align="right")
    y -= size * 2
    for item in items:
        lay.text(cols[0], y, item.description, "Helvetica", size)
        for col, text in ((cols[1], str(item.quantity)), (cols[2], fmt(item.unit_price)),
                          (cols[3], fmt(item.amount))):
            lay.text(col, y, text, "Helvetica", size, align="right")
        y -= size * 1.8
    c.setLineWidth(0.6)
    c.line(right - 230, y + size * 0.6, right, y + size * 0.6)
    y -= size * 0.8
    for field, label, value, font, fsize in (
        ("invoice.subtotal", "Subtotal", subtotal, "Helvetica", size),
        ("invoice.tax", f"Sales tax ({p['tax_rate']:g}%)", tax, "Helvetica", size),
        ("invoice.total", "TOTAL DUE", total, "Helvetica-Bold", size + 3),
    ):
        if field == "invoice.total":
            y -= size * 0.6
        lay.text(right - 110, y, label, font, fsize, align="right")
        x0, w = lay.text(right, y, fmt(value), font, fsize, align="right")
        lay.evidence[field] = Evidence(1, lay.box(x0, y, w, fsize), f"{label} {fmt(value)}", ())
        y -= fsize * 1.6

    c.setFont("Helvetica", size - 1)
    c.drawString(left, 96, "Please quote the invoice number with your payment. Payment due within 30 days.")
    c.drawString(left, 96 - size * 1.4, f"Questions about this invoice? Call {manager.split()[0]} on the number above.")
    pdf = kit.finish(c, buf)

    expected = {
        "invoice": {
            "vendor_name": legal, "vendor_phone": main_phone, "invoice_number": inv_no,
            "invoice_date": issued_iso, "due_date": due_iso, "customer_name": customer, "currency": code,
            "subtotal": subtotal, "tax": tax, "total": total,
        },
    }
    forbidden: list[str] = []
    decoys: dict[str, list[str]] = {}
    if direct:
        forbidden.append(direct_phone)
        decoys["invoice.vendor_phone"] = [direct_phone]
    if wrapped:
        # Not a forbidden answer: each line is part of the right name, so any answer has it.
        decoys["invoice.vendor_name"] = [lines[0], lines[-1]]
    evidence = tuple((k, lay.evidence[k]) for k in sorted(lay.evidence))
    question = (
        "You are an accounts-payable assistant. Extract the attached invoice as JSON that follows this "
        "JSON schema. Give amounts as numbers without currency symbols and dates as YYYY-MM-DD; use "
        "null for a field the document does not show. Respond with only the JSON.\n\n"
        + json.dumps(SCHEMA, indent=2)
    )
    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=question,
            expected_answer=json.dumps(expected, ensure_ascii=False, separators=(", ", ": ")),
            forbidden_answers=forbidden,
            expected_failure_mode=(
                "Takes the decoy for the field: the account manager's direct line for the vendor's main "
                "number, or one line of a wrapped legal name for the whole name."
            ),
            matcher=MatcherSpec("fields"),
            metadata={
                "vendor_phone": main_phone, "direct_line": direct_phone if direct else None,
                "vendor_name": legal, "total": fmt(total), "currency": code, "trap": trap,
                "decoy": direct_phone if direct else lines[-1],
            },
            gold=ExtractionGold(expected=expected, fields=FIELD_RULES, schema=SCHEMA, evidence=evidence,
                                decoys=tuple((k, tuple(v)) for k, v in decoys.items())),
        ),
    )
