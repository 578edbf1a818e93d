"""`compare` (workbench/cli/compare.py): two runs paired, as JSON; bad input is one line."""

from __future__ import annotations

from tests.support.cli import printed_json, refused


def test_compare_json_and_its_bad_input(command, runs):
    right, trap = runs
    compared = printed_json(command("compare", right, trap, "--json"))
    assert compared["format"] == "pdfworkbench-compare/1" and compared["paired"] == 1
    refused(command("compare", right, "missing.jsonl", "--json"), "missing.jsonl: no such file")
