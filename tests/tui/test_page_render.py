"""A page rendered for a page pane (workbench/tui/page_render.py), without the TUI: the page at the
reader's DPI cropped to the zoom or 1:1 and fitted, centred on a box asked for, its boxes drawn in
their colours on their own page only, and a document rendered ahead as the pane would."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.invoices import invoice_pdf
from workbench.pdf.pages import Box
from workbench.tui.page_look import PageLook, PageRequest
from workbench.tui.page_render import (
    OVERLAY_COLOURS,
    raster_for,
    raster_view,
    render_ahead,
    render_view,
)

TOTAL = (140.0, 172.5, 196.1, 184.5)   # "$4,711.00" on the invoice, in points


@pytest.fixture(scope="module")
def pdf() -> bytes:
    return invoice_pdf("$4,711.00", "$9,999.00")


def request(pdf: bytes, zoom: float = 1.0, boxes=(), focus=None, cols: int = 60, rows: int = 40) -> PageRequest:
    return PageRequest(pdf, 0, 72, cols, rows, zoom, (0.5, 0.5), list(boxes), focus)


def test_fitted_zoomed_and_one_to_one_views(pdf):
    fitted = raster_view(request(pdf))
    assert fitted.size == (56, 80) and fitted.view.area == (0.0, 0.0, 1.0, 1.0)
    zoomed = raster_view(request(pdf, zoom=2.0))
    x0, y0, x1, y1 = zoomed.view.area
    assert (x1 - x0, y1 - y0) == pytest.approx((0.5, 0.5), abs=0.01) and zoomed.view.center == pytest.approx((0.5, 0.5), abs=0.01)
    actual = raster_view(request(pdf, zoom=0.0))
    assert actual.size == (60, 80) and actual.factor == 1.0              # one half-cell, one reader pixel
    on_total = raster_view(request(pdf, zoom=3.0, focus=TOTAL))
    x0, y0, x1, y1 = on_total.view.area
    assert x0 * 595 < TOTAL[0] and TOTAL[2] < x1 * 595 and y0 * 842 < TOTAL[1] and TOTAL[3] < y1 * 842


def test_boxes_are_drawn_in_their_colours_on_their_own_page_only(pdf):
    def pixels(boxes):
        image, _view = render_view(request(pdf, zoom=0.0, boxes=boxes, focus=TOTAL, cols=120), hires=True)
        return {tuple(p) for p in np.asarray(image).reshape(-1, 3).tolist()}

    plain = pixels([])
    assert tuple(OVERLAY_COLOURS["expected"][:3]) not in plain
    assert tuple(OVERLAY_COLOURS["expected"][:3]) in pixels([Box(0, TOTAL, "expected")])
    assert tuple(OVERLAY_COLOURS["forbidden"][:3]) in pixels([Box(0, TOTAL, "forbidden")])
    assert pixels([Box(1, TOTAL, "expected")]) == plain                   # another page's box
    shaded = pixels([Box(0, TOTAL, "hidden")])                           # amber, translucent
    assert shaded != plain and tuple(OVERLAY_COLOURS["hidden"][:3]) not in shaded

    def changed(kind: str) -> int:
        req = request(pdf, zoom=0.0, boxes=[Box(0, TOTAL, kind)], focus=TOTAL, cols=120)
        drawn, _ = render_view(req, hires=True)
        bare, _ = render_view(request(pdf, zoom=0.0, focus=TOTAL, cols=120), hires=True)
        return int((np.asarray(drawn) != np.asarray(bare)).any(axis=2).sum())

    box_px = (TOTAL[2] - TOTAL[0]) * (TOTAL[3] - TOTAL[1])               # at 72 dpi, 1:1
    assert changed("hidden") > 0.9 * box_px > 2 * changed("expected")    # shaded whole; outlined


def test_a_document_rendered_ahead_is_what_the_pane_would_render(pdf):
    look = PageLook(request(b""), frozenset({"expected"}), ())
    ahead = render_ahead(look, pdf, 1, [Box(0, TOTAL, "expected"), Box(0, TOTAL, "hidden")])
    assert ahead.page == 0 and ahead.request.pdf is pdf and [b.kind for b in ahead.request.boxes] == ["expected"]
    assert ahead.view == render_view(ahead.request)[1]
    assert raster_for(look, pdf).pixels == raster_view(ahead.request).pixels
