"""Commands for families and cases: families, make, build, verify, inspect."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.cli.output import add_jobs_option, note, print_json
from workbench.core.errors import UserError
from workbench.core.scan import DegradeSpec

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


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("families", help="list the trap families")
    p.add_argument("--json", action="store_true", help="print name, version, description and parameters")
    p.set_defaults(handler=cmd_families)

    p = sub.add_parser("make", help="generate one case: <id>.pdf and <id>.json")
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
    p.set_defaults(handler=cmd_make)

    p = sub.add_parser("build", help="materialise a suite from a TOML spec", description=BUILD_SPEC_HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("spec", type=Path)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--shard", help="build only shard i/n of the cases")
    p.add_argument("--json", action="store_true", help="print the suite folder, hash and case count as JSON")
    add_jobs_option(p, "generating the cases")
    p.set_defaults(handler=cmd_build)

    p = sub.add_parser("merge-suite", help="merge a sharded build's shard manifests into suite.json")
    p.add_argument("suite", type=Path, metavar="DIR")
    p.add_argument("--json", action="store_true", help="print the suite hash, cases and shards as JSON")
    p.set_defaults(handler=cmd_merge_suite)

    p = sub.add_parser("verify", help="regenerate every case of a suite and compare bytes and keys")
    p.add_argument("suite", type=Path)
    p.add_argument("--json", action="store_true")
    add_jobs_option(p, "regenerating the cases")
    p.set_defaults(handler=cmd_verify)

    p = sub.add_parser("inspect", help="page sizes and text layers of a PDF or a case")
    p.add_argument("path", type=Path)
    p.add_argument("--json", action="store_true")
    p.add_argument("--dpi", type=int, default=150, help="DPI for the visibility checks")
    p.add_argument("--pages", metavar="LIST",
                   help="pages to inspect, as 1-5,12 or all (default: a bare PDF's first 1000)")
    p.add_argument("--password", help="password of an encrypted PDF")
    add_jobs_option(p, "analysing the pages")
    p.set_defaults(handler=cmd_inspect)


def cmd_families(args: argparse.Namespace) -> int:
    from workbench.build.make import family_registry
    from workbench.generators.mutations import mutations

    reg = family_registry()
    muts = mutations()
    if args.json:  # mutations declare params like families; "kind": "mutation" tells them apart
        print_json([f.describe() for f in reg.families.values()] + [m.describe() for m in muts.values()])
    else:
        width = max(len(n) for n in [*reg.families, *muts])
        for fam in reg.families.values():
            print(f"{fam.name:<{width}}  v{fam.version}  {fam.description}")
            _print_params(fam.describe()["params"])
        print("\nmutations (pdfworkbench mutate CASE --trap NAME, on an adopted case):")
        for mut in muts.values():
            print(f"{mut.name:<{width}}  v{mut.version}  {mut.description}")
            _print_params(mut.describe().get("params", []))
        print("\nset one with --param NAME=VALUE; a seeded parameter left unset is drawn from --seed")
    for problem in reg.problems:
        note(f"pdfworkbench: warning: family module not loaded: {problem.message}")
    return 0


def _print_params(params: list[dict]) -> None:
    """A family's parameters, one indented line each: name, type, default, range or choices, help."""
    if not params:
        return
    width = max(len(p["name"]) for p in params)
    for p in params:
        lo, hi = p.get("range") or (None, None)
        allowed = (f"  one of {', '.join(map(str, p['choices']))}" if "choices" in p
                   else f"  up to {hi} characters" if p["type"] == "str" and hi is not None
                   else f"  {lo}..{hi}" if lo is not None and hi is not None
                   else f"  at least {lo}" if lo is not None else f"  at most {hi}" if hi is not None else "")
        drawn = ", seeded" if p.get("seeded") else ""
        print(f"    {p['name']:<{width}}  {p['type']}, default {p['default']!r}{drawn}{allowed}  {p['help']}")


