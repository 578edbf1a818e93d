"""Commands for provider batch services: `batch status RUN`, `batch cancel RUN`, and the
`run --batch` path of `run` (workbench/cli/run.py hands it here)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from workbench.cli.logs import note
from workbench.cli.output import print_json
from workbench.cli.runreport import print_run_report, suite_cases
from workbench.core.errors import UserError
from workbench.providers.batch.job import advance_run
from workbench.providers.batch.submit import submit_or_advance
from workbench.providers.running import RunPlan


def _wait(step, outcome, every: float):
    while not outcome.done:
        time.sleep(max(0.0, every))
        outcome = step()
    return outcome


def _finish(outcome, json_out: bool, junit: Path | None = None, threshold: float | None = None,
            wait_hint: str = "", prices: Path | None = None) -> int:
    """Say where the batches stand; once collected, the report a live run prints."""
    state = outcome.state
    if not outcome.done:
        if json_out:
            print_json({"done": False, "run": str(outcome.out), "batches": [
                {"id": e.batch_id, "intent": e.intent, "calls": len(e.requests), "status": e.status,
                 "provider_status": e.provider_status, "counts": e.counts, "collected": e.collected}
                for e in state.entries]})
        note(f"batch: {outcome.line()}")
        if wait_hint:
            note(wait_hint)
        return 0
    cases, gold = suite_cases(Path(state.suite_dir))
    why = print_run_report(outcome.records, cases, json_out, junit, threshold, prices, gold)
    batches = f"{len(state.entries)} batch(es)" + (
        f": {', '.join(str(e.batch_id) for e in state.entries)}" if state.entries else "")
    note(f"run file: {outcome.out} ({outcome.collected} records collected now; {batches})")
    if why:
        note(f"pdfworkbench: gate failed: {why}")
        return 1
    return 0


def run_batch(args: argparse.Namespace, plan: RunPlan, threshold: float | None, out: Path,
              run_id: str | None = None) -> int:
    """`run --batch`: submit, or poll and collect, then return (`run_id`: `--run-id`, checked)."""
    def step():
        return submit_or_advance(args.suite, plan, out, shard=args.shard, retry_errors=args.retry_errors,
                                 on_step=note, run_id=run_id)

    outcome = step()
    if outcome.from_cache:
        note(f"batch: {outcome.from_cache} case(s) answered from the answer cache (--no-cache to send them)")
    if outcome.submitted and not outcome.done:
        return _finish(outcome, args.json, wait_hint=(
            f"run the same command again, or `pdfworkbench batch status {out}`, to collect it"))
    if not outcome.state.entries and not outcome.from_cache:
        note("batch: nothing to submit: every case has a record")
    return _finish(outcome, args.json, args.junit, threshold,
                   wait_hint=f"not done yet: run again later, or `pdfworkbench batch status {out} --wait`",
                   prices=args.prices)


def cmd_status(args: argparse.Namespace, cancel: bool = False) -> int:
    if not args.every >= 0:   # (NaN too: it polled the provider without a pause)
        raise UserError(f"--every {args.every}: give the seconds between polls, 0 or more")

    def step(cancel_now: bool = False):
        return advance_run(args.run, cancel=cancel_now, base_url=args.base_url, password=args.password,
                           on_step=note)

    outcome = step(cancel)
    if args.wait:
        try:
            outcome = _wait(step, outcome, args.every)
        except KeyboardInterrupt:
            note(f"pdfworkbench: interrupted: nothing is lost; `pdfworkbench batch status {args.run}` goes on")
            return 130
    return _finish(outcome, args.json, wait_hint="" if args.wait else (
        f"not done yet: `pdfworkbench batch status {args.run} --wait` polls until it is"), prices=args.prices)


def cmd_cancel(args: argparse.Namespace) -> int:
    return cmd_status(args, cancel=True)
