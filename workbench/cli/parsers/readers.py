"""Options of the commands for readers: run, ask, readers, fake-server, batch."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.cli.parsers import add_jobs_option, port_number


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


def run(p: argparse.ArgumentParser) -> None:
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


def ask(p: argparse.ArgumentParser) -> None:
    p.add_argument("case", type=Path, help="case JSON, or any PDF together with --question")
    _reader_args(p)
    p.add_argument("--question", help="ask this instead of the case's question; the answer is recorded "
                                      "with it and graded against no key (may begin with '-'; - reads stdin)")
    p.add_argument("--out", type=Path,
                   help="run file to append the record to (default: runs/asked.jsonl in the case's suite)")
    p.add_argument("--json", action="store_true", help="print the run record")


def readers(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true")


def fake_server(p: argparse.ArgumentParser) -> None:
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


BATCH_EPILOG = """examples:
  pdfworkbench run SUITE --reader openai:gpt-4o --batch        # submit; run it again to collect
  pdfworkbench batch status SUITE/runs/RUN.jsonl                # poll once; collect when done
  pdfworkbench batch status RUN.jsonl --wait --every 60         # poll until done, then report
  pdfworkbench batch cancel RUN.jsonl"""


def batch(p: argparse.ArgumentParser) -> None:
    p.epilog = BATCH_EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    bsub = p.add_subparsers(dest="batch_command", metavar="ACTION", required=True, parser_class=type(p))
    for name, help_ in (
            ("status", "poll the run's batches; collect the ended ones into the run file"),
            ("cancel", "ask the provider to cancel the run's batches; collect what they finished")):
        q = bsub.add_parser(name, help=help_, epilog=BATCH_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
        q.add_argument("run", type=Path, metavar="RUN.jsonl", help="the run file (or its .batch.json beside it)")
        q.add_argument("--wait", action="store_true", help="poll until every batch has ended and is collected")
        q.add_argument("--every", type=float, default=30.0, metavar="S",
                       help="seconds between polls with --wait (default 30)")
        q.add_argument("--base-url", help="the provider's base URL (default: the one the batch was sent to)")
        q.add_argument("--password", help="password of encrypted PDFs, to prepare a batch that was "
                                          "interrupted before it was sent")
        q.add_argument("--json", action="store_true", help="print the batches' state (and the report) as JSON")
        q.add_argument("--prices", type=Path, metavar="FILE.toml", help="price table: the report adds the cost")
