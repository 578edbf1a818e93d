"""`readers` (workbench/cli/readers.py): every reader and whether it can be called here, as JSON."""

from __future__ import annotations

from tests.support.cli import printed_json, refused


def test_readers_json_lists_the_offline_probes_as_ready(command, work):
    readers = {r["reader"]: r for r in printed_json(command("readers", "--json"))}
    assert readers["probe:pypdf"]["ready"] and not readers["probe:pypdf"]["needs_key"]
    refused(command("readers", "--json", "--all"), "unrecognized arguments: --all")
