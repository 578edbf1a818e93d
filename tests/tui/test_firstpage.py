"""What the workbench opens, read by a second process while it starts, and the first page drawn
there (`workbench.tui.firstpage`): the suite and the page on screen are the ones the workbench reads
and draws itself, for our files and others'; a child that dies, a file that changes after the child
read it, or a page too large to copy, and the workbench does the work itself; `open` on a broken or
locked PDF or a path with no suite still stops with one line.

Each check runs `tests/support/firstpage_probe.py` in a fresh interpreter: `fork` is safe only in a
process with one thread, which this pytest process is not once the workbench has run in it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.fixtures import reportlab_pages
from tests.support.hostile_corpus import USER_PASSWORD, cyclic_pages_pdf, encrypted_pdf

ROOT = Path(__file__).resolve().parents[2]
PROBE = ROOT / "tests" / "support" / "firstpage_probe.py"
SAMPLE = ROOT / "sample_cases" / "mini"


def probe(path: Path, *flags: str, tmp_path: Path) -> dict:
    env = dict(os.environ, PDFWORKBENCH_CONFIG_DIR=str(tmp_path / "config"))
    proc = subprocess.run([sys.executable, str(PROBE), str(path), *flags], capture_output=True, text=True,
                          env=env, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def pymupdf_pdf(path: Path) -> Path:
    """A landscape page written by pymupdf directly, words placed one by one (no space glyphs)."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=792, height=612)
    x = 72
    for word in "Invoice total due 1,234.56 USD".split():
        page.insert_text((x, 100), word, fontsize=14)
        x += 14 * 0.6 * len(word) + 6
    page.draw_rect(pymupdf.Rect(72, 200, 400, 260), color=(0, 0, 0), fill=(0.2, 0.4, 0.8))
    doc.save(path)
    return path


@pytest.fixture
def inputs(tmp_path) -> dict[str, Path]:
    suite = tmp_path / "suite"
    shutil.copytree(SAMPLE, suite)
    return {
        "the sample suite": suite,
        "a reportlab PDF": reportlab_pages(tmp_path / "report.pdf", 3, hidden_on=1),
        "a pymupdf landscape page": pymupdf_pdf(tmp_path / "landscape.pdf"),
    }


@pytest.mark.slow
@pytest.mark.parametrize("what", ["the sample suite", "a reportlab PDF", "a pymupdf landscape page"])
def test_the_page_drawn_ahead_is_the_page_the_workbench_draws(inputs, what, tmp_path):
    ahead = probe(inputs[what], tmp_path=tmp_path)
    assert ahead["started"] and ahead["used"]  # the child's picture is what went on screen
    alone = probe(inputs[what], "--no-ahead", tmp_path=tmp_path)
    assert not alone["used"]
    assert ahead["lines"] == alone["lines"] and len(ahead["lines"]) > 10
    assert ahead["page_count"] == alone["page_count"]
    assert ahead["source"] == alone["source"]  # the suite the child read is the one read here


@pytest.mark.slow
@pytest.mark.parametrize("what", ["the sample suite", "a pymupdf landscape page"])
def test_the_page_drawn_ahead_is_in_the_frame_after_the_case_list(inputs, what, tmp_path):
    """Once the child has checked the PDF, the page is in the screen's second frame: the first
    shows the case list (no imaging loaded for it), the next the page, before the side panes'
    modules load. Without the child, the page is read and drawn here: a later frame."""
    ahead = probe(inputs[what], "--settled", tmp_path=tmp_path)
    assert ahead["used"] and ahead["page_in_frame"] == 2
    assert probe(inputs[what], "--no-ahead", tmp_path=tmp_path)["page_in_frame"] > 2


@pytest.mark.slow
def test_a_child_killed_or_a_file_changed_and_the_workbench_draws_the_page_itself(inputs, tmp_path):
    pdf = inputs["a reportlab PDF"]
    alone = probe(pdf, "--no-ahead", tmp_path=tmp_path)
    killed = probe(pdf, "--kill", tmp_path=tmp_path)
    assert killed["started"] and not killed["used"] and killed["lines"] == alone["lines"]
    changed = probe(pdf, "--touch", tmp_path=tmp_path)  # bytes added after the child's check
    assert changed["started"] and not changed["used"] and changed["lines"] == alone["lines"]


@pytest.mark.slow   # a huge page drawn in a forked child: 29 s at load 13
def test_a_huge_first_page_is_not_copied_through_the_pipe(tmp_path):
    from reportlab.pdfgen import canvas

    path = tmp_path / "poster.pdf"
    c = canvas.Canvas(str(path), pagesize=(200 * 72, 200 * 72), invariant=1)
    c.setFont("Helvetica", 400)
    c.drawString(720, 7200, "POSTER")
    c.showPage()
    c.save()
    ahead = probe(path, tmp_path=tmp_path)
    assert ahead["started"] and not ahead["used"]
    assert ahead["lines"] == probe(path, "--no-ahead", tmp_path=tmp_path)["lines"]


def test_open_of_a_broken_or_locked_pdf_or_no_suite_is_one_line_before_the_screen(tmp_path):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(cyclic_pages_pdf())
    locked = tmp_path / "locked.pdf"
    locked.write_bytes(encrypted_pdf(USER_PASSWORD))
    (tmp_path / "empty").mkdir()
    (tmp_path / "own-config").mkdir()   # the TUI tests' config folder holds their config.json
    env = dict(os.environ, PDFWORKBENCH_CONFIG_DIR=str(tmp_path / "own-config"))
    for args, says in (([broken], "broken PDF (code=7: cycle in page tree)"),
                       ([locked, "--password", "wrong"], "does not open it"),
                       ([tmp_path / "nowhere"], "no such file or folder"),
                       ([tmp_path / "empty"], "no cases found")):
        proc = subprocess.run([sys.executable, "-m", "workbench", "open", *map(str, args)], capture_output=True,
                              text=True, env=env, timeout=60, stdin=subprocess.DEVNULL)
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2 and len(lines) == 1 and says in lines[0], proc.stderr
        assert "Traceback" not in proc.stderr and proc.stdout == ""
