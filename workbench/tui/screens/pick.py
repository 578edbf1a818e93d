"""Picking the value a mutation attacks: every text span of the page shown, filtered by typing;
the one chosen becomes the mutation's target (Author in mutation mode, `g`)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from workbench.tui.themes import SCREENS_STYLESHEET


class PickSpanScreen(ModalScreen):
    """Dismissed with the chosen `Located` span, or None."""

    CSS_PATH = SCREENS_STYLESHEET

    BINDINGS = [Binding("escape", "dismiss_none", "Cancel", id="pick_cancel", tooltip="Keep the value attacked now")]

    def __init__(self, spans: list, page: int) -> None:
        super().__init__()
        self.spans = spans
        self.page = page

    def compose(self) -> ComposeResult:
        with Vertical(id="pick-dialog"):
            yield Label(f"The value to attack: a span of page {self.page + 1} "
                        f"({len(self.spans)}); type to filter, Enter chooses", id="pick-title")
            yield Input(placeholder="filter, e.g. 4,812 or TOTAL", id="pick-filter")
            yield OptionList(id="pick-list")

    def on_mount(self) -> None:
        self._fill("")
        self.query_one(Input).focus()

    def shown(self) -> list[int]:
        """Indices (into `spans`) of the options listed now."""
        options = self.query_one(OptionList)
        return [int(options.get_option_at_index(i).id or 0) for i in range(options.option_count)]

    def _fill(self, needle: str) -> None:
        options = self.query_one(OptionList)
        options.clear_options()
        needle = needle.casefold().strip()
        for i, loc in enumerate(self.spans):
            if needle and needle not in loc.text.casefold():
                continue
            x0, y0, x1, y1 = loc.box
            label = Text.assemble((loc.text[:60], "bold" if loc.visible else "dark_orange"),
                                  (f"  at {x0:.0f},{y0:.0f},{x1:.0f},{y1:.0f}", "dim"),
                                  ("" if loc.visible else "  hidden", "dark_orange"))
            options.add_option(Option(label, id=str(i)))
        if options.option_count:
            options.highlighted = 0

    @on(Input.Changed, "#pick-filter")
    def filter_changed(self, event: Input.Changed) -> None:
        self._fill(event.value)

    @on(Input.Submitted, "#pick-filter")
    def submitted(self) -> None:
        options = self.query_one(OptionList)
        if options.highlighted is not None and options.option_count:
            self.dismiss(self.spans[int(options.get_option_at_index(options.highlighted).id or 0)])

    @on(OptionList.OptionSelected, "#pick-list")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.spans[int(event.option.id or 0)])

    def on_key(self, event) -> None:
        # Up and down move through the list while the filter keeps the focus.
        if event.key in ("up", "down") and self.focused is self.query_one(Input):
            options = self.query_one(OptionList)
            if options.option_count:
                step = 1 if event.key == "down" else -1
                options.highlighted = ((options.highlighted or 0) + step) % options.option_count
            event.stop()

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
