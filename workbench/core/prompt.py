"""The prompt a reader is sent around a case's question. Our runs send it, and the suites exported
for other harnesses carry it (`grading.export`), so an answer from either was asked the same way."""

from __future__ import annotations

from workbench.core.case import Case


def default_prompt(case: Case) -> str:
    """The question as sent to a reader, asking for the answer only."""
    return (
        "Answer the question using only the attached document. "
        "Reply with the answer alone, with no explanation.\n\n"
        f"Question: {case.question}"
    )
