"""The garbage collector paused for the workbench's first frame (core/collector.py): it runs again
after that frame, or when the start fails; a pool's workers are settled for their batch."""

from __future__ import annotations

import gc

from tests.support.fixtures import settle
from workbench.cli import main
from workbench.core import collector
from workbench.core.pool import map_ordered
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp


def test_paused_then_resumed_once() -> None:
    collector.pause()
    assert not gc.isenabled()
    collector.resume()
    collector.resume()  # (once: nothing more)
    assert gc.isenabled()


def test_a_collector_turned_off_by_someone_else_stays_off() -> None:
    gc.disable()
    try:
        collector.pause()
        collector.resume()
        assert not gc.isenabled()
    finally:
        gc.enable()


async def test_after_the_first_frame_the_collector_runs(tmp_path) -> None:
    from tests.support.hostile_corpus import plain_pdf

    pdf = tmp_path / "plain.pdf"
    pdf.write_bytes(plain_pdf())
    app = WorkbenchApp(open_source(pdf))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert gc.isenabled()
    assert gc.isenabled()


def test_a_start_that_fails_leaves_the_collector_running(tmp_path, capsys) -> None:
    assert main(["open", str(tmp_path / "missing.pdf")]) == 2
    assert "missing.pdf" in capsys.readouterr().err
    assert gc.isenabled()


def _collector_state(_item: int) -> tuple[int, bool, bool]:
    return gc.get_threshold()[0], gc.get_freeze_count() > 0, gc.isenabled()


def test_a_pool_worker_is_settled_and_this_process_is_not() -> None:
    before = gc.get_threshold()
    assert list(map_ordered(_collector_state, [1, 2], jobs=2)) == [(collector.BATCH_THRESHOLD, True, True)] * 2
    assert gc.get_threshold() == before
