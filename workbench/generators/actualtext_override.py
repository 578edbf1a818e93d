"""An invoice whose printed total is wrapped in marked content with an /ActualText of another amount.

The glyphs on the page draw one TOTAL DUE. A `/Span` marked-content sequence around them carries
`/ActualText` (meant for the text a ligature or a drawn figure stands for) with another amount, so
an extractor that honours ActualText, as pymupdf does, returns the replacement instead of what is
drawn; pypdf reads the glyphs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import _ledger, _structure, kit
from workbench.generators.base import Arming, Generated, Param

NAME = "actualtext_override"
VERSION = 2  # 2: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Invoice whose drawn total carries an /ActualText with another amount"

PARAMS = _structure.invoice_params(
    Param("scope", "choice", "figure",
          "what the ActualText replaces: the amount only, or the whole TOTAL DUE line",
          choices=("figure", "line")),
    Param("encoding", "choice", "utf16",
          "how the replacement is written: a UTF-16 hex string (as authoring tools write it) or a literal",
          choices=("utf16", "literal")),
)

CONTRACT = (
    Arming("expected", "visible", "the glyphs draw the right total"),
    Arming("expected", "text_layer", "pypdf reads the drawn glyphs"),
    Arming("forbidden", "hidden", "the other amount is only an /ActualText"),
    Arming("forbidden", "not_visible", "no glyph draws the other amount"),
    Arming("forbidden", "text_layer", "pymupdf returns the ActualText instead of the glyphs"),
)

# A setting that removes the trap: the lint must say so (tests/checks/test_lint_families.py).
DISARMED = _structure.scan_disarms("the ActualText goes with the text layer when a scan has none")


def _string(text: str, encoding: str) -> str:
    # MuPDF spreads an ActualText over the glyphs it replaces and, for some lengths, sets its last
    # character apart ("29,782.4 6"); a trailing space (as authoring tools often write) keeps it whole.
    text += " "
    if encoding == "utf16":
        return "<FEFF" + text.encode("utf-16-be").hex().upper() + ">"
    return _structure.pdf_string(text)


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    line = p["scope"] == "line"
    c, buf, page = _structure.new_invoice(p, seed, NAME, draw_total=False, total_label="" if line else "TOTAL DUE")
    inv = page.inv
    shown, other = inv.fmt(inv.total), inv.fmt(page.competing)
    size = 13.0
    c.setFont("Helvetica-Bold", size)
    if line:
        replacement = f"TOTAL DUE {other}"
        c.addLiteral(f"/Span <</ActualText {_string(replacement, p['encoding'])}>> BDC")
        c.drawRightString(_ledger.RIGHT - 110, page.total_y, "TOTAL DUE")
        c.drawRightString(_ledger.RIGHT, page.total_y, shown)
    else:
        c.addLiteral(f"/Span <</ActualText {_string(other, p['encoding'])}>> BDC")
        c.drawRightString(_ledger.RIGHT, page.total_y, shown)
    c.addLiteral("EMC")
    pdf = kit.finish(c, buf)
    return Generated(pdf, _structure.total_key(
        inv, shown, other,
        "Answers the /ActualText that replaces the drawn total: the reader's text came from an "
        "extractor that trusts ActualText over the glyphs.",
        visible_amount=inv.total, hidden_amount=page.competing, scope=p["scope"], currency=p["currency"]))
