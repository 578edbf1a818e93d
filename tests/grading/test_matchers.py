"""Verdicts from every text matcher, table-driven: what each accepts and what it rejects."""

from __future__ import annotations

import pytest

from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.extraction import ExtractionGold
from workbench.core.matcher import MatcherSpec
from workbench.core.runs import RunRecord
from workbench.grading import grade, grade_record
from workbench.text.search import find_all


def make(expected="$1,234.56", forbidden=(), tokens=(), matcher=None, gold=None) -> Case:
    return Case(id="t-1", trap_family="test", seed=1, question="q?", expected_answer=expected,
                forbidden_answers=list(forbidden), expected_tokens=list(tokens),
                matcher=None if matcher is None else MatcherSpec.parse(matcher),
                gold=None if gold is None else ExtractionGold.parse(gold))


MONEY = [
    ("$1,234.56", True),
    ("$1234.56", True),
    ("1234.56", True),
    ("USD 1,234.56", True),
    ("US$1,234.56", True),
    ("1,234.56 USD", True),
    ("The total amount due is $1,234.56.", True),
    ("  total:\n$ 1,234.56 ", True),
    ("usd1234.560", True),
    ("USD$1,234.56", True),
    ("$1,2\u200b34.56", True),                   # a zero-width space copied from a text layer
    ("$\u00a01,234.56", True),
    ("$11,234.56", False),
    ("$1,234.5", False),
    ("EUR 1,234.56", False),
    ("€1,234.56", False),
    ("1,234.56 EUR", False),
    ("-$1,234.56", False),
    ("$1,234.567", False),
    ("1.234,56", True),                          # European grouping: unambiguous
    ("1'234.56", True),                          # Swiss
    ("1\u2019234.56", True),                     # Swiss, the apostrophe curled as typeset
    ("1\u00a0234,56 $", True),                   # French, a no-break space between groups
    ("1\u202f234.56", True),                     # a narrow no-break space
    ("1 234.56", True),                          # plain spaces between groups, with decimals
    ("1 234.56 USD", True),
    ("USD 1 234.56", True),
    ("1 234 567.56", False),
    ("1 234.5", False),
    ("1 234 $", False),                          # groups with a currency and no decimals: 1234
    ("see 1 234.56", True),
    ("1.234.56", False),
    ("$21,234.56", False),
]


@pytest.mark.parametrize(("answer", "ok"), MONEY)
def test_contains_compares_money_as_money(answer, ok):
    v = grade(make(), answer)
    assert v.correct is ok, v.reason
    if ok:
        start, end = v.parts[0].span
        assert answer[start:end].strip().lower().replace(" ", "").startswith(("$", "1", "usd", "us$"))


@pytest.mark.parametrize(("answer", "ok"), [
    ("13 537,01 €", True), ("Le total est de 13 537,01 EUR.", True), ("€ 13 537,01", True),
    ("EUR 13 537,01", True), ("13\u202f537,01 €", True), ("13 537,01 $", False), ("13 537,10 €", False),
])
def test_an_amount_typed_with_plain_spaces_between_its_groups_is_that_amount(answer, ok):
    # French and SI amounts as people (and models) type them: a plain space, not a no-break one
    v = grade(make("€13,537.01", forbidden=["€13,537.10"]), answer)
    assert v.correct is ok, v.reason
    if ok:
        start, end = v.parts[0].span
        assert v.parts[0].found == answer[start:end]   # the answer's own characters, as typed
        assert "13" in v.parts[0].found and "\u00a0" not in v.parts[0].found
    if answer == "13 537,10 €":
        assert v.fell_for_trap and v.forbidden[0].found == "13 537,10 €"


