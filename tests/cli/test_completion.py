"""`completion` (workbench/cli/completion.py): a script for each shell, one line for any other.
Completing through the scripts is tests/cli/test_conventions.py's."""

from __future__ import annotations

from tests.support.cli import refused


def test_completion_prints_a_script_and_refuses_an_unknown_shell(command, work):
    code, out, err = command("completion", "bash")
    assert code == 0 and "pdfworkbench" in out and err == ""
    refused(command("completion", "tcsh"), "invalid choice: 'tcsh'")
