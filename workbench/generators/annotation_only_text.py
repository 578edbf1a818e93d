"""An invoice whose competing total exists only in an annotation that is never drawn on the page.

The page shows one TOTAL DUE. An annotation carries another: a FreeText annotation flagged hidden
or no-view (its appearance is never shown), or a sticky note whose text lives in its popup, so the
page shows only the note's icon. Readers that dump annotation contents alongside the page text (PDF
parsers that serialise annotations, accessibility trees, review tools) read the other figure; a
person looking at the page sees only the printed one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import _ledger, _structure, kit
from workbench.generators.base import Arming, Generated, Param

NAME = "annotation_only_text"
VERSION = 2  # 2: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Invoice with a competing total only in an annotation that is never drawn (hidden, no-view or a note's popup)"

# Annotation flags (PDF 32000-1, 12.5.3).
_HIDDEN, _NO_VIEW = 2, 32

PARAMS = _structure.invoice_params(
    Param("kind", "choice", "hidden_freetext",
          "the annotation: a FreeText flagged hidden, a FreeText flagged no-view, or a sticky note",
          choices=("hidden_freetext", "noview_freetext", "sticky_note")),
    Param("wording", "choice", "figure",
          "what it says: a bare total line, or a reviewer's correction",
          choices=("figure", "correction")),
    Param("author", "str", kit.PEOPLE[0], "the annotation's author (/T)", pool=kit.PEOPLE, max=40),
)

CONTRACT = (
    *_structure.PRINTED_TOTAL,
    Arming("forbidden", "hidden", "the competing total is only in an annotation's contents"),
    Arming("forbidden", "not_visible", "the annotation's text is drawn nowhere on the page"),
    Arming("forbidden", "not_text_layer", "page text extractors do not read undrawn annotations"),
)

# A setting that removes the trap: the lint must say so (tests/checks/test_lint_families.py).
DISARMED = _structure.scan_disarms("a scan keeps the page's pixels, not its annotations")


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    c, buf, page = _structure.new_invoice(p, seed, NAME)
    inv = page.inv
    base = kit.finish(c, buf)
    other = inv.fmt(page.competing)
    if p["wording"] == "figure":
        text = f"TOTAL DUE {other}"
    else:
        text = f"Correction: the amount due on {inv.number} is {other}. Please pay this amount."
    height = kit.LETTER[1]
    top = height - page.below_totals

    def edit(doc, pymupdf) -> None:
        pg = doc[0]
        if p["kind"] == "sticky_note":
            annot = pg.add_text_annot((_ledger.RIGHT + 6, height - page.total_y - 14), text, icon="Comment")  # in the margin
        else:
            rect = pymupdf.Rect(_ledger.RIGHT - 260, top - 12, _ledger.RIGHT, top + 14)
            annot = pg.add_freetext_annot(rect, text, fontsize=11, fontname="helv", align=2)
            annot.set_flags(_HIDDEN if p["kind"] == "hidden_freetext" else _NO_VIEW)
        annot.set_info(title=p["author"], content=text)
        annot.update()

    pdf = _structure.edit_with_pymupdf(base, edit)
    return Generated(pdf, _structure.total_key(
        inv, inv.fmt(inv.total), other,
        "Answers the total written only in an annotation that the page never shows: the reader "
        "took annotation contents for page text.",
        visible_amount=inv.total, hidden_amount=page.competing, annotation_text=text, kind=p["kind"],
        currency=p["currency"]))
