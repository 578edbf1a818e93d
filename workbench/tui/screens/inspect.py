"""Inspect: the cases on the left, the page in the middle, layers, key, lint and answers on the right."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events, on, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Header, Input, OptionList, TabbedContent, TabPane
from textual.worker import Worker, WorkerState

from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.layout import run_files
from workbench.core.runindex import RunIndex, SavedAnswer
from workbench.core.source import Source
from workbench.grading.outcome import Outcome, outcome_of
from workbench.tui import firstpage
from workbench.tui.case_data import (
    EXTRACTORS,
    CaseData,
    PageData,
    finish_case_data,
    load_page,
    open_case_data,
)
from workbench.tui.keymap import key_of
from workbench.tui.messages import (
    AnswerArrived,
    CaseLoaded,
    CaseOpened,
    LintMarks,
    LoadFailed,
    PageLoaded,
    RunsIndexed,
)
from workbench.tui.widgets.answers import AnswersView, answer_detail
from workbench.tui.widgets.case_list import CaseList
from workbench.tui.widgets.footer import KeyFooter
from workbench.tui.widgets.hint import FirstRunHint
from workbench.tui.widgets.layout import PaneRow
from workbench.tui.widgets.page_view import PAGE_BINDINGS, PageKeys, PageView
from workbench.tui.widgets.revisions import RevisionsView
from workbench.tui.widgets.text_layers import AnswerKeyView, LintView, TextLayerView, lint_status

if TYPE_CHECKING:  # the Ask and Runs screens load when first opened, not before the first page
    from workbench.tui.screens.ask import AskChoice
    from workbench.tui.screens.runs import AnswerRef


def shown_path(path: Path) -> str:
    """A path as a title shows it: under the home folder as ~/..."""
    path = Path(path).resolve()
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)

# Seconds a page must stay shown before it is analysed (its image is on screen before that).
PAGE_SETTLE = 0.06
# At most this long, a case's first page waits for its image to be on screen before it is
# analysed: the analysis holds the interpreter (pymupdf keeps the GIL) and would slow the drawing.
FIRST_PAGE_WAIT = 1.0
# The first case's PDF is read (and its checksum compared) on the UI thread at mount only up to
# this size, about 20 ms of reading: a larger file would hold the screen's first frame back longer
# than the render of the whole screen it saves, and is read by the worker.
AT_ONCE_MAX_BYTES = 32 * 1024 * 1024
# Suites of more cases than this are linted for their marks in other processes.
LINT_IN_PROCESSES = 100

TABS = ("tab-pypdf", "tab-pymupdf", "tab-key", "tab-lint", "tab-answers")


class InspectScreen(PageKeys, Screen):
    BINDINGS = [
        Binding("q", "app.quit", "Quit", id="quit_inspect", tooltip="Quit the workbench"),
        Binding("a", "ask", "Ask", id="ask", tooltip="Ask a reader about this case"),
        # (before cancel_ask: escape hides the first-run hint while it is shown, then cancels)
        Binding("x,escape", "dismiss_hint", "Hide hint", id="dismiss_hint", show=False,
                tooltip="Hide the first-run hint for good"),
        Binding("escape", "cancel_ask", "Cancel", id="cancel_ask", show=False, tooltip="Cancel the call in flight"),
        Binding("e", "toggle_evidence", "Evidence", id="toggle_evidence", tooltip="Show or hide evidence boxes"),
        Binding("h", "toggle_hidden", "Hidden", id="toggle_hidden", tooltip="Shade hidden text on the page"),
        Binding("slash", "filter", "Filter", id="filter", tooltip="Filter cases by text"),
        Binding("f", "failures_only", "Failures", id="failures_only", tooltip="Show only failing cases"),
        Binding("r", "runs", "Runs", id="runs", tooltip="Open a run's report"),
        Binding("w", "author", "Author", id="author", tooltip="Author a case from this one (family, params, seed, scan)"),
        Binding("t", "triage", "Triage", id="triage", tooltip="Triage the suite's gold disputes"),
        Binding("D", "dispute", "Dispute", id="dispute", show=False, tooltip="Dispute a gold value of this case"),
        Binding("K", "edit_key", "Edit key", id="edit_key", show=False,
                tooltip="Write the answer key of an adopted case by hand"),
        Binding("1", "show_tab(0)", "pypdf", show=False, id="tab_pypdf", tooltip="The text layer as pypdf reads it"),
        Binding("2", "show_tab(1)", "pymupdf", show=False, id="tab_pymupdf",
                tooltip="The text layer as pymupdf reads it"),
        Binding("3", "show_tab(2)", "Key", show=False, id="tab_key", tooltip="The case's answer key"),
        Binding("4", "show_tab(3)", "Lint", show=False, id="tab_lint",
                tooltip="The lint: does the case keep its family's contract"),
        Binding("5", "show_tab(4)", "Answers", show=False, id="tab_answers",
                tooltip="The readers' saved answers to this case, graded"),
        Binding("v", "answer_values", "Values", show=False, id="answer_values",
                tooltip="The values of the answer shown, each with where it came from"),
        Binding("left_square_bracket", "step_tab(-1)", "Prev tab", show=False, id="previous_tab",
                tooltip="The side pane's previous tab (its row scrolls to it)"),
        Binding("right_square_bracket", "step_tab(1)", "Next tab", show=False, id="next_tab",
                tooltip="The side pane's next tab: the text layers of every extractor, Revisions"),
        *PAGE_BINDINGS,
    ]

    def __init__(self, source: Source) -> None:
        super().__init__()
        self.source = source
        self.current: Case | None = None
        self.data: CaseData | None = None
        self.index = RunIndex()
        self.asking = False
        self._pending_answer: tuple[str, Path, int] | None = None
        self._gold = None   # NewestGold of the suite, made on first grading
        self._gold_told: str | None = None   # the journal problem last notified
        self._last_choice: AskChoice | None = None   # the dialog's last choice, this session
        self._page_timer = None
        self._first_shown = threading.Event()   # set when a page's image is on screen
        self._extras_for: CaseData | None = None  # opened, its revisions and trace not started
        self._marks_due = False   # the case list's verdict marks wait for the first page
        self._first_page_done = False   # _after_first_page has run (a page shown, or none can be)
        self._marks_made = 0      # counts the verdict marks set on this thread
        self._resumed = False     # the screen has been shown once
        self._more_layers: tuple[str, ...] = ()  # a tab each, added after the first page

    # ---- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        if self.app.settings.first_run_hint:
            yield FirstRunHint(id="first-run-hint")
        with PaneRow(id="body"):
            with Vertical(id="left"):
                yield Input(placeholder="filter: text in id, family or question", id="filter")
                yield CaseList(self.source.cases, id="cases")
            yield PageView(graphics=self.app.graphics, id="page")
            with TabbedContent(id="side", initial="tab-pymupdf"):
                for name in EXTRACTORS:
                    with TabPane(name, id=f"tab-{name}"):
                        yield TextLayerView(name, id=f"text-{name}")
                with TabPane("Key", id="tab-key"):
                    yield AnswerKeyView(id="key")
                with TabPane("Lint", id="tab-lint"):
                    yield LintView(id="lint")
                with TabPane("Answers", id="tab-answers"):
                    yield AnswersView(id="answers")
                with TabPane("Revisions", id="tab-revisions"):
                    yield RevisionsView(id="revisions")
        yield KeyFooter(hold=True)  # its keys once the first page is on screen (_after_first_page)

    @property
    def settings(self):
        return self.app.settings

    @property
    def reader(self) -> str:
        return self.settings.reader

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Its first resume follows its mount, where every node was styled: Textual would style all
        # of them again (48 nodes, a twentieth of the time to the first page). Later resumes
        # (back from another screen, perhaps after a change of theme) restyle as usual.
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def on_mount(self) -> None:
        self.title = "pdfworkbench"
        self.sub_title = self._sub_title()
        self.query_one(PageView).dpi = self.settings.dpi
        self.query_one("#filter", Input).display = False
        for problem in self.source.problems:
            self.notify(problem, severity="warning", timeout=8)
        self.query_one(CaseList).focus()
        if not self.source.cases:  # no page to wait for
            self.query_one(KeyFooter).release()
        else:
            # The case the list selects (its first) opens now, not when the list's cursor lands on
            # it after the screen's first frame (see `_opened_ahead`).
            self._open(self.source.cases[0], first=True)
        self._index_runs(self._run_paths())
        self._linted_all = False  # the whole suite is linted once the first case is on screen

    def _sub_title(self) -> str:
        """What is open, by its path (a shipped sample opens from its copy in the data folder)."""
        return f"{self.source.kind} {shown_path(self.source.path)} · reader {self.reader}"

    def _run_paths(self) -> list[Path]:
        """The target's run files, each once (the run opened, by whatever path it was given, is
        also among its suite's) and the run opened last: the one `r` shows."""
        opened = {p.resolve(): p for p in self.source.run_paths}
        paths = []
        if self.source.suite is not None:
            paths = [p for p in run_files(self.source.suite.folder) if p.resolve() not in opened]
        return paths + list(opened.values())

    # ---- selecting and loading a case ---------------------------------------------------

    @on(CaseList.Selected)
    def case_selected(self, event: CaseList.Selected) -> None:
        self._open(event.case)

    def _open(self, case: Case, first: bool = False) -> None:
        """Show `case`: its key and answers now, its page and layers as a worker reads them.
        `first`: the workbench's first case, shown at once when it can be (`_opened_from_first`)."""
        # The list's first highlight finds the first case opened at mount; a case whose PDF could
        # not be opened is read again only when chosen again.
        if self.current is case:
            return
        self.current = case
        self.data = None
        self.query_one(AnswersView).pdf = None
        self.query_one(AnswerKeyView).show(case)
        self.query_one(PageView).border_title = case.id
        self._show_answers()
        opened = self._opened_from_first(case, self.settings.dpi, wait=False) if first else None
        if opened is not None:
            self._first_shown.clear()
            self._show_opened(opened)
        self._load(case, self.settings.dpi, opened)

    def _opened_from_first(self, case: Case, dpi: int, wait: bool) -> CaseData | None:
        """`case` opened from the bytes the process started with the workbench checked (its first
        case), or None when the PDF is to be read and checked here. Without `wait`, None unless
        that process has answered already and the file is small (`AT_ONCE_MAX_BYTES`): the
        screen's mount opens the first case this way, before the screen's first layout, so the
        page is drawn as its pane gets its size and is in the first frame (from the worker, it
        came one whole render of the screen later)."""
        started = firstpage.started()
        if started is None:
            return None
        if not wait:
            verdict = started.verdict(timeout=0)
            if verdict is None or verdict.size > AT_ONCE_MAX_BYTES:
                return None
        try:
            pdf = case.pdf_file
        except UserError:  # a link in the suite: `_load` reads it and says why
            return None
        known = started.read_checked(pdf)
        if known is None:
            return None
        return open_case_data(case, known[0], dpi, pdf.name, checked=True, page_count=known[1])

    @work(thread=True, exclusive=True, group="case-load", exit_on_error=False)
    def _load(self, case: Case, dpi: int, opened: CaseData | None = None) -> None:
        """Open `case` (unless `opened` is it, on screen already) and analyse its first page."""
        from workbench.pdf.document import PdfEncrypted, read_pdf_bytes

        try:
            data = opened
            if data is None:
                data = self._opened_from_first(case, dpi, wait=True) or open_case_data(
                    case, read_pdf_bytes(case.pdf_file, self.app.password), dpi, case.pdf_file.name,
                    checked=True)
                self._first_shown.clear()
                self.post_message(CaseOpened(data))  # the page goes on screen before any analysis
            self._first_shown.wait(FIRST_PAGE_WAIT)
            # The first page; the next one ahead once this one is shown (page_shown).
            finish_case_data(data, eager=1, prefetch=False)
        except UserError as exc:
            self.post_message(LoadFailed(case, str(exc), encrypted=isinstance(exc, PdfEncrypted)))
            return
        self.post_message(CaseLoaded(data))

    def on_case_opened(self, message: CaseOpened) -> None:
        self._show_opened(message.data)

    def _show_opened(self, data: CaseData) -> None:
        """The opened case's page and text layers on screen (nothing analysed yet)."""
        if data.case is not self.current:
            return
        for name in EXTRACTORS:
            self.query_one(f"#text-{name}", TextLayerView).show(data.layers[name], data.hidden_texts,
                                                                 unread=data.unread[name], skipped=data.skipped)
        self.query_one(PageView).show_pdf(data.pdf, data.page_count, [])
        self.query_one(RevisionsView).show_message("reading the file's revisions…")
        # The revisions and the answer's trace wait until the page is on screen: started now,
        # they would hold the interpreter while the page is drawn.
        self._extras_for = data

    def _after_first_page(self) -> None:
        """What waits until a case's page is on screen (or can no longer come): the case list's
        verdict marks (grading every saved answer), the file's revisions, the answer's trace, and
        the keys in the footer."""
        if not self._first_page_done:
            self._add_layer_tabs()
        self._first_page_done = True
        self.query_one(KeyFooter).release()
        if self._marks_due:
            self._marks_due = False
            # Graded in a worker: grading every saved answer of a suite (about 0.1 s for the
            # sample) on this thread would hold the first page back from the screen.
            self._grade_marks(self.index, self.reader, self._marks_made)
        self._start_extras()

    def _add_layer_tabs(self) -> None:
        """A text-layer tab per other extractor installed here (providers.extractors), after the
        built-in two, or per one the settings' `layer_tabs` name (installed or not: its tab says
        what to install); each reads its layer when first shown for a case."""
        from workbench.providers.extractors import EXTRACTORS as ALL
        from workbench.providers.extractors import available

        pinned = self.settings.layer_tabs
        if pinned is None:
            names = tuple(n for n in ALL if n not in EXTRACTORS and available(n))
        else:
            names = tuple(n for n in dict.fromkeys(pinned) if n in ALL and n not in EXTRACTORS)
        tabs = self.query_one("#side", TabbedContent)
        adding = [tabs.add_pane(TabPane(n, TextLayerView(n, id=f"text-{n}"), id=f"tab-{n}")) for n in names]

        async def added() -> None:
            for pane in adding:
                await pane
            self._more_layers = names  # followed from now on (their views are mounted)
            self.call_after_refresh(self._say_tab_overflow)

        self.run_worker(added(), group="layer-tabs", exit_on_error=False)

    @on(TabbedContent.TabActivated, "#side")
    def side_tab_shown(self, event: TabbedContent.TabActivated) -> None:
        self._fill_layer_tab()
        self._say_tab_overflow()

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._say_tab_overflow)

    def _say_tab_overflow(self) -> None:
        """When the side pane's tabs do not all fit its row, its border says which one of how
        many is shown and the keys that step through them (the row scrolls to the one shown)."""
        from textual.widgets import Tab, Tabs

        side = self.query_one("#side", TabbedContent)
        tabs = side.query_one(Tabs)
        shown = [t for t in tabs.query(Tab) if t.display]
        width = sum(t.outer_size.width for t in shown)
        if not shown or not tabs.size.width or width <= tabs.size.width:
            side.border_subtitle = ""
            return
        ids = [t.id for t in shown]
        at = ids.index(tabs.active) + 1 if tabs.active in ids else 0
        prev, nxt = key_of(self, "previous_tab"), key_of(self, "next_tab")
        side.border_subtitle = f"tab {at}/{len(shown)} · {prev} {nxt} for the others"

    def action_step_tab(self, step: int) -> None:
        """[ and ]: the side pane's previous or next tab, round."""
        side = self.query_one("#side", TabbedContent)
        panes = [p.id for p in side.query(TabPane) if p.id]
        if not panes:
            return
        at = panes.index(side.active) if side.active in panes else 0
        side.active = panes[(at + step) % len(panes)]

    def _fill_layer_tab(self) -> None:
        """The shown tab's layer, read for the current case if it is not yet (in a worker)."""
        name = (self.query_one("#side", TabbedContent).active or "").removeprefix("tab-")
        data = self.data
        if name not in self._more_layers or data is None or data.case is not self.current:
            return
        view = self.query_one(f"#text-{name}", TextLayerView)
        if view.layer_of is data:
            return
        view.layer_of = data
        view.show_message(f"(reading the document with {name}…)")
        self._read_layer(data, name)

    @work(thread=True, group="more-layers", exit_on_error=False)
    def _read_layer(self, data: CaseData, name: str) -> None:
        from workbench.providers.exposure import extracted_text, key_spans

        try:
            pages = extracted_text(data.pdf, name).split("\f")
        except UserError as exc:
            self.app.call_from_thread(self._show_layer, data, name, None, str(exc))
            return
        spans = [key_spans(data.case, text) if data.case.question else [] for text in pages]
        self.app.call_from_thread(self._show_layer, data, name, (pages, spans), "")

    def _show_layer(self, data: CaseData, name: str, read: tuple | None, error: str) -> None:
        view = self.query_one(f"#text-{name}", TextLayerView)
        if data is not self.data or view.layer_of is not data:
            return
        if read is None:
            view.show_message(error)
            return
        view.key_spans = read[1]
        view.show(read[0], data.hidden_texts, self.query_one(PageView).page)

    def _start_extras(self) -> None:
        """Read the file's revisions and trace the shown answer, once per case opened."""
        data, self._extras_for = self._extras_for, None
        if data is None or data.case is not self.current:
            return
        self._load_revisions(data.case, data.pdf)
        answers = self.query_one(AnswersView)
        answers.pdf = data.pdf  # answers can be traced to the document now
        answers.pdf_pages = data.page_count
        if answers.shown is not None and answers.attributions() is None:
            answers.refresh_detail()

    @work(thread=True, exclusive=True, group="revisions", exit_on_error=False)
    def _load_revisions(self, case: Case, pdf: bytes) -> None:
        """The file's revisions (`pdf.structure.revisions`): each one's pages, runs and images."""
        from workbench.pdf.revisions import revisions

        found = revisions(pdf)
        self.app.call_from_thread(self._show_revisions, case, found)

    def _show_revisions(self, case: Case, found: list) -> None:
        if case is self.current:
            self.query_one(RevisionsView).show(found)

    def on_case_loaded(self, message: CaseLoaded) -> None:
        data: CaseData = message.data
        if data.case is not self.current:
            return  # a newer selection won
        self.data = data
        self._after_first_page()  # if the page is not on screen by now, they wait no longer
        view = self.query_one(PageView)
        if view.pdf is not data.pdf:  # the page is not on screen yet (opened and loaded at once)
            view.show_pdf(data.pdf, data.page_count, [])
        for name in EXTRACTORS:
            self.query_one(f"#text-{name}", TextLayerView).show(data.layers[name], data.hidden_texts, view.page,
                                                                 unread=data.unread[name], skipped=data.skipped)
        self.query_one(LintView).show(data.findings)
        if data.case.question:
            self.query_one(CaseList).set_marks(lint={data.case.id: lint_status(data.findings)})
        view.set_boxes(list(data.boxes))
        self._notify_skipped(data)
        self._follow_page(view.page)
        self._start_lint_all()
        self._fill_layer_tab()

    @on(PageView.PageChanged)
    def page_changed(self, event: PageView.PageChanged) -> None:
        for name in (*EXTRACTORS, *self._more_layers):
            self.query_one(f"#text-{name}", TextLayerView).show_page(event.page)
        self._follow_page(event.page)

    def _follow_page(self, page: int) -> None:
        """The page shown is analysed (in a worker) unless it is already; the next one ahead."""
        data = self.data
        if data is None or data.case is not self.current:
            return
        if page in data.loaded:
            self._prefetch_after(data, page)
            return
        cached = data.pages.cached(page)
        if cached is not None and cached.texts is not None:
            self._load_page(data, page)  # analysed ahead: only its boxes are left to find
            return
        # Analysed after a short pause, so the page image (a thread of its own) goes on screen
        # first, and paging fast through a long document analyses only where it stops.
        if self._page_timer is not None:
            self._page_timer.stop()
        self._page_timer = self.set_timer(PAGE_SETTLE, lambda: self._settled(data, page))

    @on(PageView.PageShown)
    def page_shown(self, event: PageView.PageShown) -> None:
        self._first_shown.set()
        self._after_first_page()
        if self.data is not None:
            self._prefetch_after(self.data, event.page)

    def _prefetch_after(self, data: CaseData, page: int) -> None:
        """The page after `page` is computed ahead once `page` is analysed and its image is on
        screen; sooner, it would hold the interpreter while that image is drawn."""
        view = self.query_one(PageView)
        if page in data.loaded and view.rendered_page == page and page + 1 < data.page_count:
            data.pages.prefetch(page + 1)

    def _settled(self, data: CaseData, page: int) -> None:
        self._page_timer = None
        if data is self.data and page == self.query_one(PageView).page and page not in data.loaded:
            self._load_page(data, page)

    @work(thread=True, group="page-load", exit_on_error=False)
    def _load_page(self, data: CaseData, page: int) -> None:
        try:
            self.post_message(PageLoaded(data, load_page(data, page, prefetch=False)))
        except UserError as exc:
            self.post_message(LoadFailed(data.case, str(exc)))

    def on_page_loaded(self, message: PageLoaded) -> None:
        data: CaseData = message.data
        loaded: PageData = message.page
        if data is not self.data or loaded.page in data.loaded:
            return
        data.apply(loaded)
        view = self.query_one(PageView)
        self._prefetch_after(data, loaded.page)
        if loaded.page == view.page:
            for name in (*EXTRACTORS, *self._more_layers):
                self.query_one(f"#text-{name}", TextLayerView).show_page(loaded.page, force=True)
            view.set_boxes(list(data.boxes))
        else:
            view.boxes = list(data.boxes)  # drawn when that page is shown
        self._notify_skipped(data, loaded.page)

    def _notify_skipped(self, data: CaseData, page: int | None = None) -> None:
        for i, why in data.skipped.items():
            if page is None or i == page:
                self.notify(f"page {i + 1}: {why}", severity="warning", timeout=8)
        for name, pages in data.unread.items():  # (one line a document: it is the same refusal)
            if pages and (page is None or page == min(pages)) and min(pages) in data.loaded:
                self.notify(f"{pages[min(pages)]}; the {name} layer is empty where it could not read",
                            severity="warning", timeout=8)

    def _start_lint_all(self) -> None:
        if not self._linted_all and any(c.question for c in self.source.cases):
            self._linted_all = True
            self._lint_all(list(self.source.cases))

    def on_load_failed(self, message: LoadFailed) -> None:
        if message.case is not self.current:
            return
        self._extras_for = None  # no revisions or trace of a PDF that cannot be read
        self._after_first_page()
        self.query_one(PageView).clear(message.error)
        for name in EXTRACTORS:
            self.query_one(f"#text-{name}", TextLayerView).show_message("(no text: the PDF could not be read)")
        self.query_one(LintView).show_message(message.error)
        self.query_one(RevisionsView).show_message("(no revisions: the PDF could not be read)")
        if message.encrypted:
            self._ask_password(message.case, message.error)
            return
        self.notify(message.error, severity="error", timeout=8)
        self._start_lint_all()

    @work(exclusive=True, group="password", exit_on_error=False)
    async def _ask_password(self, case: Case, problem: str) -> None:
        """An encrypted PDF: ask for its password, keep it for the session, open the case again."""
        from workbench.tui.widgets.password import PasswordScreen

        why = ("the password given does not open it; try another" if self.app.password
               else "a password is needed to open it")
        password = await self.app.push_screen_wait(PasswordScreen(case.pdf_file.name, why))
        if password is None:  # cancelled: the case stays unread, saying why
            self.notify(problem, severity="error", timeout=8)
            self._start_lint_all()
            return
        self.app.password = password
        self._linted_all = False  # the lint marks of encrypted cases, now readable
        if case is self.current:
            self._load(case, self.settings.dpi)

    # ---- lint marks for every case, in the background -----------------------------------

    @work(thread=True, exclusive=True, group="lint-all", exit_on_error=False)
    def _lint_all(self, cases: list[Case]) -> None:
        import functools

        from textual.worker import get_current_worker

        from workbench.checks.lint import lint_case_file
        from workbench.core.pool import cores, map_ordered

        worker = get_current_worker()
        todo = [c for c in cases if c.question]
        # A large suite is linted in other processes, leaving this one (and a core) to the screen.
        jobs = max(1, cores() - 1) if len(todo) > LINT_IN_PROCESSES else 1
        marks: dict[str, str] = {}
        found = map_ordered(functools.partial(lint_case_file, password=self.app.password), todo, jobs, chunksize=8)
        try:
            for case, findings in zip(todo, found, strict=True):
                if worker.is_cancelled:
                    return
                marks[case.id] = lint_status(findings)
                if len(marks) >= 8:
                    self.post_message(LintMarks(marks))
                    marks = {}
        finally:
            found.close()
        if marks:
            self.post_message(LintMarks(marks))

    def on_lint_marks(self, message: LintMarks) -> None:
        self.query_one(CaseList).set_marks(lint=message.marks)

    # ---- saved answers and verdict marks ------------------------------------------------

    @work(thread=True, exclusive=True, group="runs-index", exit_on_error=False)
    def _index_runs(self, paths: list[Path]) -> None:
        self.post_message(RunsIndexed(RunIndex.load(paths)))

    def on_runs_indexed(self, message: RunsIndexed) -> None:
        self.index = message.index
        for problem in self.index.problems:
            self.notify(problem, severity="warning", timeout=8)
        readers = self.index.readers()
        opened = self._opened_run_reader()
        if opened is not None and opened != self.reader:
            self.settings.reader = opened   # a run opened shows its own reader's verdicts
            self.sub_title = self._sub_title()
        elif readers and self.reader not in readers:
            self.settings.reader = readers[0]
            self.sub_title = self._sub_title()
        if not self._first_page_done:
            self._marks_due = True  # graded once the first page is on screen (_after_first_page)
        else:
            # In a worker: grading every saved answer (0.1 s for the sample) would hold the screen.
            self._grade_marks(self.index, self.reader, self._marks_made)
        self._show_answers()

    def _opened_run_reader(self) -> str | None:
        """The reader of the run file opened (a run target), else None."""
        if self.source.kind != "run":
            return None
        run = self.source.run_paths[0].resolve()
        for answers in self.index.by_case.values():
            for saved in answers:
                if saved.run.resolve() == run:
                    return saved.record.reader
        return None

    def _refresh_verdict_marks(self) -> None:
        self._marks_made += 1  # a grading still running in a worker is out of date
        self.query_one(CaseList).set_marks(outcomes=self._outcomes(self.index, self.reader))

    def _graded(self, case: Case) -> Case:
        """`case` with its key at the suite's newest gold: what every verdict here grades against."""
        if self.source.suite is None:
            return case
        if self._gold is None:
            from workbench.gold.versions import NewestGold

            self._gold = NewestGold(self.source.suite)
        return self._gold.case(case)

    def _outcomes(self, index: RunIndex, reader: str) -> dict[str, Outcome]:
        """Each case's verdict mark: its latest saved answer from `reader`, graded."""
        outcomes: dict[str, Outcome] = {}
        for case in self.source.cases:
            saved = index.latest(case.id, reader)
            if saved is not None:
                outcomes[case.id] = outcome_of(saved.record, self._graded(case))
        return outcomes

    @work(thread=True, exclusive=True, group="verdict-marks", exit_on_error=False)
    def _grade_marks(self, index: RunIndex, reader: str, made: int) -> None:
        outcomes = self._outcomes(index, reader)
        self.app.call_from_thread(self._set_graded_marks, outcomes, made)

    def _set_graded_marks(self, outcomes: dict[str, Outcome], made: int) -> None:
        if made == self._marks_made:  # no newer marks set meanwhile
            self.query_one(CaseList).set_marks(outcomes=outcomes)

    def _show_answers(self, select: int | None = None) -> None:
        if self.current is None:
            return
        graded = self._graded(self.current)
        if self._gold is not None and self._gold.problem and self._gold.problem != self._gold_told:
            # Verdicts fall back to v1: say why once (a toast; the Triage screen shows it in place).
            self._gold_told = self._gold.problem
            self.notify(f"graded against gold v1: {self._gold.problem}", severity="warning", timeout=8)
        answers = [(s, outcome_of(s.record, graded)) for s in self.index.for_case(self.current.id)]
        if self._pending_answer and self._pending_answer[0] == self.current.id:
            _, run, line = self._pending_answer
            for i, (s, _) in enumerate(answers):
                if s.run == run and s.line == line:
                    select = i
            self._pending_answer = None
        self.query_one(AnswersView).show(self.current, answers, select, gold=graded.gold_version)

    def select_answer(self, case_id: str, run: Path, line: int) -> None:
        """Show a case with one saved answer selected (the Runs screen jumps here)."""
        self._pending_answer = (case_id, Path(run), line)
        self.query_one(TabbedContent).active = "tab-answers"
        if self.current is not None and self.current.id == case_id:
            self._show_answers()
        elif not self.query_one(CaseList).select_case(case_id):
            self.notify(f"case {case_id} is not in this suite", severity="warning")

    def action_answer_values(self) -> None:
        """The Answers tab, with the values of the answer shown focused (the first one chosen)."""
        self.query_one(TabbedContent).active = "tab-answers"
        values = self.query_one("#value-list", OptionList)
        values.focus()
        if values.option_count > 1 and values.highlighted in (None, 0):
            values.highlighted = 1   # option 0 is the summary
        # The box of the value highlighted, now (a highlight left from before fires no event, and
        # the page kept the box of another answer's value).
        found = self.query_one(AnswersView).attributions() or []
        option = values.highlighted_option
        if option is not None and option.id and int(option.id[1:]) < len(found):
            self.value_selected(AnswersView.ValueSelected(found[int(option.id[1:])]))

    def leave_values(self) -> bool:
        """Escape in the answer's values: the value's box and the layers' pointer go, the page is
        whole again, the cases have the keys. False when the values are not focused."""
        if self.focused is None or self.focused.id != "value-list":
            return False
        for name in EXTRACTORS:
            self.query_one(f"#text-{name}", TextLayerView).point_at("")
        view = self.query_one(PageView)
        view.value_box = None
        view.action_fit()  # the whole page again, as before `v` zoomed to the value
        self.query_one(CaseList).focus()
        return True

    @on(AnswersView.ValueSelected)
    def value_selected(self, event: AnswersView.ValueSelected) -> None:
        """A value of the answer was chosen: the page shows the box it came from and the text
        layers point at it."""
        from workbench.pdf.pages import Box

        a = event.attribution
        for name in EXTRACTORS:
            self.query_one(f"#text-{name}", TextLayerView).pointer = a.value
        view = self.query_one(PageView)
        if a.page is not None and a.box is not None:
            view.show_value_box(Box(a.page, tuple(a.box), "value", a.value))
            if a.page == view.page:
                for name in EXTRACTORS:
                    self.query_one(f"#text-{name}", TextLayerView).point_at(a.value)
        else:
            view.value_box = None
            view.refresh_page()
            self.notify(f"{a.value}: {a.source.replace('_', ' ')}, in no box on the page"
                        + (f" ({a.detail})" if a.detail else ""), timeout=6)

    @on(AnswersView.PageRequested)
    def trace_page(self, event: AnswersView.PageRequested) -> None:
        """A call of an agent's trace was chosen: the page view shows the page it opened."""
        view = self.query_one(PageView)
        if not 0 <= event.page < view.page_count:
            self.notify(f"page {event.page + 1} is not in this document ({view.page_count} pages)",
                        severity="warning")
            return
        view.value_box = None
        view.go_to(event.page)

    @on(AnswersView.CompareRequested)
    def compare(self, event: AnswersView.CompareRequested) -> None:
        from workbench.tui.screens.ask import CompareScreen

        assert self.current is not None
        sides = [answer_detail(self.current, s, v) for s, v in (event.left, event.right)]
        self.app.push_screen(CompareScreen(*sides))

    # ---- asking a reader ------------------------------------------------------------------

    def action_ask(self) -> None:
        if self.current is None:
            return
        if self.asking:
            self.notify("a call is already in flight; press escape to cancel it", severity="warning")
            return
        from workbench.providers.base import known_readers
        from workbench.tui.screens.ask import AskChoice, AskScreen, provider_of

        case = self.current
        settings = self.settings
        last = self._last_choice
        question = settings.questions.get(self._document_key(case)) or case.question
        choice = AskChoice(last.reader if last else self.reader, last.modality if last else settings.modality,
                           last.dpi if last else settings.dpi, question)
        answers = self.query_one(AnswersView)
        if self.query_one(TabbedContent).active == "tab-answers" and answers.shown is not None:
            # Asking again from an answer: its reader, modality and DPI, not the last ones used.
            record = answers.answers[answers.shown][0].record
            choice = AskChoice(record.reader, record.modality, record.dpi or settings.dpi, question)

        def chosen(result: AskChoice | None) -> None:
            if result is None:
                return
            # Kept for the next ask; a reader becomes the remembered one only once a call of it
            # succeeds (see on_answer_arrived).
            self._last_choice = result
            key = self._document_key(case)
            if result.question != case.question:
                settings.questions[key] = result.question
            else:
                settings.questions.pop(key, None)
            if result.base_url:
                settings.base_urls[provider_of(result.reader)] = result.base_url
            self.app.remember()
            self.query_one(PageView).dpi = result.dpi  # the page as this reader will get it
            self._ask(case, result)

        self.app.push_screen(AskScreen(known_readers(), choice, case.id, settings.base_urls), chosen)

    @staticmethod
    def _document_key(case: Case) -> str:
        """Questions are remembered per PDF file."""
        return str(Path(case.pdf_file).resolve())

    @work(exclusive=True, group="ask", exit_on_error=False)
    async def _ask(self, case: Case, choice: AskChoice) -> None:
        import asyncio

        from workbench.providers.asking import ask

        self.asking = True
        self.query_one(TabbedContent).active = "tab-answers"
        started = asyncio.get_running_loop().time()
        answers = self.query_one(AnswersView)

        def tick() -> None:
            elapsed = asyncio.get_running_loop().time() - started
            answers.set_status(f"⧗ {elapsed:.1f} s · esc cancels · asking {choice.reader} ({choice.modality})")

        tick()
        ticker = self.set_interval(0.2, tick)
        own_question = choice.question and choice.question != case.question
        try:
            record, path = await ask(case, choice.reader, choice.modality, choice.dpi,
                                     suite=self.source.suite, base_url=choice.base_url, password=self.app.password,
                                     question=choice.question if own_question else None)
        except UserError as exc:
            self.notify(str(exc), severity="error", timeout=10)
            return
        except asyncio.CancelledError:
            self.notify("call cancelled; nothing was recorded", severity="warning")
            raise
        finally:
            self.asking = False
            ticker.stop()
            answers.set_status("")
        saved = self.index.add(record, path)
        self.post_message(AnswerArrived(case, saved))

    def on_answer_arrived(self, message: AnswerArrived) -> None:
        saved: SavedAnswer = message.saved
        record = saved.record
        if record.status == "ok" and self._last_choice is not None:
            choice = self._last_choice
            self.settings.reader, self.settings.modality, self.settings.dpi = (
                choice.reader, choice.modality, choice.dpi)
            self.app.remember()
            self.sub_title = self._sub_title()
        outcome = outcome_of(record, self._graded(message.case))
        shown = (record.answer or "")[:80] if outcome.kind == "no_key" else outcome.reason
        self.notify(f"{record.reader}: {shown}", timeout=6)
        self._refresh_verdict_marks()
        if self.current is message.case:  # the answer that came is the one highlighted
            self._pending_answer = (message.case.id, saved.run, saved.line)
            self._show_answers()

    def action_cancel_ask(self) -> None:
        if self.asking:
            self.workers.cancel_group(self, "ask")
        elif self.leave_values():
            pass
        elif self.query_one("#filter", Input).display:
            self._close_filter(clear=True)

    # ---- page overlays, filters, tabs -----------------------------------------------------

    def action_toggle_evidence(self) -> None:
        page = self.query_one(PageView)
        page.show_evidence = not page.show_evidence

    def action_toggle_hidden(self) -> None:
        page = self.query_one(PageView)
        page.show_hidden = not page.show_hidden

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "dismiss_hint":
            return bool(self.query(FirstRunHint))  # (escape cancels a call when no hint is shown)
        return super().check_action(action, parameters)

    def action_dismiss_hint(self) -> None:
        """x or escape on the first-run hint: it goes, and is not shown again (unless the config
        file cannot be written: then it says so, and the file stays as it was)."""
        for hint in self.query(FirstRunHint):
            hint.remove()
        self.app.settings.first_run_hint = False
        self.app.remember()

    def action_show_tab(self, index: int) -> None:
        self.query_one(TabbedContent).active = TABS[index]

    def action_filter(self) -> None:
        box = self.query_one("#filter", Input)
        box.display = True
        box.focus()

    @on(Input.Changed, "#filter")
    def filter_changed(self, event: Input.Changed) -> None:
        cases = self.query_one(CaseList)
        cases.filter_text = event.value
        cases.rebuild()

    @on(Input.Submitted, "#filter")
    def filter_done(self) -> None:
        self._close_filter(clear=False)

    def _close_filter(self, clear: bool) -> None:
        box = self.query_one("#filter", Input)
        if clear:
            box.value = ""
        box.display = bool(box.value)
        self.query_one(CaseList).focus()

    def action_failures_only(self) -> None:
        cases = self.query_one(CaseList)
        cases.failures_only = not cases.failures_only
        cases.rebuild()
        self.notify("showing failures only" if cases.failures_only else "showing every case", timeout=2)

    def jump_to_family(self, family: str | None) -> None:
        cases = self.query_one(CaseList)
        cases.family = family
        cases.rebuild()

    def set_reader(self, reader: str) -> None:
        self.settings.reader = reader
        self.app.remember()
        self.sub_title = self._sub_title()
        self._refresh_verdict_marks()

    def action_runs(self) -> None:
        paths = self._run_paths()
        if not paths:
            self.notify("no run files yet: ask a reader (a) or run `pdfworkbench run`", severity="warning")
            return
        self.open_runs(paths[-1], paths)

    def open_runs(self, run: Path, runs: list[Path]) -> None:
        """The Runs screen on `run`; picking a record there comes back here with it selected."""
        from workbench.tui.screens.runs import RunsScreen

        self.app.push_screen(RunsScreen(self.source, run, runs), callback=self.show_picked_answer)

    def show_picked_answer(self, picked: AnswerRef | None) -> None:
        if picked is not None:
            self.select_answer(*picked)

    def action_triage(self) -> None:
        if self.source.suite is None:
            self.notify("triage works on a suite folder", severity="warning")
            return
        from workbench.tui.screens.triage import TriageScreen

        self.app.push_screen(TriageScreen(self.source.suite.folder, self.source.cases))

    def action_dispute(self) -> None:
        if self.source.suite is None or self.current is None or not self.current.question:
            self.notify("disputes need a case with an answer key in a suite", severity="warning")
            return
        from workbench.gold.keys import key_fields
        from workbench.gold.versions import gold_keys
        from workbench.tui.screens.triage import DisputeScreen

        try:
            key = gold_keys(self.source.suite.folder, "latest").keys[self.current.id]
        except (UserError, KeyError) as exc:
            self.notify(f"cannot read this case's gold: {exc}", severity="error")
            return
        page = self.query_one(PageView).page
        self.app.push_screen(DisputeScreen(self.source.suite.folder, self.current, key_fields(key), page))

    def set_dpi(self, dpi: int) -> None:
        """Show the page (and judge legibility) at the DPI a reader would get."""
        self.settings.dpi = dpi
        self.app.remember()
        self.query_one(PageView).dpi = dpi
        if self.current is not None:
            self.data = None
            self._load(self.current, dpi)

    def action_relint(self) -> None:
        self._lint_all(list(self.source.cases))
        if self.current is not None:
            self.data = None
            self._load(self.current, self.settings.dpi)

    # ---- the hand-written key of an adopted case ----------------------------------------

    def action_edit_key(self) -> None:
        case = self.current
        if case is None or case.source is None:
            self.notify("only an adopted case's key is written by hand (pdfworkbench adopt FILE.pdf)",
                        severity="warning")
            return
        if case.mutations:
            self.notify("a mutated case's key follows from its mutations: edit the adopted case's key "
                        "and mutate it again (w)", severity="warning", timeout=6)
            return
        self._edit_key_flow(case)

    @work(exclusive=True, group="edit-key", exit_on_error=False)
    async def _edit_key_flow(self, case: Case) -> None:
        import asyncio

        from workbench.build.adopted import rekeyed
        from workbench.build.saving import add_to_suite
        from workbench.checks.lint import lint_case
        from workbench.checks.locate import located_answer
        from workbench.pdf.document import read_pdf_bytes
        from workbench.tui.widgets.author_save import ConfirmScreen
        from workbench.tui.widgets.key_edit import KeyEditScreen

        values = await self.app.push_screen_wait(KeyEditScreen(case))
        if values is None or case.json_path is None:
            return
        try:
            new = rekeyed(case, values["question"], values["expected"], values["tokens"],
                          values["forbidden"], values["matcher"])
            pdf = await asyncio.to_thread(read_pdf_bytes, case.pdf_file, self.app.password)
            findings = await asyncio.to_thread(lint_case, new, pdf)
        except UserError as exc:
            self.notify(str(exc), severity="error", timeout=8)
            return
        _, unlocated = await asyncio.to_thread(located_answer, new, pdf)
        errors = [f"{f.code}: {f.message}" for f in findings if f.severity == "error"] + unlocated
        if errors and not await self.app.push_screen_wait(ConfirmScreen(
                f"The new key has {len(errors)} lint error(s). Save it anyway?", yes="Save anyway",
                no="Cancel", detail="\n".join(errors[:5]))):
            return
        folder = case.json_path.parent
        try:
            added = await asyncio.to_thread(lambda: add_to_suite(
                folder, new, pdf, overwrite=True, lint_errors=errors, save_with_lint_errors=True))
        except UserError as exc:
            self.notify(str(exc), severity="error", timeout=8)
            return
        for i, c in enumerate(self.source.cases):
            if c is case:
                self.source.cases[i] = new
        self.current, self.data = new, None
        self.query_one(CaseList).rebuild(select=new.id)
        self.query_one(AnswerKeyView).show(new)
        self._load(new, self.settings.dpi)   # the lint of the new key, and its evidence boxes
        self.notify(f"saved the key of {new.id} (suite hash {added.suite_hash[:12]})", timeout=5)

    def action_author(self) -> None:
        self.app.open_author(self.current)

    # ---- command palette ------------------------------------------------------------------

    def palette_commands(self) -> Iterable[SystemCommand]:
        yield SystemCommand("Ask a reader", "Send this case to a reader (a)", self.action_ask)
        yield SystemCommand("Open run report", "The report of a run file (r)", self.action_runs)
        yield SystemCommand("Run lint", "Lint every case of the suite again", self.action_relint)
        yield SystemCommand("Author a case from this one", "Its family, params, seed and scan, in Author (w)",
                            self.action_author)
        yield SystemCommand("Author a new case", "Pick a family and turn its parameters",
                            lambda: self.app.open_author(None))
        yield SystemCommand("Triage disputes", "Decide the suite's gold disputes page by page (t)",
                            self.action_triage)
        yield SystemCommand("Dispute a gold value", "Open a dispute on a field of this case's key (D)",
                            self.action_dispute)
        yield SystemCommand("Toggle evidence boxes", "Expected and forbidden answers on the page (e)",
                            self.action_toggle_evidence)
        yield SystemCommand("Toggle hidden text", "Shade text that is in the layer but not visible (h)",
                            self.action_toggle_hidden)
        yield SystemCommand("Failures only", "Show only cases the reader got wrong (f)", self.action_failures_only)
        for dpi in (72, 100, 150, 200, 300):
            yield SystemCommand(f"DPI: {dpi}", "Render the page and judge legibility at this DPI",
                                lambda d=dpi: self.set_dpi(d), discover=False)
        families = sorted({c.trap_family for c in self.source.cases})
        yield SystemCommand("Family: all", "Show every family", lambda: self.jump_to_family(None), discover=False)
        for family in families:
            yield SystemCommand(f"Family: {family}", f"Show only {family}",
                                lambda f=family: self.jump_to_family(f), discover=False)
        from workbench.providers.base import known_readers

        for reader in dict.fromkeys([*self.index.readers(), *known_readers()]):
            yield SystemCommand(f"Reader: {reader}", "Show this reader's verdicts in the case list",
                                lambda r=reader: self.set_reader(r), discover=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # Failures a user did not cause still must not take the app down: report them.
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self.notify(f"{type(event.worker.error).__name__}: {event.worker.error}", severity="error", timeout=10)
