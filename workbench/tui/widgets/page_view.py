"""The rendered page, drawn with half-block characters, fitted to the pane.

The page is rendered at the DPI a vision reader would get, then scaled to the pane, so what you
see is what the reader saw (zoom in to see its detail). The last zoom level is 1:1: one half-cell
is one pixel of the reader's raster, so the print is exactly as legible as it was to the reader.
Evidence boxes and hidden spans are drawn over it, each layer toggled by a key. The rendering is
`page_render.py`'s (in a worker), the half-cells `halfcell.py`'s.

The page's drawing (PIL) is loaded with the first page drawn, never for the screen's first frame:
that frame shows the case list and an empty pane, and the page follows in the next (drawn ahead by
the process started with the workbench, only scaled here: `show_drawn_ahead`, just after it).

The page keys are screen keys (`PAGE_BINDINGS`, handled by `PageKeys`), so they work whatever
pane has focus.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import get_current_worker

from workbench.tui import firstpage
from workbench.tui.page_look import (
    PageLook,
    PageRequest,
    RenderedPage,
    View,
    page_points,
    render_dpi_for,
)
from workbench.tui.widgets.layout import update_in_place

if TYPE_CHECKING:  # (the boxes come with a case's data, loaded after the first frame)
    from workbench.pdf.pages import Box

ZOOMS = (1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
ACTUAL = len(ZOOMS)  # the zoom level after the last factor: 1:1, one half-cell per reader pixel

PAGE_BINDINGS = [
    Binding("pagedown", "page_step(1)", "Next page", id="next_page", priority=True, show=False,
            tooltip="Next page (whatever pane has focus)"),
    Binding("pageup", "page_step(-1)", "Prev page", id="previous_page", priority=True, show=False,
            tooltip="Previous page"),
    Binding("n", "page_step(1)", "Next page", show=False, id="next_page_n", tooltip="Next page"),
    Binding("p", "page_step(-1)", "Prev page", show=False, id="previous_page_p", tooltip="Previous page"),
    Binding("g", "page_go", "Go to page", id="go_to_page", show=False, tooltip="Go to a page by its number"),
    Binding("plus,equals_sign", "page_zoom(1)", "Zoom", id="zoom_in", show=False, tooltip="Zoom in"),
    Binding("minus", "page_zoom(-1)", "Zoom out", show=False, id="zoom_out",
            tooltip="Zoom out, down to the page fitted (0 fits it at once)"),
    Binding("0", "page_fit", "Fit", show=False, id="fit", tooltip="Fit the page to the pane"),
    Binding("z", "page_actual", "1:1", id="zoom_actual",
            tooltip="1:1: one half-cell per pixel of the reader's raster (z again fits)"),
    Binding("b", "page_box(1)", "Next box", id="next_box",
            tooltip="Centre the view on the next evidence box or hidden span, zoomed to read it whole"),
    Binding("B", "page_box(-1)", "Prev box", show=False, id="previous_box", tooltip="The previous box"),
]


def render_view(req: PageRequest, hires: bool = False):
    """`page_render.render_view`: the page's drawing (PIL) is loaded with the first page drawn,
    so a first frame without the page loads no imaging."""
    from workbench.tui import page_render

    return page_render.render_view(req, hires)


class PageKeys:
    """The page keys of a screen with a PageView: they work whatever has focus (a text field still
    takes the letters typed into it). A screen lists `*PAGE_BINDINGS` and may override `page_view`."""

    def page_view(self) -> PageView:
        return self.query_one(PageView)  # type: ignore[attr-defined]

    def action_page_step(self, step: int) -> None:
        view = self.page_view()
        view.go_to(view.page + step)

    def action_page_go(self) -> None:
        view = self.page_view()
        if view.page_count < 2:
            self.notify("this document has one page" if view.page_count else "no page is shown",  # type: ignore[attr-defined]
                        timeout=3)
            return

        def went(page: int | None) -> None:
            if page is not None:
                view.go_to(page)

        # (a dialog: loaded when opened)
        from workbench.tui.widgets.go_to_page import GoToPageScreen

        self.app.push_screen(GoToPageScreen(view.page, view.page_count), went)  # type: ignore[attr-defined]

    def action_page_zoom(self, step: int) -> None:
        self.page_view().action_zoom(step)

    def action_page_fit(self) -> None:
        self.page_view().action_fit()

    def action_page_actual(self) -> None:
        view = self.page_view()
        view.action_fit() if view.zoom_level == ACTUAL else view.set_zoom(ACTUAL)

    def action_page_box(self, step: int) -> None:
        view = self.page_view()
        box = view.focus_next_box(step)
        if box is None:
            self.notify("no evidence boxes or hidden spans are shown on this document",  # type: ignore[attr-defined]
                        severity="warning", timeout=3)


class PageView(Widget, can_focus=True):
    """One page of the current PDF; keys move through pages, zoom, pan and toggle overlays."""

    HELP = """
