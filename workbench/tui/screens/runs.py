"""Runs: a run file's report (the four states, pass rate with its interval, per family) with a
chart of the pass rate per reader (every run file of the suite) above it and per family below it,
and its records,
filtered to failures, to cases that fell for the trap or to records kept out of the score; Enter
jumps to the case (the screen is dismissed with the answer to show); `c` compares the run with
the next run file (the paired comparison of `pdfworkbench compare`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Header, Static

from workbench.checks.attribution import attribute_rows
from workbench.checks.findings import short
from workbench.core.errors import UserError
from workbench.core.runindex import RunIndex, SavedAnswer
from workbench.core.runs import SHOWN_ANSWER_CHARS
from workbench.core.source import Source
from workbench.gold.versions import NewestGold
from workbench.grading.compare import check_paired, compare_runs, render_compare_text
from workbench.grading.outcome import Outcome
from workbench.grading.report import build_report
from workbench.grading.report_text import render_report_text
from workbench.tui.themes import SCREENS_STYLESHEET
from workbench.tui.widgets.answers import TRACE_MAX_PAGES, TRACE_MAX_VALUES
from workbench.tui.widgets.footer import KeyFooter
from workbench.tui.widgets.layout import NARROW
from workbench.tui.widgets.marks import SOURCE_STYLES, mark_text, source_text
from workbench.tui.widgets.ratechart import RateChart, Section

FILTERS = ("all", "failures", "trap", "not scored")
KEEP = {
    "all": lambda o: True,
    "failures": lambda o: o.failed,             # scored and not passed, as the report counts them
    "trap": lambda o: o.kind == "trap",
    "not scored": lambda o: not o.scored,       # errors, truncated answers, no key
}
# What the screen is dismissed with: the case, run file and line of the answer to show.
AnswerRef = tuple[str, Path, int]
# The records table's columns; below NARROW columns of terminal, those the row says anyway go
# (the case id starts with its family, the run's reader is in the report, a call that did not
# finish says so in its verdict), so the verdict, source and reason stay on screen at 100x30.
COLUMNS = ("case", "family", "reader", "status", "verdict", "source", "reason")
# The reason's characters: what the other columns leave, within these.
REASON_MIN, REASON_MAX = 24, 80
NARROW_COLUMNS = ("case", "verdict", "source", "reason")


class RunsScreen(Screen[AnswerRef | None]):
    CSS_PATH = SCREENS_STYLESHEET
    HELP = """
## Runs

