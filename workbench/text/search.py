"""Text folding and finding: the one way an answer, or a page's text, is searched for a value.

`fold` is text as the grader compares it (case, spacing, look-alike quotes and dashes);
`read_glyphs` is text as a person reading the glyphs sees it (look-alike letters, format
characters); `find_all`/`find_text` find a needle (amounts compared as money, `money.py`);
`find_refusal`/`find_hedge` find a refusal or a hedge. The matchers (`matchers.py`, `fields.py`),
the lint, evidence boxes, span analysis and the scan's drifted layer all use these.
"""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any

from workbench.text.dates import find_dates, parse_date, same_day
from workbench.text.money import (
    ZERO_WIDTH,
    MoneyMention,
    find_agreeing,
    parse_money,
    parse_percent,
    spaced_groups,
)


@dataclass
class Part:
    """One expected (or forbidden) part of an answer and where, if anywhere, the answer has it.

    `span` is `(start, end)` character offsets into the answer text; None when not found (or, for
    a structured field, when the value could not be located in the raw text).
    """

    expected: str
    matched: bool
    found: str | None = None
    span: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"expected": self.expected, "matched": self.matched, "found": self.found,
                "span": list(self.span) if self.span else None}


class Apart:
    """Places in a text, `(start, end)`, none overlapping another: `take(a, b)` keeps one unless it
    is empty or overlaps one kept. A bisection each, not a look at every one kept: an answer of
    20,000 numbers, or a page printing an amount 18,000 times, took minutes that way."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def take(self, a: int, b: int) -> bool:
        i = bisect.bisect_left(self.starts, a)
        if b <= a or (i and self.ends[i - 1] > a) or (i < len(self.starts) and self.starts[i] < b):
            return False   # (the kept are apart: only the neighbours of where it goes can overlap)
        self.starts.insert(i, a)
        self.ends.insert(i, b)
        return True

    def __iter__(self):
        """The places kept, in order."""
        return zip(self.starts, self.ends, strict=True)


# Look-alike quotes and dashes, each made the plain one.
UNIFY_MARKS = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201b": "'", "\u2032": "'", "\u201c": '"', "\u201d": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
    "\ufe63": "-", "\uff0d": "-",
})
EDGE_PUNCT = " .,;:!?\"'`"

# Letters of other scripts (and compatibility forms) that look like ASCII ones: what a person
# reading the glyphs sees (see `read_glyphs`).
CONFUSABLES = {
    # Cyrillic
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "Х": "X", "У": "Y", "Ѕ": "S", "І": "I", "Ј": "J", "Ԛ": "Q", "Ԝ": "W",
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s", "і": "i",
    "ј": "j", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l",
    # Greek
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ν": "v", "ρ": "p", "ι": "i",
    # Look-alike digits and punctuation
    "\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-",
    "\u2024": ".", "\u201a": ",", "\uff0c": ",", "\uff0e": ".", "\u066b": ".", "\u066c": ",",
}
# Latin letters that read as digits when they sit between digits.
_DIGIT_LOOKALIKES = {"O": "0", "o": "0", "l": "1", "I": "1"}
_DIGIT_LOOKALIKE_RE = re.compile(r"(?<=\d)[OolI](?=\d)")


def is_format_char(ch: str) -> bool:
    """A character that draws nothing and means nothing to a reader (zero-width, soft hyphen, ...)."""
    return ch in ZERO_WIDTH or unicodedata.category(ch) == "Cf"


def read_glyphs(text: str) -> tuple[str, list[int]]:
    """`text` as a person reading its glyphs sees it, and each output character's source index.

    Format characters (zero-width spaces, soft hyphens) are dropped. Look-alike letters are read
    as ASCII only in words that mix them with ASCII letters or digits, or that are made of
    look-alikes only: a Russian word with letters that have no Latin twin stays Russian. O and l
    between digits read as 0 and 1. Case and spacing are kept (see `fold` for comparing).
    """
    if text.isascii():  # nothing to read differently but O and l between digits
        return _DIGIT_LOOKALIKE_RE.sub(lambda m: _DIGIT_LOOKALIKES[m.group()], text), list(range(len(text)))
    out: list[str] = []
    where: list[int] = []
    for m in _CHUNK.finditer(text):
        word = m.group()
        if word.isascii():  # (most words of a page with a euro sign or a curly quote)
            out.append(word)
            where.extend(range(m.start(), m.end()))
            continue
        letters = [c for c in word if c.isalpha()]
        mixed = any(c.isascii() and c.isalnum() for c in word) or (
            bool(letters) and all(c in CONFUSABLES for c in letters))
        for j, ch in enumerate(word):
            if is_format_char(ch):
                continue
            if mixed:
                ch = CONFUSABLES.get(ch, ch)
                if "\uff10" <= ch <= "\uff5e":  # fullwidth forms
                    ch = chr(ord(ch) - 0xFEE0)
            out.append(ch)
            where.append(m.start() + j)
    folded = _DIGIT_LOOKALIKE_RE.sub(lambda m: _DIGIT_LOOKALIKES[m.group()], "".join(out))
    return folded, where


_CHUNK = re.compile(r"\s+|\S+")


def fold(text: str, glyphs: bool = False) -> tuple[str, list[int]]:
    """Text as the grader compares it: lower-cased, NFKC, every kind of space (no-break, thin,
    line breaks) collapsed to one, look-alike quotes and dashes unified, format characters
    dropped; and for each folded character the index of the original it came from. With
    `glyphs`, read as a person sees the glyphs first (see `read_glyphs`). Cached: the lint asks
    many needles of one page's text. The index list is shared: do not change it."""
    return _fold(text, glyphs)


