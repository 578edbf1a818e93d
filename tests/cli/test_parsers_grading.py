"""The grading commands' options (workbench/cli/parsers/grading.py; named for the subpackage, since
tests/cli/test_grading.py would read as the grading layer's): --fail-threshold as a fraction or a
percentage, or one line; an answer given one way only; the export's formats."""

from __future__ import annotations

import pytest

from tests.support.cli import refused
from workbench.cli.parsers.grading import threshold
from workbench.core.errors import UserError


def test_a_threshold_is_a_fraction_or_a_percentage():
    assert threshold(None) is None
    assert threshold("0.8") == 0.8 and threshold(" 80% ") == 0.8 and threshold("0") == 0.0 and threshold("100%") == 1.0
    for bad in ("1.5", "-0.1", "eighty", "80%%", ""):
        with pytest.raises(UserError, match=r"give a fraction like 0\.8 or a percentage like 80%"):
            threshold(bad)


def test_an_answer_is_given_one_way_and_an_export_names_a_known_format(command, suite):
    code, _out, err = command("grade", suite / "x.json", "--answer", "1", "--batch", "a.jsonl")
    assert code == 2 and "not allowed with argument" in err
    code, _out, err = command("export", suite, "--to", "csv", "--out", "out")
    assert code == 2 and "invalid choice: 'csv'" in err
    refused(command("report", "run.jsonl", "--fail-threshold", "2"), "--fail-threshold '2'")
