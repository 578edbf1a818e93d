"""One-shot commands load only what they use (issue 40): `grade` needs the key, not a PDF library,
a provider or the TUI; `--version` and `--help` need no command's code. Checked in a fresh
interpreter by the modules it ended with (the speed itself is the benchmark's: `make bench`)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.fixtures import SAMPLE

HEAVY = ("fitz", "pymupdf", "pypdf", "numpy", "PIL", "textual", "httpx", "reportlab", "workbench.providers",
         "workbench.pdf", "workbench.tui",
         # the standard library's that `grade` has no use for: OpenSSL's start (no hash is made),
         # the fuzzy matcher's difflib, the date matcher's datetime; logging (a light command sets
         # it up where a library loads: `Command.light`), shutil (argparse's terminal width) and,
         # on Linux, the config folder's platformdirs (tempfile, random)
         "hashlib", "_hashlib", "difflib", "datetime", "logging", "shutil",
         # inspect's own imports (dataclasses imports it only to write a missing docstring:
         # `workbench.cli._defer_inspect`), and the run records (grade reads no run)
         "ast", "dis", "tokenize", "workbench.core.runs",
         # argparse's words looked up in the system's message catalogues, the first lookup loading
         # locale (`workbench.cli._argparse_untranslated`)
         "locale") + \
    (("platformdirs", "tempfile") if sys.platform == "linux" else ())

PROBE = """
import json, sys
from workbench.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print(json.dumps([code, sorted(sys.modules)]), file=sys.stderr)
"""


def _loaded(*argv: str, heavy: tuple[str, ...] = HEAVY) -> tuple[int, list[str]]:
    proc = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=120)
    code, modules = json.loads(proc.stderr.strip().splitlines()[-1])
    return code, [m for m in modules if any(m == h or m.startswith(h + ".") for h in heavy)]


def test_grade_loads_no_pdf_library_provider_or_tui():
    case = SAMPLE / "actualtext_override-0001.json"
    key = json.loads(case.read_text(encoding="utf-8"))["expected_answer"]
    assert _loaded("grade", str(case), "--answer", key) == (0, [])
    assert _loaded("grade", str(case), "--answer", "no") == (1, [])


def test_version_and_help_load_no_command_code():
    code, heavy = _loaded("--version")
    assert (code, heavy) == (0, [])
    code, heavy = _loaded("--help")
    assert (code, heavy) == (0, [])


def test_grade_explain_loads_the_pdf_but_no_report_provider_or_tui():
    """--explain reads the PDF (pymupdf); the report's code (its tables, price files) is not what
    attributes one answer, nor is the process pool that traces a report's rows, and a value
    found on the page needs no text layer read by pypdf (with Pillow and its crypto, a third of
    --explain's start). Nor numpy: this page's text lies on white paper or on a filled box, where
    MuPDF's pixels are counted as bytes (`pdf.ink.PagePixels`; numpy's import was a third of
    --explain's CPU beyond pymupdf's)."""
    case = SAMPLE / "actualtext_override-0001.json"
    key = json.loads(case.read_text(encoding="utf-8"))["expected_answer"]
    not_needed = ("workbench.grading.report", "workbench.grading.cost", "tomllib", "textual", "httpx",
                  "workbench.providers", "workbench.tui", "pypdf", "PIL", "workbench.pdf.textlayer",
                  "workbench.core.pool", "multiprocessing", "concurrent.futures.process", "socket", "numpy")
    assert _loaded("grade", str(case), "--answer", key, "--explain", heavy=not_needed) == (0, [])
