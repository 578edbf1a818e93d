"""A statement of account adjustments where a leading sign marks credits and a lone dash means nil.

References and descriptions are full of hyphens and dashes ("ADJ-0412", "Service credit - March");
in the Amount column a leading sign makes a line a credit and a lone dash means no amount. The net
is not printed: a reader that treats the sign as punctuation adds the credits instead of deducting
them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from workbench.generators import kit
from workbench.generators.base import AnswerKey, Arming, Generated, GenerationError, Param, Streams

NAME = "dash_sign_semantics"
VERSION = 2  # 2: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Adjustment statement whose credits hang on a minus sign among hyphens and dashes"

GLYPHS = {"minus": "\u2212", "hyphen": "-", "en_dash": "\u2013", "em_dash": "\u2014"}
GLYPH_NAMES = {"minus": "minus sign", "hyphen": "hyphen", "en_dash": "dash", "em_dash": "long dash"}

CHARGES = (
    "Additional licences - Finance team", "Out-of-hours call-out - Site 2", "Storage overage - April",
    "Extra training day - Units 3-5", "Change request CR-118 - reporting", "Courier re-delivery - Depot B",
    "Price review - index uplift", "On-site engineer - half day",
)
CREDITS = (
    "Service credit \u2013 March outage", "Volume rebate \u2013 tier 2", "Duplicate billing - INV-2210",
    "Goodwill credit - late delivery", "Returned hardware - RMA-5531", "Early-payment discount",
)
NILS = (
    "Late-payment fee - waived", "Re-activation fee \u2013 not applicable", "Admin charge - Q2 review",
)

PARAMS = (
    Param("credit_glyph", "choice", "minus", "sign printed before credit amounts",
          choices=("minus", "hyphen", "en_dash")),
    Param("nil_glyph", "choice", "em_dash", "what stands alone in the Amount column of a nil line",
          choices=("em_dash", "en_dash", "hyphen")),
    Param("credits", "int", 2, "credit lines (deducted)", min=1, max=3),
    Param("charges", "int", 3, "charge lines (added)", min=2, max=5),
    Param("nil_rows", "int", 1, "lines with no amount (a lone dash)", min=0, max=2),
)

CONTRACT = (
    Arming("expected", "not_visible", "the net adjustment is never printed: it must be computed"),
    Arming("expected", "not_text_layer", "nor is it in the text layer"),
    Arming("forbidden", "not_visible", "the sum that treats credits as charges is not printed either"),
    Arming("meta:first_credit_text", "visible", "credits are printed with their leading sign"),
    Arming("meta:first_credit_text", "text_layer", "the sign is a real character in the text layer"),
)


def _amount(v: float) -> str:
    return f"{abs(v):,.2f}"


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    streams = Streams(seed, NAME)
    sign = GLYPHS[p["credit_glyph"]]
    nil = GLYPHS[p["nil_glyph"]]
    n_ch, n_cr, n_nil = p["charges"], p["credits"], p["nil_rows"]
    charges = [round(streams.of("charges").uniform(300, 5200), 2) for _ in range(n_ch)]
    credits = [round(streams.of("credits").uniform(120, 1800), 2) for _ in range(n_cr)]
    if sum(credits) + 50 > sum(charges):  # keep the net a charge: scale the credits down
        scale = (sum(charges) * 0.6) / sum(credits)
        credits = [round(v * scale, 2) for v in credits]
    net = round(sum(charges) - sum(credits), 2)
    misread = round(sum(charges) + sum(credits), 2)
    printed = {_amount(v) for v in charges + credits}
    if _amount(net) in printed or _amount(misread) in printed:
        raise GenerationError("the net adjustment equals a printed line; choose another seed")

    lines: list[tuple[str, float | None]] = (
        [(d, v) for d, v in zip(streams.of("charge_names").sample(CHARGES, n_ch), charges, strict=True)]
        + [(d, -v) for d, v in zip(streams.of("credit_names").sample(CREDITS, n_cr), credits, strict=True)]
        + [(d, None) for d in streams.of("nil_names").sample(NILS, n_nil)]
    )
    streams.of("line_order").shuffle(lines)
    vendor = kit.pick(streams.of("vendor"), kit.VENDORS)
    customer = kit.pick(streams.of("customer"), kit.CUSTOMERS)
    number = streams.of("account")
    account = f"{number.randint(100, 999)}-{number.randint(1000, 9999)}"


    # Vera has a real minus sign (U+2212); the standard PDF fonts do not.
    for name, bold in (("Vera", False), ("VeraBd", True)):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, kit._vera_path(bold)))
    regular, bold_font = "Vera", "VeraBd"

    width, height = kit.LETTER
    left, right = 56, width - 56
    c, buf = kit.new_canvas(title="Statement of adjustments")
    y = height - 64
    c.setFont(bold_font, 15)
    c.drawString(left, y, vendor)
    c.setFont(bold_font, 11.5)
    c.drawRightString(right, y, "STATEMENT OF ADJUSTMENTS")
    c.setFont(regular, 8.5)
    c.drawRightString(right, y - 14, "Period: 1 April - 30 June 2025")
    c.drawRightString(right, y - 26, f"Account no. {account}")
    c.drawString(left, y - 14, f"Customer: {customer}")
    y -= 56
    credit_word = GLYPH_NAMES[p["credit_glyph"]]
    legend = (
        f"How to read this statement: amounts are in USD. A credit to your account is shown with a leading "
        f"{credit_word} before the amount; every other amount is a charge. A line whose amount is shown as a "
        f"single {GLYPH_NAMES[p['nil_glyph']]} carries no amount. The net of all lines will be applied to your next "
        "invoice."
    )
    y = kit.draw_paragraph(c, legend, left, y, right - left, font=regular, size=8.5, leading=11.5) - 12
    cols = (left + 4, left + 74, left + 170, right - 4)
    c.setFillGray(0.88)
    c.rect(left, y - 6, right - left, 17, stroke=0, fill=1)
    c.setFillGray(0)
    c.setFont(bold_font, 8.5)
    for text, x in zip(("Date", "Reference", "Description"), cols, strict=False):
        c.drawString(x, y, text)
    c.drawRightString(cols[3], y, "Amount (USD)")
    y -= 20
    c.setFont(regular, 8.5)
    dates, refs = streams.of("dates"), streams.of("references")
    day = dates.randint(1, 5)
    first_credit = ""
    for k, (desc, value) in enumerate(lines):
        day += dates.randint(2, 8)
        month, dd = (4 + min(2, day // 30)), day % 30 + 1
        c.drawString(cols[0], y, f"{dd:02d}/{month:02d}/2025")
        c.drawString(cols[1], y, f"ADJ-{refs.randint(1000, 9999)}")
        c.drawString(cols[2], y, desc)
        if value is None:
            text = nil
        elif value < 0:
            text = f"{sign}{_amount(value)}"
            first_credit = first_credit or text
        else:
            text = _amount(value)
        c.drawRightString(cols[3], y, text)
        y -= 16
        if k < len(lines) - 1:
            c.setStrokeGray(0.85)
            c.line(left, y + 11, right, y + 11)
            c.setStrokeGray(0)
    c.setLineWidth(0.8)
    c.line(left, y + 10, right, y + 10)
    y -= 14
    c.setFont(regular, 8.5)
    c.drawString(left, y, f"Lines on this statement: {len(lines)}. Queries to credit control within 14 days, "
                          f"quoting account {account}.")
    kit.draw_footer_line(c, left, right, f"{vendor} - statement of adjustments - not a VAT invoice", font=regular)
    pdf = kit.finish(c, buf)

    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=(
                f"This statement of adjustments is for account {account}. What net amount will be added to the "
                "customer's next invoice once every line on it is applied? Respond with only the amount, "
                "including the currency symbol."
            ),
            expected_answer=kit.money(net),
            forbidden_answers=[kit.money(misread)],
            expected_failure_mode=(
                f"Reads the leading {credit_word} on credit lines as punctuation and adds the credits "
                f"({kit.money(misread)}) instead of deducting them, or counts the nil dash lines."
            ),
            metadata={
                "credit_glyph": sign, "nil_glyph": nil, "first_credit_text": first_credit,
                "charges": charges, "credits": credits, "net": net,
            },
        ),
    )
