"""An answer's outcome: the one word every view of a run record uses (report, JUnit, regrade, the
CLI and every screen), derived from the record and the answer key at read time.

The words, and which count in the metric:

- `pass`, `fail`, `trap` (gave the forbidden answer), `refused`: a finished, complete answer,
  graded against the key: these are scored;
- `unparsable`: the answer is not in the form the matcher reads (a `fields` answer with no JSON):
  a grading state, not a wrong answer and never a trap; kept out of the metric;
- `truncated`: cut off by a token limit; graded for display but kept out of the metric;
- `errored`, `timed_out`, `blocked`, `cancelled`: the call did not finish; never a wrong answer;
- `deadline`, `turn_limit`, `no_submission`: an agent reader (`agent:...`, `mcp:...`) ran out of
  time or turns, or stopped without submitting: its one attempt at the case, scored as zero (the
  mean is over every case an agent was given), and shown apart from wrong answers;
- `no_key`: there is no answer key to grade against. An imported record that carries its source's
  verdict (pdfhell) is shown with that verdict instead, labelled (`source_verdict`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from workbench.core.case import Case
from workbench.grading.verdict import Verdict, execution_state, is_truncated

if TYPE_CHECKING:
    from workbench.core.runs import RunRecord

# An agent's end -> the outcome word for it (its record's status: timeout, turn_limit, no_submission).
AGENT_ENDS = {"timeout": "deadline", "turn_limit": "turn_limit", "no_submission": "no_submission"}
SCORED = ("pass", "fail", "trap", "refused", *AGENT_ENDS.values())
NOT_FINISHED = ("errored", "timed_out", "blocked", "cancelled")
OUTCOMES = (*SCORED, "unparsable", "truncated", *NOT_FINISHED, "no_key")
NOT_SCORED = ("unparsable", "truncated", *NOT_FINISHED, "no_key")
# Outcomes that are a wrong answer with something in it to trace back to the document.
WRONG_ANSWERS = ("fail", "trap")
NO_KEY_REASON = "no answer key for this case"
OWN_QUESTION_REASON = "asked your own question: the case's key answers another one"


@dataclass(frozen=True)
class Outcome:
    """What became of one record: its word, the four states behind it, and the verdict if graded."""

    kind: str                   # one of OUTCOMES
    execution: str              # finished | errored | timed_out | blocked | cancelled
    complete: bool              # not truncated
    verdict: Verdict | None     # None when the call did not finish or there is no key
    error: str | None = None    # the error line, when the call did not finish
    note: str | None = None     # why there is no key, when it is not the case's lack of one

    @property
    def gradable(self) -> bool:
        return self.verdict is not None and not self.verdict.unparsable

    @property
    def scored(self) -> bool:
        """Counted in the metric: graded and complete."""
        return self.gradable and self.complete

    @property
    def passed(self) -> bool:
        return self.kind == "pass"

    @property
    def failed(self) -> bool:
        """A scored answer that did not pass (wrong, fell for the trap, refused)."""
        return self.kind in SCORED and self.kind != "pass"

    @property
    def reason(self) -> str:
        """A line a person reads: the verdict's reason, the error line, or why it was not graded."""
        if self.verdict is not None:
            return self.verdict.reason
        if self.kind == "no_key":
            return self.note or NO_KEY_REASON
        return self.error or self.kind


def error_line(record: RunRecord) -> str | None:
    """The record's error as one line: `type (HTTP n): message`; None for a call that finished."""
    err = record.call_error
    if err is None:
        return None if record.status == "ok" else record.status
    return err.line(record.status)


def has_key(case: Case | None) -> bool:
    """A case with a question to grade against (a bare PDF opened for viewing has none)."""
    return case is not None and bool(case.question)


def _agent(reader: str) -> bool:
    """`runs.is_agent_reader`, its module loaded here: `grade --explain` reads this one for its
    words alone (`WRONG_ANSWERS`), and a caller with records has loaded it already."""
    from workbench.core.runs import is_agent_reader

    return is_agent_reader(reader)


def outcome_of(record: RunRecord, case: Case | None) -> Outcome:
    """Grade one record against `case`'s key (None: no key) and say what became of it."""
    status = str(record.status)
    execution = execution_state(status)
    complete = not is_truncated(status, record.finish_reason)
    if status in AGENT_ENDS and _agent(record.reader) and has_key(case):
        kind = AGENT_ENDS[status]
        line = error_line(record) or kind
        zero = Verdict(case_id=str(record.case_id), matcher="agent", correct=False,
                       reason=f"scored zero: {line}", details={"agent_end": kind})
        return Outcome(kind, kind, True, zero, line)
    if execution != "finished":
        return Outcome(execution, execution, complete, None, error_line(record))
    if not has_key(case):
        source = source_verdict(record)
        if source is not None:
            return Outcome(source.outcome, execution, complete, source)
        return Outcome("no_key", execution, complete, None)
    if record.extra.get("question", case.question) != case.question:
        # The author asked their own question: the key answers another one.
        return Outcome("no_key", execution, complete, None, note=OWN_QUESTION_REASON)
    assert case is not None
    # (the matchers and the text search they load, here: the workbench's first frame imports
    # this module for its words, and grades nothing before it)
    from workbench.grading.matchers import grade_record

    verdict = grade_record(case, record)
    assert verdict is not None   # a finished call is always graded
    return Outcome(verdict.outcome if complete else "truncated", execution, complete, verdict)


def source_verdict(record: RunRecord) -> Verdict | None:
    """The verdict an imported record carries from the tool that graded it (pdfhell), for a run
    reported without its cases; labelled as the source's, never regraded."""
    extra = getattr(record, "extra", None) or {}
    graded = extra.get("pdfhell")
    if getattr(record, "provenance", "") != "imported" or not isinstance(graded, dict) or "correct" not in graded:
        return None
    correct = bool(graded.get("correct"))
    fell = bool(graded.get("fell_for_trap")) and not correct
    refused = bool(graded.get("refused")) and not correct
    matched = graded.get("matched_forbidden") or []
    if correct:
        reason = "correct"
    elif fell:
        names = ", ".join(map(str, matched if isinstance(matched, list) else [matched])) or "a forbidden answer"
        reason = f"fell for the trap: answered {names}"
    elif refused:
        reason = "refused"
    else:
        reason = f"wrong (expected {graded.get('expected')!r})" if graded.get("expected") else "wrong"
    return Verdict(case_id=str(record.case_id), matcher="source", correct=correct, fell_for_trap=fell,
                   refused=refused, reason=f"as the source graded it: {reason}",
                   details={"graded_by": "source"})
