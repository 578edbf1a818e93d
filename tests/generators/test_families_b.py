"""Families b: rotated, mirrored and upside-down figures, injections, charts, look-alikes, emphasis, glyph runs."""

from __future__ import annotations

import pytest

from workbench.generators.registry import registry
from workbench.pdf.textlayer import text_pymupdf, text_pypdf

FAMILIES_B = (
    "rotated_scan", "prompt_injection_in_body", "chart_axis_inversion", "unicode_confusable_label",
    "upside_down_amount", "mirrored_text", "visual_emphasis_rule", "tiny_print_override",
    "white_text_injection", "split_glyph_runs",
)
SEEDS = (1, 2, 3, 4, 5)

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


def _gen(name: str, seed: int, **pinned):
    fam = registry().get(name)
    params = fam.resolve(pinned, seed)
    return params, fam.generate(params, seed)


def _doc(pdf: bytes):
    import pymupdf

    return pymupdf.open(stream=pdf, filetype="pdf")


def _spans(pdf: bytes):
    doc = _doc(pdf)
    out = []
    for block in doc[0].get_text("rawdict")["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                text = "".join(ch["c"] for ch in span["chars"])
                out.append((text, span, line["dir"]))
    return out


def _find_span(pdf: bytes, needle: str):
    for text, span, direction in _spans(pdf):
        if needle in text:
            return span, direction
    raise AssertionError(f"no span holds {needle!r}")


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


# Mechanism-specific checks.

def test_rotated_scan_turns_the_text_or_the_page():
    for seed in SEEDS:
        params, g = _gen("rotated_scan", seed, mode="content")
        span, direction = _find_span(g.pdf, g.key.expected_answer)
        import math

        angle = math.degrees(math.atan2(-direction[1], direction[0]))
        assert abs(abs(angle) - params["angle"]) < 0.2
        assert _doc(g.pdf)[0].rotation == 0
        _, g2 = _gen("rotated_scan", seed, mode="page_rotate")
        assert _doc(g2.pdf)[0].rotation == 90
        page = _doc(g2.pdf)[0]
        assert page.rect.width < page.rect.height  # shown upright, stored sideways


def test_rotated_scan_forbidden_row_sits_level_with_the_asked_description():
    for seed in SEEDS:
        _, g = _gen("rotated_scan", seed, mode="content")
        item = g.key.question.split('"')[1]
        label = _doc(g.pdf)[0].search_for(item)[0]
        own = _find_span(g.pdf, g.key.expected_answer)[0]["bbox"]
        other = _find_span(g.pdf, g.key.forbidden_answers[0])[0]["bbox"]
        mid = (label.y0 + label.y1) / 2
        assert abs((other[1] + other[3]) / 2 - mid) < abs((own[1] + own[3]) / 2 - mid)


def test_prompt_injection_is_in_the_layer_and_hidden_only_in_the_hidden_variant():
    from workbench.pdf.visibility import analyze_page

    for variant in ("visible", "hidden", "small_print"):
        _, g = _gen("prompt_injection_in_body", 3, variant=variant)
        injected = g.key.forbidden_answers[0]
        assert injected in text_pypdf(g.pdf)[0]
        spans = [s for s in analyze_page(g.pdf, 0) if injected in s.text]
        assert spans
        if variant == "hidden":
            assert not any(s.visible for s in spans)
            assert spans[0].render_mode == 3
        elif variant == "visible":
            assert any(s.visible for s in spans)
        else:
            assert spans[0].size == pytest.approx(5.0, abs=0.05)


def test_chart_value_axis_runs_downward():
    for seed in SEEDS:
        _, g = _gen("chart_axis_inversion", seed)
        meta = g.key.metadata
        ticks = {f"{k * meta['step']:,}" for k in range(meta["axis_max"] // meta["step"] + 1)}
        words = [w for w in _doc(g.pdf)[0].get_text("words") if w[4] in ticks and w[0] < 140]
        words.sort(key=lambda w: w[1])  # top to bottom
        values = [int(w[4].replace(",", "")) for w in words]
        assert values[0] == 0 and values == sorted(values) and len(values) >= 5
        hi = meta["values"].index(max(meta["values"]))
        lo = meta["values"].index(min(meta["values"]))
        expected, forbidden = (hi, lo) if meta["asked"] == "highest" else (lo, hi)
        assert g.key.expected_answer == meta["labels"][expected]
        assert g.key.forbidden_answers == [meta["labels"][forbidden]]


def test_chart_bar_for_the_smallest_value_is_the_tallest():
    _, g = _gen("chart_axis_inversion", 2, style="bar")
    rects = [d["rect"] for d in _doc(g.pdf)[0].get_drawings() if d.get("fill") and d["fill"][2] > 0.6]
    heights = [r.height for r in sorted(rects, key=lambda r: r.x0)]
    values = g.key.metadata["values"]
    assert heights.index(max(heights)) == values.index(min(values))


def test_confusable_label_hides_the_asked_row_from_a_text_search():
    pytest.importorskip("reportlab")
    for seed in SEEDS:
        _, g = _gen("unicode_confusable_label", seed)
        meta = g.key.metadata
        text = text_pymupdf(g.pdf)[0]
        assert meta["disguised_label"] != meta["plain_label"]
        assert text.count(meta["plain_label"]) == 1 + g.key.question.count(meta["plain_label"]) - 1
        assert meta["disguised_label"] in text
        # The only plain-label row is followed by the forbidden amount; the disguised one by the answer.
        after_plain = text.split(meta["plain_label"], 1)[1].split()[0]
        after_fake = text.split(meta["disguised_label"], 1)[1].split()[0]
        assert after_plain == g.key.forbidden_answers[0]
        assert after_fake == g.key.expected_answer


def test_upside_down_stamp_runs_right_to_left():
    for seed in SEEDS:
        params, g = _gen("upside_down_amount", seed)
        _, direction = _find_span(g.pdf, g.key.expected_answer)
        assert direction[0] < -0.98  # baseline points left: turned (about) 180 degrees
        _, upright = _find_span(g.pdf, g.key.forbidden_answers[0])
        assert upright == (1.0, 0.0)


def test_mirrored_stamp_glyphs_are_laid_out_in_reverse():
    for seed in SEEDS:
        _, g = _gen("mirrored_text", seed, mirror="left_right")
        span, _ = _find_span(g.pdf, g.key.expected_answer)
        xs = [ch["origin"][0] for ch in span["chars"]]
        assert xs == sorted(xs, reverse=True)
        _, g = _gen("mirrored_text", seed, mirror="top_bottom")
        span, _ = _find_span(g.pdf, g.key.expected_answer)
        xs = [ch["origin"][0] for ch in span["chars"]]
        assert xs == sorted(xs)  # order kept; letters flipped top to bottom instead
        bbox = span["bbox"]
        assert span["chars"][0]["origin"][1] < (bbox[1] + bbox[3]) / 2 + 0.5  # baseline above the glyphs


def test_visual_emphasis_is_in_the_pixels_not_the_words():
    cue_words = {"bold": "bold", "shaded": "shaded", "red": "red"}
    for cue in cue_words:
        for seed in SEEDS[:3]:
            _, g = _gen("visual_emphasis_rule", seed, cue=cue)
            text = text_pypdf(g.pdf)[0]
            assert text.lower().split().count(cue_words[cue]) == 1  # the rule's own word, nothing else
            span, _ = _find_span(g.pdf, g.key.expected_answer)
            decoy, _ = _find_span(g.pdf, g.key.forbidden_answers[0])
            assert decoy["size"] > span["size"] * 1.3
            if cue == "bold":
                assert "Bold" in span["font"] and "Bold" not in decoy["font"]
            elif cue == "red":
                assert span["color"] != 0 and decoy["color"] == 0
            else:
                fills = [d for d in _doc(g.pdf)[0].get_drawings()
                         if d.get("fill") and all(abs(v - 0.8) < 0.01 for v in d["fill"])]
                box = span["bbox"]
                assert any(f["rect"].y0 <= box[1] and f["rect"].y1 >= box[3] for f in fills)


def test_tiny_print_size_is_the_parameter():
    for size in (4.0, 5.5):
        _, g = _gen("tiny_print_override", 2, font_size=size)
        span, _ = _find_span(g.pdf, g.key.expected_answer)
        assert span["size"] == pytest.approx(size, abs=0.01)
        total, _ = _find_span(g.pdf, g.key.forbidden_answers[0])
        assert total["size"] > 2 * size


def test_white_text_is_in_the_layer_but_not_on_the_page():
    from workbench.pdf.visibility import analyze_page

    for placement in ("white_fill", "off_page", "covered"):
        _, g = _gen("white_text_injection", 4, placement=placement)
        hidden = g.key.forbidden_answers[0]
        assert hidden in text_pypdf(g.pdf)[0]
        spans = [s for s in analyze_page(g.pdf, 0) if hidden in s.text]
        assert spans and not any(s.visible for s in spans), placement
        if placement == "white_fill":
            span, _ = _find_span(g.pdf, hidden)
            assert span["color"] == 0xFFFFFF
        shown = [s for s in analyze_page(g.pdf, 0) if g.key.expected_answer in s.text]
        assert any(s.visible for s in shown)


def test_split_glyphs_break_extraction_but_line_up_on_the_page():
    for split in ("shuffled", "reversed", "groups"):
        for seed in SEEDS[:3]:
            _, g = _gen("split_glyph_runs", seed, split=split)
            figure = g.key.expected_answer
            assert figure not in text_pypdf(g.pdf)[0]
            assert figure not in text_pymupdf(g.pdf)[0]
            # Read by position, the glyphs on the total's baseline spell the figure whole.
            box = g.key.metadata["figure_box"]
            chars = []
            for _, span, _ in _spans(g.pdf):
                for ch in span["chars"]:
                    x, y = ch["origin"]
                    if ch["c"].strip() and box[0] - 1 <= x <= box[2] and box[1] <= y <= box[3] + 2:
                        chars.append((x, ch["c"]))
            assert "".join(c for _, c in sorted(chars)) == figure
