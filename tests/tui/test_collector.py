"""The garbage collector paused for the workbench's first frame (tui/collector.py): it runs again
after that frame; only the workbench's own process freezes what start-up made."""

from __future__ import annotations

import gc

from tests.support.fixtures import settle
from workbench.core.source import open_source
from workbench.tui import collector
from workbench.tui.app import WorkbenchApp


def test_paused_then_resumed_once_frozen_only_when_asked() -> None:
    frozen = gc.get_freeze_count()
    collector.pause()
    assert not gc.isenabled()
    collector.resume()
    assert gc.isenabled() and gc.get_freeze_count() == frozen
    collector.pause(freeze=True)
    collector.resume()
    collector.resume()  # (once: nothing more)
    try:
        assert gc.isenabled() and gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()


def test_a_collector_turned_off_by_someone_else_stays_off() -> None:
    gc.disable()
    try:
        collector.pause()
        collector.resume()
        assert not gc.isenabled()
    finally:
        gc.enable()


async def test_after_the_first_frame_the_collector_runs_and_nothing_is_frozen(suite_copy) -> None:
    frozen = gc.get_freeze_count()
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert gc.isenabled()
        assert gc.get_freeze_count() == frozen   # (an app run by a longer process: not frozen)
    assert gc.isenabled()
