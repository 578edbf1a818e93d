"""Every recorded answer for the current case, each with its verdict and highlighted parts."""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Group
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from workbench.checks.agent_trace import (
    AgentTrace,
    agent_trace,
    answer_and_trace,
    reader_said,
    step_line,
    trace_summary,
)
from workbench.core import limits
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.runindex import SavedAnswer
from workbench.core.runs import SHOWN_ANSWER_CHARS
from workbench.core.words import counted
from workbench.grading.outcome import Outcome
from workbench.grading.verdict import Verdict
from workbench.tui.widgets.marks import SOURCE_STYLES, mark_of, mark_text, source_text


def highlighted_answer(answer: str, verdict: Verdict | None, attributions: list | None = None) -> Text:
    """The answer text with matched expected parts in green and forbidden ones in red, and each
    value traced to the document underlined in its source's colour (the first SHOWN_ANSWER_CHARS
    of it: a huge answer must not freeze the screen)."""
    more = len(answer) - SHOWN_ANSWER_CHARS
    # A page break (a text probe's answer is each page's layer, joined by form feeds) as a line
    # break: the screen drops a control character, and "$1,234.56Page 2" ran the pages together.
    # (One character for one: the verdict's and the values' offsets still hold.)
    text = Text(answer[:SHOWN_ANSWER_CHARS].replace("\f", "\n"))
    if more > 0:
        text.append(f" … ({more:,} more characters not shown)", style="dim")
    for a in attributions or []:
        if a.end <= SHOWN_ANSWER_CHARS:
            text.stylize(f"underline {SOURCE_STYLES.get(a.source, '')}".strip(), a.start, a.end)
    if verdict is None:
        return text
    for part in verdict.parts:
        if part.matched and part.span:
            text.stylize("bold black on green", *part.span)
    for part in verdict.forbidden:
        if part.span:
            text.stylize("bold white on red", *part.span)
    return text


# The Answers tab traces answers of documents up to this many pages, and the first this many
# values of an answer (a text probe's answer to a long document is every value in it).
TRACE_MAX_PAGES = 40
TRACE_MAX_VALUES = 60
# Sources that say nothing about why an answer is wrong: listed after the others.
ORDINARY = ("visible", "question")


def attribution_label(a) -> Text:
    """One traced value: `€53,919.68  hidden  p1 · render mode 3 ...`."""
    where = f"  p{a.page + 1}" if a.page is not None else ""
    return Text.assemble((a.value[:40], f"underline {SOURCE_STYLES.get(a.source, '')}".strip()), "  ",
                         source_text(a.source), (where, "dim"), (f" · {a.detail[:70]}" if a.detail else "", "dim"))


def answer_detail(case: Case, saved: SavedAnswer, outcome: Outcome, attributions: list | None = None,
                  gold: str | None = None) -> Group:
    """`gold`: the gold version the verdict was graded against, named beside it."""
    r = saved.record
    rows: list[Text] = [Text.assemble(mark_text(outcome), "  ", (reader_said(r), "bold"),
                                      (f"  · gold {gold}" if gold else "", "dim"))]
    # An agent's answer: where its value came from and whether the agent read that page, first
    # (the side pane at 100x30 has room for little more).
    said = answer_and_trace(attributions or [], agent_trace(r))
    if said:
        rows.append(Text(said))
    meta = [f"status {r.status}", f"modality {r.modality}"]
    if r.dpi:
        meta.append(f"{r.dpi} dpi")
    if r.latency_ms is not None:
        meta.append(f"{r.latency_ms:.0f} ms")
    if r.usage:
        tokens = sum(v for k, v in r.usage.items() if isinstance(v, int) and k in ("input_tokens", "output_tokens"))
        meta.append(f"{tokens} tokens")
    meta.append(f"attempts {r.attempts}")
    rows.append(Text(" · ".join(meta), style="dim"))
    rows.append(Text(f"{r.started_at or ''} · {r.provenance} · {saved.run.name}", style="dim"))
    if outcome.error:
        rows.append(Text(outcome.error, style="red"))
    else:
        rows.append(Text(outcome.reason, style="italic"))
    rows.append(Text(""))
    rows.append(highlighted_answer(r.answer or "", outcome.verdict, attributions) if r.answer
                else Text("(no answer)", style="dim"))
    return Group(*rows)


