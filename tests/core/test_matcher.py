"""A case's matcher (workbench/core/matcher.py), read where the case is read: its options in their
key order, and a bad one refused in one line naming the file and the field."""

from __future__ import annotations

import pytest

from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.matcher import MatcherSpec


def test_a_matcher_keeps_its_key_order_and_an_absent_type():
    raw = {"tolerance": 0.5, "type": "numeric", "value": "12"}
    assert list(MatcherSpec.parse(raw).to_json()) == ["tolerance", "type", "value"]
    spec = MatcherSpec.parse({"value": 3, "no_hedge": False})
    assert spec.kind == "contains" and spec.to_json() == {"value": 3, "no_hedge": False}
    assert spec.replace(value=None).to_json() == {"no_hedge": False}


@pytest.mark.parametrize(("matcher", "needle"), [
    ({"type": "regex"}, "unknown matcher 'regex'"),
    ({"type": "numeric", "tolerence": 1}, "unknown matcher option 'tolerence'"),
    ({"type": "numeric", "tolerance": "a bit"}, "option 'tolerance' must be a number"),
    ({"type": "tokens_all", "tokens": "a b"}, "option 'tokens' must be a list of strings"),
    ({"type": "keywords_all", "no_hedge": "yes"}, "option 'no_hedge' must be true or false"),
])
def test_a_bad_matcher_is_refused_where_the_case_is_read(matcher, needle):
    raw = {"id": "c", "question": "q?", "expected_answer": "1", "matcher": matcher}
    with pytest.raises(UserError) as err:
        Case.from_json(raw, "suite/c.json")
    assert str(err.value).startswith("suite/c.json: matcher: ") and needle in str(err.value)
