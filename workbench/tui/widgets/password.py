"""The dialog that asks for the password of an encrypted PDF (the workbench's `--password`)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from workbench.tui.themes import SCREENS_STYLESHEET


class PasswordScreen(ModalScreen[str | None]):
    """Ask for a PDF's password; returns it, or None when cancelled."""

    CSS_PATH = SCREENS_STYLESHEET

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="password_cancel",
                        tooltip="Close without opening the PDF")]

    def __init__(self, name: str, problem: str) -> None:
        super().__init__()
        self.pdf_name = name
        self.problem = problem

    def compose(self) -> ComposeResult:
        with Vertical(id="password-dialog"):
            yield Label(f"{self.pdf_name} is encrypted", classes="dialog-title", markup=False)
            yield Static(self.problem, id="password-problem", markup=False)
            yield Input(password=True, placeholder="password", id="password-input",
                        tooltip="The password that opens the PDF (kept for this session only)")
            with Horizontal(id="password-buttons"):
                yield Button("Cancel", id="password-cancel")
                yield Button("Open", variant="primary", id="password-ok")

    def on_mount(self) -> None:
        self.query_one("#password-input", Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#password-ok")
    def _open(self) -> None:
        value = self.query_one("#password-input", Input).value
        if value:
            self.dismiss(value)

    @on(Button.Pressed, "#password-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
