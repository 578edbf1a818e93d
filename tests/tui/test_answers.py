"""Inspect's Answers tab on an agent's answer: its trace beside the page, the jump to a page it
opened, and where the value came from joined with what it read (runs of the fake server's scripted
agents over the sample suite: tests.support.fixtures.agent_runs)."""

from __future__ import annotations

import pytest

from tests.support.fixtures import screen_text, settle
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.case_list import CaseList
from workbench.tui.widgets.page_view import PageView

SPLIT = "split_table_across_pages-0001"     # two pages; the asked total on page 2


def pane_text(app, widget) -> str:
    """What the screen shows inside `widget`'s region, its lines joined with spaces (a sentence that
    wraps reads whole)."""
    r = widget.region
    lines = screen_text(app).splitlines()[r.y:r.y + r.height]
    return " ".join(line[r.x:r.x + r.width].strip() for line in lines)


async def open_answer(pilot, app, case_id: str, reader: str):
    """Inspect on `case_id`, the Answers tab with `reader`'s answer shown and its values traced."""
    from textual.widgets import TabbedContent

    from workbench.tui.widgets.answers import AnswersView

    await settle(pilot)
    assert app.screen.query_one(CaseList).select_case(case_id)
    await settle(pilot)
    app.screen.query_one(TabbedContent).active = "tab-answers"
    answers = app.screen.query_one(AnswersView)
    index = next(i for i, (s, _) in enumerate(answers.answers) if s.record.reader == reader)
    answers.query_one("#answer-list").highlighted = index
    for _ in range(600):
        await pilot.pause(0.1)
        if answers.shown == index and answers.attributions() is not None:
            break
    await settle(pilot)
    return answers


@pytest.mark.slow
async def test_an_agents_answer_shows_its_trace_and_where_its_value_came_from(agent_suite):
    app = WorkbenchApp(open_source(agent_suite))
    async with app.run_test(size=(160, 48)) as pilot:
        answers = await open_answer(pilot, app, SPLIT, "agent:openai:agent-text")
        shown = screen_text(app)
        assert "trace: 3 turns, 4 calls" in shown
        assert "pages opened as text: 1, 2; as image: none" in shown
        trace = pane_text(app, answers.query_one("#trace-list"))
        assert trace.index("document_info()") < trace.index("page_text(1)") < trace.index("page_text(2)") \
            < trace.index("submit_extraction()")
        said = pane_text(app, answers.query_one("#answer-detail"))
        assert ("$123,203.26: the value came from page_text of page 2, where it is printed; page 2's image was "
                "never requested") in said

        await open_answer(pilot, app, SPLIT, "agent:openai:agent-image")
        shown = screen_text(app)
        assert "pages opened as text: none; as image: 1, 2" in shown
        assert "page_image(2, 150)" in shown


@pytest.mark.slow
async def test_enter_on_a_call_shows_the_page_it_opened(agent_suite):
    """At 100x30: the trace's lines fit the side pane whole, and Enter on page 2's call moves the
    page view there; Enter on page 1's comes back."""
    from textual.widgets import OptionList

    app = WorkbenchApp(open_source(agent_suite))
    async with app.run_test(size=(100, 30)) as pilot:
        answers = await open_answer(pilot, app, SPLIT, "agent:openai:agent-text")
        view = app.screen.query_one(PageView)
        assert view.page == 0 and view.page_count == 2
        trace = answers.query_one("#trace-list", OptionList)
        assert trace.display
        trace.focus()
        await settle(pilot)
        shown = pane_text(app, answers)
        assert "pages opened as text: 1, 2; as image: none" in shown
        for call in ("document_info()", "page_text(1)", "page_text(2)", "submit_extraction()"):
            assert f" {call} " in shown   # each call whole on its line, with its bytes and time
        assert not answers.query_one("#value-list").display   # the trace has the values' place
        jumps = [i for i in range(trace.option_count) if not trace.get_option_at_index(i).disabled]
        assert len(jumps) == 2   # page 1 and page 2; document_info and submit open no page
        trace.highlighted = jumps[1]
        await pilot.press("enter")
        await settle(pilot)
        assert view.page == 1 and view.rendered_page == 1
        assert view.border_subtitle.startswith("page 2/2")
        trace.highlighted = jumps[0]
        await pilot.press("enter")
        await settle(pilot)
        assert view.page == 0 and view.border_subtitle.startswith("page 1/2")


@pytest.mark.slow
async def test_a_probe_answer_shows_no_trace(agent_suite):
    import shutil

    from textual.widgets import OptionList

    from tests.support.fixtures import SAMPLE

    shutil.copy(SAMPLE / "runs" / "probe-pypdf.jsonl", agent_suite / "runs")
    app = WorkbenchApp(open_source(agent_suite))
    async with app.run_test(size=(160, 48)) as pilot:
        answers = await open_answer(pilot, app, SPLIT, "probe:pypdf")
        assert not answers.query_one("#trace-list", OptionList).display
        assert "pages opened as text" not in screen_text(app)


async def test_a_document_too_long_to_trace_here_says_the_command_that_traces_it(tmp_path):
    """An answer to a case of more pages than the pane traces (and than `forensic_pages`): the
    values list says so, with the `grade --explain` command and the limit that lets it run."""
    import json

    from textual.widgets import TabbedContent

    from tests.support.fixtures import graded_record, write_run
    from tests.support.hostile_corpus import case_dict, many_pages_pdf
    from workbench.core import limits
    from workbench.core.case import load_case
    from workbench.tui.widgets.answers import TRACE_MAX_PAGES, AnswersView

    pages = TRACE_MAX_PAGES + 5
    suite = tmp_path / "long"
    suite.mkdir()
    (suite / "long.pdf").write_bytes(many_pages_pdf(pages))
    (suite / "long.json").write_text(json.dumps(case_dict("long", "long.pdf")))
    write_run(suite / "runs" / "model.jsonl", [graded_record(load_case(suite / "long.json"), answer="$2.00")])
    limits.set_overrides({"forensic_pages": pages - 1}, export=False)
    try:
        app = WorkbenchApp(open_source(suite))
        async with app.run_test(size=(160, 48)) as pilot:
            await settle(pilot)
            app.screen.query_one(TabbedContent).active = "tab-answers"
            answers = app.screen.query_one(AnswersView)
            answers.query_one("#answer-list").highlighted = 0
            await settle(pilot)
            shown = pane_text(app, answers)
    finally:
        limits._overrides.pop("forensic_pages", None)
    assert f"the document has {pages:,} pages (over {TRACE_MAX_PAGES})" in shown, shown
    assert f"--explain --limit forensic_pages={pages}` traces them" in shown, shown


def test_a_probes_pages_are_lines_of_their_own_and_its_highlights_stay_on_the_value():
    """A text probe joins each page's layer with a form feed, which the screen drops: the tab
    showed "$4,711.00Page 2: ..." as one run. A page break is a line break there, one character
    for one, so the verdict's highlight still covers the value."""
    from tests.support.invoices import handmade_case
    from workbench.grading import grade
    from workbench.tui.widgets.answers import highlighted_answer

    answer = "Page 1: TOTAL DUE $4,711.00\fPage 2: nothing more"
    shown = highlighted_answer(answer, grade(handmade_case(), answer))
    assert shown.plain.split("\n") == ["Page 1: TOTAL DUE $4,711.00", "Page 2: nothing more"]
    assert any(shown.plain[s.start:s.end] == "$4,711.00" and "green" in str(s.style) for s in shown.spans)