def _degrade_spec(args: argparse.Namespace) -> DegradeSpec | None:
    from workbench.build.make import parse_param_args

    if not (args.tier or args.degrade or args.text_layer or args.dpi is not None):
        return None
    return DegradeSpec.parse({"tier": args.tier, "overrides": parse_param_args(args.degrade),
                              "text_layer": args.text_layer, "dpi": args.dpi})


def add_suite_options(p: argparse.ArgumentParser) -> None:
    """The options of every command that adds a case to a suite or writes one."""
    p.add_argument("--overwrite", action="store_true", help="replace a case with the same id")
    p.add_argument("--allow-lint-errors", action="store_true",
                   help="with --into: save even when the lint finds errors (the trap may not be armed)")


def add_into_suite(args: argparse.Namespace, case, pdf: bytes, extra_files=None,
                   more_errors: list[str] | None = None) -> int:
    """Lint the case, add it to the suite `args.into` (see `build.suite.add_to_suite`), say so."""
    from workbench.build.suite import add_to_suite
    from workbench.checks.lint import lint_case

    findings = lint_case(case, pdf)
    errors = [f"{f.code}: {f.message}" for f in findings if f.severity == "error"] + (more_errors or [])
    added = add_to_suite(args.into, case, pdf, overwrite=args.overwrite, lint_errors=errors,
                         save_with_lint_errors=args.allow_lint_errors, extra_files=extra_files)
    if args.json:
        print_json(case.to_json() | {"suite_hash": added.suite_hash, "json_path": str(added.json_path)})
        return 0
    what = "a new suite" if added.new_suite else "the suite"
    verb = "replaced" if added.replaced else "added"
    print(f"{verb} {case.id} in {what} {args.into} ({len(pdf):,} bytes, sha256 {sha_of(pdf)[:12]})")
    for f in findings:
        if f.severity in ("error", "warning"):
            print(f"  lint {f.severity}: {f.code}: {f.message}")
    print(f"suite hash {added.suite_hash}")
    return 0


def sha_of(pdf: bytes) -> str:
    from workbench.core.case import sha256_hex

    return sha256_hex(pdf)


def write_pair(args: argparse.Namespace, case, pdf: bytes) -> int:
    """Write `<id>.pdf` and `<id>.json` into `args.out` (no suite.json), refusing to overwrite."""
    from workbench.build.make import write_case
    from workbench.core.atomic import ensure_folder

    out = args.out or Path(".")
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out}: exists and is not a folder")
    ensure_folder(out, "--out")
    taken = [p for p in (out / f"{case.id}.json", out / f"{case.id}.pdf") if p.exists()]
    if taken and not args.overwrite:
        raise UserError(f"{taken[0]} already exists; choose another --id, add it to a suite with "
                        "--into SUITE, or replace it with --overwrite")
    path = write_case(case, pdf, out)
    if args.json:
        print_json(case.to_json())
    else:
        print(f"wrote {path} and {path.with_suffix('.pdf')} ({len(pdf):,} bytes, sha256 {case.sha256[:12]})")
    return 0


def cmd_make(args: argparse.Namespace) -> int:
    from workbench.build.make import generate_case, parse_param_args

    pinned = parse_param_args(args.param)
    case, pdf = generate_case(args.family, args.seed, pinned, _degrade_spec(args), case_id=args.case_id)
    if args.into is not None:
        return add_into_suite(args, case, pdf)
    if args.allow_lint_errors:
        raise UserError("--allow-lint-errors goes with --into SUITE (--out does not lint)")
    return write_pair(args, case, pdf)


def cmd_build(args: argparse.Namespace) -> int:
    from workbench.build.suite import build_suite

    if args.out.exists() and not args.out.is_dir():
        raise UserError(f"--out {args.out}: exists and is not a folder; give a folder for the suite")
    digest, count = build_suite(args.spec, args.out, shard=args.shard, jobs=args.jobs)
    build = _recorded_build(args.out)
    if args.json:
        print_json({"suite": str(args.out), "suite_hash": digest, "cases": count, "shard": args.shard,
                    "build": build})
        return 0
    print(f"built {count} cases into {args.out}" + (f" (shard {args.shard})" if args.shard else ""))
    _print_build(build)
    print(f"suite hash {digest}")
    return 0


