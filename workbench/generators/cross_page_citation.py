"""An agreement whose payment clause cites a fee defined pages earlier, with a decoy amount beside it.

Page 1 defines the "Monthly Service Fee". Several pages later the payment clause says the Customer
pays that fee "as defined in clause 1.1", and the same paragraph mentions another monthly amount
(a pilot fee, an illustration, or the old contract's fee). A reader that stays on the page answers
the amount beside the reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import kit
from workbench.generators.base import AnswerKey, Arming, Generated, Param, Streams

NAME = "cross_page_citation"
VERSION = 4  # 4: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Fee defined on page 1 and cited many pages later, with a decoy amount beside the citation"

DECOYS = {
    "pilot_fee": ("During the Pilot Period the Supplier charged a reduced fee of {decoy} per month; that "
                  "reduced fee ceased to apply on the Go-Live Date."),
    "example": ("By way of illustration only, a fee of {decoy} per month paid thirty days late would "
                "attract interest calculated under clause {interest}."),
    "previous_fee": ("The Monthly Service Fee replaces the fee of {decoy} per month that was payable under "
                     "the parties' previous agreement, which terminates on the Commencement Date."),
}

HEADINGS = (
    "Supply of the Services", "Service Levels", "Customer Obligations", "Personnel", "Subcontracting",
    "Change Control", "Intellectual Property", "Confidentiality", "Data Protection", "Security",
    "Audit", "Warranties", "Indemnities", "Insurance", "Force Majeure", "Term and Renewal",
    "Termination", "Consequences of Termination", "Exit Assistance", "Dispute Resolution", "Notices",
    "Assignment", "Anti-Bribery", "Entire Agreement", "Variation", "Waiver", "Severance",
    "Third Party Rights", "Counterparts", "Governing Law",
)
SENTENCES = (
    "Each party shall perform its obligations under this clause in accordance with Good Industry Practice.",
    "The Supplier shall notify the Customer promptly, and in any event within five Business Days, of any "
    "matter that may affect its ability to comply with this clause.",
    "Nothing in this clause limits any other right or remedy available to either party under this Agreement.",
    "The Customer shall provide such information and access to its premises as the Supplier reasonably "
    "requires for this purpose.",
    "Any costs incurred under this clause shall be borne by the party incurring them unless otherwise agreed "
    "in writing.",
    "The obligations in this clause survive termination or expiry of this Agreement for a period of two years.",
    "Where this clause requires consent, that consent shall not be unreasonably withheld, conditioned or "
    "delayed.",
    "The Supplier shall keep complete and accurate records of its performance of this clause and shall make "
    "them available to the Customer on request.",
    "A party that becomes aware of a breach of this clause shall take all reasonable steps to mitigate its "
    "effects.",
    "The parties shall meet at least once each quarter to review the operation of this clause.",
    "Any dispute about the application of this clause shall be resolved under the Dispute Resolution "
    "Procedure.",
    "The Supplier remains responsible for the acts and omissions of its subcontractors as if they were its own.",
    "Notice under this clause shall be given in writing to the address set out in Schedule 1.",
    "The Customer may, acting reasonably, issue written instructions to the Supplier in relation to this "
    "clause.",
)
OTHER_DEFINITIONS = (
    ("Business Day", "a day other than a Saturday, Sunday or public holiday in England."),
    ("Commencement Date", "the date on which this Agreement has been signed by both parties."),
    ("Go-Live Date", "the date on which the Services are first used by the Customer in live operation."),
    ("Pilot Period", "the period of up to three months before the Go-Live Date."),
    ("Service Levels", "the service levels set out in Schedule 2."),
    ("Services", "the managed services described in Schedule 3."),
    ("Contract Year", "each period of twelve months starting on the Commencement Date or an anniversary "
                      "of it."),
)

PARAMS = (
    Param("pages", "int", 6, "pages in the agreement", min=4, max=10),
    Param("reference_page", "int", 5,
          "page of the payment clause citing the definition (3 or later; counts round past the last page)",
          min=3, max=10),
    Param("decoy", "choice", "pilot_fee", "what the amount printed beside the citation is",
          choices=tuple(DECOYS)),
    Param("fee", "float", 8450.0, "the Monthly Service Fee defined on page 1 (the answer)", min=1000,
          max=60000),
)

CONTRACT = (
    Arming("expected", "visible", "the fee is printed in the definitions on page 1"),
    Arming("expected", "text_layer", "the agreement is real text"),
    Arming("forbidden", "visible", "the decoy amount is printed beside the citation"),
    Arming("forbidden", "text_layer", "the decoy is real text"),
    Arming("meta:defined_term", "visible", "the defined term is printed where it is defined and cited"),
)

BODY, LEAD = 9.5, 12.8


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    n_pages = p["pages"]
    ref_page = 3 + (p["reference_page"] - 3) % (n_pages - 2)
    fee = round(p["fee"], 2)
    streams = Streams(seed, NAME)
    decoy_factor = streams.of("decoy_amount")
    factor = decoy_factor.choice((decoy_factor.uniform(0.45, 0.85), decoy_factor.uniform(1.15, 1.6)))
    decoy_amount = round(fee * factor, 2)
    supplier = kit.pick(streams.of("supplier"), kit.VENDORS)
    customer = kit.pick(streams.of("customer"), kit.CUSTOMERS)
    term = "Monthly Service Fee"
    width, height = kit.LETTER
    left, right = 72, width - 72
    text_w = right - left
    c, buf = kit.new_canvas(title="Managed Services Agreement")

    def frame(page: int) -> float:
        c.setFont("Helvetica", 7.5)
        c.setFillGray(0.35)
        c.drawString(left, height - 42, f"Managed Services Agreement - {supplier} and {customer}")
        c.drawRightString(right, 40, f"Page {page} of {n_pages}")
        c.drawString(left, 40, "Execution version")
        c.setFillGray(0)
        return height - 72

    wrapped: dict[str, list[str]] = {}  # the same sentences recur: wrap each paragraph once

    def wrap(text: str) -> list[str]:
        if text not in wrapped:
            wrapped[text] = kit.wrap(text, "Helvetica", BODY, text_w)
        return wrapped[text]

    def clause(y: float, number: int, heading: str, paras: list[str]) -> float:
        c.setFont("Helvetica-Bold", BODY + 0.5)
        c.drawString(left, y, f"{number}.  {heading.upper()}")
        y -= LEAD + 3
        c.setFont("Helvetica", BODY)
        for k, para in enumerate(paras, start=1):
            for line in wrap(f"{number}.{k}  {para}"):
                c.drawString(left, y, line)
                y -= LEAD
            y -= 4
        return y - 8

    def clause_height(number: int, paras: list[str]) -> float:
        lines = sum(len(wrap(f"{number}.{k}  {t}")) for k, t in enumerate(paras, start=1))
        return LEAD + 3 + lines * LEAD + 4 * len(paras) + 8

    # Page 1: parties and definitions.
    y = frame(1)
    c.setFont("Helvetica-Bold", 15)
    c.drawCentredString(width / 2, y - 6, "MANAGED SERVICES AGREEMENT")
    y -= 34
    date = streams.of("date")
    y = kit.draw_paragraph(
        c, f"THIS AGREEMENT is dated {date.randint(1, 28)} {date.choice(('March', 'May', 'July', 'October'))} 2025 "
        f"and is made between {supplier} (the \"Supplier\") and {customer} (the \"Customer\").",
        left, y, text_w, size=BODY, leading=LEAD,
    ) - 10
    definitions = streams.of("definitions")
    defs = list(definitions.sample(OTHER_DEFINITIONS, 5))
    defs.insert(definitions.randint(1, 4), (term, f"{kit.money(fee)} per month, exclusive of VAT, as adjusted under "
                                          "clause 1.3."))
    defs.sort(key=lambda d: d[0])
    def_paras = ["In this Agreement the following definitions apply:"]
    def_paras += [f"\"{name}\" means {meaning}" for name, meaning in defs]
    c.setFont("Helvetica-Bold", BODY + 0.5)
    c.drawString(left, y, "1.  DEFINITIONS AND INTERPRETATION")
    y -= LEAD + 3
    y = kit.draw_paragraph(c, f"1.1  {def_paras[0]}", left, y, text_w, size=BODY, leading=LEAD) - 4
    for para in def_paras[1:]:
        y = kit.draw_paragraph(c, para, left + 18, y, text_w - 18, size=BODY, leading=LEAD) - 3
    y -= 2
    y = kit.draw_paragraph(c, "1.2  Headings do not affect the interpretation of this Agreement. Words in the "
                              "singular include the plural and vice versa.", left, y, text_w, size=BODY,
                           leading=LEAD) - 4
    y = kit.draw_paragraph(c, "1.3  On each anniversary of the Commencement Date the Monthly Service Fee may be "
                              "increased by no more than the annual change in the Consumer Prices Index.",
                           left, y, text_w, size=BODY, leading=LEAD) - 12

    headings = list(streams.of("headings").sample(HEADINGS, len(HEADINGS)))
    clauses = streams.of("clauses")
    fillers: list[tuple[str, list[str]]] = []

    def filler(i: int) -> tuple[str, list[str]]:
        """The i-th clause that is not the fee clause, drawn once, whichever page it lands on."""
        while len(fillers) <= i:
            sentences = clauses.sample(SENTENCES, 2 * clauses.randint(2, 3))  # no sentence twice in a clause
            fillers.append((headings[len(fillers) % len(headings)],
                            [" ".join(sentences[k:k + 2]) for k in range(0, len(sentences), 2)]))
        return fillers[i]

    number = 2
    page = 1
    fee_clause_no = 0
    bottom = 70
    while page <= n_pages:
        if page == ref_page and not fee_clause_no:
            interest = f"{number}.4"
            paras = [
                f"In consideration of the provision of the Services, the Customer shall pay the Supplier the {term} "
                "(as defined in clause 1.1) monthly in advance, starting on the Go-Live Date.",
                DECOYS[p["decoy"]].format(decoy=kit.money(decoy_amount), interest=interest),
                "The Supplier shall invoice the Customer on or after the first Business Day of each month. Each "
                "valid invoice is payable within thirty days of receipt.",
                "Interest on late payments accrues daily at four per cent a year above the Bank of England base "
                "rate from the due date until payment in full.",
            ]
            heading = "Charges and Payment"
        else:
            heading, paras = filler(number - 2 - (1 if fee_clause_no else 0))
        if y - clause_height(number, paras) < bottom:
            if page == n_pages:
                break
            c.showPage()
            page += 1
            y = frame(page)
            continue
        y = clause(y, number, heading, paras)
        if heading == "Charges and Payment":
            fee_clause_no = number
        number += 1
    if page == n_pages:
        y -= 6
        c.setFont("Helvetica", BODY)
        c.drawString(left, max(y, bottom + 30), "Signed for and on behalf of the Supplier ______________    "
                                                 "Signed for and on behalf of the Customer ______________")
    pdf = kit.finish(c, buf)

    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=(
                f"Under clause {fee_clause_no} of this agreement between {supplier} and {customer.rstrip('.')}, "
                "how much must the Customer pay the Supplier each month? Respond with only the amount, "
                "including the currency symbol."
            ),
            expected_answer=kit.money(fee),
            forbidden_answers=[kit.money(decoy_amount)],
            expected_failure_mode=(
                f"Reads clause {fee_clause_no} on page {ref_page} alone and answers the {kit.money(decoy_amount)} "
                f"printed beside the citation, instead of following it to the definition on page 1."
            ),
            metadata={
                "defined_term": term, "definition_page": 1, "reference_page": ref_page,
                "reference_clause": fee_clause_no, "decoy_kind": p["decoy"],
            },
        ),
    )
