"""A quotation whose printed rule says the emphasised figure (bold, shaded or red) is the contract price.

A headline estimate, printed much larger, competes with it. The emphasis is only in the pixels
(font weight, a fill behind the row, ink colour): the text layer holds the rule's single cue word and
otherwise reads every schedule row alike, so a text pipeline cannot tell which row binds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import _ledger, kit
from workbench.generators.base import AnswerKey, Arming, Generated, Param, Streams

NAME = "visual_emphasis_rule"
VERSION = 3  # 3: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Quotation whose rule says the bold/shaded/red figure binds, beside a larger headline decoy"

RULES = {
    "bold": "the price printed in bold type in the schedule below",
    "shaded": "the price on the shaded line of the schedule below",
    "red": "the price printed in red in the schedule below",
}
OPTIONS = (
    ("Essential", "core scope, standard working hours"), ("Standard", "core scope plus on-site support"),
    ("Extended", "standard scope with 24/7 cover"), ("Premium", "extended scope, dedicated engineer"),
    ("Phase 1 only", "discovery and design"), ("Phased delivery", "three phases, staged payments"),
    ("Fixed fee", "all phases, fixed price"), ("Time and materials", "capped estimate"),
)

PARAMS = (
    Param("contract_price", "float", 18250.00, "the emphasised schedule price (the right answer)",
          min=500, max=90000),
    Param("cue", "choice", "bold", "how the binding row is marked: bold type, a shaded line, or red ink",
          choices=tuple(RULES)),
    Param("decoy_size", "float", 24.0, "font size of the headline estimate (the decoy); the schedule is 10 pt",
          min=14, max=32, decimals=0),
    Param("options", "int", 4, "number of priced options in the schedule", min=3, max=6),
    Param("binding_position", "choice", "middle", "where the emphasised row sits in the schedule",
          choices=("first", "middle", "last")),
    kit.CURRENCY_PARAM,
    kit.VENDOR_PARAM,
)

CONTRACT = (
    Arming("expected", "visible", "the emphasised price is printed in the schedule"),
    Arming("expected", "text_layer", "the price is ordinary text; only its emphasis is pixels-only"),
    Arming("forbidden", "visible", "the headline estimate and the other options are on the page"),
    Arming("forbidden", "text_layer", "the decoys are ordinary text"),
)


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    price = round(p["contract_price"], 2)
    streams = Streams(seed, NAME)
    sym = _ledger.CURRENCIES[p["currency"]]

    def fmt(v: float) -> str:
        return kit.money(v, sym)

    n = p["options"]
    others: list[float] = []
    for _ in range(n - 1):
        others.append(_ledger.distinct_amount(streams.of("other_prices"), price, -0.35, 0.45, [price, *others]))
    headline = _ledger.distinct_amount(streams.of("headline"), price, 0.15, 0.6, [price, *others])
    index = {"first": 0, "middle": n // 2, "last": n - 1}[p["binding_position"]]
    amounts = others[:index] + [price] + others[index:]
    options = streams.of("options").sample(OPTIONS, n)
    customer = kit.pick(streams.of("customer"), kit.CUSTOMERS)
    quote_no = f"Q-{streams.of('quote_no').randint(10000, 99999)}"
    date = streams.of("date")
    issued = f"{date.randint(1, 28)} {date.choice(_ledger.MONTHS)} 2025"
    contact = kit.pick(streams.of("contact"), kit.PEOPLE)
    cue = p["cue"]

    c, buf = kit.new_canvas(title=f"Quotation {quote_no}")
    L, R = _ledger.LEFT, _ledger.RIGHT
    y = _ledger.TOP
    c.setFont("Helvetica-Bold", 18)
    c.drawString(L, y, p["vendor"])
    c.setFont("Helvetica-Bold", 20)
    c.drawRightString(R, y, "QUOTATION")
    c.setFont("Helvetica", 10)
    c.drawRightString(R, y - 18, f"Quote No.: {quote_no}")
    c.drawRightString(R, y - 32, f"Date: {issued}")
    c.drawRightString(R, y - 46, "Valid for 60 days")
    y -= 80
    c.drawString(L, y, f"Prepared for: {customer}")
    c.drawString(L, y - 14, f"Contact: {contact}")
    y -= 52
    dsize = p["decoy_size"]
    c.setFont("Helvetica", 11)
    c.drawString(L, y, "Project estimate (all options, before scoping)")
    c.setFont("Helvetica", dsize)
    c.drawString(L, y - dsize - 4, fmt(headline))
    y -= dsize + 34
    c.setFont("Helvetica", 10)
    y = kit.draw_paragraph(
        c, "Thank you for the opportunity to quote. The schedule below prices the delivery options we "
        "discussed. Acceptance: " + f"the agreed contract price is {RULES[cue]}; all other figures in "
        "this quotation are indicative and do not bind either party.", L, y, R - L, size=10)
    y -= 14
    c.setFont("Helvetica-Bold", 11)
    c.drawString(L, y, "Pricing schedule")
    y -= 18
    c.setFillGray(0.4)
    c.setFont("Helvetica", 8)
    c.drawString(L, y, "OPTION")
    c.drawString(L + 190, y, "SCOPE")
    c.drawRightString(R, y, "PRICE")
    y -= 18
    row_h = 22
    c.setStrokeGray(0.6)
    c.setLineWidth(0.5)
    for i, ((name, desc), amount) in enumerate(zip(options, amounts, strict=True)):
        binding = i == index
        if binding and cue == "shaded":
            c.setFillGray(0.8)
            c.rect(L - 4, y - 7, R - L + 8, row_h - 2, stroke=0, fill=1)
        if binding and cue == "red":
            c.setFillColorRGB(0.8, 0.05, 0.05)
        else:
            c.setFillGray(0)
        font = "Helvetica-Bold" if binding and cue == "bold" else "Helvetica"
        c.setFont(font, 10)
        c.drawString(L, y, f"Option {chr(65 + i)} - {name}")
        c.drawString(L + 190, y, desc)
        c.drawRightString(R, y, fmt(amount))
        c.line(L - 4, y - 8, R + 4, y - 8)
        y -= row_h
    c.setFillGray(0)
    y -= 16
    c.setFont("Helvetica", 9)
    y = kit.draw_paragraph(
        c, "Prices exclude applicable taxes. Payment terms: 30% on signature, balance on completion. "
        f"To accept, sign and return this quotation quoting {quote_no}.", L, y, R - L, size=9)
    c.line(L, 120, L + 200, 120)
    c.line(R - 200, 120, R, 120)
    c.setFont("Helvetica", 8.5)
    c.drawString(L, 108, f"For {p['vendor']}")
    c.drawString(R - 200, 108, f"Accepted for {customer}")
    pdf = kit.finish(c, buf)

    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=(
                f"You are a procurement assistant. The attached PDF is quotation {quote_no} from "
                f"{kit.full_stop(p['vendor'])} What is the agreed contract price? Respond with only the amount including "
                "currency symbol, no other text."
            ),
            expected_answer=fmt(price),
            forbidden_answers=[fmt(headline)] + [fmt(a) for a in others],
            expected_failure_mode=(
                f"Answers the large headline estimate or an unmarked option: the reader did not see which "
                f"schedule line carries the {cue} emphasis that the acceptance rule names (the emphasis is "
                "in the pixels, not in the text)."
            ),
            metadata={"quote_no": quote_no, "vendor": p["vendor"], "cue": cue, "headline": headline,
                      "binding_option": chr(65 + index), "currency": p["currency"]},
        ),
    )
