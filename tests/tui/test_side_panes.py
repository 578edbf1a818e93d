"""Inspect's side panes (workbench/tui/widgets/side_panes.py): a tab per text layer, the tabs say
when some are out of sight at 100x30 and step to them by key."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.widgets import TabbedContent

from tests.support.fixtures import settle
from workbench.core.config import config_path
from workbench.core.source import open_source
from workbench.providers.extractors import EXTRACTORS
from workbench.tui.app import WorkbenchApp
from workbench.tui.case_data import EXTRACTORS as BUILT_IN

ROOT = Path(__file__).resolve().parents[2]
EXTRA = [n for n in EXTRACTORS if n not in BUILT_IN]   # every other extractor, installed here or not
# Tabs enough to run out of sight at 100x30, of readers quick to read a page: each tab reads its
# layer as it is shown (OCR, tesseract and the model-based readers were 13 s of the 16 stepping
# through every one; the tab per extractor is the next test's).
STEPPED = [n for n in ("pdfplumber", "pdfminer", "pypdfium2", "pdftext") if n in EXTRA]


def _extraction(tmp_path: Path) -> Path:
    dest = tmp_path / "extraction"
    shutil.copytree(ROOT / "sample_cases" / "extraction", dest, ignore=shutil.ignore_patterns(".suite.lock"))
    return dest



def _config(**settings) -> None:
    config_path().write_text(json.dumps({"first_run_hint": False, **settings}))



@pytest.mark.slow
async def test_the_side_tabs_say_when_some_are_out_of_sight_and_step_to_each(tmp_path):
    _config(layer_tabs=STEPPED)
    app = WorkbenchApp(open_source(_extraction(tmp_path)))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        side = app.screen.query_one("#side", TabbedContent)
        total = 6 + len(STEPPED)   # pypdf, pymupdf, Key, Lint, Answers, Revisions, then the others
        assert side.border_subtitle == f"tab 2/{total} · [ ] for the others"
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert side.active == "tab-key" and side.border_subtitle.startswith(f"tab 3/{total}")
        for _ in range(total - 3):  # on to the last tab: one of the others, in sight
            await pilot.press("right_square_bracket")
        await settle(pilot)
        assert side.active == f"tab-{STEPPED[-1]}" and side.border_subtitle.startswith(f"tab {total}/{total}")
        tab = side.query_one(f"#--content-tab-tab-{STEPPED[-1]}")
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

