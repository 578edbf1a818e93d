"""Matchers: does an answer say what the key expects? Chosen per case by `case.matcher_spec`.

- `contains`: the answer contains the expected answer, whitespace- and case-tolerant. When the
  expected answer is a number or an amount, it is compared as money (see `money.py`): whole
  numeric tokens, equal values, currencies that do not contradict.
- `tokens_all`: every token (spec `tokens`, else the case's `expected_tokens`) appears, any order,
  each compared like `contains`.
- `keywords_all`: every keyword (spec `keywords`, else `expected_tokens`) appears as a whole word;
  with `"no_hedge": true` an answer that hedges ("appears to", "I cannot read ... clearly") fails.
- `exact`: the whole answer equals the expected answer, ignoring case, surrounding whitespace,
  quotes and a trailing full stop (`"case_sensitive": true` keeps case); amounts compare as money.
- `numeric`: some number in the answer is within `tolerance` of the expected value (spec `value`,
  else the expected answer); `"relative": true` makes the tolerance a fraction of the value.
- `fields`: structured extraction graded against `case.gold` (see `fields.py`).

Forbidden answers are looked for in every answer, the same way as the expected one. A correct
answer must not also contain a forbidden one, except for `tokens_all`/`keywords_all` answers that
have every token: there the forbidden text is often a fragment of a complete answer (pdfhell's
rule), so it is listed in `details["forbidden_ignored"]` instead.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.runs import MAX_GRADED_CHARS
from workbench.grading.money import ZERO_WIDTH, find_money, parse_money
from workbench.grading.verdict import Part, Verdict

MATCHERS = ("contains", "tokens_all", "keywords_all", "exact", "numeric", "fields")

_TRANSLATE = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201b": "'", "\u2032": "'", "\u201c": '"', "\u201d": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
    "\ufe63": "-", "\uff0d": "-",
})
_EDGE_PUNCT = " .,;:!?\"'`"

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
    for m in re.finditer(r"\S+|\s+", text):
        word = m.group()
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


@functools.lru_cache(maxsize=256)
def _fold(text: str, glyphs: bool) -> tuple[str, list[int]]:
    if text.isascii() and not (glyphs and _DIGIT_LOOKALIKE_RE.search(text)):
        return _fold_ascii(text)
    if glyphs:
        text, src = read_glyphs(text)
    else:
        src = None
    out: list[str] = []
    index: list[int] = []
    space = True
    for i, raw in enumerate(text):
        if is_format_char(raw):
            continue
        for ch in unicodedata.normalize("NFKC", raw).translate(_TRANSLATE).lower():
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


def _fold_ascii(text: str) -> tuple[str, list[int]]:
    """`fold` of ASCII text, by chunks: only case and spacing change."""
    out: list[str] = []
    index: list[int] = []
    for m in _CHUNK.finditer(text):
        if m.group()[0].isspace():
            if out:
                out.append(" ")
                index.append(m.start())
        else:
            out.append(m.group().lower())
            index.extend(range(m.start(), m.end()))
    if out and out[-1] == " ":
        out.pop()
        index.pop()
    return "".join(out), index


def fold_needle(text: str) -> str:
    return fold(text)[0].strip(_EDGE_PUNCT)


_WORD_EDGE = "\"'()[]{}.,;:!?-"


def fold_word(token: str) -> str:
    """One word as compared with another: folded, its outer punctuation and brackets stripped."""
    return fold(token)[0].strip(_WORD_EDGE)


def find_all(answer: str, needle: str, whole_word: bool = False) -> list[Part]:
    """Every place `answer` says `needle`, tolerant of case and spacing; amounts compared as
    money (whole numeric tokens, equal values, currencies that agree). Non-overlapping, in order."""
    money = parse_money(needle)
    if money is not None:
        return [Part(needle, True, m.text, (m.start, m.end)) for m in find_money(answer) if m.agrees(money)]
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
    return out


def find_text(answer: str, needle: str, whole_word: bool = False) -> Part:
    """The first place `answer` says `needle` (see `find_all`), or an unmatched Part."""
    found = find_all(answer, needle, whole_word)
    return found[0] if found else Part(needle, False)


# ---- refusals and hedges -----------------------------------------------------------------

_REFUSAL = re.compile("|".join([
    r"\bi (?:cannot|can ?not|can't|won't|will not|am unable|'m unable|am not able|'m not able)\b",
    r"\bunable to\b", r"\bnot able to\b",
    r"\b(?:do not|don't|does not|doesn't) (?:have access|contain|include|show|mention)\b",
    r"\bno (?:information|pdf|document|file|attachment|image)\b",
    r"\b(?:cannot|can't|could not|couldn't) (?:determine|find|locate|read|see|access|answer|identify)\b",
    r"\bnot (?:visible|legible|readable|provided|available|specified|stated)\b",
    r"\bi'?m sorry\b", r"\bi am sorry\b", r"\bi apologi[sz]e\b", r"\billegible\b",
]))
_HEDGE = re.compile("|".join([
    r"\b(?:appears?|seems?) to\b", r"\b(?:it|this|that) (?:appears|seems|looks like)\b",
    r"\bprobably\b", r"\bpossibly\b", r"\bperhaps\b", r"\blikely\b", r"\bmight\b", r"\bmay be\b",
    r"\bi (?:think|believe|guess|assume|suspect)\b", r"\bnot (?:sure|certain|clear|clearly|fully)\b",
    r"\b(?:can't|cannot|can ?not|couldn't|not) be (?:fully |completely |entirely |100% )?(?:sure|certain)\b",
    r"\bunclear\b", r"\buncertain\b", r"\bapproximately\b", r"\bmy best guess\b",
    r"\b(?:hard|difficult) to (?:read|make out|see|tell|discern)\b",
    r"\b(?:cannot|can't|can ?not|unable to|not able to|could not|couldn't) (?:read|see|make out|discern)\b",
    r"\billegible\b", r"\bblurry\b", r"\bunreadable\b", r"\[\?\]", r"\?\?",
]))


def find_refusal(answer: str) -> str | None:
    """The phrase that makes `answer` a refusal, `"(empty answer)"`, or None."""
    text = fold(answer)[0]
    if not text:
        return "(empty answer)"
    m = _REFUSAL.search(text)
    return m.group(0) if m else None


def find_hedge(answer: str, quoted: str = "") -> str | None:
    """The answer's first hedging phrase, or None. Phrases that `quoted` (the expected text) has
    itself are allowed as often as it has them: a verbatim "I reckon I might say" is no hedge."""
    allowed = Counter(m.group(0) for m in _HEDGE.finditer(fold(quoted)[0])) if quoted else Counter()
    for m in _HEDGE.finditer(fold(answer)[0]):
        if allowed[m.group(0)] > 0:
            allowed[m.group(0)] -= 1
            continue
        return m.group(0)
    return None


# ---- matchers ------------------------------------------------------------------------------

def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _tokens(case: Case, spec: dict[str, Any], key: str) -> list[str]:
    raw = spec.get(key)
    if raw is None:
        raw = case.expected_tokens or ([case.expected_answer] if key == "tokens" else case.expected_answer.split())
    if not isinstance(raw, list) or not all(isinstance(t, str | int | float) for t in raw):
        raise UserError(f"{case.id}: matcher {spec.get('type')} needs {key!r} as a list of strings")
    return [str(t) for t in raw]


def _decimal(value: Any, what: str, case: Case) -> Decimal:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return Decimal(str(value))
    mention = parse_money(str(value))
    if mention is None:
        try:
            return Decimal(str(value).strip())
        except InvalidOperation:
            raise UserError(f"{case.id}: numeric matcher: {what} {value!r} is not a number") from None
    return mention.value


def match_contains(case: Case, spec: dict[str, Any], answer: str) -> list[Part]:
    return [find_text(answer, case.expected_answer)]


def match_tokens(case: Case, spec: dict[str, Any], answer: str) -> list[Part]:
    return [find_text(answer, t) for t in _tokens(case, spec, "tokens")]


def match_keywords(case: Case, spec: dict[str, Any], answer: str) -> list[Part]:
    return [find_text(answer, k, whole_word=True) for k in _tokens(case, spec, "keywords")]


def _exact_form(text: str, case_sensitive: bool) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_TRANSLATE)
    text = " ".join(text.split()).strip(_EDGE_PUNCT)
    return text if case_sensitive else text.lower()


def match_exact(case: Case, spec: dict[str, Any], answer: str) -> list[Part]:
    expected = str(spec.get("value", case.expected_answer))
    want, got = parse_money(expected), parse_money(answer)
    if want is not None and got is not None:
        ok = want.agrees(got)
    else:
        cs = bool(spec.get("case_sensitive"))
        ok = _exact_form(answer, cs) == _exact_form(expected, cs)
    stripped = answer.strip()
    start = answer.find(stripped) if stripped else 0
    return [Part(expected, ok, stripped if ok else None, (start, start + len(stripped)) if ok else None)]


def _numeric_finder(case: Case, spec: dict[str, Any]) -> Callable[[str, Any], list[Part]]:
    """Every number in an answer within the spec's tolerance of a target, as Parts."""
    tol = _decimal(spec.get("tolerance", 0), "tolerance", case)
    relative = bool(spec.get("relative"))

    def find(answer: str, target: Any) -> list[Part]:
        label = str(target)
        want = parse_money(label) if not isinstance(target, int | float) else None
        value = _decimal(target, "expected value", case)
        limit = abs(value) * tol if relative else tol
        out = []
        for m in find_money(answer):
            if want is not None and want.currency and m.currency and m.currency != want.currency:
                continue
            if abs(m.value - value) <= limit:
                out.append(Part(label, True, m.text, (m.start, m.end)))
        return out

    return find