class AnswersView(Vertical):
    """The list of saved answers for the case above, the selected one's detail below."""

    HELP = """
## Answers

Every recorded answer for this case: from the suite's run files and from calls made here.

- **Enter / ↑ ↓**: choose an answer; its verdict and reason show below, with the matched expected
  parts in green and the forbidden ones in red
- **space**: mark an answer for comparison; **c**: compare the two marked answers side by side
- **a**: ask a reader now

Below the answer, each value in it (amounts, dates, identifiers, phrases) with where in the
document it came from, underlined in its source's colour: visible on the page, hidden text,
another page, small print, injected instructions, computed, an OCR-like misread, or absent (made
up). **v** (or Tab) goes to that list; move through it and the page view shows the box the value came from,
and the text-layer tabs point at it.

An agent's answer (`agent:` and `mcp:` readers) also shows its trace: one line per tool call
(turn, tool, page, dpi, bytes returned, time), which pages it opened as text and as image, and
whether it read the page its answer's value came from. **Enter** on a call's line shows that page.
"""

    # Its rules, here rather than in app.tcss: the pane is mounted after the first frame, and a
    # stylesheet's rules are parsed before it (these were two fifths of app.tcss). Not scoped: the
    # narrow layout's rules start at the screen's #body.
    SCOPED_CSS = False
    DEFAULT_CSS = """
    AnswersView {
        height: 1fr;
    }
    AnswersView > #ask-status {
        display: none;
        height: 1;
        padding: 0 1;
    }
    AnswersView > #answer-list {
        height: auto;
        max-height: 10;
        border: none;
    }
    AnswersView > #answer-detail-scroll {
        height: 1fr;
        padding: 0 1;
        border-top: solid $panel;
    }
    AnswersView > #value-list {
        height: auto;
        max-height: 8;
        border: none;
        border-top: solid $panel;
    }
    AnswersView > #trace-list {
        height: auto;
        max-height: 8;
        padding: 0;
        border: none;
        border-top: solid $panel;
        scrollbar-size-vertical: 1;
    }
    /* At 100x30 the trace takes a few lines until it has focus (then the values' place), so the answer's
       detail keeps room. */
    #body.-narrow AnswersView > #trace-list {
        max-height: 4;
    }
    #body.-narrow AnswersView.-tracing > #trace-list {
        max-height: 12;
    }
    #body.-narrow AnswersView.-tracing > #value-list {
        display: none;
    }
    """

    BINDINGS = [
        Binding("space", "mark", "Mark", id="mark_answer", tooltip="Mark this answer for comparison"),
        Binding("c", "compare", "Compare", id="compare_answers", tooltip="Compare the two marked answers"),
    ]

    @dataclass
    class CompareRequested(Message):
        left: tuple[SavedAnswer, Outcome]
        right: tuple[SavedAnswer, Outcome]

    @dataclass
    class ValueSelected(Message):
        """A traced value was chosen: show where it came from."""
        attribution: object  # workbench.checks.sources.Attribution

    @dataclass
    class PageRequested(Message):
        """A line of an agent's trace was chosen: show the page it opened."""
        page: int   # 0-based

    @dataclass
    class Traced(Message):
        key: tuple[str, int]
        attributions: list | None
        problem: str = ""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.case: Case | None = None
        self.gold: str | None = None   # the gold version the verdicts shown were graded against
        self.answers: list[tuple[SavedAnswer, Outcome]] = []
        self.marked: list[int] = []
        self.pdf: bytes | None = None   # the case's PDF, for tracing values (set by the screen)
        self.pdf_pages = 0
        self.traced: dict[tuple[str, int], list] = {}   # (run, line) -> attributions
        self.shown: int | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="ask-status")
        yield OptionList(id="answer-list")
        yield OptionList(id="value-list")
        yield OptionList(id="trace-list")
        with VerticalScroll(id="answer-detail-scroll"):
            yield Static(id="answer-detail")

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # At 100x30 the trace, while it has focus, takes the values' place (app.tcss: -tracing).
        self.set_class(event.widget.id == "trace-list", "-tracing")

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if event.widget.id == "trace-list":
            self.remove_class("-tracing")

    def set_status(self, text: str) -> None:
        """A call in flight (or nothing): shown above the list."""
        status = self.query_one("#ask-status", Static)
        status.update(Text(text, style="bold yellow"))
        status.display = bool(text)

    def show(self, case: Case, answers: list[tuple[SavedAnswer, Outcome]], select: int | None = None,
             gold: str | None = None) -> None:
        if case is not self.case:
            self.traced = {}
        self.case = case
        self.gold = gold
        self.answers = answers
        self.marked = []
        self._fill(select)

    def attributions(self, index: int | None = None) -> list | None:
        """The traced values of answer `index` (default: the one shown), None until traced."""
        index = self.shown if index is None else index
        if index is None or not (0 <= index < len(self.answers)):
            return None
        saved = self.answers[index][0]
        return self.traced.get((str(saved.run), saved.line))

    def _label(self, i: int) -> Text:
        saved, outcome = self.answers[i]
        mark = mark_of(outcome)
        star = "● " if i in self.marked else "  "
        r = saved.record
        when = (r.started_at or "")[5:16].replace("T", " ")
        dpi = f" {r.dpi}dpi" if r.dpi else ""
        return Text.assemble(star, (f"{mark.symbol} {mark.word:<14}", mark.style), (reader_said(r), "bold"),
                             (f" {r.modality}{dpi} {when}", "dim"))

    def _fill(self, select: int | None = None) -> None:
        options = self.query_one("#answer-list", OptionList)
        options.clear_options()
        detail = self.query_one("#answer-detail", Static)
        if not self.answers:
            options.add_option(Option(Text("no answers yet: press a to ask a reader", style="dim"), disabled=True))
            detail.update("")
            self.query_one("#value-list", OptionList).clear_options()
            self._show_trace(None)
            self.shown = None
            return
        options.add_options([Option(self._label(i), id=str(i)) for i in range(len(self.answers))])
        index = len(self.answers) - 1 if select is None else select
        options.highlighted = index
        self._detail(index)

    def refresh_detail(self) -> None:
        self._detail(self.shown)

    def _detail(self, index: int | None) -> None:
        if index is None or not (0 <= index < len(self.answers)) or self.case is None:
            return
        saved, outcome = self.answers[index]
        self.shown = index
        found = self.attributions(index)
        self.query_one("#answer-detail", Static).update(answer_detail(self.case, saved, outcome, found,
                                                                      self.gold))
        self._show_trace(agent_trace(saved.record))
        values = self.query_one("#value-list", OptionList)
        values.clear_options()
        if not saved.record.answer:
            return
        if found is None and self.pdf_pages > TRACE_MAX_PAGES:
            # (past the `forensic_pages` limit, --explain must be given a higher one to analyse it)
            over = self.pdf_pages > limits.get("forensic_pages")
            raise_it = f" --limit forensic_pages={self.pdf_pages}" if over else ""
            values.add_option(Option(Text(
                f"values not traced here: the document has {self.pdf_pages:,} pages (over {TRACE_MAX_PAGES}); "
                f"`pdfworkbench grade CASE --answer-file F --explain{raise_it}` traces them", style="dim"),
                disabled=True))
            return
        if found is None:
            values.add_option(Option(Text("tracing each value to the document…", style="dim italic"), disabled=True))
            if self.pdf is not None:
                self._trace(self.case, self.pdf, (str(saved.run), saved.line), saved.record.answer,
                            saved.record.dpi or 150)
            return
        if not found:
            values.add_option(Option(Text("no values in this answer to trace", style="dim"), disabled=True))
            return
        more = len(found) > TRACE_MAX_VALUES
        found = found[:TRACE_MAX_VALUES]
        counts: dict[str, int] = {}
        for a in found:
            counts[a.source] = counts.get(a.source, 0) + 1
        summary = Text(f"the first {len(found)} values, more in the answer (`grade --explain`): " if more
                       else f"{len(found)} value(s): ", style="dim")
        for k, (source, n) in enumerate(sorted(counts.items(), key=lambda kv: kv[0] in ORDINARY)):
            summary.append_text(Text.assemble(", " if k else "", (f"{n} ", "dim"), source_text(source)))
        values.add_option(Option(summary, disabled=True))
        # The values that explain a wrong answer first (not printed where a person reads them),
        # each group in the answer's order.
        order = sorted(range(len(found)), key=lambda i: found[i].source in ORDINARY)
        values.add_options([Option(attribution_label(found[i]), id=f"v{i}") for i in order])

    def _show_trace(self, trace: AgentTrace | None) -> None:
        """An agent's tool calls, one line each; a call that opened a page is a jump to it."""
        options = self.query_one("#trace-list", OptionList)
        options.clear_options()
        options.display = trace is not None
        if trace is None:
            return
        options.border_title = f"trace: {counted(trace.turns, 'turn')}, {counted(len(trace.steps), 'call')}"
        options.add_option(Option(Text(trace_summary(trace), style="dim"), disabled=True))
        options.add_options([
            Option(Text(step_line(s), style="red" if s.error else "" if s.opened else "dim"),
                   id=f"t{i}" if s.opened else None, disabled=not s.opened)
            for i, s in enumerate(trace.steps)])

    def trace_step(self, option_id: str | None):
        """The trace's call behind an option of the trace list (None: not a call)."""
        if not option_id or not option_id.startswith("t") or self.shown is None:
            return None
        trace = agent_trace(self.answers[self.shown][0].record)
        i = int(option_id[1:])
        return trace.steps[i] if trace is not None and i < len(trace.steps) else None

    @work(thread=True, exclusive=True, group="attribution", exit_on_error=False)
    def _trace(self, case: Case, pdf: bytes, key: tuple[str, int], answer: str, dpi: int) -> None:
        try:
            # pymupdf (which the tracing loads) with the first answer traced, not the first frame
            from workbench.checks.attribution import attribute

            # (one value more than are listed: whether the answer states more)
            found = attribute(case, pdf, answer[:SHOWN_ANSWER_CHARS], dpi, max_values=TRACE_MAX_VALUES + 1)
            self.post_message(self.Traced(key, found))
        except UserError as exc:
            self.post_message(self.Traced(key, None, str(exc)))

    def on_answers_view_traced(self, message: Traced) -> None:
        message.stop()
        if message.attributions is None:
            values = self.query_one("#value-list", OptionList)
            values.clear_options()
            values.add_option(Option(Text(f"cannot trace: {message.problem}", style="dim"), disabled=True))
            return
        self.traced[message.key] = message.attributions
        if self.shown is not None:
            saved = self.answers[self.shown][0]
            if (str(saved.run), saved.line) == message.key:
                self._detail(self.shown)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option.id is None:
            return
        if event.option_list.id == "value-list":
            found = self.attributions() or []
            i = int(event.option.id[1:])
            if i < len(found):
                self.post_message(self.ValueSelected(found[i]))
            return
        if event.option_list.id == "trace-list":
            return   # Enter jumps (on_option_list_option_selected): moving through the calls renders nothing
        self._detail(int(event.option.id))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "trace-list":
            event.stop()
            step = self.trace_step(event.option.id)
            if step is not None and step.page is not None:
                self.post_message(self.PageRequested(step.page - 1))
            return
        if event.option_list.id == "value-list":
            event.stop()
            found = self.attributions() or []
            if event.option.id is not None and int(event.option.id[1:]) < len(found):
                self.post_message(self.ValueSelected(found[int(event.option.id[1:])]))

    def selected_index(self) -> int | None:
        return self.query_one("#answer-list", OptionList).highlighted

    def action_mark(self) -> None:
        i = self.selected_index()
        if i is None or not self.answers:
            return
        if i in self.marked:
            self.marked.remove(i)
        else:
            self.marked = (self.marked + [i])[-2:]
        options = self.query_one("#answer-list", OptionList)
        for j in range(len(self.answers)):
            options.replace_option_prompt_at_index(j, self._label(j))

    def action_compare(self) -> None:
        if len(self.marked) == 2:
            a, b = self.marked
        elif len(self.answers) >= 2 and self.selected_index() is not None:
            b = self.selected_index()
            a = b - 1 if b > 0 else b + 1
        else:
            self.app.notify("mark two answers with space, then press c", severity="warning")
            return
        self.post_message(self.CompareRequested(self.answers[a], self.answers[b]))
