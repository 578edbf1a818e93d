"""The report a run prints when it ends (a live run, or a provider batch once collected), and its gate."""

from __future__ import annotations

from pathlib import Path

from workbench.cli.output import print_json
from workbench.core.errors import UserError
from workbench.core.words import counted


def suite_cases(folder: Path) -> tuple[dict, object | None]:
    """The suite's cases at its newest gold, and that choice (`workbench.gold.versions`): what a
    run's report grades against. A suite that moved: no cases (reported without keys)."""
    from workbench.core.suite import load_suite
    from workbench.gold.versions import cases_at, choose

    try:
        suite = load_suite(Path(folder))
        choice = choose(suite.folder)
        return cases_at(suite.folder, choice.used, suite), choice
    except UserError:
        return {}, None


def print_run_report(records: list, cases_by_id: dict, json_out: bool, junit: Path | None,
                     threshold: float | None = None, prices: Path | None = None, gold=None) -> str | None:
    """Print the grading report; return why the run fails the gate (None when it passes).
    `gold`: the `GoldChoice` the cases are at, named in the report."""
    try:
        from workbench.grading import build_report, render_report_text, write_junit
    except ImportError:  # grading not installed: a minimal summary
        counts: dict[str, int] = {}
        for r in records:
            counts[r.status] = counts.get(r.status, 0) + 1
        if json_out:
            print_json({"calls": len(records), "statuses": counts})
        else:
            print(f"{counted(len(records), 'call')}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
        if junit:
            raise UserError("--junit needs workbench.grading, which is not installed") from None
        return None
    from workbench.grading.cost import load_prices
    from workbench.grading.stats import gate_failure

    report = build_report(records, cases_by_id, prices=load_prices(prices) if prices else None)
    if gold is not None:
        report.gold, report.gold_line = gold.to_json(), gold.line()
    if json_out:
        print_json(report.to_json())
    else:
        print(render_report_text(report))
    if junit:
        write_junit(report, junit)
    if not report.runs:
        return gate_failure(0, 0, 0, threshold)
    o = report.runs[0].overall
    return gate_failure(o.passed, o.scored, o.calls, threshold)
