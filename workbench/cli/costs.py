"""`run --dry-run`: the calls a run would make, their estimated tokens, and the cost with --prices."""

from __future__ import annotations

import argparse
from dataclasses import asdict
from pathlib import Path

from workbench.build.shards import shard_items
from workbench.cli.output import print_json
from workbench.core.errors import UserError
from workbench.core.suite import Suite
from workbench.core.words import counted
from workbench.grading.cost import kilo, load_prices, money
from workbench.pdf.document import read_pdf_bytes
from workbench.providers.adapters import check_options
from workbench.providers.batch.submit import check_provider
from workbench.providers.estimate import estimate_agent_case, estimate_call
from workbench.providers.running import RunPlan, effective_modality, finished_cases, is_finished


def dry_run(args: argparse.Namespace, plan: RunPlan, suite: Suite, out: Path) -> int:
    check_options(plan.options)
    if plan.reader.provider == "ollama" or plan.reader.provider == "openai-compatible":
        if plan.modality == "pdf":
            raise UserError(f"{plan.reader.provider} takes page images, not PDF files: use --modality pixels or text")
    if args.batch:
        check_provider(plan.reader)
    cases = shard_items(list(suite.cases), args.shard)
    modality, dpi = effective_modality(plan)
    done: dict = {}
    if out.exists() and out.stat().st_size and (args.resume or args.batch):
        done = finished_cases(out, plan)[0]
    todo = [c for c in cases if not is_finished(c, done)]
    prices = load_prices(args.prices) if args.prices else None
    price = prices.price(str(plan.reader)) if prices else None
    how = "as a provider batch" if args.batch else "live"
    if plan.reader.is_probe:
        estimates = []
    elif plan.reader.is_agent:
        estimates = [estimate_agent_case(c, read_pdf_bytes(c.pdf_file, plan.password), plan.reader.inner.provider,
                                         plan.prompt, plan.options) for c in todo]
    else:
        estimates = [estimate_call(c, read_pdf_bytes(c.pdf_file, plan.password), plan.reader.provider, modality,
                                   dpi, plan.prompt, plan.options) for c in todo]
    calls = sum(e.calls for e in estimates) if plan.reader.is_agent else len(todo)
    inp = sum(e.input_tokens for e in estimates)
    likely = sum(e.output_likely for e in estimates)
    most = sum(e.output_max for e in estimates)
    factor = price.batch_factor if (price and args.batch) else 1.0
    cost = None
    if price:
        cost = {"likely": (inp * price.input + likely * price.output) / 1e6 * factor,
                "at_most": (inp * price.input + most * price.output) / 1e6 * factor}
    if args.json:
        print_json({"reader": str(plan.reader), "modality": modality, "dpi": dpi, "batch": bool(args.batch),
                    "calls": calls, "cases": len(todo), "finished_before": len(cases) - len(todo), "input_tokens": inp,
                    "output_tokens_likely": likely, "output_tokens_at_most": most,
                    "currency": prices.currency if prices else None, "cost": cost,
                    "per_call": [asdict(e) for e in estimates]})
        return 0
    dpis = f" at {dpi} dpi" if dpi else ""
    if plan.reader.is_agent:
        print(f"dry run: {plan.reader} (an agent), {counted(len(todo), 'case')} {how}, about "
              f"{counted(calls, 'model call')} ({len(cases) - len(todo)} finished before); nothing is sent")
        print("  assumed: each case reads document_info, every page as text and as an image (as far as its turns "
              "allow), then submits; "
              "each turn sends the conversation so far again")
    else:
        print(f"dry run: {plan.reader} ({modality}{dpis}), {counted(len(todo), 'call')} {how}"
              f" ({len(cases) - len(todo)} finished before); nothing is sent")
    if plan.reader.is_probe:
        print("  a probe runs here: no tokens, no cost")
        return 0
    print(f"  input    ~{kilo(inp)} tokens (text at 4 characters a token, page images by each provider's rule)")
    if plan.reader.is_agent:
        print(f"  output   ~{kilo(likely)} tokens likely (the tool calls and the answer keys' length), at most "
              f"{kilo(most)} (max tokens {plan.options.get('max_tokens', 1024)} a turn, "
              f"{plan.options.get('max_turns', 30)} turns a case)")
    else:
        print(f"  output   ~{kilo(likely)} tokens likely (the answer keys' length), at most {kilo(most)} "
              f"(max tokens {plan.options.get('max_tokens', 1024)} a call)")
    if cost is not None and prices is not None:
        at = f" (batch price x{factor:g})" if args.batch else ""
        print(f"  cost     ~{money(cost['likely'], prices.currency)} likely, at most "
              f"{money(cost['at_most'], prices.currency)}{at}")
    elif prices is not None:
        print(f"  cost     no price for {plan.reader} in {args.prices}")
    else:
        print("  cost     give --prices FILE.toml (see README) for the estimate in money")
    return 0
