"""A plain invoice skeleton (letterhead, bill-to, line items, totals) shared by several families.

Private (the registry skips modules whose name starts with "_"). Families draw their trap on top
of it; every figure here comes from the caller's random streams, so output stays deterministic.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from reportlab.pdfgen.canvas import Canvas

from workbench.generators import kit
from workbench.generators.base import Streams

CURRENCIES = kit.CURRENCY_SYMBOLS
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November")


@dataclass
class Invoice:
    vendor: str
    customer: str
    number: str
    issued: str
    street: str
    city: str
    symbol: str
    items: list[tuple[str, float]]
    subtotal: float
    tax_rate: float  # percent
    tax: float
    total: float
    extra: dict[str, str] = field(default_factory=dict)

    def fmt(self, amount: float) -> str:
        return kit.money(amount, self.symbol)


def make_invoice(
    streams: Streams, total: float, currency: str = "USD", n_items: int = 4,
    tax_rate: float = 8.0, vendor: str | None = None, prefix: str = "INV", number: str | None = None,
) -> Invoice:
    """An invoice whose line items and tax add up to `total` exactly (in cents). A `number`
    given is not drawn (nor is a `vendor`). Each part has its own stream, so a change to the total
    or the number of items moves the items only, never the customer, date or address."""
    rate = tax_rate / 100
    subtotal = round(total / (1 + rate), 2)
    tax = round(total - subtotal, 2)
    amounts = kit.split_total(streams.of("item_amounts"), subtotal, n_items)
    names = streams.of("item_names").sample(kit.ITEMS, len(amounts))
    issued = streams.of("date")
    address = streams.of("address")
    return Invoice(
        vendor=vendor or kit.pick(streams.of("vendor"), kit.VENDORS),
        customer=kit.pick(streams.of("customer"), kit.CUSTOMERS),
        number=number or f"{prefix}-{streams.of('number').randint(100000, 999999)}",
        issued=f"{issued.randint(1, 28)} {issued.choice(MONTHS)} 2025",
        street=f"{address.randint(2, 480)} {kit.pick(address, kit.STREETS)}",
        city=kit.pick(address, kit.CITIES),
        symbol=CURRENCIES[currency],
        items=list(zip(names, amounts, strict=True)),
        subtotal=subtotal, tax_rate=tax_rate, tax=tax, total=round(total, 2),
    )


LEFT, RIGHT, TOP = 54.0, kit.LETTER[0] - 54.0, kit.LETTER[1] - 64.0


def draw_header(c: Canvas, inv: Invoice, title: str = "INVOICE", size: float = 10) -> float:
    """Letterhead, document title, number, date and bill-to; returns the y below them."""
    y = TOP
    c.setFillGray(0)
    c.setFont("Helvetica-Bold", 18)
    c.drawString(LEFT, y, inv.vendor)
    c.setFont("Helvetica", size - 1)
    c.drawString(LEFT, y - 16, inv.street)
    c.drawString(LEFT, y - 16 - size * 1.3, inv.city)
    c.setFont("Helvetica-Bold", 22)
    c.drawRightString(RIGHT, y, title)
    c.setFont("Helvetica", size)
    c.drawRightString(RIGHT, y - 18, f"{title.title()} No.: {inv.number}")
    c.drawRightString(RIGHT, y - 18 - size * 1.4, f"Date: {inv.issued}")
    c.drawRightString(RIGHT, y - 18 - size * 2.8, "Terms: Net 30")
    y -= 90
    c.setFont("Helvetica-Bold", size)
    c.drawString(LEFT, y, "Bill to:")
    c.setFont("Helvetica", size)
    c.drawString(LEFT + 50, y, inv.customer)
    return y - 34


def draw_items(c: Canvas, inv: Invoice, y: float, size: float = 10) -> float:
    """The line-item table; returns the y below its last row."""
    c.setFillGray(0.92)
    c.rect(LEFT - 4, y - 6, RIGHT - LEFT + 8, size + 10, stroke=0, fill=1)
    c.setFillGray(0)
    c.setFont("Helvetica-Bold", size)
    c.drawString(LEFT, y, "Description")
    c.drawRightString(RIGHT - 200, y, "Qty")
    c.drawRightString(RIGHT - 100, y, "Unit price")
    c.drawRightString(RIGHT, y, "Amount")
    y -= size * 2
    c.setFont("Helvetica", size)
    for name, amount in inv.items:
        c.drawString(LEFT, y, name)
        c.drawRightString(RIGHT - 200, y, "1")
        c.drawRightString(RIGHT - 100, y, inv.fmt(amount))
        c.drawRightString(RIGHT, y, inv.fmt(amount))
        y -= size * 1.8
    c.setLineWidth(0.6)
    c.line(RIGHT - 230, y + size * 0.6, RIGHT, y + size * 0.6)
    return y - size * 0.8


def draw_totals(
    c: Canvas, inv: Invoice, y: float, size: float = 10, total_label: str = "TOTAL DUE",
    total_size: float | None = None, draw_total: bool = True,
) -> tuple[float, float]:
    """Subtotal, tax and the total row; returns (y below, baseline of the total row)."""
    c.setFont("Helvetica", size)
    c.drawRightString(RIGHT - 110, y, "Subtotal")
    c.drawRightString(RIGHT, y, inv.fmt(inv.subtotal))
    y -= size * 1.6
    c.drawRightString(RIGHT - 110, y, f"Sales tax ({inv.tax_rate:g}%)")
    c.drawRightString(RIGHT, y, inv.fmt(inv.tax))
    y -= size * 2.2
    ts = total_size or size + 3
    c.setFont("Helvetica-Bold", ts)
    c.drawRightString(RIGHT - 110, y, total_label)
    if draw_total:
        c.drawRightString(RIGHT, y, inv.fmt(inv.total))
    return y - ts * 2, y


def draw_footer(c: Canvas, inv: Invoice, size: float = 10, note: str | None = None) -> None:
    c.setFillGray(0)
    c.setFont("Helvetica", size - 1)
    c.drawString(LEFT, 96, note or f"Please quote {inv.number} with your payment. Payment due within 30 days.")
    c.drawString(LEFT, 96 - size * 1.4, f"Thank you for your business. {inv.vendor} - {inv.city}")


def distinct_amount(rng: random.Random, base: float, low: float, high: float, avoid: list[float]) -> float:
    """An amount base*(1+f) with f in [low, high], differing from every amount in `avoid` by > 1."""
    for _ in range(100):
        v = round(base * (1 + rng.uniform(low, high)), 2)
        if v > 0 and all(abs(v - a) > 1 for a in avoid):
            return v
    raise ValueError("could not draw a distinct amount")
