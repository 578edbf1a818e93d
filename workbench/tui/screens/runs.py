"""Runs: a run file's report (the four states, pass rate with its interval, per family) and its
records, filtered to failures, to cases that fell for the trap or to records kept out of the
score; Enter jumps to the case (the screen is dismissed with the answer to show)."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from workbench.core.runindex import RunIndex, SavedAnswer
from workbench.core.source import Source
from workbench.grading import build_report, render_report_text
from workbench.grading.outcome import Outcome
from workbench.tui.widgets.footer import KeyFooter
from workbench.tui.widgets.marks import SOURCE_STYLES, mark_text, source_text

FILTERS = ("all", "failures", "trap", "not scored")
KEEP = {
    "all": lambda o: True,
    "failures": lambda o: o.failed,             # scored and not passed, as the report counts them
    "trap": lambda o: o.kind == "trap",
    "not scored": lambda o: not o.scored,       # errors, truncated answers, no key
}
# What the screen is dismissed with: the case, run file and line of the answer to show.
AnswerRef = tuple[str, Path, int]


class RunsScreen(Screen[AnswerRef | None]):
    HELP = """
## Runs

One run file: its report, then every record. **f** cycles the filter (all, failures, fell for the
trap, not scored: errors, truncated answers and cases without a key); **s** shows only the wrong
answers that came from one source (hidden text, another page, small print, absent: made up, ...;
each wrong answer is traced to the document once the run has loaded); **Enter** opens the case in Inspect with this answer selected; **o** opens the next run file
of the suite; **escape** goes back.
"""

    BINDINGS = [
        Binding("escape,b", "app.pop_screen", "Back", id="runs_back", tooltip="Back to Inspect"),
        Binding("f", "cycle_filter", "Filter", id="runs_filter",
                tooltip="All, failures, fell for the trap, not scored"),
        Binding("s", "cycle_source", "Source", id="runs_source",
                tooltip="Only wrong answers from one source: hidden text, another page, absent, ..."),
        Binding("o", "next_run", "Next run", id="runs_next", tooltip="Open the next run file"),
        Binding("q", "app.quit", "Quit", id="runs_quit"),
    ]

    def __init__(self, source: Source, run: Path, runs: list[Path] | None = None) -> None:
        super().__init__()
        self.source = source
        self.run = Path(run)
        self.runs = runs or [self.run]
        self.filter = "all"
        self.source_filter = ""   # "" = any source
        self.rows: list[tuple[SavedAnswer, Outcome]] = []
        self.sources: dict[int, str] = {}   # id(record) -> where its wrong answer came from

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="runs-body"):
            yield Static(id="runs-report")
            yield DataTable(id="runs-table", cursor_type="row", zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = f"run {self.run.name}"
        table = self.query_one(DataTable)
        table.add_columns("case", "family", "reader", "status", "verdict", "source", "reason")
        self.query_one("#runs-report", Static).update(Text("reading the run...", style="dim"))
        self._load(self.run)

    @work(thread=True, exclusive=True, group="runs-load", exit_on_error=False)
    def _load(self, run: Path) -> None:
        index = RunIndex.load([run])
        cases = {c.id: c for c in self.source.cases}
        saved = [s for answers in index.by_case.values() for s in answers]
        # Graded once, by the report; the table shows the report's outcome of each record.
        report = build_report([s.record for s in saved], cases, by="family")
        outcomes = {id(row.record): row.result for r in report.runs for row in r.rows}
        rows = sorted(((s, outcomes[id(s.record)]) for s in saved), key=lambda r: (r[0].record.case_id, r[0].line))
        self.app.call_from_thread(self._show, run, rows, render_report_text(report), index.problems)
        # Then where each wrong answer came from (each case's pages are analysed: slower).
        from workbench.core.runs import SHOWN_ANSWER_CHARS
        from workbench.pdf.attribution import attribute_rows
        from workbench.tui.widgets.answers import TRACE_MAX_PAGES, TRACE_MAX_VALUES

        # Traced as the Answers tab traces them: what is shown of each answer.
        attribute_rows(report, cases, max_pages=TRACE_MAX_PAGES, max_values=TRACE_MAX_VALUES,
                       max_chars=SHOWN_ANSWER_CHARS)
        sources = {id(row.record): row.source for r in report.runs for row in r.rows if row.source}
        self.app.call_from_thread(self._traced, run, sources)

    def _traced(self, run: Path, sources: dict[int, str]) -> None:
        if run != self.run:
            return
        self.sources = sources
        self._fill()

    def _show(self, run: Path, rows, report_text: str, problems: list[str]) -> None:
        self.run = run
        self.sub_title = f"run {run.name}"
        self.rows = rows
        self.sources = {}
        for p in problems:
            self.notify(p, severity="warning")
        self.query_one("#runs-report", Static).update(Text(report_text))
        self._fill()

    def visible_rows(self) -> list[tuple[SavedAnswer, Outcome]]:
        keep = KEEP[self.filter]
        return [(s, o) for s, o in self.rows if keep(o)
                and (not self.source_filter or self.sources.get(id(s.record)) == self.source_filter)]

    def _fill(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        cases = {c.id: c for c in self.source.cases}
        for saved, outcome in self.visible_rows():
            r = saved.record
            family = cases[r.case_id].trap_family if r.case_id in cases else "?"
            source = self.sources.get(id(r))
            table.add_row(r.case_id, family, r.reader, r.status, mark_text(outcome),
                          source_text(source) if source else Text(""),
                          outcome.reason[:80], key=f"{saved.run}:{saved.line}")
        source = f" · source: {self.source_filter.replace('_', ' ')}" if self.source_filter else ""
        self.query_one(DataTable).border_title = f"{len(table.rows)} records · filter: {self.filter}{source}"

    def action_cycle_filter(self) -> None:
        self.filter = FILTERS[(FILTERS.index(self.filter) + 1) % len(FILTERS)]
        self._fill()

    def action_cycle_source(self) -> None:
        """Any source, then each source some wrong answer of this run came from."""
        if not self.sources:
            self.notify("no wrong answer traced to a source yet (tracing runs after the run loads)",
                        severity="warning", timeout=4)
            return
        present = [s for s in SOURCE_STYLES if s in set(self.sources.values())]
        present += sorted(set(self.sources.values()) - set(present))
        cycle = ["", *present]
        self.source_filter = cycle[(cycle.index(self.source_filter) + 1) % len(cycle)] \
            if self.source_filter in cycle else ""
        self._fill()

    def action_next_run(self) -> None:
        if len(self.runs) > 1:
            i = self.runs.index(self.run) if self.run in self.runs else -1
            self._load(self.runs[(i + 1) % len(self.runs)])

    @on(DataTable.RowSelected)
    def jump(self, event: DataTable.RowSelected) -> None:
        run, _, line = str(event.row_key.value).rpartition(":")
        case_id = self.query_one(DataTable).get_row(event.row_key)[0]
        self.dismiss((str(case_id), Path(run), int(line)))
