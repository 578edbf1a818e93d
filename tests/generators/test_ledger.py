"""The invoice skeleton several families draw their traps on (workbench/generators/_ledger.py;
named without its underscore): an invoice whose items and tax add up to its total to the cent,
each part from its own stream, drawn as a page a reader reads top to bottom."""

from __future__ import annotations

import random

import pytest

from tests.support.families import page_texts
from workbench.generators import _ledger, kit
from workbench.generators.base import Streams


def test_the_items_and_tax_add_up_to_the_total_to_the_cent():
    for seed, total, items, rate in ((1, 12345.67, 4, 8.0), (2, 100.01, 8, 0.0), (3, 0.5, 1, 25.0), (4, 1.07, 2, 21.0)):
        inv = _ledger.make_invoice(Streams(seed, "t"), total, "EUR", items, rate)
        assert round(sum(a for _, a in inv.items), 2) == inv.subtotal
        assert round(inv.subtotal + inv.tax, 2) == inv.total == round(total, 2)
        assert len(inv.items) == items and inv.fmt(inv.total).startswith("€")


def test_a_different_total_or_item_count_moves_only_the_items():
    one = _ledger.make_invoice(Streams(7, "t"), 1000.0, n_items=3)
    other = _ledger.make_invoice(Streams(7, "t"), 2500.0, n_items=5)
    same = ("vendor", "customer", "number", "issued", "street", "city")
    assert [getattr(one, k) for k in same] == [getattr(other, k) for k in same]
    assert one.items != other.items
    given = _ledger.make_invoice(Streams(7, "t"), 1000.0, vendor="Acme", number="PO-1")
    assert (given.vendor, given.number) == ("Acme", "PO-1") and given.customer == one.customer


def test_the_page_reads_from_letterhead_to_footer_with_the_total_when_asked():
    inv = _ledger.make_invoice(Streams(3, "t"), 4711.0, n_items=2, tax_rate=10.0, vendor="Acme Ltd")
    rows: list[float] = []

    def page(draw_total: bool) -> str:
        c, buf = kit.new_canvas()
        y = _ledger.draw_items(c, inv, _ledger.draw_header(c, inv), size=10)
        below, total_row = _ledger.draw_totals(c, inv, y, draw_total=draw_total)
        rows.extend([below, total_row])
        _ledger.draw_footer(c, inv)
        return page_texts(kit.finish(c, buf))[0]

    text = page(True)
    order = ["Acme Ltd", "INVOICE", f"Invoice No.: {inv.number}", "Bill to:", "Description",
             inv.items[0][0], "Subtotal", "Sales tax (10%)", "TOTAL DUE", "$4,711.00", "Thank you for your business."]
    assert [text.index(part) for part in order] == sorted(text.index(part) for part in order)
    assert "$4,711.00" not in page(False)
    assert rows[0] < rows[1]                                            # the y below the total row


def test_a_distinct_amount_differs_from_every_one_to_avoid():
    rng = random.Random(1)
    value = _ledger.distinct_amount(rng, 100.0, 0.1, 0.5, [110.0, 120.0])
    assert 110 <= value <= 150 and all(abs(value - a) > 1 for a in (110.0, 120.0))
    with pytest.raises(ValueError, match="could not draw a distinct amount"):
        _ledger.distinct_amount(rng, 100.0, 0.0, 0.0, [100.0])
