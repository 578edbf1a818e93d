"""The drawing kit the families share (workbench/generators/kit.py): a canvas whose bytes depend
only on what is drawn, money and questions as the families write them, a total split into line
items that add up to the cent, word wrap, a footer, and text drawn as pixels only."""

from __future__ import annotations

import random

import pymupdf

from tests.support.families import page_texts
from workbench.generators import kit


def drawn(draw) -> bytes:
    c, buf = kit.new_canvas(title="Kit test")
    draw(c)
    return kit.finish(c, buf)


def test_the_same_drawing_gives_the_same_bytes_with_our_names_on_it():
    def draw(c) -> None:
        c.drawString(72, 700, "Invoice 42")

    first = drawn(draw)
    assert first == drawn(draw)
    meta = pymupdf.open(stream=first).metadata
    assert (meta["creator"], meta["producer"], meta["title"]) == ("pdfworkbench", "pdfworkbench", "Kit test")
    assert pymupdf.open(stream=first)[0].rect.width == 612             # US Letter by default


def test_money_and_sentences_as_the_families_write_them():
    assert kit.money(12345.678) == "$12,345.68" and kit.money(-5, "€") == "-€5.00"
    assert kit.money(1234.5, code="EUR") == "EUR 1,234.50" and kit.money(-1, code="GBP") == "-GBP 1.00"
    assert kit.full_stop("Umbrella Facilities Ltd.") == "Umbrella Facilities Ltd."
    question = kit.total_due_question("INV-7", "Initech Software Solutions")
    assert "invoice INV-7 from Initech Software Solutions. What is the TOTAL AMOUNT DUE?" in question


def test_a_total_split_into_parts_adds_up_to_the_cent():
    rng = random.Random(7)
    for total, parts in ((1234.56, 5), (0.03, 8), (100.0, 1), (0.29, 3)):   # (0.29 * 100 = 28.999...)
        split = kit.split_total(rng, total, parts)
        assert round(sum(split), 2) == total and all(p > 0 for p in split)
        assert len(split) == min(parts, round(total * 100))
    assert kit.split_total(random.Random(3), 50.0, 4) == kit.split_total(random.Random(3), 50.0, 4)
    assert 1.0 <= kit.cents(rng, 1, 2) <= 2.0 and kit.pick(random.Random(1), ["a"]) == "a"


def test_words_wrap_within_the_width_and_a_paragraph_returns_the_y_below_it():
    text = "The supplier may revise the price of any line with thirty days of written notice."
    lines = kit.wrap(text, "Helvetica", 10, 150)
    assert " ".join(lines) == text and len(lines) > 2
    assert all(kit.text_width(line, "Helvetica", 10) <= 150 for line in lines)
    assert kit.wrap("Supercalifragilistic", "Helvetica", 10, 5) == ["Supercalifragilistic"]   # a long word alone
    below = []
    pdf = drawn(lambda c: below.append(kit.draw_paragraph(c, text, 72, 700, 150)))
    assert below == [700 - len(lines) * 13.5]
    assert " ".join(page_texts(pdf)[0].split()) == text


def test_a_footer_has_its_text_left_and_the_page_right():
    pdf = drawn(lambda c: kit.draw_footer_line(c, 72, 540, "Acme Ltd · VAT GB123", page="Page 2 of 3"))
    page = pymupdf.open(stream=pdf)[0]
    left, right = page.search_for("Acme Ltd")[0], page.search_for("Page 2 of 3")[0]
    assert left.x0 == 72 and abs(right.x1 - 540) < 0.5 and left.y1 > 792 - 45


def test_text_drawn_as_pixels_has_a_box_and_no_text_layer():
    boxes = []
    pdf = drawn(lambda c: boxes.append(kit.draw_text_pixels(c, "$4,711.00", 300, 400, 12, align="right")))
    ((x0, y0, x1, y1),) = boxes
    assert x1 == 300 and x1 - x0 > 40 and 395 < y0 < 400 < y1           # the baseline at 400
    assert page_texts(pdf) == [""]
    page = pymupdf.open(stream=pdf)[0]
    (info,) = page.get_image_info()
    assert abs(info["bbox"][0] - x0) < 0.5 and abs(info["bbox"][2] - 300) < 0.5
