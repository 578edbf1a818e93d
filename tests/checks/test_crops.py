"""checks/crops.py: the HTML report's page crops made on worker processes while the runs are
graded (`CropMaker`, fed by build_report's `on_row`), the same crops as made one by one here."""

from __future__ import annotations

import os

import pytest

from tests.support.fixtures import SAMPLE
from workbench.checks.crops import CropMaker, evidence_crops
from workbench.grading.loading import load_cases, load_runs
from workbench.grading.outcome import WRONG_ANSWERS
from workbench.grading.report import build_report

RUNS = sorted((SAMPLE / "runs").glob("*.jsonl"))


@pytest.fixture(scope="module")
def cases():
    return load_cases([SAMPLE])[0]


def test_crops_made_while_grading_are_the_crops_made_one_by_one(cases, tmp_path):
    some = set(sorted(cases)[::4])   # (every fourth case: the test stays short)
    runs = {label: [r for r in records if r.case_id in some] for label, records in load_runs(RUNS).items()}
    cache = tmp_path / "crops"
    seen = []
    with CropMaker(2, cache) as maker:
        def on_row(row):
            seen.append(row)
            if row.outcome in WRONG_ANSWERS:
                maker.add(cases[row.case_id])
        report = build_report(runs, cases, on_row=on_row)
        # (other work on its workers, as --by source's tracing: in order, the crops unchanged)
        assert list(maker.map(abs, [-3, 1, -2, 0, -5, 4, -7])) == [3, 1, 2, 0, 5, 4, 7]
        made = maker.crops()
    assert seen == [row for run in report.runs for row in run.rows]   # every row, once, in order
    wrong = sorted({r.case_id for r in seen if r.outcome in WRONG_ANSWERS})
    assert len(wrong) > 2 and sorted(made) == wrong                     # each case once, asked twice or not
    assert made == dict(evidence_crops([cases[c] for c in wrong], jobs=1))
    assert all(made.values()) and len(list(cache.rglob("*.json"))) == len(wrong)


def test_a_second_maker_takes_every_crop_from_the_cache(cases, tmp_path, monkeypatch):
    ids = ["actualtext_override-0001", "tiny_print_override-0001"]
    first = dict(evidence_crops([cases[c] for c in ids], jobs=1, cache=tmp_path))
    monkeypatch.setattr("workbench.checks.crops._make", lambda job: pytest.fail("made again"))
    with CropMaker(1, tmp_path) as maker:
        for c in ids:
            maker.add(cases[c])
        assert maker.crops() == first


def test_a_hostile_entry_is_a_miss_and_is_made_again(cases, tmp_path):
    """The cache folder is read as untrusted (`core.cache`): an entry that is a FIFO (reading it
    would wait forever), a link to a file elsewhere, torn or another key's is a miss, and the
    crop made in its place replaces it, never written through the link."""
    ids = ["actualtext_override-0001", "tiny_print_override-0001", "hidden_ocr_mismatch-0001",
           "footnote_override-0001"]
    folder = tmp_path / "crops"
    first = dict(evidence_crops([cases[c] for c in ids], jobs=1, cache=folder))
    entries = sorted(folder.rglob("*.json"))
    assert len(entries) == 4
    outside = tmp_path / "outside.json"
    outside.write_text("not a crop, and not to be written\n")
    entries[0].unlink()
    os.mkfifo(entries[0])
    entries[1].unlink()
    entries[1].symlink_to(outside)
    entries[2].write_bytes(entries[2].read_bytes()[:100])
    entries[3].write_text('{"key": "another key"}')
    assert dict(evidence_crops([cases[c] for c in ids], jobs=1, cache=folder)) == first
    assert all(e.is_file() and not e.is_symlink() for e in entries)     # each made again, in place
    assert outside.read_text() == "not a crop, and not to be written\n"
    assert dict(evidence_crops([cases[c] for c in ids], jobs=1, cache=folder)) == first


def test_the_maker_runs_other_work_in_order_without_workers(cases):
    with CropMaker(1) as maker:
        maker.add(cases["actualtext_override-0001"])
        assert list(maker.map(abs, [-3, 1, -2, 0, -5])) == [3, 1, 2, 0, 5]
        assert maker.crops()["actualtext_override-0001"] is not None