def needle_finder(case: Case) -> Callable[[str, str], list[Part]]:
    """How this case's matcher finds one value (an expected part or a forbidden answer) in a
    text: every occurrence. The lint asks this of page text, so it sees what the grader sees."""
    spec = case.matcher_spec
    kind = spec.get("type")
    numeric = _numeric_finder(case, spec) if kind == "numeric" else None
    whole_word = kind == "keywords_all"

    def find(text: str, needle: str) -> list[Part]:
        if numeric is not None and parse_money(needle) is not None:
            return numeric(text, needle)
        return find_all(text, needle, whole_word=whole_word)

    return find


def matcher_needles(case: Case) -> list[str]:
    """The values the case's matcher looks for in an answer, each of which must be found."""
    spec = case.matcher_spec
    kind = str(spec.get("type", "contains"))
    if kind == "tokens_all":
        return _tokens(case, spec, "tokens")
    if kind == "keywords_all":
        return _tokens(case, spec, "keywords")
    if kind in ("exact", "numeric"):
        return [str(spec.get("value", case.expected_answer))]
    if kind == "fields":
        return [str(t) for t in case.expected_tokens] or [case.expected_answer]
    return [case.expected_answer]


def forbidden_needles(case: Case) -> list[str]:
    """The answers that fall for the trap: the key's forbidden answers, and the value a drifted
    text layer elicits (answering it is falling for the trap)."""
    forbidden = [str(f) for f in case.forbidden_answers]
    drifted = (case.degrade or {}).get("drifted_answer")
    if drifted and drifted not in forbidden:
        forbidden.append(str(drifted))
    return forbidden


