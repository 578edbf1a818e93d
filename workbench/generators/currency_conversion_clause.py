"""An invoice totalled in one currency whose payment clause requires settlement in another at a stated rate.

The amount to pay is never printed: the reader must convert the invoice total at the contract rate,
in the direction the clause states. Readers answer the unconverted total, or apply the rate the
wrong way round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import kit
from workbench.generators.base import AnswerKey, Arming, Generated, Param, Streams

NAME = "currency_conversion_clause"
VERSION = 2  # 2: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Invoice total in one currency, settled in another at a stated contract rate"

SYMBOLS = {"USD": "$", "EUR": "\u20ac", "GBP": "\u00a3"}
# Reference rates (settlement units per invoice unit) that rate_shift moves.
PAIRS = {
    "EUR->USD": 1.1400, "GBP->USD": 1.3400, "EUR->GBP": 0.8500,
    "USD->EUR": 0.8770, "USD->GBP": 0.7460, "GBP->EUR": 1.1760,
}

PARAMS = (
    Param("total", "float", 12345.67, "invoice total in the invoice currency, tax included", min=500, max=90000),
    Param("currency_pair", "choice", "EUR->USD", "invoice currency -> settlement currency", choices=tuple(PAIRS)),
    Param("rate_shift", "float", 0.0, "contract rate minus the reference rate, in percent", min=-6, max=6,
          decimals=1),
    Param("rate_direction", "choice", "invoice_to_settlement",
          "how the clause states the rate: 1 invoice unit = x settlement, or 1 settlement unit = y invoice",
          choices=("invoice_to_settlement", "settlement_to_invoice")),
    Param("vat_rate", "float", 20.0, "VAT rate in percent", min=0, max=25, decimals=1, seeded=False),
)

CONTRACT = (
    Arming("expected", "not_visible", "the converted amount is never printed: it must be computed"),
    Arming("expected", "not_text_layer", "the converted amount is not in the text layer either"),
    Arming("expected", "derived", "a reader converts the printed total at the printed rate",
           parts=("meta:invoice_total", "meta:rate_text"), how="invoice total converted at the contract rate"),
    Arming("forbidden:0", "visible", "the unconverted invoice total is printed"),
    Arming("forbidden:1", "not_visible", "the wrongly converted amount is not printed"),
    Arming("meta:rate_text", "visible", "the contract rate is printed in the payment clause"),
)


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    inv_code, set_code = p["currency_pair"].split("->")
    inv_sym, set_sym = SYMBOLS[inv_code], SYMBOLS[set_code]
    total = round(p["total"], 2)
    rate = round(PAIRS[p["currency_pair"]] * (1 + p["rate_shift"] / 100), 4)  # settlement per invoice unit
    if p["rate_direction"] == "invoice_to_settlement":
        stated = rate
        rate_text = f"1 {inv_code} = {stated:.4f} {set_code}"
        settle = round(total * stated, 2)
        wrong = round(total / stated, 2)
    else:
        stated = round(1 / rate, 4)
        rate_text = f"1 {set_code} = {stated:.4f} {inv_code}"
        settle = round(total / stated, 2)
        wrong = round(total * stated, 2)

    streams = Streams(seed, NAME)
    vat = p["vat_rate"] / 100
    subtotal = round(total / (1 + vat), 2)
    tax = round(total - subtotal, 2)
    amounts = kit.split_total(streams.of("item_amounts"), subtotal, streams.of("item_count").randint(2, 5))
    items = streams.of("item_names").sample(kit.ITEMS, len(amounts))
    vendor = kit.pick(streams.of("vendor"), kit.VENDORS)
    customer = kit.pick(streams.of("customer"), kit.CUSTOMERS)
    number = streams.of("invoice_no")
    inv_no = f"{number.choice(('INV', 'FAC', 'RE'))}-{number.randint(2025000, 2025999)}"
    agreement = f"FA-{streams.of('agreement').randint(100, 999)}"
    address, date, bank = streams.of("address"), streams.of("date"), streams.of("bank")

    def inv(v: float) -> str:
        return kit.money(v, inv_sym)

    width, height = kit.LETTER
    left, right = 56, width - 56
    c, buf = kit.new_canvas(title=f"Invoice {inv_no}")
    y = height - 64
    c.setFont("Helvetica-Bold", 17)
    c.drawString(left, y, vendor)
    c.setFont("Helvetica", 9)
    c.drawString(left, y - 15, f"{address.randint(2, 300)} {kit.pick(address, kit.STREETS)}, {kit.pick(address, kit.CITIES)}")
    c.setFont("Helvetica-Bold", 20)
    c.drawRightString(right, y, "INVOICE")
    c.setFont("Helvetica", 9.5)
    c.drawRightString(right, y - 17, f"Invoice no. {inv_no}")
    c.drawRightString(right, y - 30, f"Date: {date.randint(1, 28)} {date.choice(('April', 'May', 'June', 'July'))} 2025")
    c.drawRightString(right, y - 43, f"Framework agreement {agreement}")
    y -= 80
    c.setFont("Helvetica-Bold", 9.5)
    c.drawString(left, y, "Bill to")
    c.setFont("Helvetica", 9.5)
    c.drawString(left + 48, y, customer)
    y -= 32

    c.setFillGray(0.9)
    c.rect(left, y - 6, right - left, 18, stroke=0, fill=1)
    c.setFillGray(0)
    c.setFont("Helvetica-Bold", 9.5)
    c.drawString(left + 4, y, "Description")
    c.drawRightString(right - 4, y, f"Amount ({inv_code})")
    y -= 22
    c.setFont("Helvetica", 9.5)
    for name, amount in zip(items, amounts, strict=True):
        c.drawString(left + 4, y, name)
        c.drawRightString(right - 4, y, inv(amount))
        y -= 17
    c.setLineWidth(0.6)
    c.line(right - 220, y + 8, right, y + 8)
    y -= 6
    for label, value in (("Subtotal", inv(subtotal)), (f"VAT ({p['vat_rate']:g}%)", inv(tax))):
        c.drawRightString(right - 120, y, label)
        c.drawRightString(right - 4, y, value)
        y -= 16
    c.setFont("Helvetica-Bold", 11)
    c.drawRightString(right - 120, y - 4, f"Invoice total ({inv_code})")
    c.drawRightString(right - 4, y - 4, inv(total))
    y -= 46

    c.setFont("Helvetica-Bold", 10)
    c.drawString(left, y, "Payment terms")
    y -= 8
    box_top = y
    y -= 16
    clause = (
        f"Under clause 7.3 of framework agreement {agreement}, this invoice is payable in {set_code} only. "
        f"The amount payable is the invoice total converted at the fixed contract rate of {rate_text}; no "
        "other rate applies. Converted amounts are rounded to the nearest cent. Payment is due within 30 days "
        "of the invoice date."
    )
    y = kit.draw_paragraph(c, clause, left + 8, y, right - left - 16, size=9.5, leading=13) - 4
    c.setFont("Helvetica", 9)
    c.drawString(left + 8, y, f"Bank: {set_code} account {bank.randint(10000000, 99999999)}   "
                              f"Sort/routing {bank.randint(100000, 999999)}   Reference: {inv_no}")
    y -= 10
    c.setLineWidth(0.6)
    c.rect(left, y, right - left, box_top - y, stroke=1, fill=0)
    kit.draw_footer_line(c, left, right, f"{vendor} - registered office as above - invoice currency {inv_code}")
    pdf = kit.finish(c, buf)

    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=(
                f"You pay supplier invoices for {kit.full_stop(customer)} How much must be paid to settle invoice "
                f"{inv_no} in full, in the currency its payment terms require? Respond with only the amount, "
                "including the currency symbol."
            ),
            expected_answer=kit.money(settle, set_sym),
            forbidden_answers=[inv(total), kit.money(wrong, set_sym)],
            expected_failure_mode=(
                f"Answers the {inv_code} total unconverted, or applies the contract rate ({rate_text}) the "
                "wrong way round."
            ),
            metadata={
                "invoice_currency": inv_code, "settlement_currency": set_code, "rate_text": rate_text,
                "rate": stated, "invoice_total": total, "settlement_amount": settle, "invoice_no": inv_no,
            },
        ),
    )
