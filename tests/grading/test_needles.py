"""The values of a case's key a text should or should not hold (workbench/grading/needles.py): what
each contract target names, and what the contract says the page shows, decoys apart."""

from __future__ import annotations

import pytest

from workbench.core.case import Case
from workbench.core.contract import Arming
from workbench.grading.needles import contract_targets, expected_needles, printed_values


def _case() -> Case:
    return Case(id="c", trap_family="adopted", seed=0, pdf_path="c.pdf", question="What is due?",
                expected_answer="$10.00", forbidden_answers=["$99.00", "$98.00"],
                metadata={"decoy": "$99.00", "vendor": ["Acme", " "], "phone": "555-0100"},
                contract=(Arming("expected", "visible"), Arming("meta:decoy", "visible"),
                          Arming("meta:phone", "visible"), Arming("forbidden:1", "hidden")))


@pytest.mark.parametrize(("target", "named"), [
    ("expected", ("expected", ["$10.00"])),
    ("tokens", ("tokens", [])),
    ("forbidden", ("forbidden", ["$99.00", "$98.00"])),
    ("forbidden:1", ("forbidden", ["$98.00"])),
    ("forbidden:5", ("forbidden", [])),
    ("meta:vendor", ("meta", ["Acme"])),        # a list, its blank values left out
    ("meta:nope", ("meta", None)),              # a key the generator did not record
    ("meta:", None),
    ("nonsense", None),
])
def test_each_contract_target_names_its_values(target, named):
    assert contract_targets(_case(), target) == named


def test_the_page_shows_the_visible_values_with_the_forbidden_ones_apart():
    case = _case()
    assert printed_values(case) == ({"$99.00"}, ["$10.00", "555-0100"])
    assert expected_needles(case) == ["$10.00"]