One run file: its report, then every record. **f** cycles the filter (all, failures, fell for the
trap, not scored: errors, truncated answers and cases without a key); **s** shows only the wrong
answers that came from one source (hidden text, another page, small print, absent: made up, ...;
each wrong answer is traced to the document once the run has loaded); **Enter** opens the case in Inspect with this answer selected; **o** opens the next run file
of the suite; **c** compares this run with the next run file (flips each way, McNemar);
**escape** goes back. The chart above the report: pass rate per reader (every run file of the
suite) above the report, per family of this run below it (scroll), the whiskers Wilson 95%
intervals.
"""

    DEFAULT_CSS = """
    RunsScreen #runs-top { height: auto; max-height: 60%; }
    RunsScreen #runs-table { height: 1fr; min-height: 6; }
    """

    BINDINGS = [
        Binding("escape,b", "app.pop_screen", "Back", id="runs_back", tooltip="Back to Inspect"),
        Binding("f", "cycle_filter", "Filter", id="runs_filter",
                tooltip="All, failures, fell for the trap, not scored"),
        Binding("s", "cycle_source", "Source", id="runs_source",
                tooltip="Only wrong answers from one source: hidden text, another page, absent, ..."),
        Binding("o", "next_run", "Next run", id="runs_next", tooltip="Open the next run file"),
        Binding("c", "compare_next", "Compare", id="runs_compare",
                tooltip="Paired comparison with the next run file: flips each way, McNemar"),
        Binding("q", "app.quit", "Quit", id="runs_quit", tooltip="Quit the workbench"),
    ]

    @dataclass
    class RunRead(Message):
        """The run read and graded (in a worker): its records with their outcomes, its report."""

        run: Path
        rows: list
        report_text: str
        problems: list[str]

    @dataclass
    class RunCharted(Message):
        run: Path
        sections: list[Section]

    @dataclass
    class RunTraced(Message):
        """Where each wrong answer's value came from (id of its record -> the source)."""

        run: Path
        sources: dict[int, str]

    @dataclass
    class RunsCompared(Message):
        text: str

    def __init__(self, source: Source, run: Path, runs: list[Path] | None = None) -> None:
        super().__init__()
        self.source = source
        self.run = Path(run)
        self.runs = runs or [self.run]
        self.filter = "all"
        self.source_filter = ""   # "" = any source
        self.rows: list[tuple[SavedAnswer, Outcome]] = []
        self.sources: dict[int, str] = {}   # id(record) -> where its wrong answer came from
        self.columns: tuple[str, ...] = ()  # the records table's, as wide as the screen allows
        self._filled_width = 0              # the screen's width when the rows were last filled

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="runs-body"):
            # (not focusable: the records table keeps the keys; the mouse wheel scrolls it)
            with VerticalScroll(id="runs-top", can_focus=False):
                yield RateChart(id="runs-chart")
                yield Static(id="runs-report")
                yield RateChart(id="runs-families")
            yield DataTable(id="runs-table", cursor_type="row", zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = f"run {self.run.name}"
        self._fit_columns()
        self.query_one("#runs-report", Static).update(Text("reading the run...", style="dim"))
        self._load(self.run)

    @work(thread=True, exclusive=True, group="runs-load", exit_on_error=False)
    def _load(self, run: Path) -> None:
        index = RunIndex.load([run])
        if self.source.suite is not None:   # graded against the suite's newest gold, as everywhere
            cases = NewestGold(self.source.suite).cases()
        else:
            cases = {c.id: c for c in self.source.cases}
        saved = [s for answers in index.by_case.values() for s in answers]
        # Graded once, by the report; the table shows the report's outcome of each record.
        report = build_report([s.record for s in saved], cases, by="family")
        outcomes = {id(row.record): row.result for r in report.runs for row in r.rows}
        rows = sorted(((s, outcomes[id(s.record)]) for s in saved), key=lambda r: (r[0].record.case_id, r[0].line))
        self.post_message(self.RunRead(run, rows, render_report_text(report), index.problems))
        self.post_message(self.RunCharted(run, self._sections(run, report, cases)))
        # Then where each wrong answer came from (each case's pages are analysed: slower).

        # Traced as the Answers tab traces them: what is shown of each answer.
        attribute_rows(report, cases, max_pages=TRACE_MAX_PAGES, max_values=TRACE_MAX_VALUES,
                       max_chars=SHOWN_ANSWER_CHARS)
        sources = {id(row.record): row.source for r in report.runs for row in r.rows if row.source}
        self.post_message(self.RunTraced(run, sources))

    def _sections(self, run: Path, report, cases) -> list[Section]:
        """Per reader: this run's, then every other run file's of the suite; per family: this run's."""
        def item(label: str, s) -> tuple[str, int, int, tuple[float, float] | None]:
            return (label, s.passed, s.scored, s.pass_ci)

        readers = [item(r.label if len(report.runs) > 1 else run.stem, r.overall) for r in report.runs]
        for other in self.runs:
            if other == run:
                continue
            try:
                recs = [s.record for answers in RunIndex.load([other]).by_case.values() for s in answers]
                for r in build_report(recs, cases).runs:
                    readers.append(item(other.stem if len(self.runs) > 1 else r.label, r.overall))
            except UserError:
                continue   # a run file that cannot be read is named when it is opened
        families = [item(g.group, g) for g in report.runs[0].groups] if report.runs else []
        sections = [Section("pass rate per reader (Wilson 95%)", readers)]
        if families:
            sections.append(Section(f"by family: {report.runs[0].label}", families))
        return sections

    def _chart(self, run: Path, sections: list[Section]) -> None:
        if run == self.run:
            self.query_one("#runs-chart", RateChart).show(sections[:1])
            self.query_one("#runs-families", RateChart).show(sections[1:])

    def action_compare_next(self) -> None:
        others = [r for r in self.runs if r != self.run]
        if not others:
            self.notify("one run file only: nothing to compare it with", severity="warning")
            return
        i = self.runs.index(self.run) if self.run in self.runs else -1
        other = self.runs[(i + 1) % len(self.runs)] if i >= 0 else others[0]
        self._compare(self.run, other)

    @work(thread=True, exclusive=True, group="runs-compare", exit_on_error=False)
    def _compare(self, a: Path, b: Path) -> None:
        if self.source.suite is not None:   # graded against the suite's newest gold, as everywhere
            cases = NewestGold(self.source.suite).cases()
        else:
            cases = {c.id: c for c in self.source.cases}
        recs = [[s.record for answers in RunIndex.load([p]).by_case.values() for s in answers] for p in (a, b)]
        try:
            check_paired(a.stem, recs[0], b.stem, recs[1], cases)
        except UserError as exc:
            self.notify(str(exc), severity="error", timeout=8)
            return
        report = build_report({a.stem: recs[0], b.stem: recs[1]}, cases)
        self.post_message(self.RunsCompared(render_compare_text(compare_runs(report.runs[0], report.runs[1]))))

    def on_runs_screen_runs_compared(self, message: RunsCompared) -> None:
        self.app.push_screen(RunCompareScreen(message.text))

    def on_runs_screen_run_read(self, message: RunRead) -> None:
        self._show(message.run, message.rows, message.report_text, message.problems)

    def on_runs_screen_run_charted(self, message: RunCharted) -> None:
        self._chart(message.run, message.sections)

    def on_runs_screen_run_traced(self, message: RunTraced) -> None:
        self._traced(message.run, message.sources)

    def _traced(self, run: Path, sources: dict[int, str]) -> None:
        if run != self.run:
            return
        self.sources = sources
        self._fill()

    def _show(self, run: Path, rows, report_text: str, problems: list[str]) -> None:
        self.run = run
        self.sub_title = f"run {run.name}"
        self.rows = rows
        self._fit_columns()  # (a run of several readers keeps its reader column)
        self.sources = {}
        for p in problems:
            self.notify(p, severity="warning")
        self.query_one("#runs-report", Static).update(Text(report_text))
        self._fill()

    def _columns_for(self, width: int) -> tuple[str, ...]:
        if width >= NARROW:
            return COLUMNS
        readers = {s.record.reader for s, _ in self.rows}
        return ("case", "reader", *NARROW_COLUMNS[1:]) if len(readers) > 1 else NARROW_COLUMNS

    def on_resize(self, event: events.Resize) -> None:
        if not self._fit_columns() and self.rows and event.size.width != self._filled_width:
            self._fill()   # (the reason's width)

    def _width(self) -> int:
        """The screen's width (the app's before the screen is laid out)."""
        return self.size.width or self.app.size.width

    def _fit_columns(self) -> bool:
        """Whether the table's columns changed with the width (its rows filled again)."""
        columns = self._columns_for(self._width())
        if columns == self.columns:
            return False
        self.columns = columns
        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_columns(*columns)
        self._fill()
        return True

    def visible_rows(self) -> list[tuple[SavedAnswer, Outcome]]:
        keep = KEEP[self.filter]
        return [(s, o) for s, o in self.rows if keep(o)
                and (not self.source_filter or self.sources.get(id(s.record)) == self.source_filter)]

    def _fill(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        if self.source.suite is not None:   # graded against the suite's newest gold, as everywhere
            cases = NewestGold(self.source.suite).cases()
        else:
            cases = {c.id: c for c in self.source.cases}
        rows = []
        for saved, outcome in self.visible_rows():
            r = saved.record
            source = self.sources.get(id(r))
            # Every cell a Text: the table reads a plain string as markup, and the reason quotes the
            # answer (a model's, or a PDF's text for a probe): "[/]" in one crashed the screen.
            cells = {"case": Text(r.case_id), "reader": Text(r.reader), "status": Text(r.status),
                     "family": Text(cases[r.case_id].trap_family if r.case_id in cases else "?"),
                     "verdict": mark_text(outcome), "source": source_text(source) if source else Text("")}
            rows.append((saved, outcome, cells))
        # The reason takes the width the other columns leave (each with a cell's padding, 2), cut
        # with an ellipsis; past the screen's edge it was cut without one.
        others = sum(2 + max([len(c)] + [r[2][c].cell_len for r in rows]) for c in self.columns if c != "reason")
        self._filled_width = self._width()
        room = min(REASON_MAX, max(REASON_MIN, self._filled_width - others - 6))   # (borders, scrollbar)
        for saved, outcome, cells in rows:
            cells["reason"] = Text(short(outcome.reason, room))
            table.add_row(*(cells[c] for c in self.columns), key=f"{saved.run}:{saved.line}")
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


class RunCompareScreen(ModalScreen[None]):
    """The paired comparison of two run files, as `pdfworkbench compare` prints it."""

    CSS_PATH = SCREENS_STYLESHEET

    DEFAULT_CSS = """
    RunCompareScreen { align: center middle; }
    RunCompareScreen > VerticalScroll { width: 90%; height: 90%; border: round $accent; background: $surface; }
    """
    BINDINGS = [Binding("escape,q,c", "dismiss(None)", "Close", id="runs_compare_close", tooltip="Back to the run")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(self.text), id="runs-compare-text")
