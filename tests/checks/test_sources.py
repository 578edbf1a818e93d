"""The sources attribution tells apart (workbench/checks/sources.py): one value's attribution as a
report row holds it and back, and the source a wrong answer counts under."""

from __future__ import annotations

from workbench.checks.sources import PRINTED_ODDLY, SOURCES, Attribution, wrong_answer_source


def at(source: str) -> Attribution:
    return Attribution("€1", source, 0, 2)


def test_an_attribution_as_a_report_row_and_back():
    a = Attribution("€13,144.73", "other_page", 12, 22, page=3, box=(72.0, 100.123, 140.5, 112.0),
                    detail="printed on page 4, asked about page 1")
    row = a.to_json()
    assert row == {"value": "€13,144.73", "source": "other_page", "page": 4,
                   "box": [72.0, 100.12, 140.5, 112.0], "detail": "printed on page 4, asked about page 1",
                   "span": [12, 22]}
    back = Attribution.from_json(row)
    assert (back.page, back.start, back.end, back.box) == (3, 12, 22, (72.0, 100.12, 140.5, 112.0))
    nowhere = Attribution.from_json({"value": "x", "source": "absent", "page": None, "box": None})
    assert (nowhere.page, nowhere.box, nowhere.start, nowhere.detail) == (None, None, 0, "")
    assert Attribution.from_json(at("absent").to_json()) == at("absent")


def test_a_wrong_answer_counts_under_its_first_value_not_visible_nor_echoed():
    assert wrong_answer_source([at("visible"), at("question"), at("hidden"), at("misread")]) == "hidden"
    assert wrong_answer_source([at("question"), at("visible")]) == "visible"
    assert wrong_answer_source([at("question")]) == "question"      # the echo alone
    assert wrong_answer_source([]) == "no-value"


def test_the_oddly_printed_sources_come_before_visible():
    assert set(PRINTED_ODDLY) <= set(SOURCES)
    assert all(SOURCES.index(s) < SOURCES.index("visible") for s in PRINTED_ODDLY)