# Each character's folded form where it is one character (" " for every kind of space), or None
# where folding drops it or makes it several (a format character, a ligature, "İ"): what
# `_fold_each` does to a character, kept for the characters met so far.
_ONE: dict[int, str | None] = {}
_ONE_MAX = 20_000
_SPACE_RUNS = re.compile(" {2,}")


def _one(ch: str) -> str | None:
    if ch.isascii():
        return " " if ch.isspace() else ch.lower()
    if is_format_char(ch):
        return None
    out = unicodedata.normalize("NFKC", ch).translate(UNIFY_MARKS).lower()
    return (" " if out.isspace() else out) if len(out) == 1 else None


def _fold_one_to_one(text: str) -> tuple[str, list[int]] | None:
    """`_fold_each(text, None)` where every character of `text` folds to one character (most
    text, page-long answers among it): the characters mapped in one pass of C, then each run of
    spaces made one; None where some character does not."""
    global _ONE
    table = _ONE   # (a full table is replaced, never cleared: another thread may be reading it)
    for ch in set(text):
        o = ord(ch)
        if o not in table:
            table[o] = _one(ch)
        if table[o] is None:
            return None
    if len(table) > _ONE_MAX:
        _ONE = {}
    mapped = text.translate(table)
    start, end = len(mapped) - len(mapped.lstrip(" ")), len(mapped.rstrip(" "))
    if start >= end:
        return "", []
    out: list[str] = []
    index: list[int] = []
    for m in _SPACE_RUNS.finditer(mapped, start, end):
        out.append(mapped[start:m.start() + 1])   # the run's first space stays
        index.extend(range(start, m.start() + 1))
        start = m.end()
    out.append(mapped[start:end])
    index.extend(range(start, end))
    return "".join(out), index


@functools.lru_cache(maxsize=256)
def _fold(text: str, glyphs: bool) -> tuple[str, list[int]]:
    src = None
    if glyphs and not (text.isascii() and not _DIGIT_LOOKALIKE_RE.search(text)):
        text, src = read_glyphs(text)
    return (src is None and _fold_one_to_one(text)) or _fold_each(text, src)


