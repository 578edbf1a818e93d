"""The Runs screen's chart and comparison, at the 100x30 the README promises: pass rate per reader
with its Wilson interval drawn as whiskers, per family below the report, and `c` comparing two
run files as `pdfworkbench compare` does; its table's verdict, source and reason columns fit."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets import DataTable

from tests.support.fixtures import SAMPLE, screen_text, settle
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.runs import RunCompareScreen, RunsScreen
from workbench.tui.widgets.ratechart import RateChart

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow   # charts of a run of every case: 25 s at load 13
async def test_the_runs_screen_charts_pass_rates_with_intervals_at_100x30(tmp_path):
    suite = tmp_path / "mini"
    shutil.copytree(SAMPLE, suite)
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RunsScreen)
        for _ in range(300):
            await pilot.pause(0.1)
            if screen.query_one("#runs-families", RateChart).sections:
                break
        shown = screen_text(app)
        # both run files of the suite, each with its rate, interval and counts, on the first lines
        assert "pass rate per reader (Wilson 95%)" in shown
        readers = [line for line in shown.splitlines() if line.strip().startswith(("probe-pypdf ", "probe-pymupdf "))]
        assert len(readers) == 2, shown
        pypdf = next(line for line in readers if "probe-pypdf" in line)
        assert "9.1% [3.1-23.6] 3/33" in pypdf and "█" in pypdf and "┤" in pypdf
        assert "12.1% [4.8-27.3] 4/33" in next(line for line in readers if "probe-pymupdf" in line)
        assert all(len(line.rstrip()) <= 100 for line in shown.splitlines())
        families = screen.query_one("#runs-families", RateChart).plain_lines()
        assert families[0].startswith("by family:")
        footnote = next(line for line in families if line.startswith("footnote_override"))
        assert "33.3% [6.1-79.2] 1/3" in footnote
        # the paired comparison with the next run file, in the workbench
        await pilot.press("c")
        for _ in range(100):
            await pilot.pause(0.1)
            if isinstance(app.screen, RunCompareScreen):
                break
        assert isinstance(app.screen, RunCompareScreen)
        assert "McNemar       b=1 c=2 exact two-sided p=1.000" in app.screen.text
        assert "is within noise" in app.screen.text
        await pilot.press("escape")
        assert isinstance(app.screen, RunsScreen)


def _extraction(tmp_path: Path) -> Path:
    dest = tmp_path / "extraction"
    shutil.copytree(ROOT / "sample_cases" / "extraction", dest, ignore=shutil.ignore_patterns(".suite.lock"))
    return dest



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
        # the reason takes the width left, one line cut with an ellipsis: the whole row in sight (at
        # 100x30 the screen's edge cut it without a sign)
        assert sum(widths) <= table.scrollable_content_region.width, (widths, table.size)
        for i, (_saved, outcome) in enumerate(app.screen.visible_rows()):
            shown, whole = str(table.get_row_at(i)[-1]), " ".join(outcome.reason.split())
            assert shown == whole or (shown.endswith("…") and whole.startswith(shown[:-1])), (shown, whole)
        if size[0] < 120:   # (its trap's reason, 73 characters, is cut there)
            assert any(str(table.get_row_at(i)[-1]).endswith("…") for i in range(table.row_count))

