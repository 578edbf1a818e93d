"""An answer key as a family makes it (workbench/core/key.py): written and read back the same, a
matcher given as JSON checked where the family hands the key over, and a bad field one line."""

from __future__ import annotations

import pytest

from workbench.core.errors import UserError
from workbench.core.key import AnswerKey
from workbench.core.matcher import MatcherSpec


def test_a_key_reads_back_what_it_writes_and_takes_its_matcher_as_json():
    key = AnswerKey("What is due?", "$10.00", "reads the struck-out figure", ["$99.00"], ["$10.00"],
                    {"type": "tokens_all"}, {"decoy": "struck"})
    assert key.matcher == MatcherSpec("tokens_all")
    again = AnswerKey.from_json(key.to_json())
    assert again == key and again.to_json() == key.to_json()
    assert AnswerKey.from_json({"question": "q?", "expected_answer": "1"}).matcher == MatcherSpec("contains")


@pytest.mark.parametrize(("raw", "needle"), [
    (["not", "an", "object"], "a key is an object with question, expected_answer"),
    ({"question": "q?", "answer": "1"}, "unknown key field 'answer'"),
    ({"question": 3}, "question must be text"),
    ({"forbidden_answers": "$99.00"}, "forbidden_answers must be a list of texts"),
    ({"metadata": ["x"]}, "metadata must be an object"),
    ({"matcher": {"type": "regex"}}, "matcher: unknown matcher 'regex'"),
])
def test_a_bad_field_is_one_line_naming_it(raw, needle):
    with pytest.raises(UserError) as err:
        AnswerKey.from_json(raw)
    assert needle in str(err.value) and "\n" not in str(err.value)
