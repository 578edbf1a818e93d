"""`mcp` (workbench/cli/mcp.py): its exit codes on good input and on bad. It prints no data (its
stdout is the MCP protocol): a whole session is tests/providers/test_mcpserver.py's."""

from __future__ import annotations

import subprocess
import sys

from tests.support.cli import refused
from tests.support.fixtures import SAMPLE, TOTAL, needs


@needs("mcp")
def test_a_session_that_ends_at_once_is_exit_0_and_records_nothing(work):
    done = subprocess.run([sys.executable, "-m", "workbench", "mcp", SAMPLE, "--case", TOTAL, "--out", "run.jsonl"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "nothing recorded" in done.stderr, done.stderr
    assert not (work / "run.jsonl").exists()


def test_mcp_refuses_bad_input_in_one_line(command, work):
    refused(command("mcp", "missing"), "not a folder")
    refused(command("mcp", SAMPLE, "--case", "no-such-case"), "no case 'no-such-case'")
    refused(command("mcp", SAMPLE, "--port", "8123"), "--http")
