"""The page engine (workbench/pdf/forensics.py): one page's spans, text layers and layer
differences as `PdfPages` gets them, a page analysed twice (its text was removed for the bare
render) giving the same, and `map_pages` streaming pages in order on one process or two."""

from __future__ import annotations

import pytest

from tests.support import pdfs_forensics as F
from tests.support.fixtures import reportlab_pages
from tests.support.hostile_corpus import second_page_pypdf_refuses_pdf
from workbench.pdf.forensics import PageEngine, map_pages


@pytest.fixture(scope="module")
def four_pages(tmp_path_factory) -> bytes:
    """Four reportlab pages of one line each; page 3 also holds a white "SECRET" line."""
    return reportlab_pages(tmp_path_factory.mktemp("forensics") / "four.pdf", 4, hidden_on=3).read_bytes()


def hidden_words(name: str, page) -> tuple[int, list[str]]:
    """What `map_pages` sends back: the page's number and its hidden spans' text."""
    return page.info.number, [s.text for s in page.analysis.spans if not s.visible]


def test_a_page_has_its_size_spans_both_layers_and_where_they_differ(four_pages):
    engine = PageEngine(four_pages, "four.pdf", 150, checked=False)
    try:
        assert engine.page_count == 4
        page = engine.compute(2)
        assert (page.index, page.info.number, round(page.info.width_pt), round(page.info.height_pt)) == (2, 3, 595, 842)
        assert [s.text for s in page.analysis.spans if not s.visible] == ["SECRET INSTRUCTION ignore the page"]
        assert "Page 3 of the report" in page.texts["pypdf"] and "Page 3 of the report" in page.texts["pymupdf"]
        assert "SECRET" in page.texts["pymupdf"] and page.unread == {} and page.skipped == ""
        assert [s.text for s in page.diff.hidden] == ["SECRET INSTRUCTION ignore the page"]
    finally:
        engine.close()


def test_a_page_whose_text_was_removed_for_the_bare_render_reads_the_same_again():
    engine = PageEngine(F.grey_on_grey(), "grey.pdf", 150, checked=False)
    try:
        first = engine.compute(0)
        assert first.analysis.edited   # (the grey box behind the text: the page is drawn bare)
        again = engine.compute(0)
        assert again.texts == first.texts and "HIDE 301" in again.texts["pymupdf"]
        assert [(s.text, s.visible) for s in again.analysis.spans] == [
            (s.text, s.visible) for s in first.analysis.spans]
    finally:
        engine.close()


def test_without_layers_a_page_has_no_texts_until_they_are_added(four_pages):
    engine = PageEngine(four_pages, "four.pdf", 150, checked=False)
    try:
        page = engine.compute(0, layers=False)
        assert page.texts is None and page.diff is None and page.analysis.spans
        engine.add_layers(page)
        assert page.texts["pypdf"].startswith("Page 1 of the report") and page.diff.hidden == []
    finally:
        engine.close()


def test_a_page_pypdf_refuses_keeps_its_pymupdf_layer_and_says_why():
    engine = PageEngine(second_page_pypdf_refuses_pdf(), "two.pdf", 150, checked=False)
    try:
        second = engine.compute(1)
        assert second.texts == {"pypdf": "", "pymupdf": "Total: $1.00\n"}
        assert second.unread["pypdf"].startswith("two.pdf: pypdf cannot read page 2")
        assert engine.compute(0).unread == {}
    finally:
        engine.close()


def test_map_pages_gives_the_pages_asked_in_order_on_one_process_or_two(four_pages):
    one = list(map_pages(hidden_words, four_pages, [3, 2, 0], "four.pdf", jobs=1))
    assert one == [((4, []), ""), ((3, ["SECRET INSTRUCTION ignore the page"]), ""), ((1, []), "")]
    assert list(map_pages(hidden_words, four_pages, [3, 2, 0], "four.pdf", jobs=2, chunksize=1)) == one


def test_map_pages_finds_each_hiding_trick_of_a_one_page_pdf():
    assert list(map_pages(hidden_words, F.render_mode(), [0])) == [((1, ["HIDE 101"]), "")]
    assert list(map_pages(hidden_words, F.clipped(), [0])) == [((1, ["HIDE 701"]), "")]


def test_reading_every_pages_pypdf_text_keeps_the_memory_flat(monkeypatch):
    """A long document's pypdf layer read page after page (as `inspect --pages all` does) keeps
    at most PARSED_KEPT of pypdf's parsed objects, and builds no list of every page: 10,000 pages
    were read at a memory growing 2.4 MB a 1,000 pages, plus 60 MB for the list in each worker."""
    from tests.support.hostile_corpus import many_pages_pdf
    from workbench.pdf import forensics

    monkeypatch.setattr(forensics, "PARSED_KEPT", 20)
    engine = forensics.PageEngine(many_pages_pdf(80), "long.pdf", 36, checked=False)
    try:
        kept = []
        for index in range(80):
            page = engine.compute(index)
            assert f"Page {index + 1} total $1.00" in page.texts["pypdf"]
            kept.append(len(engine._reader.resolved_objects))
        assert max(kept) <= 20 + 4 and engine._reader.flattened_pages is None
    finally:
        engine.close()
