"""Triage: gold disputes one by one, with the evidence on the page, decided with a rationale."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    Header,
    Input,
    Label,
    OptionList,
    ProgressBar,
    Select,
    Static,
)
from textual.widgets.option_list import Option

from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.gold.disputes import add_dispute, decide
from workbench.gold.triage import acceptance_warnings, evidence_for, progress, triage_queue
from workbench.pdf.document import open_fitz, read_pdf_bytes
from workbench.pdf.pages import Box
from workbench.tui.host import workbench
from workbench.tui.themes import SCREENS_STYLESHEET
from workbench.tui.widgets.footer import KeyFooter
from workbench.tui.widgets.layout import PaneRow
from workbench.tui.widgets.page_view import PAGE_BINDINGS, PageKeys, PageView

STATUS_MARKS = {"open": ("○", "bold yellow"), "deferred": ("◔", "cyan"), "accepted": ("✔", "green"),
                "rejected": ("✘", "red")}


def _value(v: Any) -> str:
    return "(none)" if v is None else str(v)


class TriageScreen(PageKeys, Screen):
    CSS_PATH = SCREENS_STYLESHEET
    HELP = """
## Triage

Gold disputes, open ones first, the ones that would flip the most saved verdicts on top. The page
shows the dispute's evidence box (blue, drawn around what it holds), where the original value
occurs (red) and where the proposed value occurs (green); the legend is above the dispute.
Decisions are recorded under your name (`--who`, `$PDFWORKBENCH_USER` or `user` in the config),
shown at the top.

- **↑ ↓**: move through the queue
- **enter** (or **tab**) to the rationale box, write why, then **ctrl+a** accept, **ctrl+r** reject, **ctrl+d** defer
  (a rationale is required to decide); the next open dispute comes up
