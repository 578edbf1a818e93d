"""Median time of `inspect` + `lint` for a one-page case, in one process (no interpreter start-up).

Each round starts cold (the analysis caches are cleared), then runs what `pdfworkbench inspect
--json` and `pdfworkbench lint` run on the case; lint reuses inspect's analysis, as the TUI does.
Run: .venv/bin/python benchmarks/bench_forensics.py [rounds]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

AIM_MS = 30.0


def main(rounds: int = 40) -> None:
    from workbench.core.make import generate_case, write_case
    from workbench.pdf import layers, spans
    from workbench.pdf.document import read_pdf_bytes
    from workbench.pdf.inspect import inspect_document
    from workbench.pdf.lint import lint_path

    cases = [("hidden_ocr_mismatch", 3), ("white_text_injection", 2), ("invoice_extraction", 1)]
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'case':34} {'inspect':>9} {'lint':>9} {'both':>9} {'both/aim':>9}")
        for family, seed in cases:
            case, pdf = generate_case(family, seed)
            path = write_case(case, pdf, Path(tmp))
            t_inspect, t_lint, t_both = [], [], []
            for i in range(rounds + 3):
                spans.clear_cache()
                layers.clear_cache()
                t0 = time.perf_counter()
                inspect_document(read_pdf_bytes(case.pdf_file), name=str(path), dpi=150)
                t1 = time.perf_counter()
                lint_path(path, dpi=150)
                t2 = time.perf_counter()
                if i >= 3:  # warm-up: first calls load fonts and imports
                    t_inspect.append((t1 - t0) * 1000)
                    t_lint.append((t2 - t1) * 1000)
                    t_both.append((t2 - t0) * 1000)
            lint_cold = []
            for _ in range(rounds):
                spans.clear_cache()
                layers.clear_cache()
                t0 = time.perf_counter()
                lint_path(path, dpi=150)
                lint_cold.append((time.perf_counter() - t0) * 1000)
            both = statistics.median(t_both)
            print(f"{case.id:34} {statistics.median(t_inspect):7.1f}ms {statistics.median(t_lint):7.1f}ms "
                  f"{both:7.1f}ms {both / AIM_MS:8.2f}x   (lint alone, cold: {statistics.median(lint_cold):.1f}ms)")
    print(f"aim: inspect + lint under {AIM_MS:.0f} ms for a one-page case (ratio < 1.00 meets it)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
