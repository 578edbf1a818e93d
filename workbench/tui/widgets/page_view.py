"""The rendered page, drawn with half-block characters (rich-pixels), fitted to the pane."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import get_current_worker


def fit_pixels(page_w_pt: float, page_h_pt: float, cols: int, rows: int) -> tuple[int, int]:
    """Pixel size that fits a page into cols x rows cells; a half-block cell is 1 x 2 pixels."""
    max_w, max_h = max(cols, 1), max(rows * 2, 2)
    scale = min(max_w / page_w_pt, max_h / page_h_pt)
    return max(1, int(page_w_pt * scale)), max(2, int(page_h_pt * scale))


def page_pixels(pdf: bytes, page: int, cols: int, rows: int):
    """Render `page` to a rich-pixels renderable that fits cols x rows cells."""
    from PIL import Image
    from rich_pixels import Pixels

    from workbench.pdf.document import open_fitz

    doc = open_fitz(pdf)
    try:
        p = doc[page]
        w, h = fit_pixels(p.rect.width, p.rect.height, cols, rows)
        # Render at twice the target size, then downsample: crisper than rendering small.
        zoom = 2 * w / p.rect.width
        import pymupdf

        pix = p.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
        img = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
    finally:
        doc.close()
    img = img.resize((w, h), Image.Resampling.LANCZOS).convert("RGBA")
    return Pixels.from_image(img)


class PageView(Widget, can_focus=True):
    """Shows one page of the current PDF; page up/down moves through pages."""

    BINDINGS = [
        ("pagedown,n", "next_page", "Next page"),
        ("pageup,p", "previous_page", "Prev page"),
    ]

    page: reactive[int] = reactive(0, init=False)

    @dataclass
    class Rendered(Message):
        page: int
        renderable: object

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.pdf: bytes | None = None
        self.page_count = 0
        self.border_title = "Page"

    def compose(self) -> ComposeResult:
        yield Static(Text("loading...", style="dim"), id="page-image")

    def show_pdf(self, pdf: bytes, page_count: int) -> None:
        self.pdf = pdf
        self.page_count = page_count
        self.set_reactive(PageView.page, 0)
        self.refresh_page()

    def clear(self, message: str) -> None:
        self.pdf = None
        self.page_count = 0
        self.query_one("#page-image", Static).update(Text(message, style="dim"))
        self.border_subtitle = ""

    def watch_page(self) -> None:
        self.refresh_page()

    def on_resize(self) -> None:
        self.refresh_page()

    def action_next_page(self) -> None:
        if self.page + 1 < self.page_count:
            self.page += 1

    def action_previous_page(self) -> None:
        if self.page > 0:
            self.page -= 1

    def refresh_page(self) -> None:
        if self.pdf is None or self.size.width <= 0:
            return
        self.border_subtitle = f"page {self.page + 1}/{self.page_count}"
        self._render_page(self.pdf, self.page, self.size.width, self.size.height)

    @work(thread=True, exclusive=True, group="page-render", exit_on_error=False)
    def _render_page(self, pdf: bytes, page: int, cols: int, rows: int) -> None:
        renderable = page_pixels(pdf, page, cols, rows)
        if not get_current_worker().is_cancelled:
            self.post_message(self.Rendered(page, renderable))

    def on_page_view_rendered(self, message: Rendered) -> None:
        message.stop()
        if message.page == self.page:
            self.query_one("#page-image", Static).update(message.renderable)