def _recorded_build(folder: Path) -> dict | None:
    from workbench.core.suite import load_suite

    return load_suite(folder).build


def _print_build(build: dict | None) -> None:
    """For a sharded build: which shards suite.json holds so far (each shard merges as it ends)."""
    if not build or build.get("shards", 1) == 1:
        return
    n = build["shards"]
    print(f"suite.json: shards {', '.join(f'{i}/{n}' for i in build['complete']) or 'none'} complete"
          + (f"; not yet: {', '.join(f'{i}/{n}' for i in build['missing'] + [int(k) for k in build['incomplete']])}"
             if build["missing"] or build["incomplete"] else f"; all {build['cases']} cases"))


def cmd_merge_suite(args: argparse.Namespace) -> int:
    from workbench.build.suite import merge_suite_locked
    from workbench.core.suite import build_problems

    if not args.suite.is_dir():
        raise UserError(f"{args.suite}: not a folder; give the folder the shards were built into")
    digest, state = merge_suite_locked(args.suite)
    block = state.to_json()
    problems = build_problems(block)
    count = len(state.entries())
    if args.json:
        print_json({"suite": str(args.suite), "suite_hash": digest, "cases": count, "build": block,
                    "ok": not problems})
    else:
        print(f"merged {count} of {state.total} cases from {len(state.shards)} of {state.of} shard(s) "
              f"into {args.suite / 'suite.json'}")
        print(f"suite hash {digest}")
    for line in problems:
        note(f"pdfworkbench: {line}")
    return 1 if problems else 0


def cmd_verify(args: argparse.Namespace) -> int:
    from workbench.build.suite import verify_suite

    results, digest, recorded = verify_suite(args.suite, jobs=args.jobs)
    bad = [r for r in results if not r.ok]
    if args.json:
        print_json({"suite_hash": digest, "recorded_hash": recorded, "ok": not bad,
                    "cases": [r.__dict__ for r in results]})
    else:
        for r in bad:
            print(f"MISMATCH {r.case_id}: {'; '.join(r.problems)}")
        other = [r for r in results if r.how in ("recorded hash", "no recorded hash")]
        made = [r for r in results if r not in other]   # regenerated, and suite.json's own checks
        if made or not other:
            print(f"{sum(r.ok for r in made)} of {len(made)} match")
        if other:
            hashed = [r for r in other if r.how == "recorded hash"]
            print(f"{len(other)} case(s) not made by pdfworkbench's generators cannot be regenerated; "
                  f"checked their PDF bytes against the sha256 they record instead: "
                  f"{sum(r.ok for r in hashed)} match, {sum(not r.ok for r in hashed)} differ, "
                  f"{len(other) - len(hashed)} with no recorded hash")
        print(f"suite hash {digest}")
    return 0 if not bad else 1


def load_target(path: Path, password: str | None = None):
    """A PDF path or a case JSON path -> (pdf bytes, case or None)."""
    from workbench.core.case import load_case
    from workbench.pdf.document import read_pdf_bytes

    if path.suffix.lower() == ".json":
        case = load_case(path)
        return read_pdf_bytes(case.pdf_file, password), case
    return read_pdf_bytes(path, password), None


