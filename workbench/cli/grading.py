"""Commands for grading and reports: grade, report, import-run."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from workbench.cli.output import note, print_json
from workbench.core.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("grade", help="grade one answer against a case's key (exit 0 if correct, 1 if not); "
                                     "--batch grades many in one process")
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
    p.set_defaults(handler=cmd_grade)

    p = sub.add_parser("report", help="score run records against their answer keys")
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
                   help="processes for the HTML report's page crops (default every core)")
    p.add_argument("--no-cache", action="store_true",
                   help="make the HTML report's page crops afresh (the cache is keyed by the PDF's bytes, "
                        "the answer key and the code and libraries that draw them)")
    p.add_argument("--gold", default="latest", metavar="vN",
                   help="gold version to grade against: vN or latest (default); the report names it")
    p.set_defaults(handler=cmd_report)

    p = sub.add_parser("compare", help="paired comparison of two runs on the same suite: flips each way, "
                                       "exact McNemar test, the difference in pass rate with its 95%% interval")
    p.add_argument("run_a", type=Path, metavar="RUN_A.jsonl")
    p.add_argument("run_b", type=Path, metavar="RUN_B.jsonl")
    p.add_argument("--suite", type=Path, metavar="DIR",
                   help="suite folder with the answer keys (default: the one both runs were made on)")
    p.add_argument("--gold", metavar="vN", help="grade both runs against this gold version (default: the "
                                               "newest; giving one also allows runs made on other keys)")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    p.add_argument("--html", type=Path, metavar="OUT.html", help="also write it as a self-contained HTML page")
    p.set_defaults(handler=cmd_compare)

    p = sub.add_parser("export", help="write a suite for another harness: Inspect AI, or a Hugging Face dataset")
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
    p.set_defaults(handler=cmd_export)

    p = sub.add_parser("import-run", help="turn a pdfhell run JSON, an Inspect eval log or a JSONL of "
                                          "predictions into run records (provenance imported)")
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
    p.set_defaults(handler=cmd_import_run)


def cmd_export(args: argparse.Namespace) -> int:
    from workbench.gold.versions import cases_at, choose
    from workbench.grading.export import export_suite

    gold = choose(args.suite, args.gold)
    done = export_suite(args.suite, args.to, args.out, args.license,
                        cases=list(cases_at(args.suite, gold.used).values()))
    if args.json:
        print_json({"out": str(done.out), "to": done.format, "cases": done.cases, "suite_hash": done.suite_hash,
                    "gold": gold.to_json()})
        return 0
    print(f"exported {done.cases} cases of {args.suite} for {done.format} into {done.out}, keys at {gold.line()}")
    print(f"suite hash {done.suite_hash}")
    if done.format == "inspect":
        note(f"run it: inspect eval {done.out / 'task.py'} --model PROVIDER/MODEL --log-format json; "
             f"read it back: pdfworkbench import-run LOG.json --suite {args.suite}")
    return 0


def _case_at_gold(path: Path, version: str):
    """The case in `path` with its key at gold `version` of its suite, and that choice."""
    from workbench.core.case import load_case
    from workbench.gold.versions import case_at, choose

    case = load_case(path)
    folder = case.root or path.parent     # the case's suite, whose journal holds its gold
    gold = choose(folder, version)
    return case_at(case, folder, gold.used), gold


def _verdict_json(case, gold, answer: str, attribution: bool) -> tuple[dict, object]:
    """What `grade --json` prints (and each line of `grade --batch`), and the verdict."""
    from workbench.grading import grade

    verdict = grade(case, answer)
    out = verdict.to_json()
    out["gold"] = gold.to_json()
    if attribution:
        attributions, skipped = _attribute(case, answer)
        out["attribution"] = None if skipped else [a.to_json() for a in attributions or []]
        if skipped:
            out["attribution_skipped"] = skipped
    return out, verdict


def cmd_grade(args: argparse.Namespace) -> int:
    if args.batch is not None:
        if args.case is not None:
            raise UserError(f"grade --batch takes no CASE.json ({args.case}): each line names its case")
        return _grade_batch(args)
    if args.suite is not None:
        raise UserError("--suite is for --batch (a case JSON names its own suite)")
    if args.case is None:
        raise UserError("grade needs a CASE.json and --answer TEXT (or --answer-file, or --batch ANSWERS.jsonl)")
    if args.answer is None and args.answer_file is None:
        raise UserError(f"grade {args.case}: give the answer with --answer TEXT or --answer-file FILE")
    case, gold = _case_at_gold(args.case, args.gold)
    answer = args.answer if args.answer_file is None else _read_text(args.answer_file, "--answer-file")
    if args.json:
        out, verdict = _verdict_json(case, gold, answer, attribution=True)
        print_json(out)
        return 0 if verdict.correct else 1
    from workbench.grading import grade

    verdict = grade(case, answer)
    attributions, skipped = _attribute(case, answer) if args.explain else (None, None)
    print(f"{verdict.outcome.upper()}  {verdict.reason}")
    print(f"  {gold.line()}")
    flags = [name for name in ("fell_for_trap", "refused", "hedged") if getattr(verdict, name)]
    if flags:
        print(f"  flags: {', '.join(flags)}")
    for part in verdict.parts:
        where = f" at {part.span[0]}-{part.span[1]}" if part.span else ""
        mark = "found" if part.matched else "missing"
        shown = f" as {part.found!r}" if part.found and part.matched and part.found != part.expected else ""
        print(f"  {mark:<7} {part.expected}{shown}{where}")
    for part in verdict.forbidden:
        where = f" at {part.span[0]}-{part.span[1]}" if part.span else ""
        print(f"  trap    {part.expected} as {part.found!r}{where}")
    if skipped:
        print(f"  where from: skipped: {skipped}")
    elif attributions is not None:
        print(render_attribution(attributions))
    return 0 if verdict.correct else 1


def _grade_batch(args: argparse.Namespace) -> int:
    """`grade --batch`: one process for every answer, each case and gold choice read once."""
    import json

    from workbench.core import files
    from workbench.core.schema import parse_json

    if str(args.batch) == "-":
        source, lines = "stdin", (line.rstrip("\r\n") for line in sys.stdin)
    else:
        source, lines = str(args.batch), iter(files.read_lines(args.batch, "answers file (JSON Lines)")[0])
    by_id: dict | None = None
    suite_gold = None
    if args.suite is not None:
        from workbench.gold.versions import cases_at, choose

        suite_gold = choose(args.suite, args.gold)
        by_id = cases_at(args.suite, suite_gold.used)
    known: dict[Path, tuple] = {}   # case file -> (case at its gold, the choice) or the UserError
    bad = wrong = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        given = None
        try:
            item = parse_json(line, f"{source} line {number}", "answer line")
            if not isinstance(item, dict) or not isinstance(item.get("case"), str) \
                    or not isinstance(item.get("answer"), str):
                raise UserError(f'{source} line {number}: give {{"case": "...", "answer": "..."}} '
                                "(both strings)")
            given = item["case"]
            if by_id is not None:
                if given not in by_id:
                    raise UserError(f"{source} line {number}: no case {given!r} in {args.suite}")
                case, gold = by_id[given], suite_gold
            else:
                path = Path(given)
                if path not in known:
                    try:
                        known[path] = _case_at_gold(path, args.gold)
                    except UserError as exc:
                        known[path] = exc
                if isinstance(known[path], UserError):
                    raise known[path]
                case, gold = known[path]
            out, verdict = _verdict_json(case, gold, item["answer"], attribution=args.explain)
            wrong += not verdict.correct
            row = {"line": number, "case": case.id, **out}
        except UserError as exc:
            bad += 1
            row = {"line": number, "case": given, "error": str(exc)}
        sys.stdout.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
    sys.stdout.flush()
    return 2 if bad else 1 if wrong else 0


def _attribute(case, answer: str):
    """(attributions, None), or (None, why attribution was skipped): grading needs only the key;
    the PDF is read for attribution alone, so a key shared without its PDF still grades."""
    from workbench.checks.attribution import attribute
    from workbench.pdf.document import read_pdf_bytes

    try:
        path = case.pdf_file
        if not path.exists():
            return None, f"the PDF {path} is not there (the key was given alone); the verdict needs only the key"
        data = read_pdf_bytes(path)
    except UserError as exc:
        return None, f"{exc}; the verdict needs only the key"
    return attribute(case, data, answer), None


def render_attribution(attributions) -> str:
    """One line per value of the answer: the value, its source, where and why."""
    if not attributions:
        return "  where from: the answer states no value to look for"
    lines = ["  where from:"]
    width = min(24, max(len(a.value) for a in attributions))
    for a in attributions:
        where = f" p{a.page + 1}" if a.page is not None else ""
        lines.append(f"    {a.value[:40]:<{width}}  {a.source:<12}{where}  {a.detail}")
    return "\n".join(lines)


def _read_text(path: Path, flag: str) -> str:
    from workbench.core import files

    try:
        return files.read_text(path, "text file")
    except UserError as exc:
        raise UserError(f"{flag} {exc}") from None


def _threshold(raw: str | None) -> float | None:
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


def cmd_report(args: argparse.Namespace) -> int:
    from workbench.grading.loading import find_suite_folders, load_runs
    from workbench.grading.report import build_report, check_grouping, render_report_text

    threshold = _threshold(args.fail_threshold)
    for flag, out in (("--html", args.html), ("--leaderboard", args.leaderboard)):
        if out is not None and str(out) != "-" and out.is_dir():   # before the work, not after it
            raise UserError(f"{flag} {out}: is a folder; give a file name")
    by_source, by_extractor = args.by == "source", args.by == "extractor"
    if by_source or by_extractor:
        args.by = None
    try:
        check_grouping(args.by)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    prices = None
    if args.prices:
        from workbench.grading.cost import load_prices

        prices = load_prices(args.prices)
    if args.html:   # the charts' engine loads on its own threads while the runs are graded
        from workbench.grading.html.charts import warm_up

        warm_up()
    runs = load_runs(args.runs)
    all_records = [r for recs in runs.values() for r in recs]
    if not args.allow_mixed:
        from workbench.grading.report import mixed_hashes

        mixed = mixed_hashes(all_records)
        if mixed:
            raise UserError(mixed)
    folders = find_suite_folders(args.runs, args.suite)
    recorded_hashes = {str((r.extra or {}).get("suite_hash")) for r in all_records if (r.extra or {}).get("suite_hash")}
    recorded_hash = recorded_hashes.pop() if len(recorded_hashes) == 1 else None
    if not folders:
        from workbench.grading.outcome import source_verdict

        if not all_records or any(source_verdict(r) is None for r in all_records if r.status == "ok"):
            raise UserError(f"no suite found for {args.runs[0]}: give --suite DIR (the folder with the cases)")
        if args.gold != "latest":
            raise UserError(f"--gold {args.gold}: no suite found for {args.runs[0]}, so no gold to choose; "
                            "give --suite DIR")
        cases, suites, gold = {}, [], None
    else:
        cases, suites, gold = _cases_at_gold(folders, args.gold)
    report = build_report(runs, cases, by=args.by, prices=prices)
    if gold is not None:
        report.gold, report.gold_line = gold.to_json(), gold.line()
    if by_source:
        from workbench.checks.agent_trace import read_rows
        from workbench.checks.attribution import attribute_rows

        attribute_rows(report, cases)
        read_rows(report)   # an agent's answers: the source joined with the pages it read
        report.by = "source"
    exposure = None
    if by_extractor:
        from workbench.providers.exposure import runs_exposure

        exposure = runs_exposure(report.runs, cases)
        report.by = "extractor"
    if len(suites) == 1:
        from workbench.core.suite import content_hash

        s = suites[0]
        report.suite = {"name": s.name, "hash": content_hash(s), "folder": str(s.folder)}
        if recorded_hash and recorded_hash != report.suite["hash"]:
            report.suite["run_hash"] = recorded_hash   # another tool's hash (pdfhell's), or another content
    elif not folders:
        names = {r.suite for r in all_records if r.suite}
        report.suite = {"name": names.pop() if len(names) == 1 else "(unknown)", "hash": recorded_hash,
                        "hash_from": "the run", "folder": None, "graded_by": "source"}
    if args.leaderboard and str(args.leaderboard) == "-":
        from workbench.grading.leaderboard import leaderboard

        print_json(leaderboard(report, gold.used if gold else None))
    elif args.json:
        print_json({**report.to_json(), **({"exposure": exposure.to_json()} if exposure else {})})
    else:
        sys.stdout.write(render_report_text(report))
        if exposure is not None:
            from workbench.providers.exposure import matrix_text

            sys.stdout.write("\nby extractor: what of each case's key the answers hold\n" + matrix_text(exposure) + "\n")
    if args.leaderboard and str(args.leaderboard) != "-":
        from workbench.core import atomic
        from workbench.grading.leaderboard import leaderboard

        atomic.write_json(args.leaderboard, leaderboard(report, gold.used if gold else None))
        note(f"wrote leaderboard rows to {args.leaderboard}")
    if args.html:
        _write_html(report, cases, args.html, args.jobs, not args.no_cache)
    if args.junit:
        from workbench.grading.junit import write_junit

        write_junit(report, args.junit)
        note(f"wrote JUnit XML to {args.junit}")
    if args.audit_pack:
        from workbench.core import files
        from workbench.core.layout import SUITE_FILE
        from workbench.grading.auditpack import write_audit_pack

        suite_json = None
        name = None
        if len(suites) == 1:
            name = suites[0].name
            manifest = suites[0].folder / SUITE_FILE
            suite_json = (files.read_bytes(manifest, "suite.json", within=suites[0].folder)
                          if manifest.exists() else None)
        digest = write_audit_pack(report, runs, cases, args.audit_pack, suite_json, name)
        note(f"wrote audit pack {args.audit_pack} (sha256 {digest[:12]})")
    from workbench.grading.stats import gate_failure

    failed = False
    for run in report.runs:
        o = run.overall
        why = gate_failure(o.passed, o.scored, o.calls, threshold)
        if why:
            note(f"pdfworkbench: {run.label}: {why}")
            failed = True
        missing = run.shards.problem() if run.shards else None
        if missing:  # a run that is not whole is a finding, as a gate failure is
            note(f"pdfworkbench: {missing}")
            failed = True
    return 1 if failed else 0


def _cases_at_gold(folders: list[Path], version: str):
    """The cases of the suites at `folders` with their keys at gold `version` (latest: each
    suite's newest), the suites, and the first suite's choice (every row names its own)."""
    from workbench.gold.versions import cases_at, choose
    from workbench.grading.loading import load_cases

    _, suites = load_cases(folders)
    cases: dict = {}
    choices = [choose(suite.folder, version) for suite in suites]
    for suite, choice in zip(suites, choices, strict=True):
        for cid, case in cases_at(suite.folder, choice.used, suite).items():
            cases.setdefault(cid, case)
    return cases, suites, choices[0]


def _write_html(report, cases: dict, out: Path, jobs: int, cache: bool) -> None:
    """The HTML report, with a page crop of every case some run answered wrong (from the crop
    cache in the user's cache folder, unless `cache` is off)."""
    from workbench.checks.crops import evidence_crops
    from workbench.grading.html import write_report_html
    from workbench.grading.outcome import WRONG_ANSWERS
    from workbench.providers.config import cache_dir

    wrong = sorted({r.case_id for run in report.runs for r in run.final_rows().values()
                    if r.outcome in WRONG_ANSWERS and r.case_id in cases})
    crops = dict(evidence_crops([cases[c] for c in wrong], jobs, cache_dir() / "crops" if cache else None))
    questions = {cid: cases[cid].question for cid in wrong}
    size = write_report_html(report, out, crops, questions)
    note(f"wrote {out} ({size / 1e6:.1f} MB, {sum(c is not None for c in crops.values())} page crops)")


def cmd_import_run(args: argparse.Namespace) -> int:
    from workbench.core.layout import named_suite_dir
    from workbench.grading import importers

    kind = importers.detect_format(args.result)
    cases = {}
    if args.suite:
        from workbench.core.suite import load_suite

        cases = {c.id: c for c in load_suite(args.suite).cases}
    if kind == importers.OLMOCR_SOURCE and not args.reader:
        raise UserError("--reader NAME: name the system that wrote these olmOCR-bench outputs, e.g. olmocr:marker")
    if args.reader and kind not in (importers.PREDICTIONS_SOURCE, importers.OLMOCR_SOURCE):
        raise UserError("--reader is for a predictions file (.jsonl); an Inspect log and a pdfhell run name their model")
    if args.reader and ":" not in args.reader:
        raise UserError(f"--reader {args.reader!r}: write it as provider:model")
    out = args.out or _import_out(args.result, args.suite, kind)
    if out.resolve() == args.result.resolve():
        raise UserError(f"--out {out}: would overwrite the input; choose another file")
    if out.exists() and not args.force:
        raise UserError(f"{out}: exists; give --force to replace it or choose another --out")
    named = named_suite_dir(out, args.suite) if args.suite else None
    if kind == importers.INSPECT_SOURCE:
        records = importers.inspect_records(importers.read_inspect_log(args.result), args.result.name, cases, named)
    elif kind == importers.OLMOCR_SOURCE:
        records = importers.olmocr_records(args.result, args.reader, cases, named)
    elif kind == importers.PREDICTIONS_SOURCE:
        records = importers.prediction_records(importers.read_predictions(args.result), args.result.name,
                                               args.reader, cases, named)
    else:
        records = importers.pdfhell_records(importers.read_pdfhell_run(args.result), args.result.name, cases, named)
    importers.write_records(records, out)
    errors = sum(r.status != "ok" for r in records)
    unknown = sorted({r.case_id for r in records} - set(cases)) if args.suite else []
    if args.json:
        print_json({"out": str(out), "records": len(records), "provider_errors": errors, "format": kind,
                    "source": str(args.result), "unknown_cases": unknown})
        return 0
    print(f"imported {len(records)} records ({errors} provider errors) from {args.result} ({kind}) into {out}")
    if args.suite and named is None:
        note(f"pdfworkbench: warning: {args.suite} is outside {out.parent}, so the run cannot name it; "
             f"give --suite {args.suite} to report, regrade and open")
    if unknown:
        note(f"pdfworkbench: warning: {len(unknown)} case(s) not in {args.suite}: {', '.join(unknown[:5])}"
             f"{' …' if len(unknown) > 5 else ''}")
    return 0


def _import_out(result: Path, suite: Path | None, kind: str) -> Path:
    if kind == "pdfhell":
        return result.with_suffix(".jsonl")
    if kind == "olmocr-bench":
        result = result.resolve()
        result = result.with_name(f"olmocr-{result.name}.jsonl")
    from workbench.core.layout import runs_dir

    folder = runs_dir(suite) if suite else result.parent
    out = folder / f"{result.stem}.jsonl"
    return out if out.resolve() != result.resolve() else folder / f"{result.stem}-imported.jsonl"


def cmd_compare(args: argparse.Namespace) -> int:
    from workbench.core.suite import content_hash, load_suite
    from workbench.grading.compare import check_paired, compare_runs, render_compare_text
    from workbench.grading.loading import find_suite_folders, load_runs
    from workbench.grading.report import build_report

    if args.run_a.resolve() == args.run_b.resolve():
        raise UserError(f"{args.run_a} is given twice: compare two different run files")
    loaded = []
    for path in (args.run_a, args.run_b):
        runs = load_runs([path])
        if len(runs) != 1:
            raise UserError(f"{path} holds {len(runs)} runs ({', '.join(runs)}): compare takes two runs of one "
                            "reader each; split it, or use report")
        loaded.append(next(iter(runs.items())))
    (label_a, recs_a), (label_b, recs_b) = loaded
    if label_a == label_b:   # two files of one name: say which is which
        label_a, label_b = f"{label_a} ({args.run_a})", f"{label_b} ({args.run_b})"
    folders_a = find_suite_folders([args.run_a], [args.suite] if args.suite else [])
    folders_b = find_suite_folders([args.run_b], [args.suite] if args.suite else [])
    if not folders_a or not folders_b:
        missing = args.run_a if not folders_a else args.run_b
        raise UserError(f"no suite found for {missing}: give --suite DIR (the folder with the cases)")
    suite_a, suite_b = load_suite(folders_a[0]), load_suite(folders_b[0])
    hash_a, hash_b = content_hash(suite_a), content_hash(suite_b)
    if hash_a != hash_b:
        raise UserError(f"{args.run_a} was made on suite {suite_a.name} (hash {hash_a[:12]}), {args.run_b} on "
                        f"{suite_b.name} (hash {hash_b[:12]}): a paired comparison needs one suite hash")
    from workbench.gold.versions import cases_at, resolve_version

    gold = resolve_version(suite_a.folder, args.gold or "latest").name
    cases = cases_at(suite_a.folder, gold, suite_a)
    check_paired(label_a, recs_a, label_b, recs_b, cases, regraded=bool(args.gold))
    report = build_report({label_a: recs_a, label_b: recs_b}, cases)
    cmp = compare_runs(report.runs[0], report.runs[1])
    cmp.gold = gold
    cmp.suite = {"name": suite_a.name, "hash": hash_a, "folder": str(suite_a.folder)}
    if args.json:
        print_json(cmp.to_json())
    else:
        sys.stdout.write(render_compare_text(cmp))
    if args.html:
        from workbench.grading.html import write_compare_html

        write_compare_html(cmp, args.html)
        note(f"wrote {args.html}")
    return 0
