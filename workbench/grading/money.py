"""Amounts of money (and plain numbers) found in free text, compared as values.

A mention is a whole numeric token, never a piece of a larger one: in `$11,234.56` there is no
`$1,234.56`. A currency may be written before (`$`, `US$`, `USD`, `€`, `EUR 1,234.56`) or after
(`1,234.56 USD`) the number. Two mentions agree when their signed values are equal and their
currencies do not contradict: an omitted currency agrees with any, `$` agrees with `USD`,
`EUR` does not agree with `USD`. Thousands separators are commas in groups of three; the decimal
mark is a point. European `1.234,56` is not read as money (it is ambiguous; it matches nothing).
"""

from __future__ import annotations

import re
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
_CUR = "|".join(re.escape(m) for m in sorted(CURRENCY_MARKERS, key=len, reverse=True))
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+"
_MONEY_RE = re.compile(
    rf"(?<![\w.,])"                                      # not inside a larger token
    rf"(?:(?P<sign1>[-\u2212])\s?)?"
    rf"(?:(?P<prefix>{_CUR})\s?(?:(?P<prefix2>{_CUR})\s?)?)?"
    rf"(?P<sign2>[-\u2212])?"
    rf"(?P<number>{_NUMBER})"
    rf"(?![\d]|[.,]\d)"                                  # the whole number, not a prefix of one
    rf"(?:\s?(?P<suffix>{_CUR})(?![A-Za-z]))?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class MoneyMention:
    value: Decimal
    currency: str | None      # ISO code, or None when the text names no currency
    start: int
    end: int
    text: str

    def agrees(self, other: MoneyMention) -> bool:
        if self.value != other.value:
            return False
        return self.currency is None or other.currency is None or self.currency == other.currency


_INVISIBLE = {"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"}
_SPACES = {"\u00a0", "\u2007", "\u2009", "\u202f"}


def _clean(text: str) -> tuple[str, list[int]]:
    """`text` without zero-width characters and with odd spaces made plain; original indexes."""
    out, index = [], []
    for i, ch in enumerate(text):
        if ch in _INVISIBLE:
            continue
        out.append(" " if ch in _SPACES else ch)
        index.append(i)
    return "".join(out), index


def _mention(m: re.Match[str]) -> MoneyMention | None:
    prefix, suffix = m["prefix"], m["suffix"]
    # A letter code glued to a word ("ABCUSD5") is not a currency; the lookbehind covers prefixes.
    codes = {CURRENCY_MARKERS[x.upper()] for x in (prefix, m["prefix2"], suffix) if x}
    if len(codes) > 1:
        return None  # "$5 EUR" contradicts itself
    try:
        value = Decimal(m["number"].replace(",", ""))
    except InvalidOperation:  # pragma: no cover - the pattern admits only digits
        return None
    if m["sign1"] or m["sign2"]:
        value = -value
    start = m.start()
    return MoneyMention(value, codes.pop() if codes else None, start, m.end(), m.group(0))


def find_money(text: str) -> list[MoneyMention]:
    """Every numeric token in `text`, with its currency if one is written beside it."""
    clean, index = _clean(text)
    out = []
    for m in _MONEY_RE.finditer(clean):
        mention = _mention(m)
        if mention is not None:
            start, end = index[m.start()], index[m.end() - 1] + 1
            out.append(MoneyMention(mention.value, mention.currency, start, end, text[start:end]))
    return out


def parse_money(text: str) -> MoneyMention | None:
    """`text` as one amount (`$1,234.56`, `1234.56 USD`, `-12`), or None if it is anything else."""
    stripped = _clean(text)[0].strip().rstrip(".").strip()
    m = _MONEY_RE.fullmatch(stripped)
    return _mention(m) if m else None

