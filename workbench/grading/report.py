"""Reports over run records: scores derived at read time from records and answer keys.

Four states are kept apart for every record and never collapsed into one number:

- execution: did the call finish (`finished`, `errored`, `timed_out`, `blocked`, `cancelled`);
- grading: could it be graded (it finished and its case's answer key is known);
- completeness: was the answer whole (not truncated by a token limit);
- the metric: pass / fail, with fell-for-trap and refusal alongside.

The metric's denominator is the graded, complete answers only. A call that did not finish is
counted and shown (the error rate) but is never a wrong answer; a truncated answer is graded for
display but kept out of the metric, like an error, because a cut-off answer says more about the
run's token budget than about the reader.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from workbench.core.case import NO_KEY_FAMILY, Case
from workbench.core.runs import RunRecord
from workbench.core.schema import JSONObject
from workbench.grading.cost import PriceTable, TokenTotals, usage_totals
from workbench.grading.outcome import NO_KEY_REASON, WRONG_ANSWERS, Outcome, outcome_of
from workbench.grading.shards import ShardCoverage, join_shards, shard_coverage
from workbench.grading.stats import rate, wilson
from workbench.grading.verdict import AGENT_EXECUTION, EXECUTION_STATES, Verdict

REPORT_FORMAT = "pdfworkbench-report/1"
GROUPINGS = ("family", "tier", "reader", "modality", "tool-use")  # and "param:NAME"
# The three hashes an agent's record carries (providers/agent/loop.py): two agent results are
# comparable only when all three match.
AGENT_HASHES = ("contract_hash", "reader_hash", "controller_hash")
# `--by tool-use`: what an agent looked at before it answered.
TOOL_USE_GROUPS = ("text only", "image only", "text and image", "pages never opened")


def hashes_of(record: RunRecord) -> tuple[str, str, str] | None:
    extra = record.extra or {}
    if not all(extra.get(k) for k in AGENT_HASHES):
        return None
    return tuple(str(extra[k]) for k in AGENT_HASHES)  # type: ignore[return-value]


def mixed_hashes(records: Sequence[RunRecord]) -> str | None:
    """One line when agent records carry more than one (contract, reader, controller) hash triple."""
    seen: dict[tuple[str, str, str], str] = {}
    for r in records:
        h = hashes_of(r)
        if h is not None:
            seen.setdefault(h, str(r.reader))
    if len(seen) < 2:
        return None
    shown = "; ".join(f"{reader}: contract {c[:12]}, reader {rd[:12]}, controller {ct[:12]}"
                      for (c, rd, ct), reader in list(seen.items())[:3])
    return (f"these runs hold agent results of {len(seen)} different configurations ({shown}); they are not "
            "comparable: report them apart, or give --allow-mixed")


def agent_calls(record: RunRecord) -> list[tuple[int, JSONObject]]:
    """(turn, call) of each tool call an agent's record holds (`extra.agent.turns`), in order;
    empty for any other reader."""
    turns = ((record.extra or {}).get("agent") or {}).get("turns") or []
    return [(turn["turn"] if isinstance(turn.get("turn"), int) else n, t)
            for n, turn in enumerate(turns, 1) if isinstance(turn, dict)
            for t in turn.get("tools") or [] if isinstance(t, dict)]


def tool_use_of(record: RunRecord) -> str:
    """What an agent opened: page text, page images, both, or no page at all."""
    used = {t.get("tool") for _, t in agent_calls(record) if not t.get("error")}
    text, image = "page_text" in used, "page_image" in used
    return TOOL_USE_GROUPS[0 if text and not image else 1 if image and not text else 2 if text else 3]


@dataclass
class Row:
    """One record as the report sees it."""

    run: str
    case_id: str
    family: str | None
    group: str
    reader: str
    modality: str
    dpi: int | None
    status: str
    result: Outcome     # the record's outcome (workbench.grading.outcome), graded once
    record: RunRecord
    provenance: str
    key_changed: bool = False
    # Where a wrong answer came from (`pdf.attribution`), when the report was asked `--by source`.
    source: str | None = None
    attribution: list[JSONObject] | None = None
    # For an agent's answer: where its value came from, joined with the pages it read
    # (`checks.agent_trace.read_rows`).
    agent_read: str | None = None
    gold: str | None = None   # the gold version the verdict was graded against (None: no key)

    @property
    def outcome(self) -> str:
        """pass | fail | trap | refused | truncated | errored | timed_out | blocked | cancelled | no_key"""
        return self.result.kind

    @property
    def execution(self) -> str:
        return self.result.execution

    @property
    def gradable(self) -> bool:
        return self.result.gradable

    @property
    def complete(self) -> bool:
        return self.result.complete

    @property
    def verdict(self) -> Verdict | None:
        return self.result.verdict

    @property
    def error(self) -> str | None:
        return self.result.error

    @property
    def answer(self) -> str | None:
        return self.record.answer

    @property
    def scored(self) -> bool:
        return self.result.scored

    @property
    def reason(self) -> str:
        if self.outcome == "no_key":
            if self.record.trap_family == NO_KEY_FAMILY:   # (`ask PDF`: no suite holds a key for it)
                return f"{NO_KEY_REASON}: a PDF asked without one (adopt it into a suite to key it)"
            return f"{NO_KEY_REASON} (give --suite)"
        return self.result.reason

    def to_json(self) -> JSONObject:
        return {
            "case_id": self.case_id, "family": self.family, "group": self.group,
            "reader": self.reader, "modality": self.modality, "dpi": self.dpi,
            "status": self.status, "execution": self.execution, "gradable": self.gradable,
            "complete": self.complete, "scored": self.scored, "outcome": self.outcome,
            "reason": self.reason, "answer": self.answer, "error": self.error,
            "provenance": self.provenance, "key_changed": self.key_changed, "gold": self.gold,
            "verdict": self.verdict.to_json() if self.verdict else None,
            **({"source": self.source, "attribution": self.attribution} if self.source else {}),
            **({"agent_read": self.agent_read} if self.agent_read else {}),
        }


@dataclass
class SourceTally:
    """How one group's wrong answers divide between the sources they came from."""

    group: str
    wrong: int = 0
    sources: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> JSONObject:
        out: JSONObject = {}
        for source, n in sorted(self.sources.items(), key=lambda kv: (-kv[1], kv[0])):
            lo, hi = wilson(n, self.wrong)
            out[source] = {"count": n, "share": round(n / self.wrong, 6), "ci95": [round(lo, 6), round(hi, 6)]}
        return {"group": self.group, "wrong": self.wrong, "sources": out}


