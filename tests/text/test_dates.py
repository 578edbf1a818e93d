"""Dates in free text, as the grader compares a key that is a date (workbench/text/dates.py)."""

from __future__ import annotations

import pymupdf
import pytest

from workbench.checks.search import find_evidence
from workbench.text.dates import find_dates, parse_date


@pytest.mark.parametrize("text, days", [
    ("2025-03-12", {"2025-03-12"}), ("12 March 2025", {"2025-03-12"}), ("March 12th, 2025", {"2025-03-12"}),
    ("Wednesday, 12. März 2025", {"2025-03-12"}), ("12 de marzo de 2025", {"2025-03-12"}),
    ("the 12th of March, 2025", {"2025-03-12"}), ("12-Mar-25", {"2025-03-12"}), ("Sept. 8, 2025", {"2025-09-08"}),
    # numbers alone: the US reading and the other, where both are months
    ("03/12/2025", {"2025-03-12", "2025-12-03"}), ("25/12/2025", {"2025-12-25"}), ("12.03.2025", {"2025-03-12", "2025-12-03"}),
])
def test_a_date_is_the_days_it_may_mean(text, days):
    assert parse_date(text) == days
    line = f"Dated {text}; paid."
    (found,) = find_dates(line)
    # (a weekday or "the" before the date is not part of it)
    assert found[0] == days and line[found[1]:found[2]] == text.removeprefix("Wednesday, ").removeprefix("the ")


@pytest.mark.parametrize("text", ["March 2025", "2025", "31 February 2025", "INV-357946", "12 foo 2025", "Acme", "1.2.3",
                                  "28-11-58", "12-03-2025 x"])
def test_what_is_not_one_date_is_none(text):
    assert parse_date(text) is None


def test_a_date_inside_an_identifier_or_a_version_is_not_read_as_one():
    assert find_dates("INV-12/03/2025 and v2.12.03.2025") == []


def test_a_key_that_is_a_date_is_found_on_a_page_that_prints_it_otherwise():
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Invoice date: 8 September 2025   Due: 08/10/2025", fontname="helv")
    data = doc.tobytes()
    assert [h.text for h in find_evidence(data, "2025-09-08")] == ["8 September 2025"]
    assert [h.text for h in find_evidence(data, "October 8, 2025")] == ["08/10/2025"]
    assert find_evidence(data, "2025-09-09") == []


def test_a_key_that_may_mean_two_days_is_found_only_where_the_writing_leaves_both_open():
    from workbench.text.dates import same_day

    us = parse_date("03/12/2025")
    assert same_day(us, parse_date("3.12.2025")) and not same_day(us, parse_date("12 March 2025"))
    assert same_day(parse_date("2025-03-12"), parse_date("03/12/2025"))   # one day: any writing of it
