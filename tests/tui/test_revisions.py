"""The Inspect screen's Revisions pane: the revisions of an incrementally updated PDF and what each
changed, for the shipped sample and for a PDF that pymupdf itself updated incrementally."""

from __future__ import annotations

import json
import shutil

import pymupdf
import pytest
from textual.widgets import TabbedContent

from tests.support.fixtures import SAMPLE, screen_text, settle
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.case_list import CaseList

SIZE = (160, 48)
SHADOW = "incremental_update_shadow-0001-98d8c3"


async def _revisions_shown(app, pilot, case_id: str) -> str:
    assert app.screen.query_one(CaseList).select_case(case_id)
    await settle(pilot)
    app.screen.query_one(TabbedContent).active = "tab-revisions"
    await settle(pilot)
    return screen_text(app)


@pytest.mark.slow
async def test_the_sample_s_revisions_show_what_the_update_stamped(tmp_path):
    suite = tmp_path / "mini"
    shutil.copytree(SAMPLE, suite, ignore=shutil.ignore_patterns("runs", ".suite.lock"))
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown = await _revisions_shown(app, pilot, SHADOW)
        assert "2 revisions" in shown and "viewers show revision 2" in shown
        assert "revision 1 · the original" in shown and "superseded" in shown
        assert "revision 2 · changed page 1" in shown and "+ [1 image]" in shown
        # A case written once says so.
        shown = await _revisions_shown(app, pilot, "hidden_ocr_mismatch-0001")
        assert "written once" in shown and "revision 2" not in shown


async def test_a_pdf_pymupdf_updated_incrementally(tmp_path):
    """Not made by a family: pymupdf writes a page, then an incremental save edits its total."""
    pdf = tmp_path / "edited.pdf"
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Total: $1,200.00", fontsize=12)
    doc.save(pdf)
    doc.close()
    doc = pymupdf.open(pdf)
    page = doc[0]
    page.add_redact_annot(page.search_for("$1,200.00")[0])
    page.apply_redactions()
    page.insert_text((130, 72), "$1,350.00", fontsize=12)
    doc.saveIncr()
    doc.close()
    case = {"id": "edited", "trap_family": "(test)", "seed": 0, "question": "What is the total?",
            "expected_answer": "$1,350.00", "forbidden_answers": ["$1,200.00"], "expected_tokens": [],
            "pdf_path": "edited.pdf", "metadata": {}}
    (tmp_path / "edited.json").write_text(json.dumps(case), encoding="utf-8")
    app = WorkbenchApp(open_source(tmp_path / "edited.json"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one(TabbedContent).active = "tab-revisions"
        await settle(pilot)
        shown = screen_text(app)
        assert "2 revisions" in shown and "revision 2 · changed page 1" in shown
        assert "− Total: $1,200.00" in shown and "+ $1,350.00" in shown
