"""The white_text mutation (workbench/generators/mutations/white_text.py): an instruction or decoy
in text a person cannot see: white on white, under a white box, off the page, or at half a point.
A text pipeline (or a model given the text layer) reads it as part of the document.

On PDFs others made, each result checked as a user would see it (tests/support/foreign_pdfs.py)."""

from __future__ import annotations

import json

import pytest

from tests.support.foreign_pdfs import (
    adopt,
    platypus_table,
    texts,
)
from workbench.core.contract import Arming


@pytest.mark.parametrize("seed", range(1, 9))
def test_white_text_seeded_default_is_on_the_page_and_read_by_every_extractor(cli, tmp_path, seed):
    source = platypus_table()
    code, _, err = adopt(cli, tmp_path, source, "doc")
    assert code == 0, err
    code, _, err = cli("mutate", tmp_path / "suite" / "doc.json", "--trap", "white_text", "--seed", seed,
                       "--id", "m")
    assert code == 0, err   # the lint passed: each extractor reads the decoy
    case = json.loads((tmp_path / "suite" / "m.json").read_text())
    pdf = (tmp_path / "suite" / "m.pdf").read_bytes()
    decoy = case["forbidden_answers"][-1]
    assert case["params"]["method"] != "off_page"
    for reader, text in texts(pdf).items():
        assert decoy in text, reader
    [[_, box]] = case["metadata"]["mutation"]["places"]
    assert 0 <= box[0] and box[2] <= 612 and 0 <= box[1] and box[3] <= 792


def test_white_text_off_page_is_pinned_only_and_the_lint_says_pypdf_alone_reads_it(cli, tmp_path):
    from workbench.checks.lint import lint_case
    from workbench.core.suite import load_suite

    code, _, err = adopt(cli, tmp_path, platypus_table(), "doc")
    assert code == 0, err
    code, _, err = cli("mutate", tmp_path / "suite" / "doc.json", "--trap", "white_text",
                       "--param", "method=off_page", "--id", "m")
    assert code == 0, err
    case = load_suite(tmp_path / "suite").case("m")
    pdf = case.pdf_file.read_bytes()
    decoy = case.forbidden_answers[-1]
    read = texts(pdf)
    assert decoy in read["pypdf"] and decoy not in read["pymupdf"]
    assert Arming(f"forbidden:{len(case.forbidden_answers) - 1}", "text_layer",
                  "an extractor that reads past the page's edge (pypdf) reads it") in case.contract
    assert [f for f in lint_case(case, pdf) if f.severity == "error"] == []
