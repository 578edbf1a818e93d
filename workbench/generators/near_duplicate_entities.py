"""An aged-debtors report listing two near-identical customers ("Meridian Ltd." and "Meridian Holdings Ltd.").

The question names one of them exactly; the other, a different legal entity with its own balance,
sits a few rows away. A reader that matches names loosely answers the wrong entity's balance.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import kit
from workbench.generators.base import AnswerKey, Arming, Generated, Param, Streams

NAME = "near_duplicate_entities"
VERSION = 2  # 2: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Aged-debtors report with two near-identical customer names and different balances"

STEMS = ("Meridian", "Northgate", "Calder", "Brightwater", "Ashford", "Kestrel", "Halcyon", "Redfern")
VARIANTS = {
    "holdings": "Holdings", "group": "Group", "international": "International",
    "services": "Services", "uk": "(UK)",
}
OTHERS = (
    "Abbott & Lyle Ltd.", "Bramley Foods Ltd.", "Carrick Engineering Ltd.", "Dunmore Logistics Ltd.",
    "Elmfield Dental Practice", "Fenwick Joinery Ltd.", "Greyfriars Hotel Ltd.", "Hartley Print Ltd.",
    "Ivel Valley Farms", "Juniper Architects LLP", "Kingsmead Motors Ltd.", "Lowther Estates Ltd.",
    "Marlow & Finch LLP", "Oakridge Care Homes Ltd.", "Pennine Plastics Ltd.", "Quayside Marine Ltd.",
)

PARAMS = (
    Param("stem", "str", STEMS[0], "the shared part of the two names", pool=STEMS, max=30),
    Param("variant", "choice", "holdings", "the word that tells the decoy entity apart",
          choices=tuple(VARIANTS)),
    Param("decoy_first", "bool", True, "list the decoy entity above the asked one"),
    Param("separation", "int", 0, "rows between the two near-identical entities", min=0, max=6),
    Param("other_rows", "int", 7, "other customers in the report", min=3, max=14),
)

CONTRACT = (
    Arming("expected", "visible", "the asked entity's balance is printed on its row"),
    Arming("expected", "text_layer", "the report is real text"),
    Arming("forbidden", "visible", "the near-duplicate entity's balance is printed on its row"),
    Arming("meta:target_entity", "visible", "the asked entity's exact name is printed"),
    Arming("meta:decoy_entity", "visible", "the near-duplicate name is printed"),
)


def _decoy_name(stem: str, variant: str) -> str:
    word = VARIANTS[variant]
    return f"{stem} {word} Ltd." if not word.startswith("(") else f"{stem} Ltd. {word}"


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    stem = p["stem"].strip()
    target = f"{stem} Ltd."
    decoy = _decoy_name(stem, p["variant"])
    streams = Streams(seed, NAME)
    others = streams.of("others").sample(OTHERS, p["other_rows"])
    gap = min(p["separation"], len(others))
    start = streams.of("pair_position").randint(0, len(others) - gap)
    pair = (decoy, target) if p["decoy_first"] else (target, decoy)
    names = others[:start] + [pair[0]] + others[start:start + gap] + [pair[1]] + others[start + gap:]

    rows = []
    seen: set[float] = set()
    for name in names:
        balance = streams.of(f"balance:{name}")  # each customer keeps its balance wherever its row is
        current = round(balance.uniform(300, 24000), 2)
        overdue = round(balance.uniform(0, 15000), 2) if balance.random() < 0.6 else 0.0
        total = round(current + overdue, 2)
        while total in seen:
            current = round(current + 0.11, 2)
            total = round(current + overdue, 2)
        seen.add(total)
        rows.append((name, current, overdue, total))
    by_name = {r[0]: r for r in rows}

    company = kit.pick(streams.of("company"), kit.VENDORS)
    width, height = kit.LETTER
    left, right = 56, width - 56
    c, buf = kit.new_canvas(title="Aged debtors report")
    y = height - 64
    c.setFont("Helvetica-Bold", 15)
    c.drawString(left, y, company)
    c.setFont("Helvetica-Bold", 12)
    c.drawRightString(right, y, "Aged Debtors Report")
    c.setFont("Helvetica", 9)
    c.drawRightString(right, y - 14, "As at 30 June 2025 - all amounts in USD")
    c.drawString(left, y - 14, "Credit Control")
    y -= 48
    cols = (left + 4, left + 68, right - 190, right - 100, right - 4)
    c.setFillGray(0.87)
    c.rect(left, y - 6, right - left, 18, stroke=0, fill=1)
    c.setFillGray(0)
    c.setFont("Helvetica-Bold", 9)
    c.drawString(cols[0], y, "Account")
    c.drawString(cols[1], y, "Customer")
    c.drawRightString(cols[2], y, "Current")
    c.drawRightString(cols[3], y, "Overdue")
    c.drawRightString(cols[4], y, "Total balance")
    y -= 20
    accounts = streams.of("accounts")
    acct = accounts.randint(10100, 10900)
    c.setFont("Helvetica", 9)
    for name, current, overdue, total in rows:
        acct += accounts.randint(3, 40)
        c.drawString(cols[0], y, f"C{acct}")
        c.drawString(cols[1], y, name)
        c.drawRightString(cols[2], y, kit.money(current))
        c.drawRightString(cols[3], y, kit.money(overdue) if overdue else "-")
        c.drawRightString(cols[4], y, kit.money(total))
        y -= 16
        c.setStrokeGray(0.85)
        c.line(left, y + 11, right, y + 11)
        c.setStrokeGray(0)
    c.setLineWidth(0.8)
    c.line(left, y + 10, right, y + 10)
    c.setFont("Helvetica-Bold", 9)
    c.drawString(cols[1], y - 4, f"Total ({len(rows)} accounts)")
    c.drawRightString(cols[2], y - 4, kit.money(sum(r[1] for r in rows)))
    c.drawRightString(cols[3], y - 4, kit.money(sum(r[2] for r in rows)))
    c.drawRightString(cols[4], y - 4, kit.money(sum(r[3] for r in rows)))
    y -= 36
    c.setFont("Helvetica", 8.5)
    for line in (
        "Balances are shown per legal entity and account. Group companies are invoiced and chased separately;",
        "do not offset balances between related entities without a signed netting agreement.",
        "Overdue = more than 30 days past the invoice due date.",
    ):
        c.drawString(left, y, line)
        y -= 12
    kit.draw_footer_line(c, left, right, f"{company} - Aged debtors - generated for month-end close", size=8, gray=0)
    pdf = kit.finish(c, buf)

    t_total, d_total = by_name[target][3], by_name[decoy][3]
    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=(
                f"You are in credit control at {kit.full_stop(company)} According to the aged debtors report, "
                f"what is the total balance owed by {target}? Respond with only the amount, including the "
                "currency symbol."
            ),
            expected_answer=kit.money(t_total),
            forbidden_answers=[kit.money(d_total)],
            expected_failure_mode=(
                f"Confuses {target} with the separate entity {decoy} and answers that entity's balance."
            ),
            metadata={"target_entity": target, "decoy_entity": decoy, "company": company},
        ),
    )
