"""Snapshots of each screen at a fixed size, with every worker finished first."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.fixtures import settle
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp

ROOT = Path(__file__).resolve().parents[2]
SIZE = (160, 48)


def _extraction(tmp_path: Path) -> Path:
    dest = tmp_path / "extraction"
    shutil.copytree(ROOT / "sample_cases" / "extraction", dest, ignore=shutil.ignore_patterns(".suite.lock"))
    return dest


@pytest.mark.parametrize("key", ["r", "t", "a"], ids=["runs", "triage", "ask"])
def test_screen_snapshot(snap_compare, tmp_path, key):
    """Runs (r), Triage (t) and the Ask dialog (a), each opened from Inspect on the extraction sample."""
    suite = _extraction(tmp_path)

    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)

    assert snap_compare(WorkbenchApp(open_source(suite)), terminal_size=SIZE, run_before=run_before)


def test_author_screen_snapshot(snap_compare):
    from textual.widgets import Input

    from tests.fixtures import AUTHOR_DEBOUNCE, ONE_CASE
    from workbench.core.authoring import Draft
    from workbench.tui.screens.author import AuthorScreen

    async def run_before(pilot) -> None:
        await settle(pilot)
        pilot.app.push_screen(AuthorScreen(Draft("hidden_ocr_mismatch", 3)))
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        await settle(pilot)
        # The title says how long generation took: the one thing that differs run to run.
        screen = pilot.app.screen
        screen.sub_title = re.sub(r"generated in \d+ ms", "generated in N ms", screen.sub_title)
        # A blinking cursor is drawn or not depending on the moment: keep it drawn.
        for box in screen.query(Input):
            box.cursor_blink = False
        await pilot.pause()

    assert snap_compare(WorkbenchApp(open_source(ONE_CASE)), terminal_size=SIZE, run_before=run_before)
