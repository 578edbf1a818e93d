"""A case's scan (`core.scan.DegradeSpec`): parsed once when the case is read, written back to the
same bytes, and a bad field in a case's `degrade` is one line naming the file and the field."""

from __future__ import annotations

import json

import pytest

from workbench.core import atomic
from workbench.core.case import load_case
from workbench.core.errors import UserError
from workbench.core.scan import DegradeSpec

FAMILY = "white_text_injection"


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    """One scanned case with a knob override and a drifted text layer, made by the CLI."""
    from workbench.cli import main

    out = tmp_path_factory.mktemp("scan")
    assert main(["make", FAMILY, "--seed", "1", "--tier", "mild", "--degrade", "blur=1",
                 "--text-layer", "drifted", "--out", str(out), "-q"]) == 0
    (path,) = out.glob("*.json")
    return path


def test_a_scanned_case_reads_as_a_spec_and_writes_back_the_same_bytes(scanned, tmp_path):
    case = load_case(scanned)
    assert isinstance(case.degrade, DegradeSpec)
    assert (case.degrade.tier, case.degrade.text_layer, case.degrade.overrides) == ("mild", "drifted",
                                                                                      (("blur", 1.0),))
    assert case.degrade.drifted and case.degrade.drifted_answer   # what the drift chose, kept
    atomic.write_json(tmp_path / "again.json", case.to_json())
    assert (tmp_path / "again.json").read_bytes() == scanned.read_bytes()


@pytest.mark.parametrize(("field", "value", "needle"), [
    ("tier", "soggy", "unknown degradation tier 'soggy'"),
    ("overrides", {"smudge": 1}, "unknown degradation knob 'smudge'"),
    ("overrides", {"blur": 99}, "'blur' must be between 0 and 5"),
    ("text_layer", "ocr", "unknown text layer 'ocr'"),
])
def test_a_bad_degrade_field_is_one_line_naming_the_case(scanned, tmp_path, cli, field, value, needle):
    raw = json.loads(scanned.read_text())
    raw["degrade"][field] = value
    bad = tmp_path / scanned.name
    bad.write_text(json.dumps(raw))
    (tmp_path / f"{raw['id']}.pdf").write_bytes(scanned.with_suffix(".pdf").read_bytes())
    code, out, err = cli("grade", bad, "--answer", "anything")
    assert code == 2 and not out
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert str(bad) in err and "degrade" in err and needle in err


def test_a_scan_of_another_pipeline_version_is_graded_and_only_remaking_it_is_refused(scanned, tmp_path, cli):
    """The version is checked where a scan is made, not where a case is read: a suite scanned by
    an older pipeline still grades and reports; making its scan again says to rebuild."""
    from workbench.build.suite import regenerate

    raw = json.loads(scanned.read_text())
    raw["degrade"]["version"] = 99
    old = tmp_path / scanned.name
    old.write_text(json.dumps(raw))
    (tmp_path / f"{raw['id']}.pdf").write_bytes(scanned.with_suffix(".pdf").read_bytes())
    case = load_case(old)
    assert case.degrade.version == 99 and case.to_json()["degrade"]["version"] == 99
    code, out, err = cli("grade", old, "--answer", case.expected_answer)
    assert code == 0 and "PASS" in out, err
    with pytest.raises(UserError) as refused:
        regenerate(case)
    assert "scan pipeline version 99" in str(refused.value) and "rebuild the suite" in str(refused.value)
