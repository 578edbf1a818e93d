"""Reading run files for a report (workbench/grading/loading.py): each run labelled by its file,
with its folder when two files share a name, a file of several readers split by reader, an empty
file refused in one line, and a case read once however many times its suite is given."""

from __future__ import annotations

import pytest

from tests.support.fixtures import SAMPLE, record, write_run
from workbench.core.errors import UserError
from workbench.core.suite import load_suite
from workbench.grading.loading import find_suite_folders, load_cases, load_runs


def test_runs_are_labelled_by_file_folder_when_names_collide_and_reader_when_several(tmp_path):
    case = load_suite(SAMPLE).cases[0]
    one = write_run(tmp_path / "a" / "run.jsonl", [record(case, "x")])
    two = write_run(tmp_path / "b" / "run.jsonl", [record(case, "x", reader="test:one"),
                                                    record(case, "y", reader="test:two")])
    solo = write_run(tmp_path / "solo.jsonl", [record(case, "z")])
    runs = load_runs([one, two, solo])
    assert {label: [r.answer for r in recs] for label, recs in runs.items()} == {
        "a/run": ["x"], "b/run/test:one": ["x"], "b/run/test:two": ["y"], "solo": ["z"]}
    (tmp_path / "empty.jsonl").write_text("")
    with pytest.raises(UserError, match="empty.jsonl: the run file holds no records"):
        load_runs([tmp_path / "empty.jsonl"])


def test_the_suites_given_are_read_and_each_case_once(tmp_path):
    assert find_suite_folders([tmp_path / "r.jsonl"], [SAMPLE]) == [SAMPLE]
    cases, suites = load_cases([SAMPLE, SAMPLE])
    assert len(suites) == 2 and sorted(cases) == sorted(c.id for c in load_suite(SAMPLE).cases)
