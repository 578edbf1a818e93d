"""Adding a case to a suite as `make --into`, `adopt` and `mutate` do it: lint it, save it, say so."""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from workbench.build.saving import plan_save, save
from workbench.checks.lint import lint_case
from workbench.cli.output import print_json
from workbench.core.case import Case, sha256_hex


def add_into_suite(args: argparse.Namespace, case: Case, pdf: bytes, extra_files: Mapping[str, bytes] | None = None,
                   more_errors: list[str] | None = None) -> int:
    """Lint the case, save it into the suite `args.into` (`build.saving`: --overwrite and
    --allow-lint-errors say what the user confirms), say so."""
    findings = lint_case(case, pdf)
    plan = plan_save(args.into, case, pdf, findings=findings, problems=more_errors or (), extra_files=extra_files)
    added = save(plan, overwrite=args.overwrite, with_lint_errors=args.allow_lint_errors)
    if args.json:
        print_json(case.to_json() | {"suite_hash": added.suite_hash, "json_path": str(added.json_path)})
        return 0
    what = "a new suite" if added.new_suite else "the suite"
    verb = "replaced" if added.replaced else "added"
    print(f"{verb} {case.id} in {what} {args.into} ({len(pdf):,} bytes, sha256 {sha256_hex(pdf)[:12]})")
    for f in findings:
        if f.severity in ("error", "warning"):
            print(f"  lint {f.severity}: {f.code}: {f.message}")
    print(f"suite hash {added.suite_hash}")
    return 0
