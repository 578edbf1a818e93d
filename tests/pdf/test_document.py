"""A damaged PDF that still opens (a content stream zlib rejects part-way, a page tree that counts
wrong): the commands read what they can, and the PDF library's complaints go to stderr, never into
the data on stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.hostile_corpus import (
    bad_ascii85_pdf,
    damaged_stream_pdf,
    miscounted_pages_pdf,
    second_page_pypdf_refuses_pdf,
)

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PDFWORKBENCH_CONFIG_DIR": str(cwd / "config")}
    return subprocess.run([sys.executable, "-m", "workbench", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


def test_inspect_json_of_a_damaged_pdf_is_json_and_mupdf_complains_on_stderr(tmp_path):
    pdf = tmp_path / "damaged.pdf"
    pdf.write_bytes(damaged_stream_pdf())
    proc = _run("inspect", str(pdf), "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)  # MuPDF's "MuPDF error: ..." lines used to sit in the middle
    assert report["page_count"] == 2
    assert "Total: $1.00" in report["pages"][1]["text"]["pymupdf"]
    assert "MuPDF error" not in proc.stdout
    complaints = [line for line in proc.stderr.splitlines() if "zlib error" in line and "pymupdf" in line]
    assert len(complaints) == 1, proc.stderr  # once, with a count, however often MuPDF said it


def test_lint_of_a_damaged_pdf_keeps_stdout_for_its_findings(tmp_path):
    pdf = tmp_path / "damaged.pdf"
    pdf.write_bytes(damaged_stream_pdf())
    proc = _run("lint", str(pdf), "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [] and "MuPDF" in proc.stderr


def test_mupdf_naming_a_raw_byte_is_logged_as_text_any_handler_can_write(caplog):
    """MuPDF's "bad data in a85d: '<byte>'" reached the logger as a lone surrogate, which a UTF-8
    log file, pipe or test runner cannot write (pytest-xdist crashed on it)."""
    from workbench.pdf.pages import PdfPages

    caplog.set_level("WARNING", logger="pymupdf")
    pages = PdfPages(bad_ascii85_pdf(), "a85.pdf")
    pages.page(0, layers=False)  # pymupdf only (pypdf refuses the stream in one line)
    said = [r.getMessage() for r in caplog.records if r.name == "pymupdf"]
    assert any("a85d" in m and "\\xe4" in m for m in said), said
    for message in said:
        message.encode("utf-8")  # no lone surrogate left


def test_a_page_pypdf_refuses_is_still_inspected_with_its_pypdf_layer_marked_unread():
    """pypdf refusing one page's stream used to stop that page's analysis whole: the workbench
    showed no page, though MuPDF draws it and reads its text."""
    from workbench.checks.inspect import page_report
    from workbench.pdf.pages import PdfPages

    with PdfPages(second_page_pypdf_refuses_pdf(), "two.pdf") as pages:
        first, second = pages.page(0), pages.page(1)
        assert first.unread == {} and first.texts["pypdf"] == "Invoice 42 for ACME"
        assert second.texts == {"pypdf": "", "pymupdf": "Total: $1.00\n"}
        assert second.unread == {"pypdf": "two.pdf: pypdf cannot read page 2 (Non-Ascii85 digit found: ä)"}
        assert [s.text for s in second.analysis.spans if s.visible] == ["Total: $1.00"]
        report = page_report(second)
        assert report["unread"] == second.unread and report["text"]["pymupdf"] == "Total: $1.00\n"
        assert "unread" not in page_report(first)


@pytest.mark.slow
def test_inspect_prints_every_page_when_pypdf_refuses_one_and_says_so_on_stderr(tmp_path):
    pdf = tmp_path / "two.pdf"
    pdf.write_bytes(second_page_pypdf_refuses_pdf())
    for jobs in ("1", "2"):
        proc = _run("inspect", str(pdf), "--json", "--jobs", jobs, cwd=tmp_path)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        report = json.loads(proc.stdout)  # whole: both pages and the file's structure
        assert [p["number"] for p in report["pages"]] == [1, 2] and "structure" in report
        assert "unread" not in report["pages"][0]
        assert report["pages"][1]["unread"]["pypdf"].endswith("pypdf cannot read page 2 (Non-Ascii85 digit found: ä)")
        assert report["pages"][1]["text"] == {"pypdf": "", "pymupdf": "Total: $1.00\n"}
        said = [line for line in proc.stderr.splitlines() if "two.pdf" in line]
        assert said[0].endswith("pypdf cannot read page 2 (Non-Ascii85 digit found: ä); its pypdf layer is left empty")
        assert "1 page layer(s) could not be read" in said[1], proc.stderr
    proc = _run("inspect", str(pdf), cwd=tmp_path)
    assert proc.returncode == 1
    page_two = proc.stdout.split("=== page 2")[1]
    assert "(not read: " in page_two and "Total: $1.00" in page_two
    assert "Invoice 42 for ACME" in proc.stdout.split("=== page 2")[0]


def test_a_page_tree_that_counts_wrong_is_read_as_the_pages_it_holds(tmp_path):
    """/Count says 10 over 3 pages: every page is read by both extractors, the page after the last
    is refused as for any PDF, and stderr says once what was counted."""
    pdf = tmp_path / "miscounted.pdf"
    pdf.write_bytes(miscounted_pages_pdf())
    proc = _run("inspect", str(pdf), "--json", "--jobs", "2", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["page_count"] == 3 and len(report["pages"]) == 3
    assert [p["text"]["pymupdf"].strip() for p in report["pages"]] == ["Page one", "Page two", "Total: $1.00"]
    assert [p["text"]["pypdf"].strip() for p in report["pages"]] == ["Page one", "Page two", "Total: $1.00"]
    said = [line for line in proc.stderr.splitlines() if "page tree says 10 pages but holds 3" in line]
    assert len(said) == 1 and said[0].startswith("pdfworkbench: warning: "), proc.stderr
    proc = _run("lint", str(pdf), "--pages", "4", cwd=tmp_path)
    assert proc.returncode == 2 and "the PDF has 3 page(s)" in proc.stderr, proc.stderr


def test_a_miscounted_tree_opened_again_unwalked_counts_the_same():
    """A later opening of the same bytes (`checked`: the tree is not walked again) gets the counts
    the first one found; other bytes are not touched."""
    from workbench.pdf.document import open_fitz

    data = miscounted_pages_pdf()
    first = open_fitz(data, "miscounted.pdf")
    again = open_fitz(data, "miscounted.pdf", checked=True)
    assert first.page_count == again.page_count == 3
    assert "Total: $1.00" in again[2].get_text()
    first.close()
    again.close()


def test_quiet_opens_in_many_threads_leave_mupdf_errors_shown():
    """Opening earlier revisions quietly turns MuPDF's error display off and back on; two threads
    doing it at once left it off for the process (the second saved the first one's "off")."""
    from concurrent.futures import ThreadPoolExecutor

    from workbench.pdf.document import mupdf
    from workbench.pdf.revisions import _quiet_open

    tools = mupdf().TOOLS
    assert tools.mupdf_display_errors()
    data = bad_ascii85_pdf()
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda _: _quiet_open(data), range(400)))
    assert tools.mupdf_display_errors()


def test_opens_in_many_threads_leave_mupdf_errors_shown():
    """pymupdf's own constructor saves, clears and restores the error switch in a global: plain
    opens in several threads (probes, page workers) left MuPDF's errors off for the process."""
    from concurrent.futures import ThreadPoolExecutor

    from workbench.pdf.document import mupdf

    pymupdf = mupdf()
    assert pymupdf.TOOLS.mupdf_display_errors()
    data = bad_ascii85_pdf()
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda _: pymupdf.open(stream=data, filetype="pdf").close(), range(800)))
    assert pymupdf.TOOLS.mupdf_display_errors()
