"""The rendered page, drawn with half-block characters (rich-pixels), fitted to the pane.

The page is rendered at the DPI a vision reader would get, then scaled to the pane, so what you
see is what the reader saw (zoom in to see its detail). Evidence boxes and hidden spans are drawn
over it, each layer toggled by a key.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import get_current_worker

from workbench.pdf.pages import Box  # noqa: F401  (the boxes drawn, from the core)

ZOOMS = (1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
# Overlay colours (RGBA): expected evidence, forbidden evidence, hidden text.
OVERLAY_COLOURS = {
    "expected": (46, 160, 67, 255),
    "forbidden": (248, 81, 73, 255),
    "hidden": (210, 153, 34, 110),
    "evidence": (88, 166, 255, 255),
}


@dataclass
class PageRequest:
    pdf: bytes
    page: int
    dpi: int
    cols: int
    rows: int
    zoom: float
    center: tuple[float, float]  # fractions of the page, the middle of the view when zoomed
    boxes: list[Box] = field(default_factory=list)


def fit_pixels(page_w: float, page_h: float, cols: int, rows: int) -> tuple[int, int]:
    """Pixel size that fits a w x h area into cols x rows cells; a half-block cell is 1 x 2 pixels."""
    max_w, max_h = max(cols, 1), max(rows * 2, 2)
    scale = min(max_w / page_w, max_h / page_h)
    return max(1, int(page_w * scale)), max(2, int(page_h * scale))


class FastHalfcellRenderer:
    """rich-pixels' half-cell rendering (▄ with the lower pixel as foreground, the upper as
    background), reading pixels in bulk and merging runs of equal cells: the same picture, built
    several times faster than one Style per cell."""

    def render(self, image, resize=None) -> list:
        from rich.color import Color
        from rich.segment import Segment
        from rich.style import Style

        img = image.convert("RGB")
        if img.height % 2:
            from PIL import Image

            padded = Image.new("RGB", (img.width, img.height + 1), (0, 0, 0))
            padded.paste(img, (0, 0))
            img = padded
        width, height = img.size
        data = img.tobytes()
        styles: dict[tuple[bytes, bytes], Style] = {}
        segments: list = []
        newline = Segment("\n")
        row_bytes = width * 3
        for y in range(0, height, 2):
            upper = data[y * row_bytes:(y + 1) * row_bytes]
            lower = data[(y + 1) * row_bytes:(y + 2) * row_bytes]
            run_style = None
            run = 0
            for x in range(0, row_bytes, 3):
                key = (lower[x:x + 3], upper[x:x + 3])
                style = styles.get(key)
                if style is None:
                    style = Style(color=Color.from_rgb(*key[0]), bgcolor=Color.from_rgb(*key[1]))
                    styles[key] = style
                if style is run_style:
                    run += 1
                    continue
                if run:
                    segments.append(Segment("▄" * run, run_style))
                run_style, run = style, 1
            if run:
                segments.append(Segment("▄" * run, run_style))
            segments.append(newline)
        return segments


def render_view(req: PageRequest, hires: bool = False):
    """The page at the reader's DPI, with overlays, cropped to the zoom and scaled to the pane.

    With `hires`, the cropped image itself (for a Sixel or Kitty image widget to scale).
    """
    from PIL import Image, ImageDraw

    from workbench.pdf.document import render_dpi
    from workbench.pdf.render import shared_document

    with shared_document(req.pdf) as doc:
        page = doc[req.page]
        dpi = req.dpi
        if req.zoom <= 1 and not hires:
            # Fitted to the pane, the page is far smaller than any reader's raster: render at twice
            # the pane's resolution (never above the reader's DPI) and let the resize antialias.
            fit_w, fit_h = fit_pixels(page.rect.width, page.rect.height, req.cols, req.rows)
            dpi = max(36, min(req.dpi, round(2 * fit_w / page.rect.width * 72)))
        pix = page.get_pixmap(dpi=render_dpi(page, dpi), alpha=False)
        img = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
        scale = pix.width / page.rect.width
        del page, pix
    crop = (0.0, 0.0, float(img.width), float(img.height))
    if req.zoom > 1:
        w, h = img.size
        cw, ch = w / req.zoom, h / req.zoom
        cx = min(max(req.center[0] * w, cw / 2), w - cw / 2)
        cy = min(max(req.center[1] * h, ch / 2), h - ch / 2)
        crop = (int(cx - cw / 2), int(cy - ch / 2), int(cx + cw / 2), int(cy + ch / 2))
        img = img.crop(crop)
    if not hires:
        w, h = fit_pixels(img.width, img.height, req.cols, req.rows)
        factor = w / img.width
        img = img.resize((w, h), Image.Resampling.LANCZOS, reducing_gap=2.0)
    else:
        factor = 1.0
    boxes = [b for b in req.boxes if b.page == req.page]
    if boxes:
        # Overlays are drawn at the size shown, so a box outline stays one pixel wide.
        layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(layer)
        line = max(1, round(img.width / 300))
        for b in boxes:
            x0, y0, x1, y1 = ((b.rect[0] * scale - crop[0]) * factor, (b.rect[1] * scale - crop[1]) * factor,
                              (b.rect[2] * scale - crop[0]) * factor, (b.rect[3] * scale - crop[1]) * factor)
            rect = (x0 - line, y0 - line, x1 + line, y1 + line)
            colour = OVERLAY_COLOURS.get(b.kind, (88, 166, 255, 255))
            if b.kind == "hidden":
                draw.rectangle(rect, fill=colour)
            else:
                draw.rectangle(rect, outline=colour, width=line)
        img = Image.alpha_composite(img.convert("RGBA"), layer).convert("RGB")
    if hires:
        return img
    from rich_pixels import Pixels

    return Pixels.from_image(img, renderer=FastHalfcellRenderer())


class PageView(Widget, can_focus=True):
    """One page of the current PDF; keys move through pages, zoom, pan and toggle overlays."""

    HELP = """
