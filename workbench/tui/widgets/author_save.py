"""Dialogs of the authoring screen: where to save a case (suite folder and id), and yes/no."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from workbench.core.layout import SUITE_FILE, case_files
from workbench.tui.themes import SCREENS_STYLESHEET


def describe_folder(text: str) -> str:
    """What saving into this folder does: a new suite, or adding to one with N cases."""
    if not text.strip():
        return "give a folder"
    folder = Path(text.strip()).expanduser()
    if folder.exists() and not folder.is_dir():
        return "a file, not a folder"
    if not folder.exists():
        return "a new suite (the folder will be made)"
    cases = case_files(folder)
    if (folder / SUITE_FILE).exists():
        return f"an existing suite with {len(cases)} case(s)"
    if cases:
        return f"a folder of {len(cases)} case(s) without suite.json (one will be written)"
    return "an empty folder: a new suite"


class SaveCaseScreen(ModalScreen[tuple[Path, str] | None]):
    """Pick the suite folder and the case id; returns (folder, id) or None."""

    CSS_PATH = SCREENS_STYLESHEET

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="save_cancel", tooltip="Close without saving")]

    def __init__(self, folder: Path, case_id: str, summary: str) -> None:
        super().__init__()
        self.folder = folder
        self.case_id = case_id
        self.summary = summary

    def compose(self) -> ComposeResult:
        with Vertical(id="save-dialog"):
            yield Label("Save this case into a suite", classes="dialog-title")
            yield Static(self.summary, id="save-summary", markup=False)
            with Grid(id="save-form"):
                yield Label("suite folder")
                yield Input(str(self.folder), id="save-folder", tooltip="A new or an existing suite folder")
                yield Label("case id")
                yield Input(self.case_id, id="save-id", tooltip="Proposed from the family and seed")
            yield Static(describe_folder(str(self.folder)), id="save-hint")
            with Horizontal(id="save-buttons"):
                yield Button("Cancel", id="save-cancel")
                yield Button("Save", variant="primary", id="save-ok")

    def on_mount(self) -> None:
        self.query_one("#save-folder", Input).focus()

    @on(Input.Changed, "#save-folder")
    def _folder_changed(self, event: Input.Changed) -> None:
        self.query_one("#save-hint", Static).update(describe_folder(event.value))

    @on(Input.Submitted)
    @on(Button.Pressed, "#save-ok")
    def _save(self) -> None:
        folder = self.query_one("#save-folder", Input).value.strip()
        case_id = self.query_one("#save-id", Input).value.strip()
        if not folder or not case_id:
            self.query_one("#save-hint", Static).update("both a folder and an id are needed")
            return
        self.dismiss((Path(folder).expanduser(), case_id))

    @on(Button.Pressed, "#save-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A question with two answers; y / n (or escape) answer it from the keyboard."""

    CSS_PATH = SCREENS_STYLESHEET

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm_yes", tooltip="Yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm_no", tooltip="No"),
    ]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No", detail: str = "") -> None:
        super().__init__()
        self.question = question
        self.yes, self.no = yes, no
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Static(self.question, id="confirm-question", markup=False)
            if self.detail:
                yield Static(self.detail, id="confirm-detail", markup=False)
            with Horizontal(id="confirm-buttons"):
                yield Button(f"{self.no} (n)", id="confirm-no")
                yield Button(f"{self.yes} (y)", variant="warning", id="confirm-yes")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
