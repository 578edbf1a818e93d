"""Inspect's side panes: a tab per text layer (pypdf and pymupdf, then each other extractor
installed here), the answer key, the lint, the recorded answers and the file's revisions.

The panes follow the page the page view shows (`follow_page`). The other extractors' layers are
read when their tab is first shown for a case, and the file's revisions once its page is on
screen, each in a worker of this widget that posts what it read back to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import events, on, work
from textual.message import Message
from textual.widgets import Tab, TabbedContent, TabPane, Tabs

from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.grading.outcome import has_key
from workbench.pdf.revisions import Revision, revisions
from workbench.providers.exposure import extracted_text, key_spans
from workbench.providers.extractors import EXTRACTORS as ALL_EXTRACTORS
from workbench.providers.extractors import available
from workbench.tui.case_data import EXTRACTORS, CaseData
from workbench.tui.keymap import key_of
from workbench.tui.widgets.answers import AnswersView
from workbench.tui.widgets.revisions import RevisionsView
from workbench.tui.widgets.text_layers import AnswerKeyView, LintView, TextLayerView

# The tabs keys 1 to 5 show.
TABS = ("tab-pypdf", "tab-pymupdf", "tab-key", "tab-lint", "tab-answers")


def extra_layer_names(pinned: list[str] | None) -> tuple[str, ...]:
    """The text-layer tabs after the built-in two: every other extractor installed here
    (providers.extractors), or the ones the settings' `layer_tabs` name (installed or not: the
    tab then says what to install)."""
    if pinned is None:
        return tuple(n for n in ALL_EXTRACTORS if n not in EXTRACTORS and available(n))
    return tuple(n for n in dict.fromkeys(pinned) if n in ALL_EXTRACTORS and n not in EXTRACTORS)


class SidePanes(TabbedContent):
    """The tabs beside Inspect's page (see the module docstring)."""

    @dataclass
    class LayerRead(Message):
        """An extractor's layer of a case, read in a worker (`error`: why it could not be)."""

        data: CaseData
        name: str
        pages: list[str] | None
        spans: list
        error: str = ""

    @dataclass
    class RevisionsRead(Message):
        case: Case
        found: list[Revision]

    def __init__(self, **kwargs) -> None:
        super().__init__(initial="tab-pymupdf", **kwargs)
        for name in EXTRACTORS:
            self.compose_add_child(TabPane(name, TextLayerView(name, id=f"text-{name}"), id=f"tab-{name}"))
        self.compose_add_child(TabPane("Key", AnswerKeyView(id="key"), id="tab-key"))
        self.compose_add_child(TabPane("Lint", LintView(id="lint"), id="tab-lint"))
        self.compose_add_child(TabPane("Answers", AnswersView(id="answers"), id="tab-answers"))
        self.compose_add_child(TabPane("Revisions", RevisionsView(id="revisions"), id="tab-revisions"))
        self.more_layers: tuple[str, ...] = ()   # a tab each, added after the first page
        self.case: Case | None = None            # the case chosen
        self.data: CaseData | None = None        # its analysed layers, once they are shown
        self.page = 0                            # the page the layers show

    # ---- the layers ---------------------------------------------------------------------------

    @property
    def answers(self) -> AnswersView:
        return self.query_one(AnswersView)

    def layer_view(self, name: str) -> TextLayerView:
        return self.query_one(f"#text-{name}", TextLayerView)

    def layer_views(self) -> list[TextLayerView]:
        """The built-in layers' views, then the other extractors' (once their tabs are in)."""
        return [self.layer_view(name) for name in (*EXTRACTORS, *self.more_layers)]

    def choose(self, case: Case) -> None:
        """Another case is chosen: its key now, the rest as it is read."""
        self.case, self.data = case, None
        self.query_one(AnswerKeyView).show(case)

    def show_opened(self, data: CaseData) -> None:
        """A case opened, nothing analysed yet: its layers say each page is being read."""
        self.data = None
        for name in EXTRACTORS:
            self.layer_view(name).show(data.layers[name], data.hidden_texts, unread=data.unread[name],
                                  skipped=data.skipped)
        self.query_one(RevisionsView).show_message("reading the file's revisions…")

    def show_loaded(self, data: CaseData, page: int) -> None:
        """The case analysed (its first page at least): its layers at `page`, and its lint."""
        self.data, self.page = data, page
        for name in EXTRACTORS:
            self.layer_view(name).show(data.layers[name], data.hidden_texts, page, unread=data.unread[name],
                                  skipped=data.skipped)
        self.query_one(LintView).show(data.findings, keyed=has_key(data.case))
        self.fill_layer_tab()

    def show_failed(self, error: str) -> None:
        """The case's PDF could not be read: every pane says so."""
        self.data = None
        for name in EXTRACTORS:
            self.layer_view(name).show_message("(no text: the PDF could not be read)")
        self.query_one(LintView).show_message(error)
        self.query_one(RevisionsView).show_message("(no revisions: the PDF could not be read)")

    def follow_page(self, page: int, force: bool = False) -> None:
        """Every layer at `page` (`force`: drawn again, its analysis just came)."""
        self.page = page
        for view in self.layer_views():
            view.show_page(page, force=force)

    def point_at(self, value: str, on_page: bool) -> None:
        """The built-in layers point at `value` (an answer's value chosen in the Answers tab),
        marked and scrolled to where the page shown holds it when `on_page`."""
        for name in EXTRACTORS:
            view = self.layer_view(name)
            view.pointer = value
            if on_page:
                view.point_at(value)

    def stop_pointing(self) -> None:
        for name in EXTRACTORS:
            self.layer_view(name).point_at("")

    # ---- the other extractors' tabs -------------------------------------------------------------

    def add_layer_tabs(self, pinned: list[str] | None) -> None:
        """A text-layer tab for each other extractor (`extra_layer_names`: `pinned` is the
        settings' `layer_tabs`), after the built-in two; each reads its layer when first shown
        for a case."""
        names = extra_layer_names(pinned)
        adding = [self.add_pane(TabPane(n, TextLayerView(n, id=f"text-{n}"), id=f"tab-{n}")) for n in names]

        async def added() -> None:
            for pane in adding:
                await pane
            self.more_layers = names  # followed from now on (their views are mounted)
            self.call_after_refresh(self.say_tab_overflow)

        self.run_worker(added(), group="layer-tabs", exit_on_error=False)

    @on(TabbedContent.TabActivated)
    def _tab_shown(self, event: TabbedContent.TabActivated) -> None:
        if event.tabbed_content is not self:
            return
        self.fill_layer_tab()
        self.say_tab_overflow()

    def fill_layer_tab(self) -> None:
        """The shown tab's layer, read for the case shown if it is not yet (in a worker)."""
        name = (self.active or "").removeprefix("tab-")
        data = self.data
        if name not in self.more_layers or data is None:
            return
        view = self.layer_view(name)
        if view.layer_of is data:
            return
        view.layer_of = data
        view.show_message(f"(reading the document with {name}…)")
        self._read_layer(data, name)

    @work(thread=True, group="more-layers", exit_on_error=False)
    def _read_layer(self, data: CaseData, name: str) -> None:
        try:
            pages = extracted_text(data.pdf, name).split("\f")
        except UserError as exc:
            self.post_message(self.LayerRead(data, name, None, [], str(exc)))
            return
        spans = [key_spans(data.case, text) if data.case.question else [] for text in pages]
        self.post_message(self.LayerRead(data, name, pages, spans))

    def on_side_panes_layer_read(self, message: LayerRead) -> None:
        message.stop()
        data = message.data
        view = self.layer_view(message.name)
        if data is not self.data or view.layer_of is not data:
            return  # another case since
        if message.pages is None:
            view.show_message(message.error)
            return
        view.key_spans = message.spans
        view.show(message.pages, data.hidden_texts, self.page, skipped=data.skipped)   # (read blank: see pagetexts)

    # ---- the file's revisions ---------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="revisions", exit_on_error=False)
    def load_revisions(self, case: Case, pdf: bytes) -> None:
        """The file's revisions (`pdf.revisions.revisions`): each one's pages, runs and images."""
        self.post_message(self.RevisionsRead(case, revisions(pdf)))

    def on_side_panes_revisions_read(self, message: RevisionsRead) -> None:
        if message.case is self.case:
            self.query_one(RevisionsView).show(message.found)

    # ---- the tab row ----------------------------------------------------------------------------

    def show_tab(self, index: int) -> None:
        self.active = TABS[index]

    def step_tab(self, step: int) -> None:
        """The previous or next tab, round."""
        panes = [p.id for p in self.query(TabPane) if p.id]
        if not panes:
            return
        at = panes.index(self.active) if self.active in panes else 0
        self.active = panes[(at + step) % len(panes)]

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.say_tab_overflow)

    def say_tab_overflow(self) -> None:
        """When the tabs do not all fit their row, the border says which one of how many is shown
        and the keys that step through them (the row scrolls to the one shown)."""
        tabs = self.query_one(Tabs)
        shown = [t for t in tabs.query(Tab) if t.display]
        width = sum(t.outer_size.width for t in shown)
        if not shown or not tabs.size.width or width <= tabs.size.width:
            self.border_subtitle = ""
            return
        ids = [t.id for t in shown]
        at = ids.index(tabs.active) + 1 if tabs.active in ids else 0
        prev, nxt = key_of(self.screen, "previous_tab"), key_of(self.screen, "next_tab")
        self.border_subtitle = f"tab {at}/{len(shown)} · {prev} {nxt} for the others"
