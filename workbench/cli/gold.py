"""Commands for gold versions: gold versions|export, regrade (saved answers against a version,
no model call) and audit-hints (gold values the question or schema gives away)."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.cli.output import print_json
from workbench.core import atomic
from workbench.core.errors import UserError
from workbench.core.suite import suites_of_runs
from workbench.gold.hints import audit_suite
from workbench.gold.regrade import regrade
from workbench.gold.versions import export, versions


def cmd_versions(args: argparse.Namespace) -> int:
    vs = versions(args.suite)
    if args.json:
        print_json([v.to_json() for v in vs])
        return 0
    for v in vs:
        who = f" by {v.who}" if v.who else ""
        when = f" at {v.at}" if v.at else ""
        applied = ", ".join(v.applied) or "none"
        print(f"{v.name}: {v.change}{who}{when} (applies: {applied})")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    doc = export(args.suite, args.version)
    if args.out:
        atomic.write_json(args.out, doc)
        print(f"wrote gold {doc['version']} ({len(doc['keys'])} keys) to {args.out}")
    else:
        print_json(doc)
    return 0


def _suite_for(args: argparse.Namespace) -> Path:
    if args.suite:
        return args.suite
    found = suites_of_runs(args.runs)
    if len(found) == 1:
        return found[0]
    which = f"the runs are from {len(found)} suites" if found else "no suite found for the runs"
    raise UserError(f"which suite? {which}; give --suite SUITE (the folder whose cases the run answered)")


def cmd_regrade(args: argparse.Namespace) -> int:
    result = regrade(args.runs, _suite_for(args), gold=args.gold, against=args.against)
    if args.json:
        print_json(result.to_json())
        return 0
    for w in result.warnings:
        print(f"warning: {w}")
    for s in result.skipped:
        print(f"skipped {s}")
    for name in dict.fromkeys((result.against, result.gold)):
        counts = ", ".join(f"{k} {v}" for k, v in sorted(result.tallies.get(name, {}).items()))
        print(f"gold {name}: {counts or 'nothing graded'}")
    print(f"{len(result.flips)} of {result.records} verdict(s) flip from {result.against} to {result.gold}")
    for f in result.flips:
        print(f"  {f.case_id}  {f.reader} {f.modality}  {f.before} -> {f.after}  ({f.after_reason})")
    return 0


def cmd_audit_hints(args: argparse.Namespace) -> int:
    hints = audit_suite(args.suite, args.gold)
    if args.json:
        print_json([h.to_json() for h in hints])
    else:
        for h in hints:
            print(h)
        print(f"{len(hints)} hint(s) found")
    return 1 if hints else 0
