"""Options of the commands for grading and reports: grade, report, compare, export, import-run."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.core.errors import UserError


def grade(p: argparse.ArgumentParser) -> None:
    p.add_argument("case", type=Path, nargs="?", help="case JSON (not with --batch)")
    given = p.add_mutually_exclusive_group()
    given.add_argument("--answer", metavar="TEXT",
                       help="the answer text, which may begin with '-' (--answer '-$5'); - reads it from stdin")
    given.add_argument("--answer-file", type=Path, metavar="FILE", help="read the answer from FILE")
    p.add_argument("--json", action="store_true",
                   help="print the verdict as JSON, with the attribution of each value")
    p.add_argument("--explain", action="store_true",
                   help="say where in the document each value of the answer came from")
    p.add_argument("--gold", default="latest", metavar="vN",
                   help="gold version of the case's suite to grade against: vN or latest (default)")
    given.add_argument("--batch", type=Path, metavar="ANSWERS.jsonl",
                       help='grade every line {"case": "PATH/TO/CASE.json", "answer": "..."} (a case id '
                            "with --suite; - reads stdin): one JSON line each on stdout, in input order, "
                            "the verdict as --json gives it (attribution with --explain); a bad line is "
                            "that line's error; exit 2 if a line was bad, else 1 if an answer was wrong")
    p.add_argument("--suite", type=Path, metavar="DIR", help="with --batch: the suite whose case ids the lines name")


def report(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", type=Path, nargs="+", metavar="RUN.jsonl")
    p.add_argument("--suite", type=Path, action="append", default=[], metavar="DIR",
                   help="suite folder with the answer keys (default: recorded in the run, or beside it)")
    p.add_argument("--allow-mixed", action="store_true",
                   help="report agent results whose contract, reader or controller hashes differ together")
    p.add_argument("--by", metavar="GROUP", help="group by family, tier, reader, modality, tool-use (what an agent "
                        "opened: text only, image only, both, no page) or param:NAME; `source` says where "
                        "each wrong answer came from in the document (hidden text, another page, ...); "
                        "`extractor` adds the family x extractor matrix `exposure` prints, from runs of "
                        "probe:NAME readers (one column per run)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--junit", type=Path, metavar="PATH", help="also write JUnit XML")
    p.add_argument("--fail-threshold", metavar="X",
                   help="exit 1 when a run's pass rate over scored calls is below X (0.8 or 80%%), "
                        "or fewer than X of its calls were scored; without it, exit 1 when a run "
                        "scored nothing")
    p.add_argument("--audit-pack", type=Path, metavar="PATH",
                   help="also write a reproducible zip of PDFs, keys, records and report")
    p.add_argument("--prices", type=Path, metavar="FILE.toml",
                   help="price table (per million tokens, per reader; see README): adds each run's cost")
    p.add_argument("--html", type=Path, metavar="OUT.html",
                   help="also write a self-contained HTML report: charts, the four states, and a card per "
                        "wrong answer with its page crop (needs the report extra)")
    p.add_argument("--leaderboard", type=Path, metavar="OUT.json",
                   help="also write the rows a leaderboard publishes (reader, pass rate and interval, per "
                        "family, suite hash, gold version, configuration hash); - prints them")
    p.add_argument("--jobs", type=int, default=0, metavar="N",
                   help="processes for the HTML report's page crops and --by source's tracing "
                        "(default every core)")
    p.add_argument("--no-cache", action="store_true",
                   help="make the HTML report's page crops afresh (the cache is keyed by the PDF's bytes, "
                        "the answer key and the code and libraries that draw them)")
    p.add_argument("--gold", default="latest", metavar="vN",
                   help="gold version to grade against: vN or latest (default); the report names it")


def compare(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_a", type=Path, metavar="RUN_A.jsonl")
    p.add_argument("run_b", type=Path, metavar="RUN_B.jsonl")
    p.add_argument("--suite", type=Path, metavar="DIR",
                   help="suite folder with the answer keys (default: the one both runs were made on)")
    p.add_argument("--gold", metavar="vN", help="grade both runs against this gold version (default: the "
                                               "newest; giving one also allows runs made on other keys)")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    p.add_argument("--html", type=Path, metavar="OUT.html", help="also write it as a self-contained HTML page")


def export(p: argparse.ArgumentParser) -> None:
    p.add_argument("suite", type=Path)
    p.add_argument("--to", required=True, choices=["inspect", "jsonl", "olmocr-bench"],
                   help="inspect: a task file and dataset whose scorer is our grader; jsonl: a folder "
                        "`datasets.load_dataset` reads (keys, PDFs, dataset card); olmocr-bench: "
                        "single-page PDFs and a test JSONL olmOCR-bench runs")
    p.add_argument("--out", type=Path, required=True, metavar="DIR", help="a new (or empty) folder")
    p.add_argument("--license", default="agpl-3.0", metavar="ID",
                   help="licence named in the dataset card (default agpl-3.0, the generator's)")
    p.add_argument("--gold", default="latest", metavar="vN",
                   help="gold version whose answer keys to export: vN or latest (default)")
    p.add_argument("--json", action="store_true", help="print what was written as JSON")


def import_run(p: argparse.ArgumentParser) -> None:
    p.add_argument("result", type=Path, metavar="RESULT",
                   help="pdfhell RESULT.json, Inspect LOG.json or LOG.eval, PREDICTIONS.jsonl, or a folder "
                        "of olmOCR-bench candidate outputs (CASE-pN_pg1_repeatR.md)")
    p.add_argument("--out", type=Path, metavar="RUN.jsonl",
                   help="default: SUITE/runs/<name>.jsonl with --suite (where report and the workbench look), "
                        "else beside the input (a pdfhell RESULT.json: RESULT.jsonl)")
    p.add_argument("--reader", metavar="P:M", help="for a predictions file: the model that made them")
    p.add_argument("--suite", type=Path, metavar="DIR", help="suite folder: adds hashes and questions")
    p.add_argument("--force", action="store_true", help="replace --out if it exists")
    p.add_argument("--json", action="store_true", help="print what was imported as JSON")


def threshold(raw: str | None) -> float | None:
    """`--fail-threshold X` (report, run, batch) as a fraction: 0.8 or 80%."""
    if raw is None:
        return None
    text = raw.strip()
    try:
        value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise UserError(f"--fail-threshold {raw!r}: give a fraction like 0.8 or a percentage like 80%")
    return value
