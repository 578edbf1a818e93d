"""The values an answer states: amounts, numbers, dates, identifiers, section references, quoted
phrases, the fields of a JSON answer and of a labelled one (`a=$X | b=capped`); a short answer
with none of these is one phrase. Attribution traces each; the lint looks for a decoy printed in
another form by its values."""

from __future__ import annotations

import re
from typing import Any

from workbench.text.answer_json import parse_answer_json
from workbench.text.dates import find_dates
from workbench.text.money import find_money, spaced_groups
from workbench.text.search import Apart

_SECTION = re.compile(r"(?:\b(?:clause|section|article|schedule|annex|table|figure)\s+|§\s*)"
                      r"\d+(?:\.\d+)*[a-z]?\b", re.IGNORECASE)
_IDENT = re.compile(r"\b(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z-])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+\b"
                    r"|\b[A-Z]{1,4}\d{1,6}\b|\b\d{3,}-\d{2,}\b")
_PHONE = re.compile(r"(?<![\w+])\+?\(?\d{1,4}\)?(?:[ .-]?\(?\d{2,5}\)?){2,4}(?![\w])")
_NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?![\w])")
_QUOTED = re.compile(r"\"([^\"\n]{3,120})\"|\u201c([^\u201d\n]{3,120})\u201d")
# A number joined to the word it counts ("12-month", "30-day"): the number is the value.
_COUNTED = re.compile(r"\d+(?:\.\d+)?-[a-z]+")
# A labelled answer, in the form a question asks for ("a=$X | b=capped|uncapped | c=$Y").
_LABELLED = re.compile(r"(?:^|[|;\n])\s*[A-Za-z][\w ]{0,20}?\s*=\s*([^|;\n]+?)\s*(?=$|[|;\n])")
# A short answer with no value in it is one phrase ("Email", "Q4 2023"), up to this many words.
PHRASE_WORDS = 8
# A longer answer's first values are read from a part of it, four times longer each time until
# it holds enough (`first_values`); a value ending this near the part's end may run on past it.
HEAD_CHARS = 32_768
_CUT_MARGIN = 256


def _json_leaves(answer: str) -> list[str]:
    """The string and number values of the JSON object or array the answer gives, as the grader
    reads it (`answer_json.parse_answer_json`; not its keys)."""
    if "{" not in answer and "[" not in answer:
        return []
    data = parse_answer_json(answer)
    if not isinstance(data, dict | list):
        return []
    out: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif isinstance(node, str | int | float) and not isinstance(node, bool) and str(node).strip():
            out.append(str(node))

    walk(data)
    return out


def answer_values(answer: str) -> list[tuple[int, int, str]]:
    """(start, end, text) of each value the answer states, in the answer's order. An amount
    typed with plain spaces between its groups (`13 537,01 €`) is one value, as the grader reads
    it (`money.spaced_groups`); `text.search.find_all` looks for such a value as the amount."""
    taken = Apart()
    out: list[tuple[int, int, str]] = []
    read = spaced_groups(answer)   # (the same length: its indexes are the answer's)

    def take(a: int, b: int) -> None:
        if taken.take(a, b):
            out.append((a, b, answer[a:b]))

    leaves = _json_leaves(answer)
    if leaves:  # an extraction answer: each field's value is one value
        pos = 0
        for leaf in leaves:
            at = answer.find(leaf, pos)
            if at >= 0:
                take(at, at + len(leaf))
                pos = at + len(leaf)
        return sorted(out)

    for m in _QUOTED.finditer(answer):
        g = 1 if m.group(1) is not None else 2
        take(m.start(g), m.end(g))
    for m in _LABELLED.finditer(answer):
        if not any(c.isdigit() for c in m.group(1)):  # (a figure is taken as the figure it is, below)
            take(m.start(1), m.end(1))
    for _days, a, b in find_dates(answer):   # (as the grader reads a date: `text.dates`)
        take(a, b)
    for m in _SECTION.finditer(answer):
        take(m.start(), m.end())
    for m in _PHONE.finditer(answer):
        if sum(c.isdigit() for c in m.group(0)) >= 9 and (" " in m.group(0) or m.group(0).startswith("+")):
            take(m.start(), m.end())
    for m in _IDENT.finditer(answer):
        if not _COUNTED.fullmatch(m.group()):  # "12-month" is a number of months, not a name
            take(m.start(), m.end())
    for mention in find_money(read):
        take(mention.start, mention.end)
    for m in _NUMBER.finditer(answer):
        take(m.start(), m.end())
    if not out:
        text = answer.strip().strip(".!")
        if text and len(text.split()) <= PHRASE_WORDS:
            a = answer.find(text)
            take(a, a + len(text))
    return sorted(out)


def first_values(answer: str, limit: int) -> tuple[list[tuple[int, int, str]], int | None]:
    """The first `limit` of `answer_values(answer)`, and how many values the answer states (None:
    more than `limit`, and it was not read to its end). Each kind of value is looked for over
    the whole text, so a long answer is read a part at a time (`HEAD_CHARS`, then four times as
    much), up to the last value that cannot run on past the part: a 7.4 MB answer took 39 s to
    read whole for its first thousand values. A JSON answer is read whole."""
    if len(answer) > HEAD_CHARS and not _json_leaves(answer):
        size = HEAD_CHARS
        while size < len(answer):
            kept = []
            for value in answer_values(answer[:size]):   # (in the answer's order)
                if value[1] > size - _CUT_MARGIN:
                    break   # it, or a value after it, may be another one in the whole answer
                kept.append(value)
            if len(kept) > limit:
                return kept[:limit], None
            size *= 4
    values = answer_values(answer)
    return values[:limit], len(values)