def _fold_each(text: str, src: list[int] | None) -> tuple[str, list[int]]:
    """`_fold` a chunk at a time (`src`: each character's index in the text read as glyphs)."""
    out: list[str] = []
    index: list[int] = []
    space = True
    for m in _CHUNK.finditer(text):
        chunk, at = m.group(), m.start()
        if chunk.isascii():   # (most words, even of a page with a euro sign or a curly quote)
            if chunk[0].isspace():
                if not space:
                    out.append(" ")
                    index.append(at if src is None else src[at])
                    space = True
            else:
                out.append(chunk.lower())
                index.extend(range(at, m.end()) if src is None else src[at:m.end()])
                space = False
            continue
        for i, raw in enumerate(chunk, at):
            if is_format_char(raw):
                continue
            for ch in unicodedata.normalize("NFKC", raw).translate(UNIFY_MARKS).lower():
                if ch.isspace():
                    if space:
                        continue
                    ch, space = " ", True
                else:
                    space = False
                out.append(ch)
                index.append(i if src is None else src[i])
    while out and out[-1] == " ":
        out.pop()
        index.pop()
    return "".join(out), index


def folded(text: str) -> str:
    """`fold(text)[0]`, the text as compared, where the index back to the original is not needed:
    ASCII text in one pass of C (a page-long answer is folded to look for a hedge in it)."""
    if text.isascii():
        return " ".join(text.split()).lower()
    return fold(text)[0]


def fold_needle(text: str) -> str:
    return folded(text).strip(EDGE_PUNCT)


_WORD_EDGE = "\"'()[]{}.,;:!?-"


def fold_word(token: str) -> str:
    """One word as compared with another: folded, its outer punctuation and brackets stripped."""
    return folded(token).strip(_WORD_EDGE)


def find_all(answer: str, needle: str, whole_word: bool = False) -> list[Part]:
    """Every place `answer` says `needle`, tolerant of case and spacing; amounts compared as
    money (whole numeric tokens, equal values, currencies that agree), a percentage as one
    (`12.5%` is `12,5 %`), a date as a day (`2025-03-12` is `12 March 2025`: `text.dates`), a
    month as a month (`March 2025` is `03/2025`, and any day of it says it). Non-overlapping, in
    order."""
    # an amount, or a percentage (`12.5%` is `12,5 %`, `12.50 percent`), however it is written
    value = parse_money(needle) or parse_percent(needle)
    if value is not None:
        return _amounts(answer, needle, value)
    days = parse_date(needle)
    if days is not None:
        # a date however it is written (`2025-03-12`, `12 March 2025`, `March 12th, 2025`, `12/03/2025`)
        return [Part(needle, True, answer[a:b], (a, b)) for found, a, b in find_dates(answer)
                if same_day(days, found, within=True)]
    want = fold_needle(needle)
    if not want:
        return []
    hay, index = fold(answer)
    if whole_word:
        pattern = re.compile(rf"(?<!\w){re.escape(want)}(?!\w)")
    else:
        pattern = re.compile(re.escape(want))
    out = []
    for m in pattern.finditer(hay):
        start, end = index[m.start()], index[m.end() - 1] + 1
        out.append(Part(needle, True, answer[start:end], (start, end)))
    typed = parse_money(spaced_groups(needle)) if " " in needle else None
    if typed is not None:
        # A key typed as a person writes the amount, plain spaces between its groups (`13 537,01 €`,
        # an adopted French invoice's): the amount however it is written, and these very
        # characters, which a page's text layer keeps as two numbers (`money.spaced_groups`).
        apart = Apart()   # (each part found has a span: the first of those that overlap is kept)
        out = [p for p in sorted(out + _amounts(answer, needle, typed), key=lambda p: p.span)
               if apart.take(*p.span)]
    return out


def _amounts(text: str, needle: str, value: MoneyMention) -> list[Part]:
    return [Part(needle, True, m.text, (m.start, m.end)) for m in find_agreeing(text, value)]


def find_text(answer: str, needle: str, whole_word: bool = False) -> Part:
    """The first place `answer` says `needle` (see `find_all`), or an unmatched Part."""
    found = find_all(answer, needle, whole_word)
    return found[0] if found else Part(needle, False)


