"""Values printed nowhere, traced to what is printed (workbench/checks/unprinted.py): a misreading
one character off, an amount restated in a currency that contradicts it, arithmetic of printed
numbers. The document is the values its pages print, as attribution's lookup hands them over."""

from __future__ import annotations

from dataclasses import dataclass

from workbench.checks.unprinted import arithmetic, in_another_currency, misread
from workbench.core.case import Case


@dataclass
class Printed:
    """A document by the values it prints: (page, text) in reading order."""

    case: Case
    values: list[tuple[int, str]]
    numbers: list | None = None
    keyed: dict | None = None

    def page_count(self) -> int:
        return 1 + max(page for page, _ in self.values)

    def spans(self, page: int) -> list:
        return []


def _invoice() -> Printed:
    case = Case(id="c", trap_family="adopted", seed=0, pdf_path="c.pdf", question="What is the total due?",
                expected_answer="$1,234.56", forbidden_answers=[])
    return Printed(case, [(0, "$1,234.56"), (0, "€20,794.00"),
                          (1, "$640.00"), (1, "$388.80"), (1, "$12.10"), (1, "$7.35"), (1, "$101.15")])


def test_a_value_one_character_off_a_printed_one_is_a_misreading_named_as_ocr_s_when_it_is():
    doc = _invoice()
    assert misread(doc, "$1,284.56") == (1, "'$1,234.56' read as '$1,284.56' (3→8; a typical OCR confusion)", 0)
    assert misread(doc, "$1,234.5") == (1, "'$1,234.56' read as '$1,234.5' (6→∅)", 0)
    assert misread(doc, "$9,999.99") is None
    # A page's `10` (an invoice number) is no misreading of `-$1.00`, one digit and a point off.
    numbered = Printed(doc.case, [(0, "Faktura 10"), (0, "10"), (0, "1,01")])
    assert misread(numbered, "-$1.00") == (1, "'1,01' read as '-$1.00' (1→0)", 0)
    assert misread(Printed(doc.case, [(0, "10")]), "-$1.00") is None
    assert misread(Printed(doc.case, [(0, "10")]), "100") == (1, "'10' read as '100' (∅→0)", 0)


def test_an_amount_in_a_currency_that_contradicts_the_printed_one_is_found_on_its_page():
    doc = _invoice()
    assert in_another_currency(doc, "$20,794.00") == (0, "€20,794.00")
    assert in_another_currency(doc, "€20,794.00") is None      # printed as it is: not a restatement
    assert in_another_currency(doc, "20794") is None            # no currency to contradict
    krona = Printed(doc.case, [(0, "12\u00a0500,00 kr")])
    assert in_another_currency(krona, "SEK 12,500.00") is None  # `kr` is the Swedish krona's too
    assert in_another_currency(krona, "$12,500.00") == (0, "12\u00a0500,00 kr")


def test_a_sum_a_product_and_a_run_of_line_items_are_named_with_their_page():
    doc = _invoice()
    assert arithmetic(doc, "$1,028.80") == "$640.00 + $388.80, printed on page 2"
    assert arithmetic(doc, "$4,704.00") == "$640.00 × $7.35, printed on page 2"
    assert arithmetic(doc, "$120.60") == "the sum of the 3 figures $12.10 + $7.35 + $101.15, printed on page 2"
    assert arithmetic(doc, "$251.60") == ""


def test_a_small_whole_amount_is_arithmetic_of_numbers_near_each_other_only_and_of_cents_where_it_has_them():
    case = _invoice().case
    far = Printed(case, [(0, "25"), (23, "24")])            # two invoice numbers 23 pages apart
    assert arithmetic(far, "1") == "" and arithmetic(far, "-$1.00") == ""
    near = Printed(case, [(1, "3"), (2, "2")])
    assert arithmetic(near, "1") == "3 - 2, printed on pages 2, 3"
    assert arithmetic(near, "-$1.00") == ""                 # no cents on either side of it
    assert arithmetic(Printed(case, [(0, "$3.00"), (0, "2")]), "$1.00") == "$3.00 - 2, printed on page 1"


def test_arithmetic_finds_the_pair_that_looking_at_every_pair_finds(monkeypatch):
    """`arithmetic` looks at each number's few possible partners (`_pairs`: bisection among the
    sorted values), not every pair: on random documents (whole numbers and cents, on pages near
    and far apart, repeats, a product's rounding, numbers past a float's exactness) it names what
    looking at every pair in order names."""
    import random

    from workbench.checks import unprinted

    rng = random.Random(7)
    case = _invoice().case

    def amount() -> str:
        kind = rng.random()
        if kind < 0.3:
            return str(rng.randint(1, 60))
        if kind < 0.6:
            return f"${rng.randint(1, 999)}.{rng.randint(0, 99):02d}"
        if kind < 0.8:
            return f"{rng.choice([1.5, 2.25, 12.5, 0.05, 3.0])}"
        return f"€{rng.randint(10**6, 10**17):,}.{rng.randint(0, 99):02d}"

    asked = found = 0
    for _ in range(60):
        values = [(rng.choice([0, 1, 2, 5]), amount()) for _ in range(rng.randint(2, 40))]
        nums = [v for _p, v in values]
        wants = [*(f"{a}+{b}" for a, b in zip(nums, nums[1:], strict=False)), *(amount() for _ in range(5))]
        for want in wants:
            if "+" in want:   # a sum, difference or product of two of the document's numbers
                a, b = (unprinted.parse_money(x) for x in want.split("+"))
                if a is None or b is None:
                    continue
                op = rng.choice(["+", "-", "*"])
                value = a.value + b.value if op == "+" else a.value - b.value if op == "-" else a.value * b.value
                want = f"{abs(value):.2f}"
            fast = arithmetic(Printed(case, values), want)
            with monkeypatch.context() as m:
                m.setattr(unprinted, "_pairs", lambda floats, v, products=True: (
                    (i, j) for i in range(len(floats)) for j in range(i + 1, len(floats))))
                slow = arithmetic(Printed(case, values), want)
            assert fast == slow, (values, want)
            asked += 1
            found += bool(fast)
    assert asked > 1000 and found > 150, (asked, found)
