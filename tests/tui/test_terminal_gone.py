"""The workbench ends when its terminal goes away, also when no SIGHUP reaches it.

`make run` in a terminal window that is then closed (or an ssh connection that drops): make gets
the hangup and waits for its child, so the workbench gets no signal, and Textual's input thread
read the terminal's end of file for ever, at a core's full speed. Here the workbench runs on a
real pseudo-terminal that is not its controlling terminal (so no SIGHUP either), and the
terminal's other end is closed once the first screen is drawn."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time

import pytest

from workbench.tui.app import HANGUP_EXIT


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the hang-up watch is Linux's (poll)")
def test_the_workbench_exits_when_its_terminal_closes(tmp_path):
    import pty

    master, slave = pty.openpty()
    env = dict(os.environ, TERM="xterm-256color", PDFWORKBENCH_CONFIG_DIR=str(tmp_path / "config"),
               PDFWORKBENCH_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.Popen([sys.executable, "-m", "workbench"], stdin=slave, stdout=slave, stderr=slave,
                            env=env, close_fds=True)
    os.close(slave)
    try:
        shown = b""
        deadline = time.monotonic() + 120
        while b"Cases (34)" not in shown and time.monotonic() < deadline:  # the sample's case list
            if select.select([master], [], [], 0.5)[0]:
                try:
                    shown += os.read(master, 65536)
                except OSError:
                    break
        assert b"Cases (34)" in shown, "the workbench never drew the sample on the terminal"
        os.close(master)
        master = -1
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail("the workbench was still running 60 s after its terminal closed")
        assert code == HANGUP_EXIT
    finally:
        if master >= 0:
            os.close(master)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
