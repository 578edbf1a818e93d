"""The dialog that takes a page number (`g` on any screen with a page): the way to page 7,342 of a
10,000-page document without pressing PgDn 7,341 times."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from workbench.tui.themes import SCREENS_STYLESHEET


def parse_page(text: str, count: int) -> int | str:
    """The 0-based page that `text` names (a number 1..count, or `end`), or what is wrong with it."""
    text = text.strip().replace(",", "").replace("_", "")
    if text.lower() in ("end", "last"):
        return count - 1
    if not text.isdigit():
        return f"type a page number from 1 to {count:,} (or end)"
    number = int(text)
    if not 1 <= number <= count:
        return f"no page {number:,}: this document has {count:,} page{'s' if count != 1 else ''}"
    return number - 1


class GoToPageScreen(ModalScreen[int | None]):
    """Ask for a page number; returns the 0-based page, or None when cancelled."""

    CSS_PATH = SCREENS_STYLESHEET

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="go_to_page_cancel", tooltip="Stay on this page")]

    def __init__(self, current: int, count: int) -> None:
        super().__init__()
        self.current = current
        self.count = count

    def compose(self) -> ComposeResult:
        with Vertical(id="goto-dialog"):
            yield Label(f"Go to page (1-{self.count:,}; now {self.current + 1:,})", classes="dialog-title")
            yield Input(placeholder="page number, or end", id="goto-input",
                        tooltip="A page number; Enter goes there, Escape stays")
            yield Static("", id="goto-problem", markup=False)

    def on_mount(self) -> None:
        self.query_one("#goto-input", Input).focus()

    @on(Input.Submitted)
    def _go(self, event: Input.Submitted) -> None:
        page = parse_page(event.value, self.count)
        if isinstance(page, str):  # say why, and take the next number typed afresh
            self.query_one("#goto-problem", Static).update(page)
            event.input.clear()
            return
        self.dismiss(page)

    def action_cancel(self) -> None:
        self.dismiss(None)
