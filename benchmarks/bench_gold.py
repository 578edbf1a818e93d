"""Gold: how long regrade and the triage queue take on a mid-sized suite with many saved answers.

Builds 40 invoice_extraction cases, 2,000 saved answers (JSON answers, some with the decoy) and
60 disputes in a temporary folder, then prints medians. Aims: the triage queue (impact of every
dispute) under 2 s, so the screen fills at once; regrade of 2,000 answers under 3 s.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workbench.build.suite import build_suite  # noqa: E402
from workbench.core.runs import RunRecord, RunWriter  # noqa: E402
from workbench.core.suite import load_suite  # noqa: E402
from workbench.gold.disputes import add_dispute, decide  # noqa: E402
from workbench.gold.regrade import regrade  # noqa: E402
from workbench.gold.triage import triage_queue  # noqa: E402


def _median(fn, n=5):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "spec.toml").write_text('name = "bench"\n[[families]]\nname = "invoice_extraction"\nseeds = "1..40"\n')
        build_suite(root / "spec.toml", root / "suite")
        suite = root / "suite"
        cases = load_suite(suite).cases
        (suite / "runs").mkdir()
        with RunWriter(suite / "runs" / "bench.jsonl") as w:
            for i in range(2000):
                c = cases[i % len(cases)]
                exp = json.loads(json.dumps(c.gold["expected"]))
                if i % 3 == 0 and c.metadata.get("direct_line"):
                    exp["invoice"]["vendor_phone"] = c.metadata["direct_line"]
                w.append(RunRecord(c.id, c.sha256, c.key_sha256(), f"bench:m{i % 5}", "pdf", None, "",
                                   json.dumps(exp), "ok", provenance="imported"))
        for i in range(60):
            c = cases[i % len(cases)]
            d = add_dispute(suite, c.id, "invoice.total", round(c.gold["expected"]["invoice"]["total"] + 1 + i, 2),
                            "bench", who="bench")
            if i % 4 == 0:
                decide(suite, d.id, "accept", "bench", who="bench")
        runs = [suite / "runs" / "bench.jsonl"]
        t_queue = _median(lambda: triage_queue(suite), 3)
        t_regrade = _median(lambda: regrade(runs, suite, "latest", "v1"), 3)
        print(f"{'measure':<42}{'median':>10}{'aim':>10}{'ratio':>8}")
        for name, value, aim in (("triage_queue (60 disputes, 2,000 answers)", t_queue, 2.0),
                                 ("regrade latest vs v1 (2,000 answers)", t_regrade, 3.0)):
            print(f"{name:<42}{value:>9.3f}s{aim:>9.1f}s{value / aim:>8.2f}")


if __name__ == "__main__":
    main()
