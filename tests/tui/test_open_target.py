"""Opening a target replaces everything the previous one put on screen."""

from __future__ import annotations

import shutil

import pytest

from tests.support.fixtures import SAMPLE, screen_text, settle
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp


@pytest.mark.slow
async def test_opening_a_run_after_a_suite_shows_that_run_only(tmp_path):
    from textual.widgets import TabbedContent

    from workbench.tui.screens.inspect import InspectScreen
    from workbench.tui.screens.runs import RunsScreen
    from workbench.tui.widgets.answers import AnswersView

    suite = tmp_path / "mini"
    shutil.copytree(SAMPLE, suite, ignore=shutil.ignore_patterns(".suite.lock"))  # with its probe runs
    app = WorkbenchApp(open_source(suite))
    app.settings.reader = "probe:pypdf"   # target A: the suite, on the pypdf probe's verdicts
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        assert "reader probe:pypdf" in app.screen.sub_title
        # Target B: the pymupdf probe's run file, given by a path other than its suite's listing.
        app.open_target(open_source(suite / "runs" / ".." / "runs" / "probe-pymupdf.jsonl"))
        await settle(pilot)
        assert isinstance(app.screen, RunsScreen) and app.screen.run.name == "probe-pymupdf.jsonl"
        await pilot.press("escape")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, InspectScreen) and len(app.screen_stack) == 2  # A's screens are gone
        assert screen.sub_title.endswith("probe-pymupdf.jsonl · reader probe:pymupdf")
        screen.query_one(TabbedContent).active = "tab-answers"
        await settle(pilot)
        answers = screen.query_one(AnswersView).answers
        assert sorted(s.record.reader for s, _ in answers) == ["probe:pymupdf", "probe:pypdf"]  # each once
        assert screen_text(app).count("probe:pymupdf text") == 1
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, RunsScreen) and app.screen.run.name == "probe-pymupdf.jsonl"
        assert "run probe:pymupdf" in screen_text(app)
