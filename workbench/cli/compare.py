"""`pdfworkbench compare`: two runs on one suite, paired: flips each way, McNemar, the difference."""

from __future__ import annotations

import argparse
import sys

from workbench.cli.logs import note
from workbench.cli.output import print_json
from workbench.core import atomic
from workbench.core.errors import UserError
from workbench.core.suite import content_hash, load_suite
from workbench.gold.versions import cases_at, resolve_version
from workbench.grading.compare import check_paired, compare_runs, render_compare_text
from workbench.grading.html import write_compare_html
from workbench.grading.loading import find_suite_folders, load_runs
from workbench.grading.report import SuiteRef, build_report


def cmd_compare(args: argparse.Namespace) -> int:
    if args.run_a.resolve() == args.run_b.resolve():
        raise UserError(f"{args.run_a} is given twice: compare two different run files")
    if args.html is not None:
        args.html = atomic.check_target(args.html, "--html", follow=True)   # before the work
    loaded = []
    for path in (args.run_a, args.run_b):
        runs = load_runs([path])
        if len(runs) != 1:
            raise UserError(f"{path} holds {len(runs)} runs ({', '.join(runs)}): compare takes two runs of one "
                            "reader each; split it, or use report")
        loaded.append(next(iter(runs.items())))
    (label_a, recs_a), (label_b, recs_b) = loaded
    if label_a == label_b:   # two files of one name: say which is which
        label_a, label_b = f"{label_a} ({args.run_a})", f"{label_b} ({args.run_b})"
    folders_a = find_suite_folders([args.run_a], [args.suite] if args.suite else [])
    folders_b = find_suite_folders([args.run_b], [args.suite] if args.suite else [])
    if not folders_a or not folders_b:
        missing = args.run_a if not folders_a else args.run_b
        raise UserError(f"no suite found for {missing}: give --suite DIR (the folder with the cases)")
    suite_a, suite_b = load_suite(folders_a[0]), load_suite(folders_b[0])
    hash_a, hash_b = content_hash(suite_a), content_hash(suite_b)
    if hash_a != hash_b:
        raise UserError(f"{args.run_a} was made on suite {suite_a.name} (hash {hash_a[:12]}), {args.run_b} on "
                        f"{suite_b.name} (hash {hash_b[:12]}): a paired comparison needs one suite hash")
    gold = resolve_version(suite_a.folder, args.gold or "latest").name
    cases = cases_at(suite_a.folder, gold, suite_a)
    check_paired(label_a, recs_a, label_b, recs_b, cases, regraded=bool(args.gold))
    report = build_report({label_a: recs_a, label_b: recs_b}, cases)
    cmp = compare_runs(report.runs[0], report.runs[1])
    cmp.gold = gold
    cmp.suite = SuiteRef(suite_a.name, hash_a, str(suite_a.folder))
    if args.json:
        print_json(cmp.to_json())
    else:
        sys.stdout.write(render_compare_text(cmp))
    if args.html:
        write_compare_html(cmp, args.html)
        note(f"wrote {args.html}")
    return 0
