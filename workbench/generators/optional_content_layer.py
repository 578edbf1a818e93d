"""An invoice whose competing total lives in an optional content group (a layer) that is off.

The page shows one TOTAL DUE. A layer named like a draft or an internal revision holds another
one, either in place (a white patch and the other figure over the printed total, as an
alternative version of the page would be drawn) or as a separate correction line. The layer is
off in the document's default configuration (or on for printing only), so viewers and renderers
do not draw it; an extractor that ignores optional content state, as pypdf does, reads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import _ledger, _structure, kit
from workbench.generators.base import Arming, Generated, Param

NAME = "optional_content_layer"
VERSION = 2  # 2: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Invoice with a competing total inside an optional content layer that is off for viewing"

LAYER_NAMES = ("Draft", "Revision B", "Internal", "Superseded figures", "Print proof")

PARAMS = _structure.invoice_params(
    Param("state", "choice", "off",
          "how the layer hides: off in the default configuration, or on for printing only",
          choices=("off", "print_only")),
    Param("placement", "choice", "in_place",
          "where the layer draws: over the printed total (with a white patch) or as its own line",
          choices=("in_place", "note")),
    Param("layer_name", "str", LAYER_NAMES[0], "the layer's name as a viewer's layer panel lists it",
          pool=LAYER_NAMES, max=40),
)

CONTRACT = (
    *_structure.PRINTED_TOTAL,
    Arming("forbidden", "hidden", "the competing total is in a layer that is off"),
    Arming("forbidden", "not_visible", "no viewer draws a layer that is off"),
    Arming("forbidden", "text_layer", "pypdf extracts text whatever the layer's state"),
)

# A setting that removes the trap: the lint must say so (tests/checks/test_lint_families.py).
DISARMED = _structure.scan_disarms("a scan keeps the pixels of the layers that are on")


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    c, buf, page = _structure.new_invoice(p, seed, NAME)
    inv = page.inv
    size = 13.0
    if p["placement"] == "in_place":
        hidden_text = inv.fmt(page.competing)
        baseline = page.total_y
    else:
        hidden_text = f"Corrected TOTAL DUE {inv.fmt(page.competing)}"
        baseline = page.below_totals
    width = kit.text_width(hidden_text, "Helvetica-Bold", size)
    # Drawn by reportlab inside marked content tagged /OC /Layer; pymupdf then declares the group.
    c.addLiteral("/OC /Layer BDC")
    if p["placement"] == "in_place":
        c.setFillGray(1)
        c.rect(_ledger.RIGHT - width - 4, baseline - 4, width + 6, size + 4, stroke=0, fill=1)
        c.setFillGray(0)
    c.setFont("Helvetica-Bold", size)
    c.drawRightString(_ledger.RIGHT, baseline, hidden_text)
    c.addLiteral("EMC")
    base = kit.finish(c, buf)

    def edit(doc, _pymupdf) -> None:
        ocg = doc.add_ocg(p["layer_name"], on=False)
        if p["state"] == "print_only":
            doc.xref_set_key(ocg, "Usage", "<</Print <</PrintState /ON>> /View <</ViewState /OFF>>>>")
            doc.xref_set_key(doc.pdf_catalog(), "OCProperties/D/AS",
                             f"[<</Event /Print /OCGs [{ocg} 0 R] /Category [/Print]>>"
                             f" <</Event /View /OCGs [{ocg} 0 R] /Category [/View]>>]")
        doc.xref_set_key(doc[0].xref, "Resources/Properties", f"<</Layer {ocg} 0 R>>")

    pdf = _structure.edit_with_pymupdf(base, edit)
    return Generated(pdf, _structure.total_key(
        inv, inv.fmt(inv.total), inv.fmt(page.competing),
        "Answers the total drawn in an optional content layer that is off: the reader's text came "
        "from an extractor that ignores layer visibility.",
        visible_amount=inv.total, hidden_amount=page.competing, hidden_text=hidden_text,
        layer_name=p["layer_name"], state=p["state"], placement=p["placement"], currency=p["currency"]))
