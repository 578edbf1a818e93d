"""An accounts-payable review sheet with several versions of one invoice; a printed check-digit rule picks the genuine one.

Every version looks equally official and differs only in its payment reference, bank details and
amount. The page states the supplier's check-digit rule; exactly one reference passes it. A reader
that does not apply the rule digit by digit pays the first, or the most plausible-looking, version.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import kit
from workbench.generators.base import AnswerKey, Arming, Generated, Param, Streams

NAME = "checksum_rule"
VERSION = 2  # 2: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Several versions of one invoice; a printed check-digit rule selects the genuine one"

RULES = {
    "digit_sum_mod10": (
        "The last digit of a genuine payment reference equals the sum of all its other digits, modulo 10 "
        "(the remainder after dividing that sum by 10)."
    ),
    "weights_3_1": (
        "Multiply the digits before the last one alternately by 3 and 1, starting with 3 for the first "
        "digit, and add the results. The last digit of a genuine reference is the amount needed to bring "
        "that total up to the next multiple of 10 (0 if it already is one)."
    ),
    "luhn": (
        "Genuine references pass the Luhn check: starting from the last digit and moving left, double every "
        "second digit (subtracting 9 from any result above 9), then add all the digits together. The total "
        "must be a multiple of 10."
    ),
}

PARAMS = (
    Param("candidates", "int", 4, "versions of the invoice on the sheet", min=3, max=6),
    Param("rule", "choice", "digit_sum_mod10", "the printed check-digit rule", choices=tuple(RULES)),
    Param("valid_position", "int", 3, "which version is genuine (1 = first; counts round past the last)",
          min=1, max=6),
    Param("digits", "int", 8, "digits in a payment reference, check digit included", min=6, max=10),
    Param("near_miss", "bool", True, "make every false reference's check digit off by exactly one"),
)

CONTRACT = (
    Arming("expected", "visible", "the genuine version's amount is printed"),
    Arming("expected", "text_layer", "the sheet is real text"),
    Arming("forbidden", "visible", "the other versions' amounts are printed too"),
    Arming("meta:valid_reference", "visible", "the reference that passes the rule is printed"),
)


def check_digit(rule: str, body: str) -> int:
    """The digit that makes `body` + digit a genuine reference under `rule`."""
    digits = [int(d) for d in body]
    if rule == "digit_sum_mod10":
        return sum(digits) % 10
    if rule == "weights_3_1":
        total = sum(d * (3 if i % 2 == 0 else 1) for i, d in enumerate(digits))
        return (10 - total % 10) % 10
    total = 0
    for i, d in enumerate(reversed(digits)):  # the check digit will sit to the right: double from here
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return (10 - total % 10) % 10


def is_valid(rule: str, reference: str) -> bool:
    return check_digit(rule, reference[:-1]) == int(reference[-1])


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    streams = Streams(seed, NAME)
    rule = p["rule"]
    n = p["candidates"]
    n_digits = p["digits"]
    valid_i = (p["valid_position"] - 1) % n
    drawn, body_digits, check = streams.of("amounts"), streams.of("references"), streams.of("check_digits")
    base_amount = drawn.uniform(2000, 60000)

    refs: list[str] = []
    amounts: list[float] = []
    texts: set[str] = set()
    for i in range(n):
        body = str(body_digits.randint(1, 9)) + "".join(str(body_digits.randint(0, 9)) for _ in range(n_digits - 2))
        good = check_digit(rule, body)
        if i == valid_i:
            digit = good
        elif p["near_miss"]:
            digit = (good + check.choice((1, 9))) % 10
        else:
            digit = check.choice([d for d in range(10) if d != good])
        refs.append(body + str(digit))
        while True:
            amount = round(base_amount * drawn.uniform(0.9, 1.1), 2)
            text = kit.money(amount)
            if not any(text in t or t in text for t in texts):
                break
        texts.add(text)
        amounts.append(amount)
    assert [is_valid(rule, r) for r in refs].count(True) == 1

    vendor = kit.pick(streams.of("vendor"), kit.VENDORS)
    company = kit.pick(streams.of("company"), kit.CUSTOMERS)
    inv_no = f"INV-{streams.of('invoice_no').randint(40000, 99999)}"
    width, height = kit.LETTER
    left, right = 56, width - 56
    c, buf = kit.new_canvas(title=f"Duplicate invoice review {inv_no}")
    y = height - 62
    c.setFont("Helvetica-Bold", 14)
    c.drawString(left, y, company)
    c.setFont("Helvetica-Bold", 11)
    c.drawRightString(right, y, "Accounts Payable - Duplicate Invoice Review")
    c.setFont("Helvetica", 8.5)
    c.drawRightString(right, y - 14, f"Case AP-{streams.of('case_no').randint(1000, 9999)}  |  prepared by {kit.pick(streams.of('preparer'), kit.PEOPLE)}")
    y -= 40
    intro = (
        f"We have received {n} versions of invoice {inv_no} from {vendor}, each with a different payment "
        "reference, bank account and amount. Only one version is genuine; the others are to be rejected and "
        f"reported. {vendor} issues payment references with a check digit, as confirmed in their letter "
        "of 3 March 2025:"
    )
    y = kit.draw_paragraph(c, intro, left, y, right - left, size=9.5, leading=12.8) - 6
    rule_lines = kit.wrap(RULES[rule], "Helvetica-Oblique", 9.5, right - left - 36)
    box_h = 12.8 * len(rule_lines) + 12
    c.setFillGray(0.95)
    c.rect(left + 10, y - box_h + 12, right - left - 20, box_h, stroke=0, fill=1)
    c.setFillGray(0)
    c.setFont("Helvetica-Oblique", 9.5)
    ry = y
    for line in rule_lines:
        c.drawString(left + 18, ry, line)
        ry -= 12.8
    y -= box_h + 14

    box_w = (right - left - 14) / 2
    received, account = streams.of("received"), streams.of("accounts")
    slip_h = 92
    for i in range(n):
        col, row = i % 2, i // 2
        x0 = left + col * (box_w + 14)
        top = y - row * (slip_h + 12)
        c.setLineWidth(0.7)
        c.rect(x0, top - slip_h, box_w, slip_h, stroke=1, fill=0)
        c.setFillGray(0.9)
        c.rect(x0, top - 18, box_w, 18, stroke=0, fill=1)
        c.setFillGray(0)
        c.setFont("Helvetica-Bold", 9.5)
        c.drawString(x0 + 8, top - 13, f"Version {chr(65 + i)}")
        c.setFont("Helvetica", 8)
        c.drawRightString(x0 + box_w - 8, top - 13, f"received {received.randint(2, 27)}/0{received.randint(4, 6)}/2025 by "
                                                    f"{received.choice(('email', 'post', 'supplier portal'))}")
        fields = (
            ("Invoice no.", inv_no),
            ("Payment reference", refs[i]),
            ("Pay to account", f"{account.randint(10, 99)}-{account.randint(10, 99)}-{account.randint(10, 99)} "
                               f"{account.randint(10000000, 99999999)}"),
            ("Amount due", kit.money(amounts[i])),
        )
        fy = top - 34
        for label, value in fields:
            c.setFont("Helvetica", 8.5)
            c.drawString(x0 + 8, fy, label)
            c.setFont("Helvetica-Bold" if label in ("Amount due", "Payment reference") else "Helvetica", 9)
            c.drawString(x0 + 104, fy, value)
            fy -= 15
    rows = (n + 1) // 2
    y -= rows * (slip_h + 12) + 10
    c.setFont("Helvetica", 9)
    y = kit.draw_paragraph(
        c, "Action: pay the genuine version only, by the normal payment run. Do not contact the supplier using "
           "details printed on any version; use the contact details held in the vendor master file.",
        left, y, right - left, size=9, leading=12,
    )
    kit.draw_footer_line(c, left, right, f"{company.rstrip('.')} - internal - fraud prevention procedure FP-4")
    pdf = kit.finish(c, buf)

    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=(
                f"You work in accounts payable at {kit.full_stop(company)} Using the check-digit rule on this review "
                f"sheet, how much should be paid for invoice {inv_no} (the genuine version only)? Respond with "
                "only the amount, including the currency symbol."
            ),
            expected_answer=kit.money(amounts[valid_i]),
            forbidden_answers=[kit.money(a) for i, a in enumerate(amounts) if i != valid_i],
            expected_failure_mode=(
                "Does not apply the printed check-digit rule digit by digit and pays a version whose reference "
                "fails it (often the first listed, or one whose check digit is off by one)."
            ),
            metadata={
                "rule": rule, "references": refs, "valid_reference": refs[valid_i],
                "valid_version": chr(65 + valid_i), "invoice_no": inv_no, "vendor": vendor,
            },
        ),
    )
