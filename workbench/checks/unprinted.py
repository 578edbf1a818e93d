"""Values printed nowhere, traced to what is printed: a misreading of a printed value (one or two
characters off, OCR's usual confusions among them), a printed amount restated in a currency that
contradicts it, or arithmetic of printed numbers (a sum, difference or product of two, the total
of a run of line items). Attribution asks these last, when a value is in no text at all.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from decimal import Decimal
from typing import Protocol

from workbench.core.case import Case
from workbench.pdf.spans import Span
from workbench.text.money import currencies_agree, parse_money
from workbench.text.values import answer_values

# Pairs of characters OCR engines confuse (either way round).
OCR_CONFUSIONS = frozenset(frozenset(p) for p in (
    "83", "17", "0o", "5s", "1l", "1i", "68", "69", "2z", "6b", "4a", "0d", "8b", "9g", "0q", "56",
))
# Arithmetic of printed numbers: of at most this many distinct numbers (pairs of them cost its
# square), and runs of at most this many consecutive ones (the line items of a table).
ARITHMETIC_MAX_VALUES = 300
ARITHMETIC_MAX_RUN = 40
# Within a cent (0.005), with room for the floats' rounding: `_pairs`' windows.
_NEAR = 0.006


def _digits_key(text: str) -> str:
    """A value reduced to the characters a misreading changes: letters and digits, lower case."""
    return "".join(c for c in text.lower() if c.isalnum())


def _edits(a: str, b: str) -> list[tuple[str, str]] | None:
    """The substitutions turning a into b when they differ only by substituted characters, or
    by one character inserted or dropped; None when farther apart than that."""
    if len(a) == len(b):
        subs = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
        return subs if 0 < len(subs) <= 2 else None
    if abs(len(a) - len(b)) == 1:
        short, long_ = (a, b) if len(a) < len(b) else (b, a)
        for i in range(len(long_)):
            if long_[:i] + long_[i + 1:] == short:
                return [("", long_[i])] if len(a) < len(b) else [(long_[i], "")]
    return None


def document_values(doc: PrintedValues) -> list[tuple[int, str]]:
    """(page, text) of every value in the document's spans, for the misread search."""
    if doc.values is None:
        doc.values = []
        for page in range(doc.page_count()):
            text = " ".join(s.text for s in doc.spans(page))
            doc.values.extend((page, text[a:b]) for a, b, _ in answer_values(text))
    return doc.values


def _keyed_values(doc: PrintedValues) -> dict[int, list[tuple[int, int, str, str]]]:
    """The first place of each value `document_values` holds, as (order, page, text, `_digits_key`
    of it), by the key's length; worked out once per document (`misread` of each value of a long
    answer looked at every value of a 300-page PDF, 60,000 of them, each made a key again). A
    value printed again is the same misreading, and the first place of it is the one named."""
    if doc.keyed is None:
        doc.keyed = {}
        seen: set[str] = set()
        for order, (page, text) in enumerate(document_values(doc)):
            if text not in seen:
                seen.add(text)
                key = _digits_key(text)
                doc.keyed.setdefault(len(key), []).append((order, page, text, key))
    return doc.keyed


def _cents(value: Decimal) -> bool:
    """Whether an amount's value was written with a decimal part (`1.00`, `1.234,5`)."""
    return value.as_tuple().exponent < 0


def _has_fraction(text: str) -> bool | None:
    """`_cents` of the amount `text` is, or None where it is no amount."""
    m = parse_money(text)
    return None if m is None else _cents(m.value)


def misread(doc: PrintedValues, value: str) -> tuple[int, str, int | None] | None:
    """(edits, detail, page) of the printed value nearest to `value`, if one or two off. An
    amount with a decimal part is no misreading of one without (`10` is not read as `1.00`: the
    characters compared are letters and digits, and a misreading does not add the point too)."""
    want = _digits_key(value)
    if len(want) < 3:
        return None
    fraction = _has_fraction(value)
    best: tuple[int, str, int | None] | None = None
    # (only values one character longer or shorter can be one or two edits off: those, in the
    # document's order, of the values grouped by their keys' lengths once per document)
    by_length = _keyed_values(doc)
    candidates = sorted(c for n in (len(want) - 1, len(want), len(want) + 1) for c in by_length.get(n, ()))
    if printed_as_pixels(doc.case) and doc.case.expected_answer.strip():
        expected = doc.case.expected_answer.strip()
        candidates.append((len(document_values(doc)), None, expected, _digits_key(expected)))   # (last)
    for _order, page, printed, have in candidates:
        edits = _edits(have, want)
        if edits is None or (fraction is not None and _has_fraction(printed) not in (None, fraction)):
            continue
        typical = all(frozenset((x, y)) in OCR_CONFUSIONS for x, y in edits if x and y) and all(x and y for x, y in edits)
        said = ", ".join(f"{x or '∅'}→{y or '∅'}" for x, y in edits)
        detail = f"{printed!r} read as {value!r} ({said}{'; a typical OCR confusion' if typical else ''})"
        if best is None or len(edits) < best[0]:
            best = (len(edits), detail, page)
    return best


def printed_numbers(doc: PrintedValues) -> list[tuple[int | None, str, Decimal]]:
    """(page, text, value) of each distinct number the document prints, in reading order."""
    if doc.numbers is None:
        seen: set[Decimal] = set()
        doc.numbers = []
        for page, text in document_values(doc):
            m = parse_money(text)
            if m is not None and m.value and m.value not in seen and len(doc.numbers) < ARITHMETIC_MAX_VALUES:
                seen.add(m.value)
                doc.numbers.append((page, text, m.value))
    return doc.numbers


