"""Commands for readers: run (a suite through a reader), ask (one call), readers, fake-server."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from workbench.cli.output import add_jobs_option, log, note, port_number, print_json
from workbench.core.errors import UserError
from workbench.core.words import counted


def _reader_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--reader", required=True, metavar="P:M",
                   help="provider:model, e.g. openai:gpt-4o, anthropic:claude-sonnet-4-5, probe:pymupdf")
    p.add_argument("--modality", choices=["pdf", "pixels", "text"], default=None,
                   help="send the PDF file, page images, or the extracted text layer (default: pdf "
                        "where the provider takes PDF files, else pixels: ollama, openai-compatible)")
    p.add_argument("--dpi", type=int, default=150, help="DPI of page images for --modality pixels")
    p.add_argument("--prompt", help="ask this instead of the default prompt around the case's question "
                                    "(may begin with '-'; - reads it from stdin)")
    p.add_argument("--max-tokens", type=int, help="most tokens the model may answer with (default 1024)")
    p.add_argument("--temperature", type=float)
    p.add_argument("--no-cache", action="store_true", help="call the model even when the answer is cached")
    p.add_argument("--base-url", help="the provider's base URL (default: its environment variable, "
                                      "readers.toml, then the public API)")
    p.add_argument("--password", help="password of encrypted PDFs (sent to the reader decrypted)")
    p.add_argument("--no-structured", action="store_true",
                   help="do not send an extraction case's JSON schema as the provider's structured output")
    p.add_argument("--max-turns", type=int, metavar="N",
                   help="agent readers: the most turns of the tool loop per case (default 30)")
    p.add_argument("--deadline", type=float, metavar="S",
                   help="agent readers: seconds of wall clock per case, all turns included (default 600)")
    p.add_argument("--extractor", metavar="NAME",
                   help="agent readers: the extractor page_text reads the text layer with (default pypdf; "
                        "`pdfworkbench readers` lists those installed)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="ask every case of a suite with one reader; write a run file")
    p.add_argument("suite", type=Path)
    _reader_args(p)
    p.add_argument("--workers", type=int, default=4, help="calls in flight at once (default 4)")
    add_jobs_option(p, "local work (rendering pixels, probes)")
    p.add_argument("--shard", help="run only shard i/n of the cases (records carry it; `report` of "
                                   "every shard's file is one run and names the shards missing)")
    p.add_argument("--run-id", metavar="ID",
                   help="the run's id, the same for every shard of one run (e.g. the CI or Slurm job id); "
                        "default: derived from the suite, reader and options, new once a run is complete")
    p.add_argument("--out", type=Path,
                   help="run file (JSON Lines); default SUITE/runs/<suite>-<reader>-<modality>.jsonl, "
                        "where the workbench and `report` find it")
    p.add_argument("--resume", action="store_true", help="complete an interrupted run file without "
                                                         "repeating finished calls")
    p.add_argument("--retry-errors", action="store_true",
                   help="with --resume: ask again the cases whose calls ended in an error or timeout")
    p.add_argument("--junit", type=Path, metavar="PATH", help="also write JUnit XML")
    p.add_argument("--fail-threshold", metavar="X",
                   help="exit 1 when the pass rate over scored calls is below X (0.8 or 80%%), or "
                        "when fewer than X of all calls could be scored; without it, exit 1 when "
                        "nothing could be scored")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--batch", action="store_true",
                   help="submit the pending calls to the provider's batch service (openai, anthropic, "
                        "google) and return; run again (or `batch status RUN`) to collect")
    p.add_argument("--dry-run", action="store_true",
                   help="print the calls and tokens the run would make, and their cost with --prices; call nothing")
    p.add_argument("--prices", type=Path, metavar="FILE.toml", help="price table for --dry-run (see README)")
    p.set_defaults(handler=cmd_run)

    p = sub.add_parser("ask", help="ask one case's question (or your own) of one reader; record it in a run file")
    p.add_argument("case", type=Path, help="case JSON, or any PDF together with --question")
    _reader_args(p)
    p.add_argument("--question", help="ask this instead of the case's question; the answer is recorded "
                                      "with it and graded against no key (may begin with '-'; - reads stdin)")
    p.add_argument("--out", type=Path,
                   help="run file to append the record to (default: runs/asked.jsonl in the case's suite)")
    p.add_argument("--json", action="store_true", help="print the run record")
    p.set_defaults(handler=cmd_ask)

    p = sub.add_parser("readers", help="list readers and whether their keys are set")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_readers)

    p = sub.add_parser("fake-server", help="serve a fake model provider on 127.0.0.1 (tests, CI dry runs)")
    p.add_argument("--port", type=port_number, default=8765)
    p.add_argument("--script", type=Path, help="JSON object: PDF sha256, prompt text or '*' -> answer")
    p.add_argument("--latency-ms", type=float, default=0.0, help="wait this long before each answer")
    p.add_argument("--fault", default="", metavar="SPEC",
                   help="faults for models that name none, e.g. 429-retry-after+500x2")
    p.add_argument("--hang-s", type=float, default=30.0, help="how long the timeout fault waits")
    p.add_argument("--batch-polls", type=int, default=1, metavar="N",
                   help="a batch is in progress for N status checks, then ends (default 1)")
    p.add_argument("--batch-seconds", type=float, metavar="S", help="or: a batch ends S seconds after it is created")
    p.add_argument("--batch-end", choices=["completed", "expired", "failed"], default="completed",
                   help="how a batch ends (default completed)")
    p.set_defaults(handler=cmd_fake_server)


def _options(args: argparse.Namespace) -> dict:
    opts: dict = {}
    if args.max_tokens is not None:
        if args.max_tokens < 1:
            raise UserError("--max-tokens must be at least 1")
        opts["max_tokens"] = args.max_tokens
    if args.temperature is not None:
        opts["temperature"] = args.temperature
    if getattr(args, "no_structured", False):
        opts["structured"] = False
    if args.max_turns is not None or args.deadline is not None or args.extractor is not None:
        if not args.reader.strip().lower().startswith("agent:"):
            raise UserError("--max-turns, --deadline and --extractor are for agent readers (agent:PROVIDER:MODEL)")
        if args.extractor is not None:
            from workbench.providers.agent.tools import check_extractor

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


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "run"


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
    from workbench.core.layout import runs_dir

    return runs_dir(suite_dir) / (_slug("-".join(parts)) + ".jsonl")


class _ProgressLine:
    """Cases done, errors, tokens, elapsed: redrawn in place on a terminal, every 10% otherwise."""

    def __init__(self) -> None:
        from workbench.cli.logs import progress_shown

        self.shown = progress_shown()
        self.tty = sys.stderr.isatty() and self.shown
        self.last_decile = -1

    def __call__(self, progress) -> None:
        if self.tty:
            sys.stderr.write("\r\x1b[2K" + progress.line())
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
    from workbench.cli.grading import _threshold
    from workbench.core.suite import load_suite
    from workbench.providers.adapters import default_modality
    from workbench.providers.base import parse_reader
    from workbench.providers.running import RunInterrupted, RunPlan, effective_modality, run_suite

    threshold = _threshold(args.fail_threshold)
    if args.prices:
        from workbench.grading.cost import load_prices

        load_prices(args.prices)   # a broken table is said before any call is made
    reader = parse_reader(args.reader)
    plan = RunPlan(reader, args.modality or default_modality(reader), args.dpi, args.workers, args.prompt,
                   _options(args), not args.no_cache, args.base_url, jobs=args.jobs,
                   password=args.password)
    suite = load_suite(args.suite)
    modality, dpi = effective_modality(plan)
    out = args.out or default_out(args.suite, suite.name, str(plan.reader), modality, dpi, args.shard,
                                  plan.options.get("extractor"))
    log.debug("run: %d case(s) of %s, reader %s, modality %s%s, %d worker(s), run file %s",
              len(suite.cases), args.suite, plan.reader, modality, f" at {dpi} dpi" if dpi else "",
              plan.workers, out)
    if args.dry_run:
        from workbench.cli.costs import dry_run

        return dry_run(args, plan, suite, out)
    if args.batch:
        if reader.is_agent:
            raise UserError(f"{reader}: an agent's tool loop cannot be batched; run it without --batch")
        from workbench.cli.batchjobs import run_batch

        return run_batch(args, plan, threshold, out, run_id_arg(args))
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
    from workbench.cli.runreport import print_run_report, suite_cases

    cases, gold = suite_cases(suite.folder)
    why = print_run_report(outcome.records, cases, args.json, args.junit, threshold, args.prices, gold)
    note(f"run file: {outcome.out} ({outcome.ran} new calls, {outcome.skipped} from before; "
         f"run {outcome.run_id}{f', shard {args.shard}' if args.shard else ''})")
    if why:
        note(f"pdfworkbench: gate failed: {why}")
        return 1
    return 0


def run_id_arg(args: argparse.Namespace) -> str | None:
    """`--run-id`, checked as a plain id (run and run --batch)."""
    from workbench.core.schema import plain_id

    return plain_id(args.run_id.strip(), "--run-id") if args.run_id else None


def cmd_ask(args: argparse.Namespace) -> int:
    import asyncio

    from workbench.core.case import load_case
    from workbench.core.errors import UserError
    from workbench.core.source import bare_pdf_case
    from workbench.grading.outcome import outcome_of
    from workbench.providers.asking import ask, suite_of_case

    if args.case.suffix.lower() == ".pdf":
        if not args.question:
            raise UserError(f"{args.case}: a PDF has no question of its own; give one with --question")
        if not args.case.is_file():
            raise UserError(f"{args.case}: no such file")
        case, suite = bare_pdf_case(args.case), None
    else:
        case = load_case(args.case)
        suite = suite_of_case(case)
    rec, path = asyncio.run(ask(case, args.reader, args.modality, args.dpi, args.prompt, _options(args),
                                not args.no_cache, suite=suite, out=args.out, base_url=args.base_url,
                                password=args.password, question=args.question))
    if args.json:
        print_json(rec.to_json())
    elif rec.answer is not None:
        print(rec.answer)
    cached = " (cached)" if rec.extra.get("cached") else ""
    gold = ""
    if suite is not None:   # graded against the suite's newest gold, and it says which
        from workbench.gold.versions import case_at

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


def reader_readiness(spec: str) -> dict:
    """Whether a reader can be called here, and what is missing when it cannot: its key, or (for a
    server with no public default) a base URL."""
    import os

    from workbench.core.config import config_dir
    from workbench.providers.base import parse_reader
    from workbench.providers.config import BASE_URL_ENV, KEY_ENV, KEY_REQUIRED, base_url_origin

    r = parse_reader(spec).inner   # an agent needs what its model's provider needs
    row: dict = {"reader": spec, "needs_key": r.provider in KEY_REQUIRED, "key_env": [], "missing": []}
    if r.is_probe:
        from workbench.providers import extractors

        found = extractors.version(r.model)
        row.update(ready=found is not None, base_url=None, base_url_from=None, version=found)
        if found is None:
            row["missing"].append(extractors.missing(r.model))
        return row
    names = KEY_ENV.get(r.provider, ())
    row["key_env"] = list(names)
    try:
        url, origin = base_url_origin(r.provider)
    except UserError as exc:  # a bad base URL is this reader's problem, not the listing's
        row.update(base_url=None, base_url_from=None, ready=False, missing=[str(exc)])
        return row
    row.update(base_url=url, base_url_from=origin)
    if r.provider in KEY_REQUIRED and not any(os.environ.get(n, "").strip() for n in names):
        row["missing"].append("set " + " or ".join(names))
    if r.provider == "openai-compatible" and origin == "default":
        row["missing"].append(f"set {BASE_URL_ENV[r.provider]} (or [{r.provider}] base_url in "
                              f"{config_dir() / 'readers.toml'}) to your server")
    row["ready"] = not row["missing"]
    return row


def cmd_readers(args: argparse.Namespace) -> int:
    from workbench.providers.base import known_readers

    rows = [reader_readiness(spec) for spec in known_readers()]
    if args.json:
        print_json(rows)
    else:
        for row in rows:
            if row["base_url"] is None and row["ready"]:
                state = f"ready (offline, no key) · {row['version']}"
            elif row["ready"]:
                state = f"ready · {row['base_url']} ({row['base_url_from']})"
            else:
                state = "missing: " + "; ".join(row["missing"])
            print(f"{row['reader']:<32} {state}")
    return 0


def cmd_fake_server(args: argparse.Namespace) -> int:
    import json

    from workbench.providers.fakeserver import FakeServer

    try:
        server = FakeServer(script=args.script, latency_s=args.latency_ms / 1000.0, faults=args.fault,
                            hang_s=args.hang_s, port=args.port, batch_polls=args.batch_polls,
                            batch_seconds=args.batch_seconds, batch_end=args.batch_end)
    except OSError as exc:
        raise UserError(f"cannot listen on 127.0.0.1:{args.port} ({exc.strerror}); try another --port") from None
    except (ValueError, json.JSONDecodeError) as exc:
        raise UserError(f"fake-server: {exc}") from None
    url = server.url
    note(f"fake provider on {url} (Ctrl-C to stop); point readers at it with:")
    note(f"  export OPENAI_BASE_URL={url}/v1 ANTHROPIC_BASE_URL={url} GOOGLE_GEMINI_BASE_URL={url} "
         f"OLLAMA_HOST={url} OPENAI_COMPATIBLE_BASE_URL={url}")
    note("  ask for faults in the model name, e.g. --reader openai:fake+429-retry-after+500x2")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0
