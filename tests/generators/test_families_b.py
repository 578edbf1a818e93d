"""Families b: rotated, mirrored and upside-down figures, injections, charts, look-alikes, emphasis, glyph runs:
determinism and parameter pinning (each family's trap mechanism is tests/generators/test_<family>.py's)."""

from __future__ import annotations

import pytest

from tests.support.families import SEEDS
from tests.support.families import make as _gen
from workbench.generators.registry import registry
from workbench.pdf.textlayer import text_pymupdf, text_pypdf

FAMILIES_B = (
    "rotated_scan", "prompt_injection_in_body", "chart_axis_inversion", "unicode_confusable_label",
    "upside_down_amount", "mirrored_text", "visual_emphasis_rule", "tiny_print_override",
    "white_text_injection", "split_glyph_runs",
)

# One parameter per family to pin, a value to pin it to, and a way to see it in the output.
PINS = {
    "rotated_scan": ("document", "purchase_order", lambda g, t: "PURCHASE ORDER" in t),
    "prompt_injection_in_body": ("tone", "system", lambda g, t: "[SYSTEM]" in t),
    "chart_axis_inversion": ("periods", "months", lambda g, t: g.key.expected_answer not in ("Q1", "Q2", "Q3", "Q4")),
    "unicode_confusable_label": ("label", "AMOUNT PAYABLE", lambda g, t: "AMOUNT PAYABLE" in t),
    "upside_down_amount": ("adjusted_amount", "1234.56", lambda g, t: g.key.expected_answer.endswith("1,234.56")),
    "mirrored_text": ("approved_amount", "2500", lambda g, t: g.key.expected_answer.endswith("2,500.00")),
    "visual_emphasis_rule": ("cue", "red", lambda g, t: "printed in red" in t),
    "tiny_print_override": ("payable_amount", "777.77", lambda g, t: "777.77" in t),
    "white_text_injection": ("wording", "instruction", lambda g, t: "automated invoice processing" in t),
    "split_glyph_runs": ("vendor", "Vandelay Industries", lambda g, t: "Vandelay Industries" in t),
}


@pytest.mark.parametrize("name", FAMILIES_B)
def test_family_is_listed_with_at_least_three_params_and_a_contract(name):
    fam = registry().get(name)
    assert len(fam.params) >= 3
    assert fam.contract
    assert all(p.help for p in fam.params)


@pytest.mark.parametrize("name", FAMILIES_B)
def test_same_seed_gives_identical_bytes_and_key(name):
    for seed in SEEDS[:3]:
        _, a = _gen(name, seed)
        _, b = _gen(name, seed)
        assert a.pdf == b.pdf
        assert a.key == b.key
    _, other = _gen(name, 99)
    assert other.pdf != a.pdf


@pytest.mark.parametrize("name", FAMILIES_B)
def test_pinning_one_parameter_leaves_the_others_and_shows_in_the_output(name):
    param, value, shows = PINS[name]
    fam = registry().get(name)
    for seed in SEEDS[:3]:
        free = fam.resolve({}, seed)
        pinned = fam.resolve({param: value}, seed)
        assert {k: v for k, v in pinned.items() if k != param} == {k: v for k, v in free.items() if k != param}
        g = fam.generate(pinned, seed)
        text = text_pymupdf(g.pdf)[0] + text_pypdf(g.pdf)[0]
        assert shows(g, text), f"{name}: pinned {param}={value} not visible in the output (seed {seed})"


@pytest.mark.parametrize("name", FAMILIES_B)
def test_answers_are_well_formed(name):
    for seed in SEEDS:
        _, g = _gen(name, seed)
        key = g.key
        assert key.expected_answer and "Respond with only" in key.question
        assert key.expected_answer not in key.forbidden_answers
        assert key.expected_failure_mode
