"""Dates in free text, compared as days: `2025-03-12` is `12 March 2025`, `March 12th, 2025`,
`12/03/2025`, `12. März 2025` and `Wednesday, 12 de marzo de 2025`; and months: `March 2025` is
`Mar. 2025`, `2025-03`, `03/2025` and `marzo de 2025` (a statement's period, a billing month).

API:

- `to_iso_date(value, dayfirst=False)`: one date as `YYYY-MM-DD` (None if it is not one this reads):
  ISO, day-month-year and month-day-year with the month's name in English, French, German,
  Spanish, Italian, Portuguese or Dutch (long or short), a weekday or "the" before it, and
  numeric `12/03/2025` (month first unless `dayfirst`, or the first number is over 12); a month
  alone as `YYYY-MM` (its name and a four-digit year, `2025-03`, `03/2025`).
- `parse_date(text)`: the days a text that is wholly one date may mean (two for `03/12/2025`,
  which is the 12th of March in the US and the 3rd of December elsewhere), or the month, or None.
- `find_dates(text)`: every date written in a text, with the days (or month) it may mean and where
  it is; `same_day(key, found)` whether one is a key's day or month (`within`: or a day of the
  key's month, as `contains` reads `12 March 2025` to say March 2025).

The grader's `contains` and `exact` compare a key that is a date so (`text.search.find_all`), and
the extraction track's `date` normaliser uses `to_iso_date`.
"""

from __future__ import annotations

import functools
import re

_MONTHS = {m.lower(): i for i, m in enumerate(
    ["January", "February", "March", "April", "May", "June", "July", "August", "September",
     "October", "November", "December"], 1)}
_MONTHS.update({k[:3]: v for k, v in list(_MONTHS.items())})
_MONTHS["sept"] = 9
# The months as French, German, Spanish, Italian, Portuguese and Dutch documents (and the models
# reading them) write them, with their usual short forms: no name means two months.
for _i, _names in enumerate((
        "janvier janv januar jänner enero ene gennaio gen janeiro januari",
        "février févr fevrier fevr februar febrero febbraio fevereiro fev februari",
        "mars märz maerz marzo março marco maart mrt",
        "avril avr abril abr aprile",
        "mai mayo maggio mag maio mei",
        "juin juni junio giugno giu junho",
        "juillet juil juli julio luglio lug julho",
        "août aout agosto ago augustus",
        "septembre septiembre settembre set setembro",
        "octobre oktober octubre ottobre ott outubro out okt",
        "novembre noviembre novembro",
        "décembre decembre déc dezember dez diciembre dic dicembre dezembro december"), 1):
    _MONTHS.update(dict.fromkeys(_names.split(), _i))
# Three-letter names a month alone is written with (`Mar 2025`, `mai 2025`): the English short
# forms and the whole names; the other languages' short forms are words too (a day beside them
# says they are a month: `12 set 2025`).
_MONTH_WORDS = frozenset("jan feb mar apr may jun jul aug sep oct nov dec mai mei".split())
# The words a date may start with: a weekday ("Wednesday, March 12, 2025"), in the same languages.
_WEEKDAYS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun "
    "lundi mardi mercredi jeudi vendredi samedi dimanche montag dienstag mittwoch donnerstag freitag "
    "samstag sonntag lunes martes miércoles jueves viernes sábado domingo lunedì martedì mercoledì "
    "giovedì venerdì sabato domenica segunda-feira terça-feira quarta-feira quinta-feira sexta-feira "
    "maandag dinsdag woensdag donderdag vrijdag zaterdag zondag the".split())   # (and "the 12th")


def _without_weekday(text: str) -> str:
    """`text` without a weekday, then a "the", before its date: "Wednesday, the 12th of March
    2025" -> "12th of March 2025"."""
    for _ in range(2):
        words = text.split(None, 1)
        if len(words) == 2 and words[0].rstrip(".,").lower() in _WEEKDAYS:
            text = words[1]
    return text


def to_iso_date(value: str, dayfirst: bool = False) -> str | None:
    """`value` as `YYYY-MM-DD`, or None if it is not a date this reads."""
    s = value.strip().lower().replace(",", " ")
    s = _without_weekday(re.sub(r"(\d)(st|nd|rd|th|er)\b", r"\1", s))   # (1st, 1er)
    y = mo = d = None
    if m := re.fullmatch(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:t.*)?", s):
        y, mo, d = int(m[1]), int(m[2]), int(m[3])
    elif m := re.fullmatch(r"(\d{1,2})[\s\-/.]+(?:(?:de|of)\s+)?([^\W\d_]+)\.?(?:\s+de)?[\s\-/.]+(\d{2,4})", s):
        d, mo, y = int(m[1]), _MONTHS.get(m[2]), int(m[3])   # (12 de marzo de 2025, 12th of March 2025)
    elif m := re.fullmatch(r"([^\W\d_]+)\.?\s+(\d{1,2})\s+(\d{2,4})", s):
        mo, d, y = _MONTHS.get(m[1]), int(m[2]), int(m[3])
    elif m := re.fullmatch(r"(\d{1,2})[-/.](\d{1,2})[-/.](\d{2,4})", s):
        a, b, y = int(m[1]), int(m[2]), int(m[3])
        mo, d = (b, a) if dayfirst or a > 12 else (a, b)
    elif m := re.fullmatch(r"(\d{4})[-/](\d{1,2})|(\d{1,2})/(\d{4})|([^\W\d_]+)\.?\s+(?:de\s+)?(\d{4})", s):
        name = m[5]
        # (not a short form that is a word too: `set`, `out`, `ago`, `gen`, "data set 2025")
        month = int(m[2] or m[3]) if name is None else _MONTHS.get(name) if len(name) > 3 or name in _MONTH_WORDS else None
        return _month(int(m[1] or m[4] or m[6]), month)
    if y is None or mo is None or d is None:
        return None
    if y < 100:
        y += 2000 if y < 70 else 1900
    import datetime as dt  # read once a date is: `grade` of an amount does not load it

    try:
        return dt.date(y, mo, d).isoformat()
    except ValueError:
        return None


