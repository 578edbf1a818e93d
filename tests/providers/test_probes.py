"""The offline probes (providers/probes.py): a probe's answer is the document's text as its
extractor reads it, pages apart; a probe that cannot run here says what to install."""

from __future__ import annotations

import pytest

from tests.support.fixtures import SAMPLE
from workbench.core.errors import UserError
from workbench.providers import extractors
from workbench.providers.probes import check_probe, probe_answer

TWO_PAGES = SAMPLE / "split_table_across_pages-0001.pdf"


def test_the_answer_is_every_page_s_text_a_form_feed_apart():
    answer = probe_answer("pymupdf", TWO_PAGES.read_bytes(), None)
    pages = answer.split("\f")
    assert len(pages) == 2 and all(p.strip() and not p.endswith("\n") for p in pages)


def test_an_unknown_probe_is_named_with_the_known_ones():
    with pytest.raises(UserError, match=r"^unknown probe 'nosuch'; choose one of pypdf, pymupdf, ocr"):
        probe_answer("nosuch", b"", None)


def test_an_installed_probe_passes_its_check_and_an_absent_one_names_its_extra(monkeypatch):
    check_probe("pypdf")
    monkeypatch.setattr(extractors, "version", lambda name: None)   # as on a machine without the library
    with pytest.raises(UserError, match=r"pip install 'pdfworkbench\[extractors\]'"):
        check_probe("pdfplumber")
