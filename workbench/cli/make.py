"""`pdfworkbench make`: one case of a family, written as a pair of files or into a suite."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.build.make import generate_case, parse_param_args, write_case
from workbench.cli.output import print_json
from workbench.cli.saving import add_into_suite
from workbench.core.atomic import ensure_folder
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.scan import DegradeSpec


def _degrade_spec(args: argparse.Namespace) -> DegradeSpec | None:
    if not (args.tier or args.degrade or args.text_layer or args.dpi is not None):
        return None
    return DegradeSpec.parse({"tier": args.tier, "overrides": parse_param_args(args.degrade),
                              "text_layer": args.text_layer, "dpi": args.dpi})


def write_pair(args: argparse.Namespace, case: Case, pdf: bytes) -> int:
    """Write `<id>.pdf` and `<id>.json` into `args.out` (no suite.json), refusing to overwrite."""
    out = args.out or Path(".")
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out}: exists and is not a folder")
    ensure_folder(out, "--out")
    taken = [p for p in (out / f"{case.id}.json", out / f"{case.id}.pdf") if p.exists()]
    if taken and not args.overwrite:
        raise UserError(f"{taken[0]} already exists; choose another --id, add it to a suite with "
                        "--into SUITE, or replace it with --overwrite")
    path = write_case(case, pdf, out)
    if args.json:
        print_json(case.to_json())
    else:
        print(f"wrote {path} and {path.with_suffix('.pdf')} ({len(pdf):,} bytes, sha256 {case.sha256[:12]})")
    return 0


def cmd_make(args: argparse.Namespace) -> int:
    pinned = parse_param_args(args.param)
    case, pdf = generate_case(args.family, args.seed, pinned, _degrade_spec(args), case_id=args.case_id)
    if args.into is not None:
        return add_into_suite(args, case, pdf)
    if args.allow_lint_errors:
        raise UserError("--allow-lint-errors goes with --into SUITE (--out does not lint)")
    return write_pair(args, case, pdf)
