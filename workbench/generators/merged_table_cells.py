"""A price schedule whose region cells are merged across several plan rows.

Every region offers the same plans, and the region name is printed once, in a cell that spans its
plan rows. Which region a row belongs to is shown only by the span (its borders and position), so
a reader that takes the nearest label, or reads the text line by line, answers another region's fee.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import kit
from workbench.generators.base import AnswerKey, Arming, Generated, Param, Streams

NAME = "merged_table_cells"
VERSION = 3  # 3: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Price schedule whose region cells span several plan rows; the answer depends on the span"

REGIONS = ("North America", "Latin America", "Western Europe", "Central Europe", "Middle East", "Asia Pacific")
PLANS = ("Starter", "Standard", "Professional", "Premium", "Enterprise")
USERS = {"Starter": "10", "Standard": "50", "Professional": "150", "Premium": "500", "Enterprise": "Unlimited"}

PARAMS = (
    Param("groups", "int", 3, "regions in the table (each a merged cell)", min=2, max=5),
    Param("span", "int", 3, "plan rows each region cell spans", min=2, max=4),
    Param("asked_group", "int", 2, "which region is asked (1 = first; counts round past the last)", min=1, max=5),
    Param("asked_position", "int", 1, "which row inside the region's span is asked (1 = top; counts round)",
          min=1, max=4),
    Param("label_valign", "choice", "middle", "where the region name sits inside its merged cell",
          choices=("middle", "top", "bottom")),
    Param("vendor", "str", kit.VENDORS[3], "the vendor issuing the price schedule", pool=kit.VENDORS, max=60),
)

CONTRACT = (
    Arming("expected", "visible", "the asked fee is printed in the table"),
    Arming("expected", "text_layer", "the table is real text"),
    Arming("forbidden", "visible", "the same plan's fee in the neighbouring regions is printed too"),
    Arming("meta:region", "visible", "the region name is printed once, in its merged cell"),
)


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    n_groups, span = p["groups"], p["span"]
    g_ask = (p["asked_group"] - 1) % n_groups
    r_ask = (p["asked_position"] - 1) % span
    streams = Streams(seed, NAME)
    regions = streams.of("regions").sample(REGIONS, n_groups)
    first_plan = streams.of("plans").randint(0, len(PLANS) - span)
    plans = PLANS[first_plan:first_plan + span]
    fees: list[list[float]] = []
    seen: set[float] = set()
    for g in range(n_groups):
        group = streams.of(f"fees:{g}")  # its own stream: the span moves no other group's fees
        level = group.uniform(0.8, 1.25)
        row = []
        for k in range(span):
            v = round((2400 * (2.1 ** (first_plan + k))) * level * group.uniform(0.95, 1.05), 2)
            while v in seen:
                v = round(v + 1.25, 2)
            seen.add(v)
            row.append(v)
        fees.append(row)
    expected = fees[g_ask][r_ask]
    neighbours = [g for g in (g_ask - 1, g_ask + 1) if 0 <= g < n_groups]
    forbidden = [fees[g][r_ask] for g in neighbours]

    vendor = p["vendor"]
    customer = kit.pick(streams.of("customer"), kit.CUSTOMERS)
    quote_no = f"Q-{streams.of('quote_no').randint(20000, 89999)}"
    address = streams.of("address")
    width, height = kit.LETTER
    left, right = 60, width - 60
    c, buf = kit.new_canvas(title=f"{vendor} price schedule {quote_no}")
    y = height - 66
    c.setFont("Helvetica-Bold", 17)
    c.drawString(left, y, vendor)
    c.setFont("Helvetica", 9)
    c.drawString(left, y - 15, f"{address.randint(10, 900)} {kit.pick(address, kit.STREETS)}, {kit.pick(address, kit.CITIES)}")
    c.setFont("Helvetica-Bold", 13)
    c.drawRightString(right, y, "PRICE SCHEDULE")
    c.setFont("Helvetica", 9.5)
    c.drawRightString(right, y - 15, f"Quotation {quote_no}")
    c.drawRightString(right, y - 28, "Valid for 60 days from issue")
    y -= 70
    c.setFont("Helvetica", 10)
    c.drawString(left, y, f"Prepared for: {customer}")
    y -= 24
    y = kit.draw_paragraph(
        c, "Annual subscription fees depend on the region in which the licensed users are based. Fees are "
        "per organisation per year, billed annually in advance, and exclude applicable taxes. Each region "
        "offers the plans listed against it.", left, y, right - left, size=10, leading=13.5,
    ) - 14
    c.setFont("Helvetica-Bold", 10)
    c.drawString(left, y, "Schedule A. Annual subscription fees by region (USD)")
    y -= 12

    cols = [left, left + 150, left + 290, left + 390, right]
    row_h = 20.0 if n_groups * span <= 14 else 17.0
    c.setFillGray(0.86)
    c.rect(left, y - row_h, right - left, row_h, stroke=0, fill=1)
    c.setFillGray(0)
    c.setFont("Helvetica-Bold", 9.5)
    for text, x in zip(("Region", "Plan", "Users included"), cols, strict=False):
        c.drawString(x + 6, y - 14, text)
    c.drawRightString(right - 8, y - 14, "Annual fee")
    top = y
    y -= row_h
    c.setLineWidth(0.6)
    c.setFont("Helvetica", 9.5)
    for g, region in enumerate(regions):
        g_top = y
        for k, plan in enumerate(plans):
            base = y - 14
            c.drawString(cols[1] + 6, base, plan)
            c.drawString(cols[2] + 6, base, USERS[plan])
            c.drawRightString(right - 8, base, kit.money(fees[g][k]))
            y -= row_h
            if k < span - 1:  # inner rule: only across the unmerged columns
                c.setStrokeGray(0.7)
                c.line(cols[1], y, right, y)
                c.setStrokeGray(0)
        g_bottom = y
        valign = p["label_valign"]
        if valign == "top":
            ly = g_top - 14
        elif valign == "bottom":
            ly = g_bottom + 6
        else:
            ly = (g_top + g_bottom) / 2 - 3.5
        c.setFont("Helvetica-Bold", 9.5)
        c.drawString(cols[0] + 6, ly, region)
        c.setFont("Helvetica", 9.5)
        c.line(left, y, right, y)
    for x in cols:
        c.line(x, top, x, y)
    c.line(left, top, right, top)
    c.line(left, top - row_h, right, top - row_h)
    y -= 26
    notes = (
        "1. A region's fees apply to every plan row within that region's cell.",
        "2. Additional users are charged pro rata at the plan's per-user rate.",
        "3. Multi-year commitments attract a discount of 5% per additional year, up to 15%.",
    )
    c.setFont("Helvetica", 8.5)
    c.drawString(left, y, "Notes")
    for note in notes:
        y -= 12
        c.drawString(left + 8, y, note)
    y -= 30
    c.setFont("Helvetica", 9.5)
    if y > 60:
        c.drawString(left, y, f"Issued by {kit.pick(streams.of('issuer'), kit.PEOPLE)}, Account Director, on behalf of {vendor.rstrip('.')}.")
    kit.draw_footer_line(c, left, right, f"{vendor} - {quote_no} - Commercial in confidence", size=8, gray=0)
    pdf = kit.finish(c, buf)

    region, plan = regions[g_ask], plans[r_ask]
    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=(
                f"From {vendor}'s price schedule {quote_no}: what is the annual fee for the {plan} plan "
                f"in {region}? Respond with only the amount, including the currency symbol."
            ),
            expected_answer=kit.money(expected),
            forbidden_answers=[kit.money(v) for v in forbidden],
            expected_failure_mode=(
                f"Misreads the merged {region} cell's span and takes the {plan} fee of a neighbouring region."
            ),
            metadata={
                "region": region, "plan": plan, "quote_no": quote_no, "span_rows": span, "row_height": row_h,
                "label_valign": p["label_valign"],
            },
        ),
    )