# Why a wrong answer was left untraced, as the text and the HTML reports say it (with the flag
# that raises the limit, `limits.flag("forensic_pages")`).
UNTRACED_WHY = "the PDF could not be read, or has more pages than the forensic_pages limit"


def untraced(rows: Sequence[Row]) -> int:
    """Wrong answers with an answer that were not traced (`--by source`: their PDF could not be
    read, or has more pages than the `forensic_pages` limit): not in `source_tallies`."""
    return sum(1 for r in rows if r.outcome in WRONG_ANSWERS and r.answer and r.source is None)


def source_tallies(rows: Sequence[Row], by: str | None = None) -> list[SourceTally]:
    """Wrong answers by source: one tally for all rows, or one per family or reader (`by`)."""
    tallies: dict[str, SourceTally] = {}
    for row in rows:
        if row.source is None or row.outcome not in WRONG_ANSWERS:
            continue
        group = "all" if by is None else str(getattr(row, by) or "unknown")
        t = tallies.setdefault(group, SourceTally(group))
        t.wrong += 1
        t.sources[row.source] = t.sources.get(row.source, 0) + 1
    return [tallies[g] for g in sorted(tallies)]


@dataclass
class Stats:
    group: str
    calls: int = 0
    execution: dict[str, int] = field(default_factory=lambda: dict.fromkeys(EXECUTION_STATES, 0))
    gradable: int = 0
    truncated: int = 0
    scored: int = 0
    passed: int = 0
    fell_for_trap: int = 0
    refused: int = 0
    hedged: int = 0

    def add(self, row: Row) -> None:
        self.calls += 1
        self.execution[row.execution] = self.execution.get(row.execution, 0) + 1
        if row.gradable:
            self.gradable += 1
            self.truncated += not row.complete
        if row.scored and row.verdict is not None:
            v = row.verdict
            self.scored += 1
            self.passed += v.correct
            self.fell_for_trap += v.fell_for_trap
            self.refused += v.refused and not v.correct
            self.hedged += v.hedged

    @property
    def agent_ends(self) -> int:
        """Agent cases that ran out of time or turns or were never submitted (scored as zero)."""
        return sum(self.execution.get(k, 0) for k in AGENT_EXECUTION)

    @property
    def not_finished(self) -> int:
        return self.calls - self.execution.get("finished", 0) - self.agent_ends

    @property
    def pass_rate(self) -> float | None:
        return rate(self.passed, self.scored)

    @property
    def pass_ci(self) -> tuple[float, float] | None:
        return wilson(self.passed, self.scored) if self.scored else None

    @property
    def error_rate(self) -> float | None:
        return rate(self.not_finished, self.calls)

    def to_json(self) -> JSONObject:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 6)

        ci = self.pass_ci
        return {
            # an agent's ends only where there were any: a run of plain calls keeps its shape
            "group": self.group, "calls": self.calls,
            "execution": {k: n for k, n in self.execution.items() if n or k not in AGENT_EXECUTION},
            "gradable": self.gradable, "not_gradable": self.calls - self.gradable,
            "complete": self.gradable - self.truncated, "truncated": self.truncated,
            "scored": self.scored, "passed": self.passed, "failed": self.scored - self.passed,
            "fell_for_trap": self.fell_for_trap, "refused": self.refused, "hedged": self.hedged,
            "pass_rate": r(self.pass_rate),
            "pass_rate_ci": [r(ci[0]), r(ci[1])] if ci else None,
            "fell_for_trap_rate": r(rate(self.fell_for_trap, self.scored)),
            "refusal_rate": r(rate(self.refused, self.scored)),
            "error_rate": r(self.error_rate),
        }


