"""A filled-in returns form where one box is marked and another carries a lighter, erased mark.

The marks are vector strokes, never text: the selection exists only in the pixels. The decoy mark
is lighter than the real one by `margin` (a fraction of full black), so a reader that does not
compare the marks, or that trusts any ink in a box, picks the decoy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import kit
from workbench.generators.base import AnswerKey, Arming, Generated, Param, Streams

NAME = "checkbox_ambiguity"
VERSION = 2  # 2: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Form where the selected box and an erased, lighter mark differ by a small declared margin"

GROUPS: dict[str, tuple[str, tuple[str, ...]]] = {
    "reason": ("Reason for return", ("Damaged in transit", "Wrong item supplied", "Not as described",
                                     "No longer required", "Faulty on arrival")),
    "resolution": ("Preferred resolution", ("Full refund", "Replacement unit", "Credit note",
                                            "Repair and return", "Exchange for other model")),
    "collection": ("Collection method", ("Courier collection", "Drop-off at depot", "Royal Mail return",
                                         "Customer arranges freight", "Engineer visit")),
    "contact": ("Contact us by", ("Telephone", "Email", "Post", "SMS text message", "Account portal")),
}

INK = 0.12  # gray level of a firm pen mark (0 = black)

PARAMS = (
    Param("margin", "float", 0.35, "how much lighter the erased decoy mark is than the real one (0-1 of black)",
          min=0.25, max=0.75, decimals=2),
    Param("options", "int", 4, "boxes in the asked group", min=3, max=5),
    Param("mark_style", "choice", "cross", "how boxes are marked", choices=("cross", "tick", "fill")),
    Param("selected_position", "int", 2, "which box in the asked group is selected (1 = top; counts round)",
          min=1, max=5),
    Param("asked_group", "choice", "resolution", "which question on the form is asked", choices=tuple(GROUPS)),
)

CONTRACT = (
    Arming("expected", "visible", "the selected option's label is printed beside its box"),
    Arming("expected", "text_layer", "the labels are real text"),
    Arming("forbidden", "visible", "the decoy option's label is printed beside its lighter mark"),
    Arming("meta:selected_as_text", "not_text_layer", "the selection is never spelled out as text"),
    Arming("meta:selected_as_text", "not_visible", "the selection is never printed as text"),
)


def _mark(c, style: str, x: float, y: float, s: float, gray: float) -> None:
    """A pen mark in the box whose lower-left corner is (x, y) and side s."""
    c.saveState()
    c.setStrokeGray(gray)
    c.setFillGray(gray)
    c.setLineWidth(1.7)
    c.setLineCap(1)
    if style == "cross":
        c.line(x + 2, y + 2, x + s - 2, y + s - 2)
        c.line(x + 2, y + s - 2, x + s - 2, y + 2)
    elif style == "tick":
        path = c.beginPath()
        path.moveTo(x + 2, y + s * 0.5)
        path.lineTo(x + s * 0.42, y + 2)
        path.lineTo(x + s + 1, y + s + 2)
        c.drawPath(path, stroke=1, fill=0)
    else:
        c.rect(x + 2, y + 2, s - 4, s - 4, stroke=0, fill=1)
    c.restoreState()


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    streams = Streams(seed, NAME)
    margin = p["margin"]
    style = p["mark_style"]
    asked = p["asked_group"]
    n_opts = p["options"]
    sel = (p["selected_position"] - 1) % n_opts
    decoy = streams.of("decoy").choice([i for i in range(n_opts) if i != sel])

    vendor = kit.pick(streams.of("vendor"), kit.VENDORS)
    customer = kit.pick(streams.of("customer"), kit.CUSTOMERS)
    order_no = f"SO-{streams.of('order_no').randint(100000, 999999)}"
    rma_no = f"RMA-{streams.of('rma_no').randint(10000, 99999)}"
    width, height = kit.LETTER
    left, right = 60, width - 60
    page_h = height
    c, buf = kit.new_canvas(title=f"Returns authorisation {rma_no}")
    y = height - 62
    c.setFont("Helvetica-Bold", 15)
    c.drawString(left, y, vendor)
    c.setFont("Helvetica-Bold", 13)
    c.drawRightString(right, y, "RETURNS AUTHORISATION FORM")
    c.setFont("Helvetica", 9)
    c.drawRightString(right, y - 14, f"{rma_no}  -  please keep a copy for your records")
    y -= 44
    c.setFont("Helvetica", 9)
    c.drawString(left, y, "Complete every section in black or blue ink. Mark ONE box per question. To change an "
                          "answer, erase the old mark.")
    y -= 26

    date = streams.of("date")
    fields = (("Customer", customer), ("Sales order", order_no), ("Contact name", kit.pick(streams.of("contact"), kit.PEOPLE)),
              ("Date", f"{date.randint(1, 28)}/{date.randint(1, 12):02d}/2025"))
    for i, (label, value) in enumerate(fields):
        fx = left + (i % 2) * 250
        fy = y - (i // 2) * 26
        c.setFont("Helvetica-Bold", 9)
        c.drawString(fx, fy, label)
        c.setLineWidth(0.5)
        c.line(fx + 78, fy - 3, fx + 236, fy - 3)
        c.setFont("Helvetica-Oblique", 10)
        c.setFillColorRGB(0.1, 0.15, 0.45)
        c.drawString(fx + 82, fy, value)
        c.setFillGray(0)
    y -= 70

    box = 10.5
    order = list(GROUPS)  # the same order whichever group is asked
    streams.of("group_order").shuffle(order)
    boxes: dict[str, list[float]] = {}
    labels_used: dict[str, str] = {}
    for gi, key in enumerate(order):
        title, all_opts = GROUPS[key]
        opts = list(all_opts[:n_opts]) if key == asked else list(all_opts[:streams.of(f"options:{key}").randint(3, 5)])
        col_x = left + (gi % 2) * 250
        top = y - (gi // 2) * 130
        c.setFont("Helvetica-Bold", 10)
        c.drawString(col_x, top, f"{gi + 1}. {title}")
        chosen = sel if key == asked else streams.of(f"chosen:{key}").randrange(len(opts))
        for k, opt in enumerate(opts):
            by = top - 22 - k * 19
            c.setLineWidth(0.8)
            c.setStrokeGray(0)
            c.rect(col_x, by - 2, box, box, stroke=1, fill=0)
            c.setFont("Helvetica", 9.5)
            c.drawString(col_x + box + 7, by, opt)
            if k == chosen:
                _mark(c, style, col_x, by - 2, box, INK)
            if key == asked and k == decoy:
                _mark(c, style, col_x, by - 2, box, INK + margin)
            if key == asked and k in (sel, decoy):
                # (x0, y0, x1, y1) with the origin at the top left, as renderers count pixels
                boxes["selected" if k == sel else "decoy"] = [
                    round(col_x, 2), round(page_h - (by - 2 + box), 2), round(col_x + box, 2),
                    round(page_h - (by - 2), 2)]
                labels_used["selected" if k == sel else "decoy"] = opt
    y -= 2 * 130 + 10
    c.setFont("Helvetica-Bold", 10)
    c.drawString(left, y, "Declaration")
    y -= 16
    y = kit.draw_paragraph(
        c, "I confirm that the goods listed on the sales order above are being returned complete, in their "
           "original packaging where possible, and that the information on this form is correct.",
        left, y, right - left, size=9, leading=12,
    )
    y -= 24
    c.setLineWidth(0.5)
    c.line(left + 60, y - 3, left + 230, y - 3)
    c.setFont("Helvetica-Bold", 9)
    c.drawString(left, y, "Signed")
    c.setFont("Helvetica", 7.5)
    c.setFillGray(0.3)
    c.drawString(left, 40, f"{vendor} - Returns department - form RA-7 (rev. 3)")
    c.drawRightString(right, 40, "Office use: checked by ______  date ______")
    c.setFillGray(0)
    pdf = kit.finish(c, buf)

    expected, decoy_label = labels_used["selected"], labels_used["decoy"]
    title = GROUPS[asked][0]
    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=(
                f"This is returns form {rma_no} completed by {kit.full_stop(customer)} Which option did the "
                f"customer select under \"{title}\"? Respond with only the option's label, exactly as printed."
            ),
            expected_answer=expected,
            forbidden_answers=[decoy_label],
            expected_failure_mode=(
                f"Takes the lighter, erased mark beside \"{decoy_label}\" for the selection, or cannot tell the "
                f"marks apart (the erased mark is {margin:g} lighter on a 0-1 scale)."
            ),
            matcher={"type": "contains"},
            metadata={
                "group": title, "selected_box": boxes["selected"], "decoy_box": boxes["decoy"],
                "selected_gray": INK, "decoy_gray": round(INK + margin, 4), "margin": margin,
                "mark_style": style, "selected_as_text": f"[x] {expected}",
            },
        ),
    )
