"""`export` (workbench/cli/export.py): a suite for another harness, said as JSON; bad input is one
line and writes nothing."""

from __future__ import annotations

from tests.support.cli import files_under, printed_json, refused


def test_export_json_and_its_bad_input(command, suite, work):
    written = printed_json(command("export", suite, "--to", "jsonl", "--out", "exported", "--json"))
    assert written and (work / "exported").is_dir()
    refused(command("export", "missing", "--to", "jsonl", "--out", "x", "--json"), "not a folder")
    refused(command("export", suite, "--to", "excel", "--out", "x", "--json"), "--to")
    refused(command("export", suite, "--to", "jsonl", "--out", "x", "--gold", "v9", "--json"), "v9")
    assert files_under(work / "x") == []
