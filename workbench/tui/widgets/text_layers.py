"""Text-layer, answer-key and lint panes."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from workbench.core.case import Case
from workbench.pdf.budget import TOO_COMPLEX
from workbench.text import terminal
from workbench.tui.widgets.layout import update_in_place

HIDDEN_STYLE = "bold black on dark_orange"
POINTER_STYLE = "bold white on purple"  # the answer value chosen in the Answers tab (the page box is purple too)
KEY_STYLES = {"expected": "bold green", "forbidden": "bold red underline"}  # the key's values in the text
SEVERITY_STYLES = {"error": "bold red", "warning": "bold yellow", "info": "cyan"}


def mark_hidden(text: str, hidden: list[str]) -> Text:
    """The page's text with every stretch that is hidden on the page highlighted; its control
    characters drawn as pictures (one for one: the offsets hold)."""
    text = terminal.shown(text)
    out = Text(text)
    # Each text once: a page of 1,500 hidden spans of one text styled every place 1,500 times.
    for needle in dict.fromkeys(terminal.shown(n.strip()) for n in hidden):
        if not needle:
            continue
        start = text.find(needle)
        while start != -1:
            out.stylize(HIDDEN_STYLE, start, start + len(needle))
            start = text.find(needle, start + len(needle))
    return out


class TextLayerView(VerticalScroll):
    """One extractor's text layer for the page shown, with hidden text marked; it follows the page."""

    HELP = """
## Text layer

What a text pipeline reads: the PDF's text layer as this extractor returns it, for the page shown
beside it (its first line says which page; PgDn / PgUp turn both).
Text highlighted in **amber** is in the layer but not visible on the page (invisible render mode,
white on white, covered, off the page, too small): a vision reader never sees it. In the tabs of
the other extractors installed here, the key's expected value is **green** and a forbidden one
**red**, found as the grader finds them.
"""

    def __init__(self, extractor: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.extractor = extractor
        self.pages: list[str | None] = []
        self.hidden: list[list[str] | None] = []
        self.unread: dict[int, str] = {}  # page -> why this extractor could not read it
        self.skipped: dict[int, str] = {}  # page -> why it was not analysed (the case data's)
        self.page = 0
        self.plain = ""  # the text shown, for tests and copying
        self.hidden_count = 0
        self.pointer = ""  # a value to point at (an answer's value chosen in the Answers tab)
        self.pointed_line: int | None = None
        self.key_spans: list[list[tuple[int, int, str]]] = []  # per page: the key's values found
        self.layer_of: Any = None  # the case data this layer was read for (tabs read on demand)

    def compose(self):
        yield Static(id=f"layer-{self.extractor}")

    def show(self, pages: list[str | None], hidden: list[list[str] | None] | None = None,
             page: int = 0, unread: dict[int, str] | None = None,
             skipped: dict[int, str] | None = None) -> None:
        """The layer of a document, one entry per page (None: that page is not read yet);
        `unread`: page -> why the extractor could not read it (the case data's, kept up to date
        as pages load)."""
        self.pages = pages
        self.hidden = hidden or []
        self.unread = {} if unread is None else unread
        self.skipped = {} if skipped is None else skipped
        self.pointer = ""
        self.show_page(page, force=True)

    def point_at(self, value: str) -> None:
        """Mark `value` where this page's layer holds it and scroll to its first line."""
        self.pointer = value
        self.show_page(self.page, force=True)

    def show_page(self, page: int, force: bool = False) -> None:
        """Show one page of the layer (the page the page view shows)."""
        if not self.pages or (page == self.page and not force):
            return
        self.page = page = min(max(page, 0), len(self.pages) - 1)
        text = self.pages[page]
        marks = (self.hidden[page] if page < len(self.hidden) else None) or []
        title = f"── page {page + 1} of {len(self.pages)} · {self.extractor} ──"
        if text is None:
            self.plain, self.hidden_count = "", 0
            update_in_place(self.query_one(Static), Group(Text(title, style="bold dim"),
                                                Text("(reading this page…)", style="dim italic")))
            return
        why = self.skipped.get(page, "")
        if why.startswith(TOO_COMPLEX):  # over a count of work: no layer was read
            self.plain, self.hidden_count = f"({why})", 0
            update_in_place(self.query_one(Static), Group(Text(title, style="bold dim"),
                                                Text(self.plain, style="bold yellow")))
            self.scroll_home(animate=False)
            return
        why = self.unread.get(page)
        if why:  # the extractor refused the page: what a pipeline using it is left with
            self.plain, self.hidden_count = f"(not read: {why})", 0
            update_in_place(self.query_one(Static), Group(
                Text(title, style="bold dim"), Text(self.plain, style="bold red"),
                Text(f"A pipeline reading with {self.extractor} gets an error or no text here.",
                     style="dim italic")))
            self.scroll_home(animate=False)
            return
        self.plain = text
        self.hidden_count = sum(1 for m in marks if m.strip() and m.strip() in text)
        if marks:
            title += f"  {len(marks)} hidden span(s)"
        parts = [Text(title, style="bold dim")]
        self.pointed_line = None
        if text.strip():
            body = mark_hidden(text.rstrip(), marks)
            for start, end, kind in (self.key_spans[page] if page < len(self.key_spans) else ()):
                body.stylize(KEY_STYLES[kind], start, end)
            at = text.casefold().find(self.pointer.strip().casefold()) if self.pointer.strip() else -1
            while at != -1:
                if self.pointed_line is None:
                    self.pointed_line = text.count("\n", 0, at) + 1  # +1: the title line
                body.stylize(POINTER_STYLE, at, at + len(self.pointer.strip()))
                at = text.casefold().find(self.pointer.strip().casefold(), at + 1)
            parts.append(body)
        else:
            parts.append(Text("(no text on this page)", style="dim italic"))
        update_in_place(self.query_one(Static), Group(*parts))
        if self.pointed_line is not None:
            line = self.pointed_line
            self.call_after_refresh(lambda: self.scroll_to(y=max(0, line - 3), animate=False))
        else:
            self.scroll_home(animate=False)

    def show_message(self, message: str) -> None:
        self.pages, self.hidden, self.unread = [], [], {}
        self.plain = message
        update_in_place(self.query_one(Static), Text(message, style="dim"))


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
    field("Matcher", ", ".join(f"{k}={v}" for k, v in case.matcher_spec.to_json().items()))
    if case.params:
        field("Parameters", "\n".join(f"{k} = {v}" for k, v in case.params.items()))
    if case.degrade is not None:
        field("Degradation", ", ".join(f"{k}={v}" for k, v in case.degrade.to_json().items()))
    field("Family · seed", f"{case.trap_family} · {case.seed}")
    if case.source is not None:
        src = case.source
        field("Adopted from", f"{src.name} · sha256 {src.sha256[:12]}")
        if case.mutations:
            steps = [m.mutation + (f" (page {m.target.page + 1})" if m.target else "") for m in case.mutations]
            field("Mutations", " → ".join(steps))
        else:
            rows.append(Text("K (shift+k): edit this key (an adopted case's key is written by hand)", style="dim"))
    return Group(*rows)


class AnswerKeyView(VerticalScroll):
    HELP = """
## Answer key

The question, the right answer, the answers the trap is built to elicit, and how the answer is
graded.
"""

    def compose(self):
        yield Static(id="answer-key")

    def show(self, case: Case) -> None:
        update_in_place(self.query_one(Static), answer_key_text(case))


class LintView(VerticalScroll):
    HELP = """
## Lint

Is the trap armed? Each finding says where an answer was (or was not) found on the page and in
the text layer, against the family's arming contract. An error means the case is broken: a reader
that looks at the page cannot answer it, or the trap is not there.
"""

    def compose(self):
        yield Static(id="lint")

    def show(self, findings: list[Any], keyed: bool = True) -> None:
        """The lint's findings; `keyed`: the case has an answer key (a bare PDF has no trap whose
        arming could be checked, only its hidden text and structure)."""
        rows: list[Text] = []
        if not findings:
            rows.append(Text("✔ no findings: the trap is armed as its contract says" if keyed else
                             "✔ no findings: no hidden text or structure (this PDF has no answer key: no trap "
                             "to check)", style="green"))
        for f in findings:
            rows.append(Text.assemble((f"{f.severity:<8}", SEVERITY_STYLES.get(f.severity, "")),
                                      (f"{f.code}", "bold"), "  ", f.message))
        update_in_place(self.query_one(Static), Group(*rows))

    def show_message(self, message: str) -> None:
        update_in_place(self.query_one(Static), Text(message, style="dim"))
