"""Runs: a run file's report (the four states, pass rate with its interval, per family) and its
records, filtered to failures or to cases that fell for the trap; Enter jumps to the case."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from workbench.core.runindex import RunIndex, SavedAnswer
from workbench.core.source import Source
from workbench.tui.widgets.answers import OUTCOME_MARKS, grade_saved, outcome_of

FILTERS = ("all", "failures", "trap")


class RunsScreen(Screen):
    HELP = """
## Runs

One run file: its report, then every record. **f** cycles the filter (all, failures, fell for the
trap); **Enter** opens the case in Inspect with this answer selected; **o** opens the next run file
of the suite; **escape** goes back.
"""

    BINDINGS = [
        Binding("escape,b", "app.pop_screen", "Back", id="runs_back", tooltip="Back to Inspect"),
        Binding("f", "cycle_filter", "Filter", id="runs_filter", tooltip="All, failures, fell for the trap"),
        Binding("o", "next_run", "Next run", id="runs_next", tooltip="Open the next run file"),
        Binding("q", "app.quit", "Quit", id="runs_quit"),
    ]

    def __init__(self, source: Source, run: Path, runs: list[Path] | None = None) -> None:
        super().__init__()
        self.source = source
        self.run = Path(run)
        self.runs = runs or [self.run]
        self.filter = "all"
        self.rows: list[tuple[SavedAnswer, object]] = []

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="runs-body"):
            yield Static(id="runs-report")
            yield DataTable(id="runs-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"run {self.run.name}"
        table = self.query_one(DataTable)
        table.add_columns("case", "family", "reader", "status", "verdict", "reason")
        self.query_one("#runs-report", Static).update(Text("reading the run...", style="dim"))
        self._load(self.run)

    @work(thread=True, exclusive=True, group="runs-load", exit_on_error=False)
    def _load(self, run: Path) -> None:
        from workbench.grading import build_report, render_report_text

        index = RunIndex.load([run])
        cases = {c.id: c for c in self.source.cases}
        rows = []
        records = []
        for case_id, answers in index.by_case.items():
            for saved in answers:
                records.append(saved.record)
                case = cases.get(case_id)
                rows.append((saved, grade_saved(case, saved) if case is not None else None))
        rows.sort(key=lambda r: (r[0].record.case_id, r[0].line))
        report = build_report(records, cases, by="family")
        self.app.call_from_thread(self._show, run, rows, render_report_text(report), index.problems)

    def _show(self, run: Path, rows, report_text: str, problems: list[str]) -> None:
        self.run = run
        self.sub_title = f"run {run.name}"
        self.rows = rows
        for p in problems:
            self.notify(p, severity="warning")
        self.query_one("#runs-report", Static).update(Text(report_text))
        self._fill()

    def visible_rows(self) -> list[tuple[SavedAnswer, object]]:
        def keep(verdict, saved) -> bool:
            if self.filter == "failures":
                return verdict is None or not verdict.correct
            if self.filter == "trap":
                return verdict is not None and verdict.fell_for_trap
            return True

        return [(s, v) for s, v in self.rows if keep(v, s)]

    def _fill(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        cases = {c.id: c for c in self.source.cases}
        for saved, verdict in self.visible_rows():
            r = saved.record
            mark, style = OUTCOME_MARKS[outcome_of(verdict)]
            family = cases[r.case_id].trap_family if r.case_id in cases else "?"
            reason = verdict.reason if verdict is not None else (r.error or {}).get("message", r.status)
            table.add_row(r.case_id, family, r.reader, r.status, Text(mark, style=style),
                          str(reason)[:80], key=f"{saved.run}:{saved.line}")
        self.query_one(DataTable).border_title = f"{len(table.rows)} records · filter: {self.filter}"

    def action_cycle_filter(self) -> None:
        self.filter = FILTERS[(FILTERS.index(self.filter) + 1) % len(FILTERS)]
        self._fill()

    def action_next_run(self) -> None:
        if len(self.runs) > 1:
            i = self.runs.index(self.run) if self.run in self.runs else -1
            self._load(self.runs[(i + 1) % len(self.runs)])

    @on(DataTable.RowSelected)
    def jump(self, event: DataTable.RowSelected) -> None:
        run, _, line = str(event.row_key.value).rpartition(":")
        case_id = self.query_one(DataTable).get_row(event.row_key)[0]
        from workbench.tui.screens.inspect import InspectScreen

        self.app.pop_screen()
        inspect = self.app.screen
        if isinstance(inspect, InspectScreen):
            inspect.select_answer(str(case_id), Path(run), int(line))
