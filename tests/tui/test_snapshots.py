"""Snapshots of each screen at a fixed size, with every worker finished first."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.fixtures import settle
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.help import HelpScreen

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
        if key == "r":  # the wrong answers' sources are traced after the run shows
            for _ in range(1200):
                if pilot.app.screen.sources:
                    break
                await pilot.pause(0.05)
            await settle(pilot)

    assert snap_compare(WorkbenchApp(open_source(suite)), terminal_size=SIZE, run_before=run_before)


def test_author_screen_snapshot(snap_compare):
    from textual.widgets import Input

    from tests.fixtures import AUTHOR_DEBOUNCE, ONE_CASE
    from workbench.build.authoring import Draft
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


def _open(screen: str, tmp_path: Path) -> tuple[WorkbenchApp, str]:
    """The app on the extraction sample, and the key that opens `screen` from Inspect."""
    return WorkbenchApp(open_source(_extraction(tmp_path))), {"inspect": "", "author": "w", "triage": "t"}[screen]


async def _settled_on(pilot, key: str) -> None:
    from tests.fixtures import AUTHOR_DEBOUNCE

    await settle(pilot)
    if key:
        await pilot.press(key)
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        await settle(pilot)
    screen = pilot.app.screen
    screen.sub_title = re.sub(r"generated in \d+ ms", "generated in N ms", screen.sub_title)
    await pilot.pause()


@pytest.mark.parametrize("size", [(100, 30), (220, 60)], ids=["100x30", "220x60"])
@pytest.mark.parametrize("screen", ["inspect", "author", "triage"])
def test_layout_by_terminal_size(snap_compare, tmp_path, screen, size):
    """Inspect, Author and Triage at a small and a large terminal: the page is always there."""
    app, key = _open(screen, tmp_path)

    async def run_before(pilot) -> None:
        await _settled_on(pilot, key)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("screen", ["inspect", "author", "triage"])
async def test_the_page_keeps_its_width_at_100x30_and_with_help(tmp_path, screen):
    """At 100x30 the page pane gets a third of the width or more on every screen (it used to get
    2 columns, 0 in Author), and keeps it under the F1 help and after it."""
    from workbench.tui.widgets.page_view import PageView

    app, key = _open(screen, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await _settled_on(pilot, key)
        page = [p for p in app.screen.query(PageView) if p.display][-1]
        assert page.size.width >= 33 and page.size.height >= 15, page.size
        assert page.rendered_page == 0
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert page.size.width >= 33, page.size
        await pilot.press("f1", "f2")
        await settle(pilot)
        assert app.screen.maximized is page and page.size.width >= 95
