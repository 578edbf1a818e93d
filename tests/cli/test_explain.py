"""Where each value of an answer came from, as `grade --explain` words it (workbench/cli/explain.py):
one line a value with its source, page and why; a key without its PDF still grades and says the
attribution was skipped."""

from __future__ import annotations

import json
import shutil

from tests.support.fixtures import ONE_CASE
from workbench.checks.sources import Attribution
from workbench.cli.explain import attribute_answer, render_attribution, where_from
from workbench.core.case import load_case


def test_each_value_is_one_line_with_its_source_page_and_why():
    lines = render_attribution([
        Attribution("€53,919.68", "hidden", 0, 10, page=0, detail="invisible text (render mode 3)"),
        Attribution("INV-734711", "question", 12, 22, detail="the question names it"),
    ]).splitlines()
    assert lines == ["  where from:",
                     "    €53,919.68  hidden       p1  invisible text (render mode 3)",
                     "    INV-734711  question      the question names it"]
    assert render_attribution([]) == "  where from: the answer states no value to look for"


def test_the_sample_cases_decoy_is_traced_to_hidden_text():
    case = load_case(ONE_CASE)
    found, skipped = attribute_answer(case, "The total due is €53,919.68.")
    assert skipped is None and [(a.value, a.source, a.page) for a in found] == [("€53,919.68", "hidden", 0)]
    assert "€53,919.68  hidden       p1" in where_from(case, "€53,919.68")


def test_a_key_without_its_pdf_says_the_attribution_was_skipped(tmp_path):
    key = tmp_path / ONE_CASE.name
    shutil.copy(ONE_CASE, key)
    case = load_case(key)
    found, skipped = attribute_answer(case, "€53,919.68")
    assert found is None and skipped.endswith("is not there (the key was given alone); the verdict needs only the key")
    (tmp_path / json.loads(key.read_text())["pdf_path"]).write_bytes(b"%PDF-1.7 not really")
    assert where_from(case, "€53,919.68").startswith("  where from: skipped: ")
    assert where_from(case, "€53,919.68").endswith("; the verdict needs only the key")