@pytest.mark.parametrize(("answer", "ok"), [
    ("€13,537.01", True), ("13537.01 EUR", True), ("13 537,01 €", True), ("13\u00a0537,01 €", True),
    ("13 537,10 €", False), ("$13,537.01", False),
])
def test_a_key_typed_with_plain_spaces_between_its_groups_is_that_amount(answer, ok):
    # a key as a person copies it from an adopted French invoice
    assert grade(make("13 537,01 €"), answer).correct is ok
    assert grade(make("13 537,01 €", matcher={"type": "exact"}), answer).correct is ok


@pytest.mark.parametrize(("answer", "ok"), [
    ("SEK 12,159.24", True), ("12 159,24 kr", True), ("kr 12.159,24", True), ("Summa: 12159.24 kronor", True),
    ("$12,159.24", False), ("€12.159,24", False), ("12 159,42 kr", False),
])
def test_a_krona_key_as_a_swedish_invoice_prints_it(answer, ok):
    # an adopted Swedish invoice keyed as it prints (`12 159,24 kr`); `kr` is no dollar or euro
    for matcher in ({"type": "contains"}, {"type": "exact"}, {"type": "numeric", "tolerance": 0.001}):
        if matcher["type"] == "exact" and answer.startswith("Summa"):
            continue
        assert grade(make("12 159,24 kr", matcher=matcher), answer).correct is ok, (matcher, answer)


@pytest.mark.parametrize(("answer", "ok"), [
    ("12.5%", True), ("12,5 %", True), ("Der Satz beträgt 12,5 %.", True), ("12.50 percent", True),
    ("12.5 per cent", True), ("125%", False), ("2.5%", False), ("12.5", False), ("-12.5%", False),
    ("0.125", False),
])
def test_a_percentage_key_is_the_percentage_however_it_is_written(answer, ok):
    # French, German and Nordic typography put a space before the sign and a decimal comma
    assert grade(make("12.5%"), answer).correct is ok
    if "beträgt" not in answer:
        assert grade(make("12.5%", matcher={"type": "exact"}), answer).correct is ok


@pytest.mark.parametrize(("answer", "ok"), [
    ("12.6 %", True), ("12,4 %", True), ("about 12.4 percent", True), ("12.6", False), ("13 %", False),
    ("$12.5", False),
])
def test_a_numeric_percentage_key_takes_percentages_within_its_tolerance(answer, ok):
    # it was refused: "numeric matcher: expected value '12.5%' is not a number"
    assert grade(make("12.5%", matcher={"type": "numeric", "tolerance": 0.2}), answer).correct is ok


@pytest.mark.parametrize(("answer", "ok"), [
    ("12 March 2025", True), ("The invoice is dated March 12th, 2025.", True), ("2025-03-12", True),
    ("12. März 2025", True), ("12/03/2025", True), ("Wednesday, 12 March 2025", True),
    ("13 March 2025", False), ("March 2025", False), ("12 March 2024", False), ("2025-12-03T00:00", False),
])
def test_a_date_key_is_the_day_however_it_is_written(answer, ok):
    # a key of 2025-03-12 failed "12 March 2025" (compared as text)
    assert grade(make("2025-03-12"), answer).correct is ok
    if not answer.startswith("The"):
        assert grade(make("2025-03-12", matcher={"type": "exact"}), answer).correct is ok


def test_such_a_key_is_found_on_a_page_that_prints_it_so_and_in_another_writing():
    # a page's text layer reads a plain space as two numbers: the key's own characters are found
    assert [p.found for p in find_all("Total TTC 13 537,01 € net", "13 537,01 €")] == ["13 537,01 €"]
    assert [p.found for p in find_all("Total: €13,537.01", "13 537,01 €")] == ["€13,537.01"]
    assert find_all("Total: 13 537,10 €", "13 537,01 €") == []


def test_contains_reports_where_the_answer_says_it():
    answer = "After checking the page, the TOTAL DUE is $1234.56 (printed)."
    v = grade(make(), answer)
    assert v.correct and v.outcome == "pass"
    start, end = v.parts[0].span
    assert answer[start:end] == "$1234.56"
    assert "$1,234.56" in v.reason and "$1234.56" in v.reason


