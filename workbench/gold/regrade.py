"""Regrade saved answers against any gold version, with no model call, and list the verdicts that flip.

Outcomes are the report's (`workbench.grading.outcome`): `pass`, `fail`, `trap`, `refused`,
`truncated`, or why the call did not finish. A flip is a record whose outcome differs between two
gold versions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.runs import RunRecord, iter_records
from workbench.core.schema import JSONObject
from workbench.core.suite import Suite, load_suite
from workbench.gold.journal import Dispute, load_disputes
from workbench.gold.versions import apply_disputes, case_with_key, gold_keys
from workbench.grading.outcome import Outcome, outcome_of


@dataclass
class Flip:
    case_id: str
    reader: str
    modality: str
    dpi: int | None
    run: str                  # run file
    line: int                 # record number in the run file, from 1
    before: str               # outcome under the `against` version (or without the dispute)
    after: str                # outcome under the `gold` version (or with the dispute's decision)
    before_reason: str
    after_reason: str
    answer: str | None

    def to_json(self) -> JSONObject:
        return dict(self.__dict__)


@dataclass
class RegradeResult:
    gold: str
    against: str
    records: int
    tallies: dict[str, dict[str, int]]      # version -> outcome -> count
    flips: list[Flip]
    skipped: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> JSONObject:
        return {"gold": self.gold, "against": self.against, "records": self.records,
                "tallies": self.tallies, "flips": [f.to_json() for f in self.flips],
                "skipped": self.skipped, "warnings": self.warnings}


@dataclass
class _Saved:
    run: str
    line: int
    record: RunRecord


def saved_records(paths: Iterable[Path]) -> list[_Saved]:
    out: list[_Saved] = []
    for path in paths:
        for n, rec in enumerate(iter_records(path), 1):
            out.append(_Saved(str(path), n, rec))
    return out


def _grade(case: Case, record: RunRecord) -> Outcome:
    return outcome_of(record, case)


def _flip(s: _Saved, before: Outcome, after: Outcome) -> Flip | None:
    if before.kind == after.kind:
        return None
    r = s.record
    return Flip(r.case_id, r.reader, r.modality, r.dpi, s.run, s.line, before.kind, after.kind,
                before.reason, after.reason, r.answer)


def regrade(run_paths: list[Path], folder: Path, gold: str = "latest", against: str = "v1") -> RegradeResult:
    """Grade every saved answer under `gold` and under `against`; report tallies and the flips."""
    folder = Path(folder)
    if not run_paths:
        raise UserError("no run files to regrade; give RUN.jsonl (runs are JSON Lines from `pdfworkbench run`)")
    suite = load_suite(folder)
    new = gold_keys(folder, gold, suite)
    old = gold_keys(folder, against, suite)
    new_cases = {c.id: case_with_key(c, new.keys[c.id], new.version.name) for c in suite.cases}
    old_cases = {c.id: case_with_key(c, old.keys[c.id], old.version.name) for c in suite.cases}
    saved = saved_records(run_paths)
    tallies: dict[str, dict[str, int]] = {new.version.name: {}, old.version.name: {}}
    flips: list[Flip] = []
    skipped: list[str] = []
    for s in saved:
        cid = s.record.case_id
        if cid not in new_cases:
            skipped.append(f"{s.run}:{s.line}: case {cid!r} is not in suite {suite.name!r}")
            continue
        after = _grade(new_cases[cid], s.record)
        before = after if new.version.number == old.version.number else _grade(old_cases[cid], s.record)
        pairs = {new.version.name: after, old.version.name: before}   # one entry when they are the same
        for name, v in pairs.items():
            tallies[name][v.kind] = tallies[name].get(v.kind, 0) + 1
        flip = _flip(s, before, after)
        if flip:
            flips.append(flip)
    warnings = list(dict.fromkeys(new.warnings + old.warnings))
    return RegradeResult(new.version.name, old.version.name, len(saved), tallies, flips, skipped, warnings)


def dispute_flips(folder: Path, disputes: list[Dispute], run_paths: list[Path]) -> dict[str, list[Flip]]:
    """For each dispute, the saved verdicts its decision would flip, measured from latest gold.

    An accepted dispute is measured by taking it out of latest gold; any other by putting it in.
    """
    folder = Path(folder)
    if not disputes or not run_paths:
        return {}
    suite = load_suite(folder)
    latest = gold_keys(folder, "latest", suite)
    by_case: dict[str, list[_Saved]] = {}
    for s in saved_records(run_paths):
        by_case.setdefault(s.record.case_id, []).append(s)
    cases = {c.id: c for c in suite.cases}
    all_disputes = {d.id: d for d in load_disputes(folder)}   # the caller may pass only some
    # Verdicts under latest gold, graded once per record and shared by every dispute of the case.
    latest_verdicts: dict[str, list[Outcome]] = {}

    def under_latest(case_id: str) -> list[Outcome]:
        if case_id not in latest_verdicts:
            case = case_with_key(cases[case_id], latest.keys[case_id])
            latest_verdicts[case_id] = [_grade(case, s.record) for s in by_case[case_id]]
        return latest_verdicts[case_id]

    out: dict[str, list[Flip]] = {}
    for d in disputes:
        if d.case_id not in cases or d.case_id not in by_case:
            out[d.id] = []
            continue
        if d.status == "accepted":
            other_key = _key_without(suite, all_disputes, latest.version.applied, d.id, d.case_id)
        else:
            other_key = _apply(latest.keys[d.case_id], d)
        if other_key is None:
            out[d.id] = []
            continue
        other_case = case_with_key(cases[d.case_id], other_key)
        flips = []
        for s, base in zip(by_case[d.case_id], under_latest(d.case_id), strict=True):
            other = _grade(other_case, s.record)
            # Accepted: latest has it, the other key does not; otherwise the other key adds it.
            f = _flip(s, other, base) if d.status == "accepted" else _flip(s, base, other)
            if f:
                flips.append(f)
        out[d.id] = flips
    return out


def _apply(key: JSONObject, dispute: Dispute) -> JSONObject | None:
    out, warnings = apply_disputes(key, [dispute])
    return None if any(w.startswith(f"{dispute.id}: not applied") for w in warnings) else out


def _key_without(suite: Suite, disputes: dict[str, Dispute], applied: list[str], dispute_id: str,
                 case_id: str) -> JSONObject | None:
    """Latest gold's key for `case_id` with every accepted dispute but `dispute_id` applied."""
    keep = [disputes[did] for did in applied if did != dispute_id and did in disputes
            and disputes[did].case_id == case_id]
    return apply_disputes(suite.case(case_id).answer_key(), keep)[0]
