"""`pdfworkbench grade`: one answer against a case's key, or every line of `--batch` in one process.

It needs the key, not a PDF library (issue 40: CI grades one answer a call); `--explain` and
`--json` read the PDF to say where each value came from (`workbench.cli.explain`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from workbench.cli.dispatch import verbosity
from workbench.cli.output import print_json
from workbench.core import files
from workbench.core.case import Case, load_case
from workbench.core.errors import UserError
from workbench.core.schema import JSONObject, parse_json
from workbench.gold.versions import GoldChoice, case_at, cases_at, choose
from workbench.grading import Verdict, grade


def _case_at_gold(path: Path, version: str) -> tuple[Case, GoldChoice]:
    """The case in `path` with its key at gold `version` of its suite, and that choice."""
    case = load_case(path)
    folder = case.root or path.parent     # the case's suite, whose journal holds its gold
    gold = choose(folder, version)
    return case_at(case, folder, gold.used), gold


def _verdict_json(case: Case, gold: GoldChoice, answer: str, attribution: bool) -> tuple[JSONObject, Verdict]:
    """What `grade --json` prints (and each line of `grade --batch`), and the verdict."""
    verdict = grade(case, answer)
    out = verdict.to_json()
    out["gold"] = gold.to_json()
    if attribution:
        attributions, skipped = _explain().attribute_answer(case, answer)
        out["attribution"] = None if skipped else [a.to_json() for a in attributions or []]
        if skipped:
            out["attribution_skipped"] = skipped
    return out, verdict


def cmd_grade(args: argparse.Namespace) -> int:
    if args.explain or args.json:
        # The PDF libraries load for the attribution: their warnings are collected and said once
        # (a light command: `workbench.cli.commands.Command.light`).
        from workbench.cli.logs import cli_logging

        with cli_logging(verbosity(args)):
            return _grade(args)
    return _grade(args)


def _grade(args: argparse.Namespace) -> int:
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
    verdict = grade(case, answer)
    explained = _where_from(case, answer) if args.explain else None
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
    if explained is not None:
        print(explained)
    return 0 if verdict.correct else 1


def _where_from(case: Case, answer: str) -> str:
    """--explain's lines: where each value of the answer came from."""
    return _explain().where_from(case, answer)


def _explain():
    """`workbench.cli.explain`: the PDF libraries load here, for the attribution alone (--explain,
    --json; see the module's docstring)."""
    from workbench.cli import explain

    return explain


def _grade_batch(args: argparse.Namespace) -> int:
    """`grade --batch`: one process for every answer, each case and gold choice read once."""
    if str(args.batch) == "-":
        # (read as bytes, where stdin has them: a line that is not UTF-8 is that line's error)
        source, buffer = "stdin", getattr(sys.stdin, "buffer", None)
        lines = ((_stdin_line(raw, number) for number, raw in enumerate(buffer, 1)) if buffer is not None
                 else (line.rstrip("\r\n") for line in sys.stdin))
    else:
        source, lines = str(args.batch), iter(files.read_lines(args.batch, "answers file (JSON Lines)")[0])
    by_id: dict[str, Case] | None = None
    suite_gold = None
    if args.suite is not None:
        suite_gold = choose(args.suite, args.gold)
        by_id = cases_at(args.suite, suite_gold.used)
    known: dict[Path, tuple[Case, GoldChoice] | UserError] = {}   # case file -> (case at its gold, the choice) or the UserError
    bad = wrong = 0
    for number, line in enumerate(lines, 1):
        if isinstance(line, str) and not line.strip():
            continue
        given = None
        try:
            if isinstance(line, UserError):   # (a line of stdin that is not UTF-8)
                raise line
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
                found = known[path]
                if isinstance(found, UserError):
                    raise found
                case, gold = found
            out, verdict = _verdict_json(case, gold, item["answer"], attribution=args.explain)
            wrong += not verdict.correct
            row = {"line": number, "case": case.id, **out}
        except UserError as exc:
            bad += 1
            row = {"line": number, "case": given, "error": str(exc)}
        sys.stdout.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
    sys.stdout.flush()
    return 2 if bad else 1 if wrong else 0


def _stdin_line(raw: bytes, number: int) -> str | UserError:
    """Line `number` of `grade --batch -`'s stdin as text, or the error that it is not UTF-8."""
    try:
        return files.decode(raw, f"stdin line {number}", "answer line").rstrip("\r\n")
    except UserError as exc:
        return exc


def _read_text(path: Path, flag: str) -> str:
    try:
        return files.read_text(path, "text file")
    except UserError as exc:
        raise UserError(f"{flag} {exc}") from None
