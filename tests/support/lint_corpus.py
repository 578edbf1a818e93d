"""A hand-labelled corpus for the lint: for each thing the lint must get right, a case where the
finding must fire and a look-alike where it must not. The truth is written by hand here, from
what each PDF was built to hold; `confusion()` scores a lint against it.

Each entry: a name, the question it tests (`what`), a key and a PDF, the truth (does the
finding fire?), and the test of "fires" on a list of findings. The tests are phrased so that the
lint of an earlier version (other codes for the same thing) can be scored too: "an error or
warning that the expected tokens are not on the page", "an error", "a hidden-layer trap info".

Run `python -m tests.support.lint_corpus` to print the confusion table of the lint in PYTHONPATH.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen.canvas import Canvas

from workbench.core.case import Case
from workbench.core.contract import parse_contract
from workbench.core.matcher import MatcherSpec


@dataclass
class Entry:
    name: str
    what: str                       # the finding this entry tests
    truth: bool                     # must the finding fire?
    case: Case | None
    pdf: bytes | None
    fires: Callable[[list[Any]], bool]
    # A generated case (a degraded scan takes seconds): made when a test first needs it, not
    # when pytest collects the corpus's names.
    make: Callable[[], tuple[Case, bytes]] | None = None

    def loaded(self) -> Entry:
        if self.make is not None:
            self.case, self.pdf = self.make()
            self.make = None
        return self


def _pdf(draw: Callable[[Canvas], None]) -> bytes:
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=LETTER, invariant=1)
    c.setFont("Helvetica", 11)
    draw(c)
    c.showPage()
    c.save()
    return buf.getvalue()


def _line(text: str, y: float = 640, mode: int = 0, x: float = 72) -> Callable[[Canvas], None]:
    def draw(c: Canvas) -> None:
        t = c.beginText(x, y)
        t.setFont("Helvetica", 11)
        t.setTextRenderMode(mode)
        t.textOut(text)
        c.drawText(t)
    return draw


def _lines(*draws: Callable[[Canvas], None]) -> bytes:
    return _pdf(lambda c: [d(c) for d in draws])


def _tj(words: list[str], y: float = 610) -> Callable[[Canvas], None]:
    """Words separated by -333 TJ offsets and no space glyph, as pdfLaTeX writes them."""
    def draw(c: Canvas) -> None:
        c.setFont("Helvetica", 11)  # registers /F1 for the raw operators
        body = " -333 ".join(f"({w})" for w in words)
        c._code.append(f"BT /F1 11 Tf 72 {y} Td [{body}] TJ ET")
    return draw


def _case(cid: str, expected: str, forbidden=(), tokens=(), contract=None, metadata=None,
          question: str = "What is asked?", **kw: Any) -> Case:
    return Case(id=cid, trap_family="corpus", seed=1, question=question, expected_answer=expected,
                forbidden_answers=list(forbidden), expected_tokens=list(tokens),
                contract=None if contract is None else parse_contract(contract),
                metadata=metadata or {}, **{k: MatcherSpec.parse(v) if k == "matcher" else v for k, v in kw.items()})


def _codes(findings, severities=("error", "warning")) -> list[str]:
    return [f.code for f in findings if f.severity in severities]


def _not_on_page(findings) -> bool:
    """An error or warning that an expected token or answer is not (visibly) on the page."""
    return any(c.startswith(("tokens-not", "expected-not")) for c in _codes(findings))


def _any_error(findings) -> bool:
    return bool(_codes(findings, ("error",)))


def _hidden_layer_trap(findings) -> bool:
    return any(f.code == "forbidden-hidden-only" for f in findings)


def _trap_broken(findings) -> bool:
    """An error that the decoy is not where the trap needs it."""
    return any(c == "trap-disarmed" or c.startswith("forbidden-not") for c in _codes(findings, ("error",)))


@functools.cache
def entries() -> list[Entry]:
    from workbench.build.make import generate_case

    out: list[Entry] = []
    fees = _lines(_line("Termination: 12 months of fees are due at once."))

    # 1. Tokens are found as the grader finds them: a case-insensitive substring.
    out.append(Entry("substring-token", "tokens not on the page", False,
                     _case("sub-ok", "12 months", tokens=["12 month", "FEES"]), fees, _not_on_page))
    out.append(Entry("substring-token-absent", "tokens not on the page", True,
                     _case("sub-bad", "18 months", tokens=["18 month"]), fees, _not_on_page))
    out.append(Entry("keyword-whole-word", "tokens not on the page", True,   # keywords_all: whole words
                     _case("kw-bad", "12 months", matcher={"type": "keywords_all", "keywords": ["month"]}),
                     fees, _not_on_page))
    out.append(Entry("identifier-is-no-amount", "tokens not on the page", True,
                     _case("inv-bad", "$5.00"), _lines(_line("Invoice INV-5, paid in full")), _not_on_page))
    money = _lines(_line("Total due: EUR 1.234,56 (one thousand two hundred and thirty-four)"))
    out.append(Entry("european-amount", "tokens not on the page", False,
                     _case("eur-ok", "EUR 1,234.56"), money, _not_on_page))
    out.append(Entry("european-amount-other", "tokens not on the page", True,
                     _case("eur-bad", "EUR 1,234.65"), money, _not_on_page))

    # 2. Derived answers: computed from visible parts, printed nowhere.
    sums = _lines(_line("Subtotal $1,000.00"), _line("Tax rate 8%", 620))
    derived = [{"target": "expected", "where": "derived", "parts": ["meta:subtotal", "Tax rate 8%"],
                "how": "subtotal plus tax"}]
    out.append(Entry("derived-parts-visible", "an error", False,
                     _case("der-ok", "$1,080.00", contract=derived, metadata={"subtotal": "$1,000.00"}),
                     sums, _any_error))
    out.append(Entry("derived-part-missing", "an error", True,
                     _case("der-bad", "$1,080.00", contract=derived, metadata={"subtotal": "$1,200.00"}),
                     sums, _any_error))
    out.append(Entry("no-contract-computed", "an error", False,
                     _case("comp-ok", "$1,080.00"), sums, _any_error))
    out.append(Entry("no-contract-hidden-answer", "an error", True,
                     _case("comp-hidden", "$1,080.00"),
                     _lines(_line("Subtotal $1,000.00"), _line("Total $1,080.00", 620, mode=3)), _any_error))

    # 3. Words separated by glyph positions, no space characters (pdfLaTeX).
    tex = _lines(_tj("Hello, here is some text without a meaning.".split()))
    out.append(Entry("position-spaced", "tokens not on the page", False,
                     _case("tex-ok", "x", tokens=["some text without"]), tex, _not_on_page))
    out.append(Entry("position-spaced-absent", "tokens not on the page", True,
                     _case("tex-bad", "x", tokens=["some text within"]), tex, _not_on_page))

    # 4. A scanned hidden-layer case at each text-layer mode: only `none` removes the decoy.
    for family, params in (("hidden_ocr_mismatch", {"visible_total_layer": "text"}), ("white_text_injection", {})):
        for layer in ("none", "faithful", "drifted"):
            make = functools.partial(generate_case, family, 1, params, {"tier": "heavy", "text_layer": layer})
            out.append(Entry(f"scan-{family}-{layer}", "an error", layer == "none", None, None, _any_error, make))

    # 5. Findings follow from what the page and the layers hold.
    out.append(Entry("hidden-decoy", "a hidden-layer trap", True,
                     _case("hid-ok", "$4,711.00", ["$9,999.00"]),
                     _lines(_line("TOTAL DUE $4,711.00"), _line("$9,999.00", 620, mode=3)), _hidden_layer_trap))
    out.append(Entry("hidden-decoy-hidden-answer", "a hidden-layer trap", False,
                     _case("hid-both", "$4,711.00", ["$9,999.00"]),
                     _lines(_line("TOTAL DUE $4,711.00", mode=3), _line("$9,999.00", 620, mode=3)),
                     _hidden_layer_trap))
    out.append(Entry("decoy-nowhere", "a hidden-layer trap", False,
                     _case("hid-none", "$4,711.00", ["$9,999.00"]), _lines(_line("TOTAL DUE $4,711.00")),
                     _hidden_layer_trap))

    # 6. A disarmed decoy: the contract wants it hidden, the PDF does not hold it.
    hidden_trap = [{"target": "expected", "where": "visible"}, {"target": "forbidden", "where": "hidden"}]
    out.append(Entry("decoy-disarmed", "the trap is not armed", True,
                     _case("dis-bad", "$4,711.00", ["$9,999.00"], contract=hidden_trap),
                     _lines(_line("TOTAL DUE $4,711.00")), _trap_broken))
    out.append(Entry("decoy-armed", "the trap is not armed", False,
                     _case("dis-ok", "$4,711.00", ["$9,999.00"], contract=hidden_trap),
                     _lines(_line("TOTAL DUE $4,711.00"), _line("$9,999.00", 620, mode=3)), _trap_broken))
    return out


def confusion(lint: Callable[[Case, bytes], list[Any]] | None = None) -> tuple[dict[str, int], list[str]]:
    """TP/FP/TN/FN of `lint` on the corpus, and one line per entry it gets wrong."""
    if lint is None:
        from workbench.checks.lint import lint_case as lint
    table = {"TP": 0, "FP": 0, "TN": 0, "FN": 0}
    wrong = []
    for e in entries():
        e.loaded()
        fired = e.fires(lint(e.case, e.pdf))
        key = ("T" if fired == e.truth else "F") + ("P" if fired else "N")
        table[key] += 1
        if fired != e.truth:
            wrong.append(f"{key} {e.name}: {e.what} {'fired' if fired else 'did not fire'}")
    return table, wrong


if __name__ == "__main__":
    table, wrong = confusion()
    print("  ".join(f"{k} {v}" for k, v in table.items()))
    for line in wrong:
        print("  " + line)
