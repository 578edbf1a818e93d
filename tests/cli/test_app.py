"""`open` (workbench/cli/app.py) on bad input: one line, exit 2, no screen started. It prints no
data (a screen); its good path is tests/tui's (test_app.py opens the sample as
`pdfworkbench` does, test_newcomer_tmux.py in a real terminal)."""

from __future__ import annotations

from tests.support.cli import refused
from tests.support.fixtures import SAMPLE


def test_open_refuses_bad_input_in_one_line(command, work):
    refused(command("open", "missing.pdf"), "missing.pdf: no such file or folder")
    refused(command("missing.pdf"), "missing.pdf: no such file or folder")       # `pdfworkbench PATH`
    refused(command("open", SAMPLE, "--graphics", "ascii"), "--graphics")
