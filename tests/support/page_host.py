"""A small app that shows only a page pane (`PageView` on a screen with the page keys), for the
tests of the page pane and of the dialogs its keys open: much faster than the whole workbench."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.screen import Screen

from workbench.tui.themes import SCREENS_STYLESHEET, STYLESHEET
from workbench.tui.widgets.page_view import PAGE_BINDINGS, PageKeys, PageView


class PageScreen(PageKeys, Screen):
    BINDINGS = [*PAGE_BINDINGS]

    def compose(self) -> ComposeResult:
        yield PageView(id="page")

    def on_mount(self) -> None:
        app = self.app
        if app.pdf is not None:
            self.query_one(PageView).show_pdf(app.pdf, app.page_count, app.boxes)


class PageHost(App):
    """Shows `pdf` (its `page_count` pages, with `boxes`) once mounted, styled as the workbench
    is; `changes` collects each PageChanged as (page, page_count)."""

    CSS_PATH = [str(STYLESHEET), SCREENS_STYLESHEET]  # every screen's rules: a widget may be any screen's

    def __init__(self, pdf: bytes | None, page_count: int = 1, boxes=None) -> None:
        super().__init__()
        self.pdf, self.page_count, self.boxes = pdf, page_count, boxes or []
        self.changes: list[tuple[int, int]] = []

    def get_default_screen(self) -> Screen:
        return PageScreen()

    def on_page_view_page_changed(self, message: PageView.PageChanged) -> None:
        self.changes.append((message.page, message.page_count))
