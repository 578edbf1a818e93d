"""Amounts of money (and plain numbers) found in free text, compared as values.

A mention is a whole numeric token, never a piece of a larger one: in `$11,234.56` there is no
`$1,234.56`. A currency may be written before (`$`, `US$`, `USD`, `€`, `EUR 1,234.56`) or after
(`1,234.56 USD`) the number. Two mentions agree when their signed values are equal and their
currencies do not contradict: an omitted currency agrees with any, `$` agrees with `USD`,
`EUR` does not agree with `USD`, `kr` agrees with `SEK`, `NOK`, `DKK` and `ISK`.

Digit groups are read the ways documents write them, where the writing is unambiguous:
`1,234,567.89`; `1.234.567,89` and `1.234,56` (European); `1'234'567.89` and `1’234’567.89`
(Swiss); `1 234,56` with a no-break, narrow no-break or thin space between groups (French);
`12,50` (a decimal comma with two decimals); and `1,23,456.78` (Indian grouping). Ambiguous forms
keep the English reading: `1,234` is 1234 and `1.234` is 1.234.

A plain space between groups is read as one only where nothing else can be meant, and only in
what a person wrote (`spaced_groups`: an answer, an extracted field's value): groups of three
with a decimal part or a currency beside them, `13 537,01 €`, `EUR 1 234`, as people type
French and SI amounts. In a page's text layer a space between digits may stand between two
table cells (`12 500,00`: a quantity and a price), so `find_money` reads a page strictly; the
evidence search (`checks.evidence`) reads it so again where the space is printed inside one
span. `2023 500` stays two numbers everywhere.

An amount written alone in brackets is negative, as financial statements print a loss or a
credit: `($1,234.56)`, `(1,234.56)`, `$(1,234.56)`, `(1.234,56 €)` are -1,234.56, in a page's
text, an answer and a key alike (`_bracketed`). Brackets read so only around what is an amount
beyond doubt: a currency marker, digit groups or a decimal part (`(3)` is a note's mark, `(2019)`
a year), not glued to a word (`f(1.5)`), and not right after an amount in another currency
(`€1,000 ($1,234.56)` converts it; `1,234.00 (567.00)`, after one in the same or none, is the next
column of a statement's row). So is one with its minus after it, as ERP systems print a credit
(`1.234,56-`), followed by a space, punctuation or nothing (`_minus_after`); both only where it is
an amount beyond doubt (`_beyond_doubt`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

# Currency markers and the ISO code each one means. Longer markers first, so `US$` wins over `$`.
CURRENCY_MARKERS: dict[str, str] = {
    "US$": "USD", "USD": "USD", "$": "USD",
    "EUR": "EUR", "€": "EUR",
    "GBP": "GBP", "£": "GBP",
    "JPY": "JPY", "¥": "JPY",
    "INR": "INR", "₹": "INR",
    "CHF": "CHF", "CAD": "CAD", "C$": "CAD", "AUD": "AUD", "A$": "AUD", "CNY": "CNY",
}
# Other currencies a foreign document names, read only as written (codes in capitals): in
# either case `rub` and `sek` would be words, and the search would stop at every small letter
# they start with. None that is an English word (`TRY`). Without them `HK$1,234.56` was a bare
# 1,234.56 that agreed with `$1,234.56`.
OTHER_MARKERS: dict[str, str] = {
    "HKD": "HKD", "HK$": "HKD", "SGD": "SGD", "S$": "SGD", "NZD": "NZD", "NZ$": "NZD",
    "MXN": "MXN", "MX$": "MXN", "BRL": "BRL", "R$": "BRL", "KRW": "KRW", "₩": "KRW",
    "SEK": "SEK", "NOK": "NOK", "DKK": "DKK", "ISK": "ISK", "kr.": "kr", "kr": "kr",
    "PLN": "PLN", "zł": "PLN", "CZK": "CZK", "Kč": "CZK",
    "HUF": "HUF", "ZAR": "ZAR", "RUB": "RUB", "₽": "RUB", "ILS": "ILS", "₪": "ILS", "THB": "THB",
    "฿": "THB", "AED": "AED", "₺": "TRY",
}
# A marker several currencies write: `kr` (`1 234,56 kr`, `kr. 1.234,56`) is the Swedish,
# Norwegian, Danish and Icelandic krona's. It agrees with each of them and with itself, and
# contradicts every other currency (`1,234.56 kr` is not `$1,234.56`).
SHARED_MARKERS: dict[str, frozenset[str]] = {"kr": frozenset({"SEK", "NOK", "DKK", "ISK"})}
# A percentage's mention (`find_percents`) has this for its currency: it agrees with another
# percentage only, never with a bare number.
PERCENT = "%"
_CODES = {m.upper(): code for m, code in {**CURRENCY_MARKERS, **OTHER_MARKERS}.items()}
# A marker: the currency markers in either case, the others as written; longest first.
_CUR = ("(?i:" + "|".join(re.escape(m) for m in sorted(CURRENCY_MARKERS, key=len, reverse=True)) + ")|"
        + "|".join(re.escape(m) for m in sorted(OTHER_MARKERS, key=len, reverse=True)))
# One home for the characters a text layer writes between digit groups but means as nothing or
# as one typographic space (the matchers' folding uses these too).
ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u2061\u2062\u2063\u2064")
GROUP_SPACES = frozenset("\u00a0\u2007\u2009\u202f")
# Apostrophes other than the typewriter one, which Swiss amounts are typeset with (`13’537.01`:
# word processors and models curl the quote): read as the `'` between groups.
GROUP_APOSTROPHES = frozenset("\u2019\u02bc")
_NB = "\u00a0"  # every group space is read as this one
_NUMBER = (
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?"          # 1,234,567.89
    r"|\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d+)?"   # 1,23,45,678.90 (Indian)
    r"|\d{1,3}(?:\.\d{3})+,\d+"              # 1.234,56  1.234.567,89
    r"|\d{1,3}(?:\.\d{3}){2,}"               # 1.234.567
    r"|\d{1,3}(?:'\d{3})+(?:[.,]\d+)?"       # 1'234.56
    rf"|\d{{1,3}}(?:{_NB}\d{{3}})+(?:[.,]\d+)?"  # 1 234,56 (no-break spaces)
    r"|\d+,\d{2}"                            # 12,50
    r"|\d+(?:\.\d+)?|\.\d+"
)
# Case is ignored where it matters, in the currency markers and the letter after one ((?i:...):
# the same matches as the whole pattern ignoring case, and half the time to compile, which every
# `grade` pays).
# What an amount can start with (a digit, a sign, a decimal point, a currency marker's first
# letter in either case, an other marker's first character as written): the search skips to
# these at C speed (page-long texts: 423 -> 302 ms for 3,828).
_FIRST = "[\\d" + "".join(re.escape(c) for c in sorted(
    {"-", "\u2212", "."} | {c for m in CURRENCY_MARKERS for c in (m[0].lower(), m[0].upper())}
    | {m[0] for m in OTHER_MARKERS})) + "]"
_MONEY_RE = re.compile(
    rf"(?={_FIRST})"
    rf"(?<![\w.,])(?<![^\W\d_][-\u2212])"                # not inside a larger token (INV-5)
    rf"(?:(?P<sign1>[-\u2212])\s?)?"
    rf"(?:(?P<prefix>{_CUR})\s?(?:(?P<prefix2>{_CUR})\s?)?)?"
    rf"(?P<sign2>[-\u2212])?"
    rf"(?P<number>{_NUMBER})"
    rf"(?![\d]|[.,'{_NB}]\d)"                            # the whole number, not a prefix of one
    # a marker followed by a number is that number's prefix, not this one's suffix ("5 $7")
    rf"(?:\s?(?P<suffix>{_CUR})(?i:(?![A-Za-z]))(?!\s?[-\u2212]?\.?\d))?",
)


# The most characters an amount can start before its first digit: a sign, two markers, a sign and
# a decimal point, with the spaces between (`- US$ EUR -.5`). The search for the next amount
# starts that far before the next digit (`_amounts_in`).
_LEAD = 2 * max(map(len, (*CURRENCY_MARKERS, *OTHER_MARKERS))) + 8
_DIGIT = re.compile(r"\d").search


def _amounts_in(clean: str) -> Iterator[re.Match[str]]:
    """`_MONEY_RE.finditer(clean)`'s matches, found faster: every amount has a digit, so each
    search starts `_LEAD` characters before the next digit, and the words between amounts are
    skipped in C (most of a page-long text: its letters start markers, which the pattern's own
    skip stops at). Lookbehinds still see the characters before the start."""
    at = 0
    while (digit := _DIGIT(clean, at)) is not None:
        m = _MONEY_RE.search(clean, max(at, digit.start() - _LEAD))
        if m is None:
            return
        yield m
        at = m.end()


_CENTS = re.compile(r"\d+,\d{2}").fullmatch


_GROUP_GAP = re.compile(r"\d \d{3}").search   # what every such amount has


@functools.cache
def _spaced() -> re.Pattern[str]:
    """Digit groups with plain spaces between them that can only be one amount: after a currency
    marker (`EUR 13 537`), or before a decimal part or a currency marker (`13 537,01`, `1 234 $`).
    Compiled when first needed (an answer where a digit, a space and three digits meet), not by
    every `grade`'s start."""
    return re.compile(
        rf"(?<![\w.,])(?:{_CUR})[ {_NB}]?(?P<after>\d{{1,3}}(?: \d{{3}})+)(?!\d)"
        rf"|(?<![\w.,])(?P<before>\d{{1,3}}(?: \d{{3}})+)(?=[.,]\d| ?(?:{_CUR})(?![A-Za-z]))")


