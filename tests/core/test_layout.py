"""The suite folder layout (workbench/core/layout.py): which files are cases, where runs and the
journal live, and the one rule by which a run file finds its suite, never outside its home."""

from __future__ import annotations

import json
import os

import pytest

from tests.support.fixtures import TOTAL, load, record, suite_copy, write_run
from workbench.core.errors import UserError
from workbench.core.layout import (
    case_files,
    holds_suite,
    journal_path,
    named_suite_dir,
    require_suite_folder,
    run_files,
    run_home,
    suite_of_run,
)


def test_case_files_are_the_json_files_that_are_not_the_suites_own(tmp_path):
    for name in ("b.json", "a.json", "suite.json", "disputes.jsonl", "gold.json", ".hidden.json", "a.pdf"):
        (tmp_path / name).write_text("{}")
    assert [p.name for p in case_files(tmp_path)] == ["a.json", "b.json"]
    assert holds_suite(tmp_path) and not holds_suite(tmp_path / "nowhere")
    assert case_files(tmp_path / "nowhere") == []


def test_a_path_that_is_not_a_folder_is_one_line(tmp_path):
    with pytest.raises(UserError, match="not a folder"):
        require_suite_folder(tmp_path / "missing")


def test_runs_and_the_journal_are_the_suites_own_a_link_there_is_refused(tmp_path):
    suite = tmp_path / "suite"
    (suite / "runs").mkdir(parents=True)
    (suite / "runs" / "b.jsonl").write_text("")
    (suite / "runs" / "a.jsonl").write_text("")
    assert [p.name for p in run_files(suite)] == ["a.jsonl", "b.jsonl"]
    assert journal_path(suite) == suite / "disputes.jsonl"
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_text("")
    os.symlink(elsewhere, suite / "runs" / "c.jsonl")
    with pytest.raises(UserError):
        run_files(suite)


def test_a_run_under_runs_belongs_to_the_suite_holding_it(tmp_path):
    suite = suite_copy(tmp_path)
    case = load(suite, TOTAL)
    run = write_run(suite / "runs" / "r.jsonl", [record(case, "x")])
    assert run_home(run) == suite.resolve() and suite_of_run(run) == suite.resolve()
    beside = write_run(tmp_path / "loose" / "r.jsonl", [record(case, "x")])
    assert run_home(beside) == (tmp_path / "loose").resolve() and suite_of_run(beside) is None
    assert named_suite_dir(run, suite) == "." and named_suite_dir(beside, suite) is None


def test_a_run_naming_a_suite_outside_its_home_is_refused(tmp_path):
    suite = suite_copy(tmp_path)
    case = load(suite, TOTAL)
    rec = record(case, "x")
    rec.extra["suite_dir"] = "../../etc"
    run = tmp_path / "sent" / "runs" / "r.jsonl"
    write_run(run, [rec])
    with pytest.raises(UserError, match="suite_dir"):
        suite_of_run(run)
    assert json.loads(run.read_text())["extra"]["suite_dir"] == "../../etc"


def test_a_run_files_default_name_is_plain_and_short_whatever_the_suites_name(tmp_path, cli):
    """A run's default file is named after the suite, whose name (its suite.json's) may be
    anything: a name of 300 letters ended `run` with "name too long ... choose a shorter one",
    though the user chose no name. The name is cut to 120 characters with a hash of the whole (two
    long names stay two files), and anything but letters, digits, '.', '_' and '-' is '_'."""
    from workbench.core.layout import run_file_path

    suite = suite_copy(tmp_path)
    meta = json.loads((suite / "suite.json").read_text())
    (suite / "suite.json").write_text(json.dumps({**meta, "name": "n" * 300}))
    code, _, err = cli("run", suite, "--reader", "probe:pypdf", "--no-cache")
    assert code in (0, 1), err
    (made,) = [p for p in (suite / "runs").iterdir() if p.name.startswith("nnn")]
    assert len(made.name) == 120 + len(".jsonl") and made.name.endswith(".jsonl")
    assert run_file_path(suite, ["n" * 300, "x"]) != run_file_path(suite, ["n" * 301, "x"])
    assert run_file_path(suite, ["../.hid den", "openai-gpt-4o", "text"]).name == "hid_den-openai-gpt-4o-text.jsonl"
