"""Inspect's answers (workbench/tui/screens/inspect_answers.py) on the sample suite: an answer's
values traced to the page and a chosen value's box shown, `v` and escape, asking again from an
answer with its reader, and an answer asked here highlighted and found by the Runs screen's jump.
(Moved from tests/tui/test_inspect.py, with the opening they shared made one helper.)"""

from __future__ import annotations

import json

import pytest
from textual.widgets import OptionList, TabbedContent

from tests.support.fixtures import mini_copy, settle
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.answers import AnswersView
from workbench.tui.widgets.case_list import CaseList
from workbench.tui.widgets.page_view import PageView
from workbench.tui.widgets.text_layers import TextLayerView


async def answers_tab(app, pilot, case_id: str = "hidden_ocr_mismatch-0001", traced: bool = False) -> AnswersView:
    """The workbench started, `case_id` selected and its Answers tab shown; with `traced`, once
    the values of the answer shown are traced (up to a minute)."""
    await settle(pilot)
    assert app.screen.query_one(CaseList).select_case(case_id)
    await settle(pilot)
    app.screen.query_one(TabbedContent).active = "tab-answers"
    answers = app.screen.query_one(AnswersView)
    for _ in range(600 if traced else 0):
        await pilot.pause(0.1)
        if answers.attributions() is not None:
            break
    return answers


@pytest.mark.slow
async def test_answer_values_are_traced_and_a_chosen_value_shows_its_box(tmp_path):
    """Answers tab: each value of the answer is listed with where it came from; choosing the
    decoy the pymupdf probe answered with shows its box on the page (zoomed to it) and points the
    text layer at it."""
    app = WorkbenchApp(open_source(mini_copy(tmp_path, runs=True)))   # with its probe runs
    async with app.run_test(size=(160, 48)) as pilot:
        answers = await answers_tab(app, pilot, traced=True)
        found = answers.attributions()
        saved = answers.answers[answers.shown][0]
        assert saved.record.reader.startswith("probe:")   # a text probe: it read the hidden layer
        decoy = next(i for i, a in enumerate(found) if a.value == "€53,919.68")
        assert found[decoy].source == "hidden" and found[decoy].page == 0
        values = answers.query_one("#value-list", OptionList)
        # A summary, then the values that explain the wrong answer first: the hidden decoy.
        assert "1 hidden" in str(values.get_option_at_index(0).prompt)
        assert values.get_option_at_index(1).id == f"v{decoy}"
        assert "hidden" in str(values.get_option_at_index(1).prompt)
        values.focus()
        values.highlighted = 1
        await settle(pilot)
        page = app.screen.query_one(PageView)
        assert page.value_box is not None and page.value_box.rect == found[decoy].box
        x0, y0, x1, y1 = page.shown.area
        bx0, by0, bx1, by1 = found[decoy].box
        assert x0 * 612 <= bx0 and bx1 <= x1 * 612 and y0 * 792 <= by0 and by1 <= y1 * 792
        assert page.zoom_level > 0       # zoomed in on the value, not the whole page
        layer = app.screen.query_one("#text-pymupdf", TextLayerView)
        assert layer.pointer == "€53,919.68" and layer.pointed_line is not None
        assert layer.plain.splitlines()[layer.pointed_line - 1].strip() == "€53,919.68"


@pytest.mark.slow
async def test_an_answer_stating_more_values_than_listed_says_so(tmp_path):
    """The pane lists an answer's first 60 values, and says the answer states more when it does
    (a probe's answer to a long page, or a provider's list of numbers)."""
    suite = mini_copy(tmp_path, runs=True)
    for run in (suite / "runs").glob("probe-*.jsonl"):
        lines = run.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            record = json.loads(line)
            if record.get("case_id") == "hidden_ocr_mismatch-0001":
                record["answer"] = "; ".join(f"€{n},000.50" for n in range(1, 71)) + "\n" + record["answer"]
                lines[i] = json.dumps(record)
        run.write_text("\n".join(lines) + "\n", encoding="utf-8")
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=(160, 48)) as pilot:
        answers = await answers_tab(app, pilot, traced=True)
        assert answers.answers[answers.shown][0].record.answer.startswith("€1,000.50; €2,000.50")
        values = answers.query_one("#value-list", OptionList)
        assert str(values.get_option_at_index(0).prompt).startswith("the first 60 values, more in the answer")
        assert values.option_count == 61   # the summary and 60 values


@pytest.mark.slow
async def test_v_shows_the_values_box_at_once_and_escape_leaves_it(tmp_path):
    """`v` once: the Answers tab's values, the highlighted value's box on the page (also when the
    highlight was already there); escape: the box and the layers' pointer go, the cases have focus."""
    app = WorkbenchApp(open_source(mini_copy(tmp_path, runs=True)))   # with its probe runs
    async with app.run_test(size=(100, 30)) as pilot:
        answers = await answers_tab(app, pilot, traced=True)
        values = answers.query_one("#value-list", OptionList)
        values.highlighted = 1           # left highlighted from before, its box since cleared
        await settle(pilot)
        page = app.screen.query_one(PageView)
        page.value_box = None
        app.screen.query_one(CaseList).focus()
        await pilot.press("v")
        await settle(pilot)
        assert app.screen.focused is values
        assert page.value_box is not None and page.value_box.label == "€53,919.68"
        assert page.zoom_level > 0       # zoomed to the value
        await pilot.press("escape")
        await settle(pilot)
        assert page.value_box is None and page.zoom_level == 0
        assert app.screen.query_one("#text-pymupdf", TextLayerView).pointer == ""
        assert isinstance(app.screen.focused, CaseList)


@pytest.mark.slow
async def test_ask_again_from_an_answer_defaults_to_that_answers_reader(tmp_path):
    from textual.widgets import Select

    from workbench.tui.screens.ask import AskScreen

    app = WorkbenchApp(open_source(mini_copy(tmp_path, runs=True)))   # with its probe runs
    async with app.run_test(size=(160, 48)) as pilot:
        answers = await answers_tab(app, pilot)
        screen = app.screen
        other = next(i for i, (saved, _) in enumerate(answers.answers) if saved.record.reader != screen.reader)
        answers.query_one("#answer-list", OptionList).highlighted = other
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, AskScreen)
        assert app.screen.query_one("#ask-reader", Select).value == answers.answers[other][0].record.reader


@pytest.mark.slow
async def test_an_answer_asked_here_is_the_one_highlighted_and_the_runs_jump_finds_it(tmp_path):
    from workbench.core.layout import ASK_RUN, RUNS_DIR

    suite = mini_copy(tmp_path)
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=(160, 48)) as pilot:
        answers = await answers_tab(app, pilot)
        screen = app.screen
        listed = answers.query_one("#answer-list", OptionList)
        listed.highlighted = 0
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        app.screen.query_one("#ask-custom").value = "probe:pypdf"
        await pilot.click("#ask-send")
        await app.workers.wait_for_complete()
        await settle(pilot)
        asked = suite / RUNS_DIR / ASK_RUN
        new = len(answers.answers) - 1
        saved = answers.answers[new][0]
        assert (saved.run, saved.line) == (asked, 0)      # its record number in asked.jsonl
        assert listed.highlighted == new and answers.shown == new
        listed.highlighted = 0
        await settle(pilot)
        screen.select_answer("hidden_ocr_mismatch-0001", asked, 0)   # as the Runs screen jumps
        await settle(pilot)
        assert listed.highlighted == new
