"""An invoice whose printed total is overridden by a footnote in very small print.

The footnote (marked from the total with an asterisk) states the amount actually payable after a
rebate. At the resolutions vision models are usually sent (around 100 DPI) it blurs; zoomed in, or
at 300 DPI, it is plainly legible. A reader that does not zoom answers the printed total.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import _ledger, kit
from workbench.generators.base import AnswerKey, Arming, Generated, GenerationError, Param, Streams

NAME = "tiny_print_override"
VERSION = 3  # 3: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Invoice whose printed total is overridden by a rebate footnote in very small print"

PARAMS = (
    Param("payable_amount", "float", 9275.40, "the amount payable stated in the small print (the right answer)",
          min=100, max=50000),
    Param("font_size", "float", 4.5, "font size of the footnote in points (legible when zoomed in)",
          min=4.0, max=6.0, decimals=1),
    Param("rebate_percent", "float", 12.0, "the rebate the footnote applies, as a percent of the printed total",
          min=3, max=35, decimals=1),
    Param("position", "choice", "footer", "where the footnote sits: page footer or just under the total",
          choices=("footer", "under_total")),
    Param("ink_gray", "float", 0.35, "grey level of the footnote ink (0 black, 0.55 mid grey)",
          min=0, max=0.55, decimals=2),
    kit.CURRENCY_PARAM,
    kit.VENDOR_PARAM,
)

CONTRACT = (
    Arming("expected", "visible", "the footnote is legible when zoomed in (300 DPI)"),
    Arming("expected", "text_layer", "the footnote is ordinary (small) text"),
    Arming("forbidden", "visible", "the overridden printed total is large and bold"),
    Arming("forbidden", "text_layer", "the printed total is ordinary text"),
)


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    payable = round(p["payable_amount"], 2)
    printed = round(payable / (1 - p["rebate_percent"] / 100), 2)
    if abs(printed - payable) < 1:
        raise GenerationError("rebate_percent is too small: the footnote would not change the amount")
    streams = Streams(seed, NAME)
    inv = _ledger.make_invoice(streams, printed, p["currency"], streams.of("item_count").randint(2, 6),
                               streams.of("tax_rate").choice((0.0, 5.0, 8.0, 10.0)),
                               vendor=p["vendor"])
    number = streams.of("agreement")
    agreement = f"FA-{number.randint(100, 999)}/{number.randint(20, 25)}"
    size = p["font_size"]

    c, buf = kit.new_canvas(title=f"Invoice {inv.number}")
    y = _ledger.draw_header(c, inv)
    y = _ledger.draw_items(c, inv, y)
    y, total_y = _ledger.draw_totals(c, inv, y, total_label="TOTAL DUE*")
    _ledger.draw_footer(c, inv)

    note = (
        f"* Volume rebate under framework agreement {agreement} ({p['rebate_percent']:g}% of the "
        f"invoice total) is deducted at payment: the amount payable for this invoice is "
        f"{inv.fmt(payable)}. Remit only this amount; no separate credit note will be issued."
    )
    width = _ledger.RIGHT - _ledger.LEFT if p["position"] == "footer" else 300
    x = _ledger.LEFT if p["position"] == "footer" else _ledger.RIGHT - width
    ny = 60 if p["position"] == "footer" else total_y - 18
    c.setFillGray(p["ink_gray"])
    end = kit.draw_paragraph(c, note, x, ny, width, size=size, leading=size * 1.25)
    c.setFillGray(0)
    pdf = kit.finish(c, buf)

    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=(
                f"You are an accounts-payable assistant. The attached PDF is invoice {inv.number} from "
                f"{kit.full_stop(inv.vendor)} What amount should be remitted to pay this invoice? Respond with only the "
                "amount including currency symbol, no other text."
            ),
            expected_answer=inv.fmt(payable),
            forbidden_answers=[inv.fmt(printed)],
            expected_failure_mode=(
                "Answers the large printed total: the reader missed (or could not resolve) the small-print "
                "footnote, linked by an asterisk, that states the lower amount payable after the rebate."
            ),
            metadata={
                "invoice_no": inv.number, "vendor": inv.vendor, "printed_total": printed,
                "payable_amount": payable, "footnote_size": size,
                "footnote_box": [round(x, 1), round(kit.LETTER[1] - ny - size, 1), round(x + width, 1),
                                 round(kit.LETTER[1] - end, 1)],
                "currency": p["currency"],
            },
        ),
    )
