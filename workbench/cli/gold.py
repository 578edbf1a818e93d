"""Commands for gold: dispute add|list|show|decide (opened, triaged, decided), gold versions|export,
regrade (saved answers against a version, no model call) and audit-hints (gold values the question
or schema gives away)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from workbench.cli.output import print_json
from workbench.core import atomic
from workbench.core.errors import UserError
from workbench.core.suite import suites_of_runs
from workbench.gold.disputes import add_dispute, decide
from workbench.gold.hints import audit_suite
from workbench.gold.journal import get_dispute
from workbench.gold.regrade import regrade
from workbench.gold.triage import acceptance_warnings, evidence_for, progress, triage_queue
from workbench.gold.versions import export, versions


def _value(v: Any) -> str:
    return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)


def _short(v: Any, n: int = 40) -> str:
    text = _value(v).replace("\n", " ")
    return text if len(text) <= n else text[: n - 1] + "…"


def cmd_dispute_add(args: argparse.Namespace) -> int:
    d = add_dispute(args.suite, args.case_id, args.field, args.proposed, args.rationale,
                    page=args.page, box=args.box, quote=args.quote, who=args.who)
    if args.json:
        print_json(d.to_json())
    else:
        print(f"opened {d.id}: {d.case_id} {d.field}: {_value(d.original)!r} -> {_value(d.proposed)!r}")
    return 0


def cmd_dispute_list(args: argparse.Namespace) -> int:
    queue = triage_queue(args.suite)
    if args.status:
        queue = [it for it in queue if it.dispute.status == args.status]
    prog = progress(args.suite)
    if args.json:
        print_json({"progress": prog.to_json(),
                    "disputes": [{**it.dispute.to_json(), "impact": it.impact} for it in queue]})
        return 0
    if not queue:
        print("no disputes" + (f" with status {args.status}" if args.status else ""))
    for it in queue:
        d = it.dispute
        print(f"{d.id}  {d.status:<8}  impact {it.impact:>2}  {d.case_id}  {d.field}: "
              f"{_short(d.original)!r} -> {_short(d.proposed)!r}")
    print(prog)
    return 0


def cmd_dispute_show(args: argparse.Namespace) -> int:
    d = get_dispute(args.suite, args.id)
    item = next(it for it in triage_queue(args.suite) if it.dispute.id == d.id)
    ev = evidence_for(args.suite, d.id)
    if args.json:
        print_json({**d.to_json(), "impact": item.impact, "flips": [f.to_json() for f in item.flips],
                    "highlight": ev.to_json(), "warnings": acceptance_warnings(args.suite, d.id)})
        return 0
    print(f"{d.id}  {d.status}  case {d.case_id}  field {d.field}  (against gold {d.based_on})")
    print(f"  original: {_value(d.original)}")
    print(f"  proposed: {_value(d.proposed)}")
    if d.evidence:
        box = ",".join(f"{v:g}" for v in d.box) if d.box else "-"
        print(f"  evidence: page {d.page}, box {box}, quote {d.quote!r}")
    for h in ev.hits:
        hidden = "" if h.visible else " (hidden: in the text layer only)"
        print(f"  on page {h.page}: {h.which} {h.text!r} at {','.join(f'{v:g}' for v in h.box)}{hidden}")
    for w in acceptance_warnings(args.suite, d.id):
        print(f"  warning: {w}")
    for line in d.rationale_so_far():
        print(f"  {line}")
    verb = "taking it out would flip" if d.status == "accepted" else "accepting it would flip"
    print(f"  {verb} {item.impact} saved verdict(s)")
    for f in item.flips:
        print(f"    {f.reader} {f.modality} ({Path(f.run).name}:{f.line}): {f.before} -> {f.after}")
    return 0


def cmd_dispute_decide(args: argparse.Namespace) -> int:
    done = decide(args.suite, args.id, args.decision, args.rationale, who=args.who, redecide=args.redecide)
    d = done.dispute
    if args.json:
        print_json({**d.to_json(), "written": done.written})
        return 0
    if not done.written:
        last = d.history[-1]
        print(f"{d.id} is already {d.status} (by {last.who or 'someone'}, {last.at}); nothing written; "
              f"gold is {versions(args.suite)[-1].name}")
        return 0
    print(f"{d.id} {d.status}; gold is now {versions(args.suite)[-1].name}; {progress(args.suite)}")
    return 0


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
    if args.out:
        args.out = atomic.check_target(args.out, "--out", follow=True)
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
