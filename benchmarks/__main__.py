"""The one benchmark command: `python -m benchmarks` (or `make bench`).

Makes its own large inputs in a temporary folder (a 500-page and a 10,000-page reportlab text PDF,
a suite of every family x 8 or 44 seeds), measures the workbench and the commands on them, each
beside its floor (in turns where it can be), with --big runs the older per-area scripts
(benchmarks/bench_*.py), prints one table (median, p95, floor, ratio, target, met, load/cores)
and writes every figure as JSON. Each group's rows are printed as soon as it finishes, and each
measurement's time on stderr as it ends.

Three sizes. The default (`make bench`, under 5 minutes idle on 2 cores) times each thing once
(three first-page launches), builds the suite from 8 seeds a family, walks some of the 500
pages, reads the 10,000-page PDF to its default cap, and leaves out the per-area scripts (their
own tables, no floor beside their rows). --big runs the sizes the issues name, each after a warm-up and three times (44 seeds a
family: 1,276 cases; every page of the 500 walked; all 10,000 pages linted and inspected; the
scripts): long, for the rows that need them (with --only). --quick (under a
minute) runs the oneshot and sample groups only unless --only names others. The group titles
say the sizes.

    python -m benchmarks [--quick | --big] [--runs N] [--only GROUP[,GROUP]] [--json PATH]

Groups: oneshot, pdf500, pdf10k, suite, report, sample, tui, agents, run, scripts (--big or
--only), tests. The machine is shared: each row says the load and cores it ran at, and its ratio
to a floor measured in the same run is more telling than its absolute time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.harness import ROOT, Row, progress, repeat, run_cli, scratch, table
from benchmarks.inputs import suite_spec, text_pdf

GROUPS = ("oneshot", "pdf500", "pdf10k", "suite", "report", "sample", "tui", "agents", "run", "scripts", "tests")
# The per-area scripts print tables of their own, with no floor beside their rows, and took 107 s
# of CPU of the default's 432 (at load 10-25 on 2 cores): --big runs them, or --only scripts.
BIG_ONLY = ("scripts",)
# --quick without --only: what fits in a minute on an idle 2-core machine (the big inputs, the
# suite and the per-area scripts are the full run's).
QUICK_GROUPS = ("oneshot", "sample")
# Untimed runs before the timed ones (files in the page cache, imports compiled); --quick: none.
WARMUP = 1
# Launches timed for a first page on screen (besides the walk's launch): six launches of the
# sample in a row, the machine idle, took 0.60 to 1.01 s (CPU time moving with them), so the
# median of three was a lottery.
FIRST_PAGE_LAUNCHES = 6
QUICK = False


def _failure(results, ok=(0, 1)) -> str:
    """The last line a failed run said ('' when every run exited with a code in `ok`)."""
    bad = [r for r in results if r.code not in ok]
    return (bad[0].stderr.strip().splitlines() or [f"exit {bad[0].code}"])[-1][:120] if bad else ""


def _cpu(results) -> float:
    """The median run's CPU seconds."""
    return sorted(r.cpu_s for r in results)[len(results) // 2]


def _cli_rows(group: str, what: str, args: list[str], runs: int, target_s: float | None,
              target_mb: float | None = None, warmup: int | None = None, check=None) -> list[Row]:
    """Time a command; one row for its time and, with `target_mb`, one for its peak memory."""
    try:
        results = repeat(lambda: run_cli(args), runs, WARMUP if warmup is None else warmup)
    except TimeoutError as exc:
        return [Row(group, what, "s", [], target_s, error=str(exc))]
    if failed := _failure(results):
        return [Row(group, what, "s", [], target_s, error=failed)]
    note = check(results[-1]) if check else ""
    note = "; ".join(x for x in (note, f"CPU {_cpu(results):.1f} s") if x)
    rows = [Row(group, what, "s", [r.seconds for r in results], target_s, note=note,
                extra={"cpu_s": [r.cpu_s for r in results]})]
    # The target is on the tree's PSS: its summed RSS counts the imports every forked worker
    # shares with its parent once a process (harness.tree_memory_mb); given in the note.
    rows.append(Row(group, f"{what}: peak memory (process tree, PSS)", "MB", [r.peak_pss_mb for r in results],
                    target_mb, note=f"RSS summed over the processes {max(r.peak_mb for r in results):.0f} MB"))
    return rows


def _tui(path: Path, runs: int, walk: int = 0, cases: int = 0, warmup: int | None = None,
         burst: int = 0, ahead: bool = True, floor: bool = False) -> list[dict]:
    """Launch the workbench headless on `path` in a fresh interpreter, `runs` times after `warmup`
    (`ahead`: as `pdfworkbench open` starts, its first page drawn by a second process; `floor`:
    each launch just after a launch of the bare Textual app, benchmarks/floor_first_frame.py, whose
    first frame is the result's "floor_s")."""
    def once() -> dict:
        env = dict(os.environ, PYTHONPATH=str(ROOT), PDFWORKBENCH_CONFIG_DIR=scratch())
        floor_s = _floor_first_frame(path, env) if floor else None
        cmd = [sys.executable, str(ROOT / "benchmarks" / "tui_child.py"), str(path)]
        if not ahead:
            cmd.append("--no-ahead")
        if walk:
            cmd += ["--walk", str(walk), "--burst", str(burst)]
        if cases:
            cmd += ["--cases", str(cases)]
        # The full run walks all 500 pages (0.3 s apart): allow for a slow machine.
        limit = 900 + 4 * (walk + burst + cases)
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=limit)
        if proc.returncode != 0:
            raise RuntimeError((proc.stderr.strip().splitlines() or ["failed"])[-1][:160])
        got = json.loads(proc.stdout.strip().splitlines()[-1])
        if floor_s is not None:
            got["floor_s"] = floor_s
        progress(f"workbench on {path.name}: first page {got['first_page_s']:.2f} s"
                 + (f", {len(got['steps_s'])} steps" if got.get("steps_s") else ""))
        return got

    return repeat(once, runs, WARMUP if warmup is None else warmup)