def spaced_groups(text: str) -> str:
    """`text` with the plain spaces between the digit groups of one amount (see the module
    docstring) made no-break spaces, which group a number everywhere: the same length, so an
    index into it is one into `text`. For what a person wrote (an answer), not a page's text."""
    if " " not in text or not _GROUP_GAP(text):   # (most text: one pass of C)
        return text
    out, at = [], 0
    for m in _spaced().finditer(text):
        start, end = m.span("after" if m.group("after") is not None else "before")
        out += [text[at:start], text[start:end].replace(" ", _NB)]
        at = end
    return "".join(out) + text[at:] if out else text


def number_value(number: str) -> Decimal:
    """The value of a number as `_NUMBER` admits it (`1.234,56` -> 1234.56, `12,50` -> 12.50)."""
    body = number.replace("'", "").replace(_NB, "")
    grouped = body != number
    if "," in body and "." in body:
        decimal = "," if body.rfind(",") > body.rfind(".") else "."
    elif "," in body:
        decimal = "," if grouped or _CENTS(body) else None
    elif "." in body:
        decimal = "." if grouped or body.count(".") == 1 else None
    else:
        decimal = None
    if decimal is None:
        return Decimal(body.replace(".", "").replace(",", ""))
    head, _, tail = body.rpartition(decimal)
    return Decimal(head.replace(".", "").replace(",", "") + "." + tail)


