"""The shards of a sharded run (grading/shards.py): their files joined into one run under one
label, each case counted once, and a missing shard named in one line."""

from __future__ import annotations

from workbench.core.runs import RunRecord
from workbench.grading.shards import join_shards, shard_coverage


def rec(case_id: str, shard: str | None = None, run_id: str | None = "abc-1", answer: str = "x") -> RunRecord:
    return RunRecord(case_id=case_id, case_sha256=None, key_sha256=None, reader="openai:gpt-4o", modality="pdf",
                     dpi=None, prompt="", answer=answer, status="ok", run_id=run_id, shard=shard)


def test_the_files_of_one_sharded_run_are_one_run_under_the_first_file_s_label():
    runs = {"gpt-shard1of3": [rec("a", "1/3")], "gpt-shard2of3": [rec("b", "2/3")],
            "plain": [rec("c", run_id=None)], "other-shard1of2": [rec("d", "1/2", run_id="zzz-1")],
            "two-shard1of2": [rec("e", "1/2", run_id="r-1"), rec("f", "1/2", run_id="r-2")]}   # two runs: not joined
    joined = join_shards(runs)
    assert {k: [r.case_id for r in v] for k, v in joined.items()} == {
        "gpt": ["a", "b"], "plain": ["c"], "other": ["d"], "two-shard1of2": ["e", "f"]}


def test_a_joined_label_already_taken_gets_its_run_id():
    runs = {"gpt": [rec("x", run_id=None)], "gpt-shard1of2": [rec("a", "1/2")]}
    assert list(join_shards(runs)) == ["gpt", "gpt (run abc-1)"]


def test_each_case_counts_once_its_last_record_and_missing_shards_are_one_line():
    records = [rec("a", "1/4", answer="first"), rec("b", "1/4"), rec("a", "1/4", answer="again"), rec("c", "3/4")]
    kept, cov = shard_coverage(records)
    assert [(r.case_id, r.answer) for r in kept] == [("b", "x"), ("a", "again"), ("c", "x")]
    assert cov.to_json() == {"run_id": "abc-1", "of": 4, "present": [1, 3], "missing": [2, 4], "duplicates": 1}
    assert cov.problem() == "run abc-1: shards 2/4, 4/4 missing (2 of 4 shards' records given)"
    _, whole = shard_coverage([rec("a", "1/2"), rec("b", "2/2")])
    assert whole.problem() is None and whole.missing == []
    _, one = shard_coverage([rec("a", "1/2")])
    assert one.problem() == "run abc-1: shard 2/2 missing (1 of 2 shards' records given)"


def test_a_run_that_is_not_sharded_is_left_as_it_is():
    records = [rec("a", run_id=None), rec("a", run_id=None)]
    kept, cov = shard_coverage(records)
    assert kept == records and cov is None
