"""Ask: pick a reader, modality and DPI for one call; and Compare: two answers side by side."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from workbench.core.config import DPI_RANGE
from workbench.core.errors import UserError
from workbench.providers.adapters import default_modality
from workbench.providers.config import BASE_URL_ENV, KEY_ENV, base_url_origin, check_base_url
from workbench.tui.themes import SCREENS_STYLESHEET

MODALITIES = (("pdf: the file itself", "pdf"), ("pixels: page images", "pixels"), ("text: the text layer", "text"))


@dataclass(frozen=True)
class AskChoice:
    reader: str
    modality: str
    dpi: int
    question: str = ""             # the question sent (the case's, or the author's own)
    base_url: str | None = None    # the provider's base URL, when the dialog names one


def provider_of(reader: str) -> str:
    return reader.split(":", 1)[0].strip()


class BaseUrlBox(Input):
    """The base URL box: rarely changed, so no tab stop for any reader (the stops are the same
    whatever the reader); ctrl+l or a click goes to it, when the reader has a server."""

    # Faded when disabled (a probe's), as Textual fades a disabled field that could take focus.
    DEFAULT_CSS = "BaseUrlBox:disabled { opacity: 0.7; }"

    def on_mount(self) -> None:
        self.can_focus = False

    def take_focus(self) -> None:
        if not self.disabled:
            self.can_focus = True
            self.focus()

    def on_click(self) -> None:
        self.take_focus()

    def on_blur(self) -> None:
        self.can_focus = False


class AskScreen(ModalScreen[AskChoice | None]):
    """A small form; Enter sends, Escape closes without asking."""

    CSS_PATH = SCREENS_STYLESHEET

    HELP = """
## Ask

