"""The save-into-suite service: the plan says what saving would do before anything is written
(the id, a case it would replace, the lint errors), and saving does only what was confirmed."""

from __future__ import annotations

import pytest

from workbench.build.make import generate_case
from workbench.build.saving import CaseExists, LintRefused, plan_save, save
from workbench.checks.findings import Finding
from workbench.core.errors import UserError
from workbench.core.suite import load_suite

FAMILY = "hidden_ocr_mismatch"


def test_the_plan_writes_nothing_and_names_what_the_user_must_confirm(tmp_path):
    case, pdf = generate_case(FAMILY, 2)
    findings = [Finding(case.id, "error", "forbidden-not-hidden", "forbidden '$1.00' is in no hidden text"),
                Finding(case.id, "warning", "tiny-text", "a warning does not block a save")]
    plan = plan_save(tmp_path / "s", case, pdf, case_id=" mine-1 ", findings=findings,
                     problems=["the expected answer is not on the page"])
    assert not (tmp_path / "s").exists()
    assert plan.case_id == "mine-1" and not plan.exists
    assert plan.lint_errors == ("forbidden-not-hidden: forbidden '$1.00' is in no hidden text",
                                "the expected answer is not on the page")
    with pytest.raises(LintRefused, match="2 lint error"):
        save(plan)
    assert not (tmp_path / "s").exists()
    added = save(plan, with_lint_errors=True)
    assert added.new_suite and added.json_path == tmp_path / "s" / "mine-1.json"
    assert [c.id for c in load_suite(tmp_path / "s").cases] == ["mine-1"]

    again = plan_save(tmp_path / "s", case, pdf, case_id="mine-1")
    assert again.exists and again.lint_errors == ()
    before = (tmp_path / "s" / "suite.json").read_bytes()
    with pytest.raises(CaseExists, match="already exists"):
        save(again)
    assert (tmp_path / "s" / "suite.json").read_bytes() == before
    replaced = save(again, overwrite=True)
    assert replaced.replaced and not replaced.new_suite


def test_the_plan_refuses_a_bad_id_or_a_file_for_a_folder_in_one_line(tmp_path):
    case, pdf = generate_case(FAMILY, 2)
    with pytest.raises(UserError, match="case id"):
        plan_save(tmp_path / "s", case, pdf, case_id="../escape")
    (tmp_path / "file").write_text("x")
    with pytest.raises(UserError, match="not a folder"):
        plan_save(tmp_path / "file", case, pdf)
