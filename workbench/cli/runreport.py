"""The report a run prints when it ends (a live run, or a provider batch once collected), and its gate."""

from __future__ import annotations

from pathlib import Path

from workbench.cli.output import print_json
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.runs import RunRecord
from workbench.core.suite import load_suite
from workbench.gold.versions import GoldChoice, cases_at, choose
from workbench.grading.cost import load_prices
from workbench.grading.junit import write_junit
from workbench.grading.report import build_report
from workbench.grading.report_text import render_report_text
from workbench.grading.stats import gate_failure


def suite_cases(folder: Path) -> tuple[dict[str, Case], GoldChoice | None]:
    """The suite's cases at its newest gold, and that choice (`workbench.gold.versions`): what a
    run's report grades against. A suite that moved: no cases (reported without keys)."""
    try:
        suite = load_suite(Path(folder))
        choice = choose(suite.folder)
        return cases_at(suite.folder, choice.used, suite), choice
    except UserError:
        return {}, None


def print_run_report(records: list[RunRecord], cases_by_id: dict[str, Case], json_out: bool, junit: Path | None,
                     threshold: float | None = None, prices: Path | None = None,
                     gold: GoldChoice | None = None) -> str | None:
    """Print the grading report; return why the run fails the gate (None when it passes).
    `gold`: the `GoldChoice` the cases are at, named in the report."""
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
