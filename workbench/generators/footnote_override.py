"""A contract whose small-print footnote overrides the figure stated in the body of a clause.

The body states one amount in full-size type; a footnote marker on that clause leads to a 6pt
note at the foot of the page that replaces it ("Notwithstanding clause 7.2, ..."). A reader who
skims the body answers the body's figure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from workbench.generators import kit
from workbench.generators.base import (
    AnswerKey,
    Arming,
    Generated,
    GenerationError,
    MatcherSpec,
    Param,
    Streams,
)

NAME = "footnote_override"
VERSION = 2  # 2: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Contract clause whose small footnote overrides the amount stated in the body"


@dataclass(frozen=True)
class Clause:
    """One clause template: its heading, the body sentence, the footnote sentence, the question
    (and the one that asks for the carve-outs), and the carve-outs the footnote may list (phrase,
    the token a correct answer must contain)."""

    heading: str
    body: str
    note: str
    carve_intro: str
    question: str
    carve_question: str
    carve_outs: tuple[tuple[str, str], ...]


CLAUSES: dict[str, Clause] = {
    "liability_cap": Clause(
        heading="Limitation of Liability",
        body=("Subject to clause {ref}, the Supplier's total aggregate liability arising out of or in "
              "connection with this Agreement, whether in contract, tort (including negligence) or "
              "otherwise, shall not exceed {value} in any Contract Year."),
        note=("Notwithstanding clause {ref}, the Supplier's total aggregate liability in any Contract "
              "Year shall not exceed {value}"),
        carve_intro=", save that no limit applies to liability for ",
        question=("What is the maximum aggregate liability of {supplier} in a Contract Year under "
                  "this agreement?"),
        carve_question=("What is the binding cap on the Supplier's aggregate liability in a Contract "
                        "Year, and which liabilities are excluded from the cap?"),
        carve_outs=(("fraud or fraudulent misrepresentation", "fraud"),
                    ("death or personal injury caused by negligence", "personal injury"),
                    ("breach of clause 11 (Confidentiality)", "confidentiality"),
                    ("wilful default or abandonment of the Services", "wilful default")),
    ),
    "minimum_commitment": Clause(
        heading="Minimum Commitment",
        body=("The Customer commits to purchase Services with a total value of not less than {value} "
              "in each Contract Year (the \"Minimum Commitment\"), any shortfall being invoiced under "
              "clause {ref}."),
        note=("For the purposes of clause {ref} the Minimum Commitment is {value} per Contract Year"),
        carve_intro=", excluding from the calculation ",
        question="What is the Customer's Minimum Commitment per Contract Year under this agreement?",
        carve_question=("What is the binding Minimum Commitment per Contract Year, and what is excluded "
                        "from its calculation?"),
        carve_outs=(("any period of suspension caused by the Supplier", "suspension"),
                    ("Services ordered under Schedule 4 (Pilot Services)", "pilot"),
                    ("pass-through expenses and taxes", "pass-through"),
                    ("credits issued for missed Service Levels", "service levels")),
    ),
    "termination_fee": Clause(
        heading="Termination for Convenience",
        body=("The Customer may terminate this Agreement for convenience on not less than ninety days' "
              "written notice, subject to payment of an early termination fee of {value}, as further "
              "described in clause {ref}."),
        note=("The early termination fee payable under clause {ref} is {value}"),
        carve_intro=", which is waived where the Customer terminates following ",
        question="What early termination fee must the Customer pay to terminate this agreement for convenience?",
        carve_question=("What early termination fee applies on termination for convenience, and in "
                        "which cases is it waived?"),
        carve_outs=(("a change of control of the Supplier", "change of control"),
                    ("a material breach by the Supplier", "material breach"),
                    ("an increase in the Charges above the agreed index", "index"),
                    ("the insolvency of the Supplier", "insolvency")),
    ),
    "security_deposit": Clause(
        heading="Security Deposit",
        body=("On or before the Commencement Date the Customer shall pay to the Supplier a refundable "
              "security deposit of {value}, to be held in accordance with clause {ref}."),
        note=("The security deposit required by clause {ref} is reduced to {value}"),
        carve_intro=", and no deposit is required where the Customer provides ",
        question="How much security deposit must the Customer pay under this agreement?",
        carve_question=("How much security deposit must the Customer pay, and which alternatives "
                        "remove the need for a deposit?"),
        carve_outs=(("a parent company guarantee", "parent company guarantee"),
                    ("an irrevocable standby letter of credit", "letter of credit"),
                    ("a performance bond from an approved insurer", "performance bond"),
                    ("payment of the first year's Charges in advance", "in advance")),
    ),
}

MARKERS = {"number": "1", "asterisk": "*", "dagger": "\u2020"}

PARAMS = (
    Param("clause", "choice", "liability_cap", "which clause the footnote overrides",
          choices=tuple(CLAUSES)),
    Param("footnote_size", "float", 6.0, "font size of the footnote in points", min=4.5, max=7.5, decimals=1),
    Param("carve_outs", "int", 0, "how many carve-outs the footnote lists (0 = none)", min=0, max=3),
    Param("ask_carve_outs", "bool", False,
          "ask for the carve-outs too (graded with tokens_all); ignored when carve_outs is 0"),
    Param("override_value", "int", 50000, "the footnote's amount in whole dollars: the binding value",
          min=5000, max=500000),
    Param("body_value", "int", 250000, "the amount the body states (the trap), in whole dollars",
          min=5000, max=500000),
    Param("marker", "choice", "number", "the footnote marker on the clause", choices=tuple(MARKERS)),
    Param("supplier", "str", kit.VENDORS[0], "the supplier party", pool=kit.VENDORS, max=60),
)

CONTRACT = (
    Arming("expected", "visible", "the footnote's amount is printed (small) at the foot of the page"),
    Arming("expected", "text_layer", "the footnote is real text"),
    Arming("forbidden", "visible", "the body's amount is printed in the clause"),
    Arming("forbidden", "text_layer", "the body's amount is real text"),
    Arming("meta:footnote_marker", "visible", "the clause carries a footnote marker"),
)

FILLER = (
    ("Definitions", "In this Agreement, capitalised terms have the meanings given in Schedule 1. "
     "References to clauses and Schedules are to the clauses of and Schedules to this Agreement."),
    ("Services", "The Supplier shall provide the Services described in Schedule 2 with reasonable skill "
     "and care, in accordance with Good Industry Practice and the Service Levels."),
    ("Charges and Invoicing", "The Customer shall pay the Charges set out in Schedule 3. The Supplier "
     "shall invoice monthly in arrears and each invoice is payable within thirty days of receipt."),
    ("Term", "This Agreement commences on the Commencement Date and continues for an initial term of "
     "thirty-six months, after which it renews for successive periods of twelve months."),
    ("Confidentiality", "Each party shall keep the other party's Confidential Information confidential "
     "and shall not use it except for the purpose of performing its obligations under this Agreement."),
    ("Data Protection", "Each party shall comply with all applicable Data Protection Legislation. The "
     "Supplier shall process Personal Data only on the documented instructions of the Customer."),
    ("Insurance", "The Supplier shall maintain in force professional indemnity and public liability "
     "insurance with a reputable insurer for the term of this Agreement and six years after."),
    ("Governing Law", "This Agreement and any dispute arising out of it shall be governed by the laws of "
     "England and Wales, and the parties submit to the exclusive jurisdiction of its courts."),
)


def _join_carve_outs(phrases: list[str]) -> str:
    if len(phrases) == 1:
        return phrases[0]
    labelled = [f"({chr(97 + i)}) {ph}" for i, ph in enumerate(phrases)]
    return "; ".join(labelled[:-1]) + "; or " + labelled[-1]


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    override = float(p["override_value"])
    body = float(p["body_value"])
    if override == body:
        raise GenerationError("override_value equals body_value: the footnote would not change anything")
    spec = CLAUSES[p["clause"]]
    streams = Streams(seed, NAME)
    supplier = p["supplier"]
    customer = kit.pick(streams.of("customer"), kit.CUSTOMERS)
    fn_size = p["footnote_size"]
    marker = MARKERS[p["marker"]]
    n_carve = p["carve_outs"]
    carve = streams.of("carve_outs").sample(list(spec.carve_outs), n_carve)
    ask_carve = p["ask_carve_outs"] and n_carve > 0

    fillers = streams.of("fillers").sample(FILLER, 7)
    target_pos = streams.of("target_clause").randint(2, 5)  # the overridden clause is the 3rd..6th clause
    clauses: list[tuple[str, str, bool]] = [(h, t, False) for h, t in fillers]
    clauses.insert(target_pos, (spec.heading, "", True))
    target_no = target_pos + 1
    ref = f"{target_no}.{streams.of('note_ref').randint(2, 4)}"
    body_text = spec.body.format(value=kit.money(body), ref=f"{target_no + streams.of('body_ref').randint(1, 3)}.1")
    note = spec.note.format(value=kit.money(override), ref=ref)
    if carve:
        note += spec.carve_intro + _join_carve_outs([c[0] for c in carve])
    note += "."

    date = streams.of("date")
    day = date.randint(1, 28)
    month = date.choice(["January", "March", "April", "June", "September", "October", "November"])
    c, buf = kit.new_canvas(title="Master Services Agreement")
    width, height = kit.LETTER
    left, right = 72, width - 72
    text_w = right - left
    y = height - 72
    c.setFont("Helvetica-Bold", 15)
    c.drawCentredString(width / 2, y, "MASTER SERVICES AGREEMENT")
    y -= 26
    y = kit.draw_paragraph(
        c, f"This Agreement is made on {day} {month} 2025 between {supplier} (the \"Supplier\") and "
        f"{customer} (the \"Customer\"), each a \"party\".", left, y, text_w, size=10,
    )
    y -= 8
    size = 10.0
    leading = 13.5
    for i, (heading, text, is_target) in enumerate(clauses, start=1):
        c.setFont("Helvetica-Bold", size)
        c.drawString(left, y, f"{i}.  {heading}")
        y -= leading
        if is_target:
            sub = f"{i}.{ref.split('.')[1]}"
            lines = kit.wrap(f"{sub}  {body_text}", "Helvetica", size, text_w - 8)
            c.setFont("Helvetica", size)
            for j, line in enumerate(lines):
                c.drawString(left, y, line)
                if j == len(lines) - 1:
                    # The marker sits raised after the clause's last word.
                    c.setFont("Helvetica", size * 0.65)
                    c.drawString(left + kit.text_width(line, "Helvetica", size) + 0.8, y + size * 0.38, marker)
                    c.setFont("Helvetica", size)
                y -= leading
        else:
            y = kit.draw_paragraph(c, f"{i}.1  {text}", left, y, text_w, size=size, leading=leading)
        y -= 6

    # The footnote, under a short rule above the page footer.
    fn_lead = fn_size * 1.25
    fn_lines = kit.wrap(note, "Helvetica", fn_size, text_w - 8)
    fy = 64 + fn_lead * len(fn_lines)
    if fy + 12 > y:
        raise GenerationError("the footnote does not fit on the page; use fewer carve-outs")
    c.setLineWidth(0.5)
    c.line(left, fy + fn_size + 4, left + 120, fy + fn_size + 4)
    c.setFont("Helvetica", fn_size * 0.7)
    c.drawString(left, fy + fn_size * 0.35, marker)
    c.setFont("Helvetica", fn_size)
    for line in fn_lines:
        c.drawString(left + 6, fy, line)
        fy -= fn_lead
    kit.draw_footer_line(c, left, right, f"{supplier} / {customer} - Master Services Agreement", size=8, gray=0)
    pdf = kit.finish(c, buf)

    question = (spec.carve_question if ask_carve else spec.question).format(supplier=supplier)
    if ask_carve:
        question += " Respond with only the amount and the exclusions, separated by semicolons."
        tokens = [kit.money(override), *(tok for _, tok in carve)]
        matcher = MatcherSpec("tokens_all")
    else:
        question += " Respond with only the amount, including the currency symbol."
        tokens = []
        matcher = MatcherSpec("contains")
    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=f"You are reviewing a contract for {kit.full_stop(customer)} {question}",
            expected_answer=kit.money(override),
            expected_tokens=tokens,
            forbidden_answers=[kit.money(body)],
            expected_failure_mode=(
                f"Answers the amount stated in the body of clause {target_no} ({kit.money(body)}) and misses "
                f"the {fn_size:g}pt footnote at the foot of the page that overrides it."
            ),
            matcher=matcher,
            metadata={
                "clause_number": target_no, "footnote_text": note, "footnote_marker": marker,
                "footnote_size": fn_size, "body_amount": body, "override_amount": override,
                "carve_outs": [ph for ph, _ in carve], "supplier": supplier, "customer": customer,
            },
        ),
    )
