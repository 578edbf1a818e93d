"""A report table whose header row ends page 1 while its rows continue on page 2.

The asked cell is on page 2. Unless the header repeats, the reader has to carry the column names
over the page break; a reader that loses the alignment answers a neighbouring column's value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import kit
from workbench.generators.base import AnswerKey, Arming, Generated, GenerationError, Param, Streams

NAME = "split_table_across_pages"
VERSION = 2  # 2: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Report table whose header ends page 1 and whose rows continue on page 2"

MONTHS = ("January", "February", "March", "April", "May", "June")
BRANCHES = (
    "Aberdeen", "Birmingham", "Bristol", "Cardiff", "Coventry", "Derby", "Edinburgh", "Exeter",
    "Glasgow", "Hull", "Leeds", "Leicester", "Liverpool", "Manchester", "Newcastle", "Norwich",
    "Nottingham", "Oxford", "Plymouth", "Sheffield", "Southampton", "York",
)

PARAMS = (
    Param("rows", "int", 8, "data rows in the table", min=4, max=16),
    Param("columns", "int", 5, "columns including the branch column (the others are months)", min=3, max=7),
    Param("asked_row", "int", 2, "which row on page 2 is asked (1 = first row there; counts round if past the last)",
          min=1, max=16),
    Param("asked_column", "int", 2, "which month column is asked (1 = first; counts round if past the last)",
          min=1, max=6),
    Param("rows_before_break", "int", 0, "data rows printed under the header on page 1 before the break",
          min=0, max=3),
    Param("repeat_header", "bool", False, "repeat the header row at the top of page 2"),
    Param("report_owner", "str", kit.VENDORS[1], "company whose report it is", pool=kit.VENDORS, max=60),
)

CONTRACT = (
    Arming("expected", "visible", "the asked cell is printed on page 2"),
    Arming("expected", "text_layer", "the table is real text"),
    Arming("forbidden", "visible", "the neighbouring cells are printed too"),
    Arming("meta:column_label", "visible", "the asked column's header is printed (on page 1)"),
    Arming("meta:row_label", "visible", "the asked row's branch name is printed (on page 2)"),
)

NARRATIVE = (
    "Trading across the branch network was broadly in line with the budget set in December. Footfall "
    "recovered after a weak first month, helped by the spring promotion and by longer opening hours at "
    "the larger sites.",
    "Gross margin held at the level reported last year despite higher freight costs. The pricing review "
    "completed in February has been applied to every branch, and its full effect will show from the "
    "third quarter.",
    "Staff costs rose by a little under four per cent, reflecting the annual pay award and the extra "
    "seasonal cover agreed with the branch managers. Absence rates fell for the second consecutive "
    "period.",
    "Two branches completed their refurbishment programmes during the period. Both traded from "
    "temporary premises for part of the time, which explains their lower figures in the affected months.",
    "Online orders collected in branch are recorded against the collecting branch. This accounts for "
    "some of the growth at the city-centre sites, where click-and-collect volumes are highest.",
    "The figures below are unaudited management accounts prepared on the same basis as in previous "
    "reports. They are stated after returns and before central overhead allocations.",
    "Inventory levels were reduced ahead of the summer range change, releasing working capital. "
    "Stock-outs stayed below one per cent of lines throughout the period.",
    "The board will review the branch estate at its next meeting, including the proposed relocation "
    "of two sites and the extension of the pilot self-checkout scheme.",
)


def _draw_row(c, cells: list[str], xs: list[float], y: float, bold: bool, size: float) -> None:
    c.setFont("Helvetica-Bold" if bold else "Helvetica", size)
    c.drawString(xs[0] + 4, y, cells[0])
    for cell, x in zip(cells[1:], xs[2:], strict=True):
        c.drawRightString(x - 6, y, cell)


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    n_rows = p["rows"]
    n_months = p["columns"] - 1
    before = min(p["rows_before_break"], n_rows - 1)
    on_p2 = n_rows - before
    asked_row = before + (p["asked_row"] - 1) % on_p2       # index into all rows
    asked_col = (p["asked_column"] - 1) % n_months           # index into month columns

    streams = Streams(seed, NAME)
    branches = sorted(streams.of("branches").sample(BRANCHES, n_rows))
    months = MONTHS[:n_months]
    values: list[list[float]] = []
    seen: set[float] = set()
    for branch in branches:
        revenue = streams.of(f"revenue:{branch}")  # the columns shown move no other branch's figures
        base = revenue.uniform(40_000, 180_000)
        row = []
        for _ in months:
            v = round(base * revenue.uniform(0.85, 1.15), 2)
            while v in seen:
                v = round(v + 0.37, 2)
            seen.add(v)
            row.append(v)
        values.append(row)
    expected = values[asked_row][asked_col]
    wrong_col = asked_col + 1 if asked_col + 1 < n_months else asked_col - 1
    forbidden = [values[asked_row][wrong_col]]
    wrong_row = asked_row + 1 if asked_row + 1 < n_rows else asked_row - 1
    if wrong_row >= before:  # a neighbouring row on page 2 as well
        forbidden.append(values[wrong_row][asked_col])

    owner = p["report_owner"]
    table_no = streams.of("table_no").randint(2, 6)
    caption = f"Table {table_no}. Net revenue by branch, {months[0]} to {months[-1]} 2025 (USD)"
    width, height = kit.LETTER
    left, right = 66, width - 66
    size, row_h = 9.5, 17.0
    xs = [left, left + 128]
    step = (right - xs[1]) / n_months
    xs += [xs[1] + step * (i + 1) for i in range(n_months)]
    header = ["Branch", *months]

    c, buf = kit.new_canvas(title=f"{owner} - Branch trading report")

    def page_frame(page: int) -> None:
        c.setFont("Helvetica", 8)
        c.setFillGray(0.35)
        c.drawString(left, height - 40, f"{owner}  |  Branch trading report, first half 2025")
        c.drawRightString(right, height - 40, "Management accounts - unaudited")
        c.drawString(left, 36, "Internal - not for distribution")
        c.drawRightString(right, 36, f"Page {page} of 2")
        c.setFillGray(0)

    def draw_header(y: float) -> None:
        c.setFillGray(0.88)
        c.rect(left, y - 5, right - left, row_h, stroke=0, fill=1)
        c.setFillGray(0)
        _draw_row(c, header, xs, y, True, size)

    def draw_data(i: int, y: float) -> None:
        if i % 2:
            c.setFillGray(0.96)
            c.rect(left, y - 5, right - left, row_h, stroke=0, fill=1)
            c.setFillGray(0)
        _draw_row(c, [branches[i], *(kit.money(v) for v in values[i])], xs, y, False, size)

    # Page 1: the report text, then the table anchored to the foot of the page.
    page_frame(1)
    y = height - 84
    c.setFont("Helvetica-Bold", 16)
    c.drawString(left, y, "Branch trading report: first half 2025")
    y -= 20
    c.setFont("Helvetica", 10)
    c.drawString(left, y, f"Prepared by Group Finance for the board of {owner}")
    y -= 28
    bottom = 64
    table_top = bottom + row_h * (before + 1) + 22   # caption baseline
    c.setFont("Helvetica-Bold", 11)
    c.drawString(left, y, "1. Summary")
    y -= 18
    paragraphs = streams.of("narrative").sample(NARRATIVE, len(NARRATIVE))
    for para in paragraphs:
        lines = kit.wrap(para, "Helvetica", 10, right - left)
        if y - 13.5 * len(lines) < table_top + 44:
            break
        y = kit.draw_paragraph(c, para, left, y, right - left, size=10, leading=13.5) - 8
    c.setFont("Helvetica", 10)
    c.drawString(left, table_top + 24, f"Net revenue for each branch, month by month, is set out in Table {table_no}.")
    c.setFont("Helvetica-Bold", 9.5)
    c.drawString(left, table_top, caption)
    ty = table_top - 22
    draw_header(ty)
    for i in range(before):
        ty -= row_h
        draw_data(i, ty)
    if ty < bottom - 1:
        raise GenerationError("the table head does not fit at the foot of page 1")
    c.showPage()

    # Page 2: the rest of the rows, then closing text.
    page_frame(2)
    ty = height - 80
    c.setFont("Helvetica-Oblique", 8.5)
    c.drawString(left, ty + 14, f"Table {table_no} (continued)")
    if p["repeat_header"]:
        draw_header(ty - 6)
        ty -= row_h + 6
    else:
        ty -= 6
    for i in range(before, n_rows):
        draw_data(i, ty)
        ty -= row_h
    c.setLineWidth(0.6)
    c.line(left, ty + row_h - 6, right, ty + row_h - 6)
    c.setFont("Helvetica", 7.5)
    c.drawString(left, ty, "Figures are net of returns and exclude VAT. Branches listed alphabetically.")
    y = ty - 30
    c.setFont("Helvetica-Bold", 11)
    c.drawString(left, y, "2. Outlook")
    y -= 18
    for para in paragraphs[-2:]:
        y = kit.draw_paragraph(c, para, left, y, right - left, size=10, leading=13.5) - 8
    pdf = kit.finish(c, buf)

    branch, month = branches[asked_row], months[asked_col]
    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=(
                f"From {owner}'s branch trading report: in Table {table_no}, what was the {month} net "
                f"revenue of the {branch} branch? Respond with only the amount, including the currency "
                "symbol."
            ),
            expected_answer=kit.money(expected),
            forbidden_answers=[kit.money(v) for v in forbidden],
            expected_failure_mode=(
                f"Loses the column alignment across the page break (the header is on page 1, the {branch} "
                "row on page 2) and answers a neighbouring cell."
            ),
            metadata={
                "row_label": branch, "column_label": month, "table_number": table_no,
                "header_page": 1, "row_page": 2, "rows_on_page_1": before,
                "repeat_header": p["repeat_header"],
            },
        ),
    )
