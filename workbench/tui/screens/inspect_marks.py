"""Inspect's case list marks: each case's lint status and the latest verdict of the current reader.

Both are made in workers once the first page is on screen: the lint of every case (in other
processes for a large suite) and the grading of every saved answer against the suite's newest gold;
the workers post what they found (`LintMarks`, `MarksGraded`) and the screen sets the marks.
The mixin's state lives on the screen (`InspectScreen.__init__`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.app import SystemCommand
from textual.worker import get_current_worker

from workbench.core.case import Case
from workbench.grading.outcome import Outcome, outcome_of
from workbench.tui.widgets.case_list import CaseList
from workbench.tui.widgets.marks import lint_status

if TYPE_CHECKING:
    from workbench.core.runindex import RunIndex
    from workbench.tui.case_data import CaseData
    from workbench.tui.messages import LintMarks, MarksGraded, RunsIndexed

# Suites of more cases than this are linted for their marks in other processes.
LINT_IN_PROCESSES = 100


class Marks:
    """The marks' workers and handlers, on the Inspect screen (see the module docstring)."""

    # ---- lint ---------------------------------------------------------------------------------

    def set_lint_mark(self, data: CaseData) -> None:
        if data.case.question:
            self.query_one(CaseList).set_marks(lint={data.case.id: lint_status(data.findings)})

    def _start_lint_all(self) -> None:
        if not self._linted_all and any(c.question for c in self.source.cases):
            self._linted_all = True
            self._lint_all(list(self.source.cases))

    def action_relint(self) -> None:
        self._lint_all(list(self.source.cases), fresh=True)
        if self.current is not None:
            self.data = None
            self._load(self.current, self.settings.dpi)

    @work(thread=True, exclusive=True, group="lint-all", exit_on_error=False)
    def _lint_all(self, cases: list[Case], fresh: bool = False) -> None:
        """Each case's lint mark, from the lint cache where it holds the case's findings (a suite
        opened again is not linted again); `fresh` (relint): every case linted afresh."""
        # The lint and the PDF libraries it reads with, loaded by this worker: after the first page;
        # so is the process pool (multiprocessing), which nothing before the first frame uses.
        from workbench.checks.lint import lint_cache, lint_case_file
        from workbench.core.pool import cores, map_ordered
        from workbench.tui.messages import LintMarks

        worker = get_current_worker()
        todo = [c for c in cases if c.question]
        # A large suite is linted in other processes, leaving this one (and a core) to the screen.
        jobs = max(1, cores() - 1) if len(todo) > LINT_IN_PROCESSES else 1
        marks: dict[str, str] = {}
        lint = functools.partial(lint_case_file, password=self.workbench.password, cache=lint_cache(), fresh=fresh)
        found = map_ordered(lint, todo, jobs, chunksize=8)
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
        from workbench.core.runindex import RunIndex
        from workbench.tui.messages import RunsIndexed

        self.post_message(RunsIndexed(RunIndex.load(paths)))

    def on_runs_indexed(self, message: RunsIndexed) -> None:
        self.index = message.index
        for problem in self.index.problems:
            self.notify(problem, severity="warning", timeout=8)
        readers = self.index.readers()
        opened = self._opened_run_reader()
        if opened is not None and opened != self.reader:
            self._reader_shown = opened   # a run opened shows its own reader's verdicts
            self.sub_title = self._sub_title()
        elif readers and self.reader not in readers:
            self._reader_shown = readers[0]
            self.sub_title = self._sub_title()
        if not self._first_page_done:
            self._marks_due = True  # graded once the first page is on screen (after_first_page)
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
            # The suite's gold, read when first graded
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
        from workbench.tui.messages import MarksGraded

        self.post_message(MarksGraded(self._outcomes(index, reader), made))

    def on_marks_graded(self, message: MarksGraded) -> None:
        if message.made == self._marks_made:  # no newer marks set meanwhile
            self.query_one(CaseList).set_marks(outcomes=message.outcomes)

    def set_reader(self, reader: str) -> None:
        self._reader_shown = None
        self.settings.reader = reader
        self.workbench.remember()
        self.sub_title = self._sub_title()
        self._refresh_verdict_marks()

    def reader_commands(self) -> Iterable[SystemCommand]:
        """The palette's readers: each shows its verdicts in the case list."""
        # The providers' table, when the palette opens
        from workbench.providers.base import known_readers

        for reader in dict.fromkeys([*self.index.readers(), *known_readers()]):
            yield SystemCommand(f"Reader: {reader}", "Show this reader's verdicts in the case list",
                                lambda r=reader: self.set_reader(r), discover=False)
