"""`run` (workbench/cli/run.py): the report of the run it wrote, its gate; bad input is one line and
writes nothing. The reader is the offline pypdf probe (its answer is the text layer)."""

from __future__ import annotations

import json

from tests.support.cli import printed_json, refused


def test_run_json_reports_the_run_it_wrote(command, suite, work):
    # (--jobs 1: the report and the gate, not processes; a spawned worker's imports were most of it)
    report = printed_json(command("run", suite, "--reader", "probe:pypdf", "--out", "run.jsonl", "-q", "--json",
                                  "--jobs", "1"))
    assert report["format"] == "pdfworkbench-report/1"
    assert len((work / "run.jsonl").read_text().splitlines()) == 2      # one record per case
    # a gate the probe cannot pass: exit 1, the report printed all the same
    gated = printed_json(command("run", suite, "--reader", "probe:pypdf", "--out", "gated.jsonl", "-q", "--json",
                                 "--fail-threshold", "0.99", "--jobs", "1"), code=1)
    assert gated["runs"]


def test_run_refuses_bad_input_in_one_line_writing_nothing(command, suite, work):
    refused(command("run", "missing", "--reader", "probe:pypdf", "--out", "r.jsonl", "--json"), "not a folder")
    refused(command("run", suite, "--reader", "nosuch:model", "--out", "r.jsonl", "--json"), "unknown provider 'nosuch'")
    refused(command("run", suite, "--reader", "openai:gpt-4o", "--out", "r.jsonl", "--json"), "OPENAI_API_KEY")
    refused(command("run", suite, "--reader", "probe:pypdf", "--shard", "0/2", "--out", "r.jsonl", "--json"), "shard")
    assert not (work / "r.jsonl").exists()


def test_a_pdf_swapped_since_the_suite_was_made_is_not_asked(command, suite, work):
    """A case whose PDF is not the file its JSON records (swapped or edited since the suite was
    made) is recorded as bad input and never sent to the reader: its answer would be credited to
    the suite's hash, about another document. The other case is asked as usual."""
    from tests.support.fixtures import INVOICE, TOTAL, reportlab_pages

    reportlab_pages(suite / f"{TOTAL}.pdf", 1, line="Total due: $1.00")   # another document, same name
    report = printed_json(command("run", suite, "--reader", "probe:pypdf", "--out", "run.jsonl", "-q", "--json",
                                  "--jobs", "1"), code=1)
    records = {r["case_id"]: r for r in map(json.loads, (work / "run.jsonl").read_text().splitlines())}
    assert records[TOTAL]["status"] == "error" and records[TOTAL]["answer"] is None
    assert records[TOTAL]["error"]["type"] == "bad_input"
    assert f"{TOTAL}.pdf is not the PDF its JSON records" in records[TOTAL]["error"]["message"]
    assert records[INVOICE]["status"] == "ok" and report["runs"]
    code, out, err = command("ask", suite / f"{TOTAL}.json", "--reader", "probe:pypdf")
    assert code == 2 and "is not the PDF its JSON records" in err and "$1.00" not in out
