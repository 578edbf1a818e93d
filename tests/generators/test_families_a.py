"""Trap families, set A: determinism, parameter pinning, and each family's trap mechanism."""

from __future__ import annotations

import re

import pytest

from workbench.generators.base import Family
from workbench.generators.registry import registry
from workbench.pdf.textlayer import text_pymupdf, text_pypdf

FAMILIES = (
    "footnote_override", "split_table_across_pages", "merged_table_cells", "near_duplicate_entities",
    "checkbox_ambiguity", "cross_page_citation", "currency_conversion_clause", "dash_sign_semantics",
    "checksum_rule", "multi_column_reading_order",
)
SEEDS = range(1, 6)

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


def fam(name: str) -> Family:
    return registry().get(name)


def make(name: str, seed: int, **pinned):
    f = fam(name)
    params = f.resolve(pinned, seed)
    return params, f.generate(params, seed)


def page_texts(pdf: bytes) -> list[str]:
    return [" ".join(t.split()) for t in text_pymupdf(pdf)]


def words_at(pdf: bytes, page: int, text: str) -> list[tuple[float, float, float, float]]:
    """Boxes (x0, y0, x1, y1, top-left origin) of every occurrence of `text` on `page`."""
    import pymupdf

    doc = pymupdf.open(stream=pdf, filetype="pdf")
    try:
        return [tuple(r) for r in doc[page].search_for(text)]
    finally:
        doc.close()


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


def test_footnote_is_printed_at_its_declared_size_and_overrides_the_body():
    import pymupdf

    for seed in SEEDS:
        params, g = make("footnote_override", seed)
        doc = pymupdf.open(stream=g.pdf, filetype="pdf")
        sizes: dict[str, set[float]] = {}
        for block in doc[0].get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                for span in line["spans"]:
                    for money in re.findall(r"\$[\d,]+\.\d\d", span["text"]):
                        sizes.setdefault(money, set()).add(round(span["size"], 2))
        doc.close()
        assert sizes[g.key.expected_answer] == {params["footnote_size"]}
        assert sizes[g.key.forbidden_answers[0]] == {10.0}
        # the footnote sits below every clause
        note_y = words_at(g.pdf, 0, g.key.expected_answer)[0][1]
        body_y = words_at(g.pdf, 0, g.key.forbidden_answers[0])[0][1]
        assert note_y > body_y + 100


def test_footnote_carve_outs_become_required_tokens():
    params, g = make("footnote_override", 7, carve_outs="3", ask_carve_outs="true")
    assert g.key.matcher.to_json() == {"type": "tokens_all"}
    assert g.key.expected_tokens[0] == g.key.expected_answer
    assert len(g.key.expected_tokens) == 4
    text = page_texts(g.pdf)[0].lower()
    for token in g.key.expected_tokens[1:]:
        assert token in text


def test_split_table_header_is_on_page_one_and_the_asked_row_on_page_two():
    for seed in SEEDS:
        params, g = make("split_table_across_pages", seed)
        p1, p2 = page_texts(g.pdf)
        meta = g.key.metadata
        assert len(text_pymupdf(g.pdf)) == 2
        assert "Branch January" in p1 and meta["column_label"] in p1
        assert meta["row_label"] in p2 and g.key.expected_answer in p2
        assert g.key.expected_answer not in p1
        assert ("Branch January" in p2) == params["repeat_header"]
        # the header row is the last thing on page 1 above its footer, apart from the rows before the break
        header_y = max(b[1] for b in words_at(g.pdf, 0, "Branch"))
        assert header_y > 792 - 64 - 17 * (params["rows_before_break"] + 2)


def test_merged_region_label_is_printed_once_over_plans_that_repeat():
    for seed in SEEDS:
        params, g = make("merged_table_cells", seed)
        text = page_texts(g.pdf)[0]
        meta = g.key.metadata
        assert text.count(meta["region"]) == 1
        assert text.count(f" {meta['plan']} ") >= params["groups"]
        label_y = words_at(g.pdf, 0, meta["region"])[0][1]
        fee_y = words_at(g.pdf, 0, g.key.expected_answer)[0][1]
        cell = meta["row_height"] * params["span"]
        assert abs(fee_y - label_y) < cell
        for wrong in g.key.forbidden_answers:
            wrong_y = words_at(g.pdf, 0, wrong)[0][1]
            assert abs(wrong_y - fee_y) >= cell - 1


def test_near_duplicate_balances_sit_on_their_own_rows():
    for seed in SEEDS:
        _, g = make("near_duplicate_entities", seed)
        meta = g.key.metadata
        rows = {}
        for name, amount in ((meta["target_entity"], g.key.expected_answer),
                             (meta["decoy_entity"], g.key.forbidden_answers[0])):
            name_ys = {round(b[1]) for b in words_at(g.pdf, 0, name)}
            amount_y = round(words_at(g.pdf, 0, amount)[-1][1])
            assert amount_y in name_ys
            rows[name] = amount_y
        assert rows[meta["target_entity"]] != rows[meta["decoy_entity"]]


