"""An invoice whose TOTAL DUE is a form field: the appearance shows one amount, the value another.

The total is an AcroForm text field (a fillable "amount due" box, as invoicing tools export). Its
appearance stream, which is what every viewer draws, shows the right total; the field's value
(`/V`, and the default `/DV`) holds another amount, as happens when a form is filled by a script
that never regenerates appearances. A reader that takes form values (pypdf's `get_fields`, form
data exports) answers with the value; a person sees the appearance.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import _ledger, _structure, kit
from workbench.generators.base import Arming, Generated, Param

NAME = "form_field_appearance"
VERSION = 2  # 2: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Invoice whose total is a form field: the appearance shows one amount, the field value another"

FIELD_NAMES = ("amount_due", "TotalDue", "total", "invoice_total", "AmountPayable")

PARAMS = _structure.invoice_params(
    Param("field_name", "str", FIELD_NAMES[0], "the field's name (/T)", pool=FIELD_NAMES, max=40),
    Param("border", "choice", "box", "how the field is framed on the page: a box, an underline or nothing",
          choices=("box", "underline", "none")),
    Param("read_only", "bool", True, "mark the field read-only, as exported invoices do"),
)

CONTRACT = (
    Arming("expected", "visible", "the field's appearance shows the right total"),
    Arming("forbidden", "hidden", "the other amount is the field's value, which is not drawn"),
    Arming("forbidden", "not_visible", "no viewer draws a field value its appearance does not show"),
    Arming("forbidden", "not_text_layer", "page text extractors read appearances, not values"),
)

# A setting that removes the trap: the lint must say so (tests/checks/test_lint_families.py).
DISARMED = _structure.scan_disarms("a scan keeps the field's appearance, not its value")


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    c, buf, page = _structure.new_invoice(p, seed, NAME, draw_total=False)
    inv = page.inv
    shown = inv.fmt(inv.total)
    size = 13.0
    width = kit.text_width(shown, "Helvetica", size) + 8
    x, y = _ledger.RIGHT - width + 2, page.total_y - 6
    if p["border"] == "box":
        c.setStrokeGray(0.45)
        c.setLineWidth(0.8)
        c.rect(x - 2, y - 1, width + 2, size + 9, stroke=1, fill=0)
    elif p["border"] == "underline":
        c.setStrokeGray(0.45)
        c.setLineWidth(0.8)
        c.line(x - 2, y - 1, x + width, y - 1)
    c.setStrokeGray(0)
    base = kit.finish(c, buf)
    value = inv.fmt(page.competing)
    height = kit.LETTER[1]

    def edit(doc, pymupdf) -> None:
        widget = pymupdf.Widget()
        widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
        widget.field_name = p["field_name"]
        widget.field_value = shown
        widget.text_font = "Helv"
        widget.text_fontsize = size
        widget.rect = pymupdf.Rect(x, height - y - size - 7, x + width, height - y)
        widget.border_width = 0
        widget.field_flags = pymupdf.PDF_FIELD_IS_READ_ONLY if p["read_only"] else 0
        annot = doc[0].add_widget(widget)  # draws the appearance from the value ...
        # ... which then changes without a new appearance, as a careless form filler leaves it.
        doc.xref_set_key(annot.xref, "V", _structure.pdf_string(value))
        doc.xref_set_key(annot.xref, "DV", _structure.pdf_string(value))

    pdf = _structure.edit_with_pymupdf(base, edit)
    return Generated(pdf, _structure.total_key(
        inv, shown, value,
        "Answers the form field's value instead of what its appearance shows: the reader took "
        "form data, not the page.",
        visible_amount=inv.total, hidden_amount=page.competing, field_name=p["field_name"],
        field_value=value, currency=p["currency"]))
