"""The structured gold of an extraction case (workbench/core/extraction.py), read where the case is
read: a bad field, normaliser, threshold or evidence box is refused in one line naming the file."""

from __future__ import annotations

import json

import pytest

from tests.support.fixtures import SAMPLES
from workbench.core.case import Case
from workbench.core.errors import UserError


@pytest.mark.parametrize(("change", "needle"), [
    (lambda g: g["fields"]["invoice.tax"].update(normalizer="nearly"), "unknown normalizer 'nearly'"),
    (lambda g: g["fields"]["invoice.tax"].update(threshold="high"), "threshold must be a number"),
    (lambda g: g["evidence"]["invoice.tax"].update(box=[1, 2, 3]), "box must be four numbers"),
    (lambda g: g.update(pass_f1="all"), "gold pass_f1 must be a number"),
    (lambda g: g.update(rubric={}), "unknown key 'rubric'"),
])
def test_bad_structured_gold_is_refused_where_the_case_is_read(change, needle):
    raw = json.loads(next((SAMPLES / "extraction").glob("invoice_extraction-*.json")).read_text(encoding="utf-8"))
    change(raw["gold"])
    with pytest.raises(UserError) as err:
        Case.from_json(raw, "suite/c.json")
    assert str(err.value).startswith("suite/c.json: gold: ") and needle in str(err.value)
