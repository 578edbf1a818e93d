"""`report --html` of 1,276 cases x 3 readers (issue 37's speed aim: written in under 5 s, under
5 MB with a page crop of every wrong answer; the first chart shown within 1 s in Chromium).

Three readers over the benchmark suite: the two text-layer probes, and predictions that give the
key's answer to two cases in three and the trap's to the third. Each round runs, in turns (so a
change in the machine's load falls on all alike):

- floor: `report` without --html (loading the runs and the suite, grading every answer);
- floor: the same page crops drawn by pymupdf alone (`benchmarks/floor_crops.py`, 2 processes),
  and again with the text of each page up to the crop's read as pymupdf's text trace (`--trace`:
  the least reading that finds where an answer is drawn);
- `report --html` with an empty crop cache (every crop made, while the runs are graded), then
  again with the cache it left, and (not in the warm-up round) with `--by source` as well: each
  wrong answer traced to where it came from in its PDF.

Each is a whole process; its wall and CPU time (user + system, the processes it waited for
included) are kept, with the load when it ran. Each row's floor is from the same rounds: the run
with its crops made over grading plus pymupdf's crops with the text trace, the cached run over
grading alone, the crops (the made run less grading) over pymupdf's with and without the trace.
(The made run grades and crops at once, on every core; its floors ran one after the other, so
its wall ratio can be under 1.) Where Chromium and playwright are at hand, the page is opened
(offline) and the first paint with the first chart in it is timed.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.harness import Row, progress, run_cli, scratch
from benchmarks.inputs import suite_spec

CHROMIUM = os.environ.get("PDFWORKBENCH_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def _load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def _suite(tmp: Path, quick: bool) -> Path:
    """The benchmark suite (every family x 44 seeds; 8 with --quick): the suite group's when it
    ran first, else built here."""
    suite = tmp / "suite-1"
    if not (suite / "suite.json").exists():
        spec = suite_spec(tmp / "suite.toml", 8 if quick else 44)
        ran = run_cli(["build", str(spec), "--out", str(suite), "--jobs", "2"])
        if ran.code != 0:
            raise RuntimeError("build: " + (ran.stderr.strip().splitlines() or ["failed"])[-1])
    return suite


def _runs(tmp: Path, suite: Path) -> list[Path]:
    out_dir = tmp / "html-runs"
    out_dir.mkdir(exist_ok=True)
    for probe in ("pypdf", "pymupdf"):
        out = out_dir / f"probe-{probe}.jsonl"
        if not out.exists():
            ran = run_cli(["run", str(suite), "--reader", f"probe:{probe}", "--out", str(out), "--no-cache"])
            if ran.code not in (0, 1):
                raise RuntimeError(f"run probe:{probe}: " + (ran.stderr.strip().splitlines() or ["failed"])[-1])
    from workbench.core.suite import load_suite

    preds = tmp / "predictions.jsonl"
    lines = []
    for i, case in enumerate(load_suite(suite).cases):
        answer = case.expected_answer if i % 3 else (case.forbidden_answers or ["not stated"])[0]
        lines.append(json.dumps({"id": case.id, "prediction": answer}))
    preds.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ran = run_cli(["import-run", str(preds), "--suite", str(suite), "--reader", "bench:key-echo",
                   "--out", str(out_dir / "key-echo.jsonl"), "--force"])
    if ran.code != 0:
        raise RuntimeError("import-run: " + (ran.stderr.strip().splitlines() or ["failed"])[-1])
    return sorted(out_dir.glob("*.jsonl"))


def _first_chart_ms(page: Path, loads: int) -> tuple[list[float], str]:
    """First contentful paint of the page in headless Chromium, offline, at 1280 x 900, for each
    of `loads` loads; the note says whether the first chart was in that paint."""
    from playwright.sync_api import sync_playwright

    init = """
    window.__t = {};
    new PerformanceObserver(l => l.getEntries().forEach(e => { window.__t[e.name] = e.startTime; }))
      .observe({type: 'paint', buffered: true});
    (function tick() {
      const svg = document.querySelector('#chart-pass svg');
      if (svg && svg.getBoundingClientRect().width > 0) { window.__t.chart = performance.now(); return; }
      requestAnimationFrame(tick);
    })();"""
    flags = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    paints, charted = [], 0
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(scratch("pdfwb-chromium-"), executable_path=CHROMIUM, args=flags,
                                                   headless=True, offline=True)
        try:
            for _ in range(loads):
                view = ctx.new_page()
                view.set_viewport_size({"width": 1280, "height": 900})
                # (playwright's init script runs before the page's own and its CSP)
                view.add_init_script(init)
                view.goto(page.as_uri(), wait_until="load")
                # Polled from here: `wait_for_function` evaluates its string in the page, which
                # the report's CSP (no 'unsafe-eval') refuses whenever the chart is not there yet.
                deadline = time.monotonic() + 60
                while not view.evaluate("window.__t.chart !== undefined && "
                                        "window.__t['first-contentful-paint'] !== undefined"):
                    if time.monotonic() > deadline:
                        raise TimeoutError("no chart painted in 60 s")
                    time.sleep(0.01)
                t = view.evaluate("window.__t")
                paints.append(t["first-contentful-paint"])
                charted += t["chart"] <= t["first-contentful-paint"]
                view.close()
        finally:
            ctx.close()
    return paints, f"the first chart in the first paint {charted} of {loads} times"


def rows(group: str, tmp: Path, runs: int, quick: bool, warmup: int = 1) -> list[Row]:
    try:
        suite = _suite(tmp, quick)
        run_files = _runs(tmp, suite)
    except (RuntimeError, TimeoutError) as exc:
        return [Row(group, "report --html, 3 readers", "s", [], 5.0, error=str(exc)[:120])]
    page, sourced = tmp / "report.html", tmp / "report-by-source.html"
    base = ["report", *map(str, run_files), "--suite", str(suite)]
    got: dict[str, list] = {"grading": [], "crops": [], "traced": [], "cold": [], "warm": [], "source": []}
    loads: dict[str, list[str]] = {k: [] for k in got}
    for i in range(warmup + runs):
        cache = Path(tempfile.mkdtemp(prefix="crop-cache-", dir=tmp))
        env = {"PDFWORKBENCH_CACHE_DIR": str(cache)}
        round_ = {
            "grading": run_cli(base, env=env),
            "cold": run_cli([*base, "--html", str(page)], env=env),
        }
        round_["warm"] = run_cli([*base, "--html", str(page)], env=env)
        if i >= warmup:   # (the longest: not in the warm-up round)
            round_["source"] = run_cli([*base, "--html", str(sourced), "--by", "source"], env=env)
        round_["crops"] = run_cli([str(page), str(suite), "--jobs", "2"], module="benchmarks.floor_crops")
        round_["traced"] = run_cli([str(page), str(suite), "--jobs", "2", "--trace"],
                                   module="benchmarks.floor_crops")
        bad = [(k, r) for k, r in round_.items() if r.code not in (0, 1)]
        if bad:
            k, r = bad[0]
            return [Row(group, f"report --html ({k})", "s", [], 5.0,
                        error=(r.stderr.strip().splitlines() or [f"exit {r.code}"])[-1][:120])]
        shutil.rmtree(cache, ignore_errors=True)
        if i >= warmup:
            for k, r in round_.items():
                got[k].append(r)
                loads[k].append(_load())
    said = (got["cold"][-1].stderr.strip().splitlines() or [""])[-1]
    g, f, t, c, w = (got[k] for k in ("grading", "crops", "traced", "cold", "warm"))
    both = ("report without --html, then the same crops by pymupdf alone with the text trace of the "
            "pages up to each crop's (2 processes)")
    grading = "report without --html (load the runs and the suite, grade every answer)"

    def secs(rs) -> list[float]:
        return [r.seconds for r in rs]

    def cpus(rs) -> list[float]:
        return [r.cpu_s for r in rs]

    out = [
        Row(group, "report --html, crops made (empty cache): wall", "s", secs(c), 5.0,
            floor=[a.seconds + b.seconds for a, b in zip(g, t, strict=True)], floor_what=both,
            note=f"{said[-40:]}; {', '.join(loads['cold'])}"),
        Row(group, "report --html, crops made (empty cache): CPU", "s", cpus(c), None,
            floor=[a.cpu_s + b.cpu_s for a, b in zip(g, t, strict=True)], floor_what=both),
        Row(group, "report --html, crops from the cache: wall", "s", secs(w), 5.0, floor=secs(g),
            floor_what=grading, note=", ".join(loads["warm"])),
        Row(group, "report --html, crops from the cache: CPU", "s", cpus(w), None, floor=cpus(g),
            floor_what=grading),
        Row(group, "the crops alone (made, less grading): CPU", "s",
            [a.cpu_s - b.cpu_s for a, b in zip(c, g, strict=True)], None, floor=cpus(f),
            floor_what="the same crops by pymupdf alone: open, render, PNG (2 processes)"),
        Row(group, "the crops alone (made, less grading): CPU, over the text trace", "s",
            [a.cpu_s - b.cpu_s for a, b in zip(c, g, strict=True)], None, floor=cpus(t),
            floor_what="pymupdf alone: open, the text trace of the pages up to the crop's, render, PNG "
                       "(2 processes)"),
        Row(group, "report --html: peak RSS (process tree), crops made", "MB", [r.peak_mb for r in c], None),
        Row(group, "report --html --by source, crops from the cache: wall", "s", secs(got["source"]), None,
            floor=secs(w), floor_what="the same without --by source", note=", ".join(loads["source"])),
        Row(group, "report --html --by source, crops from the cache: CPU", "s", cpus(got["source"]), None,
            floor=cpus(w), floor_what="the same without --by source (the cases traced on every core)"),
    ]
    if sourced.exists():
        out.append(Row(group, "report --html --by source: the page's size", "MB", [sourced.stat().st_size / 1e6],
                       None, note="each wrong answer's traced values in its card"))
    if page.exists():
        out.append(Row(group, "report --html: the page's size", "MB", [page.stat().st_size / 1e6], 5.0))
        what = "Chromium: first paint, the first chart in it (1280 x 900, offline)"
        if not Path(CHROMIUM).exists():
            out.append(Row(group, what, "ms", [], 1000.0, note="not measured: no Chromium (apt-get install chromium)"))
        else:
            try:
                paints, note = _first_chart_ms(page, 1 if quick else 5)
                out.append(Row(group, what, "ms", paints, 1000.0, note=f"{note}; {_load()}"))
            except ImportError:
                out.append(Row(group, what, "ms", [], 1000.0, note="not measured: playwright is not installed"))
            except Exception as exc:   # a browser that does not start is reported, not fatal
                out.append(Row(group, what, "ms", [], 1000.0, error=repr(exc)[:120]))
    progress(f"report: {len(got['cold'])} rounds")
    return out


def main() -> None:
    """Run alone: `python -m benchmarks.bench_report [RUNS]` prints the rows."""
    from benchmarks.harness import table

    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    with tempfile.TemporaryDirectory(prefix="pdfwb-bench-report-") as tmp:
        t0 = time.perf_counter()
        got = rows("report --html (issue 37)", Path(tmp), runs, quick=False)
        print(table(got))
        print(f"\n{os.cpu_count()} cores; {time.perf_counter() - t0:.0f} s in all")


if __name__ == "__main__":
    main()