def currencies_agree(a: str | None, b: str | None) -> bool:
    """Whether two amounts' currencies (ISO codes, a shared marker's, `PERCENT`, or None where
    none is written) can be the same: an omitted one agrees with any currency."""
    if a == PERCENT or b == PERCENT:
        return a == b
    return (a is None or b is None or a == b or b in SHARED_MARKERS.get(a, ())
            or a in SHARED_MARKERS.get(b, ()))


@dataclass(frozen=True)
class MoneyMention:
    """An amount found in a text: its value, its currency and where it stands."""

    value: Decimal
    currency: str | None      # ISO code, or None when the text names no currency
    start: int
    end: int
    text: str

    def agrees(self, other: MoneyMention) -> bool:
        return self.value == other.value and currencies_agree(self.currency, other.currency)


_SPACING = ZERO_WIDTH | GROUP_SPACES   # (sets, not a pattern: compiling one was a tenth of this module's load)
_ODD = _SPACING | GROUP_APOSTROPHES
_APOSTROPHE = str.maketrans(dict.fromkeys(GROUP_APOSTROPHES, "'"))


def _clean(text: str) -> tuple[str, Sequence[int]]:
    """`text` without zero-width characters, group spaces made one no-break space and curled
    apostrophes the plain one; original indexes (a range where they are the same)."""
    if _ODD.isdisjoint(text):
        return text, range(len(text))
    if not GROUP_APOSTROPHES.isdisjoint(text):   # (a page's "customer’s" among them: in C)
        text = text.translate(_APOSTROPHE)
        if _SPACING.isdisjoint(text):
            return text, range(len(text))
    out, index = [], []
    for i, ch in enumerate(text):
        if ch in ZERO_WIDTH:
            continue
        out.append(_NB if ch in GROUP_SPACES else ch)
        index.append(i)
    return "".join(out), index


