"""`pdfworkbench lint`: is each case's trap armed, and can a reader of the page answer it."""

from __future__ import annotations

import argparse

from workbench.checks.findings import has_errors
from workbench.checks.lint import iter_lint_path
from workbench.cli.output import print_json


def cmd_lint(args: argparse.Namespace) -> int:
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
