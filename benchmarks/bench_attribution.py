"""Attribution speed: where each value of an answer came from, on the sample's one-page cases.

The page analysis is shared with the lint and the screens (cached per document), so the cost
that matters is per answer once the page is analysed. Prints medians and the ratio to the aim
(below 1.0 is within the aim: 20 ms an answer).
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from workbench.checks.attribution import attribute
from workbench.core.case import load_case
from workbench.pdf.visibility import analyze_page

MINI = Path(__file__).resolve().parents[1] / "sample_cases" / "mini"
AIM_MS = 20.0


def main() -> None:
    cases = [load_case(p) for p in sorted(MINI.glob("*.json")) if p.name != "suite.json"]
    cases = [c for c in cases if not c.gold]
    first, warm, long_ = [], [], []
    for case in cases:
        data = case.pdf_file.read_bytes()
        answers = [f"The answer is {a}." for a in [case.expected_answer[:40], *case.forbidden_answers[:2]]]
        answers.append("I believe it is $12,345.67 per invoice INV-000001.")
        t = time.perf_counter()
        attribute(case, data, answers[0])
        first.append((time.perf_counter() - t) * 1000)
        for answer in answers:
            times = []
            for _ in range(5):
                t = time.perf_counter()
                attribute(case, data, answer)
                times.append((time.perf_counter() - t) * 1000)
            warm.append(statistics.median(times))
        dump = " ".join(s.text for s in analyze_page(data, 0))
        t = time.perf_counter()
        attribute(case, data, dump)
        long_.append((time.perf_counter() - t) * 1000)
    rows = [
        (f"first answer of a case (page analysis included; {len(cases)} cases)", statistics.median(first), None),
        (f"an answer once the page is analysed ({len(warm)} answers)", statistics.median(warm), AIM_MS),
        ("  p95 of the same", sorted(warm)[int(0.95 * (len(warm) - 1))], AIM_MS),
        ("a whole page's text as the answer (a text probe's dump)", statistics.median(long_), None),
    ]
    print(f"{'what':<66} {'median ms':>10} {'aim ms':>8} {'ratio':>6}")
    for name, ms, aim in rows:
        ratio = f"{ms / aim:6.2f}" if aim else "      "
        print(f"{name:<66} {ms:10.1f} {aim or 0:8.1f} {ratio}")


if __name__ == "__main__":
    main()
