"""`pdfworkbench report`: run records scored against their answer keys, as text, JSON, JUnit,
HTML, leaderboard rows or an audit pack; the gate (--fail-threshold) sets the exit code.

The report itself needs the keys and the records; `--by source`, `--by extractor` and `--html`
read the PDFs (and `--by extractor` the providers' probes), so their code loads with them alone.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.cli.logs import note
from workbench.cli.output import print_json
from workbench.cli.parsers.grading import threshold
from workbench.core import atomic, files
from workbench.core.case import NO_KEY_FAMILY, Case
from workbench.core.errors import UserError
from workbench.core.layout import SUITE_FILE
from workbench.core.suite import Suite, content_hash
from workbench.gold.versions import GoldChoice, cases_at, choose
from workbench.grading.auditpack import write_audit_pack
from workbench.grading.cost import load_prices
from workbench.grading.html import report_charts, write_report_html
from workbench.grading.junit import write_junit
from workbench.grading.leaderboard import leaderboard
from workbench.grading.loading import find_suite_folders, load_cases, load_runs
from workbench.grading.outcome import WRONG_ANSWERS, source_verdict
from workbench.grading.report import (
    Report,
    Row,
    SuiteRef,
    build_report,
    check_grouping,
    mixed_hashes,
)
from workbench.grading.report_text import render_report_text
from workbench.grading.stats import gate_failure

if TYPE_CHECKING:
    from workbench.checks.crops import CropMaker


def cmd_report(args: argparse.Namespace) -> int:
    # The files it will write, checked before the work, not after it: a folder, a link, a device
    # or a FIFO there is refused (never replaced by the write).
    for flag, name in (("--html", "html"), ("--leaderboard", "leaderboard"), ("--junit", "junit"),
                       ("--audit-pack", "audit_pack")):
        out = getattr(args, name)
        if out is not None and str(out) != "-":
            setattr(args, name, atomic.check_target(out, flag, follow=True))
    if not args.html:
        return _report(args, None)
    # (for --html alone; the PDF libraries load only in the workers, for crops the cache lacks)
    from workbench.checks.crops import CropMaker
    from workbench.core.cache import part_folder
    from workbench.grading.html.charts import engine_process

    # The charts' engine starts loading in a process of its own, then the crops' workers start
    # (both forked before this process has a thread), and make the crops of the wrong answers as
    # the grading finds them.
    with engine_process(), CropMaker(args.jobs, None if args.no_cache else part_folder("crops")) as crops:
        return _report(args, crops)


def _report(args: argparse.Namespace, crops: CropMaker | None) -> int:
    fail_below = threshold(args.fail_threshold)
    by_source, by_extractor = args.by == "source", args.by == "extractor"
    if by_source or by_extractor:
        args.by = None
    try:
        check_grouping(args.by)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    prices = load_prices(args.prices) if args.prices else None
    runs = load_runs(args.runs)
    all_records = [r for recs in runs.values() for r in recs]
    if not args.allow_mixed:
        mixed = mixed_hashes(all_records)
        if mixed:
            raise UserError(mixed)
    folders = find_suite_folders(args.runs, args.suite)
    recorded_hashes = {str((r.extra or {}).get("suite_hash")) for r in all_records if (r.extra or {}).get("suite_hash")}
    recorded_hash = recorded_hashes.pop() if len(recorded_hashes) == 1 else None
    if not folders:
        # (answers about PDFs asked bare, `ask PDF`, have no key anywhere: reported as such)
        if not all_records or any(source_verdict(r) is None and r.trap_family != NO_KEY_FAMILY
                                  for r in all_records if r.status == "ok"):
            raise UserError(f"no suite found for {args.runs[0]}: give --suite DIR (the folder with the cases)")
        if args.gold != "latest":
            raise UserError(f"--gold {args.gold}: no suite found for {args.runs[0]}, so no gold to choose; "
                            "give --suite DIR")
        cases: dict[str, Case] = {}
        suites: list[Suite] = []
        gold = None
    else:
        cases, suites, gold = _cases_at_gold(folders, args.gold)
    report = build_report(runs, cases, by=args.by, prices=prices,
                          on_row=None if crops is None else _wanting_crops(cases, crops))
    if gold is not None:
        report.gold, report.gold_line = gold.to_json(), gold.line()
    if by_source:
        _attribute_rows(report, cases, args.jobs, crops)
    exposure = _exposure(report, cases) if by_extractor else None
    if len(suites) == 1:
        s = suites[0]
        report.suite = SuiteRef(s.name, content_hash(s), str(s.folder))
        if recorded_hash and recorded_hash != report.suite.hash:
            report.suite.run_hash = recorded_hash   # another tool's hash (pdfhell's), or another content
    elif not folders:
        names = {r.suite for r in all_records if r.suite}
        report.suite = SuiteRef(names.pop() if len(names) == 1 else "(unknown)", recorded_hash, None,
                                hash_from="the run", graded_by="source")
    if args.leaderboard and str(args.leaderboard) == "-":
        print_json(leaderboard(report, gold.used if gold else None))
    elif args.json:
        print_json({**report.to_json(), **({"exposure": exposure[0]} if exposure else {})})
    else:
        sys.stdout.write(render_report_text(report))
        if exposure is not None:
            sys.stdout.write("\nby extractor: what of each case's key the answers hold\n" + exposure[1] + "\n")
    if args.leaderboard and str(args.leaderboard) != "-":
        atomic.write_json(args.leaderboard, leaderboard(report, gold.used if gold else None))
        note(f"wrote leaderboard rows to {args.leaderboard}")
    if crops is not None:
        _write_html(report, cases, args.html, crops)
    if args.junit:
        write_junit(report, args.junit)
        note(f"wrote JUnit XML to {args.junit}")
    if args.audit_pack:
        suite_json = None
        name = None
        if len(suites) == 1:
            name = suites[0].name
            manifest = suites[0].folder / SUITE_FILE
            suite_json = (files.read_bytes(manifest, "suite.json", within=suites[0].folder)
                          if manifest.exists() else None)
        digest = write_audit_pack(report, runs, cases, args.audit_pack, suite_json, name)
        note(f"wrote audit pack {args.audit_pack} (sha256 {digest[:12]})")
    failed = False
    for run in report.runs:
        o = run.overall
        why = gate_failure(o.passed, o.scored, o.calls, fail_below)
        if why:
            note(f"pdfworkbench: {run.label}: {why}")
            failed = True
        missing = run.shards.problem() if run.shards else None
        if missing:  # a run that is not whole fails the report, as a gate does
            note(f"pdfworkbench: {missing}")
            failed = True
    return 1 if failed else 0


def _cases_at_gold(folders: list[Path], version: str) -> tuple[dict[str, Case], list[Suite], GoldChoice]:
    """The cases of the suites at `folders` with their keys at gold `version` (latest: each
    suite's newest), the suites, and the first suite's choice (every row names its own)."""
    _, suites = load_cases(folders)
    cases: dict[str, Case] = {}
    choices = [choose(suite.folder, version) for suite in suites]
    for suite, choice in zip(suites, choices, strict=True):
        for cid, case in cases_at(suite.folder, choice.used, suite).items():
            cases.setdefault(cid, case)
    return cases, suites, choices[0]


def _attribute_rows(report: Report, cases: dict[str, Case], jobs: int | None, crops: CropMaker | None) -> None:
    """--by source: where each wrong answer's value came from in its PDF (on `jobs` processes;
    with --html, on the crops' workers, forked before the charts' threads started)."""
    # (the PDF libraries, for --by source alone: see the module's docstring)
    from workbench.checks.agent_trace import read_rows
    from workbench.checks.attribution import attribute_rows

    attribute_rows(report, cases, jobs=jobs, mapper=None if crops is None else crops.map)
    read_rows(report)   # an agent's answers: the source joined with the pages it read
    report.by = "source"


def _exposure(report: Report, cases: dict[str, Case]) -> tuple[dict, str]:
    """--by extractor: the family x extractor matrix of the probe runs, as JSON and as text."""
    # (the providers' probes, for --by extractor alone: see the module's docstring)
    from workbench.providers.exposure import matrix_text, runs_exposure

    exposure = runs_exposure(report.runs, cases)
    report.by = "extractor"
    return exposure.to_json(), matrix_text(exposure)


def _wanting_crops(cases: dict[str, Case], crops: CropMaker) -> Callable[[Row], None]:
    """build_report's hook: each case answered wrong has its page crop made meanwhile."""
    def on_row(row: Row) -> None:
        if row.outcome in WRONG_ANSWERS and row.case_id in cases:
            crops.add(cases[row.case_id])
    return on_row


def _write_html(report: Report, cases: dict[str, Case], out: Path, crops: CropMaker) -> None:
    """The HTML report, with a page crop of every case some run answered wrong (made while the
    runs were graded, or from the crop cache in the user's cache folder unless --no-cache)."""
    wrong = sorted({r.case_id for run in report.runs for r in run.final_rows().values()
                    if r.outcome in WRONG_ANSWERS and r.case_id in cases})
    for cid in wrong:   # (each was added as it was graded: this adds none)
        crops.add(cases[cid])
    # The charts while the workers make the last crops: this process would wait for them idle.
    # (Drawn at the start, the charts' engine held this process up before its first crop was
    # asked for: it loads with the interpreter's lock held for some 0.4 s.)
    drawn = report_charts(report)
    made = crops.crops()
    shown = {cid: made[cid] for cid in wrong}
    questions = {cid: cases[cid].question for cid in wrong}
    size = write_report_html(report, out, shown, questions, drawn=drawn)
    note(f"wrote {out} ({size / 1e6:.1f} MB, {sum(c is not None for c in shown.values())} page crops)")