def _month(year: int, month: int | None) -> str | None:
    """`YYYY-MM` of a month written alone, or None where it is none: no month 20 in the fiscal
    year `2019-20` (`2011-12` is read as December 2011), and years of 1900 to 2099 only."""
    return f"{year:04d}-{month:02d}" if month is not None and 1 <= month <= 12 and 1900 <= year < 2100 else None


def _days(text: str) -> frozenset[str]:
    """The days `text` (one date) may mean: a numeric date with both numbers at most 12 is read
    both ways; any other one way."""
    first, second = to_iso_date(text), to_iso_date(text, dayfirst=True)
    return frozenset(d for d in (first, second) if d is not None)


def parse_date(text: str) -> frozenset[str] | None:
    """The days `text` may mean when it is wholly one date written as `find_dates` finds one (so a
    sort code `28-11-58` or an id is no date), or None (see the module docstring)."""
    if len(text) > 60 or not _two_digits(text):
        return None
    text = _without_weekday(text.strip().rstrip("."))
    return (_days(text) or None) if _date_re().fullmatch(text) else None


def same_day(key: frozenset[str], found: frozenset[str], within: bool = False) -> bool:
    """Whether a date found means the day (or month) a key's date means. A key of one day is found
    in any writing that may mean it (`12/03/2025` may be the 12th of March); a key that may mean
    two (`03/12/2025`) only in a writing as open (`3.12.2025`), never in one that settles it either
    way. A month is the same month, not a day of it, unless `within`: then a key that is a month
    (`2025-03`) is found in a day that can only be in it (`12 March 2025`)."""
    if found == key or (len(key) == 1 and key <= found):
        return True
    month = next(iter(key)) if within and len(key) == 1 else ""
    return len(month) == 7 and all(day[:7] == month for day in found)


def _two_digits(text: str) -> bool:
    """A date's cheap sign: two digits in a row (a year, a day)."""
    return _pair().search(text) is not None


@functools.cache
def _pair() -> re.Pattern[str]:
    return re.compile(r"\d\d")   # (compiled when first asked: a tenth of a millisecond of every `grade`)


@functools.cache
def _date_re() -> re.Pattern[str]:
    """A date written in free text (the forms `to_iso_date` reads, a weekday aside). Compiled when
    first needed (a key that is a date), not by every `grade`."""
    word = r"[^\W\d_]{3,10}+\.?"   # (possessive: a longer word is none, without trying each shorter part)
    day = r"\d{1,2}(?:st|nd|rd|th|er|\.)?"
    year = r"\d{4}(?!\d)"
    return re.compile(
        r"(?<![\w./-])(?:"
        r"\d{4}-\d{1,2}-\d{1,2}(?![\d-])"                                   # 2025-03-12
        r"|\d{1,2}[/.]\d{1,2}[/.](?:\d{4}|\d{2})(?![\d./])"                   # 12/03/2025, 12.03.25
        rf"|{day},?\s+(?:of\s+|de\s+)?{word},?\s+(?:de\s+)?{year}"           # 12 March 2025, 12 de marzo de 2025
        rf"|{word}\s+{day},?\s+{year}"                                        # March 12, 2025
        rf"|\d{{1,2}}-{word}-(?:\d{{4}}|\d{{2}})(?![\d-])"                        # 12-Mar-25
        # a month: after the days, so a day's month is read with its day
        r"|\d{4}[-/]\d{1,2}(?![\d./-])|\d{1,2}/\d{4}(?![\d./-])"                  # 2025-03, 03/2025 (not 3-2025, a number)
        # (the year not the start of a date: "Dated 2025-03-12" is no month "Dated 2025")
        rf"|{word},?\s+(?:de\s+)?{year}(?![-/.]\d)"                              # March 2025, marzo de 2025
        r")", re.I)


def find_dates(text: str) -> list[tuple[frozenset[str], int, int]]:
    """Every date in `text` that `to_iso_date` reads: (the days it may mean, start, end). (Tuples,
    not a class: this module is loaded by every `grade`, and a dataclass costs half a millisecond.)"""
    if not _two_digits(text):
        return []
    out = []
    for m in _date_re().finditer(text):
        days = _days(m.group(0))
        if days:
            out.append((days, m.start(), m.end()))
    return out
