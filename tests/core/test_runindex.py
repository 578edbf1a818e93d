"""Every saved answer of a suite by case (workbench/core/runindex.py): what the Inspect screen's
answers pane and the Runs screen read, with a broken run file a problem named, not an end."""

from __future__ import annotations

from tests.support.fixtures import INVOICE, TOTAL, load, record, suite_copy, write_run
from workbench.core.runindex import RunIndex


def test_answers_grouped_by_case_in_file_order_with_the_latest_per_reader(tmp_path):
    suite = suite_copy(tmp_path)
    total, invoice = load(suite, TOTAL), load(suite, INVOICE)
    a = write_run(suite / "runs" / "a.jsonl", [record(total, "first", reader="r:one"),
                                               record(invoice, "{}", reader="r:one")])
    b = write_run(suite / "runs" / "b.jsonl", [record(total, "second", reader="r:one"),
                                               record(total, "other", reader="r:two")])
    (suite / "runs" / "broken.jsonl").write_text("not json\n")
    index = RunIndex.load([a, b, suite / "runs" / "broken.jsonl"])
    assert [s.record.answer for s in index.for_case(TOTAL)] == ["first", "second", "other"]
    assert [(s.run.name, s.line) for s in index.for_case(TOTAL)] == [("a.jsonl", 0), ("b.jsonl", 0), ("b.jsonl", 1)]
    assert index.latest(TOTAL, "r:one").record.answer == "second" and index.latest(INVOICE, "r:two") is None
    assert index.readers() == ["r:one", "r:two"] and index.for_case("nosuch") == []
    assert len(index.problems) == 1 and "broken.jsonl" in index.problems[0]
    assert index.for_case(TOTAL)[0].label.startswith("r:one · pdf")


def test_an_answer_added_in_the_session_counts_its_own_files_records(tmp_path):
    suite = suite_copy(tmp_path)
    total = load(suite, TOTAL)
    asked = write_run(suite / "runs" / "asked.jsonl", [record(total, "one")])
    other = write_run(suite / "runs" / "other.jsonl", [record(total, "x"), record(total, "y")])
    index = RunIndex.load([other, asked])
    saved = index.add(record(total, "two"), asked)
    assert saved.line == 1 and index.for_case(TOTAL)[-1] is saved
