"""An invoice whose total is drawn glyph by glyph (or group by group) in a scrambled order.

On the page the figure reads whole: every glyph sits where a single run would have put it. In the
content stream the glyphs come in shuffled order, right to left, or as digit groups emitted last to
first, so extractors that follow the stream (pypdf) or build lines from it (pymupdf) give the figure
broken up or out of order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.generators import _ledger, kit
from workbench.generators.base import AnswerKey, Arming, Generated, Param, Streams

NAME = "split_glyph_runs"
VERSION = 3  # 3: one random stream per content item (a parameter moves only its own content)
DESCRIPTION = "Invoice whose total is drawn as separate glyph runs in scrambled stream order"

PARAMS = (
    Param("total", "float", 23456.78, "the printed TOTAL DUE (the right answer)", min=1000, max=99999.99),
    Param("split", "choice", "shuffled",
          "how the figure is split: each glyph in shuffled order, each glyph right to left, or digit "
          "groups emitted last group first",
          choices=("shuffled", "reversed", "groups")),
    Param("spacing", "float", 0.4, "extra space between glyphs in points (0 keeps normal letter spacing)",
          min=0, max=1.5, decimals=2),
    Param("font_size", "float", 13.0, "font size of the total", min=10, max=18, decimals=1),
    kit.CURRENCY_PARAM,
    kit.VENDOR_PARAM,
)

CONTRACT = (
    Arming("expected", "visible", "every glyph of the total is drawn in place, on one line"),
    Arming("expected", "not_text_layer", "no extractor reads the total whole"),
)


def _runs(text: str, mode: str, rng) -> list[list[int]]:
    """Glyph indices grouped into runs, in the order they are emitted."""
    if mode == "groups":
        runs: list[list[int]] = []
        current: list[int] = []
        for i, ch in enumerate(text):
            current.append(i)
            if ch in ",." or i == 0:
                runs.append(current)
                current = []
        if current:
            runs.append(current)
        return runs[::-1]
    order = list(range(len(text)))
    if mode == "reversed":
        return [[i] for i in order[::-1]]
    for _ in range(20):  # a shuffle that keeps no two neighbours in reading order
        rng.shuffle(order)
        if all(order[k + 1] != order[k] + 1 for k in range(len(order) - 1)):
            break
    return [[i] for i in order]


def generate(p: Mapping[str, Any], seed: int) -> Generated:
    total = round(p["total"], 2)
    streams = Streams(seed, NAME)
    # Never 0% tax: the subtotal would print the total whole, as ordinary text.
    inv = _ledger.make_invoice(streams, total, p["currency"], streams.of("item_count").randint(2, 6),
                               streams.of("tax_rate").choice((5.0, 8.0, 10.0, 12.5)),
                               vendor=p["vendor"])
    size = p["font_size"]
    spacing = p["spacing"]
    text = inv.fmt(total)

    c, buf = kit.new_canvas(title=f"Invoice {inv.number}")
    y = _ledger.draw_header(c, inv)
    y = _ledger.draw_items(c, inv, y)
    y, total_y = _ledger.draw_totals(c, inv, y, total_size=size, draw_total=False)

    font = "Helvetica-Bold"
    widths = [kit.text_width(ch, font, size) for ch in text]
    full = sum(widths) + spacing * (len(text) - 1)
    xs, x = [], _ledger.RIGHT - full
    for w in widths:
        xs.append(x)
        x += w + spacing
    c.setFont(font, size)
    for run in _runs(text, p["split"], streams.of("run_order")):
        t = c.beginText(xs[run[0]], total_y)
        t.setFont(font, size)
        t.setCharSpace(spacing)
        t.textOut("".join(text[i] for i in run))
        c.drawText(t)
    _ledger.draw_footer(c, inv)
    pdf = kit.finish(c, buf)

    # Right to left, "68,609.08" extracts as "80.906,86": a well-formed European-style figure.
    forbidden = []
    if p["split"] == "reversed":
        whole, _, frac = text[1:][::-1].rpartition(",")
        if len(frac) == 2 and all(len(g) == 3 for g in whole.split(".")[1:]):
            wrong = float(whole.replace(".", "") + "." + frac)
            if abs(wrong - total) >= 0.01:
                forbidden.append(inv.fmt(wrong))

    return Generated(
        pdf=pdf,
        key=AnswerKey(
            question=kit.total_due_question(inv.number, inv.vendor),
            expected_answer=text,
            forbidden_answers=forbidden,
            expected_failure_mode=(
                "Answers a garbled or partial figure (digits out of order, one digit group, or the subtotal "
                "instead): the reader trusted a text layer in which the total's glyphs are split into "
                "separate runs in scrambled order, though the page shows the total whole."
            ),
            metadata={"invoice_no": inv.number, "vendor": inv.vendor, "total": total, "split": p["split"],
                      "figure_box": [round(_ledger.RIGHT - full, 1), round(kit.LETTER[1] - total_y - size, 1),
                                     round(_ledger.RIGHT, 1), round(kit.LETTER[1] - total_y + size * 0.25, 1)],
                      "currency": p["currency"]},
        ),
    )
