"""The prompt a reader is sent around a case's question (core/prompt.py): the same words in our
runs and in the suite exported for other harnesses."""

from __future__ import annotations

from tests.support.fixtures import ONE_CASE
from workbench.core.case import load_case
from workbench.core.prompt import default_prompt


def test_the_prompt_asks_for_the_answer_alone_from_the_document_only():
    case = load_case(ONE_CASE)
    assert default_prompt(case) == (
        "Answer the question using only the attached document. Reply with the answer alone, with no "
        f"explanation.\n\nQuestion: {case.question}")


def test_the_suite_exported_for_other_harnesses_carries_the_same_prompt():
    from workbench.grading.export import _key_fields

    case = load_case(ONE_CASE)
    assert _key_fields(case)["prompt"] == default_prompt(case)
