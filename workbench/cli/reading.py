"""The reader options `run` and `ask` were given (max tokens, temperature, structured output, an
agent's limits and extractor), checked, as the provider takes them."""

from __future__ import annotations

import argparse

from workbench.core.errors import UserError
from workbench.providers.agent.tools import check_extractor


def reader_options(args: argparse.Namespace) -> dict:
    """The call options run and ask were given (max tokens, temperature, an agent's limits), checked."""
    opts: dict = {}
    if args.max_tokens is not None:
        if args.max_tokens < 1:
            raise UserError("--max-tokens must be at least 1")
        opts["max_tokens"] = args.max_tokens
    if args.temperature is not None:
        if not 0 <= args.temperature < float("inf"):   # (NaN is no number a provider takes: each call failed)
            raise UserError(f"--temperature {args.temperature}: give a number from 0 up (most providers take 0 to 2)")
        opts["temperature"] = args.temperature
    if getattr(args, "no_structured", False):
        opts["structured"] = False
    if args.max_turns is not None or args.deadline is not None or args.extractor is not None:
        if not args.reader.strip().lower().startswith("agent:"):
            raise UserError("--max-turns, --deadline and --extractor are for agent readers (agent:PROVIDER:MODEL)")
        if args.extractor is not None:
            opts["extractor"] = check_extractor(args.extractor)
        if args.max_turns is not None:
            if args.max_turns < 1:
                raise UserError("--max-turns must be at least 1")
            opts["max_turns"] = args.max_turns
        if args.deadline is not None:
            if not args.deadline > 0:
                raise UserError("--deadline must be above 0 seconds")
            opts["deadline_s"] = args.deadline
    return opts
