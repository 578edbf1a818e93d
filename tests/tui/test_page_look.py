"""What a page pane asks to be drawn (workbench/tui/page_look.py): the pixels a page fits into
half-cells at, the DPI it is rendered at (the reader's, lower when only fitted), a look applied to
another document, and a page's size."""

from __future__ import annotations

from tests.support.invoices import invoice_pdf
from workbench.pdf.pages import Box
from workbench.tui import firstpage
from workbench.tui.page_look import PageLook, PageRequest, fit_pixels, page_points, render_dpi_for

EXPECTED, HIDDEN = Box(0, (1, 2, 3, 4), "expected"), Box(1, (1, 2, 3, 4), "hidden")


def request(zoom: float = 1.0, dpi: int = 150, cols: int = 60, rows: int = 40, page: int = 3) -> PageRequest:
    return PageRequest(b"", page, dpi, cols, rows, zoom, (0.5, 0.5))


def test_a_page_fits_the_cells_it_is_given_two_pixels_a_cell_high():
    assert fit_pixels(612, 792, 60, 40) == (60, 77)        # width-bound: 60 columns
    assert fit_pixels(612, 792, 200, 20) == (30, 40)       # height-bound: 20 rows of 2 pixels
    assert fit_pixels(612, 792, 0, 0) == (1, 2)            # never nothing


def test_a_fitted_page_is_rendered_at_twice_the_panes_resolution_never_above_the_readers():
    fitted = render_dpi_for(request(), 612, 792)
    assert fitted == max(firstpage.FIT_DPI, round(2 * 60 / 612 * 72)) and fitted < 150
    assert render_dpi_for(request(cols=2000, rows=2000), 612, 792) == 150     # a huge pane: the reader's
    assert render_dpi_for(request(zoom=2.0), 612, 792) == 150                 # zoomed: the reader's raster
    assert render_dpi_for(request(zoom=0.0), 612, 792) == 150                 # 1:1
    assert render_dpi_for(request(), 612, 792, hires=True) == 150


def test_a_look_applied_to_another_document_keeps_its_page_within_it_and_its_kinds_of_boxes():
    look = PageLook(request(page=3), frozenset({"expected"}), (HIDDEN,))
    other = look.request_for(b"%PDF", 2, [EXPECTED, Box(0, (5, 6, 7, 8), "forbidden")])
    assert (other.pdf, other.page, other.boxes) == (b"%PDF", 1, [EXPECTED, HIDDEN])
    assert (other.cols, other.rows, other.zoom) == (60, 40, 1.0)
    assert look.request_for(b"x", 9, []).page == 3 and look.request_for(b"x", 0, []).page == 0


def test_a_pages_size_in_points():
    assert page_points(invoice_pdf("$1.00", "$2.00"), 0) == (595.2755737304688, 841.8897705078125)
