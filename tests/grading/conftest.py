"""Fixtures of the grading tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def graded_suite(tmp_path_factory):
    """A suite folder of 8 hidden_ocr_mismatch cases (seeds 1 to 8) and the cases, made once per
    test process; `fixtures.mixed_run(cases)` answers them. Only test_report writes into it (its
    runs/mixed.jsonl, read by no other test): copy it before writing anything else."""
    from workbench.build.make import generate_case
    from workbench.build.saving import add_case

    folder = tmp_path_factory.mktemp("suite")
    cases = []
    for seed in range(1, 9):
        case, pdf = generate_case("hidden_ocr_mismatch", seed)
        add_case(folder, case, pdf)
        cases.append(case)
    return folder, cases