def _mention(m: re.Match[str], start: int, end: int, text: str, negative: _Negative | None = None) -> MoneyMention | None:
    """The amount `m` matched, said by `text[start:end]` (`m` may be of a cleaned copy); negative
    where `negative` says it is written so (in brackets, with the marker before them if one is, or
    with its minus after it)."""
    sign1, prefix, prefix2, sign2, number, suffix = m.group("sign1", "prefix", "prefix2", "sign2", "number", "suffix")
    outer = negative[2] if negative is not None else None
    # A letter code glued to a word ("ABCUSD5") is not a currency; the lookbehind covers prefixes.
    currency = None
    if prefix or suffix or outer:
        codes = {_CODES[x.upper()] for x in (prefix, prefix2, suffix, outer) if x}
        if len(codes) > 1:
            return None  # "$5 EUR" contradicts itself
        currency = codes.pop()
    try:
        value = number_value(number)
    except InvalidOperation:  # pragma: no cover - the pattern admits only digits
        return None
    if sign1 or sign2 or negative is not None:
        value = -value
    return MoneyMention(value, currency, start, end, text[start:end])


# ---- accounting negatives: the amount in brackets, or its minus after it ------------------------

# Where an amount written negative so stands in the cleaned text, brackets (and a marker before
# them) or the minus included: (start, end, the marker before the brackets: `$` of `$(1,234.56)`,
# or None). (A tuple: a dataclass is a millisecond of every `grade`'s start.)
_Negative = tuple[int, int, str | None]


def _beyond_doubt(m: re.Match[str]) -> bool:
    """Whether `m` is an amount beyond doubt, which brackets or a minus after it make negative: a
    currency marker, digit groups or a decimal part, and no sign written (`(3)` is a note's mark,
    `(2019)` a year, `10-` half of `10- to 20-year`)."""
    return (bool(m.group("prefix") or m.group("suffix")) or not m.group("number").isdigit()) \
        and not (m.group("sign1") or m.group("sign2"))


# A currency marker just before the opening bracket (`$(1,234.56)`, `USD (1,234.56)`).
_MARKER_BEFORE = re.compile(rf"(?<![^\W\d_])(?:{_CUR}) ?\Z")


