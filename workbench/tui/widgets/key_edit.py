"""The answer key of an adopted case, written by hand: question, answer, tokens, forbidden answers
and the matcher (the same matchers as every other case)."""

from __future__ import annotations

from typing import TypedDict

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from workbench.core.case import Case
from workbench.core.matcher import MatcherSpec
from workbench.tui.themes import SCREENS_STYLESHEET

# The matchers a hand-written key can use (`fields` needs structured gold, not a line of text).
KEY_MATCHERS = ("contains", "tokens_all", "keywords_all", "exact", "numeric")
SEPARATOR = " | "


def split_list(text: str) -> list[str]:
    return [part.strip() for part in text.split("|") if part.strip()]


class KeyValues(TypedDict):
    """The key as written in the dialog (`build.adopted.rekeyed` takes it)."""

    question: str
    expected: str
    tokens: list[str]
    forbidden: list[str]
    matcher: MatcherSpec


class KeyEditScreen(ModalScreen[KeyValues | None]):
    """Edit an adopted case's key; returns its KeyValues, or None."""

    CSS_PATH = SCREENS_STYLESHEET

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="key_cancel", tooltip="Close without saving"),
        Binding("ctrl+s", "save", "Save", id="key_save", priority=True, tooltip="Save the key into the suite"),
    ]

    def __init__(self, case: Case) -> None:
        super().__init__()
        self.case = case

    def compose(self) -> ComposeResult:
        case = self.case
        spec = case.matcher_spec
        kind = spec.kind if spec.kind in KEY_MATCHERS else "contains"
        with Vertical(id="key-dialog"):
            yield Label(f"Answer key of {case.id} (adopted {case.source.name if case.source else ''})",
                        classes="dialog-title", markup=False)
            with Grid(id="key-form"):
                yield Label("question")
                yield Input(case.question, id="key-question", tooltip="What a reader is asked")
                yield Label("expected answer")
                yield Input(case.expected_answer, id="key-expected",
                            tooltip="The right answer, as the page prints it")
                yield Label("expected tokens")
                yield Input(SEPARATOR.join(case.expected_tokens), id="key-tokens",
                            placeholder="token | token (tokens_all: every one in the answer)")
                yield Label("forbidden answers")
                yield Input(SEPARATOR.join(case.forbidden_answers), id="key-forbidden",
                            placeholder="wrong answer | another")
                yield Label("matcher")
                yield Select([(m, m) for m in KEY_MATCHERS], value=kind, allow_blank=False, id="key-matcher")
            yield Static("ctrl+s saves · the lint checks the key on the page before it is written",
                         id="key-hint", markup=False)
            with Horizontal(id="key-buttons"):
                yield Button("Cancel", id="key-cancel-button")
                yield Button("Save", variant="primary", id="key-save-button")

    def on_mount(self) -> None:
        self.query_one("#key-expected", Input).focus()

    def values(self) -> KeyValues:
        spec = self.case.matcher_spec
        kind = str(self.query_one("#key-matcher", Select).value)
        if kind != spec.kind:
            spec = MatcherSpec.parse({"type": kind})
        return {
            "question": self.query_one("#key-question", Input).value,
            "expected": self.query_one("#key-expected", Input).value,
            "tokens": split_list(self.query_one("#key-tokens", Input).value),
            "forbidden": split_list(self.query_one("#key-forbidden", Input).value),
            "matcher": spec,
        }

    @on(Input.Submitted)
    @on(Button.Pressed, "#key-save-button")
    def action_save(self) -> None:
        values = self.values()
        if not values["question"].strip() or not (values["expected"].strip() or values["tokens"]):
            self.query_one("#key-hint", Static).update("a key needs a question and an answer (or tokens)")
            return
        self.dismiss(values)

    @on(Button.Pressed, "#key-cancel-button")
    def action_cancel(self) -> None:
        self.dismiss(None)