def _floor_first_frame(path: Path, env: dict[str, str]) -> float:
    from workbench.tui.widgets.case_list import COLLAPSE_FROM

    cmd = [sys.executable, str(ROOT / "benchmarks" / "floor_first_frame.py"), str(path),
           "--collapse-from", str(COLLAPSE_FROM)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError((proc.stderr.strip().splitlines() or ["failed"])[-1][:160])
    return json.loads(proc.stdout.strip().splitlines()[-1])["first_frame_s"]


def _tui_rows(group: str, path: Path, runs: int, first_target: float, walk: int = 0,
              step_target_ms: float | None = None, rss_target: float | None = None,
              cases: int = 0, step_label: str = "page to page (PgDn to the page on screen, 0.3 s apart)",
              burst: int = 0, first_runs: int | None = None) -> list[Row]:
    try:
        walked = _tui(path, 1, walk=walk, cases=cases, warmup=0, burst=burst) if (walk or cases) else []
        # The walk's launch counts as a first page too; --quick launches only for the walk.
        if first_runs is None:
            first_runs = 0 if QUICK and walked else max(runs, FIRST_PAGE_LAUNCHES)
        first = _tui(path, first_runs, warmup=0 if walked else None, floor=True)
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        return [Row(group, "workbench: first page on screen", "s", [], first_target, error=str(exc))]
    launches = first + walked
    cpu = sorted(r["first_page_cpu_s"] for r in launches)[len(launches) // 2] if launches else 0.0
    rows = []
    paired = [r for r in launches if "floor_s" in r]
    # the machine's speed moves from minute to minute: the ratio shows what is ours
    rows.append(Row(group, "workbench: first page on screen (from process start)", "s",
                    [r["first_page_s"] for r in launches], first_target,
                    note=f"its CPU {cpu:.2f} s (the first page's child not counted)",
                    extra={"cpu_s": [r["first_page_cpu_s"] for r in launches]},
                    floor=[r["floor_s"] for r in paired] or None,
                    floor_what="a bare Textual app's first frame, same size, its case list; launches in turns",
                    ratios=[r["first_page_s"] / r["floor_s"] for r in paired] or None))
    if walked:
        w = walked[0]
        rows.append(Row(group, f"workbench: {step_label}", "ms", [s * 1000 for s in w["steps_s"]],
                        step_target_ms))
        if w.get("burst_steps_s"):
            rows.append(Row(group, "workbench: page to page, PgDn as soon as the page is shown", "ms",
                            [s * 1000 for s in w["burst_steps_s"]], None))
        if walk:
            visited = len(w["steps_s"]) + len(w.get("burst_steps_s", [])) + 1
            rows.append(Row(group, f"workbench: RSS after visiting {visited} pages", "MB",
                            [w["rss_mb"]], rss_target, note=f"peak {w['peak_rss_mb']:.0f} MB"))
    return rows


def _in_turns(group: str, what: str, args: list[str], floor_what: str, floor_args: list[str], runs: int,
              ratio_target: float | None, floor_module: str = "workbench", rss: bool = False) -> list[Row]:
    """A command timed in turns with its floor (another command), one row with both and their
    ratio run by run: the machine's speed changes from minute to minute, and the ratio shows what
    is ours. With `rss`, a row for the command's peak memory too."""
    mine, floor = [], []
    try:
        for i in range(WARMUP + runs):
            f = run_cli(floor_args, module=floor_module)
            m = run_cli(args)
            if i >= WARMUP:
                floor.append(f)
                mine.append(m)
    except TimeoutError as exc:
        return [Row(group, what, "s", [], None, error=str(exc), ratio_target=ratio_target)]
    if failed := _failure(mine + floor, ok=(0, 1)):
        return [Row(group, what, "s", [], None, error=failed, ratio_target=ratio_target)]
    cpu = ", ".join(f"{m.cpu_s / f.cpu_s:.2f}x" for m, f in zip(mine, floor, strict=True) if f.cpu_s)
    rows = [Row(group, what, "s", [r.seconds for r in mine], None, floor=[r.seconds for r in floor],
                floor_what=floor_what, ratio_target=ratio_target,
                note=f"CPU {_cpu(mine):.1f} s over {_cpu(floor):.1f} s: {cpu}",
                extra={"cpu_s": [r.cpu_s for r in mine], "floor_cpu_s": [r.cpu_s for r in floor]})]
    if rss:
        rows.append(Row(group, f"{what.split(',')[0]}: peak RSS (process tree)", "MB",
                        [r.peak_mb for r in mine], None, floor=[r.peak_mb for r in floor], floor_what=floor_what))
    return rows


def _said_cap(ran) -> str:
    text = ran.stdout[-4000:] + ran.stderr
    return "says it stopped at the cap" if "first 1000 pages" in text or "first 1,000 pages" in text \
        else "DOES NOT say it stopped at a cap"


def bench_pdf500(tmp: Path, runs: int, quick: bool) -> list[Row]:
    g = "500-page text PDF (reportlab, 50 lines a page)"
    pdf = text_pdf(tmp / "p500.pdf", 500, 50)
    # issue 40.3: inspect within 1.2x of the library calls whose results it prints; lint with 2
    # jobs within 0.6x of 1 job
    rows = _in_turns(g, "inspect --json, all pages, --jobs 2", ["inspect", "--json", "--pages", "all", "--jobs", "2",
                                                                str(pdf)],
                     "inspect's library calls alone, 2 processes (benchmarks/floor_inspect.py), in turns",
                     [str(pdf), "--jobs", "2"], runs, 1.2, floor_module="benchmarks.floor_inspect", rss=True)
    # ... and against the floor issue 40.3 names (two renders a page); inspect renders a page of
    # nothing but text once, so the row above, with one, is the stricter
    rows += _in_turns(g, "inspect --json, all pages, --jobs 2, over the issue's floor",
                      ["inspect", "--json", "--pages", "all", "--jobs", "2", str(pdf)],
                      "issue 40.3's floor: pypdf and pymupdf text, two 150-DPI renders a page, 2 processes, in turns",
                      [str(pdf), "--jobs", "2", "--renders", "2"], runs, 1.2, floor_module="benchmarks.floor_inspect")
    rows += _in_turns(g, "lint, all pages, --jobs 2", ["lint", "--pages", "all", "--jobs", "2", str(pdf)],
                      "the same lint with --jobs 1, in turns", ["lint", "--pages", "all", "--jobs", "1", str(pdf)],
                      runs, 0.6)
    # The full run visits every page (the RSS target is "after visiting every page").
    rows += _tui_rows(g, pdf, runs, 1.0, walk=20 if quick else 60, burst=(10 if QUICK else 40) if quick else 439,
                      step_target_ms=100.0, rss_target=400.0)
    return rows


def bench_pdf10k(tmp: Path, runs: int, quick: bool) -> list[Row]:
    g = "10,000-page text PDF (reportlab, one short line a page)"
    # issue 40.3: memory stays flat, under 300 MB, with the page cap lifted
    pdf = text_pdf(tmp / "p10k.pdf", 10_000, 1)
    rows = _tui_rows(g, pdf, runs, 2.0, walk=10, burst=5, step_target_ms=100.0)
    rows += _cli_rows(g, "lint, default (first 1,000 pages), --jobs 2", ["lint", "--jobs", "2", str(pdf)],
                      runs, None, target_mb=500.0, check=_said_cap)
    rows += _cli_rows(g, "inspect --json, default (first 1,000 pages), --jobs 2",
                      ["inspect", "--json", "--jobs", "2", str(pdf)], runs, None, target_mb=500.0,
                      check=_said_cap)
    heavy_runs, heavy_warm = (1, 0)
    if quick:
        rows.append(Row(g, "lint, all 10,000 pages, --jobs 2 (with --big only)", "s", [], 90.0))
    else:
        rows += _cli_rows(g, "lint, all 10,000 pages, --jobs 2",
                          ["lint", "--pages", "all", "--jobs", "2", str(pdf)], heavy_runs, 90.0, 300.0,
                          warmup=heavy_warm)
        rows += _cli_rows(g, "inspect --json, all 10,000 pages, --jobs 2",
                          ["inspect", "--json", "--pages", "all", "--jobs", "2", str(pdf)], heavy_runs,
                          None, 300.0, warmup=heavy_warm)
    return rows


def _suite_hash(ran) -> str:
    for line in ran.stdout.splitlines():
        if line.startswith("suite hash "):
            return line.split()[-1]
    return ""


def bench_suite(tmp: Path, runs: int, quick: bool) -> list[Row]:
    seeds = 8 if quick else 44
    spec = suite_spec(tmp / "suite.toml", seeds)
    families = spec.read_text(encoding="utf-8").count("[[families]]")
    g = f"{families * seeds:,}-case suite ({families} families x {seeds} seeds)"
    rows: list[Row] = []
    suite = tmp / "suite-1"

    def go(cmd: str, jobs: int):
        if cmd == "build":
            out = tmp / f"suite-{jobs}"
            shutil.rmtree(out, ignore_errors=True)
            return run_cli(["build", str(spec), "--out", str(out), "--jobs", str(jobs)])
        return run_cli([cmd, str(suite), "--jobs", str(jobs)])

    for cmd, target in (("build", None), ("verify", None), ("lint", 1.7)):
        # 1 and 2 jobs alternate, so a change in the machine's load falls on both alike and
        # each ratio compares two runs a few seconds apart.
        ran: dict[int, list] = {1: [], 2: []}
        warm = 0 if cmd == "build" else WARMUP
        for i in range(warm + runs):
            for jobs in (1, 2):
                r = go(cmd, jobs)
                if i >= warm:
                    ran[jobs].append(r)
        if failed := _failure([r for rs in ran.values() for r in rs]):
            rows.append(Row(g, f"{cmd}", "s", [], None, error=failed))
            continue
        one, two = ran[1][-1], ran[2][-1]
        same = one.stdout == two.stdout.replace("suite-2", "suite-1")
        note = "output identical with 1 and 2 jobs" if same else "OUTPUT DIFFERS between 1 and 2 jobs"
        if _suite_hash(one):
            note += "; suite hash the same" if _suite_hash(one) == _suite_hash(two) else "; SUITE HASH DIFFERS"
        note += f"; CPU {_cpu(ran[2]):.1f} s over {_cpu(ran[1]):.1f} s"
        # --jobs 1 is the floor: 2 jobs on 2 cores aim at a speed-up of `target` (a ratio of 1/target)
        rows.append(Row(g, f"{cmd} --jobs 2", "s", [r.seconds for r in ran[2]], None,
                        floor=[r.seconds for r in ran[1]], floor_what="the same with --jobs 1, in turns",
                        ratio_target=round(1 / target, 2) if target else None, note=note,
                        extra={"cpu_s": [r.cpu_s for r in ran[2]], "floor_cpu_s": [r.cpu_s for r in ran[1]]}))
        if cmd == "build":  # cases stream to disk: memory must not grow with the suite
            rows.append(Row(g, "build --jobs 2: peak RSS (process tree)", "MB", [r.peak_mb for r in ran[2]], None,
                            floor=[r.peak_mb for r in ran[1]], floor_what="build --jobs 1"))
    rows += _tui_rows(g, suite, runs, 0.8, cases=20 if quick else 40, step_target_ms=80.0,
                      step_label="next case (down to its page on screen)")
    rows += _exposure_rows(g, suite if not quick else _some_cases(suite, tmp / "suite-exposure", 40),
                           1 if quick else runs)
    return rows


# `exposure` over the suite with the `extractors` extra's libraries, against the slowest one's
# own time over the same PDFs (issue 36: within 1.8x at --jobs 2). Each bare time is a fresh
# interpreter that imports the library, reads one PDF untimed, then times the loop over all.
EXPOSURE_EXTRACTORS = ("pdfplumber", "pdfminer", "pypdfium2", "markitdown")
_BARE_EXTRACTOR = (
    "import sys, time\n"
    "from workbench.core.suite import load_suite\n"
    "from workbench.providers.pagetexts import page_texts\n"
    "pdfs = [c.pdf_file.read_bytes() for c in load_suite(sys.argv[2]).cases]\n"
    "page_texts(sys.argv[1], pdfs[0])\n"
    "t, cpu = time.perf_counter(), time.process_time()\n"
    "for pdf in pdfs:\n"
    "    page_texts(sys.argv[1], pdf)\n"
    "print(time.process_time() - cpu, time.perf_counter() - t)\n"
)


def _some_cases(suite: Path, folder: Path, n: int) -> Path:
    """A folder of `n` of the suite's cases spread over its families (JSON and PDF, no manifest: a
    suite all the same): the default's `exposure` reads these (markitdown alone took 31 s of CPU
    over 232 cases)."""
    from workbench.core.suite import load_suite

    folder.mkdir(exist_ok=True)
    cases = load_suite(suite).cases
    for case in cases[::max(1, len(cases) // n)][:n]:
        for src in (case.json_path, case.pdf_file):
            shutil.copy(src, folder / src.name)
    return folder


def _exposure_rows(group: str, suite: Path, runs: int) -> list[Row]:
    from workbench.providers import extractors

    names = [n for n in EXPOSURE_EXTRACTORS if extractors.version(n) is not None]
    if not names:
        return [Row(group, "exposure", "x", [], 1.8, error="no extractor of the `extractors` extra installed")]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    bare: dict[str, float] = {}
    bare_cpu: dict[str, float] = {}
    floors, walls = [], []
    for _ in range(runs):
        for name in names:
            proc = subprocess.run([sys.executable, "-c", _BARE_EXTRACTOR, name, str(suite)],
                                  capture_output=True, text=True, env=env, timeout=3600)
            if proc.returncode != 0:
                return [Row(group, "exposure", "x", [], 1.8,
                            error=f"{name}: " + (proc.stderr.strip().splitlines() or ["failed"])[-1][:100])]
            bare_cpu[name], bare[name] = map(float, proc.stdout.split()[-2:])
            progress(f"{name} alone over the suite: {bare[name]:.1f} s (CPU {bare_cpu[name]:.1f} s)")
        ran = run_cli(["exposure", str(suite), "--extractors", ",".join(names), "--jobs", "2",
                       "--no-cache", "--json"], timeout=3600)
        if ran.code != 0:
            return [Row(group, "exposure", "x", [], 1.8, error=(ran.stderr.strip().splitlines() or ["failed"])[-1][:120])]
        walls.append(ran.seconds)
        floors.append(max(bare.values()))
    slowest = max(bare, key=bare.get)
    each = ", ".join(f"{n} {t:.1f} s (CPU {bare_cpu[n]:.1f})" for n, t in bare.items())
    from workbench.core.suite import load_suite

    cases = len(load_suite(suite).cases)
    return [Row(group, f"exposure, {cases} cases x {len(names)} extractors, --jobs 2, no cache", "s", walls, None,
                floor=floors, floor_what=f"the slowest extractor alone over the same PDFs ({slowest}), in turns",
                ratio_target=1.8, note=each)]


def bench_report(tmp: Path, runs: int, quick: bool) -> list[Row]:
    from benchmarks import bench_report

    seeds = 8 if quick else 44
    return bench_report.rows(f"report --html of the suite's cases x 3 readers ({seeds} seeds a family; "
                             "issue 37), in turns with its floors", tmp, runs, quick, WARMUP)


def bench_oneshot(tmp: Path, runs: int, quick: bool) -> list[Row]:
    from benchmarks import bench_oneshot

    return bench_oneshot.rows("one-shot commands, whole processes, in turns with their floors", tmp,
                              max(runs, 3 if quick else 7), long=not QUICK)


def bench_tests(tmp: Path, runs: int, quick: bool) -> list[Row]:
    from benchmarks import bench_collection

    return bench_collection.rows("the test loop: collection, whole processes, in turns with pytest's start",
                                 tmp, max(runs, 3 if quick else 5))


def bench_tui(tmp: Path, runs: int, quick: bool) -> list[Row]:
    from benchmarks import bench_tui

    return bench_tui.rows("first paint in tmux: the case list against one Static (issue 40.1)",
                          max(runs, 3 if QUICK else 5))   # the median of 5, but in --quick


def bench_agents(tmp: Path, runs: int, quick: bool) -> list[Row]:
    from benchmarks import bench_agents

    return bench_agents.rows("agent readers (issue 35's speed aims), each with its floor", tmp, runs)


def bench_sample(tmp: Path, runs: int, quick: bool) -> list[Row]:
    g = "shipped sample suite (sample_cases/mini)"
    rows: list[Row] = []
    sample = ROOT / "sample_cases" / "mini"
    rows += _tui_rows(g, sample, runs, 0.8, cases=10 if quick else 20, step_target_ms=100.0,
                      step_label="next case (down to its page on screen)",
                      first_runs=max(runs, 2) if QUICK else None)
    try:  # the same start without the second process that draws the first page (for the ratio)
        alone = _tui(sample, max(runs, 2), warmup=0, ahead=False)
        rows.append(Row(g, "workbench: first page, no second process (tui_child --no-ahead)", "s",
                        [r["first_page_s"] for r in alone], None))
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        rows.append(Row(g, "workbench: first page, no second process", "s", [], None, error=str(exc)))
    try:
        import asyncio

        from benchmarks.bench_author import measure

        os.environ["PDFWORKBENCH_CONFIG_DIR"] = scratch()
        results = asyncio.run(measure(12 if quick else 40, 0))
        work, _ = results["no degradation"]
        ms = [w * 1000 for w in work]
        rows.append(Row(g, "author: parameter change to all panes (median)", "ms", ms, 60.0))
        from benchmarks.harness import p95

        rows.append(Row(g, "author: parameter change to all panes (p95)", "ms", [p95(ms)], 150.0))
    except Exception as exc:  # an older script that no longer runs is reported, not fatal
        rows.append(Row(g, "author: parameter change to all panes", "ms", [], 60.0, error=repr(exc)[:120]))
    rows += _against_pdfhell(g, tmp, 3 if quick else 7)
    return rows


# Families both tools make (pdfhell's `make --trap NAME` and ours `make NAME`).
SHARED_WITH_PDFHELL = ("hidden_ocr_mismatch", "footnote_override", "upside_down_amount",
                       "split_table_across_pages")


def _against_pdfhell(group: str, tmp: Path, seeds: int) -> list[Row]:
    """`make` of one case, whole process, against pdfhell's `make` of the same family and seed, the
    two in turns. pdfhell is not a dependency: it is found as $PDFHELL or `pdfhell` on PATH (a side
    virtualenv: `python3 -m venv /tmp/ph && /tmp/ph/bin/pip install pdfhell`)."""
    what = "make: ours over pdfhell's (one case, whole process, in turns)"
    pdfhell = os.environ.get("PDFHELL") or shutil.which("pdfhell")
    if not pdfhell:
        return [Row(group, what, "s", [], None, ratio_target=1.0, note="not measured: pdfhell not found; install it in a "
                    "side virtualenv and set PDFHELL=/path/to/bin/pdfhell")]
    env = dict(os.environ, PYTHONPATH=str(ROOT))

    def timed(cmd: list[str]) -> float:
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        if proc.returncode != 0:
            raise RuntimeError(f"{Path(cmd[0]).name} {' '.join(cmd[1:4])}: "
                               + (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1][:100])
        return time.perf_counter() - t0

    theirs, ours = [], []
    try:
        for family in SHARED_WITH_PDFHELL:
            for i in range(WARMUP + seeds):   # the first WARMUP pairs of a family are not kept
                seed, out = str(i), tmp / "vs-pdfhell" / f"{family}-{i}"
                t = timed([pdfhell, "make", "--trap", family, "--seed", seed, "--out", str(out / "ph")])
                o = timed([sys.executable, "-m", "workbench", "make", family, "--seed", seed, "--out", str(out / "wb")])
                if i >= WARMUP:
                    theirs.append(t)
                    ours.append(o)
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        return [Row(group, what, "s", [], None, ratio_target=1.0, error=str(exc)[:120])]
    n = f"{len(SHARED_WITH_PDFHELL)} families x {seeds} seeds"
    version = subprocess.run([pdfhell, "--version"], capture_output=True, text=True).stdout.strip()
    return [Row(group, f"make: one case, whole process ({n})", "s", ours, None, floor=theirs,
                floor_what=f"pdfhell's make of the same family and seed, in turns ({version or pdfhell})",
                ratio_target=1.0)]


SCRIPTS = ("bench_forensics.py", "bench_families.py", "bench_degrade.py", "bench_grading.py",
           "bench_gold.py", "bench_attribution.py")


def bench_scripts(tmp: Path, runs: int, quick: bool) -> tuple[list[Row], dict[str, str]]:
    """The per-area scripts, each run as it is; their tables are printed after the main one."""
    g = "per-area scripts (their own tables follow)"
    rows: list[Row] = []
    texts: dict[str, str] = {}
    env = dict(os.environ, PYTHONPATH=str(ROOT), PDFWORKBENCH_CONFIG_DIR=scratch())
    for name in SCRIPTS:
        args = [sys.executable, str(ROOT / "benchmarks" / name)]
        if quick and name == "bench_forensics.py":
            args.append("10")
        if quick and name == "bench_families.py":
            args.append("5")
        if quick and name == "bench_degrade.py":
            args += ["--repeat", "3"]   # 15 repeats of four tiers is 27 s of CPU
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(args, capture_output=True, text=True, env=env, timeout=900)
        except subprocess.TimeoutExpired:
            rows.append(Row(g, f"{name} (whole script)", "s", [], None, error="still running after 900 s"))
            continue
        seconds = time.perf_counter() - t0
        texts[name] = proc.stdout + (proc.stderr if proc.returncode else "")
        err = "" if proc.returncode == 0 else (proc.stderr.strip().splitlines() or ["failed"])[-1][:120]
        rows.append(Row(g, f"{name} (whole script)", "s", [seconds], None, error=err))
        progress(f"{name}: {seconds:.1f} s")
    return rows, texts


def bench_run(tmp: Path, runs: int, quick: bool) -> list[Row]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PDFWORKBENCH_CONFIG_DIR=scratch())
    return [_run_throughput("a run against a fake provider (benchmarks/bench_run.py), beside its ideal time",
                            env, 1 if quick else runs)]


def _run_throughput(group: str, env: dict[str, str], runs: int) -> Row:
    """benchmarks/bench_run.py: a run of 100 cases on 8 workers against a fake provider answering
    in 50 ms, beside its floor, the ideal time."""
    args = [sys.executable, str(ROOT / "benchmarks" / "bench_run.py"), "--json", "--repeat", str(runs)]
    try:
        proc = subprocess.run(args, capture_output=True, text=True, env=env, timeout=900)
    except subprocess.TimeoutExpired:
        return Row(group, "run: 100 cases on 8 workers", "s", [], None, error="still running after 900 s")
    if proc.returncode != 0:
        return Row(group, "run: 100 cases on 8 workers", "s", [], None,
                   error=(proc.stderr.strip().splitlines() or ["failed"])[-1][:120])
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    return Row(group, got["what"], "s", got["seconds"], None, floor=[got["floor_s"]] * len(got["seconds"]),
               floor_what=got["floor_what"], ratio_target=got["ratio_target"])


# What the figures depend on besides the code and the machine: a fresh virtualenv takes the newest
# releases the project's ranges allow, so two runs on different days may not have run the same ones.
MEASURED_WITH = ("pymupdf", "pypdf", "reportlab", "rl_accel", "numpy", "pillow", "textual", "rich")


def _versions() -> dict[str, str]:
    from importlib import metadata

    found = {"python": sys.version.split()[0]}
    for name in MEASURED_WITH:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def _cpu_so_far() -> float:
    """CPU seconds of this process and of every child it waited for (each command measured)."""
    import resource

    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    size = ap.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="one run each, fewer pages and cases walked")
    size.add_argument("--big", action="store_true", help="the sizes the issues name (long: use with --only)")
    ap.add_argument("--runs", type=int, help="timed runs per measurement (default 1; --big: 3, after a warm-up)")
    ap.add_argument("--only", help=f"comma-separated groups: {', '.join(GROUPS)}")
    ap.add_argument("--json", type=Path, default=Path("bench-results.json"), help="where to write the figures")
    args = ap.parse_args(argv)
    global QUICK, WARMUP, FIRST_PAGE_LAUNCHES
    # The default's 5 minutes: one timed run of each (its floor beside it, in turns), no warm-up
    # (the inputs are fresh in the page cache, `make bench` compiles the bytecode first), three
    # first-page launches; --big: a warm-up and three runs each, six launches.
    QUICK, WARMUP = args.quick, WARMUP if args.big else 0
    FIRST_PAGE_LAUNCHES = FIRST_PAGE_LAUNCHES if args.big else 3
    runs = args.runs or (3 if args.big else 1)
    only = [g.strip() for g in args.only.split(",")] if args.only else list(
        QUICK_GROUPS if args.quick else GROUPS if args.big else [g for g in GROUPS if g not in BIG_ONLY])
    unknown = [g for g in only if g not in GROUPS]
    if unknown:
        ap.error(f"unknown group {unknown[0]!r}; choose from {', '.join(GROUPS)}")
    load_before = os.getloadavg()
    rows: list[Row] = []
    texts: dict[str, str] = {}
    started = time.time()
    cpu_started = _cpu_so_far()
    spent: dict[str, tuple[float, float]] = {}   # group -> (wall s, CPU s of this process and its children)
    with tempfile.TemporaryDirectory(prefix="pdfwb-bench-") as tmp_s:
        tmp = Path(tmp_s)
        for group in only:
            t0, cpu0 = time.perf_counter(), _cpu_so_far()
            print(f"[bench] {group} ...", file=sys.stderr, flush=True)
            if group == "scripts":
                got, texts = bench_scripts(tmp, runs, not args.big)
            else:   # `quick` in a group: its small sizes (the default's and --quick's)
                got = globals()[f"bench_{group}"](tmp, runs, not args.big)
            load = os.getloadavg()[0]
            for r in got:   # a row's figures are read against the machine's state when it ran
                r.extra.update(load_1min=round(load, 2), cores=os.cpu_count())
            rows += got
            spent[group] = (time.perf_counter() - t0, _cpu_so_far() - cpu0)
            print(f"[bench] {group}: {spent[group][0]:.0f} s, CPU {spent[group][1]:.0f} s (load {load:.2f})",
                  file=sys.stderr, flush=True)
            print(table(got) + "\n", flush=True)   # partial results as they come; the whole table follows
            # What is measured so far is kept, should a later group be stopped.
            args.json.write_text(json.dumps({"partial": True, "rows": [r.to_json() for r in rows]},
                                            indent=2) + "\n", encoding="utf-8")
    load_after = os.getloadavg()
    print(table(rows))
    for name, text in texts.items():
        print(f"\n== {name}\n{text.rstrip()}")
    cores = os.cpu_count()
    versions = _versions()
    cpu_all = _cpu_so_far() - cpu_started
    print(f"\nload average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min); {cores} cores; "
          f"{time.time() - started:.0f} s in all, CPU {cpu_all:.0f} s (" +
          ", ".join(f"{g} {w:.0f} s/CPU {c:.0f} s" for g, (w, c) in spent.items()) + ")")
    print("ran with " + ", ".join(f"{name} {version}" for name, version in versions.items()))
    report = {
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "seconds": round(time.time() - started, 1), "cores": cores, "runs": runs, "quick": args.quick,
        "big": args.big,
        "cpu_s": round(cpu_all, 1), "groups": {g: {"seconds": round(w, 1), "cpu_s": round(c, 1)}
                                              for g, (w, c) in spent.items()},
        "load_before": load_before, "load_after": load_after, "versions": versions,
        "rows": [r.to_json() for r in rows], "scripts": texts,
    }
    args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