- **e**: evidence boxes on the page; **escape**: back
"""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="triage_back", tooltip="Back to Inspect"),
        Binding("ctrl+a", "decide('accept')", "Accept", id="triage_accept", priority=True,
                tooltip="Accept the proposed value (needs a rationale)"),
        Binding("ctrl+r", "decide('reject')", "Reject", id="triage_reject", priority=True,
                tooltip="Keep the original value (needs a rationale)"),
        Binding("ctrl+d", "decide('defer')", "Defer", id="triage_defer", priority=True,
                tooltip="Decide later (needs a rationale)"),
        Binding("e", "toggle_evidence", "Evidence", id="triage_evidence", tooltip="Show or hide the evidence boxes"),
        *PAGE_BINDINGS,
    ]

    @dataclass
    class QueueRead(Message):
        """The disputes to triage and the progress, read in a worker (or why they could not be)."""

        queue: list[Any] | None
        progress: Any
        select: str | None
        error: str = ""

    @dataclass
    class EvidenceRead(Message):
        """A dispute's evidence on its page, found in a worker."""

        dispute_id: str
        pdf: bytes = field(repr=False)
        boxes: list[Box]
        page: int
        warnings: list[str]

    def __init__(self, folder: Path, cases: list[Case]) -> None:
        super().__init__()
        self.folder = Path(folder)
        self.cases = {c.id: c for c in cases}
        self.queue: list[Any] = []
        self.current: Any = None
        self.warnings: list[str] = []   # what accepting the dispute shown would do (shown in place)
        self.load_error: str | None = None   # why the queue could not be read (shown in place)
        self.loaded = False   # the queue has been read (it may be empty)

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="triage-top"):
            yield Label(id="triage-progress-label")
            yield ProgressBar(id="triage-progress", show_eta=False, show_percentage=False)
        with PaneRow(id="triage-body"):
            yield OptionList(id="triage-queue")
            yield PageView(graphics=workbench(self).graphics, id="triage-page")
            with Vertical(id="triage-side"):
                with VerticalScroll(id="triage-detail-scroll"):
                    yield Static(id="triage-detail")
                yield Input(placeholder="rationale: why accept, reject or defer", id="triage-rationale")
        yield KeyFooter()

    @property
    def who(self) -> str:
        """The name decisions are recorded under: --who, $PDFWORKBENCH_USER, config `user`, login."""
        return workbench(self).who

    def on_mount(self) -> None:
        self.sub_title = f"disputes · {self.folder}"
        # Tab goes from the queue straight to the rationale: the page here only shows evidence.
        self.query_one(PageView).can_focus = False
        self.query_one("#triage-queue", OptionList).border_title = "Disputes"
        self.query_one(PageView).dpi = workbench(self).settings.dpi
        self.refresh_queue()

    # ---- queue ----------------------------------------------------------------------------

    def refresh_queue(self, select: str | None = None) -> None:
        self._load_queue(select)

    @work(thread=True, exclusive=True, group="triage-queue", exit_on_error=False)
    def _load_queue(self, select: str | None) -> None:
        try:
            queue = triage_queue(self.folder)
            prog = progress(self.folder)
        except UserError as exc:   # a journal of the wrong shape: say so in place, stay usable
            self.post_message(self.QueueRead(None, None, select, str(exc)))
            return
        self.post_message(self.QueueRead(queue, prog, select))

    def on_triage_screen_queue_read(self, message: QueueRead) -> None:
        if message.error:
            self._show_queue_error(message.error)
        else:
            self._show_queue(message.queue, message.progress, message.select)

    def _show_queue_error(self, message: str) -> None:
        self.queue, self.current, self.load_error = [], None, message
        self.query_one("#triage-progress-label", Label).update(f"deciding as {escape(self.who)} · cannot read the disputes")
        self.query_one("#triage-progress", ProgressBar).update(total=1, progress=0)
        self.query_one(PageView).clear("no dispute to show")
        options = self.query_one("#triage-queue", OptionList)
        options.clear_options()
        options.add_option(Option(Text("no disputes shown: see the error", style="dim"), disabled=True))
        self.query_one("#triage-detail", Static).update(
            Group(Text("Cannot read the disputes", style="bold red"), Text(message, style="red"),
                  Text(""), Text("Fix the line it names, then open Triage again (escape: back).", style="dim")))

    def _show_queue(self, queue: list[Any], prog: Any, select: str | None) -> None:
        self.queue, self.load_error, self.loaded = queue, None, True
        label = self.query_one("#triage-progress-label", Label)
        label.update(f"deciding as {escape(self.who)} · decided {prog.accepted + prog.rejected} of {prog.total} · "
                     f"open {prog.open} · deferred {prog.deferred} · accepted {prog.accepted} · rejected {prog.rejected}")
        bar = self.query_one("#triage-progress", ProgressBar)
        bar.update(total=max(prog.total, 1), progress=prog.accepted + prog.rejected)
        options = self.query_one("#triage-queue", OptionList)
        options.clear_options()
        if not queue:
            options.add_option(Option(Text("no disputes: open one from Inspect (D)", style="dim"), disabled=True))
            self.query_one("#triage-detail", Static).update("")
            self.current = None
            self.query_one(PageView).clear("no dispute to show")   # it said "loading..." for good
            return
        for item in queue:
            d = item.dispute
            mark, style = STATUS_MARKS.get(d.status, ("?", ""))
            impact = f" flips {item.impact}" if item.impact else ""
            case = d.case_id if len(d.case_id) <= 34 else d.case_id[:33] + "…"
            options.add_option(Option(Text.assemble((mark, style), f" {d.id} ", (d.field, "bold"),
                                                    (impact, "magenta"), (f"\n   {case}", "dim")), id=d.id))
        index = 0
        if select:
            index = next((i for i, it in enumerate(queue) if it.dispute.id == select), 0)
        options.highlighted = index
        self._show(queue[index])
        if not isinstance(self.focused, Input):  # never pull the user out of the rationale
            options.focus()

    @on(OptionList.OptionSelected, "#triage-queue")
    def selected(self) -> None:
        self.query_one("#triage-rationale", Input).focus()

    @on(OptionList.OptionHighlighted, "#triage-queue")
    def highlighted(self, event: OptionList.OptionHighlighted) -> None:
        item = next((it for it in self.queue if it.dispute.id == event.option.id), None)
        if item is not None and item is not self.current:
            self._show(item)

    # ---- one dispute -----------------------------------------------------------------------

    def _show(self, item: Any) -> None:
        if item is not self.current:
            self.warnings = []
        self.current = item
        d = item.dispute
        rows: list[Any] = [
            Text.assemble(("▭ evidence", "bold #58a6ff"), " ", ("▭ original", "bold #f85149"), " ",
                          ("▭ proposed", "bold #2ea043")),
        ]
        if self.warnings:  # at the top: what accepting would do matters before deciding
            rows.append(Text("If accepted:", style="bold yellow"))
            rows += [Text(f"▲ {w}", style="yellow") for w in self.warnings]
        rows += [
            Text(""),
            Text.assemble((f"{d.id} ", "bold"), (d.status, STATUS_MARKS.get(d.status, ("", ""))[1]),
                          f" · case {d.case_id}"),
            Text.assemble(("field ", "dim"), (d.field, "bold")),
            Text(""),
            Text.assemble(("original  ", "dim"), (_value(d.original), "bold red")),
            Text.assemble(("proposed  ", "dim"), (_value(d.proposed), "bold green")),
        ]
        if d.evidence:
            ev = d.evidence
            rows.append(Text.assemble(("evidence  ", "dim"), f"page {ev.page}",
                                      (f" “{ev.quote}”" if ev.quote else "", "italic")))
        rows += [Text(""), Text("Rationale so far", style="bold")]
        rows.append(Text(f"{d.who} opened: {d.rationale}"))
        for h in d.history:
            rows.append(Text(f"{h.who} {h.decision}: {h.rationale}", style="dim"))
        rows += [Text(""), Text(f"Verdicts this decision flips: {item.impact}", style="bold")]
        for f in item.flips[:20]:
            rows.append(Text(f"{f.case_id} · {f.reader} · {f.before} → {f.after}"))
        self.query_one("#triage-detail", Static).update(Group(*rows))
        if not self.warnings:
            self._load_evidence(d.id, d.case_id)

    @work(thread=True, exclusive=True, group="triage-evidence", exit_on_error=False)
    def _load_evidence(self, dispute_id: str, case_id: str) -> None:
        case = self.cases.get(case_id)
        if case is None:
            self.notify(f"case {case_id} is not in this suite", severity="error")
            return
        try:
            ev = evidence_for(self.folder, dispute_id)
            warnings = acceptance_warnings(self.folder, dispute_id)
            pdf = read_pdf_bytes(case.pdf_file, workbench(self).password)
        except UserError as exc:
            self.notify(str(exc), severity="error")
            return
        boxes = []
        if ev.box:
            boxes.append(Box(ev.page - 1, tuple(ev.box), "evidence", ev.quote or ""))
        kinds = {"original": "forbidden", "proposed": "expected", "evidence": "evidence"}
        for hit in ev.hits:
            boxes.append(Box(hit.page - 1, tuple(hit.box), kinds.get(hit.which, "evidence"), hit.text))
        self.post_message(self.EvidenceRead(dispute_id, pdf, boxes, ev.page - 1, warnings))

    def on_triage_screen_evidence_read(self, message: EvidenceRead) -> None:
        self._show_evidence(message.dispute_id, message.pdf, message.boxes, message.page, message.warnings)

    def _show_evidence(self, dispute_id: str, pdf: bytes, boxes: list[Box], page: int, warnings: list[str]) -> None:
        if self.current is None or self.current.dispute.id != dispute_id:
            return

        with open_fitz(pdf) as doc:
            count = doc.page_count
        view = self.query_one(PageView)
        view.border_title = self.current.dispute.case_id
        view.show_pdf(pdf, count, boxes)
        view.go_to(page)
        if warnings:
            # In the detail pane, not a toast: a toast would cover the rationale box.
            self.warnings = warnings
            self._show(self.current)

    # ---- deciding ----------------------------------------------------------------------------

    def action_decide(self, decision: str) -> None:
        if self.current is None:
            why = self.load_error or ("no dispute to decide: open one from Inspect (D)" if self.loaded
                                      else "the queue is still loading")
            self.notify(why, severity="warning", timeout=2)
            return
        box = self.query_one("#triage-rationale", Input)
        rationale = box.value.strip()
        if not rationale:
            self.notify("write a rationale first: a decision needs one", severity="error")
            box.focus()
            return

        dispute_id = self.current.dispute.id
        try:
            # Pressing a key on the dispute shown, with a rationale, is deliberate: it may change
            # an earlier decision (the CLI asks for --redecide, since a retried script must not).
            done = decide(self.folder, dispute_id, decision, rationale, who=self.who, redecide=True)
        except UserError as exc:
            self.notify(str(exc), severity="error")
            return
        box.value = ""
        if done.written:
            self.notify(f"{dispute_id} {done.dispute.status} by {self.who}", timeout=3)
        else:
            self.notify(f"{dispute_id} is already {done.dispute.status}; nothing written", timeout=3)
        # Move on to the next open dispute.
        ids = [it.dispute.id for it in self.queue]
        after = ids[ids.index(dispute_id) + 1:] + ids[:ids.index(dispute_id)]
        nxt = next((i for i in after if next(it for it in self.queue if it.dispute.id == i).dispute.status == "open"),
                   dispute_id)
        self.current = None  # no decision acts on a stale dispute while the queue reloads
        self.refresh_queue(select=nxt)

    def action_toggle_evidence(self) -> None:
        view = self.query_one(PageView)
        view.show_evidence = not view.show_evidence


