"""Amounts as the grader reads them (workbench/text/money.py): digit groups written the ways
documents write them, currencies before or after, whole tokens only, and when two agree."""

from __future__ import annotations

from decimal import Decimal

import pytest

from workbench.text.money import (
    PERCENT,
    find_agreeing,
    find_like,
    find_money,
    find_percents,
    number_value,
    parse_money,
    parse_percent,
    spaced_groups,
)


@pytest.mark.parametrize("written, value", [
    ("1,234,567.89", "1234567.89"), ("1.234.567,89", "1234567.89"), ("1.234,56", "1234.56"),
    ("1'234'567.89", "1234567.89"), ("1\u00a0234,56", "1234.56"), ("12,50", "12.50"),
    ("1,23,456.78", "123456.78"),
    # ambiguous forms keep the English reading
    ("1,234", "1234"), ("1.234", "1.234"), ("1.234.567", "1234567"),
])
def test_digit_groups_are_read_as_documents_write_them(written, value):
    assert number_value(written) == Decimal(value)
    assert parse_money(written).value == Decimal(value)


@pytest.mark.parametrize("written", ["CHF 1\u2019234\u2019567.89", "1\u02bc234\u02bc567.89 CHF"])
def test_swiss_groups_typeset_with_a_curled_apostrophe(written):
    (mention,) = find_money(written)
    assert (mention.value, mention.currency, mention.text) == (Decimal("1234567.89"), "CHF", written)
    assert parse_money(written).value == Decimal("1234567.89")


@pytest.mark.parametrize("written, value, currency", [
    ("$1,234.56", "1234.56", "USD"), ("1234.56 USD", "1234.56", "USD"), ("US$ 5", "5", "USD"),
    ("€13,144.73", "13144.73", "EUR"), ("EUR 1.234,56", "1234.56", "EUR"), ("£7", "7", "GBP"),
    ("-$12.00", "-12.00", "USD"), ("\u2212 5", "-5", None), ("42", "42", None), ("$1,234.56.", "1234.56", "USD"),
])
def test_an_amount_is_its_signed_value_and_its_currency(written, value, currency):
    got = parse_money(written)
    assert (got.value, got.currency) == (Decimal(value), currency)


@pytest.mark.parametrize("written, value, currency", [
    ("SEK 1,234.56", "1234.56", "SEK"), ("R$ 1.234,56", "1234.56", "BRL"), ("1.234,56 zł", "1234.56", "PLN"),
    ("₩1,234", "1234", "KRW"), ("HK$1,234.56", "1234.56", "HKD"), ("S$5", "5", "SGD"), ("5 Kč", "5", "CZK"),
    ("NZ$ 7.50", "7.50", "NZD"), ("US$5", "5", "USD"),
])
def test_other_currencies_written_as_their_documents_write_them(written, value, currency):
    got = parse_money(written)
    assert (got.value, got.currency) == (Decimal(value), currency)
    assert [(m.value, m.currency, m.text) for m in find_money(f"due: {written}.")] == \
        [(Decimal(value), currency, written)]


def test_a_hong_kong_dollar_is_no_us_dollar_and_words_are_no_currency():
    assert not parse_money("HK$1,234.56").agrees(parse_money("$1,234.56"))
    # the other codes are read only in capitals: "rub", "sek" and "try" are words
    assert [m.currency for m in find_money("rub 5 in, try 6, sek 7")] == [None, None, None]


@pytest.mark.parametrize("written, value", [
    ("1 234,56 kr", "1234.56"), ("1.234,56 kr.", "1234.56"), ("kr. 1.234,56", "1234.56"), ("kr 5", "5"),
    ("12\u00a0500 kr", "12500"),
])
def test_a_krona_is_any_of_the_four_and_no_other_currency(written, value):
    """`kr`, as Swedish, Norwegian, Danish and Icelandic documents write their currency: it was a
    bare number, so `1234.56 kr` agreed with `$1,234.56`, and a key typed `1 234,56 kr` failed
    `SEK 1,234.56`."""
    got = parse_money(spaced_groups(written))
    assert got.value == Decimal(value)
    for code in ("SEK", "NOK", "DKK", "ISK", "kr"):
        assert got.agrees(parse_money(f"{code} {value}")) and parse_money(f"{value} {code}").agrees(got)
    for other in ("$", "€", "£", "CHF ", "KRW "):
        assert not got.agrees(parse_money(f"{other}{value}"))
    assert not parse_money(f"SEK {value}").agrees(parse_money(f"NOK {value}"))


