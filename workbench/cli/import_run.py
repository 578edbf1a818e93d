"""`pdfworkbench import-run`: another harness's answers (a pdfhell run, an Inspect eval log, a JSONL
of predictions, olmOCR-bench outputs) as run records, provenance imported."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.cli.logs import note
from workbench.cli.output import print_json
from workbench.core import files
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.layout import named_suite_dir, runs_dir
from workbench.core.suite import load_suite
from workbench.grading import importers


def cmd_import_run(args: argparse.Namespace) -> int:
    kind = importers.detect_format(args.result)
    cases: dict[str, Case] = {}
    if args.suite:
        cases = {c.id: c for c in load_suite(args.suite).cases}
    if kind == importers.OLMOCR_SOURCE and not args.reader:
        raise UserError("--reader NAME: name the system that wrote these olmOCR-bench outputs, e.g. olmocr:marker")
    if args.reader and kind not in (importers.PREDICTIONS_SOURCE, importers.OLMOCR_SOURCE):
        raise UserError("--reader is for a predictions file (.jsonl); an Inspect log and a pdfhell run name their model")
    if args.reader and ":" not in args.reader:
        raise UserError(f"--reader {args.reader!r}: write it as provider:model")
    out = files.typed_path(args.out) if args.out else _import_out(args.result, args.suite, kind)
    if out.resolve() == args.result.resolve():
        raise UserError(f"--out {out}: would overwrite the input; choose another file")
    if out.exists() and not args.force:
        raise UserError(f"{out}: exists; give --force to replace it or choose another --out")
    named = named_suite_dir(out, args.suite) if args.suite else None
    if kind == importers.INSPECT_SOURCE:
        records = importers.inspect_records(importers.read_inspect_log(args.result), args.result.name, cases, named)
    elif kind == importers.OLMOCR_SOURCE:
        records = importers.olmocr_records(args.result, args.reader, cases, named)
    elif kind == importers.PREDICTIONS_SOURCE:
        records = importers.prediction_records(importers.read_predictions(args.result), args.result.name,
                                               args.reader, cases, named)
    else:
        records = importers.pdfhell_records(importers.read_pdfhell_run(args.result), args.result.name, cases, named)
    importers.write_records(records, out)
    errors = sum(r.status != "ok" for r in records)
    unknown = sorted({r.case_id for r in records} - set(cases)) if args.suite else []
    if args.json:
        print_json({"out": str(out), "records": len(records), "provider_errors": errors, "format": kind,
                    "source": str(args.result), "unknown_cases": unknown})
        return 0
    print(f"imported {len(records)} records ({errors} provider errors) from {args.result} ({kind}) into {out}")
    if args.suite and named is None:
        note(f"pdfworkbench: warning: {args.suite} is outside {out.parent}, so the run cannot name it; "
             f"give --suite {args.suite} to report, regrade and open")
    if unknown:
        note(f"pdfworkbench: warning: {len(unknown)} case(s) not in {args.suite}: {', '.join(unknown[:5])}"
             f"{' …' if len(unknown) > 5 else ''}")
    return 0


def _import_out(result: Path, suite: Path | None, kind: str) -> Path:
    if kind == "pdfhell":
        return result.with_suffix(".jsonl")
    if kind == "olmocr-bench":
        result = result.resolve()
        result = result.with_name(f"olmocr-{result.name}.jsonl")
    folder = runs_dir(suite) if suite else result.parent
    out = folder / f"{result.stem}.jsonl"
    return out if out.resolve() != result.resolve() else folder / f"{result.stem}-imported.jsonl"
