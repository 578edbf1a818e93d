"""`serve` (workbench/cli/serve.py) on bad input: one line, exit 2, no server started. Its good
path is tests/tui/test_serve.py's."""

from __future__ import annotations

from tests.support.cli import refused
from tests.support.fixtures import SAMPLE


def test_serve_refuses_bad_input_in_one_line(command, work):
    refused(command("serve", "missing"), "missing: no such file or folder")
    refused(command("serve", SAMPLE, "--host", "0.0.0.0"), "--allow-remote")
    refused(command("serve", SAMPLE, "--port", "web"), "--port")
