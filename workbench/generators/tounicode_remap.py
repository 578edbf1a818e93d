"""An invoice whose total is set in a font whose ToUnicode map sends each drawn digit to another.

The page shows the right TOTAL DUE in an embedded TrueType face. The font's ToUnicode CMap, which
every text extractor uses to turn glyphs into characters, maps the digits through a permutation
(as anti-scraping fonts do), so the glyphs read `4,812.07` while every extractor returns another
amount. Nothing on the page looks wrong; only reading the pixels gives the right figure.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from workbench.generators import _ledger, _structure, kit
from workbench.generators.base import Arming, Generated, GenerationError, Param, rng_for

NAME = "tounicode_remap"
VERSION = 2  # 2: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Invoice whose total's font maps each drawn digit to another digit in its ToUnicode CMap"

FONTS = {"Vera": "Vera.ttf", "VeraBd": "VeraBd.ttf"}

PARAMS = _structure.invoice_params(
    Param("font", "choice", "VeraBd", "the embedded face the total is set in (Bitstream Vera, bold or not)",
          choices=tuple(FONTS)),
    Param("size", "float", 13.0, "the total's font size", min=10, max=20, decimals=1),
    change=None,
)

CONTRACT = (
    Arming("expected", "visible", "the glyphs draw the right total"),
    Arming("expected", "not_text_layer", "no extractor can map the glyphs back to the right digits"),
    Arming("forbidden", "hidden", "the remapped amount is what the font's map says, not what it draws"),
    Arming("forbidden", "not_visible", "no glyph on the page draws the remapped amount"),
    Arming("forbidden", "text_layer", "every extractor reads the ToUnicode map"),
)

# A setting that removes the trap: the lint must say so (tests/checks/test_lint_families.py).
DISARMED = _structure.scan_disarms("the remapped text goes with the text layer when a scan has none")


def derangement(seed: int) -> dict[str, str]:
    """A seeded permutation of the ten digits that moves every one of them."""
    rng = rng_for(seed, NAME, "digits")
    digits = list("0123456789")
    while True:
        moved = digits[:]
        rng.shuffle(moved)
        if all(a != b for a, b in zip(digits, moved, strict=True)):
            return dict(zip(digits, moved, strict=True))


def _font(name: str) -> str:
    # Registered under a name of its own, so only the total is set in this subset.
    alias = f"Remap{name}"
    if alias not in pdfmetrics.getRegisteredFontNames():
        path = os.path.join(os.path.dirname(reportlab.__file__), "fonts", FONTS[name])
        pdfmetrics.registerFont(TTFont(alias, path))
    return alias


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    # This family has no second figure to choose: the map decides what extractors read.
    # (and no 0% tax, whose subtotal would print the total in a plain font).
    c, buf, page = _structure.new_invoice({**p, "change_percent": 10.0}, seed, NAME, draw_total=False,
                                          tax_rates=(5.0, 8.0, 10.0))
    inv = page.inv
    shown = inv.fmt(inv.total)
    font, size = _font(p["font"]), p["size"]
    c.setFont(font, size)
    c.drawRightString(_ledger.RIGHT, page.total_y, shown)
    base = kit.finish(c, buf)
    table = derangement(seed)
    read = "".join(table.get(ch, ch) for ch in shown)

    def edit(doc, _pymupdf) -> None:
        for xref, _ext, _type, basefont, _name, _enc, *_ in doc[0].get_fonts(full=True):
            kind, value = doc.xref_get_key(xref, "ToUnicode")
            if kind != "xref" or "Vera" not in basefont:
                continue
            cmap_xref = int(value.split()[0])
            cmap = doc.xref_stream(cmap_xref).decode("latin-1")

            def swap(m: re.Match) -> str:
                return f"{m.group(1)} <{ord(table[chr(int(m.group(2), 16))]):04X}>"

            new = re.sub(r"(<[0-9A-F]{2}>) <(003[0-9])>", swap, cmap)
            if new == cmap:
                raise GenerationError("the font's ToUnicode map has no digits to remap")
            doc.update_stream(cmap_xref, new.encode("latin-1"))

    pdf = _structure.edit_with_pymupdf(base, edit)
    return Generated(pdf, _structure.total_key(
        inv, shown, read,
        "Answers the amount the font's ToUnicode map spells: the reader trusted the text layer, "
        "which a remapped font makes say other digits than the page shows.",
        visible_amount=inv.total, digit_map="".join(table[d] for d in "0123456789"), currency=p["currency"]))
