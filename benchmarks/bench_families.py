"""Generation time per trap family: median over seeds 1..N, PDF bytes in memory, nothing written.

Prints a table with each family's median and 95th percentile, pages per case, and the ratio of the
median to the aim (20 ms per case for single-page families).
"""

from __future__ import annotations

import statistics
import sys
import time

AIM_MS = 20.0


def main(seeds: int = 20) -> None:
    from workbench.build.make import generate_case
    from workbench.generators.registry import registry
    from workbench.pdf.textlayer import page_info

    reg = registry()
    print(f"{'family':<30}{'pages':>6}{'median':>10}{'p95':>9}{'ratio':>7}")
    for name, fam in reg.families.items():
        generate_case(name, 1, family=fam)  # warm up: fonts, imports
        times = []
        pages = 0
        for seed in range(1, seeds + 1):
            t0 = time.perf_counter()
            _, pdf = generate_case(name, seed, family=fam)
            times.append((time.perf_counter() - t0) * 1000)
            pages = max(pages, len(page_info(pdf)))
        med = statistics.median(times)
        p95 = sorted(times)[max(0, int(len(times) * 0.95) - 1)]
        ratio = f"{med / AIM_MS:.2f}" if pages == 1 else "-"
        print(f"{name:<30}{pages:>6}{med:>8.1f}ms{p95:>7.1f}ms{ratio:>7}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
