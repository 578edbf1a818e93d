"""`pdfworkbench ask`: one case's question (or your own) asked of one reader, recorded in a run file."""

from __future__ import annotations

import argparse
import asyncio

from workbench.cli.logs import note
from workbench.cli.output import print_json
from workbench.cli.reading import reader_options
from workbench.core import files
from workbench.core.case import load_case
from workbench.core.errors import UserError
from workbench.core.source import bare_pdf_case
from workbench.gold.versions import case_at
from workbench.grading.outcome import outcome_of
from workbench.providers.asking import ask, suite_of_case


def cmd_ask(args: argparse.Namespace) -> int:
    if args.case.suffix.lower() == ".pdf":
        if not args.question:
            raise UserError(f"{args.case}: a PDF has no question of its own; give one with --question")
        if not args.case.is_file():
            raise UserError(f"{args.case}: no such file")
        case, suite = bare_pdf_case(args.case), None
    else:
        case = load_case(args.case)
        suite = suite_of_case(case)
    out = files.typed_path(args.out) if args.out else None
    rec, path = asyncio.run(ask(case, args.reader, args.modality, args.dpi, args.prompt, reader_options(args),
                                not args.no_cache, suite=suite, out=out, base_url=args.base_url,
                                password=args.password, question=args.question))
    if args.json:
        print_json(rec.to_json())
    elif rec.answer is not None:
        print(rec.answer)
    cached = " (cached)" if rec.extra.get("cached") else ""
    gold = ""
    if suite is not None:   # graded against the suite's newest gold, and it says which
        case = case_at(case, suite.folder)
        gold = f" (gold {case.gold_version})"
    outcome = outcome_of(rec, case)
    turns = (rec.extra.get("agent") or {}).get("turns")
    tries = f"{len(turns)} turn(s), {rec.attempts} call(s)" if turns is not None else f"{rec.attempts} attempt(s)"
    if rec.status == "ok":
        note(f"{rec.reader} {rec.modality}: ok in {rec.latency_ms:g} ms, {tries}{cached}; "
             f"{outcome.kind}{gold}: {outcome.reason}; recorded in {path}")
        return 0
    note(f"{rec.reader} {rec.modality}: {outcome.kind}{gold}: {outcome.reason}"
         + (f" (finish reason {rec.finish_reason})" if rec.finish_reason else "") + cached)
    return 1
