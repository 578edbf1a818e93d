"""`pdfworkbench exposure SUITE`: which of a pipeline's extractors falls for which trap."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from workbench.cli.logs import note
from workbench.cli.output import print_json
from workbench.cli.parsers import add_jobs_option


def options(p: argparse.ArgumentParser) -> None:
    """The options of `exposure` (its line in --help is the command table's)."""
    p.add_argument("suite", type=Path, metavar="SUITE")
    p.add_argument("--extractors", metavar="A,B,...",
                   help="extractors to read with (default: every one installed; see `pdfworkbench readers`)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print every case's states and the matrix as JSON")
    out.add_argument("--csv", action="store_true", help="print one row per case, one column per extractor")
    p.add_argument("--no-cache", action="store_true", help="read every PDF afresh (the cache is keyed by "
                                                          "the PDF's bytes and the library's version)")
    add_jobs_option(p, "the extractions")


def cmd_exposure(args: argparse.Namespace) -> int:
    from workbench.core.suite import load_suite
    from workbench.providers.exposure import check_extractors, csv_text, matrix_text, suite_exposure

    names = check_extractors(args.extractors.split(",") if args.extractors is not None else None)
    suite = load_suite(args.suite)
    t0 = time.monotonic()
    exp = suite_exposure(suite.cases, names, args.jobs, use_cache=not args.no_cache)
    if args.json:
        print_json(exp.to_json())
    elif args.csv:
        print(csv_text(exp), end="")
    else:
        print(matrix_text(exp))
    note(f"exposure: {len(suite.cases)} case(s) x {len(names)} extractor(s) in {time.monotonic() - t0:.1f} s")
    return 0