def test_kr_in_a_word_is_no_currency():
    assert [(m.value, m.currency) for m in find_money("Bankr 5, 6 krona, krone 7, 8 kroner")] == \
        [(Decimal(5), None), (Decimal(6), None), (Decimal(7), None), (Decimal(8), None)]


@pytest.mark.parametrize("text", ["$5 EUR", "five dollars", "", "$", "1,234.56 and 7"])
def test_what_is_not_one_amount_is_none(text):
    assert parse_money(text) is None


def test_a_mention_is_a_whole_token_never_a_piece_of_a_larger_one():
    assert [m.text for m in find_money("Total $11,234.56 due")] == ["$11,234.56"]
    assert [m.value for m in find_money("invoice INV-5 dated 2023 500")] == [Decimal(2023), Decimal(500)]
    # a zero-width space inside the figure is read through; the mention spans the original text
    text = "due: 1,2\u200b34.56 EUR"
    (mention,) = find_money(text)
    assert (mention.value, mention.currency, text[mention.start:mention.end]) == \
        (Decimal("1234.56"), "EUR", "1,2\u200b34.56 EUR")


@pytest.mark.parametrize("written, value, currency, text", [
    ("Net loss ($1,234.56) for the year", "-1234.56", "USD", "($1,234.56)"),
    ("Cost of sales\t(12,806.40)\n", "-12806.40", None, "(12,806.40)"),
    ("total $(1,234.56).", "-1234.56", "USD", "$(1,234.56)"),
    ("(1.234,56 €)", "-1234.56", "EUR", "(1.234,56 €)"),
    ("($12)", "-12", "USD", "($12)"),
    ("(1,234)", "-1234", None, "(1,234)"),
])
def test_an_amount_in_brackets_is_an_accounting_negative(written, value, currency, text):
    (mention,) = find_money(written)
    assert (mention.value, mention.currency, mention.text) == (Decimal(value), currency, text)
    assert parse_money(text).value == Decimal(value)   # a key written so is that value
    assert parse_money(text).agrees(parse_money(f"-{text.strip('()$')}"))


@pytest.mark.parametrize("written, value, currency, text", [
    ("Gutschrift 1.234,56-", "-1234.56", None, "1.234,56-"),        # an ERP system's credit
    ("EUR 1.234,56- offen", "-1234.56", "EUR", "EUR 1.234,56-"),
    ("Total: 12.50-.", "-12.50", None, "12.50-"),
])
def test_an_amount_with_its_minus_after_it_is_negative(written, value, currency, text):
    (mention,) = find_money(written)
    assert (mention.value, mention.currency, mention.text) == (Decimal(value), currency, text)
    assert parse_money(text).value == Decimal(value)


@pytest.mark.parametrize("written, values", [
    ("1,000.00-2,000.00", ["1000.00", "2000.00"]), ("$1.00-$2.00", ["1.00", "2.00"]),   # ranges
    ("10- to 20-year bonds", ["10", "20"]), ("INV 12.50-A", ["12.50"]), ("-5.00-", ["-5.00"]),
])
def test_a_minus_after_a_number_that_is_no_credit(written, values):
    assert [m.value for m in find_money(written)] == [Decimal(v) for v in values]


def test_a_statement_row_reads_each_bracketed_column_negative():
    assert [m.value for m in find_money("Operating income 4,120.00 (310.50) (2,345.67)")] == \
        [Decimal("4120.00"), Decimal("-310.50"), Decimal("-2345.67")]
    assert [m.value for m in find_money("$1,000 ($1,234.56)")] == [Decimal(1000), Decimal("-1234.56")]


@pytest.mark.parametrize("written, values", [
    ("Smith (2019) and note (3)", ["2019", "3"]),        # a year, a note's mark: whole numbers in prose
    ("€1,000 ($1,234.56)", ["1000", "1234.56"]),        # the amount converted, after one in another currency
    ("EUR 1,000 (USD 1,234.56)", ["1000", "1234.56"]),
    ("f(1.5) = x(2.50)y", ["1.5", "2.50"]),               # brackets glued to a word
    ("(-5.00)", ["-5.00"]),                               # a sign written: not negated twice
    ("(see 1,234.56)", ["1234.56"]),                      # not the amount alone in them
])
def test_brackets_that_do_not_make_an_amount_negative(written, values):
    assert [m.value for m in find_money(written)] == [Decimal(v) for v in values]


