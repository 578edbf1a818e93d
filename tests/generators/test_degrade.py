"""The scan degradation pipeline: knobs, tiers, text layers, determinism and verify."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pymupdf
import pytest

from tests.support.families import mad
from workbench.build.make import generate_case
from workbench.build.saving import add_case
from workbench.build.suite import verify_suite
from workbench.core.errors import UserError
from workbench.core.scan import KNOBS, TIER_NAMES, TIERS, DegradeSpec
from workbench.generators.aging import degrade_image
from workbench.generators.base import AnswerKey
from workbench.generators.degrade import apply_degrade, normalise_spec
from workbench.generators.passages import PASSAGES, keywords
from workbench.pdf.render import render_page
from workbench.pdf.textlayer import text_pymupdf, text_pypdf

PASSAGE = PASSAGES["doyle"]


def passage_key() -> AnswerKey:
    kws = keywords(PASSAGE.first_sentence)
    return AnswerKey("Transcribe the first sentence.", PASSAGE.first_sentence, "misreads",
                     expected_tokens=kws, matcher={"type": "keywords_all", "keywords": kws})


def total_key() -> AnswerKey:
    return AnswerKey("What is the total due?", "$4,817.25", "answers the text layer")


def words(data: bytes) -> set[str]:
    doc = pymupdf.open(stream=data, filetype="pdf")
    try:
        return {w[4].strip(".,;:!?\"'()").casefold() for p in doc for w in p.get_text("words")}
    finally:
        doc.close()


# ---- knobs and tiers ---------------------------------------------------------------------------

def test_every_tier_sets_every_knob_within_its_range():
    assert list(TIERS) == ["clean", "mild", "moderate", "heavy"]
    for tier, knobs in TIERS.items():
        assert set(knobs) == set(KNOBS), tier
        for name, value in knobs.items():
            lo, hi = KNOBS[name][1]
            assert lo <= value <= hi, (tier, name)
    assert TIERS["mild"]["rotation"] == 0.8 and TIERS["mild"]["jpeg_quality"] == 85
    assert TIERS["moderate"]["rotation"] == 2.5 and TIERS["moderate"]["jpeg_quality"] == 70
    assert TIERS["heavy"]["rotation"] == 5.0 and TIERS["heavy"]["jpeg_quality"] == 50
    assert TIERS["heavy"]["dirt"] > 0 and TIERS["moderate"]["texture"] > 0 and TIERS["mild"]["sepia"] > 0


def test_tiers_get_further_from_the_clean_page(page_pdf, clean_page):
    distances = []
    for tier in TIERS:
        scanned, _ = apply_degrade(page_pdf, {"tier": tier, "dpi": 72}, 3, total_key())
        distances.append(mad(render_page(scanned, 0, dpi=72).to_pil(), clean_page))
    assert distances[0] < 0.5  # clean: the page as it was, stored losslessly
    assert distances == sorted(distances) and len(set(distances)) == 4, distances


# ---- the spec ----------------------------------------------------------------------------------

def test_overrides_are_coerced_and_recorded(page_pdf):
    _, spec = apply_degrade(page_pdf, {"tier": "mild", "overrides": {"noise": "12.5", "dirt": "7"},
                                       "text_layer": "none", "dpi": 72}, 1, total_key())
    spec = spec.to_json()
    assert spec["overrides"] == {"noise": 12.5, "dirt": 7}
    assert spec["knobs"]["noise"] == 12.5 and spec["knobs"]["dirt"] == 7
    assert spec["knobs"]["sepia"] == TIERS["mild"]["sepia"]
    assert spec["tier"] == "mild" and spec["dpi"] == 72 and spec["text_layer"] == "none"
    json.dumps(spec)  # it goes into the case JSON


@pytest.mark.parametrize("spec, words_in_message", [
    ({"tier": "heavy", "overrides": {"nois": "3"}}, ["nois", "noise", "rotation", "jpeg_quality"]),
    ({"tier": "heavy", "overrides": {"noise": "loud"}}, ["noise", "number"]),
    ({"tier": "heavy", "overrides": {"rotation": "90"}}, ["rotation", "between"]),
    ({"tier": "heavy", "overrides": {"dirt": "2.5"}}, ["dirt", "integer"]),
    ({"tier": "brutal"}, ["brutal", "clean, mild, moderate, heavy"]),
    ({"tier": "mild", "text_layer": "ocr"}, ["ocr", "faithful"]),
])
def test_bad_specs_are_user_errors_that_say_what_to_do(spec, words_in_message):
    with pytest.raises(UserError) as err:
        normalise_spec(spec)
    for word in words_in_message:
        assert word in str(err.value)


def test_a_spec_is_parsed_once_and_round_trips_through_its_json():
    spec = DegradeSpec.parse({"tier": "mild", "overrides": {"noise": "9", " dpi": "120"}, "text_layer": "faithful"})
    # A dpi override moves out of the overrides; values arrive as numbers.
    assert spec == DegradeSpec("mild", (("noise", 9.0),), "faithful", 120)
    recorded = json.loads(json.dumps(spec.to_json()))
    assert recorded["dpi"] == 120 and recorded["knobs"]["dpi"] == 120 and "dpi" not in recorded["overrides"]
    assert DegradeSpec.parse(recorded) == spec
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.tier = "heavy"
    assert DegradeSpec.parse_optional(None) is None and DegradeSpec.parse_optional({}) is None
    assert TIER_NAMES == tuple(TIERS) == ("clean", "mild", "moderate", "heavy")


def test_unknown_knob_on_the_command_line_exits_2(cli, tmp_path):
    code, _, err = cli("make", "hidden_ocr_mismatch", "--tier", "heavy", "--degrade", "nois=3",
                       "--out", tmp_path)
    assert code == 2 and "unknown degradation knob 'nois'" in err and "noise" in err
    assert not list(tmp_path.iterdir())


# ---- determinism -------------------------------------------------------------------------------

def test_same_input_spec_and_seed_give_the_same_bytes(page_pdf):
    spec = {"tier": "heavy", "overrides": {"lighting": "0.5", "show_through": "0.3", "fade": "0.2"},
            "text_layer": "faithful", "dpi": 72}
    first, norm = apply_degrade(page_pdf, spec, 11, passage_key())
    again, _ = apply_degrade(page_pdf, spec, 11, passage_key())
    assert first == again
    # The recorded (normalised) spec reproduces the bytes, as `verify` relies on.
    from_record, norm2 = apply_degrade(page_pdf, json.loads(json.dumps(norm.to_json())), 11, passage_key())
    assert from_record == first and norm2 == norm
    other_seed, _ = apply_degrade(page_pdf, spec, 12, passage_key())
    assert other_seed != first


def test_the_scan_is_a_valid_pdf_with_the_source_page_size(page_pdf):
    scanned, _ = apply_degrade(page_pdf, {"tier": "moderate", "dpi": 72}, 1, total_key())
    import io

    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(scanned))
    assert len(reader.pages) == 1
    assert [float(v) for v in reader.pages[0].mediabox] == [0, 0, 612, 792]
    doc = pymupdf.open(stream=scanned, filetype="pdf")
    assert len(doc[0].get_images()) == 1
    assert b"CreationDate" not in scanned and b"/ID" not in scanned


# ---- text layers -------------------------------------------------------------------------------

def test_none_has_no_text_layer(page_pdf):
    scanned, _ = apply_degrade(page_pdf, {"tier": "mild", "text_layer": "none", "dpi": 72}, 1, total_key())
    assert [t.strip() for t in text_pymupdf(scanned)] == [""]
    assert [t.strip() for t in text_pypdf(scanned)] == [""]


def test_faithful_has_the_passage_words_for_both_extractors(page_pdf):
    scanned, spec = apply_degrade(page_pdf, {"tier": "heavy", "text_layer": "faithful", "dpi": 72}, 1,
                                  passage_key())
    assert "drifted" not in spec.to_json()
    first = " ".join(PASSAGE.first_sentence.split()[:8])
    for text in (text_pymupdf(scanned)[0], text_pypdf(scanned)[0]):
        assert first in " ".join(text.split())
        assert "$4,817.25" in text
    # Invisible: the words are not drawn over the picture.
    assert b"3 Tr" in pymupdf.open(stream=scanned, filetype="pdf")[0].read_contents()


def test_faithful_words_sit_on_their_rotated_picture(page_pdf):
    # Selecting a word in the scan selects the ink of that word, even on a skewed page.
    scanned, _ = apply_degrade(page_pdf, {"tier": "clean", "overrides": {"rotation": 6},
                                          "text_layer": "faithful", "dpi": 72}, 1, total_key())
    pixels = np.asarray(render_page(scanned, 0, dpi=72).to_pil().convert("L"))
    layer = pymupdf.open(stream=scanned, filetype="pdf")[0].search_for("TOTAL")
    source = pymupdf.open(stream=page_pdf, filetype="pdf")[0].search_for("TOTAL")
    assert len(layer) == len(source) == 1
    moved, here = source[0], layer[0]
    # The page turned about its centre, so a word at the left margin moved down.
    assert here.y0 - moved.y0 > 15
    x0, y0, x1, y1 = (int(v) for v in here)
    assert (pixels[y0:y1, x0:x1] < 128).mean() > 0.1


def test_drifted_changes_the_answer_in_the_text_layer_only(page_pdf):
    key = total_key()
    scanned, spec = apply_degrade(page_pdf, {"tier": "mild", "text_layer": "drifted", "dpi": 72}, 4, key)
    spec = spec.to_json()
    (original, replacement), = spec["drifted"].items()
    assert original == "$4,817.25" and replacement != original and replacement.startswith("$")
    layer = " ".join(text_pymupdf(scanned)) + " ".join(text_pypdf(scanned))
    assert replacement in layer and original not in layer
    assert spec["drifted_answer"] == replacement  # the trap: what a text pipeline answers
    assert key.expected_answer == original and key.forbidden_answers == []


def test_drifted_keywords_of_a_long_answer(page_pdf):
    key = passage_key()
    scanned, spec = apply_degrade(page_pdf, {"tier": "clean", "text_layer": "drifted", "dpi": 72}, 4, key)
    spec = spec.to_json()
    assert set(spec["drifted"]) == set(key.expected_tokens)
    layer = words(scanned)
    for original, replacement in spec["drifted"].items():
        assert original.casefold() not in layer
        assert replacement.casefold() in layer
    assert "drifted_answer" not in spec  # a whole sentence is no single wrong answer


def test_drifted_without_the_answer_in_the_text_layer_is_a_user_error(page_pdf):
    key = AnswerKey("q", "$9,999.99", "x")
    with pytest.raises(UserError, match="nothing to drift"):
        apply_degrade(page_pdf, {"tier": "mild", "text_layer": "drifted", "dpi": 72}, 1, key)


# ---- through make and verify -------------------------------------------------------------------

def test_degraded_case_records_its_spec_and_verify_reproduces_it(tmp_path):
    degrade = {"tier": "heavy", "overrides": {"noise": "9", "lighting": "0.3"},
               "text_layer": "drifted", "dpi": 100}
    case, pdf = generate_case("hidden_ocr_mismatch", 7, {"visible_total_layer": "text"}, degrade)
    add_case(tmp_path, case, pdf)
    recorded = json.loads((tmp_path / f"{case.id}.json").read_text())["degrade"]
    assert recorded["overrides"] == {"lighting": 0.3, "noise": 9.0}
    assert recorded["dpi"] == 100 and recorded["text_layer"] == "drifted" and recorded["drifted"]
    results, _, _ = verify_suite(tmp_path)
    assert all(r.ok for r in results), [r.problems for r in results]

    # verify really rebuilds from the record: change an override and the bytes no longer match.
    path = tmp_path / f"{case.id}.json"
    data = json.loads(path.read_text())
    data["degrade"]["overrides"]["noise"] = 10.0
    path.write_text(json.dumps(data))
    results, _, _ = verify_suite(tmp_path)
    assert any("PDF bytes differ" in p for r in results for p in r.problems)


def test_faithful_words_follow_a_page_rotated_by_its_rotate_entry(page_pdf):
    doc = pymupdf.open(stream=page_pdf, filetype="pdf")
    doc[0].set_rotation(90)
    turned = doc.tobytes()
    scanned, _ = apply_degrade(turned, {"tier": "clean", "text_layer": "faithful", "dpi": 72}, 1, total_key())
    page = pymupdf.open(stream=scanned, filetype="pdf")[0]
    assert (page.rect.width, page.rect.height) == (792, 612)  # the scan is of the page as shown
    src = pymupdf.open(stream=turned, filetype="pdf")[0]
    want = src.search_for("TOTAL")[0] * src.rotation_matrix
    got = page.search_for("TOTAL")[0]
    assert abs(got.x0 - want.x0) < 2 and abs(got.y0 - want.y0) < 2


def test_preview_helpers_give_the_scan_as_an_image(page_pdf):
    from PIL import Image

    from workbench.generators.degrade import render_degraded

    heavy = render_degraded(page_pdf, {"tier": "heavy", "dpi": 72}, 1)
    clean = render_degraded(page_pdf, {"tier": "clean", "dpi": 72}, 1)
    assert heavy.size == clean.size == (612, 792) and heavy.mode == "RGB"
    assert mad(heavy, clean) > 5
    as_pil = degrade_image(Image.fromarray(np.asarray(clean)), {"tier": "heavy", "dpi": 72}, 1)
    assert np.array_equal(np.asarray(as_pil), np.asarray(heavy))
