"""Inspect: the cases on the left, the page in the middle, layers, key, lint and answers on the right.

The screen is split by what it does: start-up (`inspect_startup.py`: the first frame and what
waits for it), the side panes (`widgets/side_panes.py`, mounted just after the first frame), the
case list's lint and verdict marks (`inspect_marks.py`), and the answers: asking a reader, an
answer's values, comparing two (`inspect_answers.py`). Here: choosing and loading a case, the
page it shows, filters, tabs and the screens opened from it.

Imports inside functions are the screens and dialogs opened on a key (Runs, Triage, Dispute, a
password, the key editor), loaded when first opened; the side panes, after the first frame; the
case's data (`case_data`: its evidence, spans and boxes) with the first case opened, after it too;
and pymupdf (pdf.document), by the worker that reads a case.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Vertical
from textual.markup import escape
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header, Input
from textual.worker import Worker, WorkerState

from workbench.core import collector
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.layout import run_files
from workbench.core.source import Source
from workbench.tui.host import Workbench, workbench
from workbench.tui.screens.inspect_answers import AnswersFlow
from workbench.tui.screens.inspect_marks import Marks
from workbench.tui.screens.inspect_pages import CasePages
from workbench.tui.screens.inspect_startup import (
    AHEAD_POLL,
    FIRST_PAGE_WAIT,
    PAGE_FRAME,
    StartUp,
    opened_from_first,
)
from workbench.tui.widgets.case_list import CaseList
from workbench.tui.widgets.footer import KeyFooter
from workbench.tui.widgets.hint import FirstRunHint
from workbench.tui.widgets.layout import PaneRow
from workbench.tui.widgets.page_view import PAGE_BINDINGS, PageKeys, PageView

if TYPE_CHECKING:  # mounted (or opened) after the first frame, and loaded then
    from workbench.core.runindex import RunIndex
    from workbench.tui.case_data import CaseData
    from workbench.tui.messages import CaseLoaded, CaseOpened, LoadFailed
    from workbench.tui.widgets.side_panes import SidePanes


def shown_path(path: Path) -> str:
    """A path as a title shows it: under the home folder as ~/..."""
    path = Path(path).resolve()
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)


class InspectScreen(StartUp, CasePages, Marks, AnswersFlow, PageKeys, Screen):
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
        self._index: RunIndex | None = None   # see `index`
        self._reader_shown: str | None = None   # see `reader`
        self._page_timer: Timer | None = None
        self._side: SidePanes | None = None   # mounted just after the first frame
        self._opened_first: CaseData | None = None   # the first case, opened just after the first frame
        # start-up (inspect_startup.py)
        self._first_shown = threading.Event()   # set when a page's image is on screen
        self._extras_for: CaseData | None = None  # opened, its revisions and trace not started
        self._first_page_done = False   # after_first_page has run (a page shown, or none can be)
        self._resumed = False     # the screen has been shown once
        # marks (inspect_marks.py)
        self._marks_due = False   # the case list's verdict marks wait for the first page
        self._marks_made = 0      # counts the verdict marks set on this thread
        self._linted_all = False  # the whole suite is linted once the first case is on screen
        self._gold = None         # NewestGold of the suite, made on first grading
        self._gold_told: str | None = None   # the journal problem last notified
        # answers (inspect_answers.py)
        self.asking = False
        self._pending_answer: tuple[str, Path, int] | None = None
        self._last_choice = None  # the Ask dialog's last choice (AskChoice), this session

    @property
    def index(self) -> RunIndex:
        """The saved answers of the suite's runs: empty until the run files are read, just after
        the first frame (`_index_runs`), which therefore loads none of the run modules."""
        if self._index is None:
            from workbench.core.runindex import RunIndex

            self._index = RunIndex()
        return self._index

    @index.setter
    def index(self, value: RunIndex) -> None:
        self._index = value

    # ---- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        if self.settings.first_run_hint:
            yield FirstRunHint(id="first-run-hint")
        with PaneRow(id="body"):
            with Vertical(id="left"):   # (the filter's box goes in above the list when first asked for)
                yield CaseList(self.source.cases, unread=len(self.source.problems), id="cases")
            yield PageView(graphics=self.workbench.graphics, id="page")
            # The side panes' place, as wide as they will be (the page is drawn at the size it
            # keeps): they replace it just after the first frame (_after_first_frame).
            yield Vertical(id="side")
        yield KeyFooter(hold=True)  # its keys once the first page is on screen (after_first_page)

    @property
    def workbench(self) -> Workbench:
        return workbench(self)

    @property
    def settings(self):
        return self.workbench.settings

    @property
    def reader(self) -> str:
        """The reader whose verdicts the case list shows: the one chosen (remembered in the
        settings), unless this target has no answer of it (then one it has answers of, shown
        here and not remembered: the config never names a reader only a run file had)."""
        return self._reader_shown or self.settings.reader

    @property
    def side(self) -> SidePanes:
        assert self._side is not None, "the side panes are mounted after the first frame"
        return self._side

    def on_mount(self) -> None:
        self.title = "pdfworkbench"
        self.sub_title = self._sub_title()
        self.query_one(PageView).dpi = self.settings.dpi
        for problem in self.source.problems:   # (the list's title keeps their count; lint names them)
            self.notify(problem, severity="warning", timeout=8)
        self.query_one(CaseList).focus()
        if not self.source.cases:  # no page to wait for
            self.query_one(KeyFooter).release()
        else:
            # The case the list selects (its first) is chosen now, not when the list's cursor lands
            # on it after the screen's first frame; it is opened just after that frame.
            self._open(self.source.cases[0])
        self.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self, waited: float = 0.0) -> None:
        """The first page, drawn ahead, goes on screen in the frame after the first (the case
        list), and the side panes after that (`_mount_side`): their modules would hold it back
        (and hold back the page's own render while the process drawing it is not done)."""
        if self.app.return_code is not None:
            return  # quit meanwhile
        view = self.query_one(PageView)
        first = self.source.cases[0] if self.source.cases else None
        if view.pdf is None and self.current is first is not None:
            # from the bytes the process drawing it checked, once it has (`opened_from_first`)
            self._opened_first = opened_from_first(first, self.settings.dpi, wait=False)
            if self._opened_first is not None:
                self._first_shown.clear()
                view.show_pdf(self._opened_first.pdf, self._opened_first.page_count, [])
        if (not view.show_drawn_ahead() and self.current is first is not None and view.drawing_ahead()
                and waited < FIRST_PAGE_WAIT):
            self.set_timer(AHEAD_POLL, lambda: self._after_first_frame(waited + AHEAD_POLL))
            return
        if view.rendered_page is not None:
            # (not after the next refresh: the page's pane asks for its repaint only when it is
            # next idle, and that callback could run first; Textual draws at most 60 frames a second)
            self.set_timer(PAGE_FRAME, self._mount_side)
        else:
            self.call_after_refresh(self._mount_side)

    async def _mount_side(self) -> None:
        """The side panes go in, and the work on the case and the runs starts: sooner, they
        would hold the interpreter while the first frame and page are made."""
        collector.resume()
        # The panes' modules (the layers' extractors, the answers' tracing, the revisions) too.
        from workbench.tui.widgets.side_panes import SidePanes

        if self.app.return_code is not None:
            return  # quit at the first frame
        # A quit now waits for the panes to be in and filled: one let through between would close
        # the screen under the tabs being added (MountError: a terminal closed as the panes went in).
        release = self.workbench.hold_quit()
        try:
            await self.query_one("#side").remove()
            side = SidePanes(id="side")
            await self.query_one("#body", PaneRow).mount(side)
            self._side = side
            if self.current is not None:
                self._fill(self.current, self._opened_first)
                if self.query_one(PageView).rendered_page is not None:
                    self.after_first_page()   # the page is on screen already
        finally:
            release()
        self._opened_first = None
        if self.app.return_code is None:   # (not quitting: see above)
            self._index_runs(self._run_paths())

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

    def _open(self, case: Case) -> None:
        """Show `case`: its key and answers now, its page and layers as a worker reads them
        (the workbench's first case, before the side panes: `_after_first_frame`)."""
        # The list's first highlight finds the first case opened at mount; a case whose PDF could
        # not be opened is read again only when chosen again.
        if self.current is case:
            return
        self.current = case
        self.data = None
        page = self.query_one(PageView)
        page.border_title = escape(case.id)   # (a PDF opened by name: its name is no markup)
        if self._side is None:   # before the side panes: the rest follows (_after_first_frame)
            self._opened_first = None   # (another case than the first, chosen meanwhile)
            return
        self._fill(case, None)

    def _fill(self, case: Case, opened: CaseData | None) -> None:
        """The side panes of the case chosen, and its load started (`opened`: open already)."""
        self.side.choose(case)
        self.answers.pdf = None
        self._show_answers()
        if opened is not None:
            self._show_opened(opened)
        self._load(case, self.settings.dpi, opened)

    @work(thread=True, exclusive=True, group="case-load", exit_on_error=False)
    def _load(self, case: Case, dpi: int, opened: CaseData | None = None) -> None:
        """Open `case` (unless `opened` is it, on screen already) and analyse its first page."""
        # pymupdf (which pdf.document loads) is loaded by this worker, after the first frame.
        from workbench.pdf.document import PdfEncrypted, read_pdf_bytes
        from workbench.tui.case_data import finish_case_data, open_case_data
        from workbench.tui.messages import CaseLoaded, CaseOpened, LoadFailed

        try:
            data = opened
            if data is None:
                data = opened_from_first(case, dpi, wait=True) or open_case_data(
                    case, read_pdf_bytes(case.pdf_file, self.workbench.password), dpi, case.pdf_file.name,
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
        if message.data.case is self.current:
            self.query_one(PageView).show_pdf(message.data.pdf, message.data.page_count, [])
            self._show_opened(message.data)

    def _show_opened(self, data: CaseData) -> None:
        """The opened case's text layers on screen (nothing analysed yet)."""
        self.side.show_opened(data)
        # The revisions and the answer's trace wait until the page is on screen: started now,
        # they would hold the interpreter while the page is drawn.
        self._extras_for = data

    def on_case_loaded(self, message: CaseLoaded) -> None:
        data: CaseData = message.data
        if data.case is not self.current:
            return  # a newer selection won
        self.data = data
        self.after_first_page()  # if the page is not on screen by now, they wait no longer
        view = self.query_one(PageView)
        if view.pdf is not data.pdf:  # the page is not on screen yet (opened and loaded at once)
            view.show_pdf(data.pdf, data.page_count, [])
        self.side.show_loaded(data, view.page)
        self.set_lint_mark(data)
        view.set_boxes(list(data.boxes))
        self._notify_skipped(data)
        self._follow_page(view.page)
        self._start_lint_all()

    def on_load_failed(self, message: LoadFailed) -> None:
        if message.case is not self.current:
            return
        self._extras_for = None  # no revisions or trace of a PDF that cannot be read
        self.after_first_page()
        self.query_one(PageView).clear(message.error)
        self.side.show_failed(message.error)
        if message.encrypted:
            self._ask_password(message.case, message.error)
            return
        self.notify(message.error, severity="error", timeout=8)
        self._start_lint_all()

    @work(exclusive=True, group="password", exit_on_error=False)
    async def _ask_password(self, case: Case, problem: str) -> None:
        """An encrypted PDF: ask for its password, keep it for the session, open the case again."""
        # A dialog, opened when needed
        from workbench.tui.widgets.password import PasswordScreen

        host = self.workbench
        why = "the password given does not open it; try another" if host.password else "a password is needed to open it"
        password = await self.app.push_screen_wait(PasswordScreen(case.pdf_file.name, why))
        if password is None:  # cancelled: the case stays unread, saying why
            self.notify(problem, severity="error", timeout=8)
            self._start_lint_all()
            return
        host.password = password
        self._linted_all = False  # the lint marks of encrypted cases, now readable
        if case is self.current:
            self._load(case, self.settings.dpi)

    # ---- page overlays, filters, tabs -----------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "dismiss_hint":
            return bool(self.query(FirstRunHint))  # (escape cancels a call when no hint is shown)
        return super().check_action(action, parameters)

    def action_dismiss_hint(self) -> None:
        """x or escape on the first-run hint: it goes, and is not shown again (unless the config
        file cannot be written: then it says so, and the file stays as it was)."""
        for hint in self.query(FirstRunHint):
            hint.remove()
        self.settings.first_run_hint = False
        self.workbench.remember()

    def action_show_tab(self, index: int) -> None:
        self.side.show_tab(index)

    def action_step_tab(self, step: int) -> None:
        """[ and ]: the side pane's previous or next tab, round."""
        self.side.step_tab(step)

    def filter_box(self) -> Input | None:
        """The filter's box, once `/` has put it in (mounted hidden, its stylesheet and widgets were
        part of the first frame's work)."""
        return next(iter(self.query("#filter").results(Input)), None)

    def action_filter(self) -> None:
        box = self.filter_box()
        if box is None:
            box = Input(placeholder="filter: text in id, family or question", id="filter")
            self.query_one("#left").mount(box, before=self.query_one(CaseList))
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
        box = self.filter_box()
        if box is None:
            return
        if clear:
            box.value = ""
        box.display = bool(box.value)
        self.query_one(CaseList).focus()

    def action_failures_only(self) -> None:
        cases = self.query_one(CaseList)
        cases.failures_only = not cases.failures_only
        cases.rebuild()
        said = "showing failures only" if cases.failures_only else "showing every verdict"
        if cases.filter_text:   # (not "every case": the text filter still holds the list to its matches)
            said += f" of the cases matching {cases.filter_text!r}"
        self.notify(said, timeout=2)

    def jump_to_family(self, family: str | None) -> None:
        cases = self.query_one(CaseList)
        cases.family = family
        cases.rebuild()

    # ---- the screens opened from here ------------------------------------------------------

    def action_triage(self) -> None:
        if self.source.suite is None:
            self.notify("triage works on a suite folder", severity="warning")
            return
        # A screen, loaded when first opened
        from workbench.tui.screens.triage import TriageScreen

        self.app.push_screen(TriageScreen(self.source.suite.folder, self.source.cases))

    def action_dispute(self) -> None:
        if self.source.suite is None or self.current is None or not self.current.question:
            self.notify("disputes need a case with an answer key in a suite", severity="warning")
            return
        # The dispute dialog and the suite's gold, loaded when first used.
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
        # Its dialogs and the lint, on K (a flow few use)
        from workbench.tui.screens.key_edit_flow import edit_adopted_key

        new = await edit_adopted_key(self.app, case, self.workbench.password)
        if new is None:
            return
        for i, c in enumerate(self.source.cases):
            if c is case:
                self.source.cases[i] = new
        self.current, self.data = new, None
        self.query_one(CaseList).rebuild(select=new.id)
        self.side.choose(new)
        self._load(new, self.settings.dpi)   # the lint of the new key, and its evidence boxes

    def action_author(self) -> None:
        from workbench.grading.outcome import has_key

        if self.current is not None and not has_key(self.current):
            # (a PDF opened bare has no family to start from nor a key a mutation could keep)
            self.notify("this PDF has no answer key, so no trap of its own to edit: Author starts a new case "
                        "of a family (its form picks another); to arm a trap in this PDF, adopt it first "
                        "(pdfworkbench adopt PDF --into SUITE --question Q --expected A)", timeout=10)
            self.workbench.open_author(None)
            return
        self.workbench.open_author(self.current)

    # ---- command palette ------------------------------------------------------------------

    def palette_commands(self) -> Iterable[SystemCommand]:
        yield SystemCommand("Ask a reader", "Send this case to a reader (a)", self.action_ask)
        yield SystemCommand("Open run report", "The report of a run file (r)", self.action_runs)
        yield SystemCommand("Run lint", "Lint every case of the suite again", self.action_relint)
        yield SystemCommand("Author a case from this one", "Its family, params, seed and scan, in Author (w)",
                            self.action_author)
        yield SystemCommand("Author a new case", "Pick a family and turn its parameters",
                            lambda: self.workbench.open_author(None))
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
        yield from self.reader_commands()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # Failures a user did not cause still must not take the app down: report them.
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self.notify(f"{type(event.worker.error).__name__}: {event.worker.error}", severity="error", timeout=10)
