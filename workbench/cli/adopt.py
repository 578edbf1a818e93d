"""Commands for documents the user brings: adopt (a PDF as a case) and mutate (arm a trap in it)."""

from __future__ import annotations

import argparse
import re
import unicodedata
from pathlib import Path

from workbench.build.adopted import adopt_pdf, mutated_case, mutation, read_source
from workbench.build.make import parse_param_args
from workbench.checks.locate import locate_for, located_answer
from workbench.cli.saving import add_into_suite
from workbench.core.adoption import MutationStep
from workbench.core.case import Case, load_case
from workbench.core.digest import sha256_hex
from workbench.core.errors import UserError
from workbench.core.matcher import MATCHERS, MatcherSpec
from workbench.generators.mutations import Target
from workbench.pdf.document import read_pdf, read_pdf_bytes


def _plain_id(stem: str) -> str:
    """A case id from a file's name: letters (accents folded: `Rechnung März` is `Rechnung-Marz`),
    digits, '.', '_' and '-'; a name with none of these (`日本語 請求書`, an emoji) is `adopted-`
    and a hash of it, so that two such files are two cases (both were `adopted`, and the second
    was refused as existing)."""
    folded = "".join(ch for ch in unicodedata.normalize("NFKD", stem) if not unicodedata.combining(ch))
    plain = re.sub(r"[^A-Za-z0-9._-]+", "-", folded).strip("-._")[:100]
    return plain or f"adopted-{sha256_hex(stem.encode('utf-8', 'surrogatepass'))[:8]}"


def _matcher(args: argparse.Namespace) -> MatcherSpec | None:
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
    try:
        return MatcherSpec.parse(spec)
    except UserError as exc:
        raise UserError(f"--matcher-option: {exc}") from None


def cmd_adopt(args: argparse.Namespace) -> int:
    data, encryption = read_pdf(args.pdf, args.password)
    case_id = args.case_id or _plain_id(args.pdf.stem)
    keyless = not args.question.strip() and not args.expected.strip() and not args.token
    if keyless:
        raise UserError("adopt needs a key: --question TEXT and --expected TEXT (the answer as the page "
                        "prints it); the workbench's Key tab edits it later")
    case = adopt_pdf(data, args.pdf.name, case_id, args.question, args.expected, args.token,
                     args.forbidden, _matcher(args), encryption)
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
    case = load_case(args.case)
    if case.source is None:
        raise UserError(f"{args.case}: not an adopted case; adopt the PDF first "
                        "(pdfworkbench adopt FILE.pdf --into SUITE --question Q --expected A)")
    mut = mutation(args.trap)
    source = read_source(case)
    current = read_pdf_bytes(case.pdf_file, args.password)
    target = locate_target(case, current, mut.needs_target, args.at, args.page)
    step = MutationStep(mut.name, mut.version, args.seed, parse_param_args(args.param), target=target)
    new, pdf, extra = mutated_case(case, source, [step], args.case_id, args.password)
    if args.into is None:
        args.into = case.json_path.parent if case.json_path else Path(".")
    code = add_into_suite(args, new, pdf, extra)
    if not args.json:
        where = f" at page {target.page + 1} ({target.text!r})" if target else ""
        decoy = new.metadata.get("mutation", {})
        said = ", ".join(f"{k} {v!r}" for k, v in decoy.items() if isinstance(v, str))
        print(f"  {mut.name}{where}" + (f": {said}" if said else ""))
        encryption = new.source.encryption if new.source else None
        if encryption is not None and not encryption.needs_password:
            print(f"  the adopted source is encrypted ({encryption.method}); {new.id} is written "
                  "without encryption")
    return code


def locate_target(case: Case, pdf: bytes, needed: bool, at: str | None, page: int | None = None) -> Target | None:
    """The mutation's `Target` (see `pdf.locate.locate_for`), or None for one that needs none."""
    if not needed and at is None:
        return None
    hit = locate_for(case, pdf, at, page)
    return Target(hit.page, hit.box, hit.text)
