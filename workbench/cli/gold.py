"""Commands for gold: dispute add|list|show|decide, gold versions|export, regrade, audit-hints."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from workbench.cli.output import print_json
from workbench.core.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("dispute", help="open, list, show and decide gold disputes")
    dsub = p.add_subparsers(dest="dispute_command", metavar="ACTION", required=True, parser_class=type(p))

    q = dsub.add_parser("add", help="open a dispute against a field of a case's gold")
    q.add_argument("suite", type=Path)
    q.add_argument("--case", required=True, dest="case_id", help="case id")
    q.add_argument("--field", required=True,
                   help="expected_answer, expected_tokens[N], forbidden_answers[N] or a gold path like invoice.vendor_phone")
    q.add_argument("--proposed", required=True,
                   help="the value gold should have (JSON for numbers and null; may begin with '-')")
    q.add_argument("--page", type=int, help="evidence page, from 1")
    q.add_argument("--box", help="evidence box x0,y0,x1,y1 in points from the page's top-left")
    q.add_argument("--quote", help="the text on the page that shows the value")
    q.add_argument("--rationale", required=True,
                   help="why the gold value is wrong (may begin with '-'; - reads it from stdin)")
    q.add_argument("--who", help="your name (default: $PDFWORKBENCH_USER or your login)")
    q.add_argument("--json", action="store_true")
    q.set_defaults(handler=cmd_dispute_add)

    q = dsub.add_parser("list", help="disputes, open first, by impact on saved verdicts")
    q.add_argument("suite", type=Path)
    q.add_argument("--status", choices=["open", "accepted", "rejected", "deferred"])
    q.add_argument("--json", action="store_true")
    q.set_defaults(handler=cmd_dispute_list)

    q = dsub.add_parser("show", help="one dispute: values, evidence, history and the verdicts it would flip")
    q.add_argument("suite", type=Path)
    q.add_argument("id")
    q.add_argument("--json", action="store_true")
    q.set_defaults(handler=cmd_dispute_show)

    q = dsub.add_parser("decide", help="accept, reject or defer a dispute (a rationale is required)")
    q.add_argument("suite", type=Path)
    q.add_argument("id")
    group = q.add_mutually_exclusive_group(required=True)
    group.add_argument("--accept", dest="decision", action="store_const", const="accepted")
    group.add_argument("--reject", dest="decision", action="store_const", const="rejected")
    group.add_argument("--defer", dest="decision", action="store_const", const="deferred")
    q.add_argument("--rationale", required=True, help="why (may begin with '-'; - reads it from stdin)")
    q.add_argument("--who", help="your name (default: $PDFWORKBENCH_USER or your login)")
    q.add_argument("--redecide", action="store_true",
                   help="change a dispute already accepted or rejected (without it that is refused; "
                        "the same decision again is a no-op)")
    q.add_argument("--json", action="store_true")
    q.set_defaults(handler=cmd_dispute_decide)

    p = sub.add_parser("gold", help="gold versions of a suite, and export of gold keys")
    gsub = p.add_subparsers(dest="gold_command", metavar="ACTION", required=True, parser_class=type(p))
    q = gsub.add_parser("versions", help="every gold version and the decision that made it")
    q.add_argument("suite", type=Path)
    q.add_argument("--json", action="store_true")
    q.set_defaults(handler=cmd_gold_versions)
    q = gsub.add_parser("export", help="the gold keys of one version as JSON")
    q.add_argument("suite", type=Path)
    q.add_argument("--version", default="latest", help="vN or latest (default)")
    q.add_argument("--out", type=Path, help="write to FILE (default: stdout)")
    q.set_defaults(handler=cmd_gold_export)

    p = sub.add_parser("regrade", help="regrade saved answers against a gold version, no model call")
    p.add_argument("runs", type=Path, nargs="+", metavar="RUN.jsonl")
    p.add_argument("--suite", type=Path, help="the suite (default: the one recorded in the run, or beside it)")
    p.add_argument("--gold", default="latest", help="gold version to grade against: vN or latest (default)")
    p.add_argument("--against", default="v1", help="version to compare with (default v1)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_regrade)

    p = sub.add_parser("audit-hints", help="gold values the question or schema gives away; exit 1 if any")
    p.add_argument("suite", type=Path)
    p.add_argument("--gold", default="latest", help="gold version: vN or latest (default)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_audit_hints)


def _value(v: Any) -> str:
    return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)


def _short(v: Any, n: int = 40) -> str:
    text = _value(v).replace("\n", " ")
    return text if len(text) <= n else text[: n - 1] + "…"


def cmd_dispute_add(args: argparse.Namespace) -> int:
    from workbench.gold.disputes import add_dispute

    d = add_dispute(args.suite, args.case_id, args.field, args.proposed, args.rationale,
                    page=args.page, box=args.box, quote=args.quote, who=args.who)
    if args.json:
        print_json(d.to_json())
    else:
        print(f"opened {d.id}: {d.case_id} {d.field}: {_value(d.original)!r} -> {_value(d.proposed)!r}")
    return 0


def cmd_dispute_list(args: argparse.Namespace) -> int:
    from workbench.gold.triage import progress, triage_queue

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
    from workbench.gold.journal import get_dispute
    from workbench.gold.triage import acceptance_warnings, evidence_for, triage_queue

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
    from workbench.gold.disputes import decide
    from workbench.gold.triage import progress
    from workbench.gold.versions import versions

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


def cmd_gold_versions(args: argparse.Namespace) -> int:
    from workbench.gold.versions import versions

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


def cmd_gold_export(args: argparse.Namespace) -> int:
    from workbench.core import atomic
    from workbench.gold.versions import export

    doc = export(args.suite, args.version)
    if args.out:
        atomic.write_json(args.out, doc)
        print(f"wrote gold {doc['version']} ({len(doc['keys'])} keys) to {args.out}")
    else:
        print_json(doc)
    return 0


def _suite_for(args: argparse.Namespace) -> Path:
    from workbench.core.suite import suites_of_runs

    if args.suite:
        return args.suite
    found = suites_of_runs(args.runs)
    if len(found) == 1:
        return found[0]
    which = f"the runs are from {len(found)} suites" if found else "no suite found for the runs"
    raise UserError(f"which suite? {which}; give --suite SUITE (the folder whose cases the run answered)")


def cmd_regrade(args: argparse.Namespace) -> int:
    from workbench.gold.regrade import regrade

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
    from workbench.gold.hints import audit_suite

    hints = audit_suite(args.suite, args.gold)
    if args.json:
        print_json([h.to_json() for h in hints])
    else:
        for h in hints:
            print(h)
        print(f"{len(hints)} hint(s) found")
    return 1 if hints else 0
