"""Author's panes: the side tabs (text layers, key, lint: only the tab on show is updated with a
new preview), the error banner above the page, and the page panes (the scan, the clean page, or
both side by side: F3). The mixin's state lives on the screen."""

from __future__ import annotations

from textual.widgets import Static, TabbedContent

from workbench.build.authoring import Preview
from workbench.tui.case_data import EXTRACTORS
from workbench.tui.page_look import RenderedPage
from workbench.tui.widgets.text_layers import AnswerKeyView, LintView, TextLayerView

VIEWS = ("scan", "clean", "both")

# The side panes (tab id -> what it shows): only the pane on show is updated with a new preview;
# the others when their tab is chosen.
SIDE_TABS = (*(f"author-tab-{name}" for name in EXTRACTORS), "author-tab-key", "author-tab-lint")


class AuthorPanes:
    """The preview's panes, on the Author screen (see the module docstring)."""

    def _side_tab(self) -> str:
        return self.query_one("#author-side", TabbedContent).active

    def _show_side(self, tab: str) -> None:
        """Show the preview in side pane `tab` (a text layer, the key or the lint), unless it
        shows it already. Only the pane on show is updated with each preview: a hidden one's
        update would cost a layout of the screen and a rebuild of Textual's map of every widget."""
        if self.data is None or self.preview is None or self._side_shown.get(tab) == self.shown_generation:
            return
        self._side_shown[tab] = self.shown_generation
        if tab == "author-tab-key":
            self.query_one(AnswerKeyView).show(self.preview.case)
        elif tab == "author-tab-lint":
            self.query_one(LintView).show(self.data.findings)
        elif tab in SIDE_TABS:
            name = tab.removeprefix("author-tab-")
            page = min(self.page.page, max(self.data.page_count - 1, 0))
            self.query_one(f"#author-text-{name}", TextLayerView).show(
                self.data.layers[name], self.data.hidden_texts, page, unread=self.data.unread[name])

    def _side_tab_chosen(self, tab: str) -> None:
        # A watcher of the tabs' `active`: it runs as the tab switches, before the screen lays
        # the pane out and paints it, so a pane is never painted with an older preview.
        self._show_side(tab)

    def _show_errors(self) -> None:
        parts = []
        if self.load_error:
            parts.append(f"✖ family module: {self.load_error}")
        if self.gen_error:
            parts.append(f"✖ {self.gen_error}")
        if parts and self.preview is not None:
            parts.append("(showing the last good preview)")
        banner = self.query_one("#author-error", Static)
        text = "\n".join(parts)
        if text != self._error_shown:   # an update lays the screen out again: only on a change
            self._error_shown = text
            banner.update(text)
        banner.set_class(bool(parts), "-shown")

    # ---- pages ----------------------------------------------------------------------------

    def _page_title(self, preview: Preview, scanned: bool) -> str:
        case = preview.case
        if scanned and case.degrade:
            return f"scan · {case.degrade.tier} · text {case.degrade.text_layer}"
        return f"{case.trap_family} · seed {case.seed}" + (" · clean" if case.degrade else "")

    def _show_pages(self, ahead: RenderedPage | None = None) -> None:
        if self.preview is None or self.data is None:
            return
        degraded = self.preview.degraded and self.clean is not None
        both = degraded and self.view == "both"
        self.clean_page.display = both
        if degraded and self.view == "clean":
            main, scanned = self.clean, False
        else:
            main, scanned = self.data, degraded
        assert main is not None
        self.page.retitle(self._page_title(self.preview, scanned))
        self.page.show_pdf(main.pdf, main.page_count, main.boxes, keep_view=True, ahead=ahead)
        if both and self.clean is not None:
            self.clean_page.retitle(self._page_title(self.preview, False))
            self.clean_page.show_pdf(self.clean.pdf, self.clean.page_count, self.clean.boxes, keep_view=True)

    def action_cycle_view(self) -> None:
        self.view = VIEWS[(VIEWS.index(self.view) + 1) % len(VIEWS)]
        if self.preview is not None and not self.preview.degraded:
            self.notify(f"view: {self.view} (no scan: choose a degradation tier to compare)", timeout=3)
        else:
            self.notify(f"view: {self.view}", timeout=2)
        self._show_pages()
