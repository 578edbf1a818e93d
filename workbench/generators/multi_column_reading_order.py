"""A two-column newsletter where reading straight across the columns pairs a sentence with the wrong amount.

The left column's sentence breaks just before its amount ("... for Corporate members will be" /
"$X from 1 July"); on the same line of the right column another amount starts a line. Read across
the page, or from a text layer drawn row by row, the sentence ends with the right column's amount.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import kit
from workbench.generators.base import AnswerKey, Arming, Generated, Param, Streams

NAME = "multi_column_reading_order"
VERSION = 2  # 2: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Two-column newsletter whose across-the-page reading order pairs a sentence with the wrong amount"

CLASSES = ("Corporate", "Fellow", "Chartered", "Associate", "Affiliate", "Student", "Retired", "Overseas")
ASSOCIATIONS = (
    "Institute of Facilities Managers", "Society of Procurement Professionals", "Guild of Data Analysts",
    "Association of Logistics Engineers", "Chartered Body of Payroll Administrators",
)
FILLER = (
    "The spring conference drew a record attendance, with more than four hundred members joining the "
    "sessions in person and online. Recordings of the keynote talks are now available in the members' area.",
    "Our regional groups continue to meet monthly. New convenors have been appointed in the North West and "
    "in Scotland, and both groups are looking for volunteers to help plan next season's programme.",
    "The continuing professional development scheme has been simplified. Members now record their hours "
    "online, and the annual declaration can be completed in a few minutes from any device.",
    "Thank you to everyone who answered the member survey. Your responses will shape the training "
    "calendar for next year, and a summary of the results will appear in the autumn issue.",
    "The library has added more than sixty titles this quarter, including the new edition of the standard "
    "practice guide. Members may borrow up to five items at a time by post.",
    "Nominations for the annual awards close at the end of August. Awards recognise outstanding projects, "
    "early-career achievement and long service to the profession.",
    "The mentoring programme has matched forty new pairs this year. If you would like to become a mentor, "
    "the next induction session is online in September.",
    "Renewal reminders will be sent by email in early June. Please check that your contact details are up "
    "to date in the members' area so that your reminder reaches you.",
    "The council welcomes three newly elected members, who take office at the annual general meeting. "
    "Their biographies and election statements are published on the website.",
    "Our journal is moving to a fully online edition from the autumn. Members who still wish to receive a "
    "printed copy can opt in from their profile page at no extra cost.",
    "The careers service now offers one-to-one sessions with an adviser, free of charge to members at every "
    "grade. Sessions can be booked online and take place by video call.",
)

EVENTS = (
    "9 September - Regional group evening, Leeds", "16 September - CPD webinar: contract basics",
    "24 September - Council meeting (open session)", "2 October - New members' welcome, online",
    "10 October - Regional group evening, Bristol", "21 October - Annual awards shortlist published",
    "5 November - Autumn seminar, London", "19 November - Mentoring induction, online",
    "3 December - Regional group evening, Glasgow", "10 December - Awards dinner",
)

PARAMS = (
    Param("draw_order", "choice", "interleaved",
          "order of text in the PDF: row by row across both columns (interleaved) or column by column",
          choices=("interleaved", "by_column")),
    Param("gutter", "float", 22.0, "gap between the columns in points", min=12, max=40, decimals=1),
    Param("font_size", "float", 9.5, "body font size in points", min=8.5, max=11, decimals=1),
    Param("column_rule", "bool", False, "draw a vertical rule between the columns"),
)

CONTRACT = (
    Arming("expected", "visible", "the left column's amount is printed at the start of its line"),
    Arming("expected", "text_layer", "the newsletter is real text"),
    Arming("forbidden", "visible", "the right column's amount is printed level with the broken sentence"),
    Arming("forbidden", "text_layer", "the decoy is real text"),
)


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    streams = Streams(seed, NAME)
    size = p["font_size"]
    lead = round(size * 1.38, 2)
    gutter = p["gutter"]
    assoc = kit.pick(streams.of("association"), ASSOCIATIONS)
    cls_a, cls_b = streams.of("classes").sample(CLASSES, 2)
    fees = streams.of("fees")
    fee_a = round(fees.uniform(90, 900), 2)
    fee_b = round(fee_a * fees.choice((fees.uniform(0.4, 0.8), fees.uniform(1.25, 1.9))), 2)
    x_txt, y_txt = kit.money(fee_a), kit.money(fee_b)

    width, height = kit.LETTER
    left, right = 54, width - 54
    col_w = (right - left - gutter) / 2
    xs = (left, left + col_w + gutter)
    font = "Helvetica"

    def wrap(text: str) -> list[str]:
        return kit.wrap(text, font, size, col_w)

    def broken(before: str, after: str) -> tuple[list[str], list[str]]:
        """A paragraph forced to break between `before` and `after`."""
        return wrap(before), wrap(after)

    pool = streams.of("news").sample(FILLER, len(FILLER))
    # Left column: two paragraphs, a heading, then the fee paragraph broken before the amount.
    left_lines: list[tuple[str, str]] = []   # (style, text)
    for para in pool[:2]:
        left_lines += [("body", t) for t in wrap(para)] + [("gap", "")]
    left_lines.append(("head", "Subscription fees"))
    pre_a, post_a = broken(
        f"Following the council's annual review, the subscription for {cls_a} members will be",
        f"{x_txt} from 1 July 2025, payable by direct debit or card. Members who pay by direct debit "
        "need take no action: the new amount will be collected automatically.",
    )
    left_lines += [("body", t) for t in pre_a]
    break_row = len(left_lines) - 1           # the row whose line ends "... will be"
    left_lines += [("body", t) for t in post_a] + [("gap", "")]

    # Right column: paragraphs, a heading, then a paragraph broken so that its amount opens the line
    # level with the left column's broken line.
    pre_b, post_b = broken(
        f"There is no change for {cls_b} members this year. Their subscription remains",
        f"{y_txt} a year, including the quarterly journal and reduced rates at all events run by the "
        "council and the regional groups.",
    )
    tail = [("head", "Other membership grades"), *(("body", t) for t in pre_b)]
    right_lines: list[tuple[str, str]] = []
    rest = pool[2:]
    while rest and len(right_lines) + len(wrap(rest[0])) + 1 + len(tail) <= break_row:
        right_lines += [("body", t) for t in wrap(rest.pop(0))] + [("gap", "")]
    if not right_lines:
        right_lines += [("body", t) for t in wrap(rest.pop(0))] + [("gap", "")]
    want = break_row - len(right_lines) - len(tail)   # rows still to fill before the heading
    if want >= 3:  # fill the space with a short events list, one event a line
        events = streams.of("events").sample(EVENTS, min(len(EVENTS), want - 2))
        right_lines += [("head", "Dates for your diary"), *(("body", e) for e in events)]
        right_lines += [("gap", "")] * (want - 1 - len(events))
    elif want >= 0:
        right_lines += [("gap", "")] * want
    else:
        insert_at = len(wrap(pool[0])) + 1
        left_lines[insert_at:insert_at] = [("gap", "")] * (-want)
        break_row += -want
    right_lines += tail
    right_lines += [("body", t) for t in post_b] + [("gap", "")]
    assert right_lines[break_row][1].startswith(y_txt)
    # Both columns run on with the remaining news.
    max_rows = int((height - 130 - 60) / lead)  # from the first column line down to the footer
    for para in rest:
        lines = left_lines if len(left_lines) <= len(right_lines) else right_lines
        if len(lines) + len(wrap(para)) <= max_rows:
            lines += [("body", t) for t in wrap(para)] + [("gap", "")]

    c, buf = kit.new_canvas(title=f"{assoc} - Members' newsletter")
    y = height - 58
    c.setFont("Helvetica-Bold", 19)
    c.drawString(left, y, assoc)
    c.setFont("Helvetica", 10)
    c.drawString(left, y - 17, "Members' newsletter  |  Summer 2025  |  Issue 58")
    c.setLineWidth(1.4)
    c.line(left, y - 26, right, y - 26)
    y -= 48
    c.setFont("Helvetica-Bold", 14)
    c.drawString(left, y, "News from the council")
    top = y - 24  # = height - 130

    rows = max(len(left_lines), len(right_lines))
    cells = []
    for r in range(rows):
        for side, lines in enumerate((left_lines, right_lines)):
            if r < len(lines) and lines[r][0] != "gap":
                cells.append((r, side, lines[r]))
    if p["draw_order"] == "by_column":
        cells.sort(key=lambda cell: (cell[1], cell[0]))
    for r, side, (style, text) in cells:
        c.setFont("Helvetica-Bold" if style == "head" else font, size + (1 if style == "head" else 0))
        c.drawString(xs[side], top - r * lead, text)
    if p["column_rule"]:
        mid = left + col_w + gutter / 2
        c.setLineWidth(0.5)
        c.line(mid, top + lead, mid, top - rows * lead)
    kit.draw_footer_line(c, left, right, f"{assoc} - registered charity - newsletter for members")
    pdf = kit.finish(c, buf)

    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=(
                f"According to this newsletter from the {assoc}, what will the annual subscription for {cls_a} "
                "members be from 1 July 2025? Respond with only the amount, including the currency symbol."
            ),
            expected_answer=x_txt,
            forbidden_answers=[y_txt],
            expected_failure_mode=(
                f"Reads straight across both columns, so the sentence about {cls_a} members runs on into the "
                f"right column's line and ends with {y_txt} (the {cls_b} subscription)."
            ),
            metadata={"asked_class": cls_a, "decoy_class": cls_b, "break_row": break_row,
                      "draw_order": p["draw_order"]},
        ),
    )
