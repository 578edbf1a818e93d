"""Commands for layer forensics: lint (is each trap armed, can a reader of the page answer it)."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.cli.output import add_jobs_option, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "lint", help="check every case's arming contract against what is visible and hidden on its pages",
        description="Lint a case JSON, a suite folder (ours or pdfhell's) or a PDF with --key. "
                    "Exit 1 if any finding is an error.",
    )
    p.add_argument("path", type=Path, help="case JSON, suite folder, or PDF")
    p.add_argument("--key", type=Path, help="answer key JSON for a bare PDF (a case JSON will do)")
    p.add_argument("--json", action="store_true", help="print the findings as a JSON list")
    p.add_argument("--dpi", type=int, default=150, help="DPI at which visibility is judged (default 150)")
    p.add_argument("--pages", metavar="LIST",
                   help="pages of a bare PDF, as 1-5,12 or all (default: the first 1000)")
    p.add_argument("--password", help="password of encrypted PDFs (each is linted decrypted)")
    add_jobs_option(p, "linting a suite's cases or a PDF's pages")
    p.set_defaults(handler=cmd_lint)


def cmd_lint(args: argparse.Namespace) -> int:
    from workbench.checks.lint import has_errors, iter_lint_path

    found = iter_lint_path(args.path, key=args.key, dpi=args.dpi, jobs=args.jobs, pages=args.pages,
                           password=args.password)
    if args.json:
        findings = list(found)
        print_json([f.to_json() for f in findings])
    else:
        findings = []
        for f in found:  # printed as found: a long PDF shows its first pages at once
            findings.append(f)
            print(f"{f.severity.upper():7} {f.case_id}  {f.code}: {f.message}", flush=True)
        counts = {s: sum(f.severity == s for f in findings) for s in ("error", "warning", "info")}
        cases = len({f.case_id for f in findings})
        print(f"{counts['error']} error(s), {counts['warning']} warning(s), {counts['info']} info"
              f" in {cases} case(s) with findings")
    return 1 if has_errors(findings) else 0
