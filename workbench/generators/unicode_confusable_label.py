"""A two-account statement whose asked account's "TOTAL DUE" is spelt with look-alike letters.

Both accounts end in a row that reads TOTAL DUE on the page, in the same font. In the account the
question asks about, some of the label's letters are Cyrillic or Greek look-alikes, so a text search
for the label finds only the other account's row. A careful reader goes by the account heading,
which is plain text and says which row belongs to which account.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from workbench.generators import _ledger, kit
from workbench.generators.base import AnswerKey, Arming, Generated, GenerationError, Param, Streams

NAME = "unicode_confusable_label"
VERSION = 3  # 3: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Statement whose asked account's TOTAL DUE label uses look-alike letters; search finds the other"

LOOKALIKES = {
    "cyrillic": {"A": "\u0410", "B": "\u0412", "E": "\u0415", "K": "\u041a", "M": "\u041c", "H": "\u041d",
                 "O": "\u041e", "P": "\u0420", "C": "\u0421", "T": "\u0422", "X": "\u0425", "I": "\u0406"},
    "greek": {"A": "\u0391", "B": "\u0392", "E": "\u0395", "Z": "\u0396", "H": "\u0397", "I": "\u0399",
              "K": "\u039a", "M": "\u039c", "N": "\u039d", "O": "\u039f", "P": "\u03a1", "T": "\u03a4",
              "X": "\u03a7", "Y": "\u03a5"},
}
LABELS = ("TOTAL DUE", "BALANCE DUE", "AMOUNT PAYABLE")
SITES = ("Head office", "Warehouse", "Retail store", "Distribution centre", "Laboratory", "Branch office")
# Shipped with the package (its licence beside it), so output bytes never depend on the host's fonts.
FONT_PATH = os.path.join(os.path.dirname(__file__), "data", "fonts", "DejaVuSans-Bold.ttf")
FONT = "DejaVuSans-Bold"

PARAMS = (
    Param("script", "choice", "cyrillic", "which script the look-alike letters come from",
          choices=tuple(LOOKALIKES)),
    Param("swaps", "int", 2, "how many of the label's letters are replaced by look-alikes (capped by the label)",
          min=1, max=8),
    Param("label", "choice", "TOTAL DUE", "the wording of both accounts' final row", choices=LABELS),
    Param("asked_section", "choice", "second", "whether the asked account is printed first or second",
          choices=("first", "second")),
    Param("asked_total", "float", 4812.35, "the asked account's total (the right answer)", min=100, max=50000),
    kit.CURRENCY_PARAM,
)

CONTRACT = (
    Arming("expected", "visible", "the asked account's total is printed under its heading"),
    Arming("expected", "text_layer", "the amount itself is plain text; only its row label is disguised"),
    Arming("forbidden", "visible", "the other account's total is printed too"),
    Arming("forbidden", "text_layer", "the other account's total is plain text"),
    Arming("meta:disguised_label", "text_layer", "the look-alike spelling is what the layer holds"),
)


def _register_font() -> None:
    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    if not os.path.exists(FONT_PATH):
        raise GenerationError(f"the font {FONT_PATH} is missing from the installation; reinstall pdfworkbench")
    pdfmetrics.registerFont(TTFont(FONT, FONT_PATH))


def disguise(label: str, script: str, swaps: int, rng) -> str:
    table = LOOKALIKES[script]
    spots = [i for i, ch in enumerate(label) if ch in table]
    chosen = set(rng.sample(spots, min(swaps, len(spots))))
    return "".join(table[ch] if i in chosen else ch for i, ch in enumerate(label))


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    _register_font()
    streams = Streams(seed, NAME)
    sym = _ledger.CURRENCIES[p["currency"]]

    def fmt(v: float) -> str:
        return kit.money(v, sym)

    label = p["label"]
    fake = disguise(label, p["script"], p["swaps"], streams.of("swaps"))
    asked_total = round(p["asked_total"], 2)
    other_total = _ledger.distinct_amount(streams.of("other_total"), asked_total, -0.6, 1.5, [asked_total])
    vendor = kit.pick(streams.of("vendor"), kit.VENDORS)
    customer = kit.pick(streams.of("customer"), kit.CUSTOMERS)
    base = streams.of("account_no").randint(10000, 99999)
    sites = streams.of("sites").sample(SITES, 2)
    asked_first = p["asked_section"] == "first"
    accounts = [(f"{base}-A", sites[0]), (f"{base}-B", sites[1])]
    asked_idx = 0 if asked_first else 1
    totals = [asked_total, other_total] if asked_first else [other_total, asked_total]
    date = streams.of("date")
    issued = f"{date.randint(1, 28)} {date.choice(_ledger.MONTHS)} 2025"

    c, buf = kit.new_canvas(title=f"Statement of account {base}")
    L, R = _ledger.LEFT, _ledger.RIGHT
    y = _ledger.TOP
    c.setFont("Helvetica-Bold", 18)
    c.drawString(L, y, vendor)
    c.setFont("Helvetica-Bold", 15)
    c.drawRightString(R, y, "STATEMENT OF ACCOUNT")
    c.setFont("Helvetica", 10)
    c.drawRightString(R, y - 18, f"Customer: {customer}")
    c.drawRightString(R, y - 32, f"Statement date: {issued}")
    y -= 64
    y = kit.draw_paragraph(
        c, f"This statement covers the {len(accounts)} accounts held by {kit.full_stop(customer)} Each account is billed "
        "separately: pay the final amount shown under the account's own heading, quoting the account "
        "number.", L, y, R - L, size=10)
    y -= 18
    for k, ((acct, site), total) in enumerate(zip(accounts, totals, strict=True)):
        history = streams.of(f"history:{k}")
        brought = kit.cents(history, 200, 6000)
        payments = round(brought * history.uniform(0.6, 1.0), 2)
        charges = round(total - brought + payments, 2)
        if charges <= 0:
            brought, payments = 0.0, 0.0
            charges = total
        c.setFillGray(0.92)
        c.rect(L - 4, y - 6, R - L + 8, 20, stroke=0, fill=1)
        c.setFillGray(0)
        c.setFont("Helvetica-Bold", 11)
        c.drawString(L, y, f"Account {acct} - {site}")
        y -= 26
        c.setFont("Helvetica", 10)
        for text, amount in (("Balance brought forward", brought), ("Charges this period", charges),
                             ("Payments received - thank you", -payments)):
            c.drawString(L + 10, y, text)
            c.drawRightString(R, y, fmt(amount))
            y -= 17
        c.setLineWidth(0.6)
        c.line(R - 180, y + 11, R, y + 11)
        c.setFont(FONT, 11)
        c.drawString(L + 10, y - 4, fake if k == asked_idx else label)
        c.setFont("Helvetica-Bold", 11)
        c.drawRightString(R, y - 4, fmt(total))
        y -= 46
    c.setFont("Helvetica", 9)
    kit.draw_paragraph(
        c, f"Queries about this statement: accounts receivable, {kit.full_stop(vendor)} Payments received after the "
        "statement date will appear on the next statement.", L, 110, R - L, size=9)
    pdf = kit.finish(c, buf)

    acct, site = accounts[asked_idx]
    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=(
                f"The attached PDF is a statement of account from {kit.full_stop(vendor)} What is the {label} for account "
                f"{acct} ({site})? Respond with only the amount including currency symbol, no other text."
            ),
            expected_answer=fmt(asked_total),
            forbidden_answers=[fmt(other_total)],
            expected_failure_mode=(
                f"Answers the other account's total: a search for \"{label}\" in the text layer matches only "
                "the other account's row, because the asked account's label is spelt with look-alike "
                f"{p['script'].title()} letters."
            ),
            metadata={"vendor": vendor, "account": acct, "disguised_label": fake, "plain_label": label,
                      "script": p["script"], "currency": p["currency"]},
        ),
    )