def cmd_inspect(args: argparse.Namespace) -> int:
    from functools import partial

    from workbench.checks.inspect import evidence_needles, inspect_stream
    from workbench.cli.output import json_text, print_json_stream
    from workbench.pdf.pages import PdfPages, parse_pages

    data, case = load_target(args.path, args.password)
    name = str(args.path)
    with PdfPages(data, name, args.dpi, cache_pages=1) as doc:
        count = doc.page_count
    # A case's PDF is inspected whole; a bare PDF stops at the cap unless --pages says otherwise.
    chosen, left_out = parse_pages(args.pages, count, None if case is not None else "default")
    needles = evidence_needles(case) if case is not None else []
    # --json: each page's text is made where the page is analysed (see `inspect_stream`)
    encode = partial(json_text, level=2) if args.json else None
    unread: dict[str, int] = {}  # line -> the pages it was said of

    def warn(line: str) -> None:
        if line not in unread:  # (a file pypdf cannot open at all says so once, not each page)
            note(f"pdfworkbench: {line}")
        unread[line] = unread.get(line, 0) + 1

    pages = inspect_stream(data, chosen, name, args.dpi, needles, args.jobs, encode, warn)
    if left_out:
        note(f"pdfworkbench: {name}: {left_out}")
    if args.json:
        head = {"page_count": count, "dpi": args.dpi}
        if left_out:
            head["pages_left_out"] = left_out
        tail = {"structure": _structure(data, name)}  # the whole file's, after its pages
        if case is not None:
            tail["case_id"] = case.id
        print_json_stream(head, "pages", pages, tail, encoded=True)
        return _unread_code(name, unread)
    print(f"{args.path}: {count} page(s)" + (f" ({left_out})" if left_out else ""))
    colour = _colour_stdout()
    for page in pages:
        print(f"\n=== page {page['number']}: {page['width_pt']:.0f} x {page['height_pt']:.0f} pt"
              f" (rotation {page['rotation']})")
        if page.get("skipped"):
            print(f"({page['skipped']})")
        for extractor in ("pypdf", "pymupdf"):
            print(f"--- text layer ({extractor}) ---")
            why = page.get("unread", {}).get(extractor)
            text = page["text"][extractor].rstrip()
            print(f"(not read: {why})" if why else mark_hidden_text(text, page["spans"], colour) or "(empty)",
                  flush=True)
    _print_structure(_structure(data, name))
    return _unread_code(name, unread)


HIDDEN_ANSI = "\x1b[1;30;48;5;208m"  # bold black on dark orange: the Inspect screen's hidden text


def _colour_stdout() -> bool:
    """Colour on a terminal, unless NO_COLOR is set (https://no-color.org); plain tags in a pipe."""
    import os
    import sys

    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def mark_hidden_text(text: str, spans: list[dict], colour: bool) -> str:
    """A text layer with each stretch of hidden text marked, as the Inspect screen marks it:
    coloured on a terminal, else followed by a `[hidden: why]` tag."""
    from workbench.pdf.pages import hidden_stretches

    hidden = [(s["text"], ", ".join(s["reasons"]) or "hidden") for s in spans if not s["visible"]]
    out, at = [], 0
    for start, end, why in hidden_stretches(text, hidden):
        out.append(text[at:start])
        out.append(f"{HIDDEN_ANSI}{text[start:end]}\x1b[0m" if colour else f"{text[start:end]} [hidden: {why}]")
        at = end
    return "".join(out) + text[at:]


def _unread_code(name: str, unread: dict[str, int]) -> int:
    """inspect's exit code: 1 when a page's layer could not be read (the output says which)."""
    if not unread:
        return 0
    note(f"pdfworkbench: {name}: {sum(unread.values())} page layer(s) could not be read and are shown empty "
         "(\"unread\" in the page's JSON); the rest of the output is whole")
    return 1


def _structure(data: bytes, name: str) -> dict:
    from workbench.pdf.structure import structure_report

    return structure_report(data, name).to_json()


def _print_structure(structure: dict) -> None:
    """Revisions and form fields, when the file has more than one of the first or any of the second."""
    revisions = structure["revisions"]
    if len(revisions) > 1:
        print("\n=== revisions (incremental updates) ===")
        for r in revisions:
            change = (f"changed page(s) {', '.join(map(str, r['pages_changed']))}: removed {r['removed'][:4]},"
                      f" added {r['added'][:4]}" if r["pages_changed"] else "the original" if r["number"] == 1
                      else "no page text changed")
            print(f"revision {r['number']} (to byte {r['end']}, {r['objects']} objects): {change}")
    if structure["fields"]:
        print("\n=== form fields ===")
        for f in structure["fields"]:
            mark = "  <- differs" if f["differs"] else ""
            print(f"page {f['page_number']} {f['name']!r}: value {f['value']!r}, appearance {f['appearance']!r}{mark}")