class DisputeScreen(ModalScreen[bool]):
    """Open a dispute on one field of a case's key, from Inspect."""

    CSS_PATH = SCREENS_STYLESHEET

    BINDINGS = [Binding("escape", "dismiss(False)", "Close", id="dispute_close", tooltip="Close without disputing")]

    def __init__(self, folder: Path, case: Case, fields: list[tuple[str, Any]], page: int) -> None:
        super().__init__()
        self.folder = folder
        self.case = case
        self.fields = fields
        self.page = page

    def compose(self) -> ComposeResult:
        with Vertical(id="dispute-dialog"):
            yield Label(f"Dispute a gold value of [b]{escape(self.case.id)}[/b]")
            # (each option a Text: a gold value is no markup, and "[/]" in one crashed the dialog)
            yield Select([(Text(f"{path} = {_value(v)}"[:70]), path) for path, v in self.fields],
                         prompt="field", id="dispute-field")
            yield Input(placeholder="proposed value", id="dispute-proposed")
            yield Input(placeholder="quote from the page (optional)", id="dispute-quote")
            yield Input(placeholder="rationale (required)", id="dispute-rationale")
            with Horizontal(id="dispute-buttons"):
                yield Button("Open dispute", variant="primary", id="dispute-open")
                yield Button("Cancel", id="dispute-cancel")

    @on(Button.Pressed, "#dispute-cancel")
    def cancel(self) -> None:
        self.dismiss(False)

    @on(Button.Pressed, "#dispute-open")
    def open_dispute(self) -> None:
        field = self.query_one("#dispute-field", Select).value
        proposed = self.query_one("#dispute-proposed", Input).value.strip()
        rationale = self.query_one("#dispute-rationale", Input).value.strip()
        quote = self.query_one("#dispute-quote", Input).value.strip() or None
        if field == Select.BLANK or not proposed or not rationale:
            self.notify("choose a field and give a proposed value and a rationale", severity="error")
            return
        try:
            d = add_dispute(self.folder, self.case.id, str(field), proposed, rationale,
                            page=self.page + 1, quote=quote, who=workbench(self).who)
        except UserError as exc:
            self.notify(str(exc), severity="error")
            return
        self.app.notify(f"opened {d.id} on {d.field}", timeout=4)
        self.dismiss(True)
