"""`pdfworkbench run`: every case of a suite asked of one reader, into a run file, then its
report and gate; `--dry-run` says what it would cost (`costs.py`), `--batch` hands the calls to
the provider's batch service (`batch.py`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from workbench.cli.batch import run_batch
from workbench.cli.costs import dry_run
from workbench.cli.logs import log, note, progress_shown
from workbench.cli.parsers.grading import threshold
from workbench.cli.reading import reader_options
from workbench.cli.runreport import print_run_report, suite_cases
from workbench.core import atomic, files
from workbench.core.errors import UserError
from workbench.core.layout import run_file_path
from workbench.core.schema import plain_id
from workbench.core.suite import load_suite
from workbench.core.words import counted
from workbench.grading.cost import load_prices
from workbench.providers.adapters import default_modality
from workbench.providers.base import parse_reader
from workbench.providers.running import RunInterrupted, RunPlan, effective_modality, run_suite
from workbench.text import terminal


def default_out(suite_dir: Path, suite_name: str, reader: str, modality: str, dpi: int | None,
                shard: str | None, extractor: str | None = None) -> Path:
    """`SUITE/runs/<name>.jsonl`: beside the cases, where the workbench and `report` look."""
    parts = [suite_name, reader.replace(":", "-"), modality]
    if dpi:
        parts.append(f"{dpi}dpi")
    if extractor:   # an agent whose page_text reads with another extractor than pypdf
        parts.append(extractor)
    if shard:
        parts.append("shard" + shard.replace("/", "of"))
    return run_file_path(suite_dir, parts)


class _ProgressLine:
    """Cases done, errors, tokens, elapsed: redrawn in place on a terminal, every 10% otherwise."""

    def __init__(self) -> None:
        self.shown = progress_shown()
        self.tty = sys.stderr.isatty() and self.shown
        self.last_decile = -1

    def __call__(self, progress) -> None:
        if self.tty:
            terminal.raw_stream(sys.stderr).write("\r\x1b[2K" + terminal.shown(progress.line()))
            sys.stderr.flush()
            return
        if not self.shown:
            return
        decile = (progress.done + progress.skipped) * 10 // max(1, progress.total)
        if decile != self.last_decile:
            self.last_decile = decile
            note(progress.line())

    def end(self) -> None:
        if self.tty:
            sys.stderr.write("\n")


def cmd_run(args: argparse.Namespace) -> int:
    fail_below = threshold(args.fail_threshold)
    if args.junit:   # checked before any call is made (a folder, a device, a FIFO there)
        args.junit = atomic.check_target(args.junit, "--junit", follow=True)
    if args.prices:
        load_prices(args.prices)   # a broken table is said before any call is made
    reader = parse_reader(args.reader)
    plan = RunPlan(reader, args.modality or default_modality(reader), args.dpi, args.workers, args.prompt,
                   reader_options(args), not args.no_cache, args.base_url, jobs=args.jobs,
                   password=args.password)
    suite = load_suite(args.suite)
    modality, dpi = effective_modality(plan)
    out = files.typed_path(args.out) if args.out else default_out(
        args.suite, suite.name, str(plan.reader), modality, dpi, args.shard, plan.options.get("extractor"))
    log.debug("run: %d case(s) of %s, reader %s, modality %s%s, %d worker(s), run file %s",
              len(suite.cases), args.suite, plan.reader, modality, f" at {dpi} dpi" if dpi else "",
              plan.workers, out)
    if args.dry_run:
        return dry_run(args, plan, suite, out)
    if args.batch:
        if reader.is_agent:
            raise UserError(f"{reader}: an agent's tool loop cannot be batched; run it without --batch")
        return run_batch(args, plan, fail_below, out, run_id_arg(args))
    line = _ProgressLine()
    try:
        outcome = run_suite(args.suite, plan, out, resume=args.resume, shard=args.shard,
                            retry_errors=args.retry_errors, on_progress=line, run_id=run_id_arg(args))
    except RunInterrupted as stop:
        line.end()
        o = stop.outcome
        note(f"pdfworkbench: interrupted: {counted(len(o.records), 'call')} recorded in {o.out}; "
             f"run again with --resume to complete it")
        return 130
    line.end()
    cases, gold = suite_cases(suite.folder)
    why = print_run_report(outcome.records, cases, args.json, args.junit, fail_below, args.prices, gold)
    note(f"run file: {outcome.out} ({outcome.ran} new calls, {outcome.skipped} from before; "
         f"run {outcome.run_id}{f', shard {args.shard}' if args.shard else ''})")
    if why:
        note(f"pdfworkbench: gate failed: {why}")
        return 1
    return 0


def run_id_arg(args: argparse.Namespace) -> str | None:
    """`--run-id`, checked as a plain id (run and run --batch)."""
    return plain_id(args.run_id.strip(), "--run-id") if args.run_id else None