def match_numeric(case: Case, spec: dict[str, Any], answer: str) -> list[Part]:
    target = spec.get("value", case.expected_answer)
    found = _numeric_finder(case, spec)(answer, target)
    return [found[0] if found else Part(str(target), False)]


TEXT_MATCHERS: dict[str, Callable[[Case, dict[str, Any], str], list[Part]]] = {
    "contains": match_contains,
    "tokens_all": match_tokens,
    "keywords_all": match_keywords,
    "exact": match_exact,
    "numeric": match_numeric,
}


def find_forbidden(case: Case, spec: dict[str, Any], answer: str) -> list[Part]:
    """The forbidden answers that `answer` contains, found the way the matcher finds the expected one."""
    find = needle_finder(case)
    out = []
    for f in forbidden_needles(case):
        found = find(answer, f)
        if found:
            out.append(found[0])
    return out


def _describe(part: Part) -> str:
    if part.found is None or fold_needle(part.found) == fold_needle(part.expected):
        return part.expected
    return f"{part.expected} (as {part.found!r})"


def grade(case: Case, answer: str | None) -> Verdict:
    """Grade one answer against the case's key. Pure: no I/O."""
    if answer and len(answer) > MAX_GRADED_CHARS:
        answer = answer[:MAX_GRADED_CHARS]  # a hostile answer must not cost gigabytes to grade
    spec = case.matcher_spec
    kind = str(spec.get("type", "contains"))
    if kind == "fields":
        from workbench.grading.fields import grade_fields

        return grade_fields(case, answer or "")
    if kind not in TEXT_MATCHERS:
        raise UserError(f"{case.id}: unknown matcher {kind!r}; use one of {', '.join(MATCHERS)}")
    answer = answer or ""
    parts = TEXT_MATCHERS[kind](case, spec, answer)
    all_found = bool(parts) and all(p.matched for p in parts)
    forbidden = find_forbidden(case, spec, answer)
    details: dict[str, Any] = {}
    if kind in ("tokens_all", "keywords_all") and all_found and forbidden:
        details["forbidden_ignored"] = [p.to_json() for p in forbidden]
        forbidden = []
    hedge = find_hedge(answer, case.expected_answer)
    no_hedge = bool(spec.get("no_hedge"))
    correct = all_found and not forbidden and not (no_hedge and hedge)
    fell = bool(forbidden) and not all_found
    refusal = None if (all_found or forbidden) else find_refusal(answer)
    missing = [p.expected for p in parts if not p.matched]

    if correct:
        if len(parts) == 1:
            reason = f"found the expected {_describe(parts[0])}"
        else:
            reason = f"found all {len(parts)} expected {'keywords' if kind == 'keywords_all' else 'tokens'}"
        if hedge:
            reason += f" (the answer hedges: {hedge!r})"
    elif fell:
        names = ", ".join(_describe(p) for p in forbidden)
        reason = f"fell for the trap: answered {names} instead of the expected {case.expected_answer or ', '.join(missing)}"
    elif forbidden:
        names = ", ".join(_describe(p) for p in forbidden)
        reason = f"gave both the expected answer and the trap's {names}"
    elif all_found and no_hedge and hedge:
        reason = f"every keyword found, but the answer hedges ({hedge!r}) and this case forbids hedging"
    elif refusal:
        reason = "refused: empty answer" if refusal == "(empty answer)" else f"refused ({refusal!r}): {_short(answer)!r}"
    elif len(parts) == 1:
        reason = f"expected {parts[0].expected} not found in {_short(answer)!r}"
    else:
        reason = f"missing {len(missing)} of {len(parts)}: {', '.join(missing[:5])}{' …' if len(missing) > 5 else ''}"
    return Verdict(
        case_id=case.id, matcher=kind, correct=correct, parts=parts, forbidden=forbidden,
        fell_for_trap=fell, refused=refusal is not None, hedged=hedge is not None, reason=reason,
        details=details,
    )


def grade_record(case: Case, record: Any) -> Verdict | None:
    """Grade a run record's answer; None when the call did not finish (a provider error, a
    timeout, a block: never a wrong answer). Truncated answers are graded and marked `truncated`."""
    from workbench.grading.verdict import execution_state, is_truncated

    status = str(getattr(record, "status", "") or "")
    if execution_state(status) != "finished":
        return None
    verdict = grade(case, getattr(record, "answer", None))
    verdict.truncated = is_truncated(status, getattr(record, "finish_reason", None))
    if status == "refused" and not verdict.correct:
        verdict.refused = True
        if not verdict.fell_for_trap:
            verdict.reason = f"refused: the provider reports a refusal ({getattr(record, 'finish_reason', None) or 'no finish reason'})"
    if verdict.truncated:
        verdict.reason += " [answer truncated]"
    return verdict
