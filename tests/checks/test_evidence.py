"""Evidence search: money written many ways, line breaks, hyphenation, hidden hits, layer search."""

from __future__ import annotations

import pytest

from tests.support import pdfs_forensics as F
from workbench.checks.search import find_evidence, find_in_layers
from workbench.text.search import find_all


@pytest.fixture(scope="module")
def money_pdf() -> bytes:
    return F.money_and_breaks()


@pytest.mark.parametrize("needle", ["$1,234.56", "1234.56", "USD 1,234.56", "1,234.56 USD", "$1234.56"])
def test_money_is_found_however_it_is_written(money_pdf, needle):
    hits = find_evidence(money_pdf, needle)
    assert [h.text for h in hits] == ["USD 1,234.56"]
    assert hits[0].visible and hits[0].page == 0


@pytest.mark.parametrize("needle", ["€1,234.56", "234.56", "1,234.5", "-1,234.56", "$1,234.57"])
def test_money_does_not_match_another_amount_or_currency(money_pdf, needle):
    assert find_evidence(money_pdf, needle) == []


def test_an_amount_split_into_two_runs_is_one_hit_with_two_boxes(money_pdf):
    (hit,) = find_evidence(money_pdf, "$99,051.90")
    assert hit.visible and hit.text == "$99,051.90" and len(hit.boxes) == 2


def test_line_breaks_hyphenation_and_extra_spaces(money_pdf):
    (hit,) = find_evidence(money_pdf, "indemnification obligations")
    assert hit.visible and len(hit.boxes) == 2
    assert hit.boxes[1][1] > hit.boxes[0][1]  # the second box is on the next line
    assert [h.text for h in find_evidence(money_pdf, "reference number a-77")] == [
        "Reference     number   A-77"]
    assert find_evidence(money_pdf, "total")[0].text == "total"
    # The grader's `contains` finds a substring, so evidence does too (keywords_all: whole words).
    assert [h.text for h in find_evidence(money_pdf, "otal")] == ["otal", "otal"]  # and Subtotal
    whole = find_evidence(money_pdf, "otal", find=lambda t, n: find_all(t, n, whole_word=True))
    assert whole == []


def test_hidden_hits_say_so_and_why(money_pdf):
    (hit,) = find_evidence(money_pdf, "7777")
    assert not hit.visible and hit.reasons == ["no-contrast"] and hit.text == "$7,777.00"
    assert find_in_layers(money_pdf, "$7,777.00") == {"pypdf": [0], "pymupdf": [0]}


def test_boxes_are_in_points_around_the_text(money_pdf):
    (hit,) = find_evidence(money_pdf, "41,234.56")
    x0, y0, x1, y1 = hit.boxes[0]
    assert 100 < x0 < x1 < 200 and 792 - 546 - 11 < y0 < y1 < 792 - 546 + 4


def test_look_alikes_are_found_by_the_eye_but_not_by_the_layer():
    if not F.DEJAVU.exists():
        pytest.skip("DejaVu Sans is not installed")
    data = F.zero_width_and_confusable()
    (hit,) = find_evidence(data, "12,345.67")
    assert hit.visible and not hit.exact and "\u200b" in hit.text
    # A reader that copies the layer's zero-width space still passes the grader: found in the layer.
    assert find_in_layers(data, "12,345.67") == {"pypdf": [0], "pymupdf": [0]}
    (hit,) = find_evidence(data, "TOTAL DUE 999.10")
    assert not hit.exact
    assert find_in_layers(data, "TOTAL DUE 999.11") == {"pypdf": [0], "pymupdf": [0]}
    assert find_evidence(data, "Итого 500")[0].exact


def test_the_graders_money_matching_on_plain_text():
    text = "Refund -$5.00, fee $5.00 and INV-5; total EUR 1.234,50"
    assert len(find_all(text, "-$5.00")) == 1
    assert len(find_all(text, "$5.00")) == 1
    assert find_all(text, "€1,234.50")               # a European decimal comma
    assert not find_all(text, "$1,234.50")           # but not in dollars
