"""The `fields` matcher: structured extraction graded value by value against `case.gold`.

The gold of an extraction case (`case.gold`, a JSON object):

    {
      "expected": {...} | [{...}, ...],     # one record, or a list of records (rows)
      "fields": {                           # optional; default: every key of the expected records
        "name":  {"normalizer": "text", "threshold": 0.9},
        "date":  {"normalizer": "date", "dayfirst": false},
        "phone": {"normalizer": "phone"},
        "total": {"normalizer": "money"},
        "qty":   {"normalizer": "number", "tolerance": 0}
      },
      "records_key": "rows",                # optional: where the list sits in an answer object
      "pass_f1": 1.0,                       # optional: the F1 a correct answer reaches (default 1.0)
      "schema": {...}                       # optional JSON Schema of the answer; informative only
    }

A field name may be a dotted path (`address.city`) into nested objects.

Normalisers: `text` (default; Unicode-folded, case-insensitive, whitespace collapsed, edge
punctuation stripped), `case` (same as text), `punctuation` (text with punctuation and spaces
removed, so `INV-1001` equals `inv 1001`),
`exact` (only surrounding whitespace trimmed), `date` (parsed to ISO `YYYY-MM-DD` from ISO,
`12 March 2025`, `March 12, 2025`, `03/12/2025` (month first unless `dayfirst`); an unparseable
date falls back to text), `phone` (digits only), `money` (compared as money, see `money.py`),
`number` (equal within `tolerance`). A `threshold` below 1 accepts near matches: the similarity of
the two normalised strings (difflib's ratio) must reach it.

Scoring. The answer's JSON (a ```json block, else the first JSON object or array in the text) is
turned into records. Expected and given records are paired to maximise the number of matching
values (optimal assignment, so row order never matters). A missing key, `null` and `""` are all
null. Each non-null expected value is a true positive when its paired value matches, else a false
negative; each non-null given value that does not match (a wrong value, a value where the gold is
null, every value of an extra row) is a false positive. Keys outside the field list are ignored.
Precision, recall and F1 are over values; with nothing expected and nothing given all three are 1.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.extraction import ExtractionGold, FieldSpec
from workbench.core.schema import JSONObject
from workbench.core.words import counted
from workbench.grading.verdict import Verdict
from workbench.text.answer_json import parse_answer_json
from workbench.text.dates import to_iso_date
from workbench.text.money import parse_money, parse_percent, spaced_groups
from workbench.text.search import Part, find_refusal, find_text

HUNGARIAN_MAX = 120   # above this many rows on the short side, pair greedily (O(n^3) gets slow)

# (string.punctuation written out: `string` compiles its Template's pattern on import)
_PUNCT = str.maketrans("", "", "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~" + "\u2018\u2019\u201c\u201d\u2013\u2014")


# ---- reading the answer -------------------------------------------------------------------

def _records(parsed: Any, expected_is_list: bool, records_key: str | None) -> list[JSONObject]:
    if isinstance(parsed, dict) and expected_is_list:
        if records_key and isinstance(parsed.get(records_key), list):
            parsed = parsed[records_key]
        else:
            lists = [v for v in parsed.values() if isinstance(v, list) and all(isinstance(x, dict) for x in v)]
            if len(lists) == 1:
                parsed = lists[0]
    if isinstance(parsed, dict):
        return [parsed]
    if isinstance(parsed, list):
        return [r if isinstance(r, dict) else {} for r in parsed]
    return []


def _get(record: JSONObject, path: str) -> Any:
    if path in record:
        return record[path]
    node: Any = record
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def _as_text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


# ---- normalisers ----------------------------------------------------------------------------

def _text(value: str) -> str:
    value = unicodedata.normalize("NFKC", value).casefold()
    return " ".join(value.split()).strip(" .,;:!?\"'")


def _number(value: str) -> Decimal | None:
    mention = parse_money(spaced_groups(value))
    if mention is not None:
        return mention.value
    try:
        return Decimal(value.strip())
    except InvalidOperation:
        return None


class FieldRule:
    """How one field's values are normalised and compared (`core.extraction.FieldSpec`, checked
    where the case was read)."""

    def __init__(self, name: str, spec: FieldSpec) -> None:
        self.name = name
        self.normalizer: str = spec.normalizer or "text"
        self.threshold = float(1.0 if spec.threshold is None else spec.threshold)
        self.tolerance = Decimal(str(0 if spec.tolerance is None else spec.tolerance))
        self.dayfirst = bool(spec.dayfirst)

    def normalise(self, value: str) -> str:
        n = self.normalizer
        if n == "exact":
            return value.strip()
        if n == "punctuation":
            return "".join(_text(value).translate(_PUNCT).split())
        if n == "date":
            return to_iso_date(value, self.dayfirst) or _text(value)
        if n == "phone":
            return re.sub(r"\D", "", value)
        return _text(value)

    def _settings(self) -> tuple[str, float, Decimal, bool]:
        return self.normalizer, self.threshold, self.tolerance, self.dayfirst

    # Rules that compare alike are equal (their field names aside): the similarity cache below
    # shares its entries between them.
    def __eq__(self, other: object) -> bool:
        return isinstance(other, FieldRule) and self._settings() == other._settings()

    def __hash__(self) -> int:
        return hash(self._settings())

    # (a pure function of the rule and the two values: the triage queue and regrade grade the
    # same answers under one key version after another, so the pairs recur)
    @functools.lru_cache(maxsize=65536)  # noqa: B019 (bounded; rules are small)
    def similarity(self, expected: str, given: str) -> float:
        if self.normalizer in ("money", "number"):
            if self.normalizer == "money":
                # (each value is one amount, so its groups may be typed with plain spaces)
                a, b = parse_money(spaced_groups(expected)), parse_money(spaced_groups(given))
                if a is not None and b is not None:
                    return 1.0 if a.agrees(b) else 0.0
            x, y = _number(expected), _number(given)
            if x is None and y is None:   # `25%` is `25 %`, `25.0 percent` (and no bare 25)
                p, q = parse_percent(expected), parse_percent(given)
                x, y = (p.value, q.value) if p is not None and q is not None else (None, None)
            if x is not None and y is not None:
                return 1.0 if abs(x - y) <= self.tolerance else 0.0
        a, b = self.normalise(expected), self.normalise(given)
        if a == b:
            return 1.0
        if self.threshold >= 1.0:
            return 0.0
        from difflib import SequenceMatcher  # the fuzzy matcher's alone: not loaded to grade a key

        sm = SequenceMatcher(None, a, b, autojunk=False)
        if sm.real_quick_ratio() < self.threshold or sm.quick_ratio() < self.threshold:
            return 0.0
        return sm.ratio()

    def matches(self, expected: str, given: str) -> bool:
        return self.similarity(expected, given) >= min(self.threshold, 1.0)


# ---- assignment -----------------------------------------------------------------------------

def hungarian(score: Sequence[Sequence[float]]) -> list[tuple[int, int]]:
    """Pairs (row, col) that maximise the total score; every row or every column is paired."""
    n = len(score)
    m = len(score[0]) if n else 0
    if not n or not m:
        return []
    transposed = n > m
    if transposed:
        score = [list(col) for col in zip(*score, strict=True)]
        n, m = m, n
    big = max(max(r) for r in score)
    cost = [[big - v for v in row] for row in score]
    inf = float("inf")
    u, v = [0.0] * (n + 1), [0.0] * (m + 1)
    p, way = [0] * (m + 1), [0] * (m + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = p[j0], inf, 0
            row = cost[i0 - 1]
            for j in range(1, m + 1):
                if not used[j]:
                    cur = row[j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    pairs = [(p[j] - 1, j - 1) for j in range(1, m + 1) if p[j]]
    if transposed:
        pairs = [(b, a) for a, b in pairs]
    return sorted(pairs)


def greedy_pairs(score: Sequence[Sequence[float]]) -> list[tuple[int, int]]:
    """Best-first pairing: good enough for very large tables, where the exact one is too slow."""
    cells = sorted(((s, i, j) for i, row in enumerate(score) for j, s in enumerate(row)),
                   key=lambda c: (-c[0], c[1], c[2]))
    rows: set[int] = set()
    cols: set[int] = set()
    pairs = []
    for _, i, j in cells:
        if i not in rows and j not in cols:
            rows.add(i)
            cols.add(j)
            pairs.append((i, j))
    return sorted(pairs)


# ---- grading --------------------------------------------------------------------------------

def _rules(gold: ExtractionGold, expected: list[JSONObject]) -> list[FieldRule]:
    if gold.fields is None:
        names: list[str] = []
        for rec in expected:
            names.extend(k for k in rec if k not in names)
        return [FieldRule(n, FieldSpec()) for n in names]
    return [FieldRule(n, spec) for n, spec in gold.fields]


def _locate(answer: str, value: Any) -> tuple[int, int] | None:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if not text:
        return None
    pos = answer.find(text)
    return (pos, pos + len(text)) if pos >= 0 else None


def grade_fields(case: Case, answer: str) -> Verdict:
    gold = case.gold
    if gold is None or not gold.has_expected:
        raise UserError(f"{case.id}: the fields matcher needs gold with an 'expected' record or list")
    raw_expected = gold.expected
    expected_is_list = isinstance(raw_expected, list)
    expected = [r for r in (raw_expected if expected_is_list else [raw_expected]) if isinstance(r, dict)]
    rules = _rules(gold, expected)
    pass_f1 = float(1.0 if gold.pass_f1 is None else gold.pass_f1)
    parsed = parse_answer_json(answer)
    given = _records(parsed, expected_is_list, gold.records_key) if parsed is not None else []

    exp_vals = [[_as_text(_get(r, f.name)) for f in rules] for r in expected]
    giv_vals = [[_as_text(_get(r, f.name)) for f in rules] for r in given]

    def pair_score(i: int, j: int) -> float:
        hits, soft = 0, 0.0
        for k, rule in enumerate(rules):
            e, g = exp_vals[i][k], giv_vals[j][k]
            if e is not None and g is not None:
                s = rule.similarity(e, g)
                soft += s
                hits += s >= min(rule.threshold, 1.0)
        return hits + soft / (len(rules) + 1)

    score = [[pair_score(i, j) for j in range(len(given))] for i in range(len(expected))]
    if min(len(expected), len(given)) <= HUNGARIAN_MAX:
        pairs = hungarian(score)
    else:
        pairs = greedy_pairs(score)
    pairs = [(i, j) for i, j in pairs if score[i][j] >= 1]   # a pair with no matching value is no pair
    paired_e = {i: j for i, j in pairs}
    paired_g = set(paired_e.values())

    tp = fp = fn = 0
    parts: list[Part] = []
    wrong: list[str] = []
    for i, row in enumerate(exp_vals):
        j = paired_e.get(i)
        for k, rule in enumerate(rules):
            e = row[k]
            g = giv_vals[j][k] if j is not None else None
            ok = e is not None and g is not None and rule.matches(e, g)
            if e is not None:
                label = f"[{i}].{rule.name}" if expected_is_list else rule.name
                raw_given = _get(given[j], rule.name) if j is not None else None
                parts.append(Part(f"{label}: {e}", ok, g, _locate(answer, raw_given) if g is not None else None))
                if ok:
                    tp += 1
                else:
                    fn += 1
                    if g is not None:
                        fp += 1
                    if j is not None:
                        wrong.append(rule.name)
            elif g is not None:
                fp += 1
    for j, row in enumerate(giv_vals):
        if j not in paired_g:
            fp += sum(v is not None for v in row)
    precision = tp / (tp + fp) if tp + fp else (1.0 if tp + fn == 0 else 0.0)
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0

    # A trap is named only with the forbidden value and where the parsed answer has it: free text
    # without JSON is unparsable, whatever it mentions.
    forbidden = [] if parsed is None else [
        p for p in (find_text(answer, f) for f in case.forbidden_answers) if p.matched]
    correct = parsed is not None and f1 >= pass_f1 - 1e-9 and not forbidden
    missing_rows = len(expected) - len(pairs)
    extra_rows = len(given) - len(pairs)
    refusal = find_refusal(answer) if parsed is None else None
    if parsed is None:
        reason = (f"refused ({refusal!r}): no JSON in the answer" if refusal
                  else "unparsable: no JSON object or array found in the answer")
    else:
        stats = f"F1 {f1:.2f} (precision {precision:.2f}, recall {recall:.2f}; {tp} of {tp + fn} values)"
        problems = []
        if missing_rows and expected_is_list:
            problems.append(f"{counted(missing_rows, 'row')} missing")
        if extra_rows and expected_is_list:
            problems.append(counted(extra_rows, "extra row"))
        if wrong:
            names = sorted(set(wrong))
            problems.append(f"wrong or missing {', '.join(names[:5])}{' …' if len(names) > 5 else ''}")
        if forbidden:
            places = ", ".join(f"{p.expected} (as {p.found!r} at {p.span[0]})" if p.span else p.expected
                               for p in forbidden)
            problems.append(f"fell for the trap: the answer gives {places}")
        if correct:
            reason = f"fields match: {stats}"
        else:
            reason = f"{stats} below {pass_f1:.2f}" if f1 < pass_f1 - 1e-9 else stats
            if problems:
                reason += ": " + "; ".join(problems)
    return Verdict(
        case_id=case.id, matcher="fields", correct=correct, parts=parts, forbidden=forbidden,
        fell_for_trap=bool(forbidden) and not correct, refused=refusal is not None, hedged=False,
        unparsable=parsed is None and refusal is None,
        reason=reason, precision=round(precision, 6), recall=round(recall, 6), f1=round(f1, 6),
        details={"rows_expected": len(expected), "rows_given": len(given), "rows_paired": len(pairs),
                 "pairs": [list(p) for p in pairs], "true_positives": tp, "false_positives": fp,
                 "false_negatives": fn, "json_found": parsed is not None},
    )