@pytest.mark.parametrize("typed, value, currency", [
    ("13 537,01 €", "13537.01", "EUR"), ("€ 13 537,01", "13537.01", "EUR"), ("EUR 13 537", "13537", "EUR"),
    ("13 537 EUR", "13537", "EUR"), ("1 234 567.89", "1234567.89", None), ("US$1 234", "1234", "USD"),
])
def test_digit_groups_a_person_typed_with_plain_spaces_are_one_amount(typed, value, currency):
    read = spaced_groups(typed)
    assert len(read) == len(typed)   # an index into the reading is one into what was typed
    (mention,) = find_money(read)
    assert (mention.value, mention.currency, mention.text) == (Decimal(value), currency, read)
    assert parse_money(read).value == Decimal(value)
    assert find_money(typed) != [mention]   # a page's text is read strictly


@pytest.mark.parametrize("text", ["invoice dated 2023 500", "page 1 234", "1 234 EUROS", "€ 13 5370", "x1 234,5"])
def test_plain_spaces_between_digits_stay_apart_where_another_reading_is_possible(text):
    assert spaced_groups(text) == text


def test_a_page_text_keeps_a_space_between_digits_as_two_numbers():
    # a text layer may put a quantity and a price side by side: the page is read strictly
    assert [m.value for m in find_money("Switch 12 500,00 €")] == [Decimal(12), Decimal("500.00")]


@pytest.mark.parametrize("a, b, agree", [
    ("$1,234.56", "1234.56 USD", True), ("$1,234.56", "1234.56", True), ("€5", "5 EUR", True),
    ("€5", "$5", False), ("$5", "$5.01", False), ("-5", "5", False),
])
def test_two_amounts_agree_when_values_match_and_currencies_do_not_contradict(a, b, agree):
    assert parse_money(a).agrees(parse_money(b)) is agree
    assert parse_money(b).agrees(parse_money(a)) is agree


@pytest.mark.parametrize("written, value", [
    ("25%", "25"), ("25 %", "25"), ("25\u00a0%", "25"), ("12,5 %", "12.5"), ("12,50%", "12.50"), ("1,000%", "1000"),
    ("-3.5%", "-3.5"), ("\u22123,5 %", "-3.5"), ("+2%", "2"), ("25 percent", "25"), ("25 per cent", "25"),
    ("25 Percent", "25"), (".5%", "0.5"), ("25 procent", "25"), ("25 Prozent", "25"), ("25 pour cent", "25"),
    ("25 por ciento", "25"), ("25 per cento", "25"), ("25 prosent", "25"),
])
def test_a_percentage_is_its_value_however_it_is_written(written, value):
    got = parse_percent(written)
    assert (got.value, got.currency) == (Decimal(value), PERCENT)
    assert [(m.value, m.text) for m in find_percents(f"rate: {written}, due")] == [(Decimal(value), written)]
    assert parse_money(written) is None   # no amount of money


@pytest.mark.parametrize("text", ["25", "25 percentage points", "x25%", "INV-25%", "25%%", "12,345 %x", "",
                                  "25 Prozentpunkte", "25 centimes", "25 sent"])
def test_what_is_not_one_percentage_is_none(text):
    assert parse_percent(text) is None


def test_a_percentage_agrees_only_with_a_percentage():
    assert parse_percent("25 %").agrees(parse_percent("25.0%"))
    assert not parse_percent("25%").agrees(parse_money("25"))
    assert not parse_percent("25%").agrees(parse_percent("-25%"))


def test_the_mentions_that_agree_with_a_value_are_found_by_value_as_by_reading_them_all():
    """`find_agreeing` (an index of a text's amounts by value) gives what going through every
    amount gives: each currency that agrees, in order, negatives apart, percentages apart."""
    text = ("Total $1,234.50 (USD 1234.5), EUR 1.234,50 and 1234.50; refund ($1,234.50) or -1234.5; "
            "rate 12.5% (12,5 %), 12.5 units, 1,234.5 again, and £1234.50.")
    for typed in ("$1,234.50", "1234.5", "-1,234.50", "EUR 1234.50", "12.5%", "12.5", "£1,234.5", "99.00"):
        want = parse_money(typed) or parse_percent(typed)
        spans = [(m.start, m.end) for m in find_agreeing(text, want)]
        assert spans == [(m.start, m.end) for m in find_like(text, want) if m.agrees(want)], typed
    assert [m.text for m in find_agreeing(text, parse_money("1234.5"))] == [
        "$1,234.50", "EUR 1.234,50", "1234.50", "1,234.5", "£1234.50"]   # (the bracketed ones are negative)
    assert [m.text for m in find_agreeing(text, parse_money("-1,234.50"))] == ["(USD 1234.5)", "($1,234.50)", "-1234.5"]
