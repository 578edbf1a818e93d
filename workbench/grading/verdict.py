"""A verdict: what the grader found in one answer, and a line a person can read about it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from workbench.core.schema import JSONObject

if TYPE_CHECKING:
    from workbench.text.search import Part


@dataclass
class Verdict:
    """One answer graded: the parts found and missing, the trap's, the flags and the reason."""

    case_id: str
    matcher: str
    correct: bool
    parts: list[Part] = field(default_factory=list)          # every expected part, matched or not
    forbidden: list[Part] = field(default_factory=list)      # forbidden answers the answer contains
    fell_for_trap: bool = False
    refused: bool = False
    hedged: bool = False
    reason: str = ""
    precision: float | None = None                           # `fields` matcher only
    recall: float | None = None
    f1: float | None = None
    details: JSONObject = field(default_factory=dict)        # matcher-specific extras
    truncated: bool = False                                   # set by grade_record
    # The answer could not be read as the matcher needs (a `fields` answer with no JSON): a
    # grading state, not a wrong answer and never a trap.
    unparsable: bool = False

    @property
    def matched_expected(self) -> bool:
        return bool(self.parts) and all(p.matched for p in self.parts)

    @property
    def outcome(self) -> str:
        """One word: `pass`, `unparsable`, `trap` (answered the forbidden value), `refused` or `fail`."""
        if self.correct:
            return "pass"
        if self.unparsable:
            return "unparsable"
        if self.fell_for_trap:
            return "trap"
        if self.refused:
            return "refused"
        return "fail"

    def to_json(self) -> JSONObject:
        out: JSONObject = {
            "case_id": self.case_id,
            "matcher": self.matcher,
            "correct": self.correct,
            "outcome": self.outcome,
            "matched_expected": self.matched_expected,
            "parts": [p.to_json() for p in self.parts],
            "forbidden_matched": [p.to_json() for p in self.forbidden],
            "fell_for_trap": self.fell_for_trap,
            "refused": self.refused,
            "hedged": self.hedged,
            "truncated": self.truncated,
            "unparsable": self.unparsable,
            "reason": self.reason,
        }
        if self.f1 is not None:
            out.update(precision=self.precision, recall=self.recall, f1=self.f1)
        if self.details:
            out["details"] = self.details
        return out


# ---- the states of a run record, kept apart -------------------------------------------------

# Execution: did the call finish? Statuses outside these are counted as "errored".
EXECUTION_OF_STATUS = {
    "ok": "finished", "truncated": "finished", "refused": "finished",
    "error": "errored", "timeout": "timed_out", "blocked": "blocked", "cancelled": "cancelled",
}
# An agent reader's own ends (`workbench.grading.outcome.AGENT_ENDS`): scored as zero, not errors.
AGENT_EXECUTION = ("deadline", "turn_limit", "no_submission")
EXECUTION_STATES = ("finished", "errored", "timed_out", "blocked", "cancelled", *AGENT_EXECUTION)
TRUNCATION_REASONS = {"length", "max_tokens", "max_output_tokens", "MAX_TOKENS"}


def execution_state(status: str) -> str:
    return EXECUTION_OF_STATUS.get(status, "errored")


def is_truncated(status: str, finish_reason: str | None) -> bool:
    """Completeness: the answer was cut off (by status, or a finish reason that says so)."""
    return status == "truncated" or (finish_reason or "") in TRUNCATION_REASONS
