"""Batch-run throughput: 100 cases, 8 workers, against the fake provider answering after 50 ms.

Ideal wall time is 100 x 50 ms / 8 = 625 ms; the aim is within 1.3x of it. Uses the text
modality so PDF rendering is not measured (text extraction, HTTP, JSON and record writing are).
The fake server runs in a separate process. Prints the median of a few runs.

    .venv/bin/python benchmarks/bench_run.py [--cases 100] [--workers 8] [--latency-ms 50] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--workers", type=int, default=8)
    ap.add_argument("--latency-ms", type=float, default=50.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--modality", default="text", choices=["text", "pdf"])
    ap.add_argument("--provider", default="openai")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-run-"))
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

    ideal_s = args.cases * args.latency_ms / 1000.0 / args.workers
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
    med = statistics.median(walls)
    print(f"{'cases':>6} {'workers':>7} {'latency':>8} {'ideal':>8} {'median':>8} {'ratio':>6} {'aim':>5}")
    print(f"{args.cases:>6} {args.workers:>7} {args.latency_ms:>6.0f}ms {ideal_s * 1000:>6.0f}ms "
          f"{med * 1000:>6.0f}ms {med / ideal_s:>6.2f} {'1.30':>5}")
    print(f"runs: {', '.join(f'{w * 1000:.0f} ms' for w in walls)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
