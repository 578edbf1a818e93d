"""The pypdf layer read ahead in a helper process (`PdfPages.read_text_ahead`, what the Author
screen does for every preview): the same text and the same errors as read in this process, on
PDFs other software wrote; the helper's own contract (`core.pool.HelperProcess`)."""

from __future__ import annotations

import logging
import os
import signal

import pytest

from tests.support.fixtures import helper_started, processes_end, reportlab_pages
from workbench.core.errors import UserError
from workbench.core.pool import HelperProcess
from workbench.pdf.pages import PdfPages
from workbench.pdf.textlayer import pypdf_page_text, warm_pypdf


def _ready(helper: HelperProcess) -> HelperProcess:
    if not helper_started(helper):
        raise AssertionError("the helper process never started")
    return helper


@pytest.fixture
def helper():
    h = _ready(HelperProcess(warm_pypdf))
    yield h
    h.close()


def pymupdf_drawn_pages(n: int) -> bytes:
    """Pages written with pymupdf directly: a grey box behind text, and grey text on it."""
    import pymupdf

    doc = pymupdf.open()
    for p in range(n):
        page = doc.new_page()
        page.draw_rect(pymupdf.Rect(60, 60, 400, 200), color=None, fill=(0.8, 0.8, 0.8))
        page.insert_text((72, 100), f"Box page {p + 1} total 1,234.56", fontsize=12)
        page.insert_text((72, 150), "hidden on grey", fontsize=12, color=(0.8, 0.8, 0.8))
    data = doc.tobytes()
    doc.close()
    return data


def _tex_like_words() -> bytes:
    """Words placed by position with no space glyphs between them, as TeX writes them."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    x = 72.0
    for word in ("Total", "due:", "$1,234.56", "by", "Friday"):
        page.insert_text((x, 100), word, fontsize=11)
        x += pymupdf.get_text_length(word, fontsize=11) + 4
    data = doc.tobytes()
    doc.close()
    return data


def _texts(data: bytes, helper: HelperProcess | None, handed: bool = True) -> list[str]:
    with PdfPages(data, "doc.pdf") as pages:
        if helper is not None:
            pages.read_text_ahead(list(range(pages.page_count)), helper)
            # (the pages were given to the helper, or not at all)
            assert len(pages._open()._text_ahead) == (pages.page_count if handed else 0)
        return [pages.page(i).texts["pypdf"] for i in range(pages.page_count)]


def test_the_layer_read_by_the_helper_is_the_layer_read_here(helper, tmp_path):
    pdfs = {
        "reportlab": reportlab_pages(tmp_path / "r.pdf", 3, hidden_on=2).read_bytes(),
        "pymupdf": pymupdf_drawn_pages(2),
        "tex-like": _tex_like_words(),
    }
    for name, data in pdfs.items():
        here = _texts(data, None)
        assert _texts(data, helper) == here, name
        assert any(t.strip() for t in here), name
    assert "SECRET INSTRUCTION" in _texts(pdfs["reportlab"], helper)[1]


def test_a_pdf_pypdf_cannot_read_says_so_the_same_way(helper):
    # A PDF pymupdf repairs and opens, whose objects pypdf cannot parse.
    data = pymupdf_drawn_pages(1)
    broken = data.replace(b"/Type /Page", b"/Type /Pag3").replace(b"/Type/Page", b"/Type/Pag3")
    try:
        want = pypdf_page_text(broken, 0, "doc.pdf")
    except UserError as exc:
        want = exc
    future = helper.submit(pypdf_page_text, broken, 0, "doc.pdf")
    if isinstance(want, UserError):
        with pytest.raises(UserError) as got:
            future.result(timeout=30)
        assert str(got.value) == str(want)
    else:
        assert future.result(timeout=30) == want
    with pytest.raises(UserError, match="pypdf cannot read this PDF"):
        helper.submit(pypdf_page_text, b"%PDF-1.4 not really", 0, "junk.pdf").result(timeout=30)


def test_a_helper_not_started_yet_or_gone_leaves_the_work_here(tmp_path):
    data = reportlab_pages(tmp_path / "r.pdf", 2).read_bytes()
    want = _texts(data, None)
    h = HelperProcess(warm_pypdf)
    try:
        if not h.ready():
            assert h.submit(pypdf_page_text, data, 0) is None
        _ready(h)
        # Its process killed between the hand-over and the result: the layer is read here.
        with PdfPages(data, "doc.pdf") as pages:
            pages.read_text_ahead([0, 1], h)
            for pid in list(h._pool._processes):
                os.kill(pid, signal.SIGKILL)
            assert [pages.page(i).texts["pypdf"] for i in range(2)] == want
        assert h.submit(pypdf_page_text, data, 0) is None  # broken: nothing more is handed over
        assert _texts(data, h, handed=False) == want
    finally:
        h.close()
    assert h.submit(pypdf_page_text, data, 0) is None  # closed


def _warn_and_answer(x: int) -> int:
    logging.getLogger("pypdf").warning("odd object %s", x)
    return x * 2


def test_the_helper_returns_results_and_logs_its_warnings_here(helper, caplog):
    with caplog.at_level(logging.WARNING):
        assert helper.submit(_warn_and_answer, 21).result(timeout=30) == 42
    assert "odd object 21" in caplog.text


def test_no_helper_when_no_process_can_start(monkeypatch):
    import workbench.core.pool as pool

    def refuse(*args, **kwargs):
        raise RuntimeError("An attempt has been made to start a new process before ... bootstrapping")

    monkeypatch.setattr(pool, "process_pool", refuse)
    assert HelperProcess.start(warm_pypdf) is None


def _mark_and_wait(path: str, seconds: float) -> None:
    from pathlib import Path
    from time import sleep

    Path(path).write_text("running")
    sleep(seconds)


def test_a_closed_helper_busy_with_a_long_item_is_ended_soon_not_when_the_item_is_done(tmp_path):
    """A screen's helper ends with the screen: an item it is still running is not waited for
    beyond `CLOSE_GRACE_S` (the process is killed), and `close` itself does not wait."""
    import time

    from workbench.core.pool import CLOSE_GRACE_S

    h = _ready(HelperProcess(warm_pypdf))
    mark = tmp_path / "running"
    h.submit(_mark_and_wait, str(mark), 300)
    deadline = time.monotonic() + 60
    while not mark.exists() and time.monotonic() < deadline:  # a file from another process: polled
        time.sleep(0.05)
    assert mark.exists(), "the helper never ran the item"
    processes = list(h._pool._processes.values())
    h.close()
    # close returned with the item still running: the wait (and the kill) is a background thread's
    assert processes and all(p.is_alive() for p in processes)
    assert processes_end(processes, CLOSE_GRACE_S + 30)  # not the 300 s the item would have taken