@dataclass
class RunReport:
    label: str
    rows: list[Row]
    overall: Stats
    groups: list[Stats]
    readers: list[str]
    modalities: list[str]
    dpis: list[int | None]
    provenance: list[str]
    shards: ShardCoverage | None = None    # a sharded run: which shards its records came from
    tokens: TokenTotals = field(default_factory=TokenTotals)   # usage, and cost with a price table
    hashes: dict[str, str] | None = None   # an agent run's contract, reader and controller hashes

    @property
    def key_changed(self) -> int:
        return sum(r.key_changed for r in self.rows)

    def final_rows(self) -> dict[str, Row]:
        """The last record of each case (a case called twice shows its latest answer)."""
        return {r.case_id: r for r in self.rows}

    def to_json(self, traced: bool = False) -> JSONObject:
        """`traced`: the wrong answers were traced (`--by source`), so `sources` is given even when
        none could be (its `untraced` count)."""
        out = {
            "label": self.label, "readers": self.readers, "modalities": self.modalities,
            "dpis": self.dpis, "provenance": self.provenance, "key_changed": self.key_changed,
            "overall": self.overall.to_json(), "groups": [g.to_json() for g in self.groups],
            "tokens": self.tokens.to_json(), "cases": [r.to_json() for r in self.rows],
            "shards": self.shards.to_json() if self.shards else None,
            "hashes": self.hashes,
        }
        if traced or any(r.source for r in self.rows):
            out["sources"] = {
                "overall": [t.to_json() for t in source_tallies(self.rows)],
                "by_family": [t.to_json() for t in source_tallies(self.rows, "family")],
                "by_reader": [t.to_json() for t in source_tallies(self.rows, "reader")],
                "untraced": untraced(self.rows),
            }
        return out


