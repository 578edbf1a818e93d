"""Ink (workbench/pdf/ink.py): a page's pixels with and without its text, the pixels of a box that
are a span's own ink, and the opaque boxes drawn over text, on pages reportlab writes."""

from __future__ import annotations

import random

import numpy as np
import pymupdf
import pytest

from tests.support import pdfs_forensics as F
from workbench.pdf import ink

BLACK, WHITE = (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)


def spans_of(page) -> dict[str, tuple[float, float, float, float]]:
    return {s["text"]: s["bbox"] for b in page.get_text("dict")["blocks"] for line in b.get("lines", ())
            for s in line["spans"]}


@pytest.fixture(scope="module")
def covered():
    """F.covered() open in pymupdf: "HIDE 601" under a white box drawn after it, "SHOW 602" in an
    outline; with its pixels at 72 dpi (as drawn, and with the text removed)."""
    doc = pymupdf.open(stream=F.covered())
    page = doc[0]
    boxes, drawings = spans_of(page), page.get_drawings()
    pixels = ink.PagePixels(page, 72, white=False)   # (kept while its arrays are read: they are views)
    full, bare = pixels.arrays()
    yield boxes, drawings, full, bare
    del pixels
    doc.close()


def px(box) -> tuple[int, int, int, int]:
    return ink.px_boxes([box], 1.0, 612, 792)[0]


def test_the_bare_page_has_no_text_but_keeps_the_drawings(covered):
    boxes, _drawings, full, bare = covered
    x0, y0, x1, y1 = px(boxes["SHOW 602"])
    assert full[y0:y1, x0:x1].min() < 64 and bare[y0:y1, x0:x1].min() == 255   # the text is gone...
    assert bare[y0 - 4:y1 + 4, x0 - 8:x1 + 60].min() < 128                      # ...its outline is not


