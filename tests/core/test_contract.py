"""A case's arming contract (workbench/core/contract.py), read where the case is read: a bad clause
is refused in one line naming the file, the clause and what is wrong."""

from __future__ import annotations

import pytest

from workbench.core.case import Case
from workbench.core.errors import UserError


@pytest.mark.parametrize(("contract", "needle"), [
    ([{"target": "expected", "where": "somewhere"}], "clause 1: where 'somewhere' is not one of visible, hidden"),
    ([{"target": "expected", "where": "visible"}, {"where": "hidden"}], "clause 2: a clause is an object with target and where"),
    ([{"target": "expected", "where": "visible", "role": "boss"}], "clause 1: role 'boss' is not one of instruction"),
    ([{"target": "expected", "where": "derived", "parts": "meta:x"}], "clause 1: parts must be a list"),
])
def test_a_bad_contract_clause_is_refused_where_the_case_is_read(contract, needle):
    raw = {"id": "c", "question": "q?", "expected_answer": "1", "contract": contract}
    with pytest.raises(UserError) as err:
        Case.from_json(raw, "suite/c.json")
    assert str(err.value).startswith("suite/c.json: contract: ") and needle in str(err.value)