@dataclass
class SuiteRef:
    """The suite a report or a comparison graded against, as its caller found it: the folder's
    suite (its content hash, and `run_hash` when the run records another), or, with no folder,
    what the run says (`hash_from` "the run", verdicts `graded_by` "source")."""

    name: str | None
    hash: str | None
    folder: str | None
    hash_from: str | None = None
    graded_by: str | None = None
    run_hash: str | None = None

    def to_json(self) -> JSONObject:
        out: JSONObject = {"name": self.name, "hash": self.hash}
        if self.hash_from is not None:
            out["hash_from"] = self.hash_from
        out["folder"] = self.folder
        if self.graded_by is not None:
            out["graded_by"] = self.graded_by
        if self.run_hash is not None:
            out["run_hash"] = self.run_hash
        return out


@dataclass
class Difference:
    case_id: str
    outcomes: dict[str, str]          # run label -> outcome ("missing" when the run lacks the case)
    answers: dict[str, str | None]
    reasons: dict[str, str]

    def to_json(self) -> JSONObject:
        return {"case_id": self.case_id, "outcomes": self.outcomes, "answers": self.answers,
                "reasons": self.reasons}


@dataclass
class Report:
    by: str | None
    runs: list[RunReport]
    differences: list[Difference]
    unknown_cases: list[str]
    suite: SuiteRef | None = None   # when the caller knows it
    # The gold the verdicts used, {"version": "v2", "newest": "v2"} (`workbench.gold.versions`),
    # and the line that says so, when the caller chose it.
    gold: dict[str, str] | None = None
    gold_line: str | None = None

    def to_json(self) -> JSONObject:
        return {
            "format": REPORT_FORMAT, "by": self.by, "suite": self.suite.to_json() if self.suite else None,
            "gold": self.gold,
            "runs": [r.to_json(traced=self.by == "source") for r in self.runs],
            "differences": [d.to_json() for d in self.differences],
            "unknown_cases": self.unknown_cases,
        }


# ---- building -------------------------------------------------------------------------------

def group_of(by: str | None, case: Case | None, record: RunRecord) -> str:
    """The group a record falls in for `--by`: family, tier, reader, modality or param:NAME."""
    if not by:
        return "all"
    if by == "reader":
        return str(record.reader)
    if by == "modality":
        return str(record.modality)
    if by == "tool-use":
        return tool_use_of(record) if hashes_of(record) or record.modality == "tools" else "(not an agent)"
    if by == "family":
        return case.trap_family if case else str(getattr(record, "trap_family", None) or "(unknown)")
    if case is None:
        return "(unknown case)"
    if by == "tier":
        return case.degrade.tier if case.degrade else "none"
    if by.startswith("param:"):
        name = by.split(":", 1)[1]
        params = case.params or {}
        return str(params[name]) if name in params else "(unset)"
    raise ValueError(f"unknown grouping {by!r}; use family, tier, reader, modality or param:NAME")


def check_grouping(by: str | None) -> None:
    if by and by not in GROUPINGS and not (by.startswith("param:") and len(by) > 6):
        raise ValueError(f"--by {by!r}: use family, tier, reader, modality, tool-use or param:NAME (report also takes source and extractor)")


def make_row(label: str, record: RunRecord, case: Case | None, by: str | None,
             key_shas: dict[str, str] | None = None) -> Row:
    """One record's row. `key_shas` (case id -> its key's hash) keeps each key's hash for the
    next run's rows of the same case."""
    key_changed = False
    if case is not None and record.key_sha256:
        key_shas = {} if key_shas is None else key_shas
        if case.id not in key_shas:
            key_shas[case.id] = case.key_sha256()
        key_changed = record.key_sha256 != key_shas[case.id]
    return Row(
        run=label, case_id=str(record.case_id), family=case.trap_family if case else record.trap_family,
        group=group_of(by, case, record), reader=str(record.reader), modality=str(record.modality),
        dpi=record.dpi, status=str(record.status), result=outcome_of(record, case), record=record,
        provenance=str(record.provenance), key_changed=key_changed,
        gold=(case.gold_version or "v1") if case else None,   # a key as its file holds it is v1
    )


