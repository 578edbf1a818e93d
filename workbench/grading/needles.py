"""The values of a case's key that a text should (or should not) hold, beyond the matcher's own
(`matchers.matcher_needles`, `matchers.forbidden_needles`): what a contract clause's target names
(`contract_targets`, the lint's and attribution's vocabulary too) and what the contract says the
page shows. Exposure (`providers.exposure`) and the olmOCR-bench export look for these."""

from __future__ import annotations

import re

from workbench.core.case import Case
from workbench.grading.matchers import forbidden_needles, matcher_needles

# What a contract clause may name: the key's expected answer, its tokens, its forbidden answers (all,
# or `forbidden:N`), or a value the generator recorded in the metadata (`meta:KEY`).
TARGET_PREFIXES = ("expected", "tokens", "forbidden", "meta:")


def contract_targets(case: Case, target: str) -> tuple[str, list[str]] | None:
    """(kind, values) for a contract target, or None if the target is malformed."""
    if target == "expected":
        return "expected", [case.expected_answer] if case.expected_answer.strip() else []
    if target == "tokens":
        return "tokens", list(case.expected_tokens)
    if target == "forbidden":
        return "forbidden", list(case.forbidden_answers)
    m = re.fullmatch(r"forbidden:(\d+)", target)
    if m:
        i = int(m.group(1))
        return "forbidden", [case.forbidden_answers[i]] if i < len(case.forbidden_answers) else []
    if target.startswith("meta:") and len(target) > 5:
        key = target[5:]
        if key not in case.metadata:
            return "meta", None  # type: ignore[return-value]
        value = case.metadata[key]
        values = value if isinstance(value, list) else [value]
        return "meta", [str(v) for v in values if str(v).strip()]
    return None


def printed_values(case: Case) -> tuple[set[str], list[str]]:
    """What the case's contract says is visible on the page: the forbidden answers among it (named
    as `forbidden` or by their metadata key, as `meta:decoy`), and the other values, in order."""
    forbidden = set(forbidden_needles(case))
    decoys: set[str] = set()
    values: list[str] = []
    for clause in case.contract or []:
        found = contract_targets(case, clause.target) if clause.where == "visible" else None
        for value in (found[1] or []) if found else []:
            if found[0] == "forbidden" or value in forbidden:
                decoys.add(value)
            elif value not in values:
                values.append(value)
    return decoys, values


def expected_needles(case: Case) -> list[str]:
    """The expected values a document's text should hold: the matcher's, except for an extraction
    whose key is a JSON object (no text of the page), whose values the page shows (its contract's
    visible values that are not decoys)."""
    if case.answer_schema is not None and not case.expected_tokens:
        return printed_values(case)[1]
    return [str(n) for n in matcher_needles(case) if str(n).strip()]
