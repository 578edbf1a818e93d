"""Grading speed: one contains verdict, a 40-row fields verdict, a report over 5,000 records.

Prints medians of repeated runs and the ratio to the aim (below 1.0 is within the aim).
"""

from __future__ import annotations

import json
import statistics
import time

from workbench.core.case import Case
from workbench.core.runs import RunRecord
from workbench.grading import grade
from workbench.grading.report import build_report
from workbench.grading.report_text import render_report_text


def median_ms(fn, repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    money = Case(id="m", trap_family="bench", seed=1, question="q", expected_answer="$12,345.67",
                 forbidden_answers=["$22,345.67"])
    answer = "After reading the invoice carefully, the TOTAL AMOUNT DUE is $12,345.67 (USD)."
    rows = [{"name": f"Person {i}", "date": f"2025-03-{1 + i % 28:02d}", "phone": f"555-01{i:02d}"}
            for i in range(40)]
    fields = Case(id="f", trap_family="bench", seed=1, question="q", expected_answer="",
                  matcher={"type": "fields"},
                  gold={"expected": rows, "fields": {"name": {"threshold": 0.9}, "date": {"normalizer": "date"},
                                                     "phone": {"normalizer": "phone"}}})
    given = json.dumps(list(reversed([dict(r, name=r["name"].upper()) for r in rows])))
    cases = {f"c{i}": Case(id=f"c{i}", trap_family=f"fam{i % 5}", seed=i, question="q",
                           expected_answer=f"${i},000.00") for i in range(500)}
    records = [RunRecord(case_id=f"c{i % 500}", case_sha256=None, key_sha256=None, reader=f"r:{i // 2500}",
                         modality="pdf", dpi=None, prompt="q", answer=f"${i % 500},000.00",
                         status="ok" if i % 17 else "error") for i in range(5000)]

    rows_out = [
        ("grade contains (1 answer)", median_ms(lambda: [grade(money, answer) for _ in range(100)]) / 100, 1.0),
        ("grade fields (40 rows, reordered)", median_ms(lambda: grade(fields, given), 5), 200.0),
        ("build_report + text (5,000 records)",
         median_ms(lambda: render_report_text(build_report(records, cases, by="family")), 3), 2000.0),
    ]
    print(f"{'what':<40} {'median ms':>10} {'aim ms':>8} {'ratio':>6}")
    for name, ms, aim in rows_out:
        print(f"{name:<40} {ms:10.3f} {aim:8.1f} {ms / aim:6.2f}")


if __name__ == "__main__":
    main()
