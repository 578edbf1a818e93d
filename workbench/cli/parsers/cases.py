"""Options of the commands for families, cases and suites: families, make, build, merge-suite,
verify, inspect, adopt, mutate, lint, new-family."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.cli.parsers import add_jobs_option, add_suite_options

# The fields of a suite spec (core.schema.SPEC and SPEC_GROUP; a test holds this text to them).
BUILD_SPEC_HELP = """\
Materialise a suite from a TOML spec: every case it lists, its PDF and answer key, and suite.json.

The spec's fields:
  name = "my-suite"        the suite's name (default: the spec file's name)
  version = "1"            the suite's version (default "1")
  description = "..."      free text

  [[families]]             one table per group of cases
  [[family]]               the same, another spelling
  name = "FAMILY"          the trap family (pdfworkbench families lists them and their parameters)
  seeds = "1..10"          an integer, a list [1, 5, 9] or a range "1..10" (inclusive); default 1
  params = { k = v }       parameters pinned for every seed (the others are drawn from the seed)
  tier = "mild"            scan the page at a degradation tier: clean, mild, moderate, heavy
  tiers = ["clean", ...]   one case per seed and tier
  degrade = { blur = 0.7 } override single scan knobs of the tier (make --degrade NAME=VALUE)
  text_layer = "none"      text layer of a scanned page: none, faithful (the words as printed),
                           drifted (values that differ from the pixels)
  dpi = 150                scan resolution
"""


def families(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print name, version, description and parameters")


def make(p: argparse.ArgumentParser) -> None:
    p.add_argument("family")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", help="pin a parameter")
    p.add_argument("--id", dest="case_id", help="case id (default: FAMILY-SEED)")
    # Tier and text-layer names are checked by DegradeSpec.parse (the one list), which names them.
    p.add_argument("--tier", metavar="TIER", help="scan degradation tier: a preset of scan operations")
    p.add_argument("--degrade", action="append", default=[], metavar="NAME=VALUE",
                   help="override one degradation knob")
    p.add_argument("--text-layer", metavar="LAYER",
                   help="text layer of the scanned PDF: none, the words as printed, or drifted values")
    p.add_argument("--dpi", type=int, help="scan DPI for degradation")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--out", type=Path, help="output folder for the two files (default: here)")
    where.add_argument("--into", type=Path, metavar="SUITE",
                       help="add the case to a suite (new or existing): lints it, updates suite.json")
    add_suite_options(p)
    p.add_argument("--json", action="store_true", help="print the case JSON")


def build(p: argparse.ArgumentParser) -> None:
    p.description = BUILD_SPEC_HELP
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("spec", type=Path)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--shard", help="build only shard i/n of the cases")
    p.add_argument("--json", action="store_true", help="print the suite folder, hash and case count as JSON")
    add_jobs_option(p, "generating the cases")


def merge_suite(p: argparse.ArgumentParser) -> None:
    p.add_argument("suite", type=Path, metavar="DIR")
    p.add_argument("--json", action="store_true", help="print the suite hash, cases and shards as JSON")


def verify(p: argparse.ArgumentParser) -> None:
    p.add_argument("suite", type=Path)
    p.add_argument("--json", action="store_true")
    add_jobs_option(p, "regenerating the cases")


def inspect(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", type=Path)
    p.add_argument("--json", action="store_true")
    p.add_argument("--dpi", type=int, default=150, help="DPI for the visibility checks")
    p.add_argument("--pages", metavar="LIST",
                   help="pages to inspect, as 1-5,12 or all (default: the first 1000)")
    p.add_argument("--password", help="password of an encrypted PDF")
    add_jobs_option(p, "analysing the pages")


def adopt(p: argparse.ArgumentParser) -> None:
    p.add_argument("pdf", type=Path, metavar="FILE.pdf")
    p.add_argument("--into", type=Path, required=True, metavar="SUITE", help="suite folder (new or existing)")
    p.add_argument("--question", default="", help="the question a reader is asked")
    p.add_argument("--expected", default="", help="the right answer, as the page prints it")
    p.add_argument("--token", action="append", default=[], metavar="TEXT",
                   help="an expected token (tokens_all: every token must be in the answer)")
    p.add_argument("--forbidden", action="append", default=[], metavar="TEXT", help="a wrong answer to catch")
    p.add_argument("--matcher", default=None, metavar="TYPE",
                   help="contains (default), tokens_all, keywords_all, exact, numeric")
    p.add_argument("--matcher-option", action="append", default=[], metavar="NAME=VALUE",
                   help="a matcher option, e.g. tolerance=0.01 for numeric")
    p.add_argument("--id", dest="case_id", help="case id (default: the file name)")
    p.add_argument("--password", help="password of an encrypted PDF (the suite keeps it decrypted)")
    add_suite_options(p)
    p.add_argument("--json", action="store_true", help="print the case JSON")


def mutate(p: argparse.ArgumentParser) -> None:
    p.add_argument("case", type=Path, metavar="CASE.json")
    p.add_argument("--trap", required=True, metavar="NAME", help="the mutation (pdfworkbench families lists them)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", help="pin a parameter")
    p.add_argument("--seed", type=int, default=1, help="draws every parameter left unpinned")
    p.add_argument("--at", metavar="PAGE:x0,y0,x1,y1",
                   help="the value to attack, as a box in points from the top-left corner of the page "
                        "as displayed (turned by its /Rotate, as the workbench and inspect --json show "
                        "it); default: the expected answer, located")
    p.add_argument("--page", type=int, metavar="N", help="attack the expected answer where page N prints it")
    p.add_argument("--into", type=Path, metavar="SUITE", help="suite folder (default: the case's own)")
    p.add_argument("--id", dest="case_id", help="id of the new case (default: CASE-TRAP-SEED)")
    p.add_argument("--password", help="password of an encrypted adopted source (the new case is "
                   "written without encryption)")
    add_suite_options(p)
    p.add_argument("--json", action="store_true", help="print the case JSON")


def lint(p: argparse.ArgumentParser) -> None:
    p.description = ("Lint a case JSON, a suite folder (ours or pdfhell's) or a PDF with --key. "
                     "Exit 1 if any finding is an error.")
    p.add_argument("path", type=Path, help="case JSON, suite folder, or PDF")
    p.add_argument("--key", type=Path, help="answer key JSON for a bare PDF (a case JSON will do)")
    p.add_argument("--json", action="store_true", help="print the findings as a JSON list")
    p.add_argument("--dpi", type=int, default=150, help="DPI at which visibility is judged (default 150)")
    p.add_argument("--pages", metavar="LIST",
                   help="pages of a bare PDF, as 1-5,12 or all (default: the first 1000)")
    p.add_argument("--password", help="password of encrypted PDFs (each is linted decrypted)")
    add_jobs_option(p, "linting a suite's cases or a PDF's pages")


def new_family(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", help="family name: lower-case letters, digits and '_' (the module's file name)")
    p.add_argument("--dir", type=Path, dest="folder",
                   help="folder to write it in (default: <config dir>/families, always searched)")
    p.add_argument("--json", action="store_true", help="print the file written and whether it is searched")
