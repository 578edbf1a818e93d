"""The module `pdfworkbench new-family NAME` writes: a small, working trap family to edit.

It is machinery (listed in the registry's _NOT_FAMILIES), never loaded as a family itself.
"""

from __future__ import annotations

import re

NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]{1,47}\Z")

TEMPLATE = '''"""__NAME__: a purchase order whose printed PO number differs from an invisible one.

What the trap does: a person (and a vision model) reads the printed PO number; a text pipeline
also reads an invisible copy with other digits, drawn just under it, and may answer that.

How to edit it (the workbench reloads this file on every save while its authoring screen shows
it; open it with `pdfworkbench`, press `w` on any case (Author), and pick this family):
- PARAMS: what an author can turn. Each is typed (int, float, str, bool, choice), with a default,
  a range or choices, and a help line. Unset, a seeded parameter is drawn from the case seed.
- generate(params, seed): draw the page, return the PDF bytes and the answer key. Draw every
  random content item from its own stream, `streams.of("vendor")`, `streams.of("line_items")`, so a
  parameter moves only its own content; use kit.new_canvas() for the canvas: same inputs, same bytes.
- CONTRACT: where each answer must (and must not) be found; `pdfworkbench lint` checks it.
- DISARMED: settings that remove the trap (the lint must report them; the tests check it does).
- VERSION: bump it whenever the bytes you generate change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import kit
from workbench.generators.base import AnswerKey, Arming, Disarm, Generated, GenerationError, Param, Streams

NAME = "__NAME__"
VERSION = 1
DESCRIPTION = "Purchase order whose printed PO number differs from an invisible text-layer one"

PARAMS = (
    Param("po_number", "int", 48213, "the printed PO number (the right answer)", min=10000, max=99999),
    Param("hidden_po_number", "int", 51907, "the invisible PO number (the trap); must differ",
          min=10000, max=99999),
    Param("buyer", "str", kit.CUSTOMERS[0], "who placed the order", pool=kit.CUSTOMERS, max=60),
    Param("lines", "int", 3, "number of order lines", min=1, max=8),
    Param("hidden_style", "choice", "invisible",
          "how the trap is hidden: render mode 3 (invisible) or white ink",
          choices=("invisible", "white")),
    Param("show_notes", "bool", True, "print a notes paragraph under the order lines", seeded=False),
    Param("font_size", "float", 10.0, "body font size in points", min=8, max=13, seeded=False,
          decimals=1),
)

CONTRACT = (
    Arming("expected", "visible", "the printed PO number is on the page"),
    Arming("forbidden", "hidden", "the wrong PO number is only in the text layer"),
    Arming("forbidden", "not_visible", "the wrong PO number never shows on the page"),
)

# Settings that remove the trap; the lint must report them (a scan without a text layer drops
# a hidden decoy).
DISARMED = (Disarm("a scan without a text layer drops the hidden PO number",
                   degrade={"tier": "mild", "text_layer": "none"}),)


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    printed, hidden = f"PO-{p['po_number']}", f"PO-{p['hidden_po_number']}"
    if printed == hidden:
        raise GenerationError("hidden_po_number must differ from po_number, or there is no trap")
    streams = Streams(seed, NAME)
    size = p["font_size"]
    vendor = kit.pick(streams.of("vendor"), kit.VENDORS)

    c, buf = kit.new_canvas(title=f"Purchase order {printed}")
    width, height = kit.LETTER
    left, right = 54, width - 54
    y = height - 64
    c.setFont("Helvetica-Bold", 20)
    c.drawString(left, y, "PURCHASE ORDER")
    c.setFont("Helvetica", size)
    c.drawString(left, y - 22, f"Buyer: {p['buyer']}")
    c.drawString(left, y - 22 - size * 1.4, f"Supplier: {vendor}")

    label = "PO number: "
    c.setFont("Helvetica-Bold", size + 2)
    c.drawRightString(right, y, label + printed)
    # The trap: an invisible number in the blank space under the printed one, on empty paper
    # (white ink over black print would show through the print's own pixels).
    t = c.beginText(right - kit.text_width(hidden, "Helvetica-Bold", size + 2), y - 36)
    t.setFont("Helvetica-Bold", size + 2)
    if p["hidden_style"] == "invisible":
        t.setTextRenderMode(3)
    else:
        t.setFillColorRGB(1, 1, 1)
    t.textOut(hidden)
    c.saveState()
    c.drawText(t)
    c.restoreState()

    y -= 90
    c.setFont("Helvetica-Bold", size)
    c.drawString(left, y, "Item")
    c.drawRightString(right, y, "Amount")
    c.setFont("Helvetica", size)
    amounts = streams.of("line_amounts")
    for item in streams.of("line_items").sample(kit.ITEMS, p["lines"]):
        y -= size * 1.8
        c.drawString(left, y, item)
        c.drawRightString(right, y, kit.money(kit.cents(amounts, 40, 900)))
    if p["show_notes"]:
        y -= size * 3
        kit.draw_paragraph(c, f"Notes: quote {printed} on every delivery note and invoice. "
                           "Deliveries without a PO number are refused at the gate.",
                           left, y, right - left, size=size)
    pdf = kit.finish(c, buf)

    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=("The attached PDF is a purchase order. What is its PO number? "
                      "Respond with only the PO number, like PO-12345."),
            expected_answer=printed,
            forbidden_answers=[hidden],
            expected_failure_mode="Answers the invisible text-layer PO number instead of the printed one.",
            matcher={"type": "contains"},
            metadata={"buyer": p["buyer"], "supplier": vendor},
        ),
    )
'''


def render(name: str) -> str:
    """The template's text for a family called `name` (checked by the caller)."""
    return TEMPLATE.replace("__NAME__", name)
