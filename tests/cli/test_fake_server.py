"""`fake-server` (workbench/cli/fake_server.py): serves until interrupted; bad input is one line."""

from __future__ import annotations

import subprocess
import sys

from tests.support.cli import ctrl_c, files_under, refused


def test_fake_server_serves_until_interrupted_then_exits_0(work):
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "fake-server", "--port", "0"],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        said = [proc.stderr.readline() for _ in range(3)]   # where it listens, then how to use it
        assert "fake provider on http://127.0.0.1:" in said[0]
    finally:
        code, err = ctrl_c(proc)
    # 0 once it serves; 130 (interrupted) should the signal land before, on a loaded machine
    assert code in (0, 130) and "Traceback" not in err


def test_fake_server_refuses_a_bad_script_in_one_line(command, work):
    (work / "script.json").write_text("{not json")
    refused(command("fake-server", "--port", "0", "--script", "script.json"), "fake-server")
    refused(command("fake-server", "--port", "zero"), "--port")


def test_fake_server_refuses_a_port_out_of_range_in_one_line(command, work):
    refused(command("fake-server", "--port", "99999"), "port")
    assert files_under(work) == []
