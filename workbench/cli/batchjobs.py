"""Commands for provider batch services: `batch status RUN`, `batch cancel RUN`, and the
`run --batch` path of `run` (workbench/cli/readers.py hands it here)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from workbench.cli.output import note, print_json

EPILOG = """examples:
  pdfworkbench run SUITE --reader openai:gpt-4o --batch        # submit; run it again to collect
  pdfworkbench batch status SUITE/runs/RUN.jsonl                # poll once; collect when done
  pdfworkbench batch status RUN.jsonl --wait --every 60         # poll until done, then report
  pdfworkbench batch cancel RUN.jsonl"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("batch", help="poll, collect or cancel a run's provider batches (run --batch)",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    bsub = p.add_subparsers(dest="batch_command", metavar="ACTION", required=True, parser_class=type(p))
    for name, help_, handler in (
            ("status", "poll the run's batches; collect the ended ones into the run file", cmd_status),
            ("cancel", "ask the provider to cancel the run's batches; collect what they finished", cmd_cancel)):
        q = bsub.add_parser(name, help=help_, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
        q.add_argument("run", type=Path, metavar="RUN.jsonl", help="the run file (or its .batch.json beside it)")
        q.add_argument("--wait", action="store_true", help="poll until every batch has ended and is collected")
        q.add_argument("--every", type=float, default=30.0, metavar="S",
                       help="seconds between polls with --wait (default 30)")
        q.add_argument("--base-url", help="the provider's base URL (default: the one the batch was sent to)")
        q.add_argument("--password", help="password of encrypted PDFs, to prepare a batch that was "
                                          "interrupted before it was sent")
        q.add_argument("--json", action="store_true", help="print the batches' state (and the report) as JSON")
        q.add_argument("--prices", type=Path, metavar="FILE.toml", help="price table: the report adds the cost")
        q.set_defaults(handler=handler)


def _wait(step, outcome, every: float):
    while not outcome.done:
        time.sleep(max(0.0, every))
        outcome = step()
    return outcome


def _finish(outcome, json_out: bool, junit: Path | None = None, threshold: float | None = None,
            wait_hint: str = "", prices: Path | None = None) -> int:
    """Say where the batches stand; once collected, the report a live run prints."""
    from workbench.cli.runreport import print_run_report, suite_cases

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


def run_batch(args: argparse.Namespace, plan, threshold: float | None, out: Path,
              run_id: str | None = None) -> int:
    """`run --batch`: submit, or poll and collect, then return (`run_id`: `--run-id`, checked)."""
    from workbench.providers.batch.submit import submit_or_advance

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
    from workbench.providers.batch.job import advance_run

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