def _bracketed(clean: str, m: re.Match[str], before: tuple[int, str | None] | None) -> _Negative | None:
    """Where `m` is an accounting negative, `(1,234.56)`, `($1,234.56)`, `$(1,234.56)`, as financial
    statements print a loss or a credit; else None. Not a sign already written; not a bare whole
    number, which brackets in prose (`(3)` a note's mark, `(2019)` a year); not brackets glued to
    a word (`f(1.5)`); and not an amount in brackets right after one in another currency,
    `€1,000 ($1,234.56)`, which converts it (after one in the same currency or none, it is the next
    column of a statement's row: `1,234.00 (567.00)`). `before` is the last amount before `m` (where it
    ended, its currency)."""
    start, end = m.span()
    if start == 0 or end >= len(clean) or clean[start - 1] != "(" or clean[end] != ")":
        return None
    own = m.group("prefix") or m.group("suffix")
    at = start - 1
    outer = None if own else _MARKER_BEFORE.search(clean, max(0, at - 5), at)
    if m.group("sign1") or m.group("sign2") or not (outer or _beyond_doubt(m)):
        return None
    if outer is not None:
        at = outer.start()
    if (at and clean[at - 1].isalnum()) or (end + 1 < len(clean) and clean[end + 1].isalnum()):
        return None   # glued to a word: `f(1.5)`, `x(2.50)y`
    marker = outer.group().strip() if outer is not None else None
    if before is not None and before[1] is not None and (own or marker):
        # Only spaces between the amount before and this one: this one converts it.
        if not clean[before[0]:at].strip() and not currencies_agree(_CODES[(own or marker).upper()], before[1]):
            return None
    return at, end + 1, marker


_MINUSES = "-\u2212"
_AFTER_MINUS = frozenset(" \t\n\r\u00a0.,;:)]|")   # (what may follow a minus after an amount)


def _minus_after(clean: str, m: re.Match[str]) -> _Negative | None:
    """Where `m` is a negative written with its minus after it, as ERP systems print a credit
    (`1.234,56-`, `EUR 1.234,56-`), or None: only an amount beyond doubt, with nothing but a space
    or punctuation after the minus (`1,000.00-2,000.00`, `$1-$2` are no such thing). The caller
    has seen the minus."""
    end = m.end()
    if (end + 1 < len(clean) and clean[end + 1] not in _AFTER_MINUS) or not _beyond_doubt(m):
        return None
    return m.start(), end + 1, None


def find_money(text: str) -> list[MoneyMention]:
    """Every numeric token in `text`, with its currency if one is written beside it."""
    return list(_find_money(text))


@functools.lru_cache(maxsize=256)
def _find_money(text: str) -> tuple[MoneyMention, ...]:
    clean, index = _clean(text)
    out = []
    before: tuple[int, str | None] | None = None   # the last amount: where it ended, its currency
    for m in _amounts_in(clean):
        # (looked at here, not in a call for each amount: a page-long text holds hundreds)
        start, end = m.span()
        negative = None
        if start and clean[start - 1] == "(":
            negative = _bracketed(clean, m, before)
        if negative is None and end < len(clean) and clean[end] in _MINUSES:
            negative = _minus_after(clean, m)
        if negative is not None:
            start, end = negative[:2]
        mention = _mention(m, index[start], index[end - 1] + 1, text, negative)
        if mention is not None:
            out.append(mention)
            before = (end, mention.currency)
    return tuple(out)


def parse_money(text: str) -> MoneyMention | None:
    """`text` as one amount (`$1,234.56`, `1234.56 USD`, `-12`), or None if it is anything else.
    Plain spaces between digit groups are read as a page's are (two numbers): for a value a person
    typed as one amount (`13 537,01 €`), `parse_money(spaced_groups(text))`."""
    stripped = _clean(text)[0].strip().rstrip(".").strip()
    m = _MONEY_RE.fullmatch(stripped)
    if m:
        return _mention(m, 0, len(stripped), stripped)
    if stripped.endswith((")", *_MINUSES)):   # `($1,234.56)`, `1.234,56-`: the whole text, sign and all
        found = _find_money(stripped)
        if len(found) == 1 and (found[0].start, found[0].end) == (0, len(stripped)):
            return found[0]
    return None


# ---- percentages ---------------------------------------------------------------------------------

