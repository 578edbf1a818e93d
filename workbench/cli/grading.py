"""Commands for grading and reports: grade, report, import-run."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from workbench.cli.output import note, print_json
from workbench.core.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("grade", help="grade one answer against a case's key (exit 0 if correct, 1 if not)")
    p.add_argument("case", type=Path, help="case JSON")
    given = p.add_mutually_exclusive_group(required=True)
    given.add_argument("--answer", metavar="TEXT",
                       help="the answer text, which may begin with '-' (--answer '-$5'); - reads it from stdin")
    given.add_argument("--answer-file", type=Path, metavar="FILE", help="read the answer from FILE")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.set_defaults(handler=cmd_grade)

    p = sub.add_parser("report", help="score run records against their answer keys")
    p.add_argument("runs", type=Path, nargs="+", metavar="RUN.jsonl")
    p.add_argument("--suite", type=Path, action="append", default=[], metavar="DIR",
                   help="suite folder with the answer keys (default: recorded in the run, or beside it)")
    p.add_argument("--by", metavar="GROUP", help="group by family, tier, reader, modality or param:NAME")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--junit", type=Path, metavar="PATH", help="also write JUnit XML")
    p.add_argument("--fail-threshold", metavar="X",
                   help="exit 1 when a run's pass rate is below X (0.8 or 80%%)")
    p.add_argument("--audit-pack", type=Path, metavar="PATH",
                   help="also write a reproducible zip of PDFs, keys, records and report")
    p.set_defaults(handler=cmd_report)

    p = sub.add_parser("import-run", help="turn a pdfhell run JSON into run records (provenance imported)")
    p.add_argument("result", type=Path, metavar="RESULT.json")
    p.add_argument("--out", type=Path, metavar="RUN.jsonl", help="default: RESULT.jsonl beside the input")
    p.add_argument("--suite", type=Path, metavar="DIR", help="suite folder: adds hashes and questions")
    p.add_argument("--force", action="store_true", help="replace --out if it exists")
    p.add_argument("--json", action="store_true", help="print what was imported as JSON")
    p.set_defaults(handler=cmd_import_run)


def cmd_grade(args: argparse.Namespace) -> int:
    from workbench.core.case import load_case
    from workbench.grading import grade

    case = load_case(args.case)
    answer = args.answer if args.answer_file is None else _read_text(args.answer_file, "--answer-file")
    verdict = grade(case, answer)
    if args.json:
        print_json(verdict.to_json())
    else:
        print(f"{verdict.outcome.upper()}  {verdict.reason}")
        flags = [name for name in ("fell_for_trap", "refused", "hedged") if getattr(verdict, name)]
        if flags:
            print(f"  flags: {', '.join(flags)}")
        for part in verdict.parts:
            where = f" at {part.span[0]}-{part.span[1]}" if part.span else ""
            mark = "found" if part.matched else "missing"
            shown = f" as {part.found!r}" if part.found and part.matched and part.found != part.expected else ""
            print(f"  {mark:<7} {part.expected}{shown}{where}")
        for part in verdict.forbidden:
            where = f" at {part.span[0]}-{part.span[1]}" if part.span else ""
            print(f"  trap    {part.expected} as {part.found!r}{where}")
    return 0 if verdict.correct else 1


def _read_text(path: Path, flag: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{flag} {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{flag} {path}: cannot read it as UTF-8 text ({exc})") from None


def _threshold(raw: str | None) -> float | None:
    if raw is None:
        return None
    text = raw.strip()
    try:
        value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise UserError(f"--fail-threshold {raw!r}: give a fraction like 0.8 or a percentage like 80%")
    return value


def cmd_report(args: argparse.Namespace) -> int:
    from workbench.grading.loading import find_suite_folders, load_cases, load_runs
    from workbench.grading.report import build_report, check_grouping, render_report_text

    threshold = _threshold(args.fail_threshold)
    try:
        check_grouping(args.by)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    runs = load_runs(args.runs)
    folders = find_suite_folders(args.runs, args.suite)
    if not folders:
        raise UserError(f"no suite found for {args.runs[0]}: give --suite DIR (the folder with the cases)")
    cases, suites = load_cases(folders)
    report = build_report(runs, cases, by=args.by)
    if len(suites) == 1:
        s = suites[0]
        report.suite = {"name": s.name, "hash": s.recorded_hash, "folder": str(s.folder)}
    if args.json:
        print_json(report.to_json())
    else:
        sys.stdout.write(render_report_text(report))
    if args.junit:
        from workbench.grading.junit import write_junit

        write_junit(report, args.junit)
        note(f"wrote JUnit XML to {args.junit}")
    if args.audit_pack:
        from workbench.core.layout import SUITE_FILE
        from workbench.grading.auditpack import write_audit_pack

        suite_json = None
        name = None
        if len(suites) == 1:
            name = suites[0].name
            manifest = suites[0].folder / SUITE_FILE
            suite_json = manifest.read_bytes() if manifest.exists() else None
        digest = write_audit_pack(report, runs, cases, args.audit_pack, suite_json, name)
        note(f"wrote audit pack {args.audit_pack} (sha256 {digest[:12]})")
    if threshold is not None:
        below = [(run.label, run.overall.pass_rate) for run in report.runs
                 if run.overall.pass_rate is None or run.overall.pass_rate < threshold]
        for label, pr in below:
            shown = "nothing scored" if pr is None else f"pass rate {pr:.3f}"
            note(f"pdfworkbench: {label}: {shown}, below the threshold {threshold:.3f}")
        if below:
            return 1
    return 0


def cmd_import_run(args: argparse.Namespace) -> int:
    from workbench.grading.importers import pdfhell_records, read_pdfhell_run, write_records

    raw = read_pdfhell_run(args.result)
    cases = {}
    if args.suite:
        from workbench.core.suite import load_suite

        cases = {c.id: c for c in load_suite(args.suite).cases}
    out = args.out or args.result.with_suffix(".jsonl")
    if out.resolve() == args.result.resolve():
        raise UserError(f"--out {out}: would overwrite the input; choose another file")
    if out.exists() and not args.force:
        raise UserError(f"{out}: exists; give --force to replace it or choose another --out")
    records = pdfhell_records(raw, args.result.name, cases, args.suite)
    write_records(records, out)
    errors = sum(r.status != "ok" for r in records)
    unknown = sorted({r.case_id for r in records} - set(cases)) if args.suite else []
    if args.json:
        print_json({"out": str(out), "records": len(records), "provider_errors": errors,
                    "source": str(args.result), "unknown_cases": unknown})
        return 0
    print(f"imported {len(records)} records ({errors} provider errors) from {args.result} into {out}")
    if unknown:
        note(f"pdfworkbench: warning: {len(unknown)} case(s) not in {args.suite}: {', '.join(unknown[:5])}"
             f"{' …' if len(unknown) > 5 else ''}")
    return 0
