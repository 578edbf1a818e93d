"""The light modules of the pdf layer load no PDF library, numpy or imaging when imported, nor does
what the workbench imports before its first frame: pymupdf, numpy and pypdf come with the first
page computed (`pdf.pages.PdfPages` loads the page engine then), Pillow with the first page drawn.
Checked in a fresh interpreter by the modules it ended with."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.fixtures import ONE_CASE

HEAVY = ("fitz", "pymupdf", "pypdf", "numpy", "PIL", "reportlab")
LIGHT = ("workbench.pdf.spans", "workbench.pdf.pages", "workbench.pdf.pagedata", "workbench.pdf.layers",
         "workbench.pdf.budget", "workbench.checks.evidence", "workbench.checks.sources", "workbench.checks.findings")


def _heavy_after(code: str) -> list[str]:
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120)
    modules = json.loads(out.stdout.strip().splitlines()[-1])
    return sorted({h for h in HEAVY for m in modules if m == h or m.startswith(h + ".")})


def test_the_light_modules_load_no_pdf_library() -> None:
    assert _heavy_after("\n".join(f"import {m}" for m in LIGHT)) == []


def test_what_the_workbench_imports_before_its_first_frame_loads_no_pdf_library() -> None:
    """(Nor Pillow: the first page, drawn from an image, comes just after that frame.)"""
    assert _heavy_after("import workbench.cli.app, workbench.tui.app, workbench.tui.screens.inspect") == []


def test_listing_the_families_loads_no_pdf_library_or_numpy() -> None:
    """The registry imports every family module (shell completion, `families`): they draw with
    reportlab and import pymupdf, pypdf or the scan stage only where they generate."""
    listed = "from workbench.build.make import family_registry\nassert family_registry().families\n"
    assert set(_heavy_after(listed)) <= {"PIL", "reportlab"}


def test_a_pdf_opened_with_its_page_count_loads_the_engine_at_its_first_page() -> None:
    pdf = ONE_CASE.with_suffix(".pdf")
    opened = f"from workbench.pdf.pages import PdfPages\npages = PdfPages(open({str(pdf)!r}, 'rb').read(), page_count=1)\n"
    assert _heavy_after(opened) == []
    assert {"pymupdf", "numpy", "pypdf"} <= set(_heavy_after(opened + "pages.page(0)\n"))
