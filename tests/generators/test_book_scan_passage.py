"""The book_scan_passage family and the ocr-tiers suite spec."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from workbench.build.make import generate_case
from workbench.build.suite import build_suite, read_spec, verify_suite
from workbench.generators import book_scan_passage as fam
from workbench.generators.passages import PASSAGES, STOPWORDS, keywords
from workbench.generators.registry import registry
from workbench.pdf.textlayer import text_pymupdf, text_pypdf

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "specs" / "ocr-tiers.toml"
CORE_OCR = ROOT / "specs" / "core-pdf-ocr.toml"


def test_at_least_five_passages_each_with_a_first_sentence_and_five_keywords():
    assert len(PASSAGES) >= 5
    for p in PASSAGES.values():
        assert p.paragraphs[0].startswith(p.first_sentence), p.id
        kws = keywords(p.first_sentence)
        assert len(kws) == 5 and len({k.lower() for k in kws}) == 5, p.id
        for k in kws:
            assert k.lower() not in STOPWORDS and k in p.first_sentence, (p.id, k)


def test_the_family_is_registered_with_its_parameters():
    family = registry().get("book_scan_passage")
    names = {p.name for p in family.params}
    assert {"passage", "font", "size", "leading", "margins", "tier"} <= names
    assert family.param("tier").choices == ("clean", "mild", "moderate", "heavy")
    assert set(family.param("passage").choices) == set(PASSAGES)


@pytest.mark.parametrize("passage", sorted(PASSAGES))
def test_key_asks_for_the_first_sentence_graded_by_keywords_with_no_hedge(passage):
    case, _ = generate_case("book_scan_passage", 1, {"passage": passage})
    p = PASSAGES[passage]
    assert "Transcribe the first sentence of the passage verbatim." in case.question
    assert case.expected_answer == p.first_sentence
    assert case.expected_tokens == keywords(p.first_sentence)
    assert case.matcher.to_json() == {"type": "keywords_all", "keywords": case.expected_tokens, "no_hedge": True}


def test_the_printed_page_holds_the_first_sentence_with_a_running_head_and_number():
    params = registry().get("book_scan_passage").resolve({"passage": "austen", "page_number": 52}, 1)
    text = " ".join(text_pymupdf(fam.typeset(params))[0].split())
    assert PASSAGES["austen"].first_sentence in text
    assert text.startswith("Pride and Prejudice 52")  # verso: the book's title and an even number


@pytest.mark.parametrize("tier", fam.TIERS)
def test_every_tier_is_a_scan_with_no_text_layer(tier):
    case, pdf = generate_case("book_scan_passage", 2, {"passage": "twain", "tier": tier})
    assert [t.strip() for t in text_pymupdf(pdf)] == [""]
    assert [t.strip() for t in text_pypdf(pdf)] == [""]
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    assert len(doc) == 1 and len(doc[0].get_images()) == 1
    assert (doc[0].rect.width, doc[0].rect.height) == fam.PAGE
    assert case.metadata["tier"] == tier


def test_same_params_and_seed_give_the_same_bytes_and_tiers_differ():
    heavy = generate_case("book_scan_passage", 3, {"passage": "dickens", "tier": "heavy"})[1]
    assert heavy == generate_case("book_scan_passage", 3, {"passage": "dickens", "tier": "heavy"})[1]
    clean = generate_case("book_scan_passage", 3, {"passage": "dickens", "tier": "clean"})[1]
    assert clean != heavy


def test_dejavu_serif_when_the_system_has_it():
    if not Path(fam._DEJAVU).exists():
        pytest.skip("fonts-dejavu not installed")
    params = registry().get("book_scan_passage").resolve({"passage": "doyle", "font": "DejaVuSerif"}, 1)
    assert "Sherlock" in text_pymupdf(fam.typeset(params))[0]


def test_ocr_tiers_spec_has_every_passage_at_every_tier():
    name, _, items = read_spec(SPEC)
    assert name == "ocr-tiers"
    pairs = {(i.params["passage"], i.params["tier"]) for i in items}
    assert pairs == {(p, t) for p in PASSAGES for t in fam.TIERS}
    assert len(items) == len(pairs) and all(i.degrade is None for i in items)


def test_a_shard_of_ocr_tiers_builds_and_verifies(tmp_path):
    _, count = build_suite(SPEC, tmp_path, shard="1/8")
    assert count == 4
    results, _, _ = verify_suite(tmp_path)
    cases = [r for r in results if r.case_id != "suite.json"]
    assert len(cases) == 4 and all(r.ok for r in cases), [r.problems for r in results]
    # ... and the suite is not whole: verify names the seven shards not built
    (whole,) = [r for r in results if r.case_id == "suite.json"]
    assert "shards 2/8, 3/8, 4/8, 5/8, 6/8, 7/8, 8/8 of this build are missing" in whole.problems[0]


# The five books the OCR degradation benchmark names, by the titles our running heads print.
BENCHMARK_BOOKS = {"Alice\u2019s Adventures in Wonderland", "The Adventures of Tom Sawyer",
                   "Adventures of Huckleberry Finn", "Dracula", "Pride and Prejudice"}


def test_core_pdf_ocr_spec_is_the_five_benchmark_books_at_four_tiers():
    name, _, items = read_spec(CORE_OCR)
    assert name == "core-pdf-ocr"
    pairs = {(PASSAGES[i.params["passage"]].title, i.params["tier"]) for i in items}
    assert pairs == {(b, t) for b in BENCHMARK_BOOKS for t in fam.TIERS}
    assert len(items) == 20 and all(i.family == "book_scan_passage" for i in items)


@pytest.mark.slow   # 20 OCR cases built and verified: 40 s at load 13
def test_core_pdf_ocr_builds_20_cases_that_verify_and_grade_first_sentences(tmp_path):
    from workbench.core.suite import load_suite
    from workbench.grading.matchers import grade

    _, count = build_suite(CORE_OCR, tmp_path)
    assert count == 20
    results, _, _ = verify_suite(tmp_path)
    assert len(results) == 20 and all(r.ok for r in results), [r.problems for r in results]
    for case in load_suite(tmp_path).cases:
        assert case.question.endswith("Transcribe the first sentence of the passage verbatim.")
        assert case.matcher.type == "keywords_all" and case.matcher.no_hedge is True
        assert len(case.matcher.keywords) == 5
        assert grade(case, case.expected_answer).correct
        assert not grade(case, "I cannot read the page clearly, but it seems to say: "
                         + case.expected_answer).correct


def test_the_readme_gates_core_pdf_ocr_at_080():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pdfworkbench build specs/core-pdf-ocr.toml --out suites/core-pdf-ocr" in readme
    assert "pdfworkbench run suites/core-pdf-ocr --reader" in readme
    assert "--fail-threshold 0.8" in readme.split("core-pdf-ocr --reader", 1)[1].splitlines()[0]
