"""Median time of forensics for a one-page case, in one process (no interpreter start-up), cold
(the analysis caches are cleared before each round):

- inspect: what `pdfworkbench inspect --json` runs on the case's PDF;
- lint: what `pdfworkbench lint` runs on the case;
- opened: what the workbench runs when it opens the case (`case_data.load_case_data`): the page
  analysed once, each extractor's text, and the lint reusing that analysis. The aim is for this.

Until 2026-12-02 the aim was judged on inspect + lint in a row, on the claim that lint reused
inspect's analysis as the workbench does; once inspect analysed page by page it no longer did, so
that sum counted the analysis twice, which no command or screen does.

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
    from workbench.build.make import generate_case, write_case
    from workbench.checks.inspect import inspect_document
    from workbench.checks.lint import lint_path
    from workbench.pdf import textlayer, visibility
    from workbench.pdf.document import read_pdf_bytes
    from workbench.tui.case_data import load_case_data

    def cold(fn) -> list[float]:
        times = []
        for i in range(rounds + 3):
            visibility.clear_cache()
            textlayer.clear_cache()
            t0 = time.perf_counter()
            fn()
            if i >= 3:  # warm-up: first calls load fonts and imports
                times.append((time.perf_counter() - t0) * 1000)
        return times

    def opened(case) -> None:
        data = load_case_data(case, 150)
        data.pages.close()
        assert data.findings is not None and len(data.loaded) == data.page_count

    cases = [("hidden_ocr_mismatch", 3), ("white_text_injection", 2), ("invoice_extraction", 1)]
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'case':34} {'inspect':>9} {'lint':>9} {'opened':>9} {'opened/aim':>10}")
        for family, seed in cases:
            case, pdf = generate_case(family, seed)
            path = write_case(case, pdf, Path(tmp))
            t_inspect = cold(lambda c=case, p=path: inspect_document(read_pdf_bytes(c.pdf_file), name=str(p), dpi=150))
            t_lint = cold(lambda p=path: lint_path(p, dpi=150))
            t_open = cold(lambda c=case: opened(c))
            both = statistics.median(t_open)
            print(f"{case.id:34} {statistics.median(t_inspect):7.1f}ms {statistics.median(t_lint):7.1f}ms "
                  f"{both:7.1f}ms {both / AIM_MS:9.2f}x")
    print(f"aim: a one-page case opened in the workbench (analysis and lint) under {AIM_MS:.0f} ms "
          "(ratio < 1.00 meets it)")

if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