@pytest.mark.parametrize(("expected", "answer", "ok"), [
    ("INV-250785", "the invoice is inv-250785.", True),
    ("INV-250785", "INV 250785", False),
    ("Net 30 days", "payment terms: net   30\ndays", True),
    ("Net 30 days", "net 60 days", False),
    ("O\u2019Brien", "o'brien", True),            # curly and straight apostrophes agree
    ("12 March 2025", "12 march 2025", True),
    ("42", "there are 42 rows", True),
    ("42", "there are 142 rows", False),           # numbers are whole tokens
])
def test_contains_text(expected, answer, ok):
    assert grade(make(expected), answer).correct is ok


def test_forbidden_answer_is_the_trap():
    case = make("$1,234.56", forbidden=["$11,234.56"])
    v = grade(case, "$11,234.56")
    assert not v.correct and v.fell_for_trap and v.outcome == "trap"
    assert v.forbidden[0].found == "$11,234.56" and v.forbidden[0].span == (0, 10)
    assert "fell for the trap" in v.reason

    both = grade(case, "either $1,234.56 or $11,234.56")
    assert not both.correct and not both.fell_for_trap and both.forbidden
    assert "both" in both.reason


def test_tokens_all_any_order_and_forbidden_fragment_ignored():
    case = make("", forbidden=["within 30 days"], tokens=["Clause 7.2", "within 30 days", "$500"],
                matcher={"type": "tokens_all"})
    ok = grade(case, "$500 penalty applies within 30 days, per clause 7.2 (footnote).")
    assert ok.correct and len(ok.parts) == 3 and all(p.span for p in ok.parts)
    assert ok.details["forbidden_ignored"]
    partial = grade(case, "Payment is due within 30 days.")
    assert not partial.correct and partial.fell_for_trap
    assert [p.matched for p in partial.parts] == [False, True, False]


@pytest.mark.parametrize(("answer", "ok", "hedged"), [
    ("WARRANTY VOID IF SEAL BROKEN", True, False),
    ("warranty void if seal broken.", True, False),
    ("The text appears to say: warranty void if seal broken", False, True),
    ("I think it reads warranty void if seal broken", False, True),
    ("warranty void if seal [?] broken", False, True),
    ("I cannot read the page clearly", False, True),
    ("warranties voided if sealed broken", False, False),   # keywords are whole words
])
def test_keywords_all_with_hedge_check(answer, ok, hedged):
    case = make("", matcher={"type": "keywords_all", "keywords": ["warranty", "void", "seal", "broken"],
                             "no_hedge": True})
    v = grade(case, answer)
    assert (v.correct, v.hedged) == (ok, hedged), v.reason


def test_hedge_is_reported_but_only_fails_where_forbidden():
    v = grade(make(), "It is probably $1,234.56")
    assert v.correct and v.hedged


@pytest.mark.parametrize(("answer", "refused"), [
    ("I cannot read the page clearly", True),
    ("I'm sorry, but I can't determine the total from this document.", True),
    ("Unable to locate a total on this invoice.", True),
    ("The total is not visible in the document.", True),
    ("", True),
    ("   ", True),
    ("$9,999.99", False),
    ("The total is $11.00", False),
])
def test_refusal_detection(answer, refused):
    v = grade(make(), answer)
    assert v.refused is refused
    assert not v.correct
    if refused:
        assert v.outcome == "refused" and v.reason.startswith("refused")


def test_a_correct_answer_is_never_a_refusal():
    v = grade(make(), "I can't be fully certain, but the total is $1,234.56")
    assert v.correct and not v.refused and v.hedged


