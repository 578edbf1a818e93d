"""Snapshots of each screen at a fixed size, with every worker finished first."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.support.fixtures import settle
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.help import HelpScreen

ROOT = Path(__file__).resolve().parents[2]


def _extraction(tmp_path: Path) -> Path:
    dest = tmp_path / "extraction"
    shutil.copytree(ROOT / "sample_cases" / "extraction", dest, ignore=shutil.ignore_patterns(".suite.lock"))
    return dest


# The key that opens each screen from Inspect on the extraction sample ("" : Inspect itself).
SCREENS = {"inspect": "", "author": "w", "runs": "r", "triage": "t", "ask": "a", "help": "f1"}
SIZES = {"100x30": (100, 30), "160x48": (160, 48)}


def _open(screen: str, tmp_path: Path) -> tuple[WorkbenchApp, str]:
    """The app on the extraction sample, and the key that opens `screen` from Inspect. The text
    layer tabs are the test config's (tests/tui/conftest.py): the same on every machine."""
    return WorkbenchApp(open_source(_extraction(tmp_path))), SCREENS[screen]


async def _case_loaded(pilot) -> None:
    """Inspect's case data (its text layers, lint and the page's evidence boxes) has arrived:
    it comes from a helper process, not a worker `settle` waits for (a snapshot under load
    caught the page without its boxes)."""
    from workbench.tui.screens.inspect import InspectScreen

    for _ in range(1200):
        inspect = next((s for s in pilot.app.screen_stack if isinstance(s, InspectScreen)), None)
        if inspect is None or inspect.current is None or (
                inspect.data is not None and inspect.data.case is inspect.current):
            return
        await pilot.pause(0.05)


async def _screen_still(pilot) -> None:
    """Every page pane drawn for its size now, then the screen drawn the same twice in a row,
    0.2 s apart (up to a minute each): a page fitted again after the layout moved (the first-run
    hint) is rendered by a worker that may start after `settle` saw none running, and on a loaded
    machine it takes longer than 0.2 s (CI caught the hint's page drawn for the size before)."""
    from workbench.tui.widgets.page_view import PageView

    for _ in range(1200):
        if all(page.up_to_date for page in pilot.app.screen.query(PageView) if page.display):
            break
        await pilot.pause(0.05)
    before = None
    for _ in range(300):
        now = pilot.app.export_screenshot()
        if now == before:
            return
        before = now
        await pilot.pause(0.2)


async def _settled_on(pilot, key: str) -> None:
    from tests.support.fixtures import AUTHOR_DEBOUNCE

    await settle(pilot)
    await _case_loaded(pilot)
    await settle(pilot)
    if key:
        await pilot.press(key)
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        await settle(pilot)
    if key == "r":  # the wrong answers' sources are traced after the run shows
        for _ in range(1200):
            if pilot.app.screen.sources:
                break
            await pilot.pause(0.05)
        await settle(pilot)
    await _screen_still(pilot)
    for screen in pilot.app.screen_stack:
        # The title says how long generation took: the one thing that differs run to run.
        if screen.sub_title:
            screen.sub_title = re.sub(r"generated in \d+ ms", "generated in N ms", screen.sub_title)
    await pilot.pause()


@pytest.mark.slow
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("screen", list(SCREENS))
def test_every_screen_at_100x30_and_160x48(snap_compare, tmp_path, screen, size):
    """Each screen (and the Ask dialog, and F1's help) at the smallest size the workbench is made
    for and a common one: its keys in the footer (F1 and F2 first), its main content in sight."""
    app, key = _open(screen, tmp_path)

    async def run_before(pilot) -> None:
        await _settled_on(pilot, key)

    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)


def test_the_first_run_hint_at_100x30(snap_compare, tmp_path):
    from workbench.core.config import config_path

    # a first run (no first_run_hint), with no extra layer tabs: the same on every machine
    config_path().write_text('{"layer_tabs": []}')
    app, key = _open("inspect", tmp_path)

    async def run_before(pilot) -> None:
        await _settled_on(pilot, key)

    assert snap_compare(app, terminal_size=(100, 30), run_before=run_before)


@pytest.mark.slow
@pytest.mark.parametrize("screen", ["inspect", "author", "triage"])
def test_layout_at_220x60(snap_compare, tmp_path, screen):
    """Inspect, Author and Triage on a large terminal: the page is always there."""
    app, key = _open(screen, tmp_path)

    async def run_before(pilot) -> None:
        await _settled_on(pilot, key)

    assert snap_compare(app, terminal_size=(220, 60), run_before=run_before)


@pytest.mark.slow
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
