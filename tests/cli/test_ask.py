"""`ask` (workbench/cli/ask.py): the record it wrote, as JSON; bad input is one line. The reader is
the offline pypdf probe."""

from __future__ import annotations

import json

from tests.support.cli import printed_json, refused
from tests.support.fixtures import TOTAL


def test_ask_json_is_the_record_it_wrote(command, suite, work):
    rec = printed_json(command("ask", suite / f"{TOTAL}.json", "--reader", "probe:pypdf", "--out", "asked.jsonl",
                               "--json"))
    assert rec["case_id"] == TOTAL and rec["status"] == "ok"
    assert json.loads((work / "asked.jsonl").read_text())["answer"] == rec["answer"]


def test_ask_refuses_bad_input_in_one_line(command, suite, work):
    refused(command("ask", "missing.json", "--reader", "probe:pypdf", "--json"), "missing.json: no such file")
    refused(command("ask", suite / f"{TOTAL}.json", "--reader", "nosuch:x", "--json"), "unknown provider 'nosuch'")
    refused(command("ask", suite / f"{TOTAL}.json", "--reader", "probe:pypdf", "--modality", "smell", "--json"),
            "--modality")
