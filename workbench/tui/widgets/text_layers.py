"""Text-layer and answer-key panes."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from workbench.core.case import Case


class TextLayerView(VerticalScroll):
    """One extractor's text layer, page by page."""

    def __init__(self, extractor: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.extractor = extractor
        self.plain = ""  # the text shown, for tests and copying

    def compose(self):
        yield Static(id=f"layer-{self.extractor}")

    def show(self, pages: list[str]) -> None:
        self.plain = "\n".join(pages)
        parts = []
        for i, text in enumerate(pages, 1):
            parts.append(Text(f"── page {i} ──", style="bold dim"))
            parts.append(Text(text.rstrip() or "(no text on this page)", style="" if text.strip() else "dim italic"))
        self.query_one(Static).update(Group(*parts))
        self.scroll_home(animate=False)

    def show_message(self, message: str) -> None:
        self.plain = message
        self.query_one(Static).update(Text(message, style="dim"))


def answer_key_text(case: Case) -> Group:
    rows: list[Text] = []

    def field(label: str, value: str, style: str = "") -> None:
        rows.append(Text(label, style="bold"))
        rows.append(Text(value or "-", style=style))
        rows.append(Text(""))

    if not case.question:
        return Group(Text("This PDF has no answer key.", style="dim"))
    field("Question", case.question)
    if case.expected_tokens:
        field("Expected tokens", ", ".join(case.expected_tokens), "green")
    if case.expected_answer:
        field("Expected answer", case.expected_answer, "green")
    field("Forbidden answers", ", ".join(case.forbidden_answers), "red")
    field("Expected failure mode", case.expected_failure_mode)
    field("Matcher", ", ".join(f"{k}={v}" for k, v in case.matcher_spec.items()))
    if case.params:
        field("Parameters", "\n".join(f"{k} = {v}" for k, v in case.params.items()))
    field("Family · seed", f"{case.trap_family} · {case.seed}")
    return Group(*rows)


class AnswerKeyView(VerticalScroll):
    def compose(self):
        yield Static(id="answer-key")

    def show(self, case: Case) -> None:
        self.query_one(Static).update(answer_key_text(case))
