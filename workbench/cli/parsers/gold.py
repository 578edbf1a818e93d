"""Options of the commands for gold: dispute add|list|show|decide, gold versions|export,
regrade, audit-hints."""

from __future__ import annotations

import argparse
from pathlib import Path


def dispute(p: argparse.ArgumentParser) -> None:
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

    q = dsub.add_parser("list", help="disputes, open first, by impact on saved verdicts")
    q.add_argument("suite", type=Path)
    q.add_argument("--status", choices=["open", "accepted", "rejected", "deferred"])
    q.add_argument("--json", action="store_true")

    q = dsub.add_parser("show", help="one dispute: values, evidence, history and the verdicts it would flip")
    q.add_argument("suite", type=Path)
    q.add_argument("id")
    q.add_argument("--json", action="store_true")

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


def gold(p: argparse.ArgumentParser) -> None:
    gsub = p.add_subparsers(dest="gold_command", metavar="ACTION", required=True, parser_class=type(p))
    q = gsub.add_parser("versions", help="every gold version and the decision that made it")
    q.add_argument("suite", type=Path)
    q.add_argument("--json", action="store_true")
    q = gsub.add_parser("export", help="the gold keys of one version as JSON")
    q.add_argument("suite", type=Path)
    q.add_argument("--version", default="latest", help="vN or latest (default)")
    q.add_argument("--out", type=Path, help="write to FILE (default: stdout)")


def regrade(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", type=Path, nargs="+", metavar="RUN.jsonl")
    p.add_argument("--suite", type=Path, help="the suite (default: the one recorded in the run, or beside it)")
    p.add_argument("--gold", default="latest", help="gold version to grade against: vN or latest (default)")
    p.add_argument("--against", default="v1", help="version to compare with (default v1)")
    p.add_argument("--json", action="store_true")


def audit_hints(p: argparse.ArgumentParser) -> None:
    p.add_argument("suite", type=Path)
    p.add_argument("--gold", default="latest", help="gold version: vN or latest (default)")
    p.add_argument("--json", action="store_true")
