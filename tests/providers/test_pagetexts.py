"""Each page's text as an extractor reads it (providers/pagetexts.py): the registry's libraries
called as their documentation does, on real PDFs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.fixtures import SAMPLE, SAMPLE_PDF
from workbench.core.errors import UserError
from workbench.providers import extractors, pagetexts


def _installed_or_skip(name: str) -> str:
    found = extractors.version(name)
    if found is None:
        pytest.skip(extractors.missing(name))
    return found


def test_extractors_in_many_threads_leave_stdout_as_it_was():
    """A run reads probes in threads; an extractor must not swap sys.stdout for the process (it
    was left a StringIO, and every later line of the command went into it)."""
    import sys
    from concurrent.futures import ThreadPoolExecutor

    from workbench.providers.pagetexts import page_texts

    before = sys.stdout
    pdf = SAMPLE_PDF.read_bytes()
    with ThreadPoolExecutor(8) as pool:
        texts = list(pool.map(lambda _: page_texts("pypdf", pdf), range(64)))
    assert sys.stdout is before
    assert len({tuple(t) for t in texts}) == 1


@pytest.mark.slow
def test_a_pymupdf4llm_probe_leaves_mupdf_errors_shown_for_every_later_pdf():
    """Importing pymupdf4llm turns MuPDF's error messages off for the process; after one
    pymupdf4llm probe, a damaged PDF opened later lost its "MuPDF error" line (and a test that
    checks it failed whenever a pymupdf4llm test ran first in the same worker)."""
    _installed_or_skip("pymupdf4llm")
    script = (
        "import logging, sys\n"
        "from tests.support.hostile_corpus import bad_ascii85_pdf\n"
        "from workbench.providers.pagetexts import page_texts\n"
        "from workbench.pdf.pages import PdfPages\n"
        "said = []\n"
        "class Keep(logging.Handler):\n"
        "    def emit(self, record): said.append(record.getMessage())\n"
        "page_texts('pymupdf4llm', open(sys.argv[1], 'rb').read())\n"
        "logging.getLogger('pymupdf').addHandler(Keep())\n"
        "PdfPages(bad_ascii85_pdf(), 'a85.pdf').page(0, layers=False)\n"
        "print(any('a85d' in m for m in said))\n"
    )
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-c", script, str(SAMPLE_PDF)], cwd=root,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip().splitlines()[-1] == "True", proc.stdout


@pytest.mark.slow   # imports pymupdf4llm and runs its OCR plugin (onnxruntime) on a page: 4-7 s on 2 cores, 21 s under load 12
def test_a_pymupdf4llm_probe_on_a_page_its_ocr_finds_no_text_on_says_nothing_on_stderr(capfd):
    """pymupdf4llm's OCR plugin leaves RapidOCR's warnings to Python's last-resort handler: 'The
    text detection result is empty' came bare on stderr in the middle of exposure's output."""
    _installed_or_skip("pymupdf4llm")
    pdf = (SAMPLE / "hidden_ocr_mismatch-0002.pdf").read_bytes()
    capfd.readouterr()
    assert pagetexts.page_texts("pymupdf4llm", pdf)
    assert capfd.readouterr().err == ""


def test_pypdf_and_pymupdf_read_the_hidden_total_page_by_page():
    pdf = SAMPLE_PDF.read_bytes()
    for name in ("pypdf", "pymupdf"):
        (page,) = pagetexts.page_texts(name, pdf)
        assert "TOTAL DUE" in page and "53,919.68" in page   # the hidden layer's total, not the printed one
        assert pagetexts.page_text(name, pdf, 1) == page


def test_a_page_past_the_end_and_a_pdf_no_library_reads_are_one_line():
    with pytest.raises(UserError, match=r"^page 2: pymupdf read 1 page\(s\)$"):
        pagetexts.page_text("pymupdf", SAMPLE_PDF.read_bytes(), 2)
    with pytest.raises(UserError, match="^unknown extractor 'nosuch'"):
        pagetexts.page_texts("nosuch", b"")
    for name in ("pypdf", "pymupdf"):   # the PDF is opened within its budgets first: one line, no traceback
        with pytest.raises(UserError, match=r"^PDF: broken PDF \(.*\); regenerate it or check the file$"):
            pagetexts.page_texts(name, b"%PDF-1.7\nnot a PDF\n")
    if extractors.version("markitdown"):   # its own message is several lines: said in one
        with pytest.raises(UserError) as said:
            pagetexts.page_texts("markitdown", b"")
        assert str(said.value).startswith("markitdown cannot read this PDF") and "\n" not in str(said.value)


def test_form_feeds_split_pages_and_a_trailing_empty_page_is_no_page():
    assert pagetexts._split_pages("one\ftwo\f") == ["one", "two"]
    assert pagetexts._split_pages("one\f\fthree") == ["one", "", "three"]


@pytest.mark.slow
def test_a_page_over_the_work_budget_is_a_blank_page_to_every_extractor():
    """pdfminer, pdfplumber and the rest read a document whole with no budget of their own: an
    XObject fan-out page (10^10 form draws in 4 KB) kept pdfminer and pdfplumber drawing for hours
    (killed at 90 s), and a page of two million operators took them 20 s and 385 MB. Each is now
    given the document with such pages emptied in their places, as pypdf and pymupdf read them:
    the hostile page reads blank, the next page as it is. (In a child process with a deadline, so
    that the old hang fails the test rather than holding the run.)"""
    names = [n for n in ("pdfplumber", "pdfminer", "pypdfium2", "tesseract") if extractors.version(n)]
    if not names:
        pytest.skip("none of pdfplumber, pdfminer, pypdfium2, tesseract is installed")
    script = (
        "import json, sys\n"
        "from tests.support.hostile_corpus import many_operators_pdf, xobject_fan_out_pdf\n"
        "from workbench.providers.pagetexts import page_texts\n"
        "print(json.dumps({f'{n} {p.__name__}': page_texts(n, p()) for n in sys.argv[1:]\n"
        "                  for p in (xobject_fan_out_pdf, many_operators_pdf)}))\n"
    )
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-c", script, *names], cwd=root, capture_output=True, text=True,
                          timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    import json

    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(got) == 2 * len(names)
    for what, pages in got.items():
        assert len(pages) == 2 and pages[0].strip() == "" and "Total: $1.00" in pages[1], (what, pages)


def test_an_extractor_is_given_the_document_itself_when_no_page_is_over_the_budget():
    """The emptied copy is made only for a document with a page over the budget: every other one
    reaches the extractor byte for byte (its own reading of it is what is measured)."""
    from tests.support.hostile_corpus import plain_pdf, xobject_fan_out_pdf
    from workbench.pdf.textlayer import too_complex_pages, within_budget

    plain = plain_pdf()
    assert within_budget(plain) is plain
    hostile = xobject_fan_out_pdf()
    emptied = within_budget(hostile)
    assert too_complex_pages(hostile) == {0} and too_complex_pages(emptied) == set()
    assert len(emptied) < len(hostile)      # the forms no page draws now are left out
    assert within_budget(b"not a pdf") == b"not a pdf"   # the library's own reading says why
