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

import unicodedata
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.matcher import MATCHERS, MatcherSpec
from workbench.core.schema import JSONObject
from workbench.grading.verdict import Verdict, execution_state, is_truncated
from workbench.text.dates import parse_date, same_day
from workbench.text.money import (
    currencies_agree,
    find_like,
    parse_money,
    parse_percent,
    parse_typed,
    spaced_groups,
)
from workbench.text.search import (
    EDGE_PUNCT,
    UNIFY_MARKS,
    Part,
    find_all,
    find_hedge,
    find_refusal,
    find_text,
    fold_needle,
)

# Grading reads at most this much of an answer: a run file from elsewhere may hold an answer of
# any size (the body cap only bounds our own calls).
MAX_GRADED_CHARS = 1_000_000

# ---- matchers ------------------------------------------------------------------------------

def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _tokens(case: Case, spec: MatcherSpec, key: str) -> list[str]:
    raw = spec.tokens if key == "tokens" else spec.keywords
    if raw is None:
        raw = case.expected_tokens or ([case.expected_answer] if key == "tokens" else case.expected_answer.split())
    return [str(t) for t in raw]


def _decimal(value: Any, what: str, case: Case) -> Decimal:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return Decimal(str(value))
    mention = parse_typed(str(value))
    if mention is None:
        try:
            return Decimal(str(value).strip())
        except InvalidOperation:
            raise UserError(f"{case.id}: numeric matcher: {what} {value!r} is not a number") from None
    return mention.value


def match_contains(case: Case, spec: MatcherSpec, answer: str) -> list[Part]:
    return [find_text(answer, case.expected_answer)]


def match_tokens(case: Case, spec: MatcherSpec, answer: str) -> list[Part]:
    return [find_text(answer, t) for t in _tokens(case, spec, "tokens")]


def match_keywords(case: Case, spec: MatcherSpec, answer: str) -> list[Part]:
    return [find_text(answer, k, whole_word=True) for k in _tokens(case, spec, "keywords")]


def _exact_form(text: str, case_sensitive: bool) -> str:
    text = unicodedata.normalize("NFKC", text).translate(UNIFY_MARKS)
    text = " ".join(text.split()).strip(EDGE_PUNCT)
    return text if case_sensitive else text.lower()


def match_exact(case: Case, spec: MatcherSpec, answer: str) -> list[Part]:
    expected = str(_value(case, spec))
    want, got = parse_money(spaced_groups(expected)), parse_money(answer)
    if want is None and got is None:   # `25%` is `25 %`, `25.0 percent`
        want, got = parse_percent(expected), parse_percent(answer)
    days = parse_date(expected) if want is None else None   # `2025-03-12` is `12 March 2025`
    if want is not None and got is not None:
        ok = want.agrees(got)
    elif days is not None:
        ok = same_day(days, parse_date(answer) or frozenset())
    else:
        cs = bool(spec.case_sensitive)
        ok = _exact_form(answer, cs) == _exact_form(expected, cs)
    stripped = answer.strip()
    start = answer.find(stripped) if stripped else 0
    return [Part(expected, ok, stripped if ok else None, (start, start + len(stripped)) if ok else None)]


def _value(case: Case, spec: MatcherSpec) -> Any:
    """What `exact` and `numeric` compare: the spec's `value`, else the expected answer."""
    return case.expected_answer if spec.value is None else spec.value


def _numeric_finder(case: Case, spec: MatcherSpec) -> Callable[[str, Any], list[Part]]:
    """Every number in an answer within the spec's tolerance of a target, as Parts."""
    tol = _decimal(0 if spec.tolerance is None else spec.tolerance, "tolerance", case)
    relative = bool(spec.relative)

    def find(answer: str, target: Any) -> list[Part]:
        label = str(target)
        want = None if isinstance(target, int | float) else parse_typed(label)
        value = _decimal(target, "expected value", case)
        limit = abs(value) * tol if relative else tol
        out = []
        for m in find_like(answer, want):   # (a percentage among the answer's percentages: `12,6 %`, not `12.6`)
            if want is not None and not currencies_agree(want.currency, m.currency):
                continue
            if abs(m.value - value) <= limit:
                out.append(Part(label, True, m.text, (m.start, m.end)))
        return out

    return find


def needle_finder(case: Case) -> Callable[[str, str], list[Part]]:
    """How this case's matcher finds one value (an expected part or a forbidden answer) in a
    text: every occurrence. The lint asks this of page text, so it sees what the grader sees."""
    spec = case.matcher_spec
    kind = spec.kind
    numeric = _numeric_finder(case, spec) if kind == "numeric" else None
    whole_word = kind == "keywords_all"

    def find(text: str, needle: str) -> list[Part]:
        if numeric is not None and parse_typed(needle) is not None:
            return numeric(text, needle)
        return find_all(text, needle, whole_word=whole_word)

    return find


def matcher_needles(case: Case) -> list[str]:
    """The values the case's matcher looks for in an answer, each of which must be found."""
    spec = case.matcher_spec
    kind = spec.kind
    if kind == "tokens_all":
        return _tokens(case, spec, "tokens")
    if kind == "keywords_all":
        return _tokens(case, spec, "keywords")
    if kind in ("exact", "numeric"):
        return [str(_value(case, spec))]
    if kind == "fields":
        return [str(t) for t in case.expected_tokens] or [case.expected_answer]
    return [case.expected_answer]


def forbidden_needles(case: Case) -> list[str]:
    """The answers that fall for the trap: the key's forbidden answers, and the value a drifted
    text layer elicits (answering it is falling for the trap)."""
    forbidden = [str(f) for f in case.forbidden_answers]
    drifted = case.degrade.drifted_answer if case.degrade else None
    if drifted and drifted not in forbidden:
        forbidden.append(str(drifted))
    return forbidden


def match_numeric(case: Case, spec: MatcherSpec, answer: str) -> list[Part]:
    target = _value(case, spec)
    found = _numeric_finder(case, spec)(answer, target)
    return [found[0] if found else Part(str(target), False)]


TEXT_MATCHERS: dict[str, Callable[[Case, MatcherSpec, str], list[Part]]] = {
    "contains": match_contains,
    "tokens_all": match_tokens,
    "keywords_all": match_keywords,
    "exact": match_exact,
    "numeric": match_numeric,
}


def find_forbidden(case: Case, spec: MatcherSpec, answer: str) -> list[Part]:
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
    kind = spec.kind
    if kind == "fields":
        # (an extraction case's: the other matchers need none of its gold's types)
        from workbench.grading.fields import grade_fields

        return grade_fields(case, answer or "")
    if kind not in TEXT_MATCHERS:
        raise UserError(f"{case.id}: unknown matcher {kind!r}; use one of {', '.join(MATCHERS)}")
    answer = answer or ""
    # Read with its amounts as a person types them ("13 537,01 €", `money.spaced_groups`): a copy
    # of the same length, so each part's span is one into the answer, whose text it then shows.
    read = spaced_groups(answer)
    parts = TEXT_MATCHERS[kind](case, spec, read)
    forbidden = find_forbidden(case, spec, read)
    if read is not answer:
        for part in (*parts, *forbidden):
            if part.span is not None:
                part.found = answer[part.span[0]:part.span[1]]
    all_found = bool(parts) and all(p.matched for p in parts)
    details: JSONObject = {}
    if kind in ("tokens_all", "keywords_all") and all_found and forbidden:
        details["forbidden_ignored"] = [p.to_json() for p in forbidden]
        forbidden = []
    hedge = find_hedge(answer, case.expected_answer)
    no_hedge = bool(spec.no_hedge)
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
