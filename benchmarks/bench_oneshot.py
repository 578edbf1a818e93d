"""One-shot commands against their floors (issue 40 item 2): `--version`, `--help`, `grade` and
`grade --explain` as whole processes, each in turns with a bare interpreter (`python -c pass`;
`python -c "import fitz"` for --explain, which reads the PDF), and `grade --batch`'s answers a
second beside the grading alone (`workbench.grading.grade` on the same answers, in process); and
(not with --quick) `grade --explain` of a long document's answers, a 300-page PDF's text and 50
amounts it prints nowhere, beside the analysis of its pages that they need. The ratios are of CPU
time (user + system), the wall-time ratio in the note: on a loaded machine a process's wall time
is mostly its wait for a core, and the floor waits as long.

Two rows have no target. The standard library modules `grade` cannot do without (argparse for
its options; dataclasses for cases and verdicts, with its `inspect` left unloaded as
`workbench.cli` leaves it for a light command; typing; json; decimal for money), against the same
floor: the part of `grade`'s ratio that no change to the workbench's own modules can remove
(issue 40 item 2: about 1.4x of the 2x aimed at; 1.7x while dataclasses loaded inspect, ast and
dis). And `grade --explain` of a case whose page needs numpy (`tounicode_remap`: the glyphs of its
digits are judged by shape), against `import fitz`: the first case's page is text on paper and on
a filled box, whose ink is counted without numpy (`pdf.ink.PagePixels`); 29 of the sample suite's
35 cases are such, the others (a glyph check, a filled form field, a scan) load numpy, about 0.45x
of that floor with its BLAS threads capped (0.7x without). Every process here runs with the math
libraries' threads capped as the program's entry caps them (`core.process.cap_library_threads`:
numpy's OpenBLAS would start a thread per core at import, about half of its import's CPU on 2
cores).

A light command's process ends without the interpreter's finalization (`workbench.cli.run`), which
the floors' processes go through (with pymupdf loaded, about a fifth of `import fitz`'s CPU): the
ratios count the time a user waits for, and that end is part of it.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.harness import ROOT, Row, progress
from workbench.core.process import LIBRARY_THREADS

SAMPLE = ROOT / "sample_cases" / "mini"

PASS_FLOOR = ("python -c pass", ["-c", "pass"])
FITZ_FLOOR = ("python -c 'import fitz'", ["-c", "import fitz"])
# What `grade` imports of the standard library and cannot do without (see the module docstring);
# `inspect` a bare module, as a light command's start leaves it until something reads from it.
STDLIB_OF_GRADE = ("import sys, types; sys.modules['inspect'] = types.ModuleType('inspect'); "
                   "import argparse, dataclasses, decimal, json, typing")


def _once(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall s, CPU s) of `python ARGV`, its output thrown away."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise RuntimeError(f"python {' '.join(argv[:4])}: exit {os.waitstatus_to_exitcode(status)}")
    return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime


def _case(family: str | None = None) -> tuple[str, str]:
    """The sample suite's first case JSON (of `family`) and its key's answer (printed on the
    page: --explain finds it in the text, no OCR)."""
    from workbench.core.suite import load_suite

    case = next(c for c in load_suite(SAMPLE).cases if family in (None, c.family))
    return str(case.json_path), case.expected_answer


def _grading_alone(cases: list, answers: int) -> float:
    """The floor of `grade --batch`: answers a second of `workbench.grading.grade` on the same
    answers, in this process, the cases read already (no process start, no JSON in or out)."""
    from workbench.grading import grade

    t0 = time.perf_counter()
    for i in range(answers):
        c = cases[i % len(cases)]
        grade(c, c.expected_answer if i % 2 else "no")
    return answers / (time.perf_counter() - t0)


def _batch_rows(group: str, tmp: Path, env: dict[str, str], answers: int) -> list[Row]:
    """`grade --batch` of `answers` lines over the sample suite, right and wrong in turns, beside
    the grading alone."""
    from workbench.core.suite import load_suite

    cases = load_suite(SAMPLE).cases
    path = tmp / "answers.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for i in range(answers):
            c = cases[i % len(cases)]
            f.write(json.dumps({"case": str(c.json_path), "answer": c.expected_answer if i % 2 else "no"}) + "\n")
    floor = _grading_alone(cases, answers)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "workbench", "grade", "--batch", str(path)],
                          capture_output=True, text=True, env=env, timeout=600)
    seconds = time.perf_counter() - t0
    lines = proc.stdout.splitlines()
    if proc.returncode not in (0, 1) or len(lines) != answers:
        return [Row(group, "grade --batch: answers a second", "/s", [], 200.0, at_least=True,
                    error=(proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1][:120])]
    progress(f"grade --batch, {answers} answers: {seconds:.2f} s (the grading alone: {answers / floor:.2f} s)")
    return [Row(group, f"grade --batch: answers a second ({answers:,} answers, whole process)", "/s",
                [answers / seconds], 200.0, at_least=True, floor=[floor],
                floor_what="workbench.grading.grade alone on the same answers, in process")]


def _long_explain_rows(group: str, tmp: Path, env: dict[str, str]) -> list[Row]:
    """`grade --explain` of a text probe's answer to a 300-page PDF (1.5 MB; its first 1,000
    values traced, each looked for on every page), and of an answer of 50 amounts the PDF prints
    nowhere (each then looked for in both text layers and among the printed values as a
    misreading), beside the page analysis of every page alone, which both need: the tracing's own
    cost. (Value by value, every page's amounts were read again for each value: 35 s and 56 s,
    8x and 12x the analysis.)"""
    from benchmarks.harness import run_cli
    from benchmarks.inputs import text_pdf

    pdf = text_pdf(tmp / "p300.pdf", 300, 50)
    suite, run = tmp / "long-suite", tmp / "long-probe.jsonl"
    steps = [["adopt", str(pdf), "--into", str(suite), "--question", "What is on line 3 of page 2?",
              "--expected", "Page 2 line 3"],
             ["run", str(suite), "--reader", "probe:pymupdf", "--out", str(run), "--no-cache"]]
    for args in steps:
        ran = run_cli(args)
        if ran.code != 0:
            return [Row(group, "grade --explain of a 300-page PDF's text", "s", [], None,
                        error=(ran.stderr.strip().splitlines() or [f"exit {ran.code}"])[-1][:120])]
    answer = tmp / "long-answer.txt"
    answer.write_text(json.loads(run.read_text(encoding="utf-8").splitlines()[0])["answer"], encoding="utf-8")
    case = next(p for p in suite.glob("*.json") if p.name != "suite.json")
    floor = _once(["-c", "import sys; from workbench.pdf.visibility import analyze_document; "
                         "analyze_document(open(sys.argv[1], 'rb').read(), 150, 'p300')", str(pdf)], env)
    made_up = tmp / "long-made-up.txt"
    made_up.write_text("The amounts are " + " ".join(f"${1000 + i * 7}.{i:02d}" for i in range(50)), encoding="utf-8")
    out = []
    for what, path in (("a probe's answer", answer), ("50 amounts printed nowhere", made_up)):
        mine = _once(["-m", "workbench", "grade", str(case), "--answer-file", str(path), "--explain"], env)
        progress(f"grade --explain, 300 pages, {what}: {mine[0]:.1f} s (the analysis alone {floor[0]:.1f} s)")
        out.append(Row(group, f"grade --explain of a 300-page PDF's text ({what}): CPU", "s", [mine[1]], None,
                       floor=[floor[1]], floor_what="the page analysis of every page alone (analyze_document)",
                       ratio_target=4.0, note=f"wall {mine[0]:.1f} s, the floor's {floor[0]:.1f} s"))
    return out


def rows(group: str, tmp: Path, runs: int, long: bool = True) -> list[Row]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for name in LIBRARY_THREADS:   # as the program's entry sets them (a user's own setting stands),
        env.setdefault(name, "1")  # for the rows that load the libraries without it
    case, answer = _case()
    glyphs_case, glyphs_answer = _case("tounicode_remap")
    commands = [
        ("--version", ["-m", "workbench", "--version"], PASS_FLOOR, 2.5),
        ("--help", ["-m", "workbench", "--help"], PASS_FLOOR, 2.5),
        ("grade CASE --answer X", ["-m", "workbench", "grade", case, "--answer", answer], PASS_FLOOR, 2.0),
        ("grade's standard library alone", ["-c", STDLIB_OF_GRADE], PASS_FLOOR, None),
        ("grade CASE --answer X --explain", ["-m", "workbench", "grade", case, "--answer", answer, "--explain"],
         FITZ_FLOOR, 1.3),
        ("grade --explain, a page that needs numpy (a glyph check)",
         ["-m", "workbench", "grade", glyphs_case, "--answer", glyphs_answer, "--explain"], FITZ_FLOOR, None),
    ]
    floors = {PASS_FLOOR[0]: PASS_FLOOR[1], FITZ_FLOOR[0]: FITZ_FLOOR[1]}
    got: dict[str, list[tuple[float, float]]] = {name: [] for name in floors}
    got.update({what: [] for what, *_ in commands})
    try:
        for i in range(1 + runs):   # the first round warms the page cache and is not kept
            for name, argv in floors.items():
                r = _once(argv, env)
                if i:
                    got[name].append(r)
            for what, argv, _, _ in commands:
                r = _once(argv, env)
                if i:
                    got[what].append(r)
    except RuntimeError as exc:
        return [Row(group, "one-shot commands", "x", [], None, error=str(exc)[:120])]
    out = []
    for what, _, (floor, _), target in commands:
        mine, base = got[what], got[floor]
        wall = statistics.median(m[0] / b[0] for m, b in zip(mine, base, strict=True))
        out.append(Row(group, f"{what}: CPU", "ms", [c * 1000 for _, c in mine], None,
                       floor=[c * 1000 for _, c in base], floor_what=f"{floor}, in turns", ratio_target=target,
                       note=f"wall {wall:.2f}x the floor's"))
    out += _batch_rows(group, tmp, env, 500 if runs <= 1 else 2000)
    if long:   # (about 25 s: not in --quick)
        out += _long_explain_rows(group, tmp, env)
    return out
