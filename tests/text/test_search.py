"""Folding and finding (workbench/text/search.py): the one way an answer or a page's text is
searched for a value, and what makes an answer a refusal or a hedge."""

from __future__ import annotations

import random
import re._parser as sre_parse
import unicodedata

import pytest

from workbench.text import search
from workbench.text.search import (
    find_all,
    find_hedge,
    find_refusal,
    find_text,
    fold,
    folded,
    read_glyphs,
)


def test_fold_is_case_spacing_and_look_alike_marks_with_the_original_indexes():
    text = "Net\u00a0 Amount \u2014 \u201cDUE\u201d\n"
    folded, index = fold(text)
    assert folded == 'net amount - "due"'
    assert [text[i] for i in index][:3] == ["N", "e", "t"] and len(index) == len(folded)
    assert fold("A\u200bB")[0] == "ab"                      # a format character is nothing


def test_read_glyphs_reads_look_alike_letters_as_a_person_sees_them():
    assert read_glyphs("Т\u043eтаl")[0].lower().startswith("to")      # Cyrillic Т, о
    assert fold("\u0422otal", glyphs=True)[0] == "total"


@pytest.mark.parametrize("answer, needle, found", [
    ("The TOTAL  due", "total due", "TOTAL  due"),
    ("It is $1,234.56 in all", "1234.56 USD", "$1,234.56"),           # money compared as money
    ("It is $11,234.56 in all", "$1,234.56", None),                   # never a piece of a token
    ("It is €1,234.56", "$1,234.56", None),                           # currencies contradict
])
def test_find_text_is_tolerant_of_case_and_spacing_and_compares_money_as_money(answer, needle, found):
    part = find_text(answer, needle)
    assert part.matched is (found is not None) and part.found == found
    if found:
        assert answer[part.span[0]:part.span[1]] == found


def test_find_all_finds_each_place_and_whole_word_keeps_to_words():
    assert [p.span for p in find_all("cat catalog cat", "cat")] == [(0, 3), (4, 7), (12, 15)]
    assert [p.span for p in find_all("cat catalog cat", "cat", whole_word=True)] == [(0, 3), (12, 15)]


@pytest.mark.parametrize("answer, refusal", [
    ("I cannot read the document.", "i cannot"), ("Sorry, I'm sorry.", "i'm sorry"), ("", "(empty answer)"),
    ("The amount is not visible in the scan", "not visible"), ("$1,234.56", None),
])
def test_find_refusal(answer, refusal):
    assert find_refusal(answer) == refusal


def test_a_hedge_is_found_unless_the_expected_text_has_it_too():
    assert find_hedge("The total appears to be $5") == "appears to"
    assert find_hedge("The total is $5") is None
    assert find_hedge("I think I might say", quoted="I think I might say") is None
    assert find_hedge("I think I might say, probably", quoted="I think I might say") == "probably"


def _first_chars(parsed) -> set[str]:
    """The characters a parsed pattern can start with (assertions such as \\b skipped)."""
    for op, av in parsed:
        if op is sre_parse.AT:
            continue
        if op is sre_parse.LITERAL:
            return {chr(av)}
        if op is sre_parse.SUBPATTERN:
            return _first_chars(av[-1])
        if op is sre_parse.BRANCH:
            return set().union(*(_first_chars(branch) for branch in av[1]))
        raise AssertionError(f"a hedge starting with {op}: give _HEDGE_FIRST its characters")
    return set()


def _writings(parsed) -> list[str]:
    """Every text a parsed pattern of literals, alternatives and `?` matches (\\b skipped)."""
    out = [""]
    for op, av in parsed:
        if op is sre_parse.AT:
            continue
        if op is sre_parse.LITERAL:
            choices = [chr(av)]
        elif op is sre_parse.SUBPATTERN:
            choices = _writings(av[-1])
        elif op is sre_parse.BRANCH:
            choices = [w for branch in av[1] for w in _writings(branch)]
        elif op is sre_parse.MAX_REPEAT and av[0] == 0 and av[1] == 1:
            choices = ["", *_writings(av[2])]
        else:
            raise AssertionError(f"a hedge with {op}: teach this test (and _HEDGE_WORDS) its writings")
        out = [head + tail for head in out for tail in choices]
    return out


def test_every_writing_of_every_hedge_holds_a_word_the_search_looks_for_first():
    """`find_hedge` runs its pattern only on an answer with one of `_HEDGE_WORDS` in it: a phrase
    added to `_HEDGES` without its word would never be found."""
    writings = [w for phrase in search._HEDGES for w in _writings(sre_parse.parse(phrase))]
    assert len(writings) > 60 and "can not be 100% sure" in writings
    for writing in writings:
        assert any(word in writing for word in search._HEDGE_WORDS), writing
        assert find_hedge(f"The total, {writing}, is $5") == writing


def test_every_hedge_starts_with_a_character_the_search_skips_to():
    for phrase in search._HEDGES:
        assert _first_chars(sre_parse.parse(phrase)) <= set(search._HEDGE_FIRST), phrase
    assert find_hedge("Seems to be $5; it looks like $6") == "seems to"
    assert find_hedge("[?] 5") == "[?]"


def _fold_char_by_char(text: str, glyphs: bool) -> tuple[str, list[int]]:
    """What `fold` means, one character at a time (`fold` takes words of ASCII whole): each
    character not a format one, NFKC, marks unified, lower-cased; a run of spaces one space."""
    src = None
    if glyphs:
        text, src = read_glyphs(text)
    chars = [(" " if ch.isspace() else ch, i if src is None else src[i])
             for i, raw in enumerate(text) if not search.is_format_char(raw)
             for ch in unicodedata.normalize("NFKC", raw).translate(search.UNIFY_MARKS).lower()]
    kept = [c for n, c in enumerate(chars) if c[0] != " " or (n and chars[n - 1][0] != " ")]
    while kept and kept[-1][0] == " ":
        kept.pop()
    return "".join(ch for ch, _ in kept), [i for _, i in kept]


def test_fold_of_mixed_text_is_fold_character_by_character():
    # spaces of every kind, format characters, letters whose NFKC form has a space (U+00A8) or two
    # letters, look-alikes, digits, a Turkish I that lower-cases to two characters
    tricky = list("aB3 \t\n.,$-'\"Ol") + ["\u00a0", "\u200b", "\u00ad", "\u00a8", "\u00b4", "\u0130", "\u00df",
                                         "\uff11", "\u2019", "\u2013", "\u041e", "\u043e", "\u3000", "\x1c",
                                         "\x85", "\ufb01", "\u0301", "\u2028", "\u2168", "\ufeff", "\u20ac"]
    rnd = random.Random(37)
    for _ in range(4000):
        text = "".join(rnd.choice(tricky) for _ in range(rnd.randint(0, 16)))
        for glyphs in (False, True):
            assert fold(text, glyphs) == _fold_char_by_char(text, glyphs), (text, glyphs)
        assert folded(text) == fold(text)[0], text
    # Text whose every character folds to one (a whole text is then folded in one pass of C).
    one_to_one = [c for c in tricky if search._one(c) is not None]
    assert len(one_to_one) >= 20
    for _ in range(4000):
        text = "".join(rnd.choice(one_to_one) for _ in range(rnd.randint(0, 24)))
        assert fold(text) == _fold_char_by_char(text, False), text