def _uniq(values: Sequence[Any]) -> list[Any]:
    out: list[Any] = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def split_runs(records: Sequence[RunRecord]) -> dict[str, list[RunRecord]]:
    """One flat list of records -> runs keyed by reader (plus modality and DPI when needed)."""
    keys = _uniq([(r.reader, r.modality, r.dpi) for r in records])
    readers = [k[0] for k in keys]
    out: dict[str, list[RunRecord]] = {}
    for r in records:
        label = str(r.reader)
        if readers.count(r.reader) > 1:
            label += f" [{r.modality}{f'@{r.dpi}dpi' if r.dpi else ''}]"
        out.setdefault(label, []).append(r)
    return out


def run_report(label: str, records: Sequence[RunRecord], cases_by_id: Mapping[str, Case], by: str | None,
               prices: PriceTable | None = None, on_row: Callable[[Row], None] | None = None,
               key_shas: dict[str, str] | None = None) -> RunReport:
    records, shards = shard_coverage(records)
    rows: list[Row] = []
    key_shas = {} if key_shas is None else key_shas
    for r in records:
        rows.append(make_row(label, r, cases_by_id.get(str(r.case_id)), by, key_shas))
        if on_row is not None:
            on_row(rows[-1])
    overall = Stats("all")
    groups: dict[str, Stats] = {}
    for row in rows:
        overall.add(row)
        groups.setdefault(row.group, Stats(row.group)).add(row)
    return RunReport(
        label=label, rows=rows, overall=overall,
        groups=[groups[k] for k in sorted(groups)] if by else [],
        readers=_uniq([r.reader for r in rows]), modalities=_uniq([r.modality for r in rows]),
        dpis=_uniq([r.dpi for r in rows]), provenance=_uniq([r.provenance for r in rows]),
        shards=shards,
        tokens=usage_totals(records, prices),
        hashes=_run_hashes(records),
    )


def _run_hashes(records: Sequence[RunRecord]) -> dict[str, str] | None:
    found = _uniq([h for h in map(hashes_of, records) if h is not None])
    if len(found) != 1:
        return {"mixed": f"{len(found)} configurations"} if found else None
    return dict(zip(AGENT_HASHES, found[0], strict=True))


def differences(runs: Sequence[RunReport]) -> list[Difference]:
    """Cases whose outcome differs between runs, side by side (empty with fewer than two runs)."""
    if len(runs) < 2:
        return []
    finals = [run.final_rows() for run in runs]
    ids = sorted({cid for f in finals for cid in f})
    out = []
    for cid in ids:
        outcomes = {run.label: (f[cid].outcome if cid in f else "missing") for run, f in zip(runs, finals, strict=True)}
        if len(set(outcomes.values())) > 1:
            out.append(Difference(
                cid, outcomes,
                {run.label: (f[cid].answer if cid in f else None) for run, f in zip(runs, finals, strict=True)},
                {run.label: (f[cid].reason if cid in f else "not in this run") for run, f in zip(runs, finals, strict=True)},
            ))
    return out


def build_report(
    records: Sequence[RunRecord] | Mapping[str, Sequence[RunRecord]],
    cases_by_id: Mapping[str, Case],
    by: str | None = None,
    prices: PriceTable | None = None,
    on_row: Callable[[Row], None] | None = None,
) -> Report:
    """A report over `records` (a list, split into runs by reader; or a mapping run label -> list);
    with `prices`, each run's tokens are priced. `on_row` sees each row as soon as it is graded
    (`report --html` sends the wrong answers' page crops to be made meanwhile)."""
    check_grouping(by)
    runs_in = join_shards(dict(records) if isinstance(records, Mapping) else split_runs(list(records)))
    key_shas: dict[str, str] = {}   # (each case's key hashed once for all runs)
    runs = [run_report(label, recs, cases_by_id, by, prices, on_row, key_shas) for label, recs in runs_in.items()]
    unknown = sorted({r.case_id for run in runs for r in run.rows if r.outcome == "no_key"})
    return Report(by=by, runs=runs, differences=differences(runs), unknown_cases=unknown)
