"""The module `new-family` writes (workbench/generators/template.py): rendered under the name given,
it is a working family whose cases lint clean, whose disarmed setting is a lint error, and which
refuses a PO number equal to its decoy in one line."""

from __future__ import annotations

import pytest

from tests.support.families import lint_errors
from workbench.build.make import generate_case
from workbench.core.errors import UserError
from workbench.generators import template
from workbench.generators.registry import discover


@pytest.fixture(scope="module")
def family(tmp_path_factory):
    folder = tmp_path_factory.mktemp("families")
    (folder / "po_trap.py").write_text(template.render("po_trap"))
    reg = discover([folder])
    assert reg.problems == []
    return reg.get("po_trap"), folder


def test_the_template_takes_the_name_given_and_only_where_it_says():
    text = template.render("po_trap")
    assert "__NAME__" not in text and 'NAME = "po_trap"' in text and text.startswith('"""po_trap: ')
    assert template.NAME_PATTERN.match("po_trap") and not template.NAME_PATTERN.match("Po-Trap")


def test_its_cases_lint_clean_and_its_disarmed_setting_is_an_error(family, monkeypatch):
    fam, folder = family
    made = fam.generate(fam.resolve({}, 2), 2)
    assert made.key.expected_answer.startswith("PO-") and made.key.forbidden_answers[0] != made.key.expected_answer
    monkeypatch.setenv("PDFWORKBENCH_FAMILY_PATH", str(folder))
    case, pdf = generate_case("po_trap", 2)
    assert lint_errors(case, pdf) == []
    (disarm,) = fam.disarmed
    scanned, spdf = generate_case("po_trap", 2, dict(disarm.params), dict(disarm.degrade))
    assert lint_errors(scanned, spdf), "a scan without a text layer must disarm the template's trap"


def test_a_decoy_equal_to_the_answer_is_refused(family, monkeypatch):
    fam, folder = family
    monkeypatch.setenv("PDFWORKBENCH_FAMILY_PATH", str(folder))
    with pytest.raises(UserError, match="hidden_po_number must differ from po_number, or there is no trap"):
        generate_case("po_trap", 1, {"po_number": 12345, "hidden_po_number": 12345})
