"""The workbench on a suite folder with a FIFO or a symbolic link where a case's PDF should be
(issue 33, items 3 and 4): the case says why in its pane, the next case opens, nothing blocks."""

from __future__ import annotations

import os

import pytest

from tests.support.fixtures import settle
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.text_layers import TextLayerView


@pytest.mark.parametrize("hostile", ["fifo", "link"])
async def test_a_fifo_or_a_link_as_the_first_pdf_is_one_line_and_the_next_case_opens(suite_copy, tmp_path,
                                                                                     hostile):
    (suite_copy / "suite.json").unlink()  # a plain folder of cases: the bad one is still listed
    pdf = suite_copy / "hidden_ocr_mismatch-0001.pdf"
    if hostile == "fifo":
        pdf.unlink()
        os.mkfifo(pdf)   # the old workbench blocked reading it, for ever
        words = "is a FIFO (named pipe), not a PDF"
    else:
        pdf.rename(tmp_path / "elsewhere.pdf")
        os.symlink(tmp_path / "elsewhere.pdf", pdf)
        words = "is a symbolic link; a suite folder's files must be its own"
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        shown = [n.message for n in app._notifications]
        assert len([m for m in shown if words in m]) == 1   # once: never again as a worker's crash
        layer = app.screen.query_one("#text-pymupdf", TextLayerView)
        assert "could not be read" in layer.plain
        await pilot.press("down")
        await settle(pilot)
        assert "TOTAL DUE" in layer.plain