One call of a reader on this case: the question (the case's, or your own), the reader (a probe
needs no key and no network; a model's key comes from the environment, never a file), its base
URL, the modality (the file itself, page images or the text layer) and the DPI of page images.
**tab** moves between the fields (the same ones for every reader), **ctrl+l** goes to the base URL
(a model's server; a probe has none), **Enter** sends, **escape** closes without asking.
"""

    BINDINGS = [Binding("escape", "dismiss(None)", "Close", id="ask_close", tooltip="Close without asking"),
                Binding("ctrl+l", "base_url", "Base URL", id="ask_base_url",
                        tooltip="To the base URL box (a reader with a server; it is no tab stop)")]

    def __init__(self, readers: list[str], choice: AskChoice, case_id: str,
                 base_urls: dict[str, str] | None = None) -> None:
        super().__init__()
        self.readers = readers
        self.choice = choice
        self.case_id = case_id
        self.base_urls = dict(base_urls or {})   # provider -> the URL remembered for it

    def compose(self) -> ComposeResult:
        with Vertical(id="ask-dialog"):
            yield Label(f"Ask a reader about [b]{escape(self.case_id)}[/b]", id="ask-title")
            with Grid(id="ask-form"):
                yield Label("Question")
                yield Input(self.choice.question, placeholder="what to ask about this PDF", id="ask-question", compact=True)
                yield Label("Reader")
                options = list(dict.fromkeys([self.choice.reader, *self.readers]))
                yield Select([(r, r) for r in options], value=self.choice.reader, allow_blank=False, id="ask-reader", compact=True)
                yield Label("or type one")
                yield Input(placeholder="provider:model, e.g. openai:gpt-4o", id="ask-custom", compact=True)
                yield Label("Modality")
                yield Select(MODALITIES, value=self.choice.modality, allow_blank=False, id="ask-modality", compact=True)
                yield Label("DPI")
                yield Input(str(self.choice.dpi), type="integer", id="ask-dpi", compact=True)
                # Last, and no tab stop: rarely changed (ctrl+l goes to it; a probe's is disabled).
                yield Label("Base URL")
                yield BaseUrlBox(placeholder="", id="ask-base-url", compact=True)
            yield Static("", id="ask-hint")
            with Horizontal(id="ask-buttons"):
                yield Button("Ask", variant="primary", id="ask-send")
                yield Button("Cancel", id="ask-cancel")

    def on_mount(self) -> None:
        self._show_provider()
        # The question from its start (a box shows the end of what it is given: at 100x30 a long
        # question read "d with only the amount including currency symbol, no other text.").
        self.query_one("#ask-question", Input).cursor_position = 0
        self.query_one("#ask-question" if not self.choice.question else "#ask-reader").focus()

    def _reader(self) -> str:
        custom = self.query_one("#ask-custom", Input).value.strip()
        return custom or str(self.query_one("#ask-reader", Select).value)

    def _show_provider(self) -> None:
        """The base URL box and the hint follow the reader chosen: what it needs, and from where."""
        provider = provider_of(self._reader())
        box = self.query_one("#ask-base-url", Input)
        hint = self.query_one("#ask-hint", Static)
        if provider == "probe" or provider not in BASE_URL_ENV:
            box.disabled, box.value = True, ""
            box.placeholder = "probes run here: no server, no key"
            hint.update("Probes need no key and no network: the text layer as each extractor reads "
                        "it, or OCR of the page.")
            return
        box.disabled = False
        remembered = self.base_urls.get(provider, "")
        if box.value != remembered:
            box.value = remembered
        try:
            url, origin = base_url_origin(provider)
        except UserError as exc:
            url, origin = "", str(exc)
        box.placeholder = f"{url} ({origin})" if url else ""
        keys = " or ".join(KEY_ENV.get(provider, ())) or "no key needed"
        hint.update(f"{provider}: key from {keys}; base URL from this box (ctrl+l), else "
                    f"{BASE_URL_ENV[provider]}, else readers.toml in the config folder, else the "
                    "public default. Keys are never written anywhere.")

    @on(Select.Changed, "#ask-reader")
    @on(Input.Changed, "#ask-custom")
    def _reader_changed(self) -> None:
        self._show_provider()
        reader = self._reader()
        if reader != self.choice.reader:  # another reader: a modality it takes (pixels, pdf, its own)
            try:
                modality = default_modality(reader)
            except UserError:
                return  # a reader half typed: the modality stays
            if modality in {value for _, value in MODALITIES}:
                self.query_one("#ask-modality", Select).value = modality

    def action_base_url(self) -> None:
        box = self.query_one("#ask-base-url", BaseUrlBox)
        if box.disabled:
            self.notify("a probe runs here: it has no server, so no base URL", timeout=3)
            return
        box.take_focus()

    @on(Input.Changed, "#ask-base-url")
    def _base_url_typed(self, event: Input.Changed) -> None:
        if not event.input.disabled:
            self.base_urls[provider_of(self._reader())] = event.value.strip()

    def _choice(self) -> AskChoice | None:
        reader = self._reader()
        question = self.query_one("#ask-question", Input).value.strip()
        if not question:
            self.notify("write the question to ask about this PDF", severity="error")
            self.query_one("#ask-question").focus()
            return None
        try:
            dpi = int(self.query_one("#ask-dpi", Input).value or 150)
        except ValueError:
            dpi = 0
        if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
            self.notify(f"DPI must be between {DPI_RANGE[0]} and {DPI_RANGE[1]}", severity="error")
            return None
        box = self.query_one("#ask-base-url", Input)
        url = box.value.strip() if not box.disabled else ""
        if url:
            try:
                url = check_base_url(url, provider_of(reader), "the base URL box")
            except UserError as exc:
                self.notify(str(exc), severity="error")
                return None
        return AskChoice(reader, str(self.query_one("#ask-modality", Select).value), dpi, question,
                         url or None)

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

    CSS_PATH = SCREENS_STYLESHEET

    BINDINGS = [Binding("escape,q,c", "dismiss(None)", "Close", id="compare_close", tooltip="Back to the answers")]

    def __init__(self, left, right) -> None:
        super().__init__()
        self.left = left
        self.right = right

    def compose(self) -> ComposeResult:
        with Horizontal(id="compare"):
            for side in (self.left, self.right):
                with VerticalScroll(classes="compare-side"):
                    yield Static(side)
