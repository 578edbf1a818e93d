"""`q` quits the workbench while a hostile page is open (issue 33 item 5). The workbench runs on a
real pseudo-terminal on a PDF whose first page is over a count of work (an XObject fan-out that
MuPDF would draw for ever, holding the GIL so no key is read; a page of 100,000 annotations):
the page says it was skipped, and `q` ends the process (no worker thread or process, and not the
process that drew the first page ahead, keeps the exit waiting)."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time

import pytest

from tests.support.hostile_corpus import annotations_pdf, xobject_fan_out_pdf

GUARD_S = 20   # a workbench that does not exit fails here (no timing beyond it is asserted)


def _read_until(master: int, marker: bytes, seconds: float) -> bytes:
    shown = b""
    deadline = time.monotonic() + seconds
    while marker not in shown and time.monotonic() < deadline:
        if select.select([master], [], [], 0.5)[0]:
            try:
                shown += os.read(master, 65536)
            except OSError:
                break
    return shown


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal run")
# (the workbench in a process of its own on a page of 100,000 annotations: 2.5 s of CPU, a slow test)
@pytest.mark.parametrize("make", [xobject_fan_out_pdf, pytest.param(annotations_pdf, marks=pytest.mark.slow)],
                         ids=["fan-out", "annotations"])
def test_q_quits_while_a_hostile_page_is_open(make, tmp_path):
    import pty

    pdf = tmp_path / "hostile.pdf"
    pdf.write_bytes(make())
    master, slave = pty.openpty()
    os.set_blocking(master, True)
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="160", LINES="48",
               PDFWORKBENCH_CONFIG_DIR=str(tmp_path / "config"), PDFWORKBENCH_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "open", str(pdf)], stdin=slave,
                            stdout=slave, stderr=slave, env=env, close_fds=True, start_new_session=True)
    os.close(slave)
    try:
        shown = _read_until(master, b"too complex: skipped", 120)
        assert b"too complex: skipped" in shown, "the page never said it was skipped"
        os.write(master, b"q")
        deadline = time.monotonic() + GUARD_S
        while proc.poll() is None and time.monotonic() < deadline:
            _read_until(master, b"\0never\0", 0.5)  # keep the terminal drained while it exits
        assert proc.poll() is not None, f"the workbench was still running {GUARD_S} s after q"
        assert proc.returncode == 0
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
            proc.wait()


async def test_the_page_and_text_panes_say_the_page_was_skipped_and_the_next_page_shows(tmp_path):
    from tests.support.fixtures import screen_text, settle
    from workbench.core.source import open_source
    from workbench.tui.app import WorkbenchApp
    from workbench.tui.widgets.text_layers import TextLayerView

    pdf = tmp_path / "fan-out.pdf"
    pdf.write_bytes(xobject_fan_out_pdf())
    app = WorkbenchApp(open_source(pdf))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        layer = app.screen.query_one("#text-pypdf", TextLayerView)
        assert layer.plain.startswith("(too complex: skipped (1,111,111,111 XObject visits)")
        assert "page 1: too complex: skipped" in screen_text(app)
        assert any("too complex: skipped" in n.message for n in app._notifications)
        await pilot.press("pagedown")
        await settle(pilot)
        assert layer.plain.strip() == "Total: $1.00"
        assert "page 1: too complex" not in screen_text(app)
