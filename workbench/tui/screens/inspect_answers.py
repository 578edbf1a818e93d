"""Inspect's answers: the saved answers of the case shown, asking a reader (the Ask dialog, the call
in a worker, the answer it brings), an answer's values traced to the page, two answers compared,
and the Runs screen that jumps back here with an answer selected.

The dialogs and screens opened on a key (Ask, Compare, Runs) and the providers that make a call
load when first used. The mixin's state lives on the screen (`InspectScreen.__init__`).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.widgets import OptionList

from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.grading.outcome import outcome_of
from workbench.tui.widgets.case_list import CaseList
from workbench.tui.widgets.page_view import PageView

# The Ask and Runs screens load when first opened, not before the first page; the Answers pane
# (its tracing and the report's code) with the side panes, after the first frame.
if TYPE_CHECKING:
    from workbench.checks.sources import Attribution
    from workbench.core.runindex import SavedAnswer
    from workbench.tui.messages import AnswerArrived
    from workbench.tui.screens.ask import AskChoice
    from workbench.tui.screens.runs import AnswerRef
    from workbench.tui.widgets.answers import AnswersView


class AnswersFlow:
    """The answers' actions and handlers, on the Inspect screen (see the module docstring)."""

    @property
    def answers(self) -> AnswersView:
        return self.side.answers

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
        self.answers.show(self.current, answers, select, gold=graded.gold_version)

    def select_answer(self, case_id: str, run: Path, line: int) -> None:
        """Show a case with one saved answer selected (the Runs screen jumps here)."""
        self._pending_answer = (case_id, Path(run), line)
        self.side.active = "tab-answers"
        if self.current is not None and self.current.id == case_id:
            self._show_answers()
        elif not self.query_one(CaseList).select_case(case_id):
            self.notify(f"case {case_id} is not in this suite", severity="warning")

    # ---- an answer's values -----------------------------------------------------------------

    def action_answer_values(self) -> None:
        """The Answers tab, with the values of the answer shown focused (the first one chosen)."""
        self.side.active = "tab-answers"
        values = self.query_one("#value-list", OptionList)
        values.focus()
        if values.option_count > 1 and values.highlighted in (None, 0):
            values.highlighted = 1   # option 0 is the summary
        # The box of the value highlighted, now (a highlight left from before fires no event, and
        # the page kept the box of another answer's value).
        found = self.answers.attributions() or []
        option = values.highlighted_option
        if option is not None and option.id and int(option.id[1:]) < len(found):
            self.value_selected(found[int(option.id[1:])])

    def leave_values(self) -> bool:
        """Escape in the answer's values: the value's box and the layers' pointer go, the page is
        whole again, the cases have the keys. False when the values are not focused."""
        if self.focused is None or self.focused.id != "value-list":
            return False
        self.side.stop_pointing()
        view = self.query_one(PageView)
        view.value_box = None
        view.action_fit()  # the whole page again, as before `v` zoomed to the value
        self.query_one(CaseList).focus()
        return True

    # (Textual's @on is not seen on a mixin: its handlers go by their names)
    def on_answers_view_value_selected(self, event: AnswersView.ValueSelected) -> None:
        self.value_selected(event.attribution)

    def value_selected(self, a: Attribution) -> None:
        """A value of the answer was chosen: the page shows the box it came from and the text
        layers point at it."""
        from workbench.pdf.pages import Box  # (loaded with the case by now)

        view = self.query_one(PageView)
        if a.page is not None and a.box is not None:
            self.side.point_at(a.value, on_page=False)
            view.show_value_box(Box(a.page, tuple(a.box), "value", a.value))
            if a.page == view.page:
                self.side.point_at(a.value, on_page=True)
        else:
            self.side.point_at(a.value, on_page=False)
            view.value_box = None
            view.refresh_page()
            self.notify(f"{a.value}: {a.source.replace('_', ' ')}, in no box on the page"
                        + (f" ({a.detail})" if a.detail else ""), timeout=6)

    def on_answers_view_page_requested(self, event: AnswersView.PageRequested) -> None:
        """A call of an agent's trace was chosen: the page view shows the page it opened."""
        view = self.query_one(PageView)
        if not 0 <= event.page < view.page_count:
            self.notify(f"page {event.page + 1} is not in this document ({view.page_count} pages)",
                        severity="warning")
            return
        view.value_box = None
        view.go_to(event.page)

    def on_answers_view_compare_requested(self, event: AnswersView.CompareRequested) -> None:
        # A dialog, loaded when first opened
        from workbench.tui.screens.ask import CompareScreen
        from workbench.tui.widgets.answers import answer_detail

        assert self.current is not None
        sides = [answer_detail(self.current, s, v) for s, v in (event.left, event.right)]
        self.app.push_screen(CompareScreen(*sides))

    # ---- the Runs screen ----------------------------------------------------------------------

    def action_runs(self) -> None:
        paths = self._run_paths()
        if not paths:
            self.notify("no run files yet: ask a reader (a) or run `pdfworkbench run`", severity="warning")
            return
        self.open_runs(paths[-1], paths)

    def open_runs(self, run: Path, runs: list[Path]) -> None:
        """The Runs screen on `run`; picking a record there comes back here with it selected."""
        # A screen, loaded when first opened
        from workbench.tui.screens.runs import RunsScreen

        self.app.push_screen(RunsScreen(self.source, run, runs), callback=self.show_picked_answer)

    def show_picked_answer(self, picked: AnswerRef | None) -> None:
        if picked is not None:
            self.select_answer(*picked)

    # ---- asking a reader ------------------------------------------------------------------

    def action_ask(self) -> None:
        if self.current is None:
            return
        if self.asking:
            self.notify("a call is already in flight; press escape to cancel it", severity="warning")
            return
        # The dialog and the providers' table, loaded when first asked.
        from workbench.providers.base import known_readers
        from workbench.tui.screens.ask import AskChoice, AskScreen, provider_of

        case = self.current
        settings = self.settings
        last = self._last_choice
        question = settings.questions.get(self._document_key(case)) or case.question
        choice = AskChoice(last.reader if last else self.reader, last.modality if last else settings.modality,
                           last.dpi if last else settings.dpi, question)
        answers = self.answers
        if self.side.active == "tab-answers" and answers.shown is not None:
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
            self.workbench.remember()
            self.query_one(PageView).dpi = result.dpi  # the page as this reader will get it
            self._ask(case, result)

        self.app.push_screen(AskScreen(known_readers(), choice, case.id, settings.base_urls), chosen)

    @staticmethod
    def _document_key(case: Case) -> str:
        """Questions are remembered per PDF file."""
        return str(Path(case.pdf_file).resolve())

    @work(exclusive=True, group="ask", exit_on_error=False)
    async def _ask(self, case: Case, choice: AskChoice) -> None:
        # httpx and the readers, with the first call
        from workbench.providers.asking import ask
        from workbench.tui.messages import AnswerArrived

        self.asking = True
        self.side.active = "tab-answers"
        started = asyncio.get_running_loop().time()
        answers = self.answers

        def tick() -> None:
            elapsed = asyncio.get_running_loop().time() - started
            answers.set_status(f"⧗ {elapsed:.1f} s · esc cancels · asking {choice.reader} ({choice.modality})")

        tick()
        ticker = self.set_interval(0.2, tick)
        own_question = choice.question and choice.question != case.question
        try:
            record, path = await ask(case, choice.reader, choice.modality, choice.dpi,
                                     suite=self.source.suite, base_url=choice.base_url,
                                     password=self.workbench.password,
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
            self._reader_shown = None
            self.workbench.remember()
            self.sub_title = self._sub_title()
        outcome = outcome_of(record, self._graded(message.case))
        # (a text probe's pages, joined by form feeds the screen drops, apart in one line)
        shown = (record.answer or "")[:80].replace("\f", " · ") if outcome.kind == "no_key" else outcome.reason
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
        elif (box := self.filter_box()) is not None and box.display:
            self._close_filter(clear=True)