def _darkness(img, box, dpi: int) -> float:
    """Peak ink darkness (0 white .. 1 black) inside a box given in points, top-left origin."""
    s = dpi / 72
    x0, y0, x1, y1 = box
    crop = img.crop((int(x0 * s) + 3, int(y0 * s) + 3, int(x1 * s) - 3, int(y1 * s) - 3)).convert("L")
    values = sorted(crop.tobytes())
    return 1 - values[len(values) // 50] / 255  # 2nd percentile: the darkest ink, not one stray pixel


def test_checkbox_marks_differ_by_the_declared_margin_and_only_in_pixels():
    from workbench.pdf.render import render_page

    for seed in SEEDS:
        params, g = make("checkbox_ambiguity", seed)
        img = render_page(g.pdf, 0, dpi=150).to_pil()
        meta = g.key.metadata
        selected = _darkness(img, meta["selected_box"], 150)
        decoy = _darkness(img, meta["decoy_box"], 150)
        assert selected > decoy
        assert selected - decoy == pytest.approx(params["margin"], abs=0.06)
        for layer in (text_pymupdf(g.pdf), text_pypdf(g.pdf)):
            text = "\n".join(layer)
            for leak in ("[x]", "[X]", "\u2612", "\u2611", "\u2713", "\u2714", "\u25a0"):
                assert leak not in text
            assert g.key.expected_answer in text and g.key.forbidden_answers[0] in text


def test_cross_page_definition_is_far_from_its_citation_and_the_decoy_is_beside_it():
    for seed in SEEDS:
        params, g = make("cross_page_citation", seed)
        pages = page_texts(g.pdf)
        meta = g.key.metadata
        assert len(pages) == params["pages"]
        ref = meta["reference_page"] - 1
        assert ref >= 2
        assert g.key.expected_answer in pages[0]
        assert all(g.key.expected_answer not in t for t in pages[1:])
        assert "(as defined in clause 1.1)" in pages[ref]
        assert g.key.forbidden_answers[0] in pages[ref]
        assert f"{meta['reference_clause']}. CHARGES AND PAYMENT" in pages[ref]


def test_currency_answer_is_the_converted_total_at_the_printed_rate():
    for seed in SEEDS:
        _, g = make("currency_conversion_clause", seed)
        text = page_texts(g.pdf)[0]
        meta = g.key.metadata
        m = re.search(r"rate of 1 ([A-Z]{3}) = ([\d.]+) ([A-Z]{3})", text)
        assert m, text
        rate = float(m.group(2))
        total = meta["invoice_total"]
        settle = total * rate if m.group(1) == meta["invoice_currency"] else total / rate
        assert meta["settlement_amount"] == pytest.approx(settle, abs=0.006)
        assert g.key.expected_answer.endswith(f"{meta['settlement_amount']:,.2f}")
        assert g.key.expected_answer not in text
        assert g.key.forbidden_answers[0] in text
        assert f"payable in {meta['settlement_currency']} only" in text


def test_dash_statement_nets_to_the_answer_when_signs_are_read_as_declared():
    for seed in SEEDS:
        params, g = make("dash_sign_semantics", seed)
        meta = g.key.metadata
        sign = meta["credit_glyph"]
        text = text_pymupdf(g.pdf)[0]
        lines = text.splitlines()
        amounts = [ln.strip() for ln in lines if re.fullmatch(rf"[{re.escape(sign)}]?[\d,]+\.\d\d", ln.strip())]
        assert len(amounts) == params["charges"] + params["credits"]
        net = sum(-float(a[1:].replace(",", "")) if a.startswith(sign) else float(a.replace(",", ""))
                  for a in amounts)
        assert g.key.expected_answer == f"${net:,.2f}"
        assert sum(1 for ln in lines if ln.strip() == meta["nil_glyph"]) == params["nil_rows"]
        assert g.key.expected_answer[1:] not in text


def test_checksum_exactly_one_printed_reference_passes_the_printed_rule():
    from workbench.generators.checksum_rule import check_digit, is_valid

    for seed in SEEDS:
        params, g = make("checksum_rule", seed)
        meta = g.key.metadata
        text = page_texts(g.pdf)[0]
        refs = meta["references"]
        assert len(refs) == params["candidates"]
        assert all(r in text and len(r) == params["digits"] for r in refs)
        assert [r for r in refs if is_valid(params["rule"], r)] == [meta["valid_reference"]]
        if params["near_miss"]:
            for r in refs:
                if r != meta["valid_reference"]:
                    assert (int(r[-1]) - check_digit(params["rule"], r[:-1])) % 10 in (1, 9)
        ref_y = words_at(g.pdf, 0, meta["valid_reference"])[0][1]
        amount_boxes = words_at(g.pdf, 0, g.key.expected_answer)
        assert any(0 < b[1] - ref_y < 60 for b in amount_boxes)


def test_checksum_luhn_matches_the_textbook_example():
    from workbench.generators.checksum_rule import is_valid

    assert is_valid("luhn", "79927398713")
    assert not is_valid("luhn", "79927398710")


def test_columns_put_the_decoy_level_with_the_broken_sentence():
    for seed in SEEDS:
        _, g = make("multi_column_reading_order", seed, draw_order="interleaved")
        right_box = words_at(g.pdf, 0, g.key.forbidden_answers[0])[0]
        left_box = words_at(g.pdf, 0, g.key.expected_answer)[0]
        broken = words_at(g.pdf, 0, "members will be")
        assert left_box[0] < 150 < right_box[0]
        assert any(abs(b[1] - right_box[1]) < 1 and b[0] < 300 for b in broken)
        assert left_box[1] > right_box[1]
        # an across-the-page reading runs the sentence into the decoy
        flat = " ".join(text_pypdf(g.pdf)[0].split())
        assert f"will be {g.key.forbidden_answers[0]}" in flat
        _, h = make("multi_column_reading_order", seed, draw_order="by_column")
        flat = " ".join(text_pypdf(h.pdf)[0].split())
        assert f"will be {h.key.expected_answer}" in flat


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
