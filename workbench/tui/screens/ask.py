"""Ask: pick a reader, modality and DPI for one call; and Compare: two answers side by side."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

MODALITIES = (("pdf: the file itself", "pdf"), ("pixels: page images", "pixels"), ("text: the text layer", "text"))


@dataclass(frozen=True)
class AskChoice:
    reader: str
    modality: str
    dpi: int


class AskScreen(ModalScreen[AskChoice | None]):
    """A small form; Enter sends, Escape closes without asking."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Close", id="ask_close")]

    def __init__(self, readers: list[str], choice: AskChoice, case_id: str) -> None:
        super().__init__()
        self.readers = readers
        self.choice = choice
        self.case_id = case_id

    def compose(self) -> ComposeResult:
        with Vertical(id="ask-dialog"):
            yield Label(f"Ask a reader about [b]{self.case_id}[/b]", id="ask-title")
            with Grid(id="ask-form"):
                yield Label("Reader")
                options = list(dict.fromkeys([self.choice.reader, *self.readers]))
                yield Select([(r, r) for r in options], value=self.choice.reader, allow_blank=False, id="ask-reader")
                yield Label("or type one")
                yield Input(placeholder="provider:model, e.g. openai:gpt-4o", id="ask-custom")
                yield Label("Modality")
                yield Select(MODALITIES, value=self.choice.modality, allow_blank=False, id="ask-modality")
                yield Label("DPI")
                yield Input(str(self.choice.dpi), type="integer", id="ask-dpi")
            yield Static("Probes need no key. Model providers read their key from the usual variable "
                         "(OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_API_KEY).", id="ask-hint")
            with Horizontal(id="ask-buttons"):
                yield Button("Ask", variant="primary", id="ask-send")
                yield Button("Cancel", id="ask-cancel")

    def on_mount(self) -> None:
        self.query_one("#ask-reader", Select).focus()

    def _choice(self) -> AskChoice | None:
        custom = self.query_one("#ask-custom", Input).value.strip()
        reader = custom or str(self.query_one("#ask-reader", Select).value)
        try:
            dpi = int(self.query_one("#ask-dpi", Input).value or 150)
        except ValueError:
            dpi = 0
        if not 36 <= dpi <= 600:
            self.notify("DPI must be between 36 and 600", severity="error")
            return None
        return AskChoice(reader, str(self.query_one("#ask-modality", Select).value), dpi)

    @on(Button.Pressed, "#ask-send")
    @on(Input.Submitted)
    def send(self) -> None:
        choice = self._choice()
        if choice is not None:
            self.dismiss(choice)

    @on(Button.Pressed, "#ask-cancel")
    def cancel(self) -> None:
        self.dismiss(None)


class CompareScreen(ModalScreen[None]):
    """Two answers to the same case, side by side, each with its verdict."""

    BINDINGS = [Binding("escape,q,c", "dismiss(None)", "Close", id="compare_close")]

    def __init__(self, left, right) -> None:
        super().__init__()
        self.left = left
        self.right = right

    def compose(self) -> ComposeResult:
        with Horizontal(id="compare"):
            for side in (self.left, self.right):
                with VerticalScroll(classes="compare-side"):
                    yield Static(side)
