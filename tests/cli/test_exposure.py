"""`exposure` (workbench/cli/exposure.py): exit codes and --json on good input and on bad."""

from __future__ import annotations

from tests.support.cli import printed_json, refused
from tests.support.fixtures import TOTAL, suite_copy


def test_exposure_json_says_what_each_extractor_exposes(command, work):
    suite = suite_copy(work)
    got = printed_json(command("exposure", suite, "--extractors", "pypdf", "--json"))
    assert list(got["extractors"]) == ["pypdf"]
    by_case = {c["case_id"]: c["extractors"]["pypdf"] for c in got["cases"]}
    assert set(by_case) >= {TOTAL}


def test_exposure_refuses_bad_input_in_one_line(command, work):
    suite = suite_copy(work)
    refused(command("exposure", "missing", "--json"), "not a folder")
    refused(command("exposure", suite, "--extractors", "nosuch", "--json"), "unknown extractor 'nosuch'")
    refused(command("exposure", suite, "--json", "--csv"), "")
