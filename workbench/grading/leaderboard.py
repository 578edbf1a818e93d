"""Leaderboard rows: what a site publishes of a report, one row per reader (run), each with its
pass rate and Wilson 95% interval overall and per family, the suite hash and gold version it was
graded on, and a hash of the reader's configuration.

`configuration_sha256` is the sha256 of the canonical JSON of the reader, modalities, DPIs and
the sha256 of every prompt sent (in case order): two rows with the same hash asked the same
model the same questions the same way. Rates count scored calls only (finished, gradable,
complete), as the report does; calls that did not finish are in `error_rate`, never in the rate.
"""

from __future__ import annotations

import hashlib
import json

from workbench.core.schema import JSONObject
from workbench.grading.report import Report, RunReport, Stats, SuiteRef

LEADERBOARD_FORMAT = "pdfworkbench-leaderboard/1"


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def configuration_sha256(run: RunReport) -> str:
    records = sorted((r.record for r in run.rows), key=lambda rec: str(rec.case_id))
    blob = {
        "readers": sorted(run.readers), "modalities": sorted(run.modalities),
        "dpis": sorted(d for d in run.dpis if d is not None),
        "prompts": [hashlib.sha256(str(rec.prompt).encode("utf-8")).hexdigest() for rec in records],
    }
    return hashlib.sha256(json.dumps(blob, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _rate(s: Stats) -> JSONObject:
    ci = s.pass_ci
    return {"scored": s.scored, "passed": s.passed, "pass_rate": _r(s.pass_rate),
            "pass_rate_ci95": [_r(ci[0]), _r(ci[1])] if ci else None}


def leaderboard_row(run: RunReport) -> JSONObject:
    families: dict[str, Stats] = {}
    for row in run.rows:
        fam = row.family or "(unknown)"
        families.setdefault(fam, Stats(fam)).add(row)
    return {
        "reader": ", ".join(run.readers), "run": run.label, "modality": ", ".join(run.modalities),
        "dpi": [d for d in run.dpis if d is not None] or None,
        "calls": run.overall.calls, "error_rate": _r(run.overall.error_rate),
        "fell_for_trap": run.overall.fell_for_trap, **_rate(run.overall),
        "families": {name: _rate(families[name]) for name in sorted(families)},
        "provenance": run.provenance,
        "tool_versions": sorted({str(r.record.tool_version) for r in run.rows}),
        "configuration_sha256": configuration_sha256(run),
    }


def leaderboard(report: Report, gold: str | None = None) -> JSONObject:
    """The leaderboard document: the suite, the gold version, and one row per run, best first."""
    suite = report.suite or SuiteRef(None, None, None)
    rows = [leaderboard_row(run) for run in report.runs]
    rows.sort(key=lambda r: (-(r["pass_rate"] or 0.0), r["run"]))
    return {
        "format": LEADERBOARD_FORMAT,
        "suite": {"name": suite.name, "hash": suite.hash},
        "gold_version": gold or ("source" if suite.graded_by == "source" else "v1"),
        "interval": "Wilson score, 95%", "rate_over": "scored calls (finished, gradable, complete)",
        "rows": rows,
    }
