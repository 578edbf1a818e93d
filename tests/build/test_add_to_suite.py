"""Adding a case to a suite: `make --into`, refusing to overwrite, refusing lint errors unasked."""

from __future__ import annotations

import json

import pytest

from workbench.build.make import generate_case
from workbench.build.saving import CaseExists, LintRefused, add_to_suite
from workbench.build.suite import verify_suite
from workbench.core.errors import UserError
from workbench.core.suite import load_suite

FAMILY = "hidden_ocr_mismatch"


def test_make_into_builds_a_suite_case_by_case_and_it_verifies(cli, tmp_path):
    suite = tmp_path / "mine"
    code, out, err = cli("make", FAMILY, "--seed", "2", "--into", suite)
    assert code == 0, err
    assert "a new suite" in out and "suite hash" in out
    code, out, err = cli("make", FAMILY, "--seed", "3", "--into", suite)
    assert code == 0, err and "added" in out
    manifest = json.loads((suite / "suite.json").read_text())
    assert [e["id"] for e in manifest["cases"]] == [f"{FAMILY}-0002", f"{FAMILY}-0003"]
    results, digest, recorded = verify_suite(suite)
    assert all(r.ok for r in results) and digest == recorded == manifest["suite_hash"]


def test_make_into_refuses_an_existing_id_and_leaves_the_suite_as_it_was(cli, tmp_path):
    suite = tmp_path / "mine"
    assert cli("make", FAMILY, "--seed", "2", "--into", suite)[0] == 0
    before = {p.name: p.read_bytes() for p in suite.iterdir() if p.is_file()}
    code, out, err = cli("make", FAMILY, "--seed", "2", "--param", "line_items=2", "--id",
                         f"{FAMILY}-0002", "--into", suite)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "already exists" in err and "--overwrite" in err
    assert {p.name: p.read_bytes() for p in suite.iterdir() if p.is_file()} == before
    code, out, err = cli("make", FAMILY, "--seed", "2", "--param", "line_items=2", "--id",
                         f"{FAMILY}-0002", "--into", suite, "--overwrite")
    assert code == 0 and "replaced" in out
    case = load_suite(suite).case(f"{FAMILY}-0002")
    assert case.params["line_items"] == 2
    results, digest, recorded = verify_suite(suite)
    assert all(r.ok for r in results) and digest == recorded


def test_make_out_no_longer_overwrites_silently(cli, tmp_path):
    assert cli("make", FAMILY, "--seed", "4", "--out", tmp_path)[0] == 0
    pdf = (tmp_path / f"{FAMILY}-0004.pdf").read_bytes()
    code, _, err = cli("make", FAMILY, "--seed", "4", "--param", "line_items=1", "--id",
                       f"{FAMILY}-0004", "--out", tmp_path)
    assert code == 2 and "already exists" in err and "--overwrite" in err
    assert (tmp_path / f"{FAMILY}-0004.pdf").read_bytes() == pdf
    code, _, err = cli("make", FAMILY, "--seed", "4", "--param", "line_items=1", "--id",
                       f"{FAMILY}-0004", "--out", tmp_path, "--overwrite")
    assert code == 0, err
    assert (tmp_path / f"{FAMILY}-0004.pdf").read_bytes() != pdf
    assert not (tmp_path / "suite.json").exists()


def test_lint_errors_are_refused_unless_confirmed(tmp_path):
    case, pdf = generate_case(FAMILY, 5)
    errors = ["forbidden-not-hidden: forbidden '$1.00' is in no hidden text"]
    with pytest.raises(LintRefused, match="1 lint error.*forbidden-not-hidden.*--allow-lint-errors"):
        add_to_suite(tmp_path / "s", case, pdf, lint_errors=errors)
    assert not (tmp_path / "s" / f"{case.id}.json").exists()
    added = add_to_suite(tmp_path / "s", case, pdf, lint_errors=errors, save_with_lint_errors=True)
    assert added.new_suite and not added.replaced and added.json_path.exists()
    with pytest.raises(CaseExists):
        add_to_suite(tmp_path / "s", case, pdf)
    with pytest.raises(UserError, match="case id"):
        add_to_suite(tmp_path / "s", case, pdf, case_id="../escape")


def test_into_a_file_is_one_line(cli, tmp_path):
    (tmp_path / "file").write_text("x")
    code, _, err = cli("make", FAMILY, "--into", tmp_path / "file")
    assert code == 2 and "not a folder" in err and err.count("\n") == 1
