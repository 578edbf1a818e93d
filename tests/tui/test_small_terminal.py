"""At 100x30 every screen keeps F1 and F2 in its footer, the side pane's tabs say when some are
out of sight and step to them by key, and the Runs table's verdict, source and reason columns fit."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.widgets import DataTable, TabbedContent
from textual.widgets._footer import FooterKey

from tests.support.fixtures import settle
from workbench.core.config import config_path
from workbench.core.source import open_source
from workbench.providers.extractors import EXTRACTORS
from workbench.tui.app import WorkbenchApp
from workbench.tui.case_data import EXTRACTORS as BUILT_IN

ROOT = Path(__file__).resolve().parents[2]
EXTRA = [n for n in EXTRACTORS if n not in BUILT_IN]   # every other extractor, installed here or not


def _extraction(tmp_path: Path) -> Path:
    dest = tmp_path / "extraction"
    shutil.copytree(ROOT / "sample_cases" / "extraction", dest, ignore=shutil.ignore_patterns(".suite.lock"))
    return dest


def _config(**settings) -> None:
    config_path().write_text(json.dumps({"first_run_hint": False, **settings}))


@pytest.mark.parametrize("key", ["", "r", "t", "w"], ids=["inspect", "runs", "triage", "author"])
async def test_f1_and_f2_lead_the_footer_on_every_screen_at_100x30(tmp_path, key):
    app = WorkbenchApp(open_source(_extraction(tmp_path)))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        if key:
            await pilot.press(key)
            await settle(pilot)
        keys = [k for k in app.screen.query(FooterKey) if "-command-palette" not in k.classes]
        assert [k.key for k in keys[:2]] == ["f1", "f2"]
        assert all(k.region.right <= 100 and k.region.width > 0 for k in keys[:4]), [k.region for k in keys[:4]]


@pytest.mark.slow
async def test_the_side_tabs_say_when_some_are_out_of_sight_and_step_to_each(tmp_path):
    _config(layer_tabs=EXTRA)
    app = WorkbenchApp(open_source(_extraction(tmp_path)))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        side = app.screen.query_one("#side", TabbedContent)
        total = 6 + len(EXTRA)   # pypdf, pymupdf, Key, Lint, Answers, Revisions, then the others
        assert side.border_subtitle == f"tab 2/{total} · [ ] for the others"
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert side.active == "tab-key" and side.border_subtitle.startswith(f"tab 3/{total}")
        for _ in range(total - 3):  # on to the last tab: one of the others, in sight
            await pilot.press("right_square_bracket")
        await settle(pilot)
        assert side.active == f"tab-{EXTRA[-1]}" and side.border_subtitle.startswith(f"tab {total}/{total}")
        tab = side.query_one(f"#--content-tab-tab-{EXTRA[-1]}")
        assert 0 <= tab.region.x and tab.region.right <= side.region.right
        await pilot.press("right_square_bracket")  # and round again
        await settle(pilot)
        assert side.active == "tab-pypdf"


async def test_tabs_that_fit_say_nothing(tmp_path):
    _config(layer_tabs=[])
    app = WorkbenchApp(open_source(_extraction(tmp_path)))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        side = app.screen.query_one("#side", TabbedContent)
        assert [p.id for p in side.query("TabPane")] == [
            "tab-pypdf", "tab-pymupdf", "tab-key", "tab-lint", "tab-answers", "tab-revisions"]
        assert side.border_subtitle == ""


async def test_without_layer_tabs_set_a_tab_per_extractor_installed(tmp_path):
    from workbench.providers.extractors import available

    _config()
    app = WorkbenchApp(open_source(_extraction(tmp_path)))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        tabs = [p.id for p in app.screen.query_one("#side", TabbedContent).query("TabPane")][6:]
        assert tabs == [f"tab-{n}" for n in EXTRA if available(n)]


@pytest.mark.parametrize("size", [(100, 30), (160, 48)], ids=["100x30", "160x48"])
async def test_the_runs_table_columns_fit(tmp_path, size):
    app = WorkbenchApp(open_source(_extraction(tmp_path)))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        table = app.screen.query_one("#runs-table", DataTable)
        labels = [str(c.label) for c in table.columns.values()]
        if size[0] < 120:
            assert labels == ["case", "verdict", "source", "reason"]
        else:
            assert labels == ["case", "family", "reader", "status", "verdict", "source", "reason"]
        # every column but the free-text reason starts and ends in sight
        widths = [c.get_render_width(table) for c in table.columns.values()]
        assert sum(widths[:-1]) < table.scrollable_content_region.width - 10, (widths, table.size)
