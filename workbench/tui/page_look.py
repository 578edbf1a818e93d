"""What a page pane asks to be drawn (`PageRequest`, `PageLook`) and what it got back (`RenderedPage`,
`View`), with the sizes it is fitted to. Plain values: no imaging here. The drawing is
`page_render.py`'s (PIL), loaded with the first page drawn, so a first frame without the page
loads no imaging.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from workbench.tui import firstpage

if TYPE_CHECKING:
    from workbench.pdf.pages import Box


@dataclass
class PageRequest:
    """A page to draw: the PDF, the page, its DPI, the pane's size and the view (zoom, centre, boxes)."""

    # Out of the repr: Textual's @work names each worker by the repr of its arguments, and the
    # repr of a 10,000-page PDF's bytes took about 100 ms of the UI thread on every page turn.
    pdf: bytes = field(repr=False)
    page: int
    dpi: int
    cols: int
    rows: int
    zoom: float                  # a factor over the fitted page; 0 means 1:1 (ACTUAL)
    center: tuple[float, float]  # fractions of the page, the middle of the view when zoomed
    boxes: list[Box] = field(default_factory=list)
    focus: tuple[float, float, float, float] | None = None  # a rect (points) to centre the view on
    cell: tuple[int, int] = (1, 2)  # pixels of one cell at 1:1: 1 x 2 for half-blocks


@dataclass(frozen=True)
class PageLook:
    """How a PageView shows its page now (page, pane size, zoom, centre, which overlays), without
    the document: a worker that makes a new document renders it the same way ahead of time
    (`render_ahead`), and `PageView.show_pdf` shows that render if the view has not changed since."""

    request: PageRequest                # the page view's request, for no document (pdf b"", no boxes)
    kinds: frozenset[str]               # the kinds of boxes shown
    extra: tuple[Box, ...] = ()         # boxes shown whatever the document (an answer's value)

    def request_for(self, pdf: bytes, page_count: int, boxes: list[Box]) -> PageRequest:
        """The request the page view makes for `pdf` shown with `keep_view` (see `show_pdf`)."""
        page = max(min(self.request.page, page_count - 1), 0)
        shown = [b for b in boxes if b.kind in self.kinds] + list(self.extra)
        return replace(self.request, pdf=pdf, page=page, boxes=shown)


@dataclass
class View:
    """What a render shows: the page area (fractions of the page) and its centre."""

    area: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)
    center: tuple[float, float] = (0.5, 0.5)


@dataclass
class RenderedPage:
    """A page rendered for a pane: what `PageView.Rendered` carries to it."""

    page: int
    renderable: object
    view: View
    request: PageRequest | None = None   # what was rendered


def fit_pixels(page_w: float, page_h: float, cols: int, rows: int) -> tuple[int, int]:
    """Pixel size that fits a w x h area into cols x rows cells; a half-block cell is 1 x 2 pixels."""
    max_w, max_h = max(cols, 1), max(rows * 2, 2)
    scale = min(max_w / page_w, max_h / page_h)
    return max(1, int(page_w * scale)), max(2, int(page_h * scale))


def render_dpi_for(req: PageRequest, page_w: float, page_h: float, hires: bool = False) -> int:
    """The DPI `render_view` renders a page of `page_w` x `page_h` points at for `req`."""
    if req.zoom == 1 and not hires:
        # Fitted to the pane, the page is far smaller than any reader's raster: render at twice
        # the pane's resolution (never above the reader's DPI) and let the resize antialias.
        fit_w, fit_h = fit_pixels(page_w, page_h, req.cols, req.rows)
        return max(firstpage.FIT_DPI, min(req.dpi, round(2 * fit_w / page_w * 72)))
    return req.dpi


def page_points(pdf: bytes, page: int) -> tuple[float, float]:
    """Page `page`'s width and height, in points."""
    from workbench.pdf.render import shared_document  # (pymupdf: a page is shown by now)

    with shared_document(pdf) as doc:
        rect = doc[page].rect
        return rect.width, rect.height