## Page

The page as a vision reader gets it: rendered at the reader's DPI, then fitted to this pane.

- **PgDn / PgUp** (or **n / p**): next / previous page, whatever pane has focus
- **g**: go to a page by its number (or `end`)
- **+ / -**: zoom in / out, up to **1:1** (one half-cell per pixel the reader got); **z**: 1:1 or
  back to fit; **0** fits; **arrow keys** pan while zoomed (with the page focused)
- **b / B**: centre the next / previous evidence box or hidden span, zoomed as far as shows it
  whole (1:1 when it fits)
- **e**: evidence boxes (expected answer in green, forbidden answers in red)
- **h**: hidden text (text that is in the text layer but not visible) shaded in amber
"""

    BINDINGS = [
        Binding("left", "pan(-1, 0)", "Pan left", show=False, id="pan_left", tooltip="Move the zoomed page left"),
        Binding("right", "pan(1, 0)", "Pan right", show=False, id="pan_right", tooltip="Move the zoomed page right"),
        Binding("up", "pan(0, -1)", "Pan up", show=False, id="pan_up", tooltip="Move the zoomed page up"),
        Binding("down", "pan(0, 1)", "Pan down", show=False, id="pan_down", tooltip="Move the zoomed page down"),
    ]

    page: reactive[int] = reactive(0, init=False)
    zoom_level: reactive[int] = reactive(0, init=False)
    dpi: reactive[int] = reactive(150, init=False)
    show_evidence: reactive[bool] = reactive(True, init=False)
    show_hidden: reactive[bool] = reactive(True, init=False)

    @dataclass
    class Rendered(Message):
        """A page was drawn for the pane (from a worker)."""

        page: int
        renderable: object
        view: View
        request: PageRequest | None = None   # what was rendered

    @dataclass
    class PageChanged(Message):
        """The page shown changed (a key, a new document): panes that follow the page listen."""

        page_view: PageView
        page: int
        page_count: int

        @property
        def control(self) -> PageView:
            return self.page_view

    @dataclass
    class PageShown(Message):
        """A page's image went on screen: work that would slow its drawing can start now."""

        page_view: PageView
        page: int

        @property
        def control(self) -> PageView:
            return self.page_view

    def __init__(self, graphics: str = "halfblock", **kwargs) -> None:
        super().__init__(**kwargs)
        # "hires": a textual-image widget (Sixel or Kitty), imported before the app started.
        self.graphics = graphics
        self.pdf: bytes | None = None
        self.page_count = 0
        self.boxes: list[Box] = []
        self.center = (0.5, 0.5)
        self.shown = View()        # the page area on screen now
        self.box_zoom: float | None = None  # the zoom `b` chose to show a box whole, until a zoom key
        self.value_box: Box | None = None   # the box of the answer value chosen in the Answers tab
        self.focus_rect: tuple[float, float, float, float] | None = None
        self.box_index = -1
        self.border_title = "Page"
        self.rendered_page: int | None = None  # the page on screen now (for tests and status)
        self._asked: PageRequest | None = None  # the last render asked for: only it is shown
        self._drawn: PageRequest | None = None  # the request of the picture on screen now

    def compose(self) -> ComposeResult:
        yield Static(Text("loading...", style="dim"), id="page-image")
        if self.graphics == "hires":
            # The optional extra `hires` (textual-image; `open --graphics hires` checks it is there)
            from textual_image.widget import Image

            yield Image(id="page-hires")

    def show_pdf(self, pdf: bytes, page_count: int, boxes: list[Box] | None = None,
                 keep_view: bool = False, ahead: RenderedPage | None = None) -> None:
        """Show a document from its first page; `keep_view` keeps the page, zoom and centre (a
        regenerated preview of the same draft). `ahead` is this document rendered already
        (`render_ahead`): shown at once if it is what would be rendered now."""
        self.pdf = pdf
        self.page_count = page_count
        self.boxes = boxes or []
        self.box_index = -1
        if not keep_view:
            self.center = (0.5, 0.5)
            self.set_reactive(PageView.zoom_level, 0)
            self.box_zoom = None
            self.value_box = None
        page = min(self.page, page_count - 1) if keep_view else 0
        self.set_reactive(PageView.page, max(page, 0))
        self.post_message(self.PageChanged(self, self.page, page_count))
        self.refresh_page(ahead)

    def set_boxes(self, boxes: list[Box]) -> None:
        self.boxes = boxes
        self.refresh_page()

    def go_to(self, page: int) -> None:
        if 0 <= page < self.page_count:
            self.page = page

    def clear(self, message: str) -> None:
        self.pdf = None
        self.page_count = 0
        self.rendered_page = None
        self._asked = None
        image = self.query_one("#page-image", Static)
        image.remove_class("-picture")
        image.update(Text(message, style="dim"))
        self.border_subtitle = ""

    def watch_page(self) -> None:
        self.post_message(self.PageChanged(self, self.page, self.page_count))
        self.refresh_page()

    def watch_zoom_level(self) -> None:
        self.refresh_page()

    def watch_dpi(self) -> None:
        self.refresh_page()

    def watch_show_evidence(self) -> None:
        self.refresh_page()

    def watch_show_hidden(self) -> None:
        self.refresh_page()

    def show_drawn_ahead(self) -> bool:
        """The workbench's first page, if the process started with it has drawn it: on screen
        in the next frame (only scaled here), before the Resize event that would draw it, which
        comes after the work queued behind the first frame. Whether it was."""
        if (self.rendered_page is None and self.pdf is not None and self.size.width > 0
                and self._drawn_ahead(self._request(self.pdf, []))):
            self.refresh_page()
            return True
        return False

    def drawing_ahead(self) -> bool:
        """Whether the process started with the workbench is drawing the page to show now (the
        first case's, before it is opened here too)."""
        first = firstpage.started()
        return (self.rendered_page is None and first is not None and self.graphics != "hires"
                and first.drawing(self.pdf))

    def _drawn_ahead(self, req: PageRequest) -> bool:
        """Whether the process started with the workbench has drawn the page `req` asks for."""
        first = firstpage.started()
        return (first is not None and self.graphics != "hires"
                and first.ready(req.pdf, req.page, lambda w, h: render_dpi_for(req, w, h)))

    @property
    def up_to_date(self) -> bool:
        """Whether the picture on screen is the last one asked for, at the pane's size now (no
        render pending, no resize not yet drawn): what a test waits for before a snapshot."""
        asked = self._asked
        return self.pdf is None or (asked is not None and self._drawn == asked
                                    and (asked.cols, asked.rows) == tuple(self.size))

    def on_resize(self) -> None:
        asked = self._asked
        if asked is not None and asked.pdf is self.pdf and (asked.cols, asked.rows) == tuple(self.size):
            return  # drawn for this size already
        self.refresh_page()

    def set_zoom(self, level: int) -> None:
        self.box_zoom = None
        level = min(max(level, 0), ACTUAL)
        if level == self.zoom_level:
            self.refresh_page()  # from a box's zoom back to this level's
        self.zoom_level = level

    def action_zoom(self, step: int) -> None:
        self.set_zoom(self.zoom_level + step)

    def action_fit(self) -> None:
        self.center = (0.5, 0.5)
        self.set_zoom(0)

    def action_pan(self, dx: int, dy: int) -> None:
        if self.zoom_level == 0 and self.box_zoom is None:
            return
        # A quarter of what is on screen, whatever the zoom.
        x0, y0, x1, y1 = self.shown.area
        cx, cy = self.shown.center
        self.center = (min(max(cx + dx * (x1 - x0) / 4, 0.0), 1.0),
                       min(max(cy + dy * (y1 - y0) / 4, 0.0), 1.0))
        self.refresh_page()

    def focus_next_box(self, step: int = 1) -> Box | None:
        """Centre the view on the next (or previous) box shown, at the closest zoom that still
        shows the whole box with a margin (1:1 when it fits); None when there is none."""
        boxes = sorted(self.visible_boxes(), key=lambda b: (b.page, round(b.rect[1]), b.rect[0]))
        if not boxes:
            return None
        self.box_index = (self.box_index + step) % len(boxes)
        self.show_box(boxes[self.box_index])
        return boxes[self.box_index]

    def show_value_box(self, box: Box) -> None:
        """Draw `box` (where a value of an answer came from) and bring it into view."""
        self.value_box = box
        self.show_box(box)

    def show_box(self, box: Box) -> None:
        """Centre the view on `box`, zoomed as far as still shows it whole, on its page."""
        self.focus_rect = box.rect
        zoom = self.zoom_for(box)
        self.box_zoom = None if zoom == 0.0 else zoom
        # The level just below the box's zoom, so + and - step on from where the view is.
        self.set_reactive(PageView.zoom_level, ACTUAL if zoom == 0.0 else
                          max(i for i, z in enumerate(ZOOMS) if z <= zoom))
        if box.page != self.page:
            self.page = box.page  # the watcher renders, with the focus
        else:
            self.refresh_page()

    def zoom_for(self, box: Box) -> float:
        """The largest zoom (a factor over the fitted page; 0.0 for 1:1) whose view holds `box`
        with a little room around it, so a printed value can be read whole."""
        page_w, page_h = page_points(self.pdf, box.page)
        x0, y0, x1, y1 = box.rect
        want_w, want_h = (x1 - x0) * 1.1 + 12, (y1 - y0) * 1.5 + 12
        cell_w, cell_h = self.cell_pixels()
        px_per_pt = self.dpi / 72
        if (want_w <= self.size.width * cell_w / px_per_pt
                and want_h <= self.size.height * cell_h / px_per_pt):
            return 0.0
        return max(1.0, min(page_w / want_w, page_h / want_h))

    def zoom_label(self) -> str:
        if self.zoom_level == ACTUAL:
            return "1:1"
        zoom = self.box_zoom or ZOOMS[self.zoom_level]
        return f"{zoom:.3g}x" if zoom > 1 else ""

    def _box_kinds(self) -> frozenset[str]:
        kinds = set()
        if self.show_evidence:
            kinds |= {"expected", "forbidden", "evidence"}
        if self.show_hidden:
            kinds.add("hidden")
        return frozenset(kinds)

    def visible_boxes(self) -> list[Box]:
        kinds = self._box_kinds()
        return [b for b in self.boxes if b.kind in kinds] + ([self.value_box] if self.value_box else [])

    def retitle(self, title: str | None = None, subtitle: str | None = None) -> None:
        """Set the border's title and/or subtitle; Textual repaints the whole pane on every
        assignment, so one that would not change what is shown is skipped."""
        if title is not None and title != self.border_title:
            self.border_title = title
        if subtitle is not None and subtitle != self.border_subtitle:
            self.border_subtitle = subtitle

    def status(self) -> str:
        marks = []
        if self.show_evidence:
            marks.append("ev")
        if self.show_hidden:
            marks.append("hid")
        extra = f" · {self.zoom_label()}" if self.zoom_label() else ""
        return f"page {self.page + 1}/{self.page_count} · {self.dpi} dpi{extra}" + (
            f" · {'+'.join(marks)}" if marks else "")

    def _request(self, pdf: bytes, boxes: list[Box]) -> PageRequest:
        zoom = 0.0 if self.zoom_level == ACTUAL else (self.box_zoom or ZOOMS[self.zoom_level])
        return PageRequest(pdf, self.page, self.dpi, self.size.width, self.size.height,
                           zoom, self.center, boxes, self.focus_rect, self.cell_pixels())

    def look(self) -> PageLook | None:
        """How this view would render a document now (None: not yet known, or not half-blocks)."""
        if self.pdf is None or self.size.width <= 0 or self.graphics == "hires":
            return None
        return PageLook(self._request(b"", []), self._box_kinds(),
                        (self.value_box,) if self.value_box else ())

    def refresh_page(self, ahead: RenderedPage | None = None) -> None:
        if self.pdf is None or self.size.width <= 0:
            return
        self.retitle(subtitle=self.status())
        req = self._request(self.pdf, self.visible_boxes())
        self.focus_rect = None
        self._asked = req
        if ahead is not None and ahead.request == req and self.graphics != "hires":
            # Rendered ahead just as it would be now: on screen with the rest, no render worker.
            self.workers.cancel_group(self, "page-render")
            self._show_rendered(ahead)
            return
        if self._drawn_ahead(req):
            # The workbench's first page, drawn by the process started with it: only scaled
            # here (a few ms), on this thread, so it is on screen in the next refresh; a render
            # worker would wait for this thread to be idle.
            self.workers.cancel_group(self, "page-render")
            self._show_rendered(RenderedPage(req.page, *render_view(req), req))
            return
        self._render_page(req)

    def cell_pixels(self) -> tuple[int, int]:
        """Pixels of one cell at 1:1: half-blocks are 1 x 2; an image protocol uses the
        terminal's own cell size (textual-image measures it)."""
        if self.graphics != "hires":
            return (1, 2)
        try:
            # (the optional extra `hires`, as above; its own module that asks the terminal)
            from textual_image._terminal import get_cell_size

            size = get_cell_size()
            return (max(1, int(size.width)), max(1, int(size.height)))
        except Exception:  # an older textual-image, or no terminal to ask: a common cell size
            return (10, 20)

    @work(thread=True, exclusive=True, group="page-render", exit_on_error=False)
    def _render_page(self, req: PageRequest) -> None:
        renderable, view = render_view(req, hires=self.graphics == "hires")
        if not get_current_worker().is_cancelled:
            self.post_message(self.Rendered(req.page, renderable, view, req))

    def on_page_view_rendered(self, message: Rendered) -> None:
        message.stop()
        if message.request is not None and message.request is not self._asked:
            return  # asked for before the last request (a render shown ahead may be newer)
        self._show_rendered(RenderedPage(message.page, message.renderable, message.view, message.request))

    def _show_rendered(self, message: RenderedPage) -> None:
        if message.page == self.page:
            self.shown = message.view
            if self.zoom_level:
                self.center = message.view.center
            self.rendered_page = message.page
            self._drawn = message.request
            if self.graphics == "hires":
                self.query_one("#page-image", Static).display = False
                self.query_one("#page-hires").image = message.renderable
            else:
                image = self.query_one("#page-image", Static)
                image.add_class("-picture")
                update_in_place(image, message.renderable)
            self.post_message(self.PageShown(self, message.page))
