"""Searching a PDF for a needle (workbench/checks/search.py): every place it is drawn or hidden on
every page, and the pages of each extractor's text layer that hold it."""

from __future__ import annotations

import pytest

from tests.support import pdfs_forensics as F
from tests.support.fixtures import reportlab_pages
from workbench.checks.search import (
    find_evidence,
    find_evidence_of,
    find_in_layers,
    find_in_layers_of,
)


@pytest.fixture(scope="module")
def three_pages(tmp_path_factory) -> bytes:
    """Three pages "Page N of the report: revenue grew N.5 percent"; page 2 also hides a line."""
    return reportlab_pages(tmp_path_factory.mktemp("search") / "r.pdf", 3, hidden_on=2).read_bytes()


def test_every_page_a_needle_is_on_visible_or_hidden(three_pages):
    hits = find_evidence(three_pages, "of the report")
    assert [(h.page, h.visible, h.text) for h in hits] == [(p, True, "of the report") for p in range(3)]
    (hidden,) = find_evidence(three_pages, "secret instruction")
    assert (hidden.page, hidden.visible, hidden.text) == (1, False, "SECRET INSTRUCTION")
    assert hidden.reasons == ["no-contrast"] and len(hidden.boxes) == 1
    assert find_evidence(three_pages, "2.5 percent")[0].page == 1


def test_an_empty_needle_or_one_printed_nowhere_has_no_hit(three_pages):
    assert find_evidence(three_pages, "") == [] and find_evidence(three_pages, "  \n") == []
    assert find_evidence(three_pages, "dividend") == []


def test_many_needles_at_once_find_what_each_finds_alone(three_pages):
    """`find_evidence_of` (attribution's look-up of an answer's values, page by page) gives each
    needle the hits `find_evidence` gives it: amounts, percentages, words, hidden text; a needle
    twice is one entry, an empty one or one printed nowhere has none."""
    needles = ["of the report", "secret instruction", "2.5 percent", "3.5%", "Page 3", "", "dividend",
               "of the report"]
    many = find_evidence_of(three_pages, needles)
    assert list(many) == list(dict.fromkeys(needles))
    for needle in needles:
        assert [h.to_json() for h in many[needle]] == [h.to_json() for h in find_evidence(three_pages, needle)]
    assert many["secret instruction"] and many["Page 3"] and many[""] == many["dividend"] == []
    layers = find_in_layers_of(three_pages, needles)
    assert layers == {needle: find_in_layers(three_pages, needle) for needle in needles}
    assert layers["Page 3"] == {"pypdf": [2], "pymupdf": [2]} and layers["dividend"] == {"pypdf": [], "pymupdf": []}


def test_the_text_layers_that_hold_a_needle_page_by_page(three_pages):
    assert find_in_layers(three_pages, "SECRET instruction") == {"pypdf": [1], "pymupdf": [1]}
    assert find_in_layers(three_pages, "revenue grew") == {"pypdf": [0, 1, 2], "pymupdf": [0, 1, 2]}
    assert find_in_layers(three_pages, "dividend") == {"pypdf": [], "pymupdf": []}


def test_a_finder_of_its_own_decides_what_matches():
    from workbench.text.search import Part

    def whole_word_hide(text: str, needle: str) -> list[Part]:
        at = text.find("HIDE")
        return [Part(needle, True, text[at:at + 4], (at, at + 4))] if at >= 0 else []

    (hit,) = find_evidence(F.render_mode(), "anything", find=whole_word_hide)
    assert hit.text == "HIDE" and not hit.visible and hit.reasons == ["invisible-render-mode"]
    assert find_in_layers(F.render_mode(), "anything", find=whole_word_hide) == {"pypdf": [0], "pymupdf": [0]}


def test_a_page_printing_an_amount_thousands_of_times_has_a_hit_for_each():
    """A page from elsewhere may print one value 18,000 times (pymupdf writing directly, 4 pt):
    each is one hit, in reading order, boxes apart (each place was compared with every one found
    before it: 32 s for this page, now a bisection each)."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=2000, height=3000)
    for i in range(300):
        page.insert_text((10, 10 + i * 9.5), "$5.00 " * 60, fontsize=4)
    hits = find_evidence(doc.tobytes(), "5.00 USD")
    assert len(hits) == 18_000 and all(h.visible and h.text == "$5.00" for h in hits)
    tops = [round(h.boxes[0][1]) for h in hits]
    assert tops == sorted(tops) and len({tuple(h.boxes[0]) for h in hits}) == 18_000
