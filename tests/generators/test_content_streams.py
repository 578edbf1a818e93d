"""Each parameter moves only its own content: at one seed, two values of one parameter leave the
rest of the page as it was (issue 38.2: moving `hidden_position` must not change the vendor, the
dates or the line items).

"The rest of the page" is concrete: the words of every page's text layer (both extractors) that
hold no digit (figures may follow a total or a rate) and are not the answer, a forbidden answer,
a required token or the parameter's own value. Those words at one value and at the other must be
nested: a parameter may add content (one more line item) or take some away, never swap content it
does not govern for other content. Where a parameter governs words (a label, a wording), the
family lists them below with the reason.
"""

from __future__ import annotations

import importlib
import json
import re
from typing import Any

import pytest

from workbench.generators.base import GenerationError, Param
from workbench.generators.registry import registry
from workbench.pdf.textlayer import page_texts

BUILTIN = tuple(n for n in registry().names() if registry().get(n).origin == "builtin")
SEEDS = (1, 2)

# Families whose page is pixels only (a scan without a text layer): no words to compare, so they
# are not drawn here (book_scan_passage's two pages a value took 3 of this file's 13 s).
PIXELS_ONLY = {"book_scan_passage"}

_EDGES = ".,;:()[]{}\"'*\u2020\u2021\u00a7"  # punctuation and footnote markers around a word


def _vocab(*texts: Any) -> frozenset[str]:
    """The words of `texts` (strings, or tables of them), as `_words` spells them."""
    out: set[str] = set()
    for t in texts:
        if isinstance(t, dict):
            out |= _vocab(*t.values())
        elif isinstance(t, list | tuple):
            out |= _vocab(*t)
        else:
            out |= {w.strip(_EDGES).lower() for w in str(t).split()}
    return frozenset(out)


def _module(name: str):
    return importlib.import_module(f"workbench.generators.{name}")


# (family, parameter) -> the words that parameter governs, from the family's own tables.
GOVERNS: dict[tuple[str, str], frozenset[str]] = {
    ("chart_axis_inversion", "periods"): _vocab(_module("chart_axis_inversion").MONTHS, "quarter month"),
    ("chart_axis_inversion", "months"): _vocab(_module("chart_axis_inversion").MONTHS),
    ("chart_axis_inversion", "metric"): _vocab(_module("chart_axis_inversion").METRICS),
    # The asked group shows `options` boxes, the others as many as their own streams draw.
    ("checkbox_ambiguity", "options"): _vocab(_module("checkbox_ambiguity").GROUPS),
    ("checkbox_ambiguity", "asked_group"): _vocab(_module("checkbox_ambiguity").GROUPS),
    ("checksum_rule", "rule"): _vocab(_module("checksum_rule").RULES),
    ("cross_page_citation", "decoy"): _vocab(_module("cross_page_citation").DECOYS),
    ("footnote_override", "clause"): _vocab(_module("footnote_override").CLAUSES),
    ("invoice_extraction", "trap"): _vocab("direct line email", [f"{p.split()[0].lower()}@accounts.example"
                                                                for p in _module("kit").PEOPLE]),
    ("merged_table_cells", "span"): _vocab(_module("merged_table_cells").PLANS),
    ("prompt_injection_in_body", "tone"): _vocab(_module("prompt_injection_in_body").TONES),
    # An expense report names an employee where an invoice names its customer.
    ("rotated_scan", "document"): _vocab(_module("rotated_scan").DOCS, "employee customer",
                                         _module("kit").PEOPLE, _module("kit").CUSTOMERS),
    ("visual_emphasis_rule", "cue"): _vocab(_module("visual_emphasis_rule").RULES),
}
# The disguised label is the trap: its look-alike (non-ASCII) letters are what these turn.
DISGUISES = {("unicode_confusable_label", p) for p in ("script", "swaps", "label")}


def _words(pdf: bytes) -> set[str]:
    layers = page_texts(pdf)   # (both extractors' pages, each page's work counted once for both)
    text = " ".join(layers["pymupdf"] + layers["pypdf"])
    return set(_vocab(text)) - {""}


def _others(p: Param, base: Any) -> list[Any]:
    """Values of `p` to set beside `base`."""
    if p.type == "bool":
        return [not base]
    if p.type == "choice":
        assert p.choices is not None
        return [c for c in p.choices if c != base]
    if p.type == "str":
        return [v for v in (p.pool or ()) if v != base][:2] or ["Quillfeather Holdings"]
    assert p.min is not None and p.max is not None
    lo, hi = p.min, p.max
    cast = int if p.type == "int" else float
    return [v for v in dict.fromkeys((cast(hi), cast(lo), cast((lo + base) / 2), cast((hi + base) / 2))) if v != base]


# A family's page for its seed's own values is compared with each of its parameters' changes:
# made once per worker, not once per parameter.
_PAGES: dict[str, tuple[set[str], Any]] = {}


def _page(name: str, values: dict[str, Any], seed: int) -> tuple[set[str], Any]:
    """(the words of the page these values make, its answer key)."""
    made = json.dumps([name, seed, values], sort_keys=True, default=repr)
    if made not in _PAGES:
        g = registry().get(name).generate(values, seed)
        _PAGES[made] = (_words(g.pdf), g.key)
    return _PAGES[made]


def _content(name: str, param: str, values: dict[str, Any], seed: int) -> tuple[set[str], set[str]]:
    """(the page's words, the words of its answer key and of the parameter's value)."""
    words, key = _page(name, values, seed)
    own = _vocab(key.expected_answer, key.forbidden_answers, key.expected_tokens,
                 re.sub(r"[\W_]+", " ", str(values[param])))
    return set(words), set(own)


def _unrelated(name: str, param: str, words: set[str], exclude: set[str]) -> set[str]:
    governs = GOVERNS.get((name, param), frozenset())
    out = set()
    for w in words - exclude - governs:
        if re.search(r"\d", w) or not re.search(r"[^\W\d_]", w):
            continue  # figures, and signs with no letter (a currency symbol)
        if (name, param) in DISGUISES and not w.isascii():
            continue
        out.add(w)
    return out


def _pairs():
    for name in BUILTIN:
        if name in PIXELS_ONLY:
            continue
        for p in registry().get(name).params:
            yield pytest.param(name, p.name, id=f"{name}:{p.name}")


@pytest.mark.parametrize(("name", "param"), list(_pairs()))
def test_a_parameter_changes_only_its_own_content(name, param):
    fam = registry().get(name)
    compared = 0
    for seed in SEEDS:
        base = fam.resolve({}, seed)
        try:
            words, own = _content(name, param, base, seed)
        except GenerationError:
            continue
        assert words, f"{name} seed {seed}: no words on the page to compare"
        for other in _others(fam.param(param), base[param]):
            try:
                other_words, other_own = _content(name, param, {**base, param: other}, seed)
            except GenerationError:
                continue
            compared += 1
            before = _unrelated(name, param, words, own | other_own)
            after = _unrelated(name, param, other_words, own | other_own)
            assert before <= after or after <= before, (
                f"{name} seed {seed}: {param} {base[param]!r} -> {other!r} changed content it does not "
                f"govern: gone {sorted(before - after)}, new {sorted(after - before)}")
    assert compared, f"{name}: no two values of {param} could be drawn"
