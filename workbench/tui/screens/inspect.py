"""Inspect: the cases on the left, the page in the middle, text layers and the key on the right."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Header, TabbedContent, TabPane
from textual.worker import Worker, WorkerState

from workbench.core.case import Case
from workbench.core.source import Source
from workbench.tui.messages import CaseLoaded, LoadFailed
from workbench.tui.widgets.case_list import CaseList
from workbench.tui.widgets.page_view import PageView
from workbench.tui.widgets.text_layers import AnswerKeyView, TextLayerView

EXTRACTORS = ("pypdf", "pymupdf")


def load_case_data(case: Case) -> tuple[bytes, int, dict[str, list[str]]]:
    """Read a case's PDF and extract each text layer (runs in a worker thread)."""
    from workbench.pdf.document import read_pdf_bytes
    from workbench.pdf.textlayer import extract

    pdf = read_pdf_bytes(case.pdf_file)
    layers = {name: extract(pdf, name, case.pdf_file.name) for name in EXTRACTORS}
    return pdf, len(layers["pymupdf"]), layers


class InspectScreen(Screen):
    BINDINGS = [
        ("q", "app.quit", "Quit"),
        ("1", "show_tab('tab-pypdf')", "pypdf"),
        ("2", "show_tab('tab-pymupdf')", "pymupdf"),
        ("3", "show_tab('tab-key')", "Key"),
    ]

    def __init__(self, source: Source) -> None:
        super().__init__()
        self.source = source
        self.current: Case | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="body"):
            yield CaseList(self.source.cases, id="cases")
            yield PageView(id="page")
            with TabbedContent(id="side", initial="tab-pymupdf"):
                for name in EXTRACTORS:
                    with TabPane(name, id=f"tab-{name}"):
                        yield TextLayerView(name, id=f"text-{name}")
                with TabPane("Key", id="tab-key"):
                    yield AnswerKeyView(id="key")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "pdfworkbench"
        self.sub_title = f"{self.source.kind}: {self.source.title}"
        for problem in self.source.problems:
            self.notify(problem, severity="warning", timeout=8)
        self.query_one(CaseList).focus()

    def action_show_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab

    @on(CaseList.Selected)
    def case_selected(self, event: CaseList.Selected) -> None:
        self.current = event.case
        self.query_one(AnswerKeyView).show(event.case)
        self.query_one(PageView).border_title = event.case.id
        self._load(event.case)

    @work(thread=True, exclusive=True, group="case-load", exit_on_error=False)
    def _load(self, case: Case) -> None:
        from workbench.core.errors import UserError

        try:
            pdf, pages, layers = load_case_data(case)
        except UserError as exc:
            self.post_message(LoadFailed(case, str(exc)))
            return
        self.post_message(CaseLoaded(case, pdf, pages, layers))

    def on_case_loaded(self, message: CaseLoaded) -> None:
        if message.case is not self.current:
            return  # a newer selection won
        for name in EXTRACTORS:
            self.query_one(f"#text-{name}", TextLayerView).show(message.layers[name])
        self.query_one(PageView).show_pdf(message.pdf, message.page_count)

    def on_load_failed(self, message: LoadFailed) -> None:
        if message.case is not self.current:
            return
        self.query_one(PageView).clear(message.error)
        for name in EXTRACTORS:
            self.query_one(f"#text-{name}", TextLayerView).show_message("(no text: the PDF could not be read)")
        self.notify(message.error, severity="error", timeout=8)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # Failures a user did not cause still must not take the app down: report them.
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self.notify(f"{type(event.worker.error).__name__}: {event.worker.error}", severity="error", timeout=10)