@pytest.mark.parametrize(("expected", "answer", "spec", "ok"), [
    ("ACME Corp", "acme corp", {}, True),
    ("ACME Corp", '"ACME Corp."', {}, True),
    ("ACME Corp", "ACME Corp Ltd", {}, False),
    ("ACME Corp", "acme corp", {"case_sensitive": True}, False),
    ("$1,234.56", "1234.56 USD", {}, True),
    ("$1,234.56", "EUR 1,234.56", {}, False),
    ("$1,234.56", "Total: $1,234.56", {}, False),
])
def test_exact(expected, answer, spec, ok):
    assert grade(make(expected, matcher={"type": "exact", **spec}), answer).correct is ok


@pytest.mark.parametrize(("answer", "spec", "ok"), [
    ("about 3.14", {"tolerance": 0.01}, True),
    ("3.15", {"tolerance": 0.01}, True),
    ("3.16", {"tolerance": 0.01}, False),
    ("3.1416", {"tolerance": 0}, False),
    ("103", {"tolerance": 0.05, "relative": True, "value": 100}, True),
    ("106", {"tolerance": 0.05, "relative": True, "value": 100}, False),
    ("no number here", {"tolerance": 1}, False),
])
def test_numeric_with_tolerance(answer, spec, ok):
    assert grade(make("3.1415", matcher={"type": "numeric", **spec}), answer).correct is ok


def test_numeric_rejects_contradicting_currency_and_flags_trap():
    case = make("$100.00", forbidden=["$250.00"], matcher={"type": "numeric", "tolerance": 0.01})
    assert grade(case, "$100.004").correct
    assert not grade(case, "€100.00").correct
    assert grade(case, "250").fell_for_trap


def test_unknown_matcher_is_a_user_error():
    with pytest.raises(UserError, match="unknown matcher 'regex'"):
        grade(make(matcher={"type": "regex"}), "x")


def _record(status, answer, finish_reason=None):
    return RunRecord(case_id="t-1", case_sha256=None, key_sha256=None, reader="fake:m", modality="pdf",
                     dpi=None, prompt="q?", answer=answer, status=status, finish_reason=finish_reason)


@pytest.mark.parametrize("status", ["error", "timeout", "blocked", "cancelled", "rate_limited"])
def test_a_call_that_did_not_finish_is_not_gradable(status):
    assert grade_record(make(), _record(status, None)) is None


def test_grade_record_marks_truncation_and_provider_refusals():
    v = grade_record(make(), _record("ok", "$1,234.56", finish_reason="length"))
    assert v.correct and v.truncated
    r = grade_record(make(), _record("refused", None, finish_reason="refusal"))
    assert r.refused and not r.correct and "provider reports a refusal" in r.reason


def test_a_hedge_word_the_expected_sentence_has_itself_is_no_hedge():
    from workbench.core.case import Case
    from workbench.grading.matchers import grade

    sentence = "I reckon I might say they swum by, they slid along so quiet and smooth and lovely."
    case = Case(id="c", trap_family="x", seed=1, question="q", expected_answer=sentence,
                forbidden_answers=[], expected_tokens=[], pdf_path="c.pdf",
                matcher=MatcherSpec("keywords_all", keywords=("reckon", "swum", "smooth"), no_hedge=True))
    assert grade(case, sentence).correct
    assert not grade(case, f"It might say: {sentence}").correct  # one "might" more than the text
    assert not grade(case, f"I think it reads: {sentence}").correct


def test_glyphs_read_word_by_word_on_a_line_that_is_not_all_ascii():
    """A euro sign makes the line non-ASCII: its plain words still read as written, a Latin word
    with a Cyrillic letter reads as Latin, a Russian word stays Russian, a zero-width space drops
    out (and its index with it), and l between digits reads as 1."""
    from workbench.text.search import read_glyphs

    line = "Total €1\u200b2O.50 for Pаypal, дом 1l0\u00a0due"
    seen, where = read_glyphs(line)
    assert seen == "Total €12O.50 for Paypal, дом 110\u00a0due"
    assert where == [*range(8), *range(9, len(line))]
