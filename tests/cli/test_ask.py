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


def test_answers_about_a_bare_pdf_are_reported_as_having_no_key(command, work):
    """`ask PDF` writes its answer beside the PDF; `report` of that file said "no suite found: give
    --suite DIR", which no suite could answer. It reports the answers, none graded, and says why."""
    from tests.support.fixtures import reportlab_pages

    pdf = reportlab_pages(work / "memo.pdf", 1, line="Total due: $1,234.56")
    code, _, _ = command("ask", pdf, "--reader", "probe:pypdf", "--question", "What is the total due?")
    assert code in (0, 1)
    code, out, err = command("report", work / "runs" / "asked.jsonl")
    assert code == 1 and "no suite found" not in err   # (1: nothing could be scored)
    assert "memo  no_key" in out and "a PDF asked without one (adopt it into a suite to key it)" in out
