"""Trap families, set A: determinism and parameter pinning (each family's trap mechanism is
tests/generators/test_<family>.py's)."""

from __future__ import annotations

import pytest

from tests.support.families import SEEDS, fam, make, page_texts
from workbench.generators.registry import registry

FAMILIES = (
    "footnote_override", "split_table_across_pages", "merged_table_cells", "near_duplicate_entities",
    "checkbox_ambiguity", "cross_page_citation", "currency_conversion_clause", "dash_sign_semantics",
    "checksum_rule", "multi_column_reading_order",
)

# family -> (param to pin, value, something that must then show in the PDF text ("text:") or key)
PINS = {
    "footnote_override": ("override_value", "123456", "text:$123,456.00"),
    "split_table_across_pages": ("columns", "7", "text:June"),
    "merged_table_cells": ("vendor", "Tyrell Components LLC", "text:Tyrell Components LLC"),
    "near_duplicate_entities": ("stem", "Halcyon", "text:Halcyon Ltd."),
    "checkbox_ambiguity": ("margin", "0.5", "meta:margin=0.5"),
    "cross_page_citation": ("fee", "12345.67", "text:$12,345.67"),
    "currency_conversion_clause": ("total", "4321", "text:4,321.00"),
    "dash_sign_semantics": ("credit_glyph", "en_dash", "text:\u2013"),
    "checksum_rule": ("rule", "luhn", "text:Luhn check"),
    "multi_column_reading_order": ("draw_order", "by_column", "meta:draw_order=by_column"),
}


@pytest.mark.parametrize("name", FAMILIES)
def test_family_declares_enough_params_and_a_contract(name):
    f = fam(name)
    minimum = 4 if name in ("footnote_override", "split_table_across_pages") else 3
    assert len([p for p in f.params if p.seeded]) >= minimum
    for p in f.params:
        assert p.help and (p.choices or p.pool or p.type == "bool" or p.min is not None)
    assert any(c.target == "expected" for c in f.contract)
    assert any(c.target.startswith("forbidden") for c in f.contract)


@pytest.mark.parametrize("name", FAMILIES)
def test_same_seed_gives_identical_bytes_and_keys(name):
    for seed in (1, 2):
        _, a = make(name, seed)
        _, b = make(name, seed)
        assert a.pdf == b.pdf
        assert a.key == b.key
    assert make(name, 1)[1].pdf != make(name, 2)[1].pdf


@pytest.mark.parametrize("name", FAMILIES)
def test_answers_are_distinct_and_question_says_how_to_respond(name):
    for seed in SEEDS:
        _, g = make(name, seed)
        key = g.key
        assert key.expected_answer and key.forbidden_answers
        for wrong in key.forbidden_answers:
            assert wrong != key.expected_answer
            assert wrong not in key.expected_answer and key.expected_answer not in wrong
        assert "Respond with only" in key.question
        assert key.expected_failure_mode


@pytest.mark.parametrize("name", FAMILIES)
def test_pinning_one_param_moves_no_other(name):
    f = fam(name)
    pname, value, evidence = PINS[name]
    for seed in (1, 2, 3):
        free = f.resolve({}, seed)
        pinned = f.resolve({pname: value}, seed)
        assert pinned[pname] == f.param(pname).coerce(value)
        assert {k: v for k, v in pinned.items() if k != pname} == {k: v for k, v in free.items() if k != pname}
        g = f.generate(pinned, seed)
        kind, _, want = evidence.partition(":")
        if kind == "text":
            assert want in "\n".join(page_texts(g.pdf))
        else:
            key, _, val = want.partition("=")
            assert str(g.key.metadata[key]) == val


def test_cross_process_make_gives_the_same_bytes(tmp_path, run_cli_subprocess):
    done = run_cli_subprocess("make", "split_table_across_pages", "--seed", "4", "--out", tmp_path)
    assert done.returncode == 0, done.stderr
    written = (tmp_path / "split_table_across_pages-0004.pdf").read_bytes()
    assert written == make("split_table_across_pages", 4)[1].pdf


def test_names_ending_in_a_full_stop_never_double_it():
    """ "Umbrella Facilities Ltd.. What is" read badly: a name that ends a sentence keeps one stop."""
    checked = 0
    for f in registry().families.values():
        for p in f.params:
            for name in [v for v in (p.pool or p.choices or []) if isinstance(v, str) and v.endswith(".")][:2]:
                params = f.resolve({p.name: name}, 1)
                g = f.generate(params, 1)
                text = " ".join(page_texts(g.pdf))
                assert ".." not in g.key.question.replace("...", ""), (f.name, g.key.question)
                assert f"{name}." not in text, (f.name, name)
                checked += 1
    assert checked >= 8
