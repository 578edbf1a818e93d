"""Inspect's pages: the page the page view shows is analysed in a worker (after a short pause, so
paging fast through a long document analyses only where it stops), the next one ahead once it is
on screen; the overlays and the DPI the page is shown at. The mixin's state lives on the screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work

from workbench.core.errors import UserError
from workbench.tui.widgets.page_view import PageView

if TYPE_CHECKING:
    from workbench.tui.case_data import CaseData, PageData
    from workbench.tui.messages import PageLoaded

# Seconds a page must stay shown before it is analysed (its image is on screen before that).
PAGE_SETTLE = 0.06


class CasePages:
    """Following the page shown, on the Inspect screen (see the module docstring)."""

    # (Textual's @on is not seen on a mixin: its handlers go by their names)
    def on_page_view_page_changed(self, event: PageView.PageChanged) -> None:
        if self._side is not None:
            self.side.follow_page(event.page)
        self._follow_page(event.page)

    def _follow_page(self, page: int) -> None:
        """The page shown is analysed (in a worker) unless it is already; the next one ahead."""
        data = self.data
        if data is None or data.case is not self.current:
            return
        if page in data.loaded:
            self._prefetch_after(data, page)
            return
        cached = data.pages.cached(page)
        if cached is not None and cached.texts is not None:
            self._load_page(data, page)  # analysed ahead: only its boxes are left to find
            return
        # Analysed after a short pause, so the page image (a thread of its own) goes on screen
        # first, and paging fast through a long document analyses only where it stops.
        if self._page_timer is not None:
            self._page_timer.stop()
        self._page_timer = self.set_timer(PAGE_SETTLE, lambda: self._settled(data, page))

    def on_page_view_page_shown(self, event: PageView.PageShown) -> None:
        self._first_shown.set()
        if self._side is not None:   # (the first page may be on screen before them)
            self.after_first_page()
        if self.data is not None:
            self._prefetch_after(self.data, event.page)

    def _prefetch_after(self, data: CaseData, page: int) -> None:
        """The page after `page` is computed ahead once `page` is analysed and its image is on
        screen; sooner, it would hold the interpreter while that image is drawn."""
        view = self.query_one(PageView)
        if page in data.loaded and view.rendered_page == page and page + 1 < data.page_count:
            data.pages.prefetch(page + 1)

    def _settled(self, data: CaseData, page: int) -> None:
        self._page_timer = None
        if data is self.data and page == self.query_one(PageView).page and page not in data.loaded:
            self._load_page(data, page)

    @work(thread=True, group="page-load", exit_on_error=False)
    def _load_page(self, data: CaseData, page: int) -> None:
        from workbench.tui.case_data import load_page  # (loaded with the case by now)
        from workbench.tui.messages import LoadFailed, PageLoaded

        try:
            self.post_message(PageLoaded(data, load_page(data, page, prefetch=False)))
        except UserError as exc:
            self.post_message(LoadFailed(data.case, str(exc)))

    def on_page_loaded(self, message: PageLoaded) -> None:
        data: CaseData = message.data
        loaded: PageData = message.page
        if data is not self.data or loaded.page in data.loaded:
            return
        data.apply(loaded)
        view = self.query_one(PageView)
        self._prefetch_after(data, loaded.page)
        if loaded.page == view.page:
            self.side.follow_page(loaded.page, force=True)
            view.set_boxes(list(data.boxes))
        else:
            view.boxes = list(data.boxes)  # drawn when that page is shown
        self._notify_skipped(data, loaded.page)

    def _notify_skipped(self, data: CaseData, page: int | None = None) -> None:
        for i, why in data.skipped.items():
            if page is None or i == page:
                self.notify(f"page {i + 1}: {why}", severity="warning", timeout=8)
        for name, pages in data.unread.items():  # (one line a document: it is the same refusal)
            if pages and (page is None or page == min(pages)) and min(pages) in data.loaded:
                self.notify(f"{pages[min(pages)]}; the {name} layer is empty where it could not read",
                            severity="warning", timeout=8)

    # ---- overlays and DPI ----------------------------------------------------------------------

    def action_toggle_evidence(self) -> None:
        page = self.query_one(PageView)
        page.show_evidence = not page.show_evidence

    def action_toggle_hidden(self) -> None:
        page = self.query_one(PageView)
        page.show_hidden = not page.show_hidden

    def set_dpi(self, dpi: int) -> None:
        """Show the page (and judge legibility) at the DPI a reader would get."""
        self.settings.dpi = dpi
        self.workbench.remember()
        self.query_one(PageView).dpi = dpi
        if self.current is not None:
            self.data = None
            self._load(self.current, dpi)