# The word for the sign, in the languages of the documents the workbench reads (the English
# first): `25 percent`, `25 per cent`, `25 Prozent`, `25 procent`, `25 pour cent`, `25 por ciento`.
_PERCENT_WORDS = ("percent", "per cent", "per cento", "pourcent", "pour cent", "por ciento", "por cento",
                  "procent", "prozent", "prosent")


def _percent_like(text: str) -> bool:
    """Whether `text` may hold a percentage (a `%` or a word for it): the test before the search."""
    if "%" in text:
        return True
    low = text.lower()
    return "cent" in low or "zent" in low or "sent" in low or "cien" in low


@functools.cache
def _percent_re() -> re.Pattern[str]:
    """A percentage: a whole number token, then `%` or a word for it (`_PERCENT_WORDS`), a space
    between or not (`25 %`, as French, German and Nordic typography write it). A comma before one
    or two digits is a decimal comma (`12,5 %`), before three a thousands separator (`1,000%`).
    Compiled when first needed (a key or an answer with a `%` in it), not by every `grade`."""
    number = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+,\d{1,2}|\d+(?:\.\d+)?|\.\d+"
    words = "|".join(w.replace(" ", " ?") for w in _PERCENT_WORDS)
    return re.compile(
        rf"(?<![\w.,])(?<![^\W\d_][-\u2212])(?P<sign>[-\u2212+])?(?P<number>{number})(?!\d|[.,']\d)"
        rf"[ {_NB}]?(?:%|(?i:{words})(?![^\W\d_]))")


def _percent(m: re.Match[str], start: int, end: int, text: str) -> MoneyMention:
    number = m.group("number")
    body = number.replace(",", ".") if re.fullmatch(r"\d+,\d{1,2}", number) else number.replace(",", "")
    value = Decimal(body)
    return MoneyMention(-value if m.group("sign") in ("-", "\u2212") else value, PERCENT, start, end,
                        text[start:end])


def find_percents(text: str) -> list[MoneyMention]:
    """Every percentage in `text` (see `_percent_re`), its value in percent, its currency `PERCENT`."""
    if not _percent_like(text):
        return []
    clean, index = _clean(text)
    return [_percent(m, index[m.start()], index[m.end() - 1] + 1, text) for m in _percent_re().finditer(clean)]


def parse_percent(text: str) -> MoneyMention | None:
    """`text` as one percentage (`12.5%`, `12,5 %`, `-3 percent`), or None if it is anything else."""
    if not _percent_like(text):
        return None
    stripped = _clean(text)[0].strip().rstrip(".").strip()
    m = _percent_re().fullmatch(stripped)
    return _percent(m, 0, len(stripped), stripped) if m else None


def find_like(text: str, want: MoneyMention | None) -> list[MoneyMention]:
    """The mentions in `text` that can be compared with `want`: its percentages for a percentage,
    else its amounts (`find_money`)."""
    return find_percents(text) if want is not None and want.currency == PERCENT else find_money(text)


def find_agreeing(text: str, want: MoneyMention) -> list[MoneyMention]:
    """`find_like`'s mentions that say `want` (`MoneyMention.agrees`), in order: looked up by
    value in an index of the text's mentions (each of a long answer's values looked for on a
    page went through the page's every amount: 200 on a page of a statement)."""
    return [m for m in _by_value(text, want.currency == PERCENT).get(want.value, ()) if m.agrees(want)]


@functools.lru_cache(maxsize=256)
def _by_value(text: str, percent: bool) -> dict[Decimal, tuple[MoneyMention, ...]]:
    out: dict[Decimal, list[MoneyMention]] = {}
    for m in find_percents(text) if percent else _find_money(text):
        out.setdefault(m.value, []).append(m)
    return {value: tuple(ms) for value, ms in out.items()}


def parse_typed(text: str) -> MoneyMention | None:
    """`text` as a person types one value: an amount (its groups may be spaced, `13 537,01 €`:
    `spaced_groups`) or a percentage (`12,5 %`), or None if it is neither."""
    return parse_money(spaced_groups(text)) or parse_percent(text)