# ---- refusals and hedges -----------------------------------------------------------------

_REFUSALS = "|".join([
    r"\bi (?:cannot|can ?not|can't|won't|will not|am unable|'m unable|am not able|'m not able)\b",
    r"\bunable to\b", r"\bnot able to\b",
    r"\b(?:do not|don't|does not|doesn't) (?:have access|contain|include|show|mention)\b",
    r"\bno (?:information|pdf|document|file|attachment|image)\b",
    r"\b(?:cannot|can't|could not|couldn't) (?:determine|find|locate|read|see|access|answer|identify)\b",
    r"\bnot (?:visible|legible|readable|provided|available|specified|stated)\b",
    r"\bi'?m sorry\b", r"\bi am sorry\b", r"\bi apologi[sz]e\b", r"\billegible\b",
])
_HEDGES = [
    r"\b(?:appears?|seems?) to\b", r"\b(?:it|this|that) (?:appears|seems|looks like)\b",
    r"\bprobably\b", r"\bpossibly\b", r"\bperhaps\b", r"\blikely\b", r"\bmight\b", r"\bmay be\b",
    r"\bi (?:think|believe|guess|assume|suspect)\b", r"\bnot (?:sure|certain|clear|clearly|fully)\b",
    r"\b(?:can't|cannot|can ?not|couldn't|not) be (?:fully |completely |entirely |100% )?(?:sure|certain)\b",
    r"\bunclear\b", r"\buncertain\b", r"\bapproximately\b", r"\bmy best guess\b",
    r"\b(?:hard|difficult) to (?:read|make out|see|tell|discern)\b",
    r"\b(?:cannot|can't|can ?not|unable to|not able to|could not|couldn't) (?:read|see|make out|discern)\b",
    r"\billegible\b", r"\bblurry\b", r"\bunreadable\b", r"\[\?\]", r"\?\?",
]
# The characters a hedge can start with: the search skips to these at C speed (2.3x faster on
# page-long answers). tests/text checks that every phrase above starts with one of them.
_HEDGE_FIRST = "abcdhilmnpstu[?"
_HEDGE = re.compile(f"(?=[{re.escape(_HEDGE_FIRST)}])(?:" + "|".join(_HEDGES) + ")")
# Every phrase above holds one of these words: an answer (folded) with none has no hedge, and
# `in` finds that at C speed before the pattern is run (an answer a page long costs the pattern
# a tenth of a millisecond; five of six answers of a 1,276-case benchmark hold none of them).
# tests/text checks that every writing of every phrase holds one.
_HEDGE_WORDS = ("appear", "seem", "looks like", "probabl", "possibl", "perhaps", "likely", "might", "may be",
                "think", "believe", "guess", "assume", "suspect", "sure", "certain", "clear", "fully",
                "approximately", "read", "make out", "see", "tell", "discern", "legible", "blurry", "[?]", "??")


@functools.cache
def _refusal() -> re.Pattern[str]:
    """`_REFUSALS` compiled when first needed: an answer with the expected value in it is never
    looked at for a refusal (half a millisecond of `grade`'s start)."""
    return re.compile(_REFUSALS)


def find_refusal(answer: str) -> str | None:
    """The phrase that makes `answer` a refusal, `"(empty answer)"`, or None."""
    text = folded(answer)
    if not text:
        return "(empty answer)"
    m = _refusal().search(text)
    return m.group(0) if m else None


def find_hedge(answer: str, quoted: str = "") -> str | None:
    """The answer's first hedging phrase, or None. Phrases that `quoted` (the expected text) has
    itself are allowed as often as it has them: a verbatim "I reckon I might say" is no hedge."""
    text = folded(answer)
    if not any(word in text for word in _HEDGE_WORDS):
        return None
    allowed = Counter(m.group(0) for m in _HEDGE.finditer(folded(quoted))) if quoted else Counter()
    for m in _HEDGE.finditer(text):
        if allowed[m.group(0)] > 0:
            allowed[m.group(0)] -= 1
            continue
        return m.group(0)
    return None
