"""Commands for documents the user brings: adopt (a PDF as a case) and mutate (arm a trap in it)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from workbench.cli.cases import add_into_suite, add_suite_options
from workbench.core.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("adopt", help="make a case from any PDF: copied into a suite, keyed by hand")
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
    p.set_defaults(handler=cmd_adopt)

    p = sub.add_parser("mutate", help="arm a trap in an adopted case: hidden_layer, white_text, ...")
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
    p.set_defaults(handler=cmd_mutate)


def _plain_id(stem: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-._")[:100] or "adopted"


def _matcher(args: argparse.Namespace) -> dict | None:
    from workbench.build.make import parse_param_args
    from workbench.grading.matchers import MATCHERS

    if args.matcher is None and not args.matcher_option:
        return None
    kind = args.matcher or ("tokens_all" if args.token else "contains")
    if kind not in MATCHERS or kind == "fields":
        raise UserError(f"--matcher {kind!r}: choose one of {', '.join(m for m in MATCHERS if m != 'fields')}")
    spec: dict = {"type": kind}
    for name, raw in parse_param_args(args.matcher_option).items():
        try:
            spec[name] = float(raw) if re.fullmatch(r"-?\d+(\.\d+)?", raw) else \
                {"true": True, "false": False}.get(raw.lower(), raw)
        except ValueError:
            spec[name] = raw
    return spec


def cmd_adopt(args: argparse.Namespace) -> int:
    from workbench.build.adopted import adopt_pdf
    from workbench.checks.locate import located_answer
    from workbench.pdf.document import read_pdf

    data, encryption = read_pdf(args.pdf, args.password)
    case_id = args.case_id or _plain_id(args.pdf.stem)
    keyless = not args.question.strip() and not args.expected.strip() and not args.token
    if keyless:
        raise UserError("adopt needs a key: --question TEXT and --expected TEXT (the answer as the page "
                        "prints it); the workbench's Key tab edits it later")
    case = adopt_pdf(data, args.pdf.name, case_id, args.question, args.expected, args.token,
                     args.forbidden, _matcher(args), encryption.to_json())
    located, problems = located_answer(case, data)
    code = add_into_suite(args, case, data, more_errors=problems)
    if not args.json and encryption.method:
        print(f"  {encryption.said()}")
    if not args.json and located is not None:
        box = ", ".join(f"{v:.1f}" for v in located.box)
        print(f"  located {located.text!r} on page {located.page + 1} at ({box})"
              + ("" if located.visible else " (hidden text)"))
    return code


def cmd_mutate(args: argparse.Namespace) -> int:
    from workbench.build.adopted import Step, mutated_case, mutation, read_source
    from workbench.build.make import parse_param_args
    from workbench.core.case import load_case
    from workbench.pdf.document import read_pdf_bytes

    case = load_case(args.case)
    if case.source is None:
        raise UserError(f"{args.case}: not an adopted case; adopt the PDF first "
                        "(pdfworkbench adopt FILE.pdf --into SUITE --question Q --expected A)")
    mut = mutation(args.trap)
    source = read_source(case)
    current = read_pdf_bytes(case.pdf_file, args.password)
    target = locate_target(case, current, mut.needs_target, args.at, args.page)
    step = Step(mut.name, mut.version, args.seed, parse_param_args(args.param), target=target)
    new, pdf, extra = mutated_case(case, source, [step], args.case_id, args.password)
    if args.into is None:
        args.into = case.json_path.parent if case.json_path else Path(".")
    code = add_into_suite(args, new, pdf, extra)
    if not args.json:
        where = f" at page {target.page + 1} ({target.text!r})" if target else ""
        decoy = new.metadata.get("mutation", {})
        said = ", ".join(f"{k} {v!r}" for k, v in decoy.items() if isinstance(v, str))
        print(f"  {mut.name}{where}" + (f": {said}" if said else ""))
        encryption = (new.source or {}).get("encryption") or {}
        if encryption.get("kept") == "as it is":
            print(f"  the adopted source is encrypted ({encryption.get('method')}); {new.id} is written "
                  "without encryption")
    return code


def locate_target(case, pdf: bytes, needed: bool, at: str | None, page: int | None = None):
    """The mutation's `Target` (see `pdf.locate.locate_for`), or None for one that needs none."""
    from workbench.checks.locate import locate_for
    from workbench.generators.mutations import Target

    if not needed and at is None:
        return None
    hit = locate_for(case, pdf, at, page)
    return Target(hit.page, hit.box, hit.text)
