"""Batch-run throughput: 100 cases, 8 workers, against the fake provider answering after 50 ms.

The ideal wall time is the shortest schedule of those calls on those workers (bench_agents.ideal_ms):
100 calls of 50 ms on 8 workers are 13 rounds on some worker, 650 ms (100 x 50 ms / 8 = 625 ms is
reached by no schedule: a call is on one worker); the aim is within 1.3x of it. Uses the text
modality so PDF rendering is not measured (text extraction, HTTP, JSON and record writing are).
The fake server runs in a separate process. Prints the runs beside their floor, the ideal time,
and the ratio (`--json`: the same as one JSON object, which `python -m benchmarks` reads).

    .venv/bin/python benchmarks/bench_run.py [--cases 100] [--workers 8] [--latency-ms 50] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

AIM = 1.3   # within 1.3x of the ideal time


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--workers", type=int, default=8)
    ap.add_argument("--latency-ms", type=float, default=50.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--modality", default="text", choices=["text", "pdf"])
    ap.add_argument("--provider", default="openai")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args()

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # run as a script, not as a module
    from benchmarks.harness import scratch

    tmp = Path(scratch("pdfwb-bench-run-"))
    os.environ["PDFWORKBENCH_CACHE_DIR"] = str(tmp / "cache")
    os.environ.setdefault("OPENAI_API_KEY", "sk-bench-not-a-real-key")
    os.environ.setdefault("ANTHROPIC_API_KEY", "bench-not-a-real-key")
    os.environ.setdefault("GOOGLE_API_KEY", "bench-not-a-real-key")

    from workbench.build.suite import build_suite
    from workbench.providers.base import parse_reader
    from workbench.providers.running import RunPlan, run_suite

    spec = tmp / "spec.toml"
    spec.write_text(f'name = "bench"\n[[families]]\nname = "hidden_ocr_mismatch"\nseeds = "1..{args.cases}"\n'
                    'params = { hidden_change_pct = 40.0 }\n')
    t0 = time.perf_counter()
    build_suite(spec, tmp / "suite")
    print(f"built {args.cases} cases in {time.perf_counter() - t0:.2f} s", file=sys.stderr)

    from benchmarks.bench_agents import ideal_ms

    ideal_s = ideal_ms([1] * args.cases, args.workers, args.latency_ms) / 1000.0
    walls = []
    # The fake provider runs in its own process, as a real one is remote: it must not share our GIL.
    server = subprocess.Popen([sys.executable, "-m", "workbench", "fake-server", "--port", "0",
                               "--latency-ms", str(args.latency_ms)],
                              stderr=subprocess.PIPE, text=True)
    try:
        first = server.stderr.readline() if server.stderr else ""
        url = first.split(" on ", 1)[1].split()[0]
        base = url + "/v1" if args.provider == "openai" else url
        for i in range(args.repeat):
            plan = RunPlan(parse_reader(f"{args.provider}:fake"), args.modality, None, args.workers,
                           cache=False, base_url=base)
            t0 = time.perf_counter()
            outcome = run_suite(tmp / "suite", plan, tmp / f"run{i}.jsonl")
            walls.append(time.perf_counter() - t0)
            bad = [r for r in outcome.records if r.status != "ok"]
            assert len(outcome.records) == args.cases and not bad, (len(outcome.records), bad[:1])
    finally:
        server.terminate()
        server.wait(timeout=10)
    what = (f"run: {args.cases} cases, {args.workers} workers, fake {args.provider} answering in "
            f"{args.latency_ms:.0f} ms ({args.modality})")
    floor_what = (f"the ideal: the shortest schedule of {args.cases} calls of {args.latency_ms:.0f} ms on "
                  f"{args.workers} workers")
    if args.json:
        print(json.dumps({"what": what, "seconds": walls, "floor_s": ideal_s, "floor_what": floor_what,
                          "ratio_target": AIM}))
        return 0
    from benchmarks.harness import Row, table

    print(table([Row("batch-run throughput", what, "s", walls, None, floor=[ideal_s] * len(walls),
                     floor_what=floor_what, ratio_target=AIM)]))
    return 0

if __name__ == "__main__":
    sys.exit(main())
