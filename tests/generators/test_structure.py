"""What the six structural families share (workbench/generators/_structure.py; named like the
layer's other modules, without the underscore; tests/pdf/test_structure.py is pdf/structure.py's):
the two totals kept apart, the invoice page and its key, a corrected copy keeping the original's
identity, pymupdf's edits written back the same every time, and PDF string literals."""

from __future__ import annotations

from tests.support.families import page_texts
from workbench.generators import _structure as S
from workbench.generators import kit

PARAMS = {"visible_total": 4812.07, "change_percent": 18.0, "currency": "GBP", "vendor": "Acme Ltd"}


def test_the_competing_total_is_kept_apart_from_the_visible_one():
    assert S.amounts(PARAMS) == (4812.07, round(4812.07 * 1.18, 2))
    assert S.amounts({**PARAMS, "change_percent": 0.5}) == (4812.07, round(4812.07 * 1.02, 2))
    assert S.amounts({**PARAMS, "change_percent": -0.1}) == (4812.07, round(4812.07 * 0.98, 2))
    names = [p.name for p in S.invoice_params(kit.CURRENCY_PARAM.__class__("x", "int", 1, "own"))]
    assert names == ["visible_total", "change_percent", "x", "currency", "vendor"]
    assert [p.name for p in S.invoice_params(change=None)] == ["visible_total", "currency", "vendor"]


def test_the_invoice_page_its_key_and_a_corrected_copy_with_the_same_identity():
    c, buf, page = S.new_invoice(PARAMS, 3, "handmade")
    text = page_texts(kit.finish(c, buf))[0]
    assert "Acme Ltd" in text and "TOTAL DUE £4,812.07" in text and page.competing == round(4812.07 * 1.18, 2)
    assert page.below_totals < page.total_y
    key = S.total_key(page.inv, "£4,812.07", "£5,678.24", "reads the layer", layer="ocg")
    assert key.metadata == {"invoice_no": page.inv.number, "vendor": "Acme Ltd", "layer": "ocg"}
    assert key.question == kit.total_due_question(page.inv.number, "Acme Ltd")
    # (streams of another family: another customer and date, were they not kept; as many items)
    c2, buf2, copy = S.new_invoice(PARAMS, 3, "second", total=5678.24, draw_total=False, identity=page.inv)
    assert (copy.inv.number, copy.inv.customer, copy.inv.issued) == (page.inv.number, page.inv.customer, page.inv.issued)
    assert [n for n, _ in copy.inv.items] == [n for n, _ in page.inv.items] and copy.inv.total == 5678.24
    assert "£5,678.24" not in page_texts(kit.finish(c2, buf2))[0]


def test_an_edit_by_pymupdf_gives_the_same_bytes_every_time():
    c, buf, _page = S.new_invoice(PARAMS, 3, "handmade")
    pdf = kit.finish(c, buf)

    def stamp(doc, pymupdf) -> None:
        doc[0].insert_text((72, 72), "PAID", fontsize=9)

    once = S.edit_with_pymupdf(pdf, stamp)
    assert once == S.edit_with_pymupdf(pdf, stamp) and once != pdf
    assert page_texts(once)[0].endswith("PAID")


def test_a_pdf_string_literal_plain_or_utf16():
    assert S.pdf_string("Total (net) \\ 12") == "(Total \\(net\\) \\\\ 12)"
    assert S.pdf_string("Total €") == "<FEFF0054006F00740061006C002020AC>"
