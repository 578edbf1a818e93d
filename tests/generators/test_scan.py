"""The scan mutation (workbench/generators/mutations/scan.py): the document scanned at a tier, its
knobs written NAME=VALUE, and the key's clauses after it: the answer in the faithful text layer or
only in the pixels, and a drifted layer's value a new forbidden answer read by text pipelines."""

from __future__ import annotations

import pytest

from tests.support.families import page_texts
from tests.support.invoices import invoice_pdf
from workbench.core.contract import Arming
from workbench.core.key import AnswerKey
from workbench.generators.base import GenerationError
from workbench.generators.mutations import scan

KEY = AnswerKey("What is the total due?", "$4,711.00", "reads the hidden total", ["$9,999.00"])


@pytest.fixture(scope="module")
def pdf() -> bytes:
    return invoice_pdf("$4,711.00", "$9,999.00")


def scanned(pdf: bytes, text_layer: str, knobs: str = "-"):
    return scan.apply(pdf, None, KEY, (), {"tier": "clean", "text_layer": text_layer, "dpi": 72, "knobs": knobs}, 5)


def test_knobs_are_name_value_pairs():
    assert scan.overrides("blur=1.2, noise=10 -") == {"blur": "1.2", "noise": "10"}
    assert scan.overrides("-") == {}
    with pytest.raises(GenerationError, match=r"parameter 'knobs': write each as NAME=VALUE; got 'blur'"):
        scan.overrides("blur")


def test_a_faithful_scan_keeps_the_words_and_reads_the_answer_from_its_layer(pdf):
    out = scanned(pdf, "faithful", "rotation=1")
    assert "$4,711.00" in page_texts(out.pdf)[0]
    assert out.contract == (Arming("expected", "text_layer", "scanned, text layer faithful"),)
    assert out.key == KEY and out.details["scan"]["overrides"] == {"rotation": 1.0}
    assert out.details["scan"]["tier"] == "clean" and out.details["scan"]["dpi"] == 72


def test_a_scan_without_a_layer_leaves_the_answer_in_the_pixels_only(pdf):
    out = scanned(pdf, "none")
    assert page_texts(out.pdf) == [""]
    assert [(c.target, c.where) for c in out.contract] == [("expected", "pixels_only")]


def test_a_drifted_layer_reads_another_value_which_becomes_a_forbidden_answer(pdf):
    out = scanned(pdf, "drifted")
    drifted = out.key.metadata["drifted_answer"]
    assert drifted != "$4,711.00" and out.key.forbidden_answers == ["$9,999.00", drifted]
    assert drifted in page_texts(out.pdf)[0]
    assert [(c.target, c.where) for c in out.contract][1:] == [("forbidden:1", "hidden"), ("forbidden:1", "text_layer")]
