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


@pytest.mark.parametrize("text, month", [
    ("March 2025", "2025-03"), ("Mar. 2025", "2025-03"), ("March, 2025", "2025-03"), ("2025-03", "2025-03"),
    ("03/2025", "2025-03"), ("9/2025", "2025-09"), ("marzo de 2025", "2025-03"), ("Oktober 2025", "2025-10"),
    ("mai 2025", "2025-05"), ("Sept. 2025", "2025-09"),
])
def test_a_month_written_alone_is_that_month(text, month):
    assert parse_date(text) == {month}
    line = f"Billing period {text}; paid."
    assert [(found, line[a:b]) for found, a, b in find_dates(line)] == [({month}, text)]


@pytest.mark.parametrize("text", ["data set 2025", "Year 2025", "2025-13", "13/2025", "INV-03/2025", "1.2345",
                                  "03/2025/7", "Mars 1850"])
def test_what_is_not_a_month(text):
    assert parse_date(text) is None and find_dates(f"x {text} y") == []


def test_a_month_key_is_found_in_any_writing_of_it_and_in_a_day_of_it_but_not_in_exact():
    from workbench.core.case import Case
    from workbench.core.matcher import MatcherSpec
    from workbench.grading import grade
    from workbench.text.search import find_all

    said = {a: [p.found for p in find_all(a, "March 2025")] for a in
            ("Mar 2025", "2025-03", "03/2025", "on 12 March 2025", "March 12, 2025", "April 2025", "03/12/2025")}
    assert said == {"Mar 2025": ["Mar 2025"], "2025-03": ["2025-03"], "03/2025": ["03/2025"],
                    "on 12 March 2025": ["12 March 2025"], "March 12, 2025": ["March 12, 2025"],
                    "April 2025": [], "03/12/2025": []}   # (the last may be the 3rd of December)
    assert find_all("March 2025", "2025-03-12") == []   # a month does not say which day
    case = Case(id="m", trap_family="f", seed=1, question="Which month?", expected_answer="March 2025",
                matcher=MatcherSpec("exact"))
    assert grade(case, "Mar. 2025").correct and not grade(case, "12 March 2025").correct


@pytest.mark.parametrize("text", ["2025", "31 February 2025", "INV-357946", "12 foo 2025", "Acme", "1.2.3",
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


def test_a_key_that_is_a_month_is_found_on_a_page_that_prints_it_otherwise():
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Statement period: March 2025   Issued: 08/04/2025", fontname="helv")
    data = doc.tobytes()
    assert [h.text for h in find_evidence(data, "03/2025")] == ["March 2025"]
    assert find_evidence(data, "April 2025") == []   # 08/04/2025 may be the 4th of August


def test_a_key_that_may_mean_two_days_is_found_only_where_the_writing_leaves_both_open():
    from workbench.text.dates import same_day

    us = parse_date("03/12/2025")
    assert same_day(us, parse_date("3.12.2025")) and not same_day(us, parse_date("12 March 2025"))
    assert same_day(parse_date("2025-03-12"), parse_date("03/12/2025"))   # one day: any writing of it
