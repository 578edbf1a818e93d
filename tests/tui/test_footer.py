"""The key footer (workbench/tui/widgets/footer.py): at 100x30 every screen keeps F1 and F2 at its
start, in sight."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets._footer import FooterKey

from tests.support.fixtures import settle
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp

ROOT = Path(__file__).resolve().parents[2]


def _extraction(tmp_path: Path) -> Path:
    dest = tmp_path / "extraction"
    shutil.copytree(ROOT / "sample_cases" / "extraction", dest, ignore=shutil.ignore_patterns(".suite.lock"))
    return dest



# (Author makes its draft case and lints it: 2.3 s of CPU, a slow test)
@pytest.mark.parametrize("key", ["", "r", "t", pytest.param("w", marks=pytest.mark.slow)],
                         ids=["inspect", "runs", "triage", "author"])
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
        # a key is shown whole or not at all: none runs under the palette's key ("t T" of
        # "t Triage" was drawn cut there); F1 lists the ones left out
        palette = app.screen.query_one("FooterKey.-command-palette", FooterKey)
        shown = [k for k in keys if k.display]
        assert shown == keys[:len(shown)] and all(k.region.right <= palette.region.x for k in shown), \
            [(k.key, k.region) for k in keys]

