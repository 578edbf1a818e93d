"""`pdfworkbench export`: a suite for another harness (Inspect AI, a Hugging Face dataset,
olmOCR-bench), its keys at a gold version."""

from __future__ import annotations

import argparse

from workbench.cli.logs import note
from workbench.cli.output import print_json
from workbench.gold.versions import cases_at, choose
from workbench.grading.export import export_suite


def cmd_export(args: argparse.Namespace) -> int:
    gold = choose(args.suite, args.gold)
    done = export_suite(args.suite, args.to, args.out, args.license,
                        cases=list(cases_at(args.suite, gold.used).values()))
    if args.json:
        print_json({"out": str(done.out), "to": done.format, "cases": done.cases, "suite_hash": done.suite_hash,
                    "gold": gold.to_json()})
        return 0
    print(f"exported {done.cases} cases of {args.suite} for {done.format} into {done.out}, keys at {gold.line()}")
    print(f"suite hash {done.suite_hash}")
    if done.format == "inspect":
        note(f"run it: inspect eval {done.out / 'task.py'} --model PROVIDER/MODEL --log-format json; "
             f"read it back: pdfworkbench import-run LOG.json --suite {args.suite}")
    return 0
