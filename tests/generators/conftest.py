"""Fixtures of the family and scan tests: a born-digital page with a passage and a total, and its
picture."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.generators import kit
from workbench.generators.passages import PASSAGES
from workbench.pdf.render import render_page

PASSAGE = PASSAGES["doyle"]


@pytest.fixture(scope="module")
def page_pdf() -> bytes:
    """A born-digital Letter page: a passage as text, plus a total with a short answer."""
    c, buf = kit.new_canvas()
    y = kit.draw_paragraph(c, PASSAGE.text, 72, 700, 468, font="Times-Roman", size=12)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, y - 40, "TOTAL DUE")
    c.drawString(300, y - 40, "$4,817.25")
    return kit.finish(c, buf)


@pytest.fixture(scope="module")
def clean_page(page_pdf) -> np.ndarray:
    return np.asarray(render_page(page_pdf, 0, dpi=72).to_pil())