def test_a_span_under_a_white_box_has_no_ink_of_its_own_the_one_beside_it_has(covered):
    boxes, _drawings, full, bare = covered
    hidden, n_hidden, _ = ink.measure_ink(full, bare, px(boxes["HIDE 601"]), BLACK, 1.0)
    shown, n_shown, _ = ink.measure_ink(full, bare, px(boxes["SHOW 602"]), BLACK, 1.0)
    assert hidden == 0 and n_hidden > 500
    assert shown >= max(ink.MIN_INK_PIXELS, ink.MIN_INK_FRACTION * n_shown) and shown > 50
    # White ink on the white page is not ink; a hole over the whole box leaves the box as it was.
    assert ink.measure_ink(full, bare, px(boxes["SHOW 602"]), WHITE, 1.0)[0] == 0
    box = px(boxes["SHOW 602"])
    left_half = (box[0], box[1], (box[0] + box[2]) // 2, box[3])
    half = ink.measure_ink(full, bare, box, BLACK, 1.0, holes=[left_half])
    assert 0 < half[0] < shown and half[1] < n_shown
    assert ink.measure_ink(full, bare, box, BLACK, 1.0, holes=[box])[:2] == (shown, n_shown)


def test_only_the_filled_box_counts_as_a_cover_and_only_over_what_was_drawn_before_it(covered):
    boxes, drawings, _full, _bare = covered
    found = ink.opaque_covers(drawings)
    assert [rect for _seq, rect in found] == [(66.0, 176.0, 186.0, 198.0)]   # not the outline
    covers = ink.Covers(found)
    seq = found[0][0]
    hidden = boxes["HIDE 601"]
    assert covers.hide(hidden, seq - 1, 0.9 * ink.area(hidden))
    assert not covers.hide(hidden, seq, 0.9 * ink.area(hidden))          # drawn before the text
    assert not covers.hide(boxes["SHOW 602"], seq - 1, 1.0)              # elsewhere on the page
    assert covers.over(hidden, seq - 1) == [(66.0, 176.0, 186.0, 198.0)]
    assert covers.over(boxes["SHOW 602"], seq - 1) is None and covers.over(hidden, seq) is None
    assert ink.share(hidden, covers.over(hidden, seq - 1)) == 1.0
    assert ink.Covers([]).over(hidden, 0) is None and not ink.Covers([]).hide(hidden, 0, 1.0)
    # A page of many covers is asked as arrays: the same answers.
    many = ink.Covers(found + [(seq + 1 + i, (0.0, 700.0 + i / 10, 10.0, 710.0)) for i in range(ink.Covers.ARRAYS_FROM)])
    assert many._arrays is not None and covers._arrays is None
    for box in (hidden, boxes["SHOW 602"], (0.0, 705.0, 5.0, 706.0)):
        for after in (seq - 1, seq, seq + 10):
            for least in (1.0, 0.9 * ink.area(box)):
                assert many.hide(box, after, least) == ink.Covers(many._covers[:]).hide(box, after, least)
            assert many.over(box, after) == _over_by_hand(many._covers, box, after)
    assert many.over(hidden, seq - 1)[0] == (66.0, 176.0, 186.0, 198.0)


def _over_by_hand(covers, box, after):
    found = [r for q, r in covers if q > after and ink.area(ink.intersect(r, box)) > 0]
    return found or None


def test_pixel_boxes_at_once_are_the_pixels_of_one_at_a_time_clipped_to_the_page():
    boxes = [(10.2, 20.7, 30.1, 40.0), (-50.0, 700.0, 20.0, 900.0), (590.5, 0.0, 700.0, 5.5),
             (100.0, 100.0, 90.0, 90.0)]
    for scale in (1.0, 150 / 72, 300 / 72):
        width, height = round(612 * scale), round(792 * scale)
        one_at_a_time = [ink.to_px(b, pymupdf.Matrix(scale, scale), width, height) for b in boxes]
        assert ink.px_boxes(boxes, scale, width, height) == one_at_a_time
    assert ink.px_boxes(boxes, 1.0, 612, 792)[1:] == [(0, 700, 20, 792), (590, 0, 612, 6), (100, 100, 100, 100)]
    (x0, _, x1, _), = ink.px_boxes([(float("inf"), 0, 1, 1)], 1.0, 612, 792)   # no real page's
    assert x0 == x1                                                             # (an empty box)
    assert ink.px_boxes([], 1.0, 612, 792) == []


def _overlap(a, b) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def test_overlaps_areas_and_lightness():
    from workbench.pdf.spans import Span

    def span(box) -> Span:
        return Span(0, 0, "x", box, "Helvetica", 10.0, BLACK, 0, 1.0)

    spans = [span((0, 0, 10, 10)), span((5, 5, 15, 15)), span((10, 0, 20, 8)), span((30, 30, 40, 40))]
    assert list(ink.Overlaps(spans)) == [[1], [0, 2], [1], []]   # touching edges do not overlap
    assert list(ink.Overlaps([])) == []
    assert ink.area((0, 0, 4, 5)) == 20 and ink.area((5, 5, 0, 0)) == 0
    # Spans over a page, swept: the same as each pair compared.
    rng = random.Random(7)
    many = [span((x, y, x + rng.uniform(0, 30), y + rng.uniform(0, 12)))
            for x, y in ((rng.uniform(0, 500), rng.uniform(0, 700)) for _ in range(2 * ink.Overlaps.BLOCK + 100))]
    found = ink.Overlaps(many)
    assert found._found is not None
    assert list(found) == [[j for j, b in enumerate(many) if j != k and _overlap(a.bbox, b.bbox)]
                           for k, a in enumerate(many)]
    # A pile of spans in one place: past a block of them, the same, a block at a time (a page of
    # 24,000 spans made 24,000 x 24,000 matrices: 1.3 GB)
    pile = [span((x, y, x + rng.uniform(0, 30), y + rng.uniform(0, 12)))
            for x, y in ((rng.uniform(0, 50), rng.uniform(0, 10)) for _ in range(2 * ink.Overlaps.BLOCK + 100))]
    found = ink.Overlaps(pile)
    assert list(found) == [[j for j, b in enumerate(pile) if j != k and _overlap(a.bbox, b.bbox)]
                           for k, a in enumerate(pile)]
    assert found._found is None and found._hit.shape == (100, len(pile))   # (the last block's rows, no more)
    assert ink.intersect((0, 0, 10, 10), (5, 5, 15, 15)) == (5, 5, 10, 10)
    assert ink.luma(WHITE) == pytest.approx(255) and ink.luma(BLACK) == 0
    assert ink.luma((1.0, 0.0, 0.0)) == pytest.approx(0.299 * 255)


def test_a_translucent_span_is_judged_against_what_is_under_it():
    full = np.full((10, 10), 255, dtype=np.uint8)
    bare = full.copy()
    full[2:8, 2:8] = 128          # black at half opacity over white paper
    assert ink.measure_ink(full, bare, (0, 0, 10, 10), BLACK, 0.5)[:2] == (36, 100)
    assert ink.measure_ink(full, bare, (0, 0, 10, 10), BLACK, 0.02)[0] == 0   # so faint it cannot show
    assert ink.measure_ink(full, bare, (5, 5, 5, 5), BLACK, 1.0)[:2] == (0, 0)


def _page_of_kind(name: str) -> tuple[bytes, bool]:
    """A PDF with a page of this kind, and whether that page is nothing but text: text on white
    paper, text under and over filled boxes, white text over a picture, a table's rules turned
    on its page, a statement's shaded rows."""
    from tests.support import foreign_pdfs as FP

    return {"text only": lambda: (FP.pymupdf_turned(0), True), "covered": lambda: (F.covered(), False),
            "grey on grey": lambda: (F.grey_on_grey(), False), "over a picture": lambda: (F.white_over_image(), False),
            "table turned": lambda: (FP.platypus_table(90), False),
            "statement": lambda: (FP.platypus_statement(), False)}[name]()


@pytest.mark.parametrize("name", ["text only", "covered", "grey on grey", "over a picture", "table turned", "statement"])
def test_a_box_counted_as_bytes_is_measured_as_the_arrays_measure_it(name):
    """`PagePixels` counts a box's bytes where the page without its text is one shade there, and
    reads arrays elsewhere: every span's box, each character's, with the text overlapping it left
    out, in several colours and opacities, gives the same ink, pixels looked at, shade under it
    and darkness as `measure_ink` on the page's arrays; and the same verdict, seen or not, when
    only its middle band is counted first (boxes stretched up to four times their height, the
    text in their bottom quarter, show ink that is not in their middle band)."""
    data, text_only = _page_of_kind(name)
    checked = seen_outside_the_band = 0
    for white in ((True, False) if text_only else (False,)):
        doc = pymupdf.open(stream=data)
        page = doc[0]
        boxes = [s["bbox"] for b in page.get_text("rawdict")["blocks"] for line in b.get("lines", ())
                 for s in line["spans"]]
        boxes += [c["bbox"] for b in page.get_text("rawdict")["blocks"] for line in b.get("lines", ())
                  for s in line["spans"] for c in s["chars"]][:200]
        pixels = ink.PagePixels(page, 150, white)
        full, bare = pixels.arrays()
        px = ink.px_boxes(boxes, 150 / 72, pixels.width, pixels.height)
        px += [(pixels.width - 5, 0, pixels.width, 40), (10, 10, 10, 30)]   # (at the page's edge; empty)
        px += [(b[0], max(0, b[1] - 3 * (b[3] - b[1])), b[2], b[3]) for b in px[:20]]   # (stretched up)
        for k, box in enumerate(px):
            holes = [h for h in px if h != box and ink.area(ink.intersect(h, box)) > 0][:10]
            holes.append((box[0], box[1], (box[0] + box[2]) // 2, box[3]))
            for rgb, opacity in ((BLACK, 1.0), ((0.5, 0.5, 0.5), 1.0), (BLACK, 0.5), (WHITE, 1.0), ((1.0, 0.0, 0.0), 0.3)):
                for some in ((), holes[-1:], holes):
                    want = ink.measure_ink(full, bare, box, rgb, opacity, some, white)
                    assert pixels.measure(box, rgb, opacity, some) == want[:2], (name, k, box, rgb, opacity, some)
                    seen = ink.enough_ink(*want[:2])
                    assert pixels.shows_ink(box, rgb, opacity, some) == seen, (name, k, box, rgb, opacity, some)
                    if seen and not some and box[3] - box[1] >= 5:
                        top = box[1] + 2 * (box[3] - box[1]) // 5
                        band = (box[0], top, box[2], top + (box[3] - box[1]) // 5)
                        seen_outside_the_band += not ink.enough_ink(ink.measure_ink(full, bare, band, rgb, opacity,
                                                                                    (), white)[0], ink.area(box))
                    checked += 1
            under = bare[box[1]:box[3], box[0]:box[2]]
            assert pixels.under(box) == (float(np.median(under)) if under.size else 255.0)
            assert pixels.dark_without_text(box, 160) == bool(under.size and under.min() < 160)
        doc.close()
    assert checked > 200 and seen_outside_the_band > 0