## Page

The page as a vision reader gets it: rendered at the reader's DPI, then fitted to this pane.

- **PgDn / PgUp** (or **n / p**): next / previous page
- **+ / -**: zoom in / out; **arrow keys** pan while zoomed; **0** fits the page again
- **e**: evidence boxes (expected answer in green, forbidden answers in red)
- **h**: hidden text (text that is in the text layer but not visible) shaded in amber
"""

    BINDINGS = [
        Binding("pagedown,n", "next_page", "Next page", id="next_page", tooltip="Next page"),
        Binding("pageup,p", "previous_page", "Prev page", id="previous_page", tooltip="Previous page"),
        Binding("plus,equals_sign", "zoom(1)", "Zoom in", id="zoom_in", tooltip="Zoom in"),
        Binding("minus", "zoom(-1)", "Zoom out", id="zoom_out", tooltip="Zoom out"),
        Binding("0", "fit", "Fit", id="fit", show=False, tooltip="Fit the page to the pane"),
        Binding("left", "pan(-1, 0)", show=False, id="pan_left"),
        Binding("right", "pan(1, 0)", show=False, id="pan_right"),
        Binding("up", "pan(0, -1)", show=False, id="pan_up"),
        Binding("down", "pan(0, 1)", show=False, id="pan_down"),
    ]

    page: reactive[int] = reactive(0, init=False)
    zoom_level: reactive[int] = reactive(0, init=False)
    dpi: reactive[int] = reactive(150, init=False)
    show_evidence: reactive[bool] = reactive(True, init=False)
    show_hidden: reactive[bool] = reactive(True, init=False)

    @dataclass
    class Rendered(Message):
        page: int
        renderable: object

    @dataclass
    class PageChanged(Message):
        """The page shown changed (a key, a new document): panes that follow the page listen."""

        page_view: PageView
        page: int
        page_count: int

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
        self.border_title = "Page"
        self.rendered_page: int | None = None  # the page on screen now (for tests and status)

    def compose(self) -> ComposeResult:
        yield Static(Text("loading...", style="dim"), id="page-image")
        if self.graphics == "hires":
            from textual_image.widget import Image

            yield Image(id="page-hires")

    def show_pdf(self, pdf: bytes, page_count: int, boxes: list[Box] | None = None) -> None:
        self.pdf = pdf
        self.page_count = page_count
        self.boxes = boxes or []
        self.center = (0.5, 0.5)
        self.set_reactive(PageView.page, 0)
        self.post_message(self.PageChanged(self, self.page, page_count))
        self.refresh_page()

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
        self.query_one("#page-image", Static).update(Text(message, style="dim"))
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

    def on_resize(self) -> None:
        self.refresh_page()

    def action_next_page(self) -> None:
        self.go_to(self.page + 1)

    def action_previous_page(self) -> None:
        self.go_to(self.page - 1)

    def action_zoom(self, step: int) -> None:
        self.zoom_level = min(max(self.zoom_level + step, 0), len(ZOOMS) - 1)

    def action_fit(self) -> None:
        self.center = (0.5, 0.5)
        self.zoom_level = 0

    def action_pan(self, dx: int, dy: int) -> None:
        if self.zoom_level == 0:
            return
        step = 0.25 / ZOOMS[self.zoom_level]
        self.center = (min(max(self.center[0] + dx * step, 0.0), 1.0),
                       min(max(self.center[1] + dy * step, 0.0), 1.0))
        self.refresh_page()

    def visible_boxes(self) -> list[Box]:
        kinds = set()
        if self.show_evidence:
            kinds |= {"expected", "forbidden", "evidence"}
        if self.show_hidden:
            kinds.add("hidden")
        return [b for b in self.boxes if b.kind in kinds]

    def status(self) -> str:
        zoom = ZOOMS[self.zoom_level]
        marks = []
        if self.show_evidence:
            marks.append("ev")
        if self.show_hidden:
            marks.append("hid")
        extra = f" · {zoom:g}x" if zoom > 1 else ""
        return f"page {self.page + 1}/{self.page_count} · {self.dpi} dpi{extra}" + (
            f" · {'+'.join(marks)}" if marks else "")

    def refresh_page(self) -> None:
        if self.pdf is None or self.size.width <= 0:
            return
        self.border_subtitle = self.status()
        req = PageRequest(self.pdf, self.page, self.dpi, self.size.width, self.size.height,
                          ZOOMS[self.zoom_level], self.center, self.visible_boxes())
        self._render_page(req)

    @work(thread=True, exclusive=True, group="page-render", exit_on_error=False)
    def _render_page(self, req: PageRequest) -> None:
        renderable = render_view(req, hires=self.graphics == "hires")
        if not get_current_worker().is_cancelled:
            self.post_message(self.Rendered(req.page, renderable))

    def on_page_view_rendered(self, message: Rendered) -> None:
        message.stop()
        if message.page == self.page:
            self.rendered_page = message.page
            if self.graphics == "hires":
                self.query_one("#page-image", Static).display = False
                self.query_one("#page-hires").image = message.renderable
            else:
                self.query_one("#page-image", Static).update(message.renderable)