def in_another_currency(doc: PrintedValues, value: str) -> tuple[int, str] | None:
    """(page, text) of the printed amount `value` restates in a currency that contradicts it
    ("$20,794.00" for the printed "€20,794.00"), which the grader's money rule never matches."""
    want = parse_money(value)
    if want is None or not want.currency:
        return None
    for page, text, amount in printed_numbers(doc):
        printed = parse_money(text)
        if (page is not None and printed is not None and printed.currency
                and not currencies_agree(printed.currency, want.currency)
                and amount == want.value):
            return page, text
    return None


def arithmetic(doc: PrintedValues, value: str) -> str:
    """How `value` is arithmetic of numbers the document prints ("31 + 28, printed on page 1"),
    or "": a sum, a difference or a product of two, or the total of a run of consecutive ones
    (the line items, signs ignored). A whole number under 1,000 is tried as a sum or a
    difference only, of two numbers on one page or the pages either side of it, and one written
    with a decimal part where it is (many pairs of small numbers make it by chance: on a 300-page
    file of invoices numbered 1 to 300, `-$1.00` was "25 - 24, printed on pages 1, 24")."""
    want = parse_money(value)
    if want is None or not want.value:
        return ""
    v = abs(want.value)
    small = v == v.to_integral_value() and v < 1000
    cents = _cents(want.value)
    cent = Decimal("0.005")
    nums = [n for n in printed_numbers(doc) if abs(n[2]) != v]

    def where(*ns) -> str:
        pages = sorted({n[0] + 1 for n in ns if n[0] is not None})
        return f", printed on page{'s' if len(pages) > 1 else ''} {', '.join(map(str, pages))}" if pages else ""

    for i, j in _pairs([float(abs(n[2])) for n in nums], float(v), products=not small):
        a, b = nums[i], nums[j]
        if small and (a[0] is None or b[0] is None or abs(a[0] - b[0]) > 1
                      or (cents and not _cents(a[2]) and not _cents(b[2]))):
            continue
        x, y = abs(a[2]), abs(b[2])
        if abs(x + y - v) < cent:
            return f"{a[1]} + {b[1]}{where(a, b)}"
        if abs(abs(x - y) - v) < cent:
            big, little = (a, b) if x > y else (b, a)
            return f"{big[1]} - {little[1]}{where(a, b)}"
        if not small and abs(x * y - v) <= cent:  # (a product rounded to the cent, half up)
            return f"{a[1]} × {b[1]}{where(a, b)}"
    if small:
        return ""
    if v != v.to_integral_value():
        # A run of amounts in cents: a number without them between two line amounts (the "2" of
        # "Site 2" in a description) does not break the run.
        nums = [n for n in nums if "." in n[1]]
    for i in range(len(nums)):
        total = abs(nums[i][2])
        for j in range(i + 1, min(len(nums), i + ARITHMETIC_MAX_RUN)):
            total += abs(nums[j][2])
            if j - i >= 2 and abs(total - v) < cent:
                run = nums[i:j + 1]
                return f"the sum of the {len(run)} figures {' + '.join(n[1] for n in run)}{where(*run)}"
            if total > v:
                break
    return ""


def _pairs(values: list[float], v: float, products: bool = True) -> Iterator[tuple[int, int]]:
    """(i, j), i < j, in `arithmetic`'s order (by i, then j), of the pairs of `values` (the
    printed numbers' sizes, as floats) whose sum or difference, or product with `products`, may
    be within a cent of `v`: a few of each number's partners, found by bisection among the sorted
    values, not all of them (every pair of 300 numbers, worked out in Decimals, was 24 ms for
    each value of an answer found nowhere). The windows are wider than a cent by the floats'
    rounding, so every pair within a cent is among them; `arithmetic` works each out exactly."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ordered = [values[k] for k in order]

    def near(target: float, width: float) -> list[int]:
        return order[bisect_left(ordered, target - width):bisect_right(ordered, target + width)]

    for i, x in enumerate(values):
        if not (math.isfinite(x) and math.isfinite(v)):   # (past a float's range: every partner)
            yield from ((i, j) for j in range(i + 1, len(values)))
            continue
        width = _NEAR + 1e-9 * (x + 2 * v)
        found = {*near(v - x, width), *near(x - v, width), *near(x + v, width)}
        if products and x > 0:
            found.update(near(v / x, (_NEAR + 1e-9 * (v + 1)) / x))
        yield from ((i, j) for j in sorted(found) if j > i)


def printed_as_pixels(case: Case) -> bool:
    """The key's answer is printed as an image (a scan, or a contract saying pixels only)."""
    if case.degrade is not None:
        return True
    return any(c.target in ("expected", "tokens") and c.where == "pixels_only" for c in case.contract or ())


class PrintedValues(Protocol):
    """What these functions read of a document (`attribution`'s lookup of one case's PDF); they
    keep what they work out in `values`, `keyed` and `numbers`, once per document."""

    case: Case
    values: list[tuple[int, str]] | None
    keyed: dict[int, list[tuple[int, int, str, str]]] | None
    numbers: list[tuple[int | None, str, Decimal]] | None

    def page_count(self) -> int: ...

    def spans(self, page: int) -> list[Span]: ...
